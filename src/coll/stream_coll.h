/*
 * stream_coll.h - barriers and collectives on CUDA streams
 * (docs/device-heap.md, "Streams"), for src/api/stream.c.
 */
#ifndef SHMPI_STREAM_COLL_H
#define SHMPI_STREAM_COLL_H

#include "shmpi.h"
#include "cuda_driver.h"

enum shmpi_stream_coll { SHMPI_STREAM_BROADCAST, SHMPI_STREAM_FCOLLECT, SHMPI_STREAM_ALLTOALL };

/* Folds n elements of `in` into `acc` (acc[i] = acc[i] OP in[i]). */
typedef void shmpi_reducer(void *acc, const void *in, size_t n);
#define SHMPI_STREAM_DECLARE_REDUCER(N, T, M, OP, MPI_OP) shmpi_reducer shmpi_reducer_##N##_##OP;
SHMPI_STREAM_REDUCTIONS(SHMPI_STREAM_DECLARE_REDUCER)
#undef SHMPI_STREAM_DECLARE_REDUCER

/* A barrier (`quiet`: also the host routines' copies) of the team on the
 * stream; returns 0. */
int shmpi_stream_barrier(const char *routine, shmem_team_t team, bool quiet, CUstream stream);
/* broadcast, fcollect, alltoall of nelems elements of elem_size bytes. */
int shmpi_stream_coll(const char *routine, shmem_team_t team, enum shmpi_stream_coll kind,
                      void *dest, const void *source, size_t nelems, size_t elem_size,
                      int root, CUstream stream);
/* The reduction (scatter: each PE gets its block of nreduce elements). */
int shmpi_stream_reduce(const char *routine, shmem_team_t team, void *dest, const void *source,
                        size_t nreduce, size_t elem_size, shmpi_reducer *reducer, bool scatter,
                        CUstream stream);

#endif /* SHMPI_STREAM_COLL_H */
