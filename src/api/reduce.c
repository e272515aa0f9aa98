/*
 * reduce.c - reductions (spec: Collective Routines, shmem_TYPE_OP_reduce
 * and the deprecated shmem_TYPE_OP_to_all).  Each is one call into
 * src/core/coll.c, which runs it in shared memory when the team (or active
 * set) has a slot, else as one MPI allreduce on its communicator; the MPI
 * datatype and operator come from the TYPENAME and OPNAME (coll.h).
 */
#define SHMPI_DEFINES_reduce SHMPI_HERE /* weak shmem_ names of this chapter here */
#include "../core/coll.h"

#define DEFINE_REDUCE(N, T, OP)                                                               \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source,                \
                                  size_t nreduce)                                             \
    {                                                                                         \
        return shmpi_coll_reduce(__func__, SHMPI_TEAM_GROUP(__func__, team), dest, source,    \
                                 nreduce, sizeof(T), SHMPI_MPI_TYPE_##N, SHMPI_MPI_OP_##OP);  \
    }
#define DEFINE_TO_ALL(N, T, OP)                                                               \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start,       \
                                   int logPE_stride, int PE_size, T *pWrk, long *pSync)       \
    {                                                                                         \
        (void)pWrk;                                                                           \
        (void)pSync;                                                                          \
        if (nreduce < 0)                                                                      \
            shmpi_abort(__func__, "nreduce %d is negative", nreduce);                         \
        shmpi_coll_reduce(__func__, SHMPI_ASET_GROUP(__func__, PE_start, logPE_stride, PE_size), \
                          dest, source, (size_t)nreduce, sizeof(T), SHMPI_MPI_TYPE_##N,       \
                          SHMPI_MPI_OP_##OP);                                                 \
    }

#define DEFINE_BITWISE(N, T) DEFINE_REDUCE(N, T, and) DEFINE_REDUCE(N, T, or) DEFINE_REDUCE(N, T, xor)
#define DEFINE_MINMAX(N, T) DEFINE_REDUCE(N, T, max) DEFINE_REDUCE(N, T, min)
#define DEFINE_ARITH(N, T) DEFINE_REDUCE(N, T, sum) DEFINE_REDUCE(N, T, prod)
SHMPI_REDUCE_BITWISE_TYPES(DEFINE_BITWISE)
SHMPI_REDUCE_BITWISE_EXTRA_TYPES(DEFINE_BITWISE)
SHMPI_REDUCE_MINMAX_TYPES(DEFINE_MINMAX)
SHMPI_REDUCE_ARITH_TYPES(DEFINE_ARITH)

#define DEFINE_TO_ALL_BITWISE(N, T)                                                           \
    DEFINE_TO_ALL(N, T, and) DEFINE_TO_ALL(N, T, or) DEFINE_TO_ALL(N, T, xor)
#define DEFINE_TO_ALL_MINMAX(N, T) DEFINE_TO_ALL(N, T, max) DEFINE_TO_ALL(N, T, min)
#define DEFINE_TO_ALL_ARITH(N, T) DEFINE_TO_ALL(N, T, sum) DEFINE_TO_ALL(N, T, prod)
SHMPI_TO_ALL_BITWISE_TYPES(DEFINE_TO_ALL_BITWISE)
SHMPI_TO_ALL_MINMAX_TYPES(DEFINE_TO_ALL_MINMAX)
SHMPI_TO_ALL_ARITH_TYPES(DEFINE_TO_ALL_ARITH)
