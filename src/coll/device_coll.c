/*
 * device_coll.c - collectives whose buffers are in the device heap
 * (docs/device-heap.md): staged, correct before fast.  The device buffers
 * are copied into private host buffers, the collective runs as an MPI
 * collective on the team's communicator over those, and the result is
 * copied back.  Neither MPI nor the shared-memory algorithms ever see a
 * device address.  Device-heap addresses are symmetric, so every member
 * takes this path together.
 */
#include "device_coll.h"
#include "device_heap.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int count_of(const char *routine, size_t n)
{
    if (n > INT_MAX)
        shmpi_abort(routine, "%zu elements are more than a staged device-heap collective "
                             "can count (%d)", n, INT_MAX);
    return (int)n;
}

static void *staged_copy(const char *routine, const void *from, size_t len)
{
    void *host = shmpi_xmalloc(routine, len ? len : 1);
    if (len)
        shmpi_device_copy(routine, host, from, len);
    return host;
}

int shmpi_device_coll(const char *routine, const struct shmpi_group *g,
                      enum shmpi_device_coll kind, void *dest, const void *source,
                      size_t nbytes, int root, bool root_dest, MPI_Datatype type, MPI_Op op)
{
    size_t n = (size_t)g->n_pes, src_len = nbytes, dst_len = nbytes;
    if (kind == SHMPI_DEVICE_FCOLLECT || kind == SHMPI_DEVICE_ALLTOALL)
        dst_len = shmpi_bytes(routine, nbytes, n);
    if (kind == SHMPI_DEVICE_ALLTOALL)
        src_len = dst_len;
    int *counts = NULL, *displs = NULL;
    if (kind == SHMPI_DEVICE_COLLECT) { /* nbytes differs between PEs */
        unsigned long long mine = nbytes, *all = shmpi_xmalloc(routine, n * sizeof *all);
        shmpi_blocking_begin(routine, g->team, false);
        MPI_Allgather(&mine, 1, MPI_UNSIGNED_LONG_LONG, all, 1, MPI_UNSIGNED_LONG_LONG, g->comm);
        shmpi_blocking_end();
        counts = shmpi_xmalloc(routine, n * sizeof *counts);
        displs = shmpi_xmalloc(routine, n * sizeof *displs);
        size_t total = 0;
        for (size_t pe = 0; pe < n; pe++) {
            counts[pe] = count_of(routine, all[pe]);
            displs[pe] = count_of(routine, total);
            total += all[pe];
        }
        dst_len = total;
        free(all);
    }
    bool is_root = g->my_pe == root;
    char *host_src = staged_copy(routine, source,
                                 kind == SHMPI_DEVICE_BROADCAST && !is_root ? 0 : src_len);
    char *host_dst = staged_copy(routine, dest, dst_len); /* keeps what is not written */
    size_t elem_size = 1;
    if (type != MPI_BYTE) {
        int size;
        MPI_Type_size(type, &size);
        elem_size = (size_t)size;
    }
    int count = count_of(routine, nbytes / elem_size);
    shmpi_blocking_begin(routine, g->team, false); /* blocking collectives, watched (depart.c) */
    switch (kind) {
    case SHMPI_DEVICE_BROADCAST:
        MPI_Bcast(is_root ? host_src : host_dst, count, MPI_BYTE, root, g->comm);
        if (is_root && root_dest)
            memcpy(host_dst, host_src, nbytes);
        break;
    case SHMPI_DEVICE_COLLECT:
        MPI_Allgatherv(host_src, count, MPI_BYTE, host_dst, counts, displs, MPI_BYTE, g->comm);
        break;
    case SHMPI_DEVICE_FCOLLECT:
        MPI_Allgather(host_src, count, MPI_BYTE, host_dst, count, MPI_BYTE, g->comm);
        break;
    case SHMPI_DEVICE_ALLTOALL:
        MPI_Alltoall(host_src, count, MPI_BYTE, host_dst, count, MPI_BYTE, g->comm);
        break;
    case SHMPI_DEVICE_REDUCE:
        MPI_Allreduce(host_src, host_dst, count, type, op, g->comm);
        break;
    case SHMPI_DEVICE_SCAN:
        MPI_Scan(host_src, host_dst, count, type, op, g->comm);
        break;
    case SHMPI_DEVICE_EXSCAN:
        MPI_Exscan(host_src, host_dst, count, type, op, g->comm);
        if (g->my_pe == 0) /* the identity of the sum, as the host path gives */
            memset(host_dst, 0, nbytes);
        break;
    }
    shmpi_blocking_end();
    shmpi_device_copy(routine, dest, host_dst, dst_len);
    free(host_src);
    free(host_dst);
    free(counts);
    free(displs);
    return 0;
}
