/*
 * window.h - the symmetric segments and the MPI window over them
 * (window.c), the wait board, and the translation of a symmetric address
 * to a target PE (its mapped address, shape.h; its displacement, mpi_rma.h).
 */
#ifndef SHMPI_WINDOW_H
#define SHMPI_WINDOW_H

#include "shmpi.h"
#include "shape.h"
#include "mpi_rma.h"

/* Start-up, in this order (src/runtime/runtime.c).  Local: this PE's heap and
 * static data, in shared-memory objects where the job shares memory, and
 * their place on its card (before shmpi_shape_exchange). */
void shmpi_segments_create(void);
/* Local, once every card is known: maps the node peers' segments (or puts
 * this PE's back in private memory where the job does not share). */
void shmpi_segments_map(void);
/* After every PE has mapped its peers' (the last barrier of start-up):
 * removes the names of this PE's objects. */
void shmpi_segments_unlink(void);
/* Unmaps everything and frees the window (shmpi_rma_fini). */
void shmpi_segments_fini(void);

/* PE pe's record on the wait board (window.c), or NULL where the job has
 * none: then it is in pe's reserved block. */
struct shmpi_wait_record *shmpi_wait_board_of(int pe);

/* ---- address translation: where a symmetric object lives on a target PE ---------- */
/* Translates [addr, addr+len) on PE `pe` (a world PE).  Aborts naming
 * `routine` if the range is not inside one symmetric segment. */
static inline struct shmpi_target shmpi_symm_target(const char *routine, const void *addr,
                                                    size_t len, int pe);
/* shmpi_symm_target for an address known to lie in segment s. */
static inline struct shmpi_target shmpi_segment_target(int s, const void *addr, int pe)
{
    const struct shmpi_segment *seg = &shmpi_g.seg[s];
    size_t off = (size_t)((const char *)addr - seg->base);
    char *mapped = shmpi_peer_mapped(s, pe);
    struct shmpi_target t;
    t.disp = shmpi_rma_disp(s, pe, off);
    t.mapped = mapped ? mapped + off : NULL;
    return t;
}

static inline struct shmpi_target shmpi_symm_target(const char *routine, const void *addr,
                                                    size_t len, int pe)
{
    int s = shmpi_symm_segment(addr, len);
    if (SHMPI_UNLIKELY(s < 0))
        shmpi_symm_fail(routine, addr, len, pe);
    return shmpi_segment_target(s, addr, pe);
}

#endif /* SHMPI_WINDOW_H */
