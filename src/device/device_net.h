/*
 * device_net.h - transfers into and out of device memory that this PE does
 * not map: a PE of another machine, or every other PE under
 * SHMPI_DEVICE_IPC=0 (docs/device-heap.md, "Across nodes").  Staged through
 * pinned host memory and MPI messages, which the target's server (serve.c)
 * applies with the driver's copies, in each origin's order.
 *
 * A device range is named across PEs by its region (0: the device heap;
 * k > 0: the registered range whose id is k, numbered the same way on every
 * PE since registration is collective, and never reused while it lives) and
 * the offset in it (device_heap.c).
 */
#ifndef SHMPI_DEVICE_NET_H
#define SHMPI_DEVICE_NET_H

#include "shmpi.h"

/* Collective, at the device heap's start: the server's channel, the pinned
 * landing buffers, when some PE maps some other PE's device heap not
 * (every PE decides alike).  Fini: after every PE's last quiet. */
void shmpi_device_net_init(const char *routine, bool needed);
void shmpi_device_net_fini(void);
/* A contiguous put (`local` is the source) or get (`local` the
 * destination) of nbytes at `offset` of `region` on world PE pe.  `local`
 * may be host or device memory.  Returns once `local` may be reused (put) or
 * holds the data (get); a put is complete at the target after
 * shmpi_device_net_quiet. */
void shmpi_device_net_transfer(const char *routine, bool is_put, void *local, size_t nbytes,
                               int region, uint64_t offset, int pe);
/* SHMEM_SIGNAL_SET or _ADD of `value` on the 64-bit device word at `offset`
 * of `region` on PE pe, applied by pe's server after every earlier message
 * of this PE (so after the data of an earlier put), atomically with the
 * other signals on the word. */
void shmpi_device_net_signal(const char *routine, int region, uint64_t offset, uint64_t value,
                             int sig_op, int pe);
/* Waits until every put and signal sent is applied in the targets' device
 * memory (quiet, fence, barrier).  Pending: whether there may be any. */
void shmpi_device_net_quiet(void);
extern atomic_bool shmpi_device_net_unacked;
static inline bool shmpi_device_net_pending(void)
{
    return atomic_load_explicit(&shmpi_device_net_unacked, memory_order_acquire);
}

#endif /* SHMPI_DEVICE_NET_H */
