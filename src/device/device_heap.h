/*
 * device_heap.h - the symmetric heap in GPU memory (docs/device-heap.md):
 * the memory floor of src/device (src/LAYERS), below the peers' mappings
 * and the network path (device_reach.h), the streams (stream.h) and the
 * start and finalize (device_life.h).
 *
 * With SHMPI_DEVICE_HEAP_SIZE set, shmem_init gives every PE a heap of that
 * size in its GPU's memory (cuMemAlloc) and maps the heaps of the PEs of
 * its machine through CUDA IPC (unless SHMPI_DEVICE_IPC=0); the others'
 * are reached through pinned host memory and MPI (device_net.c).  Blocks come from the same allocator as the
 * host heap (heap_alloc.c), so a block has the same offset on every PE.
 * The host cannot load or store device memory: every transfer into or out
 * of the device heap is a cuMemcpyAsync on this PE's stream, synchronized
 * before a blocking routine returns and at quiet for nbi forms.
 * Collectives on device buffers are staged (device_coll.c); AMOs and waits
 * on device addresses end the job with one line.
 *
 * The device heap is not one of the segments of shmpi.h: a host-path
 * translation never looks at it, so RMA reaches it only after the segment
 * lookup failed (rma.c), and the host fast path costs nothing more.
 */
#ifndef SHMPI_DEVICE_HEAP_H
#define SHMPI_DEVICE_HEAP_H

#include "shmpi.h"
#include "cuda_driver.h"

struct shmpi_device_heap {
    char *base;               /* this PE's device heap (a device address), or NULL */
    size_t size;              /* 0 when there is none */
    char **peer;              /* [n_pes]: where PE pe's device heap is mapped here, or NULL */
    struct shmpi_heap alloc;  /* offsets, as for the host heap */
    /* nbi copies issued on shmpi's stream, and how many of them a finished
     * cuStreamSynchronize covered: a quiet waits while synced < issued,
     * also when another thread's synchronize is still under way. */
    atomic_ulong issued, synced;
    int ordinal;              /* the GPU's ordinal (cuCtxGetDevice), -1 without a heap */
    /* What the driver offers the stream routines (probed at start-up). */
    bool stream_memops;       /* 64-bit stream write/wait value */
    bool flush_remote_writes;
    bool atomic_reduction;    /* a stream atomic add (shmpi uses its own kernel) */
    /* [n_pes] words at the start of the heap: word p is written by world PE p
     * when it signals this PE in a barrier on a stream (stream.c). */
    uint64_t *sync_words;
    struct shmpi_device_range *ranges; /* registered device memory (shmemx_device_register) */
};
/* A registered range of device memory: this PE's [base, base + size) and
 * where each PE's range of the same registration is mapped here. */
struct shmpi_device_range {
    char *base;
    size_t size;
    char **peer;              /* [n_pes], NULL where not mapped */
    struct shmpi_vmm_map *vmm; /* [n_pes]: the peers' CUDA VMM mappings (vmm.h), or NULL */
    /* Its name in device_net's requests: the registration's number, the same
     * on every PE (registration is collective), never that of another range
     * while it lives, so a transfer in flight across a register or an
     * unregister still finds its range. */
    int id;
    struct shmpi_device_range *next;
};
extern struct shmpi_device_heap shmpi_device;

/* Whether [addr, addr+len) lies in this PE's device heap (false when there
 * is none: size 0). */
static inline bool shmpi_device_holds(const void *addr, size_t len)
{
    size_t size = shmpi_device.size;
    if (SHMPI_LIKELY(size == 0)) /* no device heap: one load on the host paths */
        return false;
    uintptr_t off = (uintptr_t)addr - (uintptr_t)shmpi_device.base;
    return off < size && len <= size - off;
}

/* The floors above (device_life.c) start and stop the memory in this
 * order: _init at shmem_init (nothing more without a heap); _start
 * (collective) loads the driver, chooses the GPU (`ordinal`, as
 * shmpi_device_heap_start) and allocates `size` bytes, cleared, returning
 * their device address, not yet the heap's; _open makes it the heap once the
 * peers' mappings are made; _stop frees it all (after the peers unmapped it). */
void shmpi_device_memory_init(void);
char *shmpi_device_memory_start(const char *routine, int ordinal, size_t size);
void shmpi_device_memory_open(const char *routine, char *base, size_t size);
void shmpi_device_memory_stop(const char *routine);
/* Waits for every stream of the heap's context, the program's too: nothing
 * queued may still reach memory about to be unmapped or freed. */
void shmpi_device_sync_context(const char *routine);

/* Whether PE pe's device memory is mapped here through CUDA IPC (or VMM
 * descriptors): a PE of this node (its kernel, host name and /dev/shm:
 * emulated nodes share a kernel, not their IPC namespace), unless
 * SHMPI_DEVICE_IPC=0.  Valid from the device heap's start. */
bool shmpi_device_ipc_reaches(int pe);

/* Ends the job with one line if it has no device heap (or is not running). */
void shmpi_device_need_heap(const char *routine);
/* The context the heap lives in, made current in the calling thread. */
CUcontext shmpi_device_enter(const char *routine);
/* The stream of the host routines' copies (completed at quiet). */
CUstream shmpi_device_stream(void);

/* Where PE pe's copy of the device range at `addr` (this PE's device-heap or
 * registered address) is mapped here, or NULL if [addr, addr+len) is in
 * neither or PE pe's is not mapped. */
char *shmpi_device_peer(const void *addr, size_t len, int pe);
/* Whether [addr, addr+len) is in the device heap or a registered range:
 * one load on the host paths without a device heap. */
static inline bool shmpi_device_word(const void *addr, size_t len)
{
    return SHMPI_UNLIKELY(shmpi_device.size) && shmpi_device_peer(addr, len, shmpi_g.my_pe);
}

/* A copy enqueued on shmpi's stream (the context current); _complete
 * makes it blocking (SHMPI_BLOCKING: synchronized) or counts it for quiet
 * (nbi); _sync_stream completes every copy enqueued so far. */
void shmpi_device_copy_async(const char *routine, void *to, const void *from, size_t nbytes);
void shmpi_device_complete(const char *routine, enum shmpi_completion completion);
void shmpi_device_sync_stream(const char *routine);

/* Where region `region` of this PE starts and its size (0: no such region),
 * for the network path's server; the region holding [addr, addr+len) of
 * this PE's device memory, and the offset in it (false if none does).  A
 * region is 0 (the device heap) or a registered range's id (device_net.h). */
char *shmpi_device_region(int region, size_t *size);
bool shmpi_device_locate(const void *addr, size_t len, int *region, uint64_t *offset);
/* shmem_ptr of a device-heap address: PE pe's device address where it is
 * mapped here, else NULL (also for addresses outside the device heap). */
void *shmpi_device_ptr(const void *addr, int pe);

/* A blocking copy of len bytes, either side host or device memory. */
void shmpi_device_copy(const char *routine, void *to, const void *from, size_t len);

/* Whether a collective with these buffers must be staged (device_coll.c). */
static inline bool shmpi_device_coll_staged(const void *dest, const void *source)
{
    return SHMPI_UNLIKELY(shmpi_device.size) &&
           (shmpi_device_holds(dest, 1) || shmpi_device_holds(source, 1));
}

/* Completes every device copy issued (quiet, fence, barrier). */
void shmpi_device_sync(void);
/* Whether an nbi copy issued may not be complete yet. */
static inline bool shmpi_device_unsynced(void)
{
    return atomic_load_explicit(&shmpi_device.synced, memory_order_acquire) <
           atomic_load_explicit(&shmpi_device.issued, memory_order_acquire);
}

/* Ends the job: `what` of ROUTINE is in the device heap, which ROUTINE
 * cannot use (AMOs, waits, collectives); says what to do instead. */
_Noreturn void shmpi_device_refuse(const char *routine, const void *addr, const char *what);
static inline void shmpi_device_check_host(const char *routine, const void *addr,
                                           const char *what)
{
    if (SHMPI_UNLIKELY(shmpi_device_holds(addr, 1)))
        shmpi_device_refuse(routine, addr, what);
}

/* shmemx_device_malloc/_calloc (`zero`) and shmemx_device_free: collective,
 * the same checks and barriers as shmem_malloc and shmem_free.  `meet` is
 * the barrier (shmpi_barrier_all, passed by src/api/device.c: the
 * collectives are a layer above the device). */
void *shmpi_device_malloc(const char *routine, size_t size, bool zero,
                          void (*meet)(const char *routine));
void shmpi_device_free(const char *routine, void *ptr, void (*meet)(const char *routine));

#endif /* SHMPI_DEVICE_HEAP_H */
