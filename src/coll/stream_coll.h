/*
 * stream_coll.h - barriers and collectives on CUDA streams
 * (docs/device-heap.md, "Streams"), for src/api/stream.c.
 */
#ifndef SHMPI_STREAM_COLL_H
#define SHMPI_STREAM_COLL_H

#include "shmpi.h"
#include "cuda_driver.h"
#include "fold.h"

#include <limits.h>

enum shmpi_stream_coll { SHMPI_STREAM_BROADCAST, SHMPI_STREAM_FCOLLECT, SHMPI_STREAM_ALLTOALL };

/* What a reduction on a stream folds: (type << 3) | operator of fold.h,
 * one constant per entry of SHMPI_STREAM_REDUCTIONS, named
 * shmpi_stream_fold_TYPENAME_OP (the entries of shmpi_stream.h pass it). */
#define SHMPI_STREAM_FOLD_SIGNED(T)                                                           \
    _Generic((T *)0, char *: CHAR_MIN < 0, signed char *: 1, short *: 1, int *: 1, long *: 1,  \
             long long *: 1, default: 0)
#define SHMPI_STREAM_FOLD_INT(T)                                                              \
    ((SHMPI_STREAM_FOLD_SIGNED(T) ? SHMPI_FOLD_I8 : SHMPI_FOLD_U8) +                          \
     (sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3))
#define SHMPI_STREAM_FOLD_TYPE(T)                                                             \
    _Generic((T *)0, float *: SHMPI_FOLD_F32, double *: SHMPI_FOLD_F64,                       \
             long double *: SHMPI_FOLD_LONGDOUBLE, shmpi_complexf_t *: SHMPI_FOLD_C32,        \
             shmpi_complexd_t *: SHMPI_FOLD_C64, default: SHMPI_STREAM_FOLD_INT(T))
#define SHMPI_STREAM_FOLD_half SHMPI_FOLD_F16
#define SHMPI_STREAM_FOLD_bfloat16 SHMPI_FOLD_BF16
enum {
#define SHMPI_STREAM_NATIVE_FOLD(N, T, M, OP, MPI_OP)                                         \
    shmpi_stream_fold_##N##_##OP = SHMPI_STREAM_FOLD_TYPE(T) << 3 | SHMPI_FOLD_##OP,
#define SHMPI_STREAM_HALF_FOLD(N, T, M, OP, MPI_OP)                                           \
    shmpi_stream_fold_##N##_##OP = SHMPI_STREAM_FOLD_##N << 3 | SHMPI_FOLD_##OP,
    SHMPI_STREAM_NATIVE_REDUCTIONS(SHMPI_STREAM_NATIVE_FOLD)
    SHMPI_STREAM_HALF_REDUCTIONS(SHMPI_STREAM_HALF_FOLD)
#undef SHMPI_STREAM_NATIVE_FOLD
#undef SHMPI_STREAM_HALF_FOLD
};

/* A barrier (`quiet`: also the host routines' copies) of the team on the
 * stream; returns 0. */
int shmpi_stream_barrier(const char *routine, shmem_team_t team, bool quiet, CUstream stream);
/* broadcast, fcollect, alltoall of nelems elements of elem_size bytes. */
int shmpi_stream_coll(const char *routine, shmem_team_t team, enum shmpi_stream_coll kind,
                      void *dest, const void *source, size_t nelems, size_t elem_size,
                      int root, CUstream stream);
/* The reduction `fold` (a shmpi_stream_fold_ constant; scatter: each PE
 * gets its block of nreduce elements). */
int shmpi_stream_reduce(const char *routine, shmem_team_t team, void *dest, const void *source,
                        size_t nreduce, size_t elem_size, int fold, bool scatter,
                        CUstream stream);

#endif /* SHMPI_STREAM_COLL_H */
