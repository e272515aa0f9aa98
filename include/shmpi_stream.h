/*
 * shmpi_stream.h - the stream-ordered routines of shmemx.h
 * (docs/device-heap.md, "Streams"), written once as X-macro entries:
 * shmemx.h declares them and src/api/stream.c defines them.  Installed
 * because shmemx.h needs it; programs include shmemx.h, not this file.
 *
 * Each routine is one entry
 *     SHMPI_STREAM_ENTRY(RET, NAME, PARAMS, CALL)
 * where RET is void or int, PARAMS the parenthesized parameters and CALL the
 * one call into the library that does the work (only expanded inside it).
 * The includer defines SHMPI_STREAM_ENTRY, expands SHMPI_STREAM_ROUTINES and
 * undefines it.  The names and argument orders are NVSHMEM's
 * (nvshmemx_*_on_stream), so its host code ports by renaming.
 */
#ifndef SHMPI_STREAM_H
#define SHMPI_STREAM_H

/* A put (IS_PUT true) or get under the given name, for elements of type T
 * of SIZE bytes. */
#define SHMPI_STREAM_RMA_ONE(NAME, IS_PUT, T, SIZE)                                           \
    SHMPI_STREAM_ENTRY(void, NAME,                                                            \
                       (T * dest, const T *source, size_t nelems, int pe,                     \
                        shmemx_stream_t stream),                                              \
                       shmpi_stream_rma(__func__, IS_PUT, dest, source, nelems, SIZE, pe,     \
                                        stream))
/* A put-with-signal under the given name. */
#define SHMPI_STREAM_PUT_SIGNAL_ONE(NAME, T, SIZE)                                            \
    SHMPI_STREAM_ENTRY(void, NAME,                                                            \
                       (T * dest, const T *source, size_t nelems, uint64_t *sig_addr,         \
                        uint64_t signal, int sig_op, int pe, shmemx_stream_t stream),         \
                       shmpi_stream_put_signal(__func__, dest, source, nelems, SIZE,          \
                                               sig_addr, signal, sig_op, pe, stream))
/* put, get and put_signal with their nbi forms under the given names, for
 * elements of type T of SIZE bytes. */
#define SHMPI_STREAM_RMA(PUT, GET, PUT_NBI, GET_NBI, PUT_SIGNAL, PUT_SIGNAL_NBI, T, SIZE)     \
    SHMPI_STREAM_RMA_ONE(PUT, true, T, SIZE)                                                  \
    SHMPI_STREAM_RMA_ONE(GET, false, T, SIZE)                                                 \
    SHMPI_STREAM_RMA_ONE(PUT_NBI, true, T, SIZE)                                              \
    SHMPI_STREAM_RMA_ONE(GET_NBI, false, T, SIZE)                                             \
    SHMPI_STREAM_PUT_SIGNAL_ONE(PUT_SIGNAL, T, SIZE)                                          \
    SHMPI_STREAM_PUT_SIGNAL_ONE(PUT_SIGNAL_NBI, T, SIZE)
/* A row of a type table (shmpi_typetables.h): the typed RMA forms. */
#define SHMPI_STREAM_TYPED_RMA_ROW(X, N, T, M)                                                \
    SHMPI_STREAM_RMA(shmemx_##N##_put_on_stream, shmemx_##N##_get_on_stream,                  \
                     shmemx_##N##_put_nbi_on_stream, shmemx_##N##_get_nbi_on_stream,          \
                     shmemx_##N##_put_signal_on_stream, shmemx_##N##_put_signal_nbi_on_stream, \
                     T, sizeof(T))
#define SHMPI_STREAM_SIZED_RMA(BITS)                                                          \
    SHMPI_STREAM_RMA(shmemx_put##BITS##_on_stream, shmemx_get##BITS##_on_stream,              \
                     shmemx_put##BITS##_nbi_on_stream, shmemx_get##BITS##_nbi_on_stream,      \
                     shmemx_put_signal##BITS##_on_stream,                                     \
                     shmemx_put_signal##BITS##_nbi_on_stream, void, (BITS) / 8)

/* broadcast, fcollect and alltoall under the given names. */
#define SHMPI_STREAM_COLL(BROADCAST, FCOLLECT, ALLTOALL, T, SIZE)                             \
    SHMPI_STREAM_ENTRY(int, BROADCAST,                                                        \
                       (shmem_team_t team, T * dest, const T *source, size_t nelems,          \
                        int PE_root, shmemx_stream_t stream),                                 \
                       shmpi_stream_coll(__func__, team, SHMPI_STREAM_BROADCAST, dest,        \
                                         source, nelems, SIZE, PE_root, stream))              \
    SHMPI_STREAM_ENTRY(int, FCOLLECT,                                                         \
                       (shmem_team_t team, T * dest, const T *source, size_t nelems,          \
                        shmemx_stream_t stream),                                              \
                       shmpi_stream_coll(__func__, team, SHMPI_STREAM_FCOLLECT, dest,         \
                                         source, nelems, SIZE, 0, stream))                    \
    SHMPI_STREAM_ENTRY(int, ALLTOALL,                                                         \
                       (shmem_team_t team, T * dest, const T *source, size_t nelems,          \
                        shmemx_stream_t stream),                                              \
                       shmpi_stream_coll(__func__, team, SHMPI_STREAM_ALLTOALL, dest,         \
                                         source, nelems, SIZE, 0, stream))
#define SHMPI_STREAM_TYPED_COLL_ROW(X, N, T, M)                                               \
    SHMPI_STREAM_COLL(shmemx_##N##_broadcast_on_stream, shmemx_##N##_fcollect_on_stream,      \
                      shmemx_##N##_alltoall_on_stream, T, sizeof(T))

/* One reduction operator on one type: the reduction over the team and the
 * reduce-scatter (each PE gets its nreduce-element block of the result).
 * A reader of the operator groups of shmpi_typetables.h. */
#define SHMPI_STREAM_REDUCE(N, T, M, OP, MPI_OP)                                              \
    SHMPI_STREAM_ENTRY(int, shmemx_##N##_##OP##_reduce_on_stream,                             \
                       (shmem_team_t team, T * dest, const T *source, size_t nreduce,         \
                        shmemx_stream_t stream),                                              \
                       shmpi_stream_reduce(__func__, team, dest, source, nreduce, sizeof(T),  \
                                           shmpi_stream_fold_##N##_##OP, false, stream))      \
    SHMPI_STREAM_ENTRY(int, shmemx_##N##_##OP##_reducescatter_on_stream,                      \
                       (shmem_team_t team, T * dest, const T *source, size_t nreduce,         \
                        shmemx_stream_t stream),                                              \
                       shmpi_stream_reduce(__func__, team, dest, source, nreduce, sizeof(T),  \
                                           shmpi_stream_fold_##N##_##OP, true, stream))
/* The 16-bit floating types that Python's dtypes need (float16, bfloat16),
 * stored as their bits. */
#define SHMPI_STREAM_HALF_TYPE_ROWS(R, X)                                                     \
    R(X, half, shmemx_half_t, 0) R(X, bfloat16, shmemx_bfloat16_t, 0)
/* Every reduction on a stream, D(TYPENAME, TYPE, MPI_DATATYPE, OPNAME, MPI_OP):
 * the team reductions of OpenSHMEM 1.6 and sum/prod/min/max on the 16-bit
 * floating types (their MPI columns are unused). */
#define SHMPI_STREAM_NATIVE_REDUCTIONS(D)                                                     \
    SHMPI_REDUCE_BITWISE_TYPE_ROWS(SHMPI_REDUCE_BITWISE_OPS, D)                               \
    SHMPI_REDUCE_MINMAX_TYPE_ROWS(SHMPI_REDUCE_MINMAX_OPS, D)                                 \
    SHMPI_REDUCE_ARITH_TYPE_ROWS(SHMPI_REDUCE_ARITH_OPS, D)
#define SHMPI_STREAM_HALF_REDUCTIONS(D)                                                       \
    SHMPI_STREAM_HALF_TYPE_ROWS(SHMPI_REDUCE_MINMAX_OPS, D)                                   \
    SHMPI_STREAM_HALF_TYPE_ROWS(SHMPI_REDUCE_ARITH_OPS, D)
#define SHMPI_STREAM_REDUCTIONS(D) SHMPI_STREAM_NATIVE_REDUCTIONS(D) SHMPI_STREAM_HALF_REDUCTIONS(D)

/* Every stream-ordered routine. */
#define SHMPI_STREAM_ROUTINES                                                                 \
    SHMPI_STREAM_RMA(shmemx_putmem_on_stream, shmemx_getmem_on_stream,                        \
                     shmemx_putmem_nbi_on_stream, shmemx_getmem_nbi_on_stream,                \
                     shmemx_putmem_signal_on_stream, shmemx_putmem_signal_nbi_on_stream,      \
                     void, 1)                                                                 \
    SHMPI_STREAM_SIZED_RMA(8)                                                                 \
    SHMPI_STREAM_SIZED_RMA(16)                                                                \
    SHMPI_STREAM_SIZED_RMA(32)                                                                \
    SHMPI_STREAM_SIZED_RMA(64)                                                                \
    SHMPI_STREAM_SIZED_RMA(128)                                                               \
    SHMPI_RMA_TYPE_ROWS(SHMPI_STREAM_TYPED_RMA_ROW, _)                                        \
    SHMPI_STREAM_ENTRY(void, shmemx_signal_op_on_stream,                                      \
                       (uint64_t * sig_addr, uint64_t signal, int sig_op, int pe,             \
                        shmemx_stream_t stream),                                              \
                       shmpi_stream_signal(__func__, sig_addr, signal, sig_op, pe, stream))   \
    SHMPI_STREAM_ENTRY(void, shmemx_signal_wait_until_on_stream,                              \
                       (uint64_t * sig_addr, int cmp, uint64_t cmp_value,                     \
                        shmemx_stream_t stream),                                              \
                       shmpi_stream_wait(__func__, sig_addr, cmp, cmp_value, stream))         \
    SHMPI_STREAM_ENTRY(void, shmemx_quiet_on_stream, (shmemx_stream_t stream),                \
                       shmpi_stream_quiet(__func__, stream))                                  \
    SHMPI_STREAM_ENTRY(void, shmemx_barrier_all_on_stream, (shmemx_stream_t stream),          \
                       shmpi_stream_barrier(__func__, SHMEM_TEAM_WORLD, true, stream))        \
    SHMPI_STREAM_ENTRY(void, shmemx_sync_all_on_stream, (shmemx_stream_t stream),             \
                       shmpi_stream_barrier(__func__, SHMEM_TEAM_WORLD, false, stream))       \
    SHMPI_STREAM_ENTRY(int, shmemx_barrier_on_stream,                                         \
                       (shmem_team_t team, shmemx_stream_t stream),                           \
                       shmpi_stream_barrier(__func__, team, true, stream))                    \
    SHMPI_STREAM_ENTRY(int, shmemx_team_sync_on_stream,                                       \
                       (shmem_team_t team, shmemx_stream_t stream),                           \
                       shmpi_stream_barrier(__func__, team, false, stream))                   \
    SHMPI_STREAM_COLL(shmemx_broadcastmem_on_stream, shmemx_fcollectmem_on_stream,            \
                      shmemx_alltoallmem_on_stream, void, 1)                                  \
    SHMPI_RMA_TYPE_ROWS(SHMPI_STREAM_TYPED_COLL_ROW, _)                                       \
    SHMPI_STREAM_REDUCTIONS(SHMPI_STREAM_REDUCE)

#endif /* SHMPI_STREAM_H */
