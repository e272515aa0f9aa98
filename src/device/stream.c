/*
 * stream.c - operations on CUDA streams (stream.h, docs/device-heap.md,
 * "Streams"): copies with cuMemcpyAsync through the peers' IPC mappings,
 * signals with cuStreamWriteValue64 (or shmpi's atomic-add kernel), waits
 * with cuStreamWaitValue64, all on the caller's stream.
 */
#include "shmpi.h"
#include "cuda_driver.h"
#include "device_heap.h"
#include "device_word.h"
#include "proxy.h"
#include "stream.h"
#include "wait.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Barrier counts: messages this PE sent to each world PE, and those it
 * waited for from each (stream.h). */
static uint64_t *sent, *awaited;


void shmpi_stream_enter(const char *routine, CUstream stream, bool signals)
{
    CUcontext mine = shmpi_device_enter_heap(routine, signals), of_stream = NULL;
    shmpi_cuda_check(routine, "cuStreamGetCtx", shmpi_cuda.stream_get_ctx(stream, &of_stream));
    if (SHMPI_UNLIKELY(of_stream != mine))
        shmpi_abort(routine,
                    "stream %p belongs to another CUDA context than the device heap's (GPU "
                    "%d): create it while that GPU's primary context is current",
                    (void *)stream, shmpi_device.ordinal);
}


/* ---- RMA and signals ------------------------------------------------------------------ */
/* A put or get on the stream: a copy through PE pe's mapping, or a request
 * to the stream proxy where there is none. */
static void transfer(const char *routine, bool is_put, void *dest, const void *source,
                     size_t len, int pe, CUstream stream)
{
    if (shmpi_proxy_needed(is_put ? dest : source, len, pe)) {
        struct shmpi_proxy_request req = {.routine = routine,
                                          .op = is_put ? SHMPI_PROXY_PUT : SHMPI_PROXY_GET,
                                          .dest = dest,
                                          .source = source,
                                          .len = len,
                                          .pe = pe};
        shmpi_proxy_enqueue(&req, stream);
    } else if (is_put) {
        shmpi_stream_copy(routine, shmpi_stream_peer(routine, "dest", dest, len, pe), source,
                          len, stream);
    } else {
        shmpi_stream_copy(routine, dest, shmpi_stream_peer(routine, "source", source, len, pe),
                          len, stream);
    }
}

void shmpi_stream_pull(const char *routine, void *to, const void *from, size_t len, int pe,
                       CUstream stream)
{
    transfer(routine, false, to, from, len, pe, stream);
}

void shmpi_stream_rma(const char *routine, bool is_put, void *dest, const void *source,
                      size_t nelems, size_t elem_size, int pe, CUstream stream)
{
    size_t len = shmpi_bytes(routine, nelems, elem_size);
    shmpi_stream_enter(routine, stream, false);
    transfer(routine, is_put, dest, source, len, pe, stream);
}


static void proxy_signal(const char *routine, uint64_t *sig_addr, uint64_t signal, int sig_op,
                         int pe, CUstream stream)
{
    struct shmpi_proxy_request req = {.routine = routine,
                                      .op = SHMPI_PROXY_SIGNAL,
                                      .pe = pe,
                                      .sig_addr = sig_addr,
                                      .signal = signal,
                                      .sig_op = sig_op};
    shmpi_proxy_enqueue(&req, stream);
}


void shmpi_stream_put_signal(const char *routine, void *dest, const void *source,
                             size_t nelems, size_t elem_size, uint64_t *sig_addr,
                             uint64_t signal, int sig_op, int pe, CUstream stream)
{
    size_t len = shmpi_bytes(routine, nelems, elem_size);
    shmpi_stream_enter(routine, stream, true);
    shmpi_device_check_signal(routine, sig_addr, sig_op);
    if (shmpi_proxy_needed(dest, len, pe) || shmpi_proxy_needed(sig_addr, sizeof *sig_addr, pe)) {
        struct shmpi_proxy_request req = {.routine = routine,
                                          .op = SHMPI_PROXY_PUT,
                                          .dest = dest,
                                          .source = source,
                                          .len = len,
                                          .pe = pe,
                                          .sig_addr = sig_addr,
                                          .signal = signal,
                                          .sig_op = sig_op};
        shmpi_stream_peer(routine, "dest", dest, len, shmpi_g.my_pe); /* symmetric? */
        shmpi_stream_peer(routine, "sig_addr", sig_addr, sizeof *sig_addr, shmpi_g.my_pe);
        shmpi_proxy_enqueue(&req, stream);
        return;
    }
    char *word = shmpi_device_signal_peer(routine, sig_addr, sig_op, pe);
    shmpi_stream_copy(routine, shmpi_stream_peer(routine, "dest", dest, len, pe), source, len,
                      stream);
    shmpi_device_signal_word(routine, word, signal, sig_op, stream); /* after the data, in stream order */
}

void shmpi_stream_signal(const char *routine, uint64_t *sig_addr, uint64_t signal, int sig_op,
                         int pe, CUstream stream)
{
    shmpi_stream_enter(routine, stream, true);
    shmpi_device_check_signal(routine, sig_addr, sig_op);
    if (shmpi_proxy_needed(sig_addr, sizeof *sig_addr, pe))
        proxy_signal(routine, sig_addr, signal, sig_op, pe, stream);
    else
        shmpi_device_signal_word(routine, shmpi_device_signal_peer(routine, sig_addr, sig_op, pe), signal, sig_op,
                    stream);
}

/* ---- waits and quiet ------------------------------------------------------------------ */
static const char *cmp_name(int cmp)
{
    switch (cmp) {
    case SHMEM_CMP_NE: return "SHMEM_CMP_NE";
    case SHMEM_CMP_LT: return "SHMEM_CMP_LT";
    case SHMEM_CMP_LE: return "SHMEM_CMP_LE";
    default: return NULL;
    }
}

/* A stream wait until `word` compares with cmp_value as `cmp` asks. */
static void wait_word(const char *routine, const char *word, int cmp, uint64_t cmp_value,
                      CUstream stream)
{
    unsigned flags = SHMPI_CU_STREAM_WAIT_VALUE_GEQ;
    uint64_t value = cmp_value;
    if (cmp == SHMEM_CMP_EQ) {
        flags = SHMPI_CU_STREAM_WAIT_VALUE_EQ;
    } else if (cmp == SHMEM_CMP_GT) {
        value = cmp_value + 1; /* the driver's GEQ is cyclic: GT is GEQ the next value */
    } else if (cmp != SHMEM_CMP_GE) {
        const char *name = cmp_name(cmp);
        if (name)
            shmpi_abort(routine,
                        "cmp %s cannot be waited for on a stream: the driver's stream waits "
                        "compare equal or greater-or-equal only; use SHMEM_CMP_EQ, "
                        "SHMEM_CMP_GE or SHMEM_CMP_GT",
                        name);
        shmpi_abort(routine, "cmp %d is not a comparison (SHMEM_CMP_EQ, _NE, _GT, _LE, _LT, "
                    "_GE)", cmp);
    }
    shmpi_cuda_check(routine, "cuStreamWaitValue64",
                     shmpi_cuda.stream_wait_value64(stream, (CUdeviceptr)(uintptr_t)word,
                                                    value, flags));
}

void shmpi_stream_wait(const char *routine, uint64_t *sig_addr, int cmp, uint64_t cmp_value,
                       CUstream stream)
{
    shmpi_stream_enter(routine, stream, true);
    wait_word(routine, shmpi_device_signal_peer(routine, sig_addr, SHMEM_SIGNAL_SET, shmpi_g.my_pe), cmp,
              cmp_value, stream);
}


static CUevent host_copies; /* recorded on shmpi's own stream by quiet on a stream */

void shmpi_stream_quiet(const char *routine, CUstream stream)
{
    shmpi_stream_enter(routine, stream, false);
    /* The stream's own copies complete in its order; the host routines' nbi
     * copies to the device heap run on shmpi's stream: wait for those. */
    if (shmpi_device_unsynced()) {
        shmpi_cuda_check(routine, "cuEventRecord",
                         shmpi_cuda.event_record(host_copies, shmpi_device_stream()));
        shmpi_cuda_check(routine, "cuStreamWaitEvent",
                         shmpi_cuda.stream_wait_event(stream, host_copies, 0));
    }
}

/* ---- barrier messages ------------------------------------------------------------------ */
void shmpi_stream_notify(const char *routine, int to, CUstream stream)
{
    uint64_t *mine = &shmpi_device.sync_words[shmpi_g.my_pe];
    if (shmpi_proxy_needed(mine, sizeof *mine, to)) { /* another machine's, or unmapped */
        proxy_signal(routine, mine, ++sent[to], SHMEM_SIGNAL_SET, to, stream);
        return;
    }
    char *word = shmpi_device_peer(mine, sizeof *mine, to);
    shmpi_cuda_check(routine, "cuStreamWriteValue64",
                     shmpi_cuda.stream_write_value64(stream, (CUdeviceptr)(uintptr_t)word,
                                                     ++sent[to], 0));
}

void shmpi_stream_await(const char *routine, int from, CUstream stream)
{
    shmpi_cuda_check(routine, "cuStreamWaitValue64",
                     shmpi_cuda.stream_wait_value64(
                         stream, (CUdeviceptr)(uintptr_t)&shmpi_device.sync_words[from],
                         ++awaited[from], SHMPI_CU_STREAM_WAIT_VALUE_GEQ));
}

/* ---- pinned staging and host functions --------------------------------------------------- */
struct staging {
    struct staging *next;
    size_t size;
    atomic_bool busy;
    char *data;
};
static struct staging *pool;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

void *shmpi_stream_staging(const char *routine, size_t size)
{
    pthread_mutex_lock(&pool_lock);
    struct staging *s = pool;
    while (s && (s->size < size || atomic_load(&s->busy)))
        s = s->next;
    if (!s) {
        void *data = NULL;
        CUresult result = shmpi_cuda.mem_alloc_host(&data, size ? size : 1);
        s = result == SHMPI_CUDA_SUCCESS ? malloc(sizeof *s) : NULL;
        if (!s) {
            pthread_mutex_unlock(&pool_lock);
            shmpi_cuda_check(routine, "cuMemAllocHost", result);
            shmpi_abort(routine, "out of memory for a staging record");
        }
        s->size = size ? size : 1;
        s->data = data;
        s->next = pool;
        pool = s;
    }
    atomic_store(&s->busy, true);
    pthread_mutex_unlock(&pool_lock);
    return s->data;
}

static void release(void *data)
{
    atomic_store((atomic_bool *)data, false);
}

void shmpi_stream_release(const char *routine, void *staging, CUstream stream)
{
    pthread_mutex_lock(&pool_lock);
    struct staging *s = pool;
    while (s && s->data != staging)
        s = s->next;
    pthread_mutex_unlock(&pool_lock);
    if (s)
        shmpi_stream_host_func(routine, release, &s->busy, stream);
}

void shmpi_stream_host_func(const char *routine, void (*fn)(void *data), void *data,
                            CUstream stream)
{
    shmpi_cuda_check(routine, "cuLaunchHostFunc", shmpi_cuda.launch_host_func(stream, fn, data));
}

/* ---- start-up and finalize ------------------------------------------------------------------ */
void shmpi_stream_init(const char *routine)
{
    sent = shmpi_xmalloc(routine, (size_t)shmpi_g.n_pes * sizeof *sent);
    awaited = shmpi_xmalloc(routine, (size_t)shmpi_g.n_pes * sizeof *awaited);
    memset(sent, 0, (size_t)shmpi_g.n_pes * sizeof *sent);
    memset(awaited, 0, (size_t)shmpi_g.n_pes * sizeof *awaited);
    shmpi_cuda_check(routine, "cuEventCreate",
                     shmpi_cuda.event_create(&host_copies, SHMPI_CU_EVENT_DISABLE_TIMING));
    shmpi_proxy_init(routine);
}

void shmpi_stream_fini(void)
{
    shmpi_proxy_fini();
    free(sent);
    free(awaited);
    sent = awaited = NULL;
    shmpi_cuda.event_destroy(host_copies);
    host_copies = NULL;
    while (pool) { /* the program synchronized its streams before shmem_finalize */
        struct staging *s = pool;
        pool = s->next;
        shmpi_cuda.mem_free_host(s->data);
        free(s);
    }
}
