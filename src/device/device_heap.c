/*
 * device_heap.c - the symmetric heap in GPU memory (device_heap.h,
 * docs/device-heap.md): set-up through the CUDA driver, the device path of
 * RMA, shmem_ptr, and the collective allocation routines.
 */
#include "shmpi.h"
#include "cuda_driver.h"
#include "device_heap.h"
#include "heap_alloc.h"
#include "progress.h"
#include "shape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct shmpi_device_heap shmpi_device;

static CUcontext device_ctx;   /* the context the heap was allocated in */
static CUstream device_stream; /* every copy of this PE, in issue order */

/* The driver's calls act on the calling thread's current context: a thread
 * of the program may have none, or another. */
static void make_current(const char *routine)
{
    CUcontext current = NULL;
    shmpi_cuda_check(routine, "cuCtxGetCurrent", shmpi_cuda.ctx_get_current(&current));
    if (current != device_ctx)
        shmpi_cuda_check(routine, "cuCtxSetCurrent", shmpi_cuda.ctx_set_current(device_ctx));
}

/* This PE's index among the PEs of its machine (the kernel table of
 * shape.c: pseudo-nodes and SHMPI_MPI_ONLY do not change it). */
static int machine_index(void)
{
    int index = 0;
    for (int pe = 0; pe < shmpi_g.my_pe; pe++)
        index += shmpi_shape.kernel_of[pe] == shmpi_shape.kernel_of[shmpi_g.my_pe];
    return index;
}

static void choose_context(const char *routine)
{
    CUcontext current = NULL;
    shmpi_cuda_check(routine, "cuCtxGetCurrent", shmpi_cuda.ctx_get_current(&current));
    if (current) { /* the program chose its GPU before shmem_init */
        device_ctx = current;
        return;
    }
    int count = 0;
    shmpi_cuda_check(routine, "cuDeviceGetCount", shmpi_cuda.device_get_count(&count));
    if (count <= 0)
        shmpi_abort(routine,
                    "SHMPI_DEVICE_HEAP_SIZE asks for a device heap but the CUDA driver sees "
                    "no GPU (check CUDA_VISIBLE_DEVICES and nvidia-smi, or unset "
                    "SHMPI_DEVICE_HEAP_SIZE)");
    CUdevice device;
    shmpi_cuda_check(routine, "cuDeviceGet",
                     shmpi_cuda.device_get(&device, machine_index() % count));
    shmpi_cuda_check(routine, "cuDevicePrimaryCtxRetain",
                     shmpi_cuda.primary_ctx_retain(&device_ctx, device));
    shmpi_cuda_check(routine, "cuCtxSetCurrent", shmpi_cuda.ctx_set_current(device_ctx));
}

/* AMOs, signals: only RMA reaches GPU memory (shmpi_on_not_symmetric). */
static void refuse_if_held(const char *routine, const void *addr, size_t len)
{
    if (shmpi_device_holds(addr, len))
        shmpi_device_refuse(routine, addr, "address");
}

void shmpi_device_heap_init(void)
{
    const char *routine = "shmem_init";
    shmpi_on_not_symmetric(refuse_if_held);
    size_t size = shmpi_g.env.device_heap_size;
    if (size == 0)
        return;
    int n = shmpi_g.n_pes;
    if (shmpi_job_spans_nodes()) { /* every PE knows it alike: said once */
        char problem[320];
        snprintf(problem, sizeof problem,
                 "SHMPI_DEVICE_HEAP_SIZE asks for a device heap but the job spans %d nodes: "
                 "the device heap reaches peers through CUDA IPC, within one machine only, "
                 "and shmpi does not pass device memory to MPI; run on one node or unset "
                 "SHMPI_DEVICE_HEAP_SIZE",
                 shmpi_shape.nodes);
        shmpi_end_if_any(routine, problem);
    }
    shmpi_cuda_load(routine);
    choose_context(routine);
    shmpi_cuda_check(routine, "cuStreamCreate",
                     shmpi_cuda.stream_create(&device_stream, SHMPI_CU_STREAM_NON_BLOCKING));
    CUdeviceptr base = 0;
    CUresult result = shmpi_cuda.mem_alloc(&base, size);
    if (result != SHMPI_CUDA_SUCCESS) {
        const char *text = NULL;
        shmpi_cuda.get_error_string(result, &text);
        shmpi_abort(routine,
                    "cuMemAlloc of SHMPI_DEVICE_HEAP_SIZE=%zu bytes failed: %s (CUDA error "
                    "%d); lower SHMPI_DEVICE_HEAP_SIZE (the PEs sharing a GPU each take that "
                    "much)",
                    size, text ? text : "unknown error", result);
    }
    shmpi_cuda_check(routine, "cuMemsetD8Async",
                     shmpi_cuda.memset_d8_async(base, 0, size, device_stream));
    shmpi_cuda_check(routine, "cuStreamSynchronize",
                     shmpi_cuda.stream_synchronize(device_stream));
    CUipcMemHandle mine, *all = shmpi_xmalloc(routine, (size_t)n * sizeof *all);
    shmpi_cuda_check(routine, "cuIpcGetMemHandle", shmpi_cuda.ipc_get_mem_handle(&mine, base));
    MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE,
                  shmpi_g.comm);
    shmpi_device.peer = shmpi_xmalloc(routine, (size_t)n * sizeof(char *));
    for (int pe = 0; pe < n; pe++) {
        shmpi_device.peer[pe] = NULL;
        if (pe == shmpi_g.my_pe) {
            shmpi_device.peer[pe] = (char *)(uintptr_t)base;
        } else if (shmpi_shape.kernel_of[pe] == shmpi_shape.kernel_of[shmpi_g.my_pe]) {
            CUdeviceptr mapped = 0;
            shmpi_cuda_check(routine, "cuIpcOpenMemHandle",
                             shmpi_cuda.ipc_open_mem_handle(
                                 &mapped, all[pe], SHMPI_CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
            shmpi_device.peer[pe] = (char *)(uintptr_t)mapped;
        }
    }
    free(all);
    if (shmpi_heap_init(&shmpi_device.alloc, size))
        shmpi_abort(routine, "out of memory for the device heap's bookkeeping");
    shmpi_device.base = (char *)(uintptr_t)base;
    shmpi_device.size = size;
    atomic_store(&shmpi_device.pending, 0);
}

void shmpi_device_heap_fini(void)
{
    const char *routine = "shmem_finalize";
    if (!shmpi_device.size)
        return;
    make_current(routine);
    shmpi_device_sync();
    for (int pe = 0; pe < shmpi_g.n_pes; pe++)
        if (pe != shmpi_g.my_pe && shmpi_device.peer[pe])
            shmpi_cuda_check(routine, "cuIpcCloseMemHandle",
                             shmpi_cuda.ipc_close_mem_handle(
                                 (CUdeviceptr)(uintptr_t)shmpi_device.peer[pe]));
    /* Every peer has closed its mapping of this heap before it goes. */
    shmpi_barrier_comm(shmpi_g.comm, NULL);
    shmpi_cuda_check(routine, "cuMemFree",
                     shmpi_cuda.mem_free((CUdeviceptr)(uintptr_t)shmpi_device.base));
    shmpi_cuda_check(routine, "cuStreamDestroy", shmpi_cuda.stream_destroy(device_stream));
    shmpi_heap_destroy(&shmpi_device.alloc);
    free(shmpi_device.peer);
    memset(&shmpi_device, 0, sizeof shmpi_device);
}

/* ---- copies ------------------------------------------------------------------------ */
static void copy_async(const char *routine, void *to, const void *from, size_t nbytes)
{
    shmpi_cuda_check(routine, "cuMemcpyAsync",
                     shmpi_cuda.memcpy_async((CUdeviceptr)(uintptr_t)to,
                                             (CUdeviceptr)(uintptr_t)from, nbytes,
                                             device_stream));
}

static void sync_stream(const char *routine)
{
    atomic_store_explicit(&shmpi_device.pending, 0, memory_order_relaxed);
    shmpi_cuda_check(routine, "cuStreamSynchronize",
                     shmpi_cuda.stream_synchronize(device_stream));
}

void shmpi_device_copy(const char *routine, void *to, const void *from, size_t len)
{
    if (!shmpi_device_holds(to, len) && !shmpi_device_holds(from, len)) {
        memcpy(to, from, len);
        return;
    }
    make_current(routine);
    copy_async(routine, to, from, len);
    sync_stream(routine);
}

void shmpi_device_sync(void)
{
    make_current("shmem_quiet");
    sync_stream("shmem_quiet");
}

static void complete(const char *routine, enum shmpi_completion completion)
{
    if (completion == SHMPI_BLOCKING)
        sync_stream(routine);
    else
        atomic_store_explicit(&shmpi_device.pending, 1, memory_order_relaxed);
}

/* PE pe's copy of the device-heap range at `addr` (this PE's address). */
static char *peer_address(const char *routine, const void *addr, size_t len, int pe)
{
    if (!shmpi_device_holds(addr, len))
        shmpi_symm_fail(routine, addr, len, pe);
    char *peer = shmpi_device.peer[pe];
    if (!peer) /* cannot happen on one machine: every PE of it is mapped */
        shmpi_abort(routine, "the device heap of PE %d is not mapped on this PE", pe);
    return peer + ((const char *)addr - shmpi_device.base);
}

void shmpi_device_contiguous(const char *routine, struct shmpi_ctx *ctx, bool is_put,
                             void *dest, const void *source, size_t nbytes, int world_pe,
                             enum shmpi_completion completion)
{
    (void)ctx; /* one stream for every context: quiet on any completes them all */
    char *remote = peer_address(routine, is_put ? dest : source, nbytes, world_pe);
    make_current(routine);
    if (is_put)
        copy_async(routine, remote, source, nbytes);
    else
        copy_async(routine, dest, remote, nbytes);
    complete(routine, completion);
}

void shmpi_device_strided(const char *routine, bool is_put, char *to_first, ptrdiff_t to_step,
                          const char *from_first, ptrdiff_t from_step, size_t nblocks,
                          size_t block, const void *remote_lowest, size_t remote_extent,
                          int world_pe)
{
    char *remote = peer_address(routine, remote_lowest, remote_extent, world_pe);
    ptrdiff_t shift = remote - (const char *)remote_lowest;
    if (is_put)
        to_first += shift;
    else
        from_first += shift;
    make_current(routine);
    for (size_t i = 0; i < nblocks; i++)
        copy_async(routine, to_first + (ptrdiff_t)i * to_step,
                   from_first + (ptrdiff_t)i * from_step, block);
    sync_stream(routine);
}

void *shmpi_device_ptr(const void *addr, int pe)
{
    if (!shmpi_device_holds(addr, 1) || !shmpi_device.peer[pe])
        return NULL;
    return shmpi_device.peer[pe] + ((const char *)addr - shmpi_device.base);
}

void shmpi_device_refuse(const char *routine, const void *addr, const char *what)
{
    shmpi_abort(routine,
                "%s %p is in the device heap (shmemx_device_malloc), which %s cannot use "
                "(the host cannot load or store GPU memory); keep it in the host heap "
                "(shmem_malloc) and move device data with shmem_put/shmem_get",
                what, addr, routine);
}

/* ---- allocation (shmemx_device_malloc, _calloc, _free) -------------------------------- */
static void need_heap(const char *routine)
{
    shmpi_check_ready(routine);
    if (!shmpi_device.size)
        shmpi_abort(routine,
                    "there is no device heap: set SHMPI_DEVICE_HEAP_SIZE (e.g. 1g) before "
                    "shmem_init, or test shmemx_device_heap_available() first");
}

static void same_everywhere(const char *routine, const char *what, unsigned long value)
{
    if (shmpi_g.env.debug && !shmpi_same_on_all_pes(value))
        shmpi_abort(routine,
                    "%s is %lu here but differs on another PE (it must be the same on every "
                    "PE)",
                    what, value);
}

void *shmpi_device_malloc(const char *routine, size_t size, bool zero,
                          void (*meet)(const char *routine))
{
    need_heap(routine);
    same_everywhere(routine, "size", size);
    if (size == 0)
        return NULL; /* no action, so no barrier (as shmem_malloc) */
    size_t off;
    char *ptr = NULL;
    if (shmpi_heap_alloc(&shmpi_device.alloc, size, 0, &off) == 0) {
        ptr = shmpi_device.base + off;
        if (zero) { /* before the barrier: no PE may write into it earlier */
            make_current(routine);
            shmpi_cuda_check(routine, "cuMemsetD8Async",
                             shmpi_cuda.memset_d8_async((CUdeviceptr)(uintptr_t)ptr, 0, size,
                                                        device_stream));
            sync_stream(routine);
        }
    } else if (shmpi_g.my_pe == 0) {
        shmpi_warn(routine,
                   "%zu bytes requested, %zu of the %zu-byte device heap free; returning NULL "
                   "(raise SHMPI_DEVICE_HEAP_SIZE)",
                   size, shmpi_device.alloc.size - shmpi_device.alloc.used_bytes,
                   shmpi_device.alloc.size);
    }
    meet(routine);
    return ptr;
}

void shmpi_device_free(const char *routine, void *ptr, void (*meet)(const char *routine))
{
    need_heap(routine);
    if (!ptr)
        return;
    size_t off = (size_t)((char *)ptr - shmpi_device.base);
    if (!shmpi_device_holds(ptr, 1) || shmpi_heap_block_size(&shmpi_device.alloc, off) == 0)
        shmpi_abort(routine,
                    "pointer %p was not returned by shmemx_device_malloc/"
                    "shmemx_device_calloc (or was already freed)",
                    ptr);
    same_everywhere(routine, "the device heap offset of ptr", off);
    meet(routine);
    shmpi_heap_free(&shmpi_device.alloc, off);
}
