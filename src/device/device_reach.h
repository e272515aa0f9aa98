/*
 * device_reach.h - the reach floor of src/device (src/LAYERS): the peers'
 * device memory, through its mapping here (CUDA IPC, vmm.c) or the network
 * path (device_net.c): the device paths of RMA, the host signals on device
 * words, quiet, and registered device memory (docs/device-heap.md).
 */
#ifndef SHMPI_DEVICE_REACH_H
#define SHMPI_DEVICE_REACH_H

#include "device_heap.h"
#include "device_net.h"

/* The device heap at `base` (size bytes, this PE's) mapped by the peers of
 * its machine, collective (shmpi_device.peer); true where some PE's heap is
 * not mapped here (the network path is needed).  _unmap: at finalize. */
bool shmpi_device_map_heap(const char *routine, char *base, size_t size);
void shmpi_device_unmap_heap(const char *routine);

/* shmemx_device_register / _unregister (collective): 0 or -1. */
int shmpi_device_register(const char *routine, void *ptr, size_t size);
int shmpi_device_unregister(const char *routine, void *ptr);


/* A contiguous put or get whose remote range is in no host segment: the
 * device path if it is in the device heap, else the "not symmetric" error. */
void shmpi_device_contiguous(const char *routine, struct shmpi_ctx *ctx, bool is_put,
                             void *dest, const void *source, size_t nbytes, int world_pe,
                             enum shmpi_completion completion);
/* The same for strided transfers: nblocks blocks of `block` bytes, the k-th
 * at first + k * step on each side; `remote_lowest` and `remote_extent` are
 * the remote range. */
void shmpi_device_strided(const char *routine, bool is_put, char *to_first, ptrdiff_t to_step,
                          const char *from_first, ptrdiff_t from_step, size_t nblocks,
                          size_t block, const void *remote_lowest, size_t remote_extent,
                          int world_pe);
/* SHMEM_SIGNAL_SET or _ADD of `signal` on PE pe's device word at sig_addr
 * (this PE's address), complete when it returns: through the mapping here,
 * else the network path. */
void shmpi_device_word_signal(const char *routine, uint64_t *sig_addr, uint64_t signal,
                              int sig_op, int pe);

/* Completes every device copy and network transfer issued (quiet, fence,
 * barrier). */
static inline void shmpi_device_quiet(void)
{
    if (SHMPI_LIKELY(shmpi_device.size == 0)) /* no device heap: one load on the host paths */
        return;
    if (shmpi_device_unsynced())
        shmpi_device_sync();
    if (shmpi_device_net_pending()) /* transfers to unmapped peers */
        shmpi_device_net_quiet();
}


#endif /* SHMPI_DEVICE_REACH_H */
