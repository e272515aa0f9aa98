/*
 * proxy.c - the stream proxy (proxy.h; docs/device-heap.md, "Streams across
 * nodes: the proxy").
 *
 * The queue: SHMPI_STREAM_QUEUE slots.  Each has two 64-bit words in pinned
 * host memory mapped into the device (cuMemHostAlloc with DEVICEMAP; the
 * stream reaches them at the address cuMemHostGetDevicePointer gives) and
 * a descriptor in ordinary memory.  Request number t (from 1, never reused)
 * in slot i: the host fills the descriptor and marks the slot queued, then
 * enqueues on the stream "write t to ready[i]" and "wait until done[i] >= t".
 * The proxy thread serves a queued slot once ready[i] == t, writes t to
 * done[i] and frees the slot.  A later request in the same slot has a
 * larger number, so a stream still waiting for t is released by it too
 * (the driver's GEQ is cyclic, and 2^63 requests never come).
 *
 * The proxy thread looks at the ready words of the queued slots, pausing
 * 1 us, growing to 100 us, between looks that found nothing (the stream may
 * be busy with other work for long).  It calls the host routines
 * (shmpi_device_contiguous, shmpi_device_word_signal), which reach PEs of
 * other machines through MPI: it needs MPI_THREAD_MULTIPLE there.
 *
 * Where some PE's device memory is not mapped here, the thread also runs
 * from the device heap's start, whether or not this PE enqueues: the
 * transfers other PEs' proxies (and host routines) send into this PE's
 * device memory are applied by its server (device_net.c, serve.c), which
 * must run while this PE's host thread blocks outside shmpi (in
 * cuStreamSynchronize, say, for a stream that waits for those very
 * writes).  So it enters MPI at each turn (shmpi_progress_background), and
 * while nothing is queued it pauses up to 1 ms between turns.  Elsewhere it
 * sleeps on a condition while nothing is queued.
 */
#include "shmpi.h"
#include "cuda_driver.h"
#include "device_heap.h"
#include "device_reach.h"
#include "proxy.h"
#include "stream.h"
#include "wait.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct proxy_words {
    _Atomic uint64_t ready; /* written by the stream */
    _Atomic uint64_t done;  /* written by the proxy thread */
};

enum { SLOT_FREE, SLOT_QUEUED };

struct proxy_slot {
    struct shmpi_proxy_request req;
    void *captured;    /* a put's pageable host source, copied at the call (or NULL) */
    uint64_t number;   /* the request's number, the value of its words */
    atomic_int state;  /* SLOT_FREE, SLOT_QUEUED */
};

static struct {
    pthread_mutex_t lock;     /* claims of slots; the thread's start and sleep */
    pthread_cond_t wake;      /* a slot was queued, or stop */
    bool started;             /* the thread runs */
    bool serves_network;      /* it also serves other PEs' transfers (above) */
    bool stop;
    pthread_t thread;
    int slots;
    struct proxy_words *words;   /* [slots], host address */
    CUdeviceptr words_device;    /* the same, the device's address */
    struct proxy_slot *slot;     /* [slots] */
    uint64_t last_number;
    int next;                    /* where the next claim starts looking */
    atomic_int queued;           /* slots queued, not yet served */
} proxy = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER};

bool shmpi_proxy_needed(const void *addr, size_t len, int pe)
{
    if (pe == shmpi_g.my_pe || (unsigned)pe >= (unsigned)shmpi_g.n_pes)
        return false;
    if (!shmpi_device_peer(addr, len ? len : 1, shmpi_g.my_pe))
        return false; /* not symmetric device memory: the caller says so */
    return shmpi_g.env.stream_proxy_all || !shmpi_device_peer(addr, len ? len : 1, pe);
}

/* ---- the proxy thread ------------------------------------------------------------------ */
static void serve(const struct shmpi_proxy_request *r)
{
    switch (r->op) {
    case SHMPI_PROXY_PUT:
        if (r->len) {
            shmpi_device_contiguous(r->routine, NULL, true, r->dest, r->source, r->len, r->pe,
                                    SHMPI_BLOCKING);
            shmpi_device_quiet(); /* complete at PE pe before its signal or the next op */
        }
        if (r->sig_addr)
            shmpi_device_word_signal(r->routine, r->sig_addr, r->signal, r->sig_op, r->pe);
        break;
    case SHMPI_PROXY_GET:
        if (r->len)
            shmpi_device_contiguous(r->routine, NULL, false, r->dest, r->source, r->len, r->pe,
                                    SHMPI_BLOCKING);
        break;
    case SHMPI_PROXY_SIGNAL:
        shmpi_device_word_signal(r->routine, r->sig_addr, r->signal, r->sig_op, r->pe);
        break;
    }
}

/* Serves every queued slot whose ready word the stream wrote; how many. */
static int serve_ready(void)
{
    int served = 0;
    for (int i = 0; i < proxy.slots; i++) {
        struct proxy_slot *s = &proxy.slot[i];
        if (atomic_load_explicit(&s->state, memory_order_acquire) != SLOT_QUEUED ||
            atomic_load_explicit(&proxy.words[i].ready, memory_order_acquire) != s->number)
            continue;
        serve(&s->req);
        free(s->captured);
        s->captured = NULL;
        atomic_store_explicit(&proxy.words[i].done, s->number, memory_order_release);
        atomic_store_explicit(&s->state, SLOT_FREE, memory_order_release);
        atomic_fetch_sub_explicit(&proxy.queued, 1, memory_order_acq_rel);
        served++;
    }
    return served;
}

#define PAUSE_QUEUED_NS 100000L /* the longest pause while a request is queued */
#define PAUSE_IDLE_NS 1000000L   /* the same while none is, serving the network */

static void *proxy_loop(void *arg)
{
    (void)arg;
    shmpi_device_enter("the stream proxy"); /* the heap's context, for this thread */
    long pause_ns = 1000;
    for (;;) {
        pthread_mutex_lock(&proxy.lock);
        while (!proxy.stop && !proxy.serves_network && atomic_load(&proxy.queued) == 0)
            pthread_cond_wait(&proxy.wake, &proxy.lock);
        bool stop = proxy.stop && atomic_load(&proxy.queued) == 0;
        pthread_mutex_unlock(&proxy.lock);
        if (stop)
            return NULL;
        bool moved = proxy.slots && serve_ready();
        if (proxy.serves_network)
            moved |= shmpi_progress_background();
        if (moved) {
            pause_ns = 1000;
            continue;
        }
        struct timespec pause = {0, pause_ns};
        nanosleep(&pause, NULL);
        long most = atomic_load(&proxy.queued) ? PAUSE_QUEUED_NS : PAUSE_IDLE_NS;
        pause_ns = pause_ns * 2 > most ? most : pause_ns * 2;
    }
}

/* ---- start-up on first use ------------------------------------------------------------- */
/* Ends the job, naming the machine, where the GPU cannot run the proxy's
 * stream memory operations on mapped host memory. */
static void need_host_mapped_memops(const char *routine, int pe)
{
    int can_map = 0;
    CUdevice device = shmpi_device.ordinal;
    if (shmpi_cuda.device_get_attribute(&can_map, SHMPI_CU_ATTRIBUTE_CAN_MAP_HOST_MEMORY,
                                        device) != SHMPI_CUDA_SUCCESS)
        can_map = 0;
    if (shmpi_device.stream_memops && can_map)
        return;
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    shmpi_abort(routine,
                "GPU %d of machine %s has no %s, which stream operations aimed at PE %d "
                "need: its device memory is not mapped here (another machine, "
                "SHMPI_DEVICE_IPC=0 or SHMPI_STREAM_PROXY=all), so they go through the "
                "stream proxy's queue in mapped host memory; run such PEs on one machine "
                "with SHMPI_DEVICE_IPC unset, or on GPUs that have it",
                device, host,
                !shmpi_device.stream_memops
                    ? "64-bit stream memory operations (cuDeviceGetAttribute 122, "
                      "CAN_USE_64_BIT_STREAM_MEM_OPS, is 0)"
                    : "mapping of host memory (cuDeviceGetAttribute 19, "
                      "CAN_MAP_HOST_MEMORY, is 0)",
                pe);
}

/* The proxy thread calls MPI where the target is another machine's (or an
 * unmapped) PE: it serves the network then (shmpi_proxy_init) unless MPI
 * lacks MPI_THREAD_MULTIPLE. */
static void need_thread_multiple(const char *routine, int pe)
{
    if (!shmpi_device.peer[pe] && !proxy.serves_network)
        shmpi_abort(routine,
                    "the stream proxy, which serves stream operations aimed at PE %d (its "
                    "device memory is not mapped here), calls MPI from its own thread, and "
                    "MPI was initialized without MPI_THREAD_MULTIPLE: call MPI_Init_thread "
                    "with it, or let shmem_init start MPI",
                    pe);
}

/* The caller holds proxy.lock. */
static void start_thread(const char *routine)
{
    proxy.stop = false;
    if (pthread_create(&proxy.thread, NULL, proxy_loop, NULL) != 0)
        shmpi_abort(routine, "cannot start the stream proxy's thread");
    proxy.started = true;
}

void shmpi_proxy_init(const char *routine)
{
    bool unmapped = false;
    for (int pe = 0; pe < shmpi_g.n_pes; pe++)
        unmapped |= !shmpi_device.peer[pe];
    int level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&level);
    pthread_mutex_lock(&proxy.lock);
    proxy.serves_network = unmapped && level == MPI_THREAD_MULTIPLE;
    if (proxy.serves_network)
        start_thread(routine);
    pthread_mutex_unlock(&proxy.lock);
}

/* The queue, at the first request.  The caller holds proxy.lock. */
static void start_queue(const char *routine, int pe)
{
    need_host_mapped_memops(routine, pe);
    int n = shmpi_g.env.stream_queue > 0 ? shmpi_g.env.stream_queue : 256;
    void *words = NULL;
    shmpi_cuda_check(routine, "cuMemHostAlloc",
                     shmpi_cuda.mem_host_alloc(&words, (size_t)n * sizeof *proxy.words,
                                               SHMPI_CU_MEMHOSTALLOC_PORTABLE |
                                                   SHMPI_CU_MEMHOSTALLOC_DEVICEMAP));
    shmpi_cuda_check(routine, "cuMemHostGetDevicePointer",
                     shmpi_cuda.mem_host_get_device_pointer(&proxy.words_device, words, 0));
    proxy.words = words;
    for (int i = 0; i < n; i++) {
        atomic_init(&proxy.words[i].ready, 0);
        atomic_init(&proxy.words[i].done, 0);
    }
    proxy.slot = shmpi_xmalloc(routine, (size_t)n * sizeof *proxy.slot);
    for (int i = 0; i < n; i++) {
        atomic_init(&proxy.slot[i].state, SLOT_FREE);
        proxy.slot[i].captured = NULL;
    }
    proxy.slots = n;
    proxy.next = 0;
    proxy.last_number = 0;
    atomic_store(&proxy.queued, 0);
    if (!proxy.started)
        start_thread(routine);
}

/* ---- enqueue --------------------------------------------------------------------------- */
/* Host memory the driver does not know (neither device memory nor pinned). */
static bool pageable(const void *ptr)
{
    unsigned type = 0;
    return shmpi_cuda.pointer_get_attribute(&type, SHMPI_CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                            (CUdeviceptr)(uintptr_t)ptr) != SHMPI_CUDA_SUCCESS;
}

struct claim {
    int slot; /* the slot claimed, -1 while none */
};

/* Claims a free slot (as a wait's test: the queue may be full). */
static bool claim_slot(const void *state)
{
    struct claim *c = (struct claim *)state;
    pthread_mutex_lock(&proxy.lock);
    for (int k = 0; k < proxy.slots && c->slot < 0; k++) {
        int i = (proxy.next + k) % proxy.slots;
        if (atomic_load_explicit(&proxy.slot[i].state, memory_order_acquire) == SLOT_FREE) {
            atomic_store_explicit(&proxy.slot[i].state, -1, memory_order_relaxed); /* ours */
            proxy.next = (i + 1) % proxy.slots;
            c->slot = i;
        }
    }
    pthread_mutex_unlock(&proxy.lock);
    return c->slot >= 0;
}

void shmpi_proxy_enqueue(const struct shmpi_proxy_request *req, CUstream stream)
{
    const char *routine = req->routine;
    pthread_mutex_lock(&proxy.lock);
    need_thread_multiple(routine, req->pe);
    if (!proxy.slots)
        start_queue(routine, req->pe);
    pthread_mutex_unlock(&proxy.lock);
    struct claim c = {-1};
    if (!claim_slot(&c)) /* full: wait as every wait does until the proxy frees one */
        shmpi_wait_until(routine, proxy.words, NULL, claim_slot, &c);
    struct proxy_slot *s = &proxy.slot[c.slot];
    s->req = *req;
    s->captured = NULL;
    if (req->op == SHMPI_PROXY_PUT && req->len && pageable(req->source)) {
        /* The driver copies a pageable source at the call (cuMemcpyAsync stages
         * it), so the caller may reuse it at once: so may a proxied put's. */
        s->captured = shmpi_xmalloc(routine, req->len);
        memcpy(s->captured, req->source, req->len);
        s->req.source = s->captured;
    }
    pthread_mutex_lock(&proxy.lock);
    s->number = ++proxy.last_number;
    uint64_t number = s->number;
    atomic_fetch_add_explicit(&proxy.queued, 1, memory_order_acq_rel);
    atomic_store_explicit(&s->state, SLOT_QUEUED, memory_order_release);
    pthread_cond_signal(&proxy.wake);
    pthread_mutex_unlock(&proxy.lock);
    CUdeviceptr words = proxy.words_device + (CUdeviceptr)c.slot * sizeof *proxy.words;
    shmpi_cuda_check(routine, "cuStreamWriteValue64",
                     shmpi_cuda.stream_write_value64(
                         stream, words + offsetof(struct proxy_words, ready), number, 0));
    shmpi_cuda_check(routine, "cuStreamWaitValue64",
                     shmpi_cuda.stream_wait_value64(
                         stream, words + offsetof(struct proxy_words, done), number,
                         SHMPI_CU_STREAM_WAIT_VALUE_GEQ));
}

void shmpi_proxy_fini(void)
{
    pthread_mutex_lock(&proxy.lock);
    bool started = proxy.started;
    proxy.stop = true;
    pthread_cond_signal(&proxy.wake);
    pthread_mutex_unlock(&proxy.lock);
    if (started)
        pthread_join(proxy.thread, NULL);
    if (proxy.words)
        shmpi_cuda.mem_free_host(proxy.words);
    free(proxy.slot);
    proxy.words = NULL;
    proxy.slot = NULL;
    proxy.slots = 0;
    proxy.started = proxy.serves_network = false;
}
