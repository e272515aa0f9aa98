/*
 * flush.h - completion of MPI RMA that can yield (flush.c), and the mark
 * a put or get on the MPI path leaves for quiet (shmpi_mark_pending).
 */
#ifndef SHMPI_FLUSH_H
#define SHMPI_FLUSH_H

#include "shmpi.h"

/* Completion of MPI RMA (flush.c).  In yield mode (shmpi_g.yield_waits)
 * each first waits, yielding, for a probe to the target, so an origin does
 * not spin in MPI_Win_flush while the PE it waits for needs its core. */
void shmpi_flush(int pe);                   /* MPI_Win_flush */
/* Reads a word with MPI_NO_OP (atomic with the window's compare-and-swaps)
 * and waits for the value; `result` gets the word's bytes at its start. */
void shmpi_fetch_word(int pe, MPI_Aint disp, MPI_Datatype type, uint64_t *result);
/* MPI_Win_flush after an accumulate on the word at `disp`: the probe reads
 * that word (MPICH answers it after the operation; the flush completes the
 * operation either way). */
void shmpi_flush_word(int pe, MPI_Aint disp, MPI_Datatype type);
void shmpi_flush_all(void);                 /* MPI_Win_flush_all */
/* Empties the set: start(pe, result, req) makes one request for each PE it
 * held (result: 8 bytes it may receive), and each is waited for
 * (shmpi_wait_request), 64 PEs at a time. */
void shmpi_pe_set_wait_each(struct shmpi_pe_set *set,
                            void (*start)(int pe, uint64_t *result, MPI_Request *req));
/* Records a PE with MPI operations for shmpi_flush_all to wait for. */
void shmpi_flush_mark(int pe);
/* Decides shmpi_g.yield_waits (init, after the job's shape). */
void shmpi_flush_init(void);
void shmpi_flush_fini(void);

/* Records that `ctx` has MPI operations to world PE `pe` for quiet to
 * complete. */
static inline void shmpi_mark_pending(struct shmpi_ctx *ctx, int pe)
{
    if (shmpi_g.yield_waits)
        shmpi_flush_mark(pe);
    if (!atomic_load_explicit(&ctx->mpi_pending, memory_order_relaxed))
        atomic_store_explicit(&ctx->mpi_pending, 1, memory_order_relaxed);
    if (!atomic_load_explicit(&shmpi_g.mpi_pending_any, memory_order_relaxed))
        atomic_store_explicit(&shmpi_g.mpi_pending_any, 1, memory_order_relaxed);
}

#endif /* SHMPI_FLUSH_H */
