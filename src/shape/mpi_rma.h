/*
 * mpi_rma.h - the MPI one-sided module: the only code that names the MPI
 * window (src/shape/mpi_rma.c).
 *
 * It creates the window over the symmetric segments, frees it, and wraps
 * each MPI RMA call shmpi makes (put, get, accumulate, get_accumulate,
 * fetch-and-op, compare-and-swap, flush) with the target's world PE and a
 * displacement from shmpi_rma_disp.  Today the window is one dynamic window
 * whose displacements are the targets' addresses; a second window kind (an
 * allocated window, say, where some MPI library cannot do dynamic ones) is a
 * change in this module alone.  The wrappers every transfer calls are
 * inline: the MPI path costs no call more than the MPI call itself.
 */
#ifndef SHMPI_MPI_RMA_H
#define SHMPI_MPI_RMA_H

#include "shmpi.h"

/* The window (MPI_WIN_NULL where every PE maps all memory: one PE, or one
 * node sharing everything), and for each segment every PE's base address. */
extern MPI_Win shmpi_rma_win;
extern MPI_Aint *shmpi_rma_base[SHMPI_NSEGS];

/* ---- the window: start-up and end (collective; src/shape/window.c) ---------------- */
/* Creates the window over the segments of shmpi_g.seg (mapped by then) and
 * opens the passive-target epoch that lasts until shmpi_rma_fini; also
 * chooses the MPI library's special cases (src/shape/mpi_rma.c). */
void shmpi_rma_init(void);
void shmpi_rma_fini(void);
/* Whether this MPI's one-sided operations need the target to enter MPI (Open
 * MPI 5's osc/rdma without hardware atomics): then the progress thread runs
 * wherever MPI RMA carries traffic.  From the library version, so callable
 * before MPI_Init and the same on every PE. */
bool shmpi_mpi_needs_target_progress(void);
/* Whether a remote MPI_Fetch_and_op with MPI_BAND, MPI_BOR or MPI_BXOR is
 * lost on this window (Open MPI 5.0 osc/rdma; after shmpi_rma_init). */
bool shmpi_rma_bitwise_fetch_op_lost(void);
/* Whether an MPI_ANY_SOURCE receive posted after its message arrived may
 * never complete (MPICH 5.0's ucx netmod): then receives from any PE probe
 * (MPI_Improbe) before they receive.  From the library version and the
 * environment (MPICH's netmod choice). */
bool shmpi_mpi_any_source_misses_arrived(void);
/* Whether any MPI RMA can happen (there is a window). */
static inline bool shmpi_rma_active(void)
{
    return shmpi_rma_win != MPI_WIN_NULL;
}

/* ---- displacements ------------------------------------------------------------------ */
/* The displacement of byte `off` of PE pe's segment s: a dynamic window
 * takes the target's absolute address. */
static inline MPI_Aint shmpi_rma_disp(int s, int pe, size_t off)
{
    return shmpi_rma_base[s][pe] + (MPI_Aint)off;
}

/* ---- the PEs reached ------------------------------------------------------------------ */
/* Bit pe: this PE's MPI RMA reached PE pe (finalize's handshake, runtime.c, closes
 * those connections by a round trip).  Made with the window; it outlives it. */
extern struct shmpi_pe_set shmpi_rma_reached;
static inline void shmpi_rma_reach(int pe)
{
    shmpi_pe_set_add(&shmpi_rma_reached, pe);
}
/* Frees it (finalize, once the handshake is done or not needed). */
void shmpi_rma_reached_free(void);

/* ---- the calls ---------------------------------------------------------------------- */
static inline void shmpi_rma_put(const void *origin, int count, MPI_Datatype otype, int pe,
                                 MPI_Aint disp, int tcount, MPI_Datatype ttype)
{
    shmpi_rma_reach(pe);
    MPI_Put(origin, count, otype, pe, disp, tcount, ttype, shmpi_rma_win);
}
static inline void shmpi_rma_rput(const void *origin, int count, MPI_Datatype otype, int pe,
                                  MPI_Aint disp, int tcount, MPI_Datatype ttype,
                                  MPI_Request *req)
{
    shmpi_rma_reach(pe);
    MPI_Rput(origin, count, otype, pe, disp, tcount, ttype, shmpi_rma_win, req);
}
static inline void shmpi_rma_get(void *origin, int count, MPI_Datatype otype, int pe,
                                 MPI_Aint disp, int tcount, MPI_Datatype ttype)
{
    shmpi_rma_reach(pe);
    MPI_Get(origin, count, otype, pe, disp, tcount, ttype, shmpi_rma_win);
}
static inline void shmpi_rma_rget(void *origin, int count, MPI_Datatype otype, int pe,
                                  MPI_Aint disp, int tcount, MPI_Datatype ttype,
                                  MPI_Request *req)
{
    shmpi_rma_reach(pe);
    MPI_Rget(origin, count, otype, pe, disp, tcount, ttype, shmpi_rma_win, req);
}
/* One word of `type` (the accumulate family, atomic with each other). */
static inline void shmpi_rma_accumulate(const void *origin, MPI_Datatype type, int pe,
                                        MPI_Aint disp, MPI_Op op)
{
    shmpi_rma_reach(pe);
    MPI_Accumulate(origin, 1, type, pe, disp, 1, type, op, shmpi_rma_win);
}
static inline void shmpi_rma_get_accumulate(const void *origin, void *result,
                                            MPI_Datatype type, int pe, MPI_Aint disp,
                                            MPI_Op op)
{
    shmpi_rma_reach(pe);
    MPI_Get_accumulate(origin, 1, type, result, 1, type, pe, disp, 1, type, op,
                       shmpi_rma_win);
}
static inline void shmpi_rma_rget_accumulate(const void *origin, void *result,
                                             MPI_Datatype type, int pe, MPI_Aint disp,
                                             MPI_Op op, MPI_Request *req)
{
    shmpi_rma_reach(pe);
    MPI_Rget_accumulate(origin, 1, type, result, 1, type, pe, disp, 1, type, op,
                        shmpi_rma_win, req);
}
static inline void shmpi_rma_fetch_and_op(const void *origin, void *result, MPI_Datatype type,
                                          int pe, MPI_Aint disp, MPI_Op op)
{
    shmpi_rma_reach(pe);
    MPI_Fetch_and_op(origin, result, type, pe, disp, op, shmpi_rma_win);
}
/* MPI_Compare_and_swap of a `size`-byte word, or its equivalent where the
 * library cannot do it (Open MPI 4.1, own word; src/shape/mpi_rma.c). */
void shmpi_rma_compare_and_swap(const void *value, const void *compare, void *result,
                                MPI_Datatype type, size_t size, int pe, MPI_Aint disp);
static inline void shmpi_rma_flush(int pe)
{
    MPI_Win_flush(pe, shmpi_rma_win);
}
static inline void shmpi_rma_flush_local(int pe)
{
    MPI_Win_flush_local(pe, shmpi_rma_win);
}
static inline void shmpi_rma_flush_local_all(void)
{
    MPI_Win_flush_local_all(shmpi_rma_win);
}
static inline void shmpi_rma_flush_all(void)
{
    MPI_Win_flush_all(shmpi_rma_win);
}

/* ---- what depends on the MPI library ---------------------------------------------- */
/* The first line of MPI_Get_library_version. */
void shmpi_mpi_library(char *text, size_t len);
/* For SHMEM_INFO: the window's kind and component. */
const char *shmpi_rma_window_text(void);

#endif /* SHMPI_MPI_RMA_H */
