/*
 * scan.c - prefix sums (spec 1.6: Collective Routines, shmem_TYPE_sum_inscan
 * and shmem_TYPE_sum_exscan), for every type of the SUM column of the team
 * reduction table.  Each is one call into src/core/coll.c, which runs it
 * in shared memory when the team has a slot, else as one MPI scan or
 * exscan on the team's communicator; the MPI datatype comes from the
 * TYPENAME (coll.h).  The exclusive scan leaves 0 on the team's PE 0.
 */
#define SHMPI_DEFINES_scan SHMPI_HERE /* weak shmem_ names of this chapter here */
#include "../core/coll.h"

#define DEFINE_SCAN(N, T, KIND, EXCLUSIVE)                                                    \
    int shmem_##N##_sum_##KIND(shmem_team_t team, T *dest, const T *source, size_t nelems)    \
    {                                                                                         \
        return shmpi_coll_scan(__func__, SHMPI_TEAM_GROUP(__func__, team), dest, source,      \
                               nelems, sizeof(T), SHMPI_MPI_TYPE_##N, SHMPI_MPI_OP_sum,       \
                               EXCLUSIVE);                                                    \
    }
#define DEFINE_SCANS(N, T) DEFINE_SCAN(N, T, inscan, false) DEFINE_SCAN(N, T, exscan, true)
SHMPI_REDUCE_ARITH_TYPES(DEFINE_SCANS)
