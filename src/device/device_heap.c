/*
 * device_heap.c - the memory floor of src/device (src/LAYERS): the
 * symmetric heap in GPU memory (device_heap.h, docs/device-heap.md), its
 * context and stream, the lookup of device addresses, copies, shmem_ptr and
 * the collective allocation routines.  The floors above map the peers'
 * memory (device_reach.c) and start it all in order (device_life.c).
 */
#include "shmpi.h"
#include "cuda_driver.h"
#include "device_heap.h"
#include "heap_alloc.h"
#include "progress.h"
#include "shape.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct shmpi_device_heap shmpi_device;

static CUcontext device_ctx;   /* the context the heap was allocated in */
static uint64_t *node_of;      /* [n_pes]: each PE's node (shmpi_shape.mine.node) */
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

CUcontext shmpi_device_enter(const char *routine)
{
    make_current(routine);
    return device_ctx;
}

CUstream shmpi_device_stream(void)
{
    return device_stream;
}

bool shmpi_device_ipc_reaches(int pe)
{
    return pe == shmpi_g.my_pe ||
           (shmpi_g.env.device_ipc && node_of[pe] == node_of[shmpi_g.my_pe]);
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

/* Collective: ends the job if some PE's machine has no GPU the driver sees,
 * with one line; where only some machines lack one (a job mixing machines
 * with and without GPUs), the line names the first such machine. */
static void need_gpu_everywhere(const char *routine)
{
    int count = 0, n = shmpi_g.n_pes, me = shmpi_g.my_pe;
    if (shmpi_cuda.device_get_count(&count) != SHMPI_CUDA_SUCCESS)
        count = 0;
    int lacking[2] = {count <= 0 ? me : n, count <= 0}, summary[2];
    MPI_Allreduce(&lacking[0], &summary[0], 1, MPI_INT, MPI_MIN, shmpi_g.comm);
    MPI_Allreduce(&lacking[1], &summary[1], 1, MPI_INT, MPI_SUM, shmpi_g.comm);
    if (summary[0] == n)
        return;
    if (summary[1] == n) /* every PE alike: said once */
        shmpi_end_if_any(routine,
                         "SHMPI_DEVICE_HEAP_SIZE asks for a device heap but the CUDA driver "
                         "sees no GPU (check CUDA_VISIBLE_DEVICES and nvidia-smi, or unset "
                         "SHMPI_DEVICE_HEAP_SIZE)");
    if (me == summary[0]) {
        char host[256] = "?";
        gethostname(host, sizeof host - 1);
        shmpi_abort(routine,
                    "SHMPI_DEVICE_HEAP_SIZE asks for a device heap but machine %s has no GPU "
                    "the CUDA driver sees, while other machines of the job have one (%d of "
                    "the %d PEs lack one): run every PE on a machine with a GPU (check "
                    "CUDA_VISIBLE_DEVICES and nvidia-smi on %s), or unset "
                    "SHMPI_DEVICE_HEAP_SIZE",
                    host, summary[1], n, host);
    }
    MPI_Barrier(shmpi_g.comm); /* until that PE's line ends the job */
    shmpi_abort(routine, "another PE found a problem at start-up");
}

static void choose_context(const char *routine, int ordinal)
{
    CUcontext current = NULL;
    shmpi_cuda_check(routine, "cuCtxGetCurrent", shmpi_cuda.ctx_get_current(&current));
    if (current && ordinal < 0) { /* the program chose its GPU before */
        device_ctx = current;
        return;
    }
    int count = 0;
    shmpi_cuda_check(routine, "cuDeviceGetCount", shmpi_cuda.device_get_count(&count));
    if (ordinal >= count)
        shmpi_abort(routine, "device %d is not a GPU of this machine (the driver sees %d)",
                    ordinal, count);
    CUdevice device;
    shmpi_cuda_check(routine, "cuDeviceGet",
                     shmpi_cuda.device_get(&device, ordinal >= 0 ? ordinal
                                                               : machine_index() % count));
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

/* What the stream routines can use (stream.c says what is missing when a
 * routine needs it). */
static void probe(const char *routine)
{
    CUdevice device;
    shmpi_cuda_check(routine, "cuCtxGetDevice", shmpi_cuda.ctx_get_device(&device));
    shmpi_device.ordinal = device;
    int value;
#define SHMPI_PROBE(FIELD, ATTRIBUTE)                                                         \
    value = 0;                                                                                \
    shmpi_device.FIELD = shmpi_cuda.device_get_attribute(&value, ATTRIBUTE, device) ==        \
                             SHMPI_CUDA_SUCCESS &&                                            \
                         value;
    SHMPI_PROBE(stream_memops, SHMPI_CU_ATTRIBUTE_STREAM_MEMOPS_64)
    SHMPI_PROBE(flush_remote_writes, SHMPI_CU_ATTRIBUTE_FLUSH_REMOTE_WRITES)
    SHMPI_PROBE(atomic_reduction, SHMPI_CU_ATTRIBUTE_ATOMIC_REDUCTION)
#undef SHMPI_PROBE
    if (shmpi_g.env.debug && shmpi_g.my_pe == 0)
        shmpi_warn(routine,
                   "device heap on GPU %d: 64-bit stream memory operations %s, remote-write "
                   "flush %s, stream atomic reduction %s",
                   device, shmpi_device.stream_memops ? "yes" : "no",
                   shmpi_device.flush_remote_writes ? "yes" : "no",
                   shmpi_device.atomic_reduction ? "yes" : "no");
}

/* True where this PE's contexts on `device` go through MPS.  The driver says so
 * (attribute 133, from CUDA 12): a control socket left by a killed daemon, or a
 * daemon started after this process, does not fool it.  An older driver does not
 * know the attribute; then the control socket in the pipe directory
 * (CUDA_MPS_PIPE_DIRECTORY, default /tmp/nvidia-mps) stands in. */
static bool mps_runs(CUdevice device)
{
    int enabled = 0;
    if (shmpi_cuda.device_get_attribute(&enabled, SHMPI_CU_ATTRIBUTE_MPS_ENABLED, device) ==
        SHMPI_CUDA_SUCCESS)
        return enabled != 0;
    const char *dir = getenv("CUDA_MPS_PIPE_DIRECTORY");
    char control[512];
    snprintf(control, sizeof control, "%s/control", dir && *dir ? dir : "/tmp/nvidia-mps");
    return access(control, F_OK) == 0;
}

/* PEs sharing a GPU without MPS are time-sliced (on an H100, an 8-byte put_signal
 * ping-pong on streams took 283 us per round trip without MPS, 10 us with it): under
 * SHMEM_DEBUG the lowest PE of each shared GPU says so once (collective in every case,
 * so that PEs started with different SHMEM_DEBUG settings still meet). */
static void say_if_time_sliced(const char *routine)
{
    CUdevice device = (CUdevice)shmpi_device.ordinal;
    int gpu[4] = {0, 0, 0, shmpi_device.ordinal}; /* PCI domain, bus, device; ordinal */
    static const int attribute[3] = {SHMPI_CU_ATTRIBUTE_PCI_DOMAIN_ID,
                                     SHMPI_CU_ATTRIBUTE_PCI_BUS_ID,
                                     SHMPI_CU_ATTRIBUTE_PCI_DEVICE_ID};
    for (int i = 0; i < 3; i++)
        if (shmpi_cuda.device_get_attribute(&gpu[i], attribute[i], device) != SHMPI_CUDA_SUCCESS)
            gpu[i] = 0;
    if (gpu[0] || gpu[1] || gpu[2])
        gpu[3] = 0; /* the PCI address names the GPU across CUDA_VISIBLE_DEVICES orders */
    int n = shmpi_g.n_pes, me = shmpi_g.my_pe;
    int(*all)[4] = malloc((size_t)n * sizeof *all);
    if (!all)
        shmpi_abort(routine, "out of memory for %d PEs' GPU identities", n);
    MPI_Allgather(gpu, 4, MPI_INT, all, 4, MPI_INT, shmpi_g.comm);
    int lowest = -1, sharing = 0;
    char list[160] = "";
    size_t used = 0;
    for (int pe = 0; pe < n; pe++) {
        if (memcmp(all[pe], gpu, sizeof gpu))
            continue;
        if (lowest < 0)
            lowest = pe;
        if (sharing++ < 8 && used < sizeof list)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%d",
                                     sharing > 1 ? ", " : "", pe);
    }
    free(all);
    if (shmpi_g.env.debug && sharing > 1 && lowest == me && !mps_runs(device))
        shmpi_warn(routine,
                   "%d PEs (%s%s) share GPU %d without MPS: their CUDA contexts are "
                   "time-sliced, stream operations 10-30x slower; start "
                   "`nvidia-cuda-mps-control -d` before the job (docs/device-heap.md, "
                   "\"Several PEs on one GPU\")",
                   sharing, list, sharing > 8 ? ", ..." : "", shmpi_device.ordinal);
}

void shmpi_device_memory_init(void)
{
    shmpi_on_not_symmetric(refuse_if_held);
    shmpi_device.ordinal = -1;
}

char *shmpi_device_memory_start(const char *routine, int ordinal, size_t size)
{
    int n = shmpi_g.n_pes;
    free(node_of);
    node_of = shmpi_xmalloc(routine, (size_t)n * sizeof *node_of);
    MPI_Allgather(&shmpi_shape.mine.node, 1, MPI_UINT64_T, node_of, 1, MPI_UINT64_T,
                  shmpi_g.comm);
    shmpi_cuda_load(routine);
    need_gpu_everywhere(routine);
    choose_context(routine, ordinal);
    probe(routine);
    say_if_time_sliced(routine);
    shmpi_cuda_check(routine, "cuStreamCreate",
                     shmpi_cuda.stream_create(&device_stream, SHMPI_CU_STREAM_NON_BLOCKING));
    CUdeviceptr base = 0;
    CUresult result = shmpi_cuda.mem_alloc(&base, size);
    if (result != SHMPI_CUDA_SUCCESS) {
        shmpi_abort(routine,
                    "cuMemAlloc of SHMPI_DEVICE_HEAP_SIZE=%zu bytes failed: %s (CUDA error "
                    "%d); lower SHMPI_DEVICE_HEAP_SIZE (the PEs sharing a GPU each take that "
                    "much)",
                    size, shmpi_cuda_error_text(result), result);
    }
    shmpi_cuda_check(routine, "cuMemsetD8Async",
                     shmpi_cuda.memset_d8_async(base, 0, size, device_stream));
    shmpi_cuda_check(routine, "cuStreamSynchronize",
                     shmpi_cuda.stream_synchronize(device_stream));
    return (char *)(uintptr_t)base;
}

void shmpi_device_memory_open(const char *routine, char *base, size_t size)
{
    int n = shmpi_g.n_pes;
    if (shmpi_heap_init(&shmpi_device.alloc, size))
        shmpi_abort(routine, "out of memory for the device heap's bookkeeping");
    shmpi_device.base = base;
    shmpi_device.size = size;
    atomic_store(&shmpi_device.issued, 0);
    atomic_store(&shmpi_device.synced, 0);
    /* The first block, at the same offset everywhere, cleared at the start. */
    size_t off;
    if (shmpi_heap_alloc(&shmpi_device.alloc, (size_t)n * sizeof(uint64_t), 0, &off))
        shmpi_abort(routine, "the device heap of %zu bytes cannot hold the %zu bytes of the "
                    "stream barriers' words; raise SHMPI_DEVICE_HEAP_SIZE", size,
                    (size_t)n * sizeof(uint64_t));
    shmpi_device.sync_words = (uint64_t *)(void *)(shmpi_device.base + off);
}

void shmpi_device_memory_stop(const char *routine)
{
    shmpi_cuda_check(routine, "cuMemFree",
                     shmpi_cuda.mem_free((CUdeviceptr)(uintptr_t)shmpi_device.base));
    shmpi_cuda_check(routine, "cuStreamDestroy", shmpi_cuda.stream_destroy(device_stream));
    shmpi_heap_destroy(&shmpi_device.alloc);
    memset(&shmpi_device, 0, sizeof shmpi_device);
    shmpi_device.ordinal = -1;
    free(node_of);
    node_of = NULL;
}

/* Every stream of the heap's context, the program's too: nothing queued
 * may still reach memory about to be unmapped or freed. */
void shmpi_device_sync_context(const char *routine)
{
    shmpi_cuda_check(routine, "cuCtxSynchronize", shmpi_cuda.ctx_synchronize());
}

/* ---- copies ------------------------------------------------------------------------ */
void shmpi_device_copy_async(const char *routine, void *to, const void *from, size_t nbytes)
{
    shmpi_cuda_check(routine, "cuMemcpyAsync",
                     shmpi_cuda.memcpy_async((CUdeviceptr)(uintptr_t)to,
                                             (CUdeviceptr)(uintptr_t)from, nbytes,
                                             device_stream));
}

/* Completes every copy enqueued on shmpi's stream so far, and says so to
 * the quiets of every thread (issued, synced). */
void shmpi_device_sync_stream(const char *routine)
{
    unsigned long covered = atomic_load_explicit(&shmpi_device.issued, memory_order_acquire);
    shmpi_cuda_check(routine, "cuStreamSynchronize",
                     shmpi_cuda.stream_synchronize(device_stream));
    unsigned long seen = atomic_load_explicit(&shmpi_device.synced, memory_order_relaxed);
    while (seen < covered &&
           !atomic_compare_exchange_weak_explicit(&shmpi_device.synced, &seen, covered,
                                                  memory_order_release, memory_order_relaxed))
        ;
}

void shmpi_device_copy(const char *routine, void *to, const void *from, size_t len)
{
    if (!shmpi_device_holds(to, len) && !shmpi_device_holds(from, len)) {
        memcpy(to, from, len);
        return;
    }
    make_current(routine);
    shmpi_device_copy_async(routine, to, from, len);
    shmpi_device_sync_stream(routine);
}

void shmpi_device_sync(void)
{
    make_current("shmem_quiet");
    shmpi_device_sync_stream("shmem_quiet");
}

void shmpi_device_complete(const char *routine, enum shmpi_completion completion)
{
    if (completion == SHMPI_BLOCKING)
        shmpi_device_sync_stream(routine);
    else /* after the enqueue: a synchronize that reads the count covers the copy */
        atomic_fetch_add_explicit(&shmpi_device.issued, 1, memory_order_release);
}

char *shmpi_device_peer(const void *addr, size_t len, int pe)
{
    const char *at = addr;
    if (shmpi_device_holds(addr, len))
        return shmpi_device.peer[pe] ? shmpi_device.peer[pe] + (at - shmpi_device.base) : NULL;
    for (struct shmpi_device_range *r = shmpi_device.ranges; r; r = r->next) {
        uintptr_t off = (uintptr_t)at - (uintptr_t)r->base;
        if (off < r->size && len <= r->size - off)
            return r->peer[pe] ? r->peer[pe] + off : NULL;
    }
    return NULL;
}

char *shmpi_device_region(int region, size_t *size)
{
    if (region == 0) {
        *size = shmpi_device.size;
        return shmpi_device.base;
    }
    struct shmpi_device_range *r = __atomic_load_n(&shmpi_device.ranges, __ATOMIC_ACQUIRE);
    while (r && r->id != region)
        r = r->next;
    *size = r ? r->size : 0;
    return r ? r->base : NULL;
}

bool shmpi_device_locate(const void *addr, size_t len, int *region, uint64_t *offset)
{
    if (shmpi_device_holds(addr, len)) {
        *region = 0;
        *offset = (uint64_t)((const char *)addr - shmpi_device.base);
        return true;
    }
    for (struct shmpi_device_range *r = shmpi_device.ranges; r; r = r->next) {
        uintptr_t off = (uintptr_t)addr - (uintptr_t)r->base;
        if (off < r->size && len <= r->size - off) {
            *region = r->id;
            *offset = off;
            return true;
        }
    }
    return false;
}

void *shmpi_device_ptr(const void *addr, int pe)
{
    return shmpi_device_peer(addr, 1, pe);
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
void shmpi_device_need_heap(const char *routine)
{
    shmpi_check_ready(routine);
    if (SHMPI_UNLIKELY(!shmpi_device.size))
        shmpi_abort(routine,
                    "there is no device heap: set SHMPI_DEVICE_HEAP_SIZE (e.g. 1g) before "
                    "shmem_init or call shmemx_device_init after it, or test "
                    "shmemx_device_heap_available() first");
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
    shmpi_device_need_heap(routine);
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
            shmpi_device_sync_stream(routine);
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
    shmpi_device_need_heap(routine);
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
