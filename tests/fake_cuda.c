/*
 * fake_cuda.c - a stand-in for the CUDA driver (libcuda.so.1) for the
 * device-heap tests: the entry points of src/device/cuda_driver.h over host
 * memory, loaded through SHMPI_CUDA_LIBRARY.
 *
 * "Device memory" is a POSIX shared-memory object, so its IPC handle (the
 * object's name) opens in another process.  The device address handed out
 * is a PROT_NONE reservation: like a real GPU pointer it cannot be loaded
 * or stored by the host, so a host-side memmove on it crashes at once.  The
 * driver's copies reach the bytes through a second, accessible mapping.
 *
 * Pinned memory mapped into the device (cuMemHostAlloc with DEVICEMAP) has
 * a device address (cuMemHostGetDevicePointer_v2) that is not its host
 * pointer, unlike a GPU with unified addressing: the stream memory
 * operations take the device address only, so a host pointer handed to a
 * stream fails here.
 *
 * Streams are real, so tests can see stream ordering: each stream is a FIFO
 * served in order by a worker thread of its own (different streams run
 * concurrently), and every *Async call, stream memory operation
 * (cuStreamWriteValue, cuStreamWaitValue), host function, event record or
 * wait and kernel launch returns once enqueued.  Stream 0 and the handles
 * CU_STREAM_LEGACY (0x1) and CU_STREAM_PER_THREAD (0x2) all name one
 * per-process legacy default stream.  A stream's first failing operation
 * leaves a sticky error that its later calls return; the operations queued
 * behind it are skipped (event records still complete, so no one waits on
 * them forever).  A stream wait polls its word, sleeping between polls (the
 * PEs of a test outnumber the CPUs).  The kernels are shmpi_signal_add
 * (a 64-bit atomic add) and shmpi_fold (the reductions of
 * src/device/fold.h, run here with fold.h's own functions), launched from
 * PTX text that names them; each runs once per launch, in stream order.
 * After fork the child has no streams.
 *
 * Completion is as late as the driver API's documentation ("API
 * synchronization behavior") allows, so that code waiting too little fails
 * here and not only on a GPU:
 *   - cuMemcpy, cuMemcpyHtoD_v2, cuMemcpyDtoD_v2 into device memory from
 *     pageable host memory or device memory: the source is captured at the
 *     call, the bytes land later, in order on the legacy stream.  From
 *     pinned memory (cuMemAllocHost_v2, cuMemHostRegister_v2), into host
 *     memory (cuMemcpyDtoH_v2), and host to host: complete at return.
 *   - cuMemsetD8_v2, cuMemsetD32_v2 on device memory: land later on the
 *     legacy stream (on pinned memory: complete at return).
 *   - every async copy and memset lands later on its stream (a pageable
 *     source captured at the call, as the driver stages it); async copies
 *     host to host complete at return.
 *   - "later": not before SHMPI_FAKE_CUDA_LATE_US after the call.
 *   - host functions (cuLaunchHostFunc) run on one thread of the process
 *     (serialized, as the documentation allows), not the stream's worker;
 *     the stream waits for each to return.
 *   - cuStreamDestroy_v2 returns at once; the stream's queued work still
 *     runs, then it goes.
 *   - the legacy stream synchronizes implicitly with the blocking streams
 *     (created without CU_STREAM_NON_BLOCKING): its work waits for theirs
 *     enqueued before, and theirs for its; non-blocking streams never wait
 *     for it.  cuStreamSynchronize(0) waits for the legacy stream,
 *     cuCtxSynchronize for every stream.
 * The virtual memory API (cuMemCreate, cuMemMap, cuMemExportToShareableHandle
 * with POSIX descriptors, ...) is at the end of the file: its allocations
 * are memfds; fake_cuda_vmm_count(WHAT) counts "allocations", "mappings",
 * "reservations" live and "exports", "imports" made.
 *
 * Environment, read when a call is made:
 *   SHMPI_FAKE_CUDA_DEVICES=N      the number of devices (default 1)
 *   SHMPI_FAKE_CUDA_LATE_US=N      work that may land later lands no
 *                                  earlier than N us after its call
 *                                  (default 2000; 0: as soon as its stream
 *                                  gets to it)
 *   SHMPI_FAKE_CUDA_SYNCHRONOUS=1  the fake of before: synchronous copies
 *                                  and memsets complete at return, nothing
 *                                  is late or captured, host functions run
 *                                  on the stream's worker, cuStreamDestroy
 *                                  waits for the stream (for comparisons)
 *   SHMPI_FAKE_CUDA_DELAY_US=N     each async copy/memset also waits N us in
 *                                  its worker first: enqueue visibly returns
 *                                  early, and a stream of them is slow
 *   SHMPI_FAKE_CUDA_WAIT_TIMEOUT=S a stream wait gives up after S seconds
 *                                  (default 20), says so on stderr and leaves
 *                                  error 702 on its stream: a test ends
 *                                  instead of hanging CI
 *   SHMPI_FAKE_CUDA_NO_STREAM_MEMOPS=1  the device cannot do stream memory
 *                                  operations (attributes 0, calls fail 801)
 *   SHMPI_FAKE_CUDA_NO_HOST_MAP=1  the device cannot map host memory
 *                                  (attribute 19 is 0; cuMemHostAlloc with
 *                                  DEVICEMAP fails 801)
 *   SHMPI_FAKE_CUDA_NO_JIT=1       cuModuleLoadData fails with 221, as
 *                                  without the PTX JIT compiler
 *   SHMPI_FAKE_CUDA_MPS=1          the device's contexts go through MPS
 *                                  (attribute 133); =unknown: the attribute
 *                                  fails with 1, as before CUDA 12
 * fake_cuda_count(WHAT) reads this process's counters, so tests can check
 * that the device path ran: "copies" (copies and memsets run), "syncs"
 * (stream and context synchronizations), "ipc_opens", "allocs",
 * "host_allocs" (cuMemAllocHost), "writes", "waits" (stream memory
 * operations run), "host_funcs", "kernels" (run), "stream_ops" (every
 * operation enqueued, the implicit waits of the legacy stream not counted)
 * "late" (copies and memsets that landed after their synchronous call
 * returned) and "mapped_memops" (stream writes and waits enqueued on host
 * memory mapped with cuMemHostAlloc's DEVICEMAP).  fake_cuda_stream_pending(S) counts the operations enqueued on
 * S and not finished (0 when idle).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct {
    char reserved[64];
} CUipcMemHandle;

enum {
    SUCCESS = 0,
    ERROR_INVALID_VALUE = 1,
    ERROR_OUT_OF_MEMORY = 2,
    ERROR_NOT_INITIALIZED = 3,
    ERROR_NO_DEVICE = 100,
    ERROR_INVALID_DEVICE = 101,
    ERROR_INVALID_IMAGE = 200,
    ERROR_INVALID_CONTEXT = 201,
    ERROR_MAP_FAILED = 205,
    ERROR_JIT_COMPILER_NOT_FOUND = 221,
    ERROR_INVALID_HANDLE = 400,
    ERROR_NOT_FOUND = 500,
    ERROR_NOT_READY = 600,
    ERROR_ILLEGAL_ADDRESS = 700,
    ERROR_LAUNCH_TIMEOUT = 702,
    ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
    ERROR_HOST_MEMORY_NOT_REGISTERED = 713,
    ERROR_NOT_SUPPORTED = 801,
};

/* ---- memory: device regions and pinned host blocks ---------------------------------- */
struct region {
    char *device;       /* the PROT_NONE address handed out (pinned: the block) */
    char *host;         /* where the bytes are */
    size_t size;
    unsigned long gen;  /* tells a queued operation its region is still there */
    char name[48];      /* the shared-memory object */
    int owned;          /* allocated here (else opened from a handle) */
    int pinned;         /* cuMemAllocHost memory: host and device are one */
    int registered;     /* cuMemHostRegister memory (pinned, the program's) */
    int host_mapped;    /* cuMemHostAlloc with DEVICEMAP: `device` is the block's device
                           address (a PROT_NONE reservation, not `host`) */
    int vmm;            /* a cuMemMap mapping (VMM section): not freed here */
};
#define MAX_REGIONS 256
static struct region regions[MAX_REGIONS];
/* Worker threads resolve addresses while the caller allocates and frees.  A
 * mutex, not a rwlock: the child of a fork can unlock it (glibc's rwlock
 * knows its writer's thread id, which the child's thread does not have). */
static pthread_mutex_t regions_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long region_gen;
static atomic_int initialized;
static struct CUctx_st {
    int device;
} contexts[16];
/* Static TLS (initial-exec): LeakSanitizer's tracer
 * crashes on the dynamic TLS of a dlopen'ed library whose threads come and
 * go (the streams' threads), stream_reduce in an --enable-asan build. */
static _Thread_local CUcontext current __attribute__((tls_model("initial-exec")));
static atomic_ulong copies, syncs, ipc_opens, allocs, host_allocs, writes, waits, host_funcs,
    kernels, stream_ops, late, mapped_memops;

EXPORT unsigned long fake_cuda_count(const char *what)
{
    static const struct {
        const char *name;
        atomic_ulong *counter;
    } counters[] = {
        {"copies", &copies},         {"syncs", &syncs},           {"ipc_opens", &ipc_opens},
        {"allocs", &allocs},         {"host_allocs", &host_allocs}, {"writes", &writes},
        {"waits", &waits},           {"host_funcs", &host_funcs}, {"kernels", &kernels},
        {"stream_ops", &stream_ops}, {"late", &late},          {"mapped_memops", &mapped_memops},
    };
    for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++)
        if (!strcmp(what, counters[i].name))
            return atomic_load(counters[i].counter);
    return 0;
}

static int device_count(void)
{
    const char *value = getenv("SHMPI_FAKE_CUDA_DEVICES");
    int n = value ? atoi(value) : 1;
    return n < 0 ? 0 : n > 16 ? 16 : n;
}

static int env_flag(const char *name)
{
    const char *value = getenv(name);
    return value && *value && strcmp(value, "0");
}

static int synchronous(void)
{
    return env_flag("SHMPI_FAKE_CUDA_SYNCHRONOUS");
}

/* How long after its call work that may land later lands at the earliest. */
static unsigned late_us(void)
{
    if (synchronous())
        return 0;
    const char *value = getenv("SHMPI_FAKE_CUDA_LATE_US");
    long n = value && *value ? atol(value) : 2000;
    return n > 0 ? (unsigned)n : 0;
}

/* The caller holds regions_lock. */
static struct region *find(const void *ptr)
{
    for (int i = 0; i < MAX_REGIONS; i++) {
        struct region *r = &regions[i];
        if (r->size && (uintptr_t)ptr - (uintptr_t)r->device < r->size)
            return r;
    }
    return NULL;
}

/* Where the host reaches `ptr`: a device address's bytes, or itself.  The
 * caller holds regions_lock. */
static char *reach(CUdeviceptr ptr)
{
    struct region *r = find((void *)(uintptr_t)ptr);
    return r ? r->host + ((uintptr_t)ptr - (uintptr_t)r->device) : (char *)(uintptr_t)ptr;
}

/* What memory an address is in, for the completion rules. */
enum where { PAGEABLE, PINNED, DEVICE };

/* An address an operation will use later: gen 0 for host memory unknown to
 * the driver, else the generation of the region that held it at enqueue. */
struct ref {
    CUdeviceptr ptr;
    unsigned long gen;
    enum where where;
};

/* Checks [ptr, ptr+bytes) at enqueue: inside one region, or (unless
 * `device`) wholly outside the driver's memory. */
static CUresult make_ref(struct ref *ref, CUdeviceptr ptr, size_t bytes, int device)
{
    CUresult status = SUCCESS;
    pthread_mutex_lock(&regions_lock);
    struct region *r = find((void *)(uintptr_t)ptr);
    ref->ptr = ptr;
    ref->gen = r ? r->gen : 0;
    ref->where = !r ? PAGEABLE : r->pinned ? PINNED : DEVICE;
    if (r ? bytes > r->size - (size_t)(ptr - (uintptr_t)r->device) : device)
        status = ERROR_INVALID_VALUE;
    pthread_mutex_unlock(&regions_lock);
    return status;
}

/* Where the host reaches `ref` when the operation runs, or NULL if its
 * region went away meanwhile.  The caller holds regions_lock. */
static char *resolve(struct ref ref)
{
    if (!ref.gen)
        return (char *)(uintptr_t)ref.ptr;
    struct region *r = find((void *)(uintptr_t)ref.ptr);
    return r && r->gen == ref.gen ? reach(ref.ptr) : NULL;
}

static CUresult ready(void)
{
    if (!initialized)
        return ERROR_NOT_INITIALIZED;
    return current ? SUCCESS : ERROR_INVALID_CONTEXT;
}

static CUresult map_region(struct region *r, int fd)
{
    r->host = mmap(NULL, r->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    r->device = mmap(NULL, r->size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    close(fd);
    if (r->host == MAP_FAILED || r->device == MAP_FAILED) {
        if (r->host != MAP_FAILED)
            munmap(r->host, r->size);
        if (r->device != MAP_FAILED)
            munmap(r->device, r->size);
        return ERROR_MAP_FAILED;
    }
    r->gen = ++region_gen;
    return SUCCESS;
}

/* The caller holds regions_lock. */
static struct region *free_slot(void)
{
    for (int i = 0; i < MAX_REGIONS; i++)
        if (!regions[i].size)
            return &regions[i];
    return NULL;
}

/* ---- streams and events ------------------------------------------------------------- */
enum op_kind {
    OP_COPY,
    OP_SET,
    OP_WRITE,
    OP_WAIT,
    OP_HOST_FUNC,
    OP_RECORD,
    OP_WAIT_EVENT,
    OP_ADD,
    OP_WAIT_STREAM, /* the legacy stream's implicit synchronization */
    OP_FOLD,        /* the kernel shmpi_fold */
};

struct CUevent_st {
    pthread_mutex_t lock;
    pthread_cond_t done;
    unsigned long recorded;  /* records enqueued */
    unsigned long completed; /* the latest record run */
    int refs;                /* the handle and each queued operation on it */
};

struct op {
    struct op *next;
    enum op_kind kind;
    struct ref dst, src;
    size_t bytes;
    unsigned long long value;
    unsigned flags;
    int width;               /* stream memory operations: 4 or 8; memsets: 1 or 4 */
    unsigned delay_us;       /* copies: SHMPI_FAKE_CUDA_DELAY_US */
    double not_before;       /* copies, memsets: the earliest they land (LATE_US) */
    int after_return;        /* a synchronous call's work, landing after it returned */
    char *staged;            /* a pageable source captured at the call (the op's) */
    int host_thread;         /* a host function run on the host-function thread */
    double timeout;          /* waits: SHMPI_FAKE_CUDA_WAIT_TIMEOUT */
    void (*fn)(void *);
    void *data;
    CUevent event;
    unsigned long seq;       /* the event's record */
    struct CUstream_st *other; /* OP_WAIT_STREAM: waits until it has done `target` */
    unsigned long target;
    struct fold_launch *fold; /* OP_FOLD: its arguments (the op's) */
};
static CUresult run_fold(const struct fold_launch *launch); /* the kernels' section */

struct CUstream_st {
    pthread_mutex_t lock;
    pthread_cond_t work;     /* the worker waits for operations */
    pthread_cond_t idle;     /* synchronizers wait for `done` */
    struct op *head, *tail;
    unsigned long enqueued, done;
    CUresult error;          /* sticky */
    int stop;                /* destroyed: the worker ends when the queue is empty */
    int blocking;            /* the legacy stream, or made without CU_STREAM_NON_BLOCKING */
    pthread_t worker;
    CUcontext ctx;
    /* The worker's, cuCtxSynchronize's and each implicit wait's on it
     * (streams_lock); the stream leaves the list when its worker ends. */
    int refs;
    struct CUstream_st *next;
};

static pthread_mutex_t streams_lock = PTHREAD_MUTEX_INITIALIZER;
static struct CUstream_st *streams; /* every stream whose worker runs, the default one too */
static struct CUstream_st *default_stream;

static int is_default(CUstream s)
{
    return (uintptr_t)s <= 2; /* 0, CU_STREAM_LEGACY, CU_STREAM_PER_THREAD */
}

static void sleep_us(long us)
{
    struct timespec t = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&t, NULL);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void sleep_until(double when)
{
    double left = when - now();
    if (left > 0)
        sleep_us((long)(left * 1e6) + 1);
}

static void event_release(CUevent e)
{
    pthread_mutex_lock(&e->lock);
    int last = --e->refs == 0;
    pthread_mutex_unlock(&e->lock);
    if (last) {
        pthread_mutex_destroy(&e->lock);
        pthread_cond_destroy(&e->done);
        free(e);
    }
}

static void event_complete(CUevent e, unsigned long seq)
{
    pthread_mutex_lock(&e->lock);
    if (seq > e->completed)
        e->completed = seq;
    pthread_cond_broadcast(&e->done);
    pthread_mutex_unlock(&e->lock);
}

static int wait_holds(const struct op *op, unsigned long long word)
{
    unsigned long long mask = op->width == 4 ? 0xffffffffull : ~0ull;
    unsigned long long value = op->value & mask;
    switch (op->flags & 0xf) {
    case 0: /* GEQ, cyclic as the real driver */
        return op->width == 4 ? (int32_t)(uint32_t)(word - value) >= 0
                              : (int64_t)(word - value) >= 0;
    case 1: return word == value;                  /* EQ */
    case 2: return (word & value) != 0;            /* AND */
    default: return (~(word | value) & mask) != 0; /* NOR */
    }
}

static unsigned long long load_word(const char *p, int width)
{
    return width == 4 ? __atomic_load_n((const uint32_t *)p, __ATOMIC_ACQUIRE)
                      : __atomic_load_n((const uint64_t *)p, __ATOMIC_ACQUIRE);
}

static CUresult run_wait(const struct op *op)
{
    double deadline = now() + op->timeout;
    for (;;) {
        pthread_mutex_lock(&regions_lock);
        char *p = resolve(op->dst);
        unsigned long long word = p ? load_word(p, op->width) : 0;
        pthread_mutex_unlock(&regions_lock);
        if (!p)
            return ERROR_ILLEGAL_ADDRESS;
        if (wait_holds(op, word)) {
            waits++;
            return SUCCESS;
        }
        if (now() >= deadline) {
            fprintf(stderr,
                    "fake_cuda: pid %d: stream wait on %#llx for %llu (flags %#x) timed out "
                    "after %g s; the word holds %llu\n",
                    (int)getpid(), op->dst.ptr, op->value, op->flags, op->timeout, word);
            return ERROR_LAUNCH_TIMEOUT;
        }
        sleep_us(30);
    }
}

/* ---- host functions: one thread of the process runs them, in turn ---------------------- */
struct host_job {
    struct host_job *next;
    void (*fn)(void *);
    void *data;
    int done;
};
static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t host_work = PTHREAD_COND_INITIALIZER;
static pthread_cond_t host_done = PTHREAD_COND_INITIALIZER;
static struct host_job *host_head, *host_tail;
static int host_thread_running;

static void *host_thread(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&host_lock);
    for (;;) {
        while (!host_head)
            pthread_cond_wait(&host_work, &host_lock);
        struct host_job *job = host_head;
        host_head = job->next;
        if (!host_head)
            host_tail = NULL;
        pthread_mutex_unlock(&host_lock);
        job->fn(job->data);
        pthread_mutex_lock(&host_lock);
        job->done = 1;
        pthread_cond_broadcast(&host_done);
    }
    return NULL;
}

/* Runs fn(data) on the host-function thread and returns when it has (on the
 * caller's thread if no thread can be made). */
static void run_on_host_thread(void (*fn)(void *), void *data)
{
    struct host_job job = {NULL, fn, data, 0};
    pthread_mutex_lock(&host_lock);
    if (!host_thread_running) {
        pthread_t thread;
        host_thread_running = pthread_create(&thread, NULL, host_thread, NULL) == 0;
        if (host_thread_running)
            pthread_detach(thread);
    }
    if (!host_thread_running) {
        pthread_mutex_unlock(&host_lock);
        fn(data);
        return;
    }
    if (host_tail)
        host_tail->next = &job;
    else
        host_head = &job;
    host_tail = &job;
    pthread_cond_signal(&host_work);
    while (!job.done)
        pthread_cond_wait(&host_done, &host_lock);
    pthread_mutex_unlock(&host_lock);
}

/* One operation, in the stream's worker. */
static CUresult run(struct op *op)
{
    CUresult status = SUCCESS;
    char *p, *q;
    switch (op->kind) {
    case OP_COPY:
    case OP_SET:
        if (op->delay_us)
            sleep_us(op->delay_us);
        sleep_until(op->not_before);
        pthread_mutex_lock(&regions_lock);
        p = resolve(op->dst);
        q = op->kind == OP_COPY ? resolve(op->src) : p;
        if (!p || !q)
            status = ERROR_ILLEGAL_ADDRESS;
        else if (op->kind == OP_COPY)
            memmove(p, q, op->bytes);
        else if (op->width == 4)
            for (size_t i = 0; i < op->bytes / 4; i++)
                memcpy(p + 4 * i, &(uint32_t){(uint32_t)op->value}, 4);
        else
            memset(p, (int)op->value, op->bytes);
        pthread_mutex_unlock(&regions_lock);
        if (status == SUCCESS) {
            copies++;
            if (op->after_return)
                late++;
        }
        return status;
    case OP_WRITE:
        pthread_mutex_lock(&regions_lock);
        p = resolve(op->dst);
        if (p) {
            /* A barrier first (a seq_cst store: a full fence, and one that
             * -fsanitize=thread understands), unless
             * CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER: then release only. */
            int order = op->flags & 1 ? __ATOMIC_RELEASE : __ATOMIC_SEQ_CST;
            if (op->width == 4)
                __atomic_store_n((uint32_t *)p, (uint32_t)op->value, order);
            else
                __atomic_store_n((uint64_t *)p, (uint64_t)op->value, order);
        }
        pthread_mutex_unlock(&regions_lock);
        if (!p)
            return ERROR_ILLEGAL_ADDRESS;
        writes++;
        return SUCCESS;
    case OP_WAIT:
        return run_wait(op);
    case OP_HOST_FUNC:
        if (op->host_thread)
            run_on_host_thread(op->fn, op->data);
        else
            op->fn(op->data);
        host_funcs++;
        return SUCCESS;
    case OP_RECORD:
        event_complete(op->event, op->seq);
        return SUCCESS;
    case OP_WAIT_EVENT:
        pthread_mutex_lock(&op->event->lock);
        while (op->event->completed < op->seq)
            pthread_cond_wait(&op->event->done, &op->event->lock);
        pthread_mutex_unlock(&op->event->lock);
        return SUCCESS;
    case OP_WAIT_STREAM:
        pthread_mutex_lock(&op->other->lock);
        while (op->other->done < op->target)
            pthread_cond_wait(&op->other->idle, &op->other->lock);
        pthread_mutex_unlock(&op->other->lock);
        return SUCCESS;
    case OP_ADD:
        pthread_mutex_lock(&regions_lock);
        p = resolve(op->dst);
        if (p)
            __atomic_fetch_add((uint64_t *)p, (uint64_t)op->value, __ATOMIC_SEQ_CST);
        pthread_mutex_unlock(&regions_lock);
        if (!p)
            return ERROR_ILLEGAL_ADDRESS;
        kernels++;
        return SUCCESS;
    case OP_FOLD:
        status = run_fold(op->fold);
        if (status == SUCCESS)
            kernels++;
        return status;
    }
    return ERROR_INVALID_VALUE;
}

static void stream_free(struct CUstream_st *s)
{
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->work);
    pthread_cond_destroy(&s->idle);
    free(s);
}

/* Drops a reference to `s`, freeing it with the last. */
static void stream_release(struct CUstream_st *s)
{
    pthread_mutex_lock(&streams_lock);
    int last = --s->refs == 0;
    pthread_mutex_unlock(&streams_lock);
    if (last)
        stream_free(s);
}

static void op_free(struct op *op)
{
    free(op->fold);
    if (op->event)
        event_release(op->event);
    if (op->other)
        stream_release(op->other);
    free(op->staged);
    free(op);
}

/* Serves the queue until the stream is destroyed and its queue empty; then
 * the stream leaves the list. */
static void *worker(void *arg)
{
    struct CUstream_st *s = arg;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (!s->head && !s->stop)
            pthread_cond_wait(&s->work, &s->lock);
        struct op *op = s->head;
        if (!op)
            break;
        s->head = op->next;
        if (!s->head)
            s->tail = NULL;
        CUresult error = s->error;
        pthread_mutex_unlock(&s->lock);
        CUresult status = SUCCESS;
        if (!error)
            status = run(op);
        else if (op->kind == OP_RECORD) /* skipped, but no one waits forever */
            event_complete(op->event, op->seq);
        op_free(op);
        pthread_mutex_lock(&s->lock);
        if (status != SUCCESS && !s->error)
            s->error = status;
        s->done++;
        pthread_cond_broadcast(&s->idle);
    }
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_lock(&streams_lock);
    struct CUstream_st **link = &streams;
    while (*link && *link != s)
        link = &(*link)->next;
    if (*link)
        *link = s->next;
    pthread_mutex_unlock(&streams_lock);
    stream_release(s);
    return NULL;
}

/* A stream and its worker, put on the list.  The caller holds streams_lock. */
static CUresult stream_new(struct CUstream_st **out, CUcontext ctx, int blocking)
{
    struct CUstream_st *s = calloc(1, sizeof *s);
    if (!s)
        return ERROR_OUT_OF_MEMORY;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->work, NULL);
    pthread_cond_init(&s->idle, NULL);
    s->ctx = ctx;
    s->blocking = blocking;
    s->refs = 1;
    if (pthread_create(&s->worker, NULL, worker, s) != 0) {
        stream_free(s);
        return ERROR_OUT_OF_MEMORY;
    }
    pthread_detach(s->worker);
    s->next = streams;
    streams = s;
    *out = s;
    return SUCCESS;
}

/* The stream a handle names: the legacy stream (made on first use) or a
 * live stream not destroyed.  The caller holds streams_lock. */
static CUresult stream_lookup(CUstream handle, struct CUstream_st **out)
{
    if (is_default(handle)) {
        CUresult status = SUCCESS;
        if (!default_stream)
            status = stream_new(&default_stream, current, 1);
        *out = default_stream;
        return status;
    }
    struct CUstream_st *s = streams;
    while (s && (s != handle || s->stop))
        s = s->next;
    *out = s;
    return s ? SUCCESS : ERROR_INVALID_HANDLE;
}

static CUresult stream_of(CUstream handle, struct CUstream_st **out)
{
    pthread_mutex_lock(&streams_lock);
    CUresult status = stream_lookup(handle, out);
    pthread_mutex_unlock(&streams_lock);
    return status;
}

/* Appends `op` (allocated) to the queue of `s`, unless the stream has failed:
 * then returns its error and frees `op`. */
static CUresult push(struct CUstream_st *s, struct op *op)
{
    op->next = NULL;
    pthread_mutex_lock(&s->lock);
    CUresult status = s->error;
    if (status == SUCCESS) {
        if (s->tail)
            s->tail->next = op;
        else
            s->head = op;
        s->tail = op;
        s->enqueued++;
        pthread_cond_signal(&s->work);
    }
    pthread_mutex_unlock(&s->lock);
    if (status != SUCCESS)
        op_free(op);
    return status;
}

/* The legacy stream's implicit synchronization: `s` waits for what `t` has
 * enqueued so far, if any of it is still to run.  The caller holds
 * streams_lock, which orders every enqueue: a wait is always for earlier
 * work, so these waits never form a cycle. */
static CUresult wait_for_stream(struct CUstream_st *s, struct CUstream_st *t)
{
    pthread_mutex_lock(&t->lock);
    unsigned long target = t->enqueued > t->done ? t->enqueued : 0;
    pthread_mutex_unlock(&t->lock);
    if (!target)
        return SUCCESS;
    struct op *wait = calloc(1, sizeof *wait);
    if (!wait)
        return ERROR_OUT_OF_MEMORY;
    wait->kind = OP_WAIT_STREAM;
    wait->other = t;
    wait->target = target;
    t->refs++;
    return push(s, wait);
}

/* Puts a copy of `op` on `handle`'s queue, unless the stream has failed;
 * the copy owns op->staged (freed here on failure). */
static CUresult enqueue(CUstream handle, const struct op *op)
{
    struct op *copy = malloc(sizeof *copy);
    if (!copy) {
        free(op->staged);
        return ERROR_OUT_OF_MEMORY;
    }
    *copy = *op;
    pthread_mutex_lock(&streams_lock);
    struct CUstream_st *s;
    CUresult status = stream_lookup(handle, &s);
    if (status == SUCCESS && s->blocking) {
        if (s == default_stream) {
            for (struct CUstream_st *t = streams; t && status == SUCCESS; t = t->next)
                if (t != s && t->blocking)
                    status = wait_for_stream(s, t);
        } else if (default_stream) {
            status = wait_for_stream(s, default_stream);
        }
    }
    if (status == SUCCESS) {
        status = push(s, copy);
        if (status == SUCCESS)
            stream_ops++;
    } else {
        op_free(copy);
    }
    pthread_mutex_unlock(&streams_lock);
    return status;
}

/* Waits until what was enqueued on `s` before the call has run. */
static CUresult stream_wait_idle(struct CUstream_st *s)
{
    pthread_mutex_lock(&s->lock);
    unsigned long target = s->enqueued;
    while (s->done < target)
        pthread_cond_wait(&s->idle, &s->lock);
    CUresult status = s->error;
    pthread_mutex_unlock(&s->lock);
    return status;
}

/* The child of a fork has none of its parent's worker threads. */
static void before_fork(void)
{
    pthread_mutex_lock(&streams_lock);
    pthread_mutex_lock(&regions_lock);
    pthread_mutex_lock(&host_lock);
}

static void after_fork_parent(void)
{
    pthread_mutex_unlock(&host_lock);
    pthread_mutex_unlock(&regions_lock);
    pthread_mutex_unlock(&streams_lock);
}

static void after_fork_child(void)
{
    host_head = host_tail = NULL; /* the parent's host-function thread is not here */
    host_thread_running = 0;
    pthread_mutex_unlock(&host_lock);
    pthread_mutex_unlock(&regions_lock);
    streams = NULL; /* the parent's streams are left behind, unreachable */
    default_stream = NULL;
    pthread_mutex_unlock(&streams_lock);
}

__attribute__((constructor)) static void fake_cuda_load(void)
{
    pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

EXPORT unsigned long fake_cuda_stream_pending(CUstream handle)
{
    struct CUstream_st *s = NULL;
    pthread_mutex_lock(&streams_lock);
    if (is_default(handle))
        s = default_stream;
    else
        for (s = streams; s && s != handle; s = s->next)
            ;
    unsigned long pending = 0;
    if (s) {
        pthread_mutex_lock(&s->lock);
        pending = s->enqueued - s->done;
        pthread_mutex_unlock(&s->lock);
    }
    pthread_mutex_unlock(&streams_lock);
    return pending;
}

/* ---- initialization, devices, contexts ---------------------------------------------- */
EXPORT CUresult cuInit(unsigned flags)
{
    if (flags != 0)
        return ERROR_INVALID_VALUE;
    initialized = 1;
    return SUCCESS;
}

EXPORT CUresult cuGetErrorString(CUresult error, const char **text)
{
    switch (error) {
    case SUCCESS: *text = "no error"; break;
    case ERROR_INVALID_VALUE: *text = "invalid argument"; break;
    case ERROR_OUT_OF_MEMORY: *text = "out of memory"; break;
    case ERROR_NOT_INITIALIZED: *text = "initialization error"; break;
    case ERROR_NO_DEVICE: *text = "no CUDA-capable device is detected"; break;
    case ERROR_INVALID_DEVICE: *text = "invalid device ordinal"; break;
    case ERROR_INVALID_IMAGE: *text = "device kernel image is invalid"; break;
    case ERROR_INVALID_CONTEXT: *text = "invalid device context"; break;
    case ERROR_MAP_FAILED: *text = "mapping of buffer object failed"; break;
    case ERROR_JIT_COMPILER_NOT_FOUND: *text = "PTX JIT compiler library not found"; break;
    case ERROR_INVALID_HANDLE: *text = "invalid resource handle"; break;
    case ERROR_NOT_FOUND: *text = "named symbol not found"; break;
    case ERROR_NOT_READY: *text = "device not ready"; break;
    case ERROR_ILLEGAL_ADDRESS: *text = "an illegal memory access was encountered"; break;
    case ERROR_LAUNCH_TIMEOUT: *text = "the launch timed out and was terminated"; break;
    case ERROR_HOST_MEMORY_ALREADY_REGISTERED:
        *text = "part or all of the requested memory range is already mapped";
        break;
    case ERROR_HOST_MEMORY_NOT_REGISTERED:
        *text = "pointer does not correspond to a registered memory region";
        break;
    case ERROR_NOT_SUPPORTED: *text = "operation not supported"; break;
    default: *text = NULL; return ERROR_INVALID_VALUE;
    }
    return SUCCESS;
}

EXPORT CUresult cuDeviceGetCount(int *count)
{
    if (!initialized)
        return ERROR_NOT_INITIALIZED;
    *count = device_count();
    return SUCCESS;
}

EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    if (!initialized)
        return ERROR_NOT_INITIALIZED;
    if (ordinal < 0 || ordinal >= device_count())
        return ERROR_INVALID_DEVICE;
    *device = ordinal;
    return SUCCESS;
}

EXPORT CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice device)
{
    if (!initialized)
        return ERROR_NOT_INITIALIZED;
    if (device < 0 || device >= device_count())
        return ERROR_INVALID_DEVICE;
    if (!value)
        return ERROR_INVALID_VALUE;
    switch (attribute) {
    case 92:  /* CAN_USE_STREAM_MEM_OPS_V1 */
    case 93:  /* CAN_USE_64_BIT_STREAM_MEM_OPS_V1 */
    case 122: /* CAN_USE_64_BIT_STREAM_MEM_OPS */
        *value = !env_flag("SHMPI_FAKE_CUDA_NO_STREAM_MEMOPS");
        break;
    case 19: /* CAN_MAP_HOST_MEMORY */
        *value = !env_flag("SHMPI_FAKE_CUDA_NO_HOST_MAP");
        break;
    case 133: { /* MPS_ENABLED */
        const char *mps = getenv("SHMPI_FAKE_CUDA_MPS");
        if (mps && !strcmp(mps, "unknown"))
            return ERROR_INVALID_VALUE; /* a driver before CUDA 12 */
        *value = env_flag("SHMPI_FAKE_CUDA_MPS");
        break;
    }
    default: /* 98 CAN_FLUSH_REMOTE_WRITES, 148 ATOMIC_REDUCTION_SUPPORTED, ... */
        *value = 0;
    }
    return SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice device)
{
    if (!initialized)
        return ERROR_NOT_INITIALIZED;
    if (device < 0 || device >= device_count())
        return ERROR_INVALID_DEVICE;
    contexts[device].device = device;
    *ctx = &contexts[device];
    return SUCCESS;
}

EXPORT CUresult cuCtxSetCurrent(CUcontext ctx)
{
    current = ctx;
    return initialized ? SUCCESS : ERROR_NOT_INITIALIZED;
}

EXPORT CUresult cuCtxGetCurrent(CUcontext *ctx)
{
    *ctx = current;
    return initialized ? SUCCESS : ERROR_NOT_INITIALIZED;
}

EXPORT CUresult cuCtxGetDevice(CUdevice *device)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (!device)
        return ERROR_INVALID_VALUE;
    *device = current->device;
    return SUCCESS;
}

/* ---- memory ------------------------------------------------------------------------- */
EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytes)
{
    static atomic_uint serial;
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (bytes == 0)
        return ERROR_INVALID_VALUE;
    pthread_mutex_lock(&regions_lock);
    struct region *r = free_slot();
    if (!r) {
        pthread_mutex_unlock(&regions_lock);
        return ERROR_OUT_OF_MEMORY;
    }
    /* A name of a process that ended without freeing (killed: the real
     * driver frees, this one cannot) may be there under a reused PID: the
     * next name then. */
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 1000; tries++) {
        snprintf(r->name, sizeof r->name, "/fake-cuda-%d-%u", (int)getpid(), serial++);
        fd = shm_open(r->name, O_RDWR | O_CREAT | O_EXCL, 0600);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0 || ftruncate(fd, (off_t)bytes) != 0) {
        if (fd >= 0) {
            close(fd);
            shm_unlink(r->name);
        }
        memset(r, 0, sizeof *r);
        pthread_mutex_unlock(&regions_lock);
        return ERROR_OUT_OF_MEMORY;
    }
    r->size = bytes;
    r->owned = 1;
    if (map_region(r, fd) != SUCCESS) {
        shm_unlink(r->name);
        memset(r, 0, sizeof *r);
        pthread_mutex_unlock(&regions_lock);
        return ERROR_OUT_OF_MEMORY;
    }
    *dptr = (CUdeviceptr)(uintptr_t)r->device;
    pthread_mutex_unlock(&regions_lock);
    allocs++;
    return SUCCESS;
}

/* The caller holds regions_lock. */
static void unmap_region(struct region *r)
{
    if (r->registered) {
        /* the program's memory */
    } else if (r->pinned) {
        munmap(r->host, r->size);
        if (r->host_mapped)
            munmap(r->device, r->size);
    } else {
        munmap(r->host, r->size);
        munmap(r->device, r->size);
        if (r->owned)
            shm_unlink(r->name);
    }
    memset(r, 0, sizeof *r);
}

/* Unmaps the region starting at `ptr` if it is of the kind asked for. */
static CUresult release_region(CUdeviceptr ptr, int owned, int pinned)
{
    CUresult status = ERROR_INVALID_VALUE;
    pthread_mutex_lock(&regions_lock);
    struct region *r = find((void *)(uintptr_t)ptr);
    if (r && !r->vmm && r->owned == owned && r->pinned == pinned &&
        (uintptr_t)r->device == ptr) {
        unmap_region(r);
        status = SUCCESS;
    }
    pthread_mutex_unlock(&regions_lock);
    return status;
}

EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr)
{
    return release_region(dptr, 1, 0);
}

EXPORT CUresult cuMemAllocHost_v2(void **pp, size_t bytes)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (!pp || bytes == 0)
        return ERROR_INVALID_VALUE;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return ERROR_OUT_OF_MEMORY;
    pthread_mutex_lock(&regions_lock);
    struct region *r = free_slot();
    if (r) {
        r->device = r->host = p;
        r->size = bytes;
        r->owned = 1;
        r->pinned = 1;
        r->gen = ++region_gen;
    }
    pthread_mutex_unlock(&regions_lock);
    if (!r) {
        munmap(p, bytes);
        return ERROR_OUT_OF_MEMORY;
    }
    host_allocs++;
    *pp = p;
    return SUCCESS;
}

/* cuMemHostAlloc: pinned memory; with CU_MEMHOSTALLOC_DEVICEMAP (2) also
 * mapped into the device's address space, at the address that
 * cuMemHostGetDevicePointer_v2 gives.  Unlike a real GPU with unified
 * addressing, that address is not the host pointer: the stream memory
 * operations accept the device address only (a host pointer is no device
 * memory to them), so code that hands the stream a host pointer fails here.
 * SHMPI_FAKE_CUDA_NO_HOST_MAP=1: the device cannot map host memory
 * (attribute 19 is 0, DEVICEMAP fails with 801). */
EXPORT CUresult cuMemHostAlloc(void **pp, size_t bytes, unsigned flags)
{
    if (!(flags & 2))
        return cuMemAllocHost_v2(pp, bytes);
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (!pp || bytes == 0 || (flags & ~7u))
        return ERROR_INVALID_VALUE;
    if (env_flag("SHMPI_FAKE_CUDA_NO_HOST_MAP"))
        return ERROR_NOT_SUPPORTED;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    void *d = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    pthread_mutex_lock(&regions_lock);
    struct region *r = p == MAP_FAILED || d == MAP_FAILED ? NULL : free_slot();
    if (r) {
        r->device = d;
        r->host = p;
        r->size = bytes;
        r->owned = 1;
        r->pinned = 1;
        r->host_mapped = 1;
        r->gen = ++region_gen;
    }
    pthread_mutex_unlock(&regions_lock);
    if (!r) {
        if (p != MAP_FAILED)
            munmap(p, bytes);
        if (d != MAP_FAILED)
            munmap(d, bytes);
        return ERROR_OUT_OF_MEMORY;
    }
    host_allocs++;
    *pp = p;
    return SUCCESS;
}

/* The caller holds regions_lock. */
static struct region *find_host_mapped(const void *p)
{
    for (int i = 0; i < MAX_REGIONS; i++) {
        struct region *r = &regions[i];
        if (r->size && r->host_mapped && (uintptr_t)p - (uintptr_t)r->host < r->size)
            return r;
    }
    return NULL;
}

EXPORT CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *dptr, void *p, unsigned flags)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (!dptr || flags)
        return ERROR_INVALID_VALUE;
    pthread_mutex_lock(&regions_lock);
    struct region *r = find_host_mapped(p);
    if (r)
        *dptr = (CUdeviceptr)(uintptr_t)(r->device + ((char *)p - r->host));
    pthread_mutex_unlock(&regions_lock);
    return r ? SUCCESS : ERROR_INVALID_VALUE;
}

EXPORT CUresult cuMemFreeHost(void *p)
{
    pthread_mutex_lock(&regions_lock);
    struct region *r = find_host_mapped(p);
    CUresult status = r && r->host == (char *)p ? SUCCESS : ERROR_INVALID_VALUE;
    if (r && status == SUCCESS)
        unmap_region(r);
    pthread_mutex_unlock(&regions_lock);
    return r ? status : release_region((CUdeviceptr)(uintptr_t)p, 1, 1);
}

/* The program's memory made pinned: copies from it complete at return. */
EXPORT CUresult cuMemHostRegister_v2(void *p, size_t bytes, unsigned flags)
{
    (void)flags; /* portable, mapped, I/O memory, read-only: all alike here */
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (!p || bytes == 0)
        return ERROR_INVALID_VALUE;
    pthread_mutex_lock(&regions_lock);
    struct region *r = NULL;
    for (int i = 0; i < MAX_REGIONS && status == SUCCESS; i++) /* no overlap */
        if (regions[i].size && (char *)p < regions[i].device + regions[i].size &&
            regions[i].device < (char *)p + bytes)
            status = ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    if (status == SUCCESS && !(r = free_slot()))
        status = ERROR_OUT_OF_MEMORY;
    if (status == SUCCESS) {
        r->device = r->host = p;
        r->size = bytes;
        r->pinned = 1;
        r->registered = 1;
        r->gen = ++region_gen;
    }
    pthread_mutex_unlock(&regions_lock);
    return status;
}

EXPORT CUresult cuMemHostUnregister(void *p)
{
    CUresult status = ERROR_HOST_MEMORY_NOT_REGISTERED;
    pthread_mutex_lock(&regions_lock);
    struct region *r = find(p);
    if (r && r->registered && r->device == (char *)p) {
        unmap_region(r);
        status = SUCCESS;
    }
    pthread_mutex_unlock(&regions_lock);
    return status;
}

EXPORT CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr ptr)
{
    CUresult status = ERROR_INVALID_VALUE;
    pthread_mutex_lock(&regions_lock);
    struct region *r = find((void *)(uintptr_t)ptr);
    if (r) {
        if (base)
            *base = (CUdeviceptr)(uintptr_t)r->device;
        if (size)
            *size = r->size;
        status = SUCCESS;
    }
    pthread_mutex_unlock(&regions_lock);
    return status;
}

EXPORT CUresult cuIpcGetMemHandle(CUipcMemHandle *handle, CUdeviceptr dptr)
{
    CUresult status = ERROR_INVALID_VALUE;
    pthread_mutex_lock(&regions_lock);
    struct region *r = find((void *)(uintptr_t)dptr);
    if (r && r->owned && !r->pinned && (uintptr_t)r->device == dptr) {
        memset(handle, 0, sizeof *handle);
        memcpy(handle->reserved, &r->size, sizeof r->size);
        memcpy(handle->reserved + sizeof r->size, r->name, strlen(r->name) + 1);
        status = SUCCESS;
    }
    pthread_mutex_unlock(&regions_lock);
    return status;
}

EXPORT CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *dptr, CUipcMemHandle handle, unsigned flags)
{
    (void)flags;
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    size_t size;
    memcpy(&size, handle.reserved, sizeof size);
    char name[48];
    memcpy(name, handle.reserved + sizeof size, sizeof name);
    name[sizeof name - 1] = 0;
    pthread_mutex_lock(&regions_lock);
    struct region *r = free_slot();
    if (!r)
        status = ERROR_OUT_OF_MEMORY;
    for (int i = 0; i < MAX_REGIONS && r; i++) /* a real driver refuses its own handles */
        if (regions[i].size && regions[i].owned && !strcmp(regions[i].name, name))
            status = ERROR_INVALID_CONTEXT;
    int fd = status == SUCCESS ? shm_open(name, O_RDWR, 0) : -1;
    if (status == SUCCESS && fd < 0)
        status = ERROR_MAP_FAILED;
    if (status == SUCCESS) {
        r->size = size;
        memcpy(r->name, name, sizeof name);
        r->owned = 0;
        status = map_region(r, fd);
        if (status == SUCCESS)
            *dptr = (CUdeviceptr)(uintptr_t)r->device;
        else
            memset(r, 0, sizeof *r);
    }
    pthread_mutex_unlock(&regions_lock);
    if (status == SUCCESS)
        ipc_opens++;
    return status;
}

EXPORT CUresult cuIpcCloseMemHandle(CUdeviceptr dptr)
{
    return release_region(dptr, 0, 0);
}

EXPORT CUresult cuPointerGetAttribute(void *data, int attribute, CUdeviceptr ptr)
{
    if (attribute != 2) /* CU_POINTER_ATTRIBUTE_MEMORY_TYPE */
        return ERROR_INVALID_VALUE;
    pthread_mutex_lock(&regions_lock);
    struct region *r = find((void *)(uintptr_t)ptr);
    int pinned = r && r->pinned;
    pthread_mutex_unlock(&regions_lock);
    if (!r)
        return ERROR_INVALID_VALUE;  /* host memory unknown to the driver */
    *(unsigned *)data = pinned ? 1 : 2; /* CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_DEVICE */
    return SUCCESS;
}

/* ---- stream-ordered work ------------------------------------------------------------ */
static unsigned delay_us(void)
{
    const char *value = getenv("SHMPI_FAKE_CUDA_DELAY_US");
    long n = value ? atol(value) : 0;
    return n > 0 ? (unsigned)n : 0;
}

/* A pageable source captured at the call, as the driver stages it for DMA:
 * the caller may reuse it at return, and the bytes land later. */
static CUresult stage(struct op *op)
{
    if (op->src.where != PAGEABLE || synchronous())
        return SUCCESS;
    op->staged = malloc(op->bytes ? op->bytes : 1);
    if (!op->staged)
        return ERROR_OUT_OF_MEMORY;
    memcpy(op->staged, (const void *)(uintptr_t)op->src.ptr, op->bytes);
    op->src = (struct ref){(CUdeviceptr)(uintptr_t)op->staged, 0, PAGEABLE};
    return SUCCESS;
}

/* The work of a synchronous call, on the legacy stream: landing later
 * (`late`: not before SHMPI_FAKE_CUDA_LATE_US from now), or complete when
 * this returns. */
static CUresult on_legacy(struct op *op, int lands_later)
{
    if (lands_later) {
        op->not_before = now() + late_us() * 1e-6;
        op->after_return = 1;
        return enqueue(0, op);
    }
    CUresult status = enqueue(0, op);
    struct CUstream_st *s;
    if (status == SUCCESS && (status = stream_of(0, &s)) == SUCCESS)
        status = stream_wait_idle(s);
    return status;
}

/* cuMemcpy and its typed forms: into device memory from pageable or device
 * memory the call returns before the bytes land; else when they have. */
static CUresult copy_sync(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    struct op op = {.kind = OP_COPY, .bytes = bytes};
    if ((status = make_ref(&op.dst, dst, bytes, 0)) != SUCCESS ||
        (status = make_ref(&op.src, src, bytes, 0)) != SUCCESS)
        return status;
    int lands_later = !synchronous() && op.dst.where == DEVICE && op.src.where != PINNED;
    if (lands_later && (status = stage(&op)) != SUCCESS)
        return status;
    return on_legacy(&op, lands_later);
}

EXPORT CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    return copy_sync(dst, src, bytes);
}

EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes)
{
    return copy_sync(dst, (CUdeviceptr)(uintptr_t)src, bytes);
}

EXPORT CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes)
{
    return copy_sync((CUdeviceptr)(uintptr_t)dst, src, bytes);
}

EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    return copy_sync(dst, src, bytes);
}

/* cuMemsetD8_v2, cuMemsetD32_v2: device memory set later, pinned memory at
 * once. */
static CUresult memset_sync(CUdeviceptr dptr, unsigned value, size_t n, int width)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (dptr % (unsigned)width || n > SIZE_MAX / (unsigned)width)
        return ERROR_INVALID_VALUE;
    struct op op = {.kind = OP_SET, .bytes = n * (unsigned)width, .value = value, .width = width};
    if ((status = make_ref(&op.dst, dptr, op.bytes, 1)) != SUCCESS)
        return status;
    return on_legacy(&op, !synchronous() && op.dst.where == DEVICE);
}

EXPORT CUresult cuMemsetD8_v2(CUdeviceptr dptr, unsigned char value, size_t n)
{
    return memset_sync(dptr, value, n, 1);
}

EXPORT CUresult cuMemsetD32_v2(CUdeviceptr dptr, unsigned value, size_t n)
{
    return memset_sync(dptr, value, n, 4);
}

/* cuMemcpyAsync and its typed forms: lands later on the stream, a pageable
 * source captured now; host to host completes at return. */
static CUresult copy_async(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream s)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    struct op op = {.kind = OP_COPY, .bytes = bytes, .delay_us = delay_us()};
    if ((status = make_ref(&op.dst, dst, bytes, 0)) != SUCCESS ||
        (status = make_ref(&op.src, src, bytes, 0)) != SUCCESS)
        return status;
    if (op.dst.where != DEVICE && op.src.where != DEVICE) {
        struct CUstream_st *stream;
        if ((status = enqueue(s, &op)) == SUCCESS && (status = stream_of(s, &stream)) == SUCCESS)
            status = stream_wait_idle(stream);
        return status;
    }
    if (op.dst.where == DEVICE && (status = stage(&op)) != SUCCESS)
        return status;
    op.not_before = now() + late_us() * 1e-6;
    return enqueue(s, &op);
}

EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream s)
{
    return copy_async(dst, src, bytes, s);
}

EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes, CUstream s)
{
    return copy_async(dst, (CUdeviceptr)(uintptr_t)src, bytes, s);
}

EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes, CUstream s)
{
    return copy_async((CUdeviceptr)(uintptr_t)dst, src, bytes, s);
}

EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream s)
{
    return copy_async(dst, src, bytes, s);
}

EXPORT CUresult cuMemsetD8Async(CUdeviceptr dptr, unsigned char value, size_t n, CUstream s)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    struct op op = {.kind = OP_SET, .bytes = n, .value = value, .width = 1,
                    .delay_us = delay_us(), .not_before = now() + late_us() * 1e-6};
    if ((status = make_ref(&op.dst, dptr, n, 1)) != SUCCESS)
        return status;
    return enqueue(s, &op);
}

static CUresult mem_op(CUstream s, enum op_kind kind, CUdeviceptr addr, unsigned long long value,
                       unsigned flags, int width)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (env_flag("SHMPI_FAKE_CUDA_NO_STREAM_MEMOPS"))
        return ERROR_NOT_SUPPORTED;
    if (addr % (unsigned)width)
        return ERROR_INVALID_VALUE;
    if (kind == OP_WRITE ? flags > 1 : (flags & 0xf) > 3 || (flags & ~(0xfu | 1u << 30)))
        return ERROR_INVALID_VALUE;
    struct op op = {.kind = kind, .value = value, .flags = flags, .width = width};
    if (kind == OP_WAIT) {
        const char *t = getenv("SHMPI_FAKE_CUDA_WAIT_TIMEOUT");
        op.timeout = t && *t ? strtod(t, NULL) : 20;
    }
    if ((status = make_ref(&op.dst, addr, (size_t)width, 1)) != SUCCESS)
        return status;
    pthread_mutex_lock(&regions_lock);
    struct region *r = find((void *)(uintptr_t)addr);
    if (r && r->host_mapped)
        mapped_memops++;
    pthread_mutex_unlock(&regions_lock);
    return enqueue(s, &op);
}

EXPORT CUresult cuStreamWriteValue32_v2(CUstream s, CUdeviceptr addr, unsigned value,
                                        unsigned flags)
{
    return mem_op(s, OP_WRITE, addr, value, flags, 4);
}

EXPORT CUresult cuStreamWriteValue64_v2(CUstream s, CUdeviceptr addr, unsigned long long value,
                                        unsigned flags)
{
    return mem_op(s, OP_WRITE, addr, value, flags, 8);
}

EXPORT CUresult cuStreamWaitValue32_v2(CUstream s, CUdeviceptr addr, unsigned value,
                                       unsigned flags)
{
    return mem_op(s, OP_WAIT, addr, value, flags, 4);
}

EXPORT CUresult cuStreamWaitValue64_v2(CUstream s, CUdeviceptr addr, unsigned long long value,
                                       unsigned flags)
{
    return mem_op(s, OP_WAIT, addr, value, flags, 8);
}

EXPORT CUresult cuLaunchHostFunc(CUstream s, void (*fn)(void *), void *data)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (!fn)
        return ERROR_INVALID_VALUE;
    struct op op = {.kind = OP_HOST_FUNC, .fn = fn, .data = data, .host_thread = !synchronous()};
    return enqueue(s, &op);
}

/* ---- streams ------------------------------------------------------------------------ */
EXPORT CUresult cuStreamCreate(CUstream *stream, unsigned flags)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (!stream || flags > 1) /* CU_STREAM_DEFAULT, CU_STREAM_NON_BLOCKING */
        return ERROR_INVALID_VALUE;
    struct CUstream_st *s;
    pthread_mutex_lock(&streams_lock);
    status = stream_new(&s, current, !(flags & 1));
    pthread_mutex_unlock(&streams_lock);
    if (status == SUCCESS)
        *stream = s;
    return status;
}

/* Returns at once, as the driver may: the queued work still runs, then the
 * worker ends and the stream goes (SHMPI_FAKE_CUDA_SYNCHRONOUS: waits for
 * the work first). */
EXPORT CUresult cuStreamDestroy_v2(CUstream stream)
{
    if (is_default(stream))
        return ERROR_INVALID_HANDLE;
    pthread_mutex_lock(&streams_lock);
    struct CUstream_st *s;
    CUresult status = stream_lookup(stream, &s);
    if (status == SUCCESS)
        s->refs++;
    pthread_mutex_unlock(&streams_lock);
    if (status != SUCCESS)
        return status;
    if (synchronous())
        stream_wait_idle(s);
    pthread_mutex_lock(&s->lock);
    s->stop = 1;
    pthread_cond_signal(&s->work);
    pthread_mutex_unlock(&s->lock);
    stream_release(s);
    return SUCCESS;
}

EXPORT CUresult cuStreamSynchronize(CUstream stream)
{
    CUresult status = ready();
    struct CUstream_st *s;
    if (status != SUCCESS || (status = stream_of(stream, &s)) != SUCCESS)
        return status;
    status = stream_wait_idle(s);
    syncs++;
    return status;
}

EXPORT CUresult cuStreamQuery(CUstream stream)
{
    CUresult status = ready();
    struct CUstream_st *s;
    if (status != SUCCESS || (status = stream_of(stream, &s)) != SUCCESS)
        return status;
    pthread_mutex_lock(&s->lock);
    status = s->error ? s->error : s->done == s->enqueued ? SUCCESS : ERROR_NOT_READY;
    pthread_mutex_unlock(&s->lock);
    return status;
}

EXPORT CUresult cuStreamGetCtx(CUstream stream, CUcontext *ctx)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (!ctx)
        return ERROR_INVALID_VALUE;
    if (is_default(stream)) {
        *ctx = current;
        return SUCCESS;
    }
    struct CUstream_st *s;
    if ((status = stream_of(stream, &s)) == SUCCESS)
        *ctx = s->ctx;
    return status;
}

/* Every stream of the process (destroyed ones still at work too), each up
 * to what was enqueued before the call; the streams are held (refs) so that
 * none is freed meanwhile. */
EXPORT CUresult cuCtxSynchronize(void)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    pthread_mutex_lock(&streams_lock);
    size_t n = 0;
    for (struct CUstream_st *s = streams; s; s = s->next)
        n++;
    struct CUstream_st **all = malloc((n ? n : 1) * sizeof *all);
    if (!all) {
        pthread_mutex_unlock(&streams_lock);
        return ERROR_OUT_OF_MEMORY;
    }
    n = 0;
    for (struct CUstream_st *s = streams; s; s = s->next) {
        s->refs++;
        all[n++] = s;
    }
    pthread_mutex_unlock(&streams_lock);
    for (size_t i = 0; i < n; i++) {
        CUresult error = stream_wait_idle(all[i]);
        if (status == SUCCESS)
            status = error;
        stream_release(all[i]);
    }
    free(all);
    syncs++;
    return status;
}

/* ---- events ------------------------------------------------------------------------- */
EXPORT CUresult cuEventCreate(CUevent *event, unsigned flags)
{
    (void)flags; /* timing, blocking sync, interprocess: all alike here */
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (!event)
        return ERROR_INVALID_VALUE;
    CUevent e = calloc(1, sizeof *e);
    if (!e)
        return ERROR_OUT_OF_MEMORY;
    pthread_mutex_init(&e->lock, NULL);
    pthread_cond_init(&e->done, NULL);
    e->refs = 1;
    *event = e;
    return SUCCESS;
}

/* The event goes when its queued records and waits have run. */
EXPORT CUresult cuEventDestroy_v2(CUevent event)
{
    if (!event)
        return ERROR_INVALID_HANDLE;
    event_release(event);
    return SUCCESS;
}

EXPORT CUresult cuEventRecord(CUevent event, CUstream stream)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (!event)
        return ERROR_INVALID_HANDLE;
    pthread_mutex_lock(&event->lock);
    struct op op = {.kind = OP_RECORD, .event = event, .seq = ++event->recorded};
    event->refs++;
    pthread_mutex_unlock(&event->lock);
    status = enqueue(stream, &op);
    if (status != SUCCESS) { /* nothing will complete it: as if it ran */
        event_complete(event, op.seq);
        event_release(event);
    }
    return status;
}

EXPORT CUresult cuEventQuery(CUevent event)
{
    if (!event)
        return ERROR_INVALID_HANDLE;
    pthread_mutex_lock(&event->lock);
    CUresult status = event->completed >= event->recorded ? SUCCESS : ERROR_NOT_READY;
    pthread_mutex_unlock(&event->lock);
    return status;
}

EXPORT CUresult cuEventSynchronize(CUevent event)
{
    if (!event)
        return ERROR_INVALID_HANDLE;
    pthread_mutex_lock(&event->lock);
    unsigned long target = event->recorded;
    while (event->completed < target)
        pthread_cond_wait(&event->done, &event->lock);
    pthread_mutex_unlock(&event->lock);
    return SUCCESS;
}

/* The stream waits for the event's latest record as of this call. */
EXPORT CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned flags)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (!event)
        return ERROR_INVALID_HANDLE;
    if (flags != 0)
        return ERROR_INVALID_VALUE;
    pthread_mutex_lock(&event->lock);
    struct op op = {.kind = OP_WAIT_EVENT, .event = event, .seq = event->recorded};
    event->refs++;
    pthread_mutex_unlock(&event->lock);
    status = enqueue(stream, &op);
    if (status != SUCCESS)
        event_release(event);
    return status;
}

/* ---- the kernels: shmpi_signal_add and shmpi_fold, from PTX --------------------------- */
#include "../src/device/fold.h"

struct CUfunc_st {
    int magic;
};
struct CUmod_st {
    struct CUfunc_st signal_add, fold; /* magic 0: not in the module's PTX */
};
#define FUNCTION_MAGIC 0x5167add
#define FOLD_MAGIC 0xf01d

EXPORT CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (!module || !image)
        return ERROR_INVALID_VALUE;
    if (env_flag("SHMPI_FAKE_CUDA_NO_JIT"))
        return ERROR_JIT_COMPILER_NOT_FOUND;
    int add = strstr(image, ".entry shmpi_signal_add(") != NULL;
    int fold = strstr(image, ".entry shmpi_fold(") != NULL;
    if (!add && !fold)
        return ERROR_INVALID_IMAGE;
    CUmodule m = calloc(1, sizeof *m);
    if (!m)
        return ERROR_OUT_OF_MEMORY;
    m->signal_add.magic = add ? FUNCTION_MAGIC : 0;
    m->fold.magic = fold ? FOLD_MAGIC : 0;
    *module = m;
    return SUCCESS;
}

EXPORT CUresult cuModuleGetFunction(CUfunction *function, CUmodule module, const char *name)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (!function || !name)
        return ERROR_INVALID_VALUE;
    if (!module)
        return ERROR_INVALID_HANDLE;
    struct CUfunc_st *f = !strcmp(name, "shmpi_signal_add") ? &module->signal_add
                          : !strcmp(name, "shmpi_fold")     ? &module->fold
                                                            : NULL;
    if (!f || !f->magic)
        return ERROR_NOT_FOUND;
    *function = f;
    return SUCCESS;
}

EXPORT CUresult cuModuleUnload(CUmodule module)
{
    if (!module)
        return ERROR_INVALID_HANDLE;
    module->signal_add.magic = module->fold.magic = 0;
    free(module);
    return SUCCESS;
}

/* shmpi_fold(struct shmpi_fold_args): the arguments, with each address
 * checked at the launch as the GPU would fault on it (refs for the n_in
 * inputs only: a launch copies no more than it has). */
struct fold_launch {
    struct shmpi_fold_args args;
    struct ref out, in[];
};

static CUresult enqueue_fold(const struct shmpi_fold_args *args, CUstream s)
{
    size_t size = shmpi_fold_size(args->type), bytes = size * args->count;
    if (!size || args->type == SHMPI_FOLD_LONGDOUBLE || args->op < SHMPI_FOLD_sum ||
        args->op > SHMPI_FOLD_xor || args->n_in < 1 || args->n_in > SHMPI_FOLD_MAX_IN ||
        (args->count && bytes / args->count != size))
        return ERROR_INVALID_VALUE;
    struct fold_launch *launch =
        malloc(sizeof *launch + (size_t)args->n_in * sizeof launch->in[0]);
    if (!launch)
        return ERROR_OUT_OF_MEMORY;
    launch->args = *args;
    CUresult status = make_ref(&launch->out, (CUdeviceptr)(uintptr_t)args->out, bytes, 1);
    for (int k = 0; k < args->n_in && status == SUCCESS; k++)
        status = make_ref(&launch->in[k], (CUdeviceptr)(uintptr_t)args->in[k], bytes, 1);
    if (status != SUCCESS) {
        free(launch);
        return status;
    }
    struct op op = {.kind = OP_FOLD, .fold = launch};
    return enqueue(s, &op);
}

/* In the stream's worker: fold.h's host fold on the bytes the addresses
 * reach now. */
static CUresult run_fold(const struct fold_launch *launch)
{
    struct shmpi_fold_args args = launch->args;
    CUresult status = SUCCESS;
    pthread_mutex_lock(&regions_lock);
    args.out = resolve(launch->out);
    for (int k = 0; k < args.n_in; k++)
        if (!(args.in[k] = resolve(launch->in[k])))
            status = ERROR_ILLEGAL_ADDRESS;
    if (!args.out)
        status = ERROR_ILLEGAL_ADDRESS;
    if (status == SUCCESS)
        shmpi_fold_run(&args);
    pthread_mutex_unlock(&regions_lock);
    return status;
}

/* shmpi_signal_add(CUdeviceptr addr, unsigned long long value): one atomic
 * add per launch (shmpi launches it on one thread). */
EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                               unsigned by, unsigned bz, unsigned shared_bytes, CUstream s,
                               void **params, void **extra)
{
    (void)shared_bytes;
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (!f || (f->magic != FUNCTION_MAGIC && f->magic != FOLD_MAGIC))
        return ERROR_INVALID_HANDLE;
    if (!gx || !gy || !gz || !bx || !by || !bz || !params || !params[0] || extra)
        return ERROR_INVALID_VALUE;
    if (f->magic == FOLD_MAGIC)
        return enqueue_fold(params[0], s);
    if (!params[1])
        return ERROR_INVALID_VALUE;
    CUdeviceptr addr = *(CUdeviceptr *)params[0];
    struct op op = {.kind = OP_ADD, .value = *(unsigned long long *)params[1]};
    if (addr % 8 || (status = make_ref(&op.dst, addr, 8, 1)) != SUCCESS)
        return ERROR_INVALID_VALUE;
    return enqueue(s, &op);
}

/* ---- virtual memory management (cuMemCreate, cuMemMap, ...) ------------------------- */
/* A physical allocation is a memfd, so cuMemExportToShareableHandle can hand
 * out a POSIX descriptor of it and another process maps the same pages.  A
 * reservation is a PROT_NONE range; cuMemMap maps an allocation into it (the
 * host reaches the bytes through a second mapping of the memfd, as for
 * cuMemAlloc), and the mapping becomes one of the driver's regions at
 * cuMemSetAccess: until then copies into it fault, as on a GPU.  Like the
 * real driver, cuIpcGetMemHandle refuses VMM memory, cuMemGetAddressRange
 * gives the mapping, and a handle lives until it is released and unmapped. */
#define VMM_GRANULARITY ((size_t)2 << 20)
#define VMM_HANDLE_POSIX_FD 1
typedef unsigned long long CUmemGenericAllocationHandle;
typedef struct {
    int type, id;
} CUmemLocation;
typedef struct {
    int type;
    int requestedHandleTypes;
    CUmemLocation location;
    void *win32HandleMetaData;
    struct {
        unsigned char compressionType, gpuDirectRDMACapable;
        unsigned short usage;
        unsigned char reserved[4];
    } allocFlags;
} CUmemAllocationProp;
typedef struct {
    CUmemLocation location;
    int flags;
} CUmemAccessDesc;

struct vmm_alloc {
    int fd;           /* the memfd */
    size_t size;
    CUmemAllocationProp prop;
    int handles;      /* cuMemCreate, cuMemRetainAllocationHandle, import: until cuMemRelease */
    int maps;         /* its mappings: the memory lives while either count is not 0 */
    struct vmm_alloc *next;
};
struct vmm_reservation {
    char *base;
    size_t size;
    struct vmm_reservation *next;
};
struct vmm_mapping {
    char *device;     /* in a reservation */
    char *host;       /* the memfd's accessible mapping */
    size_t size;
    struct vmm_alloc *alloc;
    struct region *region; /* once cuMemSetAccess made it reachable */
    struct vmm_mapping *next;
};
static pthread_mutex_t vmm_lock = PTHREAD_MUTEX_INITIALIZER; /* before regions_lock */
static struct vmm_alloc *vmm_allocs;
static struct vmm_reservation *vmm_reservations;
static struct vmm_mapping *vmm_mappings;
static atomic_ulong vmm_exports, vmm_imports;

EXPORT unsigned long fake_cuda_vmm_count(const char *what)
{
    if (!strcmp(what, "exports"))
        return atomic_load(&vmm_exports);
    if (!strcmp(what, "imports"))
        return atomic_load(&vmm_imports);
    unsigned long n = 0;
    pthread_mutex_lock(&vmm_lock);
    if (!strcmp(what, "allocations"))
        for (struct vmm_alloc *a = vmm_allocs; a; a = a->next)
            n++;
    else if (!strcmp(what, "mappings"))
        for (struct vmm_mapping *m = vmm_mappings; m; m = m->next)
            n++;
    else if (!strcmp(what, "reservations"))
        for (struct vmm_reservation *r = vmm_reservations; r; r = r->next)
            n++;
    pthread_mutex_unlock(&vmm_lock);
    return n;
}

/* The caller holds vmm_lock. */
static struct vmm_alloc *vmm_alloc_of(CUmemGenericAllocationHandle handle)
{
    for (struct vmm_alloc *a = vmm_allocs; a; a = a->next)
        if ((uintptr_t)a == handle && a->handles > 0)
            return a;
    return NULL;
}

/* The caller holds vmm_lock; frees the allocation when nothing holds it. */
static void vmm_free_if_unused(struct vmm_alloc *a)
{
    if (a->handles > 0 || a->maps > 0)
        return;
    struct vmm_alloc **link = &vmm_allocs;
    while (*link != a)
        link = &(*link)->next;
    *link = a->next;
    close(a->fd);
    free(a);
}

static CUresult vmm_new(int fd, size_t size, const CUmemAllocationProp *prop,
                        CUmemGenericAllocationHandle *handle)
{
    struct vmm_alloc *a = calloc(1, sizeof *a);
    if (!a)
        return ERROR_OUT_OF_MEMORY;
    a->fd = fd;
    a->size = size;
    a->prop = *prop;
    a->handles = 1;
    pthread_mutex_lock(&vmm_lock);
    a->next = vmm_allocs;
    vmm_allocs = a;
    pthread_mutex_unlock(&vmm_lock);
    *handle = (uintptr_t)a;
    return SUCCESS;
}

EXPORT CUresult cuMemGetAllocationGranularity(size_t *granularity,
                                              const CUmemAllocationProp *prop, int option)
{
    if (!initialized)
        return ERROR_NOT_INITIALIZED;
    if (!granularity || !prop || option < 0 || option > 1 || prop->location.type != 1)
        return ERROR_INVALID_VALUE;
    *granularity = VMM_GRANULARITY;
    return SUCCESS;
}

EXPORT CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size,
                            const CUmemAllocationProp *prop, unsigned long long flags)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (!handle || !prop || flags || size == 0 || size % VMM_GRANULARITY || prop->type != 1 ||
        prop->location.type != 1 || (prop->requestedHandleTypes & ~VMM_HANDLE_POSIX_FD))
        return ERROR_INVALID_VALUE;
    if (prop->location.id < 0 || prop->location.id >= device_count())
        return ERROR_INVALID_DEVICE;
    int fd = memfd_create("fake-cuda-vmm", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)size) != 0) {
        if (fd >= 0)
            close(fd);
        return ERROR_OUT_OF_MEMORY;
    }
    status = vmm_new(fd, size, prop, handle);
    if (status != SUCCESS)
        close(fd);
    else
        allocs++;
    return status;
}

EXPORT CUresult cuMemRelease(CUmemGenericAllocationHandle handle)
{
    pthread_mutex_lock(&vmm_lock);
    struct vmm_alloc *a = vmm_alloc_of(handle);
    if (a) {
        a->handles--;
        vmm_free_if_unused(a);
    }
    pthread_mutex_unlock(&vmm_lock);
    return a ? SUCCESS : ERROR_INVALID_VALUE;
}

EXPORT CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment,
                                    CUdeviceptr addr, unsigned long long flags)
{
    (void)addr; /* a hint */
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (!ptr || flags || size == 0 || size % VMM_GRANULARITY ||
        (alignment & (alignment - 1)))
        return ERROR_INVALID_VALUE;
    if (alignment < VMM_GRANULARITY)
        alignment = VMM_GRANULARITY;
    struct vmm_reservation *r = calloc(1, sizeof *r);
    char *raw = mmap(NULL, size + alignment, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!r || raw == MAP_FAILED) {
        free(r);
        return ERROR_OUT_OF_MEMORY;
    }
    char *base = (char *)(((uintptr_t)raw + alignment - 1) & ~(uintptr_t)(alignment - 1));
    if (base > raw)
        munmap(raw, (size_t)(base - raw));
    if (raw + size + alignment > base + size)
        munmap(base + size, (size_t)(raw + size + alignment - (base + size)));
    r->base = base;
    r->size = size;
    pthread_mutex_lock(&vmm_lock);
    r->next = vmm_reservations;
    vmm_reservations = r;
    pthread_mutex_unlock(&vmm_lock);
    *ptr = (uintptr_t)base;
    return SUCCESS;
}

/* The caller holds vmm_lock: the first mapping sharing a byte with [p, p+size). */
static struct vmm_mapping *vmm_mapping_in(const char *p, size_t size)
{
    for (struct vmm_mapping *m = vmm_mappings; m; m = m->next)
        if (p < m->device + m->size && m->device < p + size)
            return m;
    return NULL;
}

EXPORT CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
    CUresult status = ERROR_INVALID_VALUE;
    pthread_mutex_lock(&vmm_lock);
    struct vmm_reservation **link = &vmm_reservations;
    while (*link && ((uintptr_t)(*link)->base != ptr || (*link)->size != size))
        link = &(*link)->next;
    struct vmm_reservation *r = *link;
    if (r && !vmm_mapping_in(r->base, r->size)) { /* unmap first */
        *link = r->next;
        munmap(r->base, r->size);
        free(r);
        status = SUCCESS;
    }
    pthread_mutex_unlock(&vmm_lock);
    return status;
}

EXPORT CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset,
                         CUmemGenericAllocationHandle handle, unsigned long long flags)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    char *p = (char *)(uintptr_t)ptr;
    status = ERROR_INVALID_VALUE;
    pthread_mutex_lock(&vmm_lock);
    struct vmm_alloc *a = vmm_alloc_of(handle);
    struct vmm_reservation *r = vmm_reservations;
    while (r && !(p >= r->base && size <= r->size && p - r->base <= (ptrdiff_t)(r->size - size)))
        r = r->next;
    /* the driver's rules: offset 0, whole granules, inside one reservation, no overlap */
    if (a && r && !flags && offset == 0 && size && size <= a->size &&
        ptr % VMM_GRANULARITY == 0 && size % VMM_GRANULARITY == 0 && !vmm_mapping_in(p, size)) {
        struct vmm_mapping *m = calloc(1, sizeof *m);
        char *host = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, a->fd, 0);
        if (!m || host == MAP_FAILED) {
            free(m);
            status = ERROR_OUT_OF_MEMORY;
        } else {
            *m = (struct vmm_mapping){.device = p, .host = host, .size = size, .alloc = a,
                                      .next = vmm_mappings};
            vmm_mappings = m;
            a->maps++;
            status = SUCCESS;
        }
    }
    pthread_mutex_unlock(&vmm_lock);
    return status;
}

/* The caller holds vmm_lock. */
static void vmm_drop_region(struct vmm_mapping *m)
{
    if (!m->region)
        return;
    pthread_mutex_lock(&regions_lock);
    memset(m->region, 0, sizeof *m->region);
    pthread_mutex_unlock(&regions_lock);
    m->region = NULL;
}

EXPORT CUresult cuMemUnmap(CUdeviceptr ptr, size_t size)
{
    CUresult status = ERROR_INVALID_VALUE;
    pthread_mutex_lock(&vmm_lock);
    struct vmm_mapping **link = &vmm_mappings;
    while (*link && ((uintptr_t)(*link)->device != ptr || (*link)->size != size))
        link = &(*link)->next;
    struct vmm_mapping *m = *link;
    if (m) {
        *link = m->next;
        vmm_drop_region(m);
        munmap(m->host, m->size);
        m->alloc->maps--;
        vmm_free_if_unused(m->alloc);
        free(m);
        status = SUCCESS;
    }
    pthread_mutex_unlock(&vmm_lock);
    return status;
}

EXPORT CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc,
                               size_t count)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (!desc || count == 0)
        return ERROR_INVALID_VALUE;
    for (size_t i = 0; i < count; i++)
        if (desc[i].location.type != 1 || desc[i].location.id < 0 ||
            desc[i].location.id >= device_count() || desc[i].flags < 0 || desc[i].flags > 3)
            return ERROR_INVALID_VALUE;
    int readable = desc[0].flags != 0;
    char *p = (char *)(uintptr_t)ptr;
    status = SUCCESS;
    pthread_mutex_lock(&vmm_lock);
    /* every byte of [p, p+size) must be mapped; each mapping becomes a region */
    for (char *at = p; at < p + size && status == SUCCESS;) {
        struct vmm_mapping *m = vmm_mapping_in(at, 1);
        if (!m || m->device != at || m->size > (size_t)(p + size - at)) {
            status = ERROR_INVALID_VALUE;
            break;
        }
        if (readable && !m->region) {
            pthread_mutex_lock(&regions_lock);
            struct region *r = free_slot();
            if (r) {
                *r = (struct region){.device = m->device, .host = m->host, .size = m->size,
                                     .gen = ++region_gen, .vmm = 1};
                m->region = r;
            }
            pthread_mutex_unlock(&regions_lock);
            if (!r)
                status = ERROR_OUT_OF_MEMORY;
        } else if (!readable) {
            vmm_drop_region(m);
        }
        at += m->size;
    }
    pthread_mutex_unlock(&vmm_lock);
    return status;
}

EXPORT CUresult cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle, void *addr)
{
    if (!handle)
        return ERROR_INVALID_VALUE;
    pthread_mutex_lock(&vmm_lock);
    struct vmm_mapping *m = vmm_mapping_in(addr, 1);
    if (m) {
        m->alloc->handles++; /* the same handle, one more reference */
        *handle = (uintptr_t)m->alloc;
    }
    pthread_mutex_unlock(&vmm_lock);
    return m ? SUCCESS : ERROR_INVALID_VALUE;
}

EXPORT CUresult cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp *prop,
                                                       CUmemGenericAllocationHandle handle)
{
    pthread_mutex_lock(&vmm_lock);
    struct vmm_alloc *a = vmm_alloc_of(handle);
    if (a && prop)
        *prop = a->prop;
    pthread_mutex_unlock(&vmm_lock);
    return a && prop ? SUCCESS : ERROR_INVALID_VALUE;
}

EXPORT CUresult cuMemExportToShareableHandle(void *shareable, CUmemGenericAllocationHandle handle,
                                             int type, unsigned long long flags)
{
    CUresult status = ERROR_INVALID_VALUE;
    pthread_mutex_lock(&vmm_lock);
    struct vmm_alloc *a = vmm_alloc_of(handle);
    if (!shareable || flags || type != VMM_HANDLE_POSIX_FD || !a)
        status = ERROR_INVALID_VALUE;
    else if (!(a->prop.requestedHandleTypes & VMM_HANDLE_POSIX_FD))
        status = ERROR_INVALID_VALUE; /* not requested at cuMemCreate: as an H200 does */
    else if ((*(int *)shareable = fcntl(a->fd, F_DUPFD_CLOEXEC, 0)) < 0)
        status = ERROR_OUT_OF_MEMORY;
    else
        status = SUCCESS;
    pthread_mutex_unlock(&vmm_lock);
    if (status == SUCCESS)
        vmm_exports++;
    return status;
}

/* Like the real driver, the caller keeps (and closes) the descriptor. */
EXPORT CUresult cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle,
                                               void *shareable, int type)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    int fd = (int)(intptr_t)shareable;
    struct stat st;
    if (!handle || type != VMM_HANDLE_POSIX_FD || fstat(fd, &st) != 0 || st.st_size <= 0)
        return ERROR_INVALID_VALUE;
    int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (own < 0)
        return ERROR_OUT_OF_MEMORY;
    CUmemAllocationProp prop = {.type = 1, .requestedHandleTypes = VMM_HANDLE_POSIX_FD,
                                .location = {.type = 1, .id = current->device}};
    status = vmm_new(own, (size_t)st.st_size, &prop, handle);
    if (status != SUCCESS)
        close(own);
    else
        vmm_imports++;
    return status;
}
