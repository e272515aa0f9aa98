/*
 * device_net.c - transfers into and out of device memory this PE does not
 * map (device_net.h; docs/device-heap.md, "Across nodes").
 *
 * A put sends one request per batch (up to BATCH_CHUNKS chunks of
 * SHMPI_DEVICE_CHUNK bytes) on the server's channel (serve.c), then each
 * chunk on data_comm: a device source is first copied into pinned staging
 * (device to host), a host source goes as it is.  The target's server
 * receives each chunk into one of AHEAD (4) pinned landing buffers and
 * copies it into its device memory on one of AHEAD streams, so the copy of
 * one chunk overlaps the arrival of the next; it synchronizes them all
 * before the next message, so messages apply in the order sent.  A get asks
 * for a batch; the server copies up to AHEAD chunks out at once (device to
 * host) and sends each as its copy completes; the origin copies it into
 * device memory or receives it straight into a host buffer.  Two batches are in flight at once, so the origin's copies
 * overlap the network as well.
 *
 * No cycle of waits: a server blocks only on chunks whose batch the origin
 * has announced, and an origin never serves between a batch's request and
 * its last chunk (it only enters MPI's progress there), so every chunk a
 * server waits for is on its way.
 *
 * Completion: a put returns once its chunks are sent (its source may be
 * reused); the target is marked, and quiet (fence, barrier) sends each
 * marked target a fence, which the server answers after every earlier
 * message of this PE, copies synchronized.  Signals are messages too,
 * applied in order after the data sent before them.
 */
#include "shmpi.h"
#include "cuda_driver.h"
#include "device_heap.h"
#include "device_net.h"
#include "flush.h"
#include "mpi_rma.h"
#include "device_word.h"
#include "progress.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>

#define CUDA_ERROR_NOT_READY 600
#define BATCH_CHUNKS 8
#define AHEAD 4 /* copies in flight at either end, one stream and chunk buffer each */
#define SYNC_SPINS_BEFORE_YIELD 16

enum net_kind { NET_PUT, NET_GET, NET_SIGNAL, NET_FENCE };

struct net_request {
    uint8_t kind;     /* enum net_kind */
    uint8_t sig_op;   /* NET_SIGNAL: SHMEM_SIGNAL_SET or _ADD */
    int32_t tag;      /* of the chunks and the answer, on data_comm */
    uint32_t region;  /* 0: the device heap, else a registered range's id */
    uint64_t offset;  /* in the region */
    uint64_t nbytes;  /* NET_PUT, NET_GET: the batch, in chunks of `chunk` bytes */
    uint64_t value;   /* NET_SIGNAL */
};
_Static_assert(sizeof(struct net_request) <= SHMPI_SERVE_MAX_BYTES,
               "a request fits serve.c's buffer");

atomic_bool shmpi_device_net_unacked;
static MPI_Comm request_comm = MPI_COMM_NULL, data_comm = MPI_COMM_NULL;
static int channel = -1;
static int tag_limit;
static atomic_uint next_tag;
static size_t chunk;
/* The server's landing chunks and streams (one server at a time). */
static char *landing[AHEAD];
static CUstream server_stream[AHEAD];
/* The origin's staging for two batches, allocated at first use, and the
 * stream of its copies; one transfer at a time. */
static char *staging;
static CUstream origin_stream[AHEAD];
static pthread_mutex_t origin_mutex = PTHREAD_MUTEX_INITIALIZER;
/* Targets with puts or signals not yet fenced; one quiet at a time. */
static struct shmpi_pe_set unacked;
static pthread_mutex_t fence_mutex = PTHREAD_MUTEX_INITIALIZER;

static void serve(const void *message, int origin);

static void *pinned(const char *routine, size_t bytes)
{
    void *p = NULL;
    CUresult result = shmpi_cuda.mem_alloc_host(&p, bytes);
    if (result != SHMPI_CUDA_SUCCESS)
        shmpi_abort(routine,
                    "cuMemAllocHost of %zu bytes of pinned staging failed (CUDA error %d); "
                    "lower SHMPI_DEVICE_CHUNK",
                    bytes, result);
    return p;
}

/* Whether the MPI says it takes CUDA device buffers (MPICH 4's query; Open
 * MPI's is MPIX_Query_cuda_support in mpi-ext.h).  MPICH 4.0.2 ch4:ucx built
 * without CUDA, as here, says no. */
static bool mpi_takes_cuda(void)
{
#ifdef MPIX_GPU_SUPPORT_CUDA
    int supported = 0;
    return MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &supported) == MPI_SUCCESS &&
           supported;
#else
    return false;
#endif
}

void shmpi_device_net_init(const char *routine, bool needed)
{
    int here = needed, anywhere = 0;
    MPI_Allreduce(&here, &anywhere, 1, MPI_INT, MPI_LOR, shmpi_g.comm);
    if (!anywhere)
        return;
    /* The largest chunk any PE asks for: a server's landing holds any chunk. */
    unsigned long mine = (unsigned long)shmpi_g.env.device_chunk, largest = 0;
    MPI_Allreduce(&mine, &largest, 1, MPI_UNSIGNED_LONG, MPI_MAX, shmpi_g.comm);
    chunk = largest;
    for (int k = 0; k < AHEAD; k++) {
        landing[k] = pinned(routine, chunk);
        shmpi_cuda_check(routine, "cuStreamCreate",
                         shmpi_cuda.stream_create(&server_stream[k],
                                                  SHMPI_CU_STREAM_NON_BLOCKING));
    }
    for (int k = 0; k < AHEAD; k++)
        shmpi_cuda_check(routine, "cuStreamCreate",
                         shmpi_cuda.stream_create(&origin_stream[k],
                                                  SHMPI_CU_STREAM_NON_BLOCKING));
    shmpi_pe_set_init(&unacked, "device transfers");
    data_comm = shmpi_comm_dup(shmpi_g.comm);
    request_comm = shmpi_comm_dup(shmpi_g.comm);
    int *ub, flag;
    MPI_Comm_get_attr(data_comm, MPI_TAG_UB, &ub, &flag);
    tag_limit = flag && *ub < (1 << 30) ? *ub : 1 << 30;
    channel = shmpi_serve_start(request_comm, (int)sizeof(struct net_request), serve);
    if (shmpi_g.env.debug && shmpi_g.my_pe == 0)
        shmpi_warn(routine,
                   "device memory of PEs not mapped here is staged through pinned host "
                   "memory in chunks of %zu bytes; the MPI %s CUDA buffers (not used: "
                   "docs/device-heap.md, \"Across nodes\")",
                   chunk, mpi_takes_cuda() ? "says it takes" : "does not take");
}

void shmpi_device_net_fini(void)
{
    if (channel < 0)
        return;
    const char *routine = "shmem_finalize";
    /* Every PE passed the barrier whose quiet fenced every message. */
    shmpi_serve_stop(channel); /* frees request_comm */
    channel = -1;
    request_comm = MPI_COMM_NULL;
    MPI_Comm_free(&data_comm);
    shmpi_device_enter(routine);
    for (int k = 0; k < AHEAD; k++) {
        shmpi_cuda_check(routine, "cuStreamDestroy",
                         shmpi_cuda.stream_destroy(server_stream[k]));
        shmpi_cuda_check(routine, "cuMemFreeHost", shmpi_cuda.mem_free_host(landing[k]));
        landing[k] = NULL;
    }
    for (int k = 0; k < AHEAD; k++)
        shmpi_cuda_check(routine, "cuStreamDestroy",
                         shmpi_cuda.stream_destroy(origin_stream[k]));
    if (staging)
        shmpi_cuda_check(routine, "cuMemFreeHost", shmpi_cuda.mem_free_host(staging));
    staging = NULL;
    shmpi_pe_set_fini(&unacked);
    atomic_store(&shmpi_device_net_unacked, false);
}

/* ---- copies ---------------------------------------------------------------------------- */
static void copy_on(const char *routine, void *to, const void *from, size_t n, CUstream s)
{
    shmpi_cuda_check(routine, "cuMemcpyAsync",
                     shmpi_cuda.memcpy_async((CUdeviceptr)(uintptr_t)to,
                                             (CUdeviceptr)(uintptr_t)from, n, s));
}

static void sync_stream(const char *routine, CUstream s)
{
    shmpi_cuda_check(routine, "cuStreamSynchronize", shmpi_cuda.stream_synchronize(s));
}

/* Waits for the origin's copies while MPI moves the chunks already sent
 * (its progress engine only: nothing is served in the middle of a batch).
 * Yields after a few turns: where PEs outnumber cores the copy may need this
 * CPU (the driver's threads; a 64 KiB put spinning here on 2 cores took
 * 1.34x the same transfer by hand, which blocks in cuStreamSynchronize). */
static void sync_moving(const char *routine, CUstream s)
{
    CUresult result;
    for (unsigned turn = 0; (result = shmpi_cuda.stream_query(s)) == CUDA_ERROR_NOT_READY;
         turn++) {
        shmpi_progress_probe();
        if (turn >= SYNC_SPINS_BEFORE_YIELD)
            sched_yield();
    }
    shmpi_cuda_check(routine, "cuStreamQuery", result);
}

static bool is_device_memory(const void *p)
{
    unsigned type = 0;
    return shmpi_cuda.pointer_get_attribute(&type, SHMPI_CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                            (CUdeviceptr)(uintptr_t)p) == SHMPI_CUDA_SUCCESS &&
           type == SHMPI_CU_MEMORYTYPE_DEVICE;
}

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* ---- the target ---------------------------------------------------------------------- */
static const char serve_routine[] = "device transfer (served)";

/* Where the request's range lies in this PE's device memory. */
static char *target_range(const struct net_request *r, size_t len, int origin)
{
    size_t size = 0;
    char *base = shmpi_device_region(r->region, &size);
    if (SHMPI_UNLIKELY(!base || r->offset > size || len > size - r->offset))
        shmpi_fail_from_thread(serve_routine,
                               "a device transfer from PE %d names %llu bytes at offset %llu "
                               "of region %d, which this PE's device memory does not hold "
                               "(device heaps or registrations differ between PEs)",
                               origin, (unsigned long long)len,
                               (unsigned long long)r->offset, r->region);
    return base + r->offset;
}

static void serve_put(const struct net_request *r, int origin)
{
    char *to = target_range(r, r->nbytes, origin);
    bool copying[AHEAD] = {false};
    for (size_t at = 0, k = 0; at < r->nbytes; at += chunk, k++) {
        int h = (int)(k % AHEAD);
        size_t n = min_size(chunk, r->nbytes - at);
        if (copying[h]) /* the landing chunk is free again */
            sync_stream(serve_routine, server_stream[h]);
        MPI_Recv(landing[h], (int)n, MPI_BYTE, origin, r->tag, data_comm, MPI_STATUS_IGNORE);
        copy_on(serve_routine, to + at, landing[h], n, server_stream[h]);
        copying[h] = true;
    }
    for (int h = 0; h < AHEAD; h++)
        if (copying[h])
            sync_stream(serve_routine, server_stream[h]);
}

/* Copies out up to AHEAD chunks at once, each sent when its copy is done. */
static void serve_get(const struct net_request *r, int origin)
{
    const char *from = target_range(r, r->nbytes, origin);
    size_t n_chunks = (r->nbytes + chunk - 1) / chunk;
    MPI_Request out[AHEAD];
    for (int h = 0; h < AHEAD; h++)
        out[h] = MPI_REQUEST_NULL;
    for (size_t k = 0; k < AHEAD && k < n_chunks; k++)
        copy_on(serve_routine, landing[k], from + k * chunk,
                min_size(chunk, r->nbytes - k * chunk), server_stream[k]);
    for (size_t k = 0; k < n_chunks; k++) {
        int h = (int)(k % AHEAD);
        sync_stream(serve_routine, server_stream[h]);
        MPI_Isend(landing[h], (int)min_size(chunk, r->nbytes - k * chunk), MPI_BYTE, origin,
                  r->tag, data_comm, &out[h]);
        size_t next = k + AHEAD;
        if (next < n_chunks) {
            MPI_Wait(&out[h], MPI_STATUS_IGNORE); /* the origin's receive is posted */
            copy_on(serve_routine, landing[h], from + next * chunk,
                    min_size(chunk, r->nbytes - next * chunk), server_stream[h]);
        }
    }
    for (int h = 0; h < AHEAD; h++)
        MPI_Wait(&out[h], MPI_STATUS_IGNORE);
}

static void serve(const void *message, int origin)
{
    struct net_request r;
    memcpy(&r, message, sizeof r);
    shmpi_device_enter(serve_routine); /* the thread serving may be any */
    switch (r.kind) {
    case NET_PUT:
        serve_put(&r, origin);
        break;
    case NET_GET:
        serve_get(&r, origin);
        break;
    case NET_SIGNAL:
        shmpi_device_word_signal_mapped(
            serve_routine, (uint64_t *)(void *)target_range(&r, sizeof(uint64_t), origin),
            r.value, r.sig_op, shmpi_g.my_pe);
        break;
    case NET_FENCE: {
        uint64_t done = 0; /* every earlier message of `origin` is applied */
        MPI_Send(&done, (int)sizeof done, MPI_BYTE, origin, r.tag, data_comm);
        break;
    }
    default:
        shmpi_fail_from_thread(serve_routine, "a malformed device request from PE %d (kind %d)",
                               origin, r.kind);
    }
}

/* ---- the origin ---------------------------------------------------------------------- */
/* Tags of different origins differ (this PE's number modulo n_pes): data_comm
 * carries both directions, an origin's chunks to a target and a target's
 * answers to its origins, so a PE that is origin and target at once (its
 * program's thread and its stream proxy's, or two PEs putting to each other)
 * must not take one for the other. */
static int32_t new_tag(void)
{
    unsigned long long k = atomic_fetch_add_explicit(&next_tag, 1, memory_order_relaxed);
    return (int32_t)((k * (unsigned long long)shmpi_g.n_pes + (unsigned)shmpi_g.my_pe) %
                     (unsigned long long)tag_limit);
}

static void send_request(const struct net_request *r, int pe)
{
    if (shmpi_rma_reached.bits) /* finalize's handshake closes the connection (runtime.c) */
        shmpi_rma_reach(pe);
    MPI_Send(r, (int)sizeof *r, MPI_BYTE, pe, 0, request_comm);
}

static void need_channel(const char *routine)
{
    if (SHMPI_UNLIKELY(channel < 0))
        shmpi_abort(routine, "internal error: no server for device transfers");
}

static char *staging_slot(const char *routine, int half, size_t k)
{
    if (!staging)
        staging = pinned(routine, 2 * BATCH_CHUNKS * chunk);
    return staging + ((size_t)half * BATCH_CHUNKS + k) * chunk;
}

static void wait_all(MPI_Request *reqs, int *count)
{
    for (int i = 0; i < *count; i++)
        shmpi_wait_request(&reqs[i]); /* serving: every batch sent is whole */
    *count = 0;
}

static void put(const char *routine, const char *local, size_t nbytes, int region,
                uint64_t offset, int pe)
{
    bool device = is_device_memory(local);
    size_t batch = BATCH_CHUNKS * chunk;
    MPI_Request sent[2][BATCH_CHUNKS];
    int n_sent[2] = {0, 0};
    for (size_t done = 0, b = 0; done < nbytes; done += batch, b++) {
        int h = (int)(b % 2);
        wait_all(sent[h], &n_sent[h]); /* the half's staging is free */
        struct net_request r = {.kind = NET_PUT, .region = (uint32_t)region, .tag = new_tag(),
                                .offset = offset + done, .nbytes = min_size(batch, nbytes - done)};
        send_request(&r, pe);
        size_t n_chunks = (r.nbytes + chunk - 1) / chunk;
        /* A device source: up to AHEAD copies in flight, each chunk sent as
         * soon as its own copy is done. */
        for (size_t k = 0; device && k < AHEAD && k < n_chunks; k++)
            copy_on(routine, staging_slot(routine, h, k), local + done + k * chunk,
                    min_size(chunk, r.nbytes - k * chunk), origin_stream[k % AHEAD]);
        for (size_t k = 0; k < n_chunks; k++) {
            size_t at = k * chunk, n = min_size(chunk, r.nbytes - at);
            const char *from = local + done + at;
            if (device) {
                sync_moving(routine, origin_stream[k % AHEAD]);
                from = staging_slot(routine, h, k);
                size_t next = k + AHEAD;
                if (next < n_chunks)
                    copy_on(routine, staging_slot(routine, h, next),
                            local + done + next * chunk,
                            min_size(chunk, r.nbytes - next * chunk),
                            origin_stream[next % AHEAD]);
            }
            MPI_Isend(from, (int)n, MPI_BYTE, pe, r.tag, data_comm, &sent[h][n_sent[h]++]);
        }
    }
    for (int h = 0; h < 2; h++)
        wait_all(sent[h], &n_sent[h]);
    shmpi_pe_set_add(&unacked, pe);
    atomic_store_explicit(&shmpi_device_net_unacked, true, memory_order_release);
}

struct get_batch {
    MPI_Request got[BATCH_CHUNKS];
    int count;
    size_t done; /* where the batch starts in the transfer */
    size_t len;
};

static void ask_batch(const char *routine, struct get_batch *g, int half, char *local,
                      bool device, size_t done, size_t len, int region, uint64_t offset, int pe)
{
    struct net_request r = {.kind = NET_GET, .region = (uint32_t)region, .tag = new_tag(),
                            .offset = offset + done, .nbytes = len};
    g->count = 0;
    g->done = done;
    g->len = len;
    for (size_t at = 0, k = 0; at < len; at += chunk, k++) {
        char *to = device ? staging_slot(routine, half, k) : local + done + at;
        MPI_Irecv(to, (int)min_size(chunk, len - at), MPI_BYTE, pe, r.tag, data_comm,
                  &g->got[g->count++]);
    }
    send_request(&r, pe);
}

static void get(const char *routine, char *local, size_t nbytes, int region, uint64_t offset,
                int pe)
{
    bool device = is_device_memory(local);
    size_t batch = BATCH_CHUNKS * chunk, n_batches = (nbytes + batch - 1) / batch;
    struct get_batch g[2];
    for (size_t b = 0; b < 2 && b < n_batches; b++)
        ask_batch(routine, &g[b], (int)b, local, device, b * batch,
                  min_size(batch, nbytes - b * batch), region, offset, pe);
    for (size_t b = 0; b < n_batches; b++) {
        int h = (int)(b % 2);
        struct get_batch *now = &g[h];
        for (int k = 0; k < now->count; k++) {
            shmpi_wait_request(&now->got[k]);
            if (device) {
                size_t at = (size_t)k * chunk;
                copy_on(routine, local + now->done + at, staging_slot(routine, h, (size_t)k),
                        min_size(chunk, now->len - at), origin_stream[k % AHEAD]);
            }
        }
        for (int k = 0; device && k < AHEAD; k++) /* the half's staging is free */
            sync_stream(routine, origin_stream[k]);
        size_t next = (b + 2) * batch;
        if (b + 2 < n_batches)
            ask_batch(routine, now, h, local, device, next, min_size(batch, nbytes - next),
                      region, offset, pe);
    }
}

void shmpi_device_net_transfer(const char *routine, bool is_put, void *local, size_t nbytes,
                               int region, uint64_t offset, int pe)
{
    need_channel(routine);
    shmpi_device_enter(routine);
    shmpi_mt_lock(&origin_mutex);
    if (is_put)
        put(routine, local, nbytes, region, offset, pe);
    else
        get(routine, local, nbytes, region, offset, pe);
    shmpi_mt_unlock(&origin_mutex);
}

void shmpi_device_net_signal(const char *routine, int region, uint64_t offset, uint64_t value,
                             int sig_op, int pe)
{
    need_channel(routine);
    struct net_request r = {.kind = NET_SIGNAL, .sig_op = (uint8_t)sig_op, .region = (uint32_t)region,
                            .offset = offset, .value = value};
    send_request(&r, pe);
    shmpi_pe_set_add(&unacked, pe);
    atomic_store_explicit(&shmpi_device_net_unacked, true, memory_order_release);
}

static void send_fence(int pe, uint64_t *answer, MPI_Request *req)
{
    struct net_request r = {.kind = NET_FENCE, .tag = new_tag()};
    MPI_Irecv(answer, (int)sizeof *answer, MPI_BYTE, pe, r.tag, data_comm, req);
    send_request(&r, pe);
}

void shmpi_device_net_quiet(void)
{
    shmpi_mt_lock(&fence_mutex);
    /* Cleared before the set is taken: a put marking a target after this
     * sets it again, and a later quiet fences that target. */
    atomic_store_explicit(&shmpi_device_net_unacked, false, memory_order_relaxed);
    shmpi_pe_set_wait_each(&unacked, send_fence);
    shmpi_mt_unlock(&fence_mutex);
}
