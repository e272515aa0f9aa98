/*
 * reduce.c - the deprecated active-set reductions (spec: Collective
 * Routines, shmem_TYPE_OP_to_all).  Each is one call into src/coll/coll.c,
 * which runs it in shared memory when the active set's team has a slot,
 * else as one MPI allreduce on its communicator; the MPI datatype and
 * operator are columns of the type and operator tables
 * (include/shmpi_typetables.h).  The team reductions shmem_TYPE_OP_reduce
 * are one call each, written in the routine list (include/shmpi_routines.h)
 * and defined by listed.c.
 */
#define SHMPI_DEFINES_reduce SHMPI_HERE /* weak shmem_ names of this chapter here */
#include "coll.h"

#define DEFINE_TO_ALL(N, T, DT_MPI, OP, OP_MPI)                                               \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start,       \
                                   int logPE_stride, int PE_size, T *pWrk, long *pSync)       \
    {                                                                                         \
        (void)pWrk;                                                                           \
        (void)pSync;                                                                          \
        if (nreduce < 0)                                                                      \
            shmpi_abort(__func__, "nreduce %d is negative", nreduce);                         \
        shmpi_coll_reduce(__func__, SHMPI_ASET_GROUP(__func__, PE_start, logPE_stride, PE_size), \
                          dest, source, (size_t)nreduce, sizeof(T), DT_MPI, OP_MPI);          \
    }
SHMPI_TO_ALL_REDUCTIONS(DEFINE_TO_ALL)
