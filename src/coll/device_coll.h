/*
 * device_coll.h - collectives on device-heap buffers (device_coll.c), which
 * coll.c hands them.
 */
#ifndef SHMPI_DEVICE_COLL_H
#define SHMPI_DEVICE_COLL_H

#include "shmpi.h"
#include "team.h"

/* A collective on device-heap buffers, staged through host memory and run
 * as the plain MPI collective (device_coll.c).  nbytes is this PE's
 * contribution (one block for fcollect and alltoall; the whole vector of a
 * reduction or scan, whose elements are of `type`, reduced with `op`). */
enum shmpi_device_coll {
    SHMPI_DEVICE_BROADCAST,
    SHMPI_DEVICE_COLLECT,
    SHMPI_DEVICE_FCOLLECT,
    SHMPI_DEVICE_ALLTOALL,
    SHMPI_DEVICE_REDUCE,
    SHMPI_DEVICE_SCAN,
    SHMPI_DEVICE_EXSCAN,
};
int shmpi_device_coll(const char *routine, const struct shmpi_group *g,
                      enum shmpi_device_coll kind, void *dest, const void *source,
                      size_t nbytes, int root, bool root_dest, MPI_Datatype type, MPI_Op op);

#endif /* SHMPI_DEVICE_COLL_H */
