/*
 * device_stream.c - operations on CUDA streams (shmemx_*_on_stream,
 * docs/device-heap.md "Streams"): RMA, put-with-signal, signal waits,
 * quiet, barriers and collectives on a stream, registered device memory,
 * SHMEMX_TEAM_NODE, SHMEMX_TEAM_SAME_MYPE_NODE and the late start of the device heap;
 * on one machine and on emulated nodes (tests/launch-nodes.sh), where other
 * machines' PEs are reached through the stream proxy.
 *
 * Runs against the CUDA driver named by SHMPI_CUDA_LIBRARY: by default the
 * fake of tests/fake_cuda.c (FAKE_CUDA_LIBRARY), whose streams are FIFOs
 * served by threads of their own and whose copies here are slowed down
 * (SHMPI_FAKE_CUDA_DELAY_US), so the test can see the ordering: enqueue
 * returns before the copies run, a stream wait holds the stream and not the
 * host, the data lands before the signal.  benchmarks/gpu-run.sh runs it on
 * a real GPU (SHMPI_CUDA_LIBRARY=libcuda.so.1), where the timing checks of
 * the fake are skipped.
 *
 * Arguments: "late" (the device heap started by shmemx_device_init after
 * shmem_init), or a misuse case for tests/device_errors.test: ne-wait,
 * signal-host, other-context, signal-add, no-memops; or "proxy" (every other
 * PE through the stream proxy), "proxy-queue1" (the same with a one-slot
 * queue), "ipc0" (SHMPI_DEVICE_IPC=0: no other PE's device memory mapped).
 */
#include <dlfcn.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"
#include "test_cuda.h"

#define N 32      /* elements per block */
#define K 16      /* blocks put back to back */
#define DELAY_US 1000

static CUresult (*cu_mem_alloc)(unsigned long long *ptr, size_t bytes);
static CUresult (*cu_mem_free)(unsigned long long ptr);
static CUresult (*cu_device_get)(int *device, int ordinal);
static CUresult (*cu_primary_ctx_retain)(void **ctx, int device);
static CUresult (*cu_ctx_set_current)(void *ctx);
static CUresult (*cu_ctx_get_current)(void **ctx);
static unsigned long (*fake_count)(const char *what);               /* NULL on a GPU */
static unsigned long (*fake_pending)(shmemx_stream_t stream);       /* NULL on a GPU */
static int me, npes;

static void load_driver(void)
{
    void *lib = test_cuda_open();
    TEST_CUDA_LOAD(lib, cu_mem_alloc, "cuMemAlloc_v2");
    TEST_CUDA_LOAD(lib, cu_mem_free, "cuMemFree_v2");
    TEST_CUDA_LOAD(lib, cu_device_get, "cuDeviceGet");
    TEST_CUDA_LOAD(lib, cu_primary_ctx_retain, "cuDevicePrimaryCtxRetain");
    TEST_CUDA_LOAD(lib, cu_ctx_set_current, "cuCtxSetCurrent");
    TEST_CUDA_LOAD(lib, cu_ctx_get_current, "cuCtxGetCurrent");
    *(void **)&fake_count = dlsym(lib, "fake_cuda_count");
    *(void **)&fake_pending = dlsym(lib, "fake_cuda_stream_pending");
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void to_host(void *host, const void *device, size_t bytes)
{
    CHECK(cu_memcpy((uintptr_t)host, (uintptr_t)device, bytes) == 0, "cuMemcpy to host");
}
static void to_device(void *device, const void *host, size_t bytes)
{
    CHECK(cu_memcpy((uintptr_t)device, (uintptr_t)host, bytes) == 0, "cuMemcpy to device");
    CHECK(cu_ctx_synchronize() == 0, "cuCtxSynchronize");
}
static void sync_stream(shmemx_stream_t s)
{
    CHECK(cu_stream_synchronize(s) == 0, "cuStreamSynchronize");
}

static long value(int pe, int k, int i)
{
    return (long)pe * 100000 + k * 100 + i + 1;
}

/* Whether the fake driver delays its copies (the timing checks need it). */
static int delay_on(void)
{
    const char *delay = getenv("SHMPI_FAKE_CUDA_DELAY_US");
    return fake_pending && delay && atoi(delay) >= DELAY_US;
}

/* Whether K puts enqueue without waiting: not where the stream proxy's queue
 * (SHMPI_STREAM_QUEUE) is too short for them, and the host waits for slots. */
static int queue_holds_k(void)
{
    const char *queue = getenv("SHMPI_STREAM_QUEUE");
    return !queue || !*queue || atoi(queue) > K;
}

/* ---- RMA: enqueue returns before the copies run; the barrier orders them ---------------- */
static void test_rma(shmemx_stream_t s)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    long *dev = shmemx_device_calloc(K * N, sizeof(long));
    static long src[K][N], back[K][N];
    for (int k = 0; k < K; k++)
        for (int i = 0; i < N; i++)
            src[k][i] = value(me, k, i);
    shmemx_barrier_all_on_stream(s);
    double t0 = now();
    for (int k = 0; k < K; k++)
        shmemx_long_put_on_stream(dev + k * N, src[k], N, right, s);
    double enqueue = now() - t0;
    if (delay_on() && queue_holds_k()) {
        /* A host that waited for each copy would take all K delays and leave at most one
         * copy pending; a loaded machine may slow the enqueue, but then copies stay pending. */
        unsigned long pending = fake_pending(s);
        CHECK(pending > 0, "the puts ran before the host got control back");
        CHECK(enqueue < K * DELAY_US * 1e-6 / 2 || pending >= K / 2, "%d puts took %.1f ms to "
              "enqueue (%d ms of copies), %lu still pending: the host waited for them", K,
              enqueue * 1e3, K * DELAY_US / 1000, pending);
    }
    shmemx_barrier_all_on_stream(s);
    sync_stream(s);
    long got[K * N];
    to_host(got, dev, sizeof got);
    for (int k = 0; k < K; k++)
        for (int i = 0; i < N; i++)
            CHECK(got[k * N + i] == value(left, k, i), "put block %d element %d is %ld, want "
                  "%ld", k, i, got[k * N + i], value(left, k, i));
    shmem_barrier_all(); /* every PE has checked before the gets and the next puts */
    /* get: the right neighbour's blocks (the values of this PE), nbi form too */
    for (int k = 0; k < K; k++)
        (k % 2 ? shmemx_long_get_nbi_on_stream : shmemx_long_get_on_stream)(back[k], dev + k * N,
                                                                          N, right, s);
    shmemx_getmem_on_stream(back[0], dev, 8, right, s); /* mem form, same bytes */
    sync_stream(s);
    for (int k = 0; k < K; k++)
        for (int i = 0; i < N; i++)
            CHECK(back[k][i] == value(me, k, i), "get block %d element %d is %ld", k, i,
                  back[k][i]);
    shmem_barrier_all(); /* every get is done before the put below overwrites */
    /* sized forms */
    long one = value(me, 99, 0);
    shmemx_put64_on_stream(dev, &one, 1, right, s);
    shmemx_barrier_all_on_stream(s);
    sync_stream(s);
    to_host(got, dev, sizeof(long));
    CHECK(got[0] == value(left, 99, 0), "put64 gave %ld", got[0]);
    /* a pageable source is the driver's from the call (the proxy copies it then) */
    long reused = value(me, 98, 0);
    shmemx_long_put_on_stream(dev + 2 * N, &reused, 1, right, s);
    reused = -1;
    shmemx_barrier_all_on_stream(s);
    sync_stream(s);
    to_host(got, dev + 2 * N, sizeof(long));
    CHECK(got[0] == value(left, 98, 0), "a put's pageable source changed after the call: "
          "%ld arrived, want %ld", got[0], value(left, 98, 0));
    /* host nbi copies into the device heap, then quiet on the stream */
    shmem_long_put_nbi(dev + N, &one, 1, right);
    shmemx_quiet_on_stream(s);
    shmemx_barrier_all_on_stream(s);
    sync_stream(s);
    shmem_quiet();
    to_host(got, dev + N, sizeof(long));
    CHECK(got[0] == value(left, 99, 0), "put_nbi then quiet_on_stream gave %ld", got[0]);
    shmem_barrier_all();
    /* A host zero-fill of this PE's own word has landed when shmem_putmem returns (or
     * shmem_quiet after shmem_putmem_nbi): the left neighbour's signal on its stream
     * after the barrier is not erased (on the fake the fill lands late, the stream
     * write at once).  Then quiet on the stream: it puts the host's nbi copies
     * before the stream's later work. */
    uint64_t *word = shmemx_device_calloc(1, sizeof(uint64_t));
    static const uint64_t zero;
    for (int way = 0; way < 3; way++) {
        static const char *const ways[] = {"shmem_putmem", "shmem_putmem_nbi + shmem_quiet",
                                           "shmem_putmem_nbi + shmemx_quiet_on_stream"};
        if (way == 0)
            shmem_putmem(word, &zero, sizeof zero, me);
        else
            shmem_putmem_nbi(word, &zero, sizeof zero, way == 1 ? me : right);
        if (way == 1)
            shmem_quiet();
        if (way == 2)
            shmemx_quiet_on_stream(s);
        else
            shmem_barrier_all();
        shmemx_signal_op_on_stream(word, (uint64_t)(77 + me + way), SHMEM_SIGNAL_SET, right, s);
        sync_stream(s);
        shmem_barrier_all();
        uint64_t seen = shmem_signal_fetch(word);
        CHECK(seen == (uint64_t)(77 + left + way), "zero-fill by %s, then a signal on a "
              "stream: the word is %llu, want %d (the fill landed after the signal)", ways[way],
              (unsigned long long)seen, 77 + left + way);
        shmem_barrier_all();
    }
    shmemx_device_free(word);
    shmemx_device_free(dev);
}

/* ---- a stream wait holds the stream, not the host; data before signal ------------------- */
static void test_signals(shmemx_stream_t s)
{
    uint64_t *sig = shmemx_device_calloc(2, sizeof(uint64_t));
    long *data = shmemx_device_calloc(K * N, sizeof(long));
    long *mark = shmemx_device_calloc(1, sizeof(long));
    if (npes >= 2) {
        if (me == 0) {
            long marker = 4242, seen;
            shmemx_signal_wait_until_on_stream(sig, SHMEM_CMP_EQ, 7, s);
            shmemx_long_put_on_stream(mark, &marker, 1, 0, s); /* to itself, after the wait */
            if (fake_pending && delay_on()) { /* the host is free, the stream is held */
                usleep(20000);
                to_host(&seen, mark, sizeof seen);
                CHECK(seen == 0 && fake_pending(s) > 0, "the copy after the wait ran before "
                      "the signal (mark %ld, %lu pending)", seen, fake_pending(s));
            }
            shmem_barrier_all(); /* PE 1 signals after this */
            sync_stream(s);
            to_host(&seen, mark, sizeof seen);
            CHECK(seen == marker, "after the signal the mark is %ld", seen);
        } else {
            shmem_barrier_all();
            if (me == 1) {
                shmemx_signal_op_on_stream(sig, 7, SHMEM_SIGNAL_SET, 0, s);
                sync_stream(s);
            }
        }
    }
    shmem_barrier_all();
    /* put_signal: K slow blocks, then the signal; the target waits on its stream and
     * copies what arrived: all of it */
    static long src[K * N], got[K * N];
    for (int i = 0; i < K * N; i++)
        src[i] = value(me, 1, i);
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    shmemx_long_put_signal_on_stream(data, src, K * N, sig + 1, 1, SHMEM_SIGNAL_SET, right, s);
    shmemx_signal_wait_until_on_stream(sig + 1, SHMEM_CMP_GE, 1, s);
    shmemx_long_get_on_stream(got, data, K * N, me, s);
    sync_stream(s);
    for (int i = 0; i < K * N; i++)
        CHECK(got[i] == value(left, 1, i), "element %d is %ld after the signal, want %ld", i,
              got[i], value(left, 1, i));
    /* SIGNAL_ADD from every PE, then GT */
    shmemx_barrier_all_on_stream(s);
    shmemx_signal_op_on_stream(sig, 1, SHMEM_SIGNAL_ADD, 0, s);
    shmemx_putmem_signal_nbi_on_stream(data, src, 8, sig, 1, SHMEM_SIGNAL_ADD, 0, s);
    if (me == 0) {
        uint64_t want = (npes >= 2 ? 7 : 0) + 2 * (uint64_t)npes, total;
        shmemx_signal_wait_until_on_stream(sig, SHMEM_CMP_GT, want - 1, s);
        sync_stream(s);
        to_host(&total, sig, sizeof total);
        CHECK(total == want, "the added signal is %llu, want %llu", (unsigned long long)total,
              (unsigned long long)want);
    }
    sync_stream(s);
    shmem_barrier_all();
    /* the host routines on device words: put_signal, signal_add/set, signal_fetch,
     * signal_wait_until and wait_until/test, through the driver */
    uint64_t base = shmem_signal_fetch(sig);
    shmem_barrier_all();
    shmem_putmem_signal(data, src, 8, sig, 1, SHMEM_SIGNAL_ADD, 0);
    shmem_signal_add(sig, 2, 0);
    if (me == 0) {
        uint64_t seen = shmem_signal_wait_until(sig, SHMEM_CMP_GE, base + 3 * (uint64_t)npes);
        CHECK(seen == base + 3 * (uint64_t)npes && shmem_signal_fetch(sig) == seen,
              "host signals on a device word: %llu, want %llu", (unsigned long long)seen,
              (unsigned long long)(base + 3 * (uint64_t)npes));
        shmem_uint64_wait_until(sig, SHMEM_CMP_NE, base);
        CHECK(shmem_uint64_test(sig, SHMEM_CMP_EQ, seen) == 1 &&
                  shmem_uint64_test(sig, SHMEM_CMP_LT, seen) == 0,
              "shmem_uint64_test on a device word");
    }
    shmem_barrier_all();
    shmem_signal_set(sig + 1, 5, (me + 1) % npes);
    shmem_uint64_wait_until(sig + 1, SHMEM_CMP_EQ, 5);
    shmem_barrier_all();
    shmemx_device_free(mark);
    shmemx_device_free(data);
    shmemx_device_free(sig);
}

/* ---- collectives, each against a host reference ----------------------------------------- */
static void check_longs(const char *what, const long *dev, const long *want, int n)
{
    long got[4 * N * 8];
    to_host(got, dev, (size_t)n * sizeof(long));
    for (int i = 0; i < n; i++)
        CHECK(got[i] == want[i], "%s: element %d is %ld, want %ld", what, i, got[i], want[i]);
}

static void test_team(shmem_team_t team, const char *name, shmemx_stream_t s, long *src,
                      long *dst)
{
    int tme = shmem_team_my_pe(team), tn = shmem_team_n_pes(team);
    long host[N * 8], want[N * 8];
    char what[96];
    /* broadcast from the first and the last PE */
    for (int root = 0; root < tn; root += tn > 1 ? tn - 1 : 1) {
        for (int i = 0; i < N; i++)
            host[i] = value(tme, 2, i);
        to_device(src, host, N * sizeof(long));
        CHECK(shmemx_long_broadcast_on_stream(team, dst, src, N, root, s) == 0, "broadcast");
        sync_stream(s);
        for (int i = 0; i < N; i++)
            want[i] = value(root, 2, i);
        snprintf(what, sizeof what, "%s broadcast from %d", name, root);
        check_longs(what, dst, want, N);
    }
    /* fcollect */
    for (int i = 0; i < N; i++)
        host[i] = value(tme, 3, i);
    to_device(src, host, N * sizeof(long));
    shmemx_long_fcollect_on_stream(team, dst, src, N, s);
    sync_stream(s);
    for (int p = 0; p < tn; p++)
        for (int i = 0; i < N; i++)
            want[p * N + i] = value(p, 3, i);
    snprintf(what, sizeof what, "%s fcollect", name);
    check_longs(what, dst, want, tn * N);
    /* alltoall: block p of PE j goes to PE p's block j */
    for (int p = 0; p < tn; p++)
        for (int i = 0; i < 4; i++)
            host[p * 4 + i] = value(tme, p, i);
    to_device(src, host, (size_t)tn * 4 * sizeof(long));
    shmemx_long_alltoall_on_stream(team, dst, src, 4, s);
    sync_stream(s);
    for (int p = 0; p < tn; p++)
        for (int i = 0; i < 4; i++)
            want[p * 4 + i] = value(p, tme, i);
    snprintf(what, sizeof what, "%s alltoall", name);
    check_longs(what, dst, want, tn * 4);
    /* reductions: sum, max, min, prod of longs; sum of doubles; xor of uint64 */
    for (int i = 0; i < N; i++)
        host[i] = (tme + 1) * (i % 3 + 1) - (i % 2 ? 2 * tme : 0);
    to_device(src, host, N * sizeof(long));
    struct {
        const char *op;
        int (*fn)(shmem_team_t, long *, const long *, size_t, shmemx_stream_t);
    } ops[] = {{"sum", shmemx_long_sum_reduce_on_stream},
               {"max", shmemx_long_max_reduce_on_stream},
               {"min", shmemx_long_min_reduce_on_stream},
               {"prod", shmemx_long_prod_reduce_on_stream}};
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        CHECK(ops[o].fn(team, dst, src, N, s) == 0, "%s reduce", ops[o].op);
        sync_stream(s);
        for (int i = 0; i < N; i++) {
            long acc = 0;
            for (int p = 0; p < tn; p++) {
                long v = (p + 1) * (i % 3 + 1) - (i % 2 ? 2 * p : 0);
                acc = p == 0 ? v
                      : o == 0 ? acc + v
                      : o == 1 ? (v > acc ? v : acc)
                      : o == 2 ? (v < acc ? v : acc)
                               : acc * v;
            }
            want[i] = acc;
        }
        snprintf(what, sizeof what, "%s %s reduce", name, ops[o].op);
        check_longs(what, dst, want, N);
    }
    double dh[N], dgot[N];
    for (int i = 0; i < N; i++)
        dh[i] = 0.5 * (tme + 1) + i;
    to_device(src, dh, sizeof dh);
    shmemx_double_sum_reduce_on_stream(team, (double *)dst, (double *)src, N, s);
    sync_stream(s);
    to_host(dgot, dst, sizeof dgot);
    for (int i = 0; i < N; i++)
        CHECK(dgot[i] == 0.25 * tn * (tn + 1) + (double)tn * i, "%s double sum %d: %g", name, i,
              dgot[i]);
    uint64_t uh[N], ugot[N];
    for (int i = 0; i < N; i++)
        uh[i] = (uint64_t)(tme + 1) << (i % 60);
    to_device(src, uh, sizeof uh);
    shmemx_uint64_xor_reduce_on_stream(team, (uint64_t *)dst, (uint64_t *)src, N, s);
    sync_stream(s);
    to_host(ugot, dst, sizeof ugot);
    for (int i = 0; i < N; i++) {
        uint64_t x = 0;
        for (int p = 0; p < tn; p++)
            x ^= (uint64_t)(p + 1) << (i % 60);
        CHECK(ugot[i] == x, "%s uint64 xor %d", name, i);
    }
    /* half and bfloat16 sums of small integers (exact) */
    uint16_t hh[N], hgot[N];
    for (int i = 0; i < N; i++)
        hh[i] = (uint16_t)(0x3c00 + (tme << 10)) ; /* 1.0, 2.0, 4.0, ... (exponent + tme) */
    to_device(src, hh, sizeof hh);
    shmemx_half_sum_reduce_on_stream(team, (shmemx_half_t *)dst, (shmemx_half_t *)src, N, s);
    sync_stream(s);
    to_host(hgot, dst, sizeof hgot);
    float hsum = (float)((1 << tn) - 1); /* 1 + 2 + ... + 2^(tn-1) */
    uint32_t fbits;
    memcpy(&fbits, &hsum, sizeof fbits);
    uint16_t hwant = (uint16_t)(((fbits >> 23) - 112) << 10 | (fbits >> 13 & 0x3ff));
    for (int i = 0; i < N; i++)
        CHECK(hgot[i] == hwant, "%s half sum %d: 0x%04x, want 0x%04x", name, i, hgot[i], hwant);
    for (int i = 0; i < N; i++)
        hh[i] = (uint16_t)(0x3f80 + (tme << 7)); /* bfloat16 1.0, 2.0, 4.0, ... */
    to_device(src, hh, sizeof hh);
    shmemx_bfloat16_max_reduce_on_stream(team, (shmemx_bfloat16_t *)dst,
                                         (shmemx_bfloat16_t *)src, N, s);
    sync_stream(s);
    to_host(hgot, dst, sizeof hgot);
    for (int i = 0; i < N; i++)
        CHECK(hgot[i] == (uint16_t)(0x3f80 + ((tn - 1) << 7)), "%s bfloat16 max %d: 0x%04x",
              name, i, hgot[i]);
    /* reducescatter: PE p gets the sum of every PE's block p */
    for (int p = 0; p < tn; p++)
        for (int i = 0; i < 4; i++)
            host[p * 4 + i] = value(tme, p, i);
    to_device(src, host, (size_t)tn * 4 * sizeof(long));
    shmemx_long_sum_reducescatter_on_stream(team, dst, src, 4, s);
    sync_stream(s);
    for (int i = 0; i < 4; i++) {
        want[i] = 0;
        for (int p = 0; p < tn; p++)
            want[i] += value(p, tme, i);
    }
    snprintf(what, sizeof what, "%s sum reducescatter", name);
    check_longs(what, dst, want, 4);
    CHECK(shmemx_team_sync_on_stream(team, s) == 0 && shmemx_barrier_on_stream(team, s) == 0,
          "team barriers");
    sync_stream(s);
}

/* Collective over all PEs (the allocations); the team's members test. */
static void test_collectives(shmem_team_t team, const char *name, shmemx_stream_t s)
{
    long *src = shmemx_device_calloc(N * 8, sizeof(long));
    long *dst = shmemx_device_calloc(N * 8, sizeof(long));
    if (team != SHMEM_TEAM_INVALID)
        test_team(team, name, s, src, dst);
    shmem_barrier_all();
    shmemx_device_free(dst);
    shmemx_device_free(src);
}

/* ---- registered device memory ---------------------------------------------------------- */
static void test_register(shmemx_stream_t s)
{
    unsigned long long mem = 0;
    CHECK(cu_mem_alloc(&mem, 4096) == 0, "cuMemAlloc");
    long *mine = (long *)(uintptr_t)(mem + 512); /* not the allocation's start */
    CHECK(shmemx_device_register(mine, 1024) == 0, "register");
    long v = value(me, 7, 7), got = 0;
    shmemx_long_put_on_stream(mine, &v, 1, (me + 1) % npes, s);
    shmemx_sync_all_on_stream(s);
    sync_stream(s);
    to_host(&got, mine, sizeof got);
    CHECK(got == value((me + npes - 1) % npes, 7, 7), "put into a registered range gave %ld",
          got);
    /* the host's waits and tests read a registered word through the driver too */
    shmem_long_wait_until(mine, SHMEM_CMP_EQ, got);
    CHECK(shmem_long_test(mine, SHMEM_CMP_EQ, got) == 1, "shmem_long_test on a registered word");
    CHECK(shmem_ptr(mine, me) == mine, "shmem_ptr of a registered range");
    CHECK(shmemx_device_unregister(mine) == 0, "unregister");
    CHECK(cu_mem_free(mem) == 0, "cuMemFree");
}

static void misuse(const char *what, shmemx_stream_t s)
{
    uint64_t *sig = shmemx_device_calloc(1, sizeof(uint64_t));
    static uint64_t host_sig;
    if (!strcmp(what, "ne-wait"))
        shmemx_signal_wait_until_on_stream(sig, SHMEM_CMP_NE, 0, s);
    else if (!strcmp(what, "signal-host"))
        shmemx_signal_op_on_stream(&host_sig, 1, SHMEM_SIGNAL_SET, 0, s);
    else if (!strcmp(what, "signal-add"))
        shmemx_signal_op_on_stream(sig, 1, SHMEM_SIGNAL_ADD, 0, s);
    else if (!strcmp(what, "no-memops"))
        shmemx_barrier_all_on_stream(s);
    else if (!strcmp(what, "other-context")) {
        void *mine = NULL, *other = NULL;
        int device = 0;
        CHECK(cu_ctx_get_current(&mine) == 0 && cu_device_get(&device, 1) == 0 &&
                  cu_primary_ctx_retain(&other, device) == 0 && cu_ctx_set_current(other) == 0,
              "a context on GPU 1 (SHMPI_FAKE_CUDA_DEVICES=2)");
        shmemx_stream_t theirs;
        CHECK(cu_stream_create(&theirs, 1) == 0, "cuStreamCreate");
        cu_ctx_set_current(mine);
        shmemx_putmem_on_stream(sig, &host_sig, 8, 0, theirs);
    }
    sync_stream(s);
    shmem_barrier_all();
    CHECK(0, "misuse case %s did not end the job", what);
}

int main(int argc, char **argv)
{
    int late = argc > 1 && !strcmp(argv[1], "late");
    /* "proxy": every other PE through the stream proxy (mapped or not);
     * "ipc0": no PE's device memory mapped, so every other PE is reached as
     * across nodes (the host routines staged, the stream ones proxied). */
    int proxy = argc > 1 && !strncmp(argv[1], "proxy", 5);
    if (argc > 1 && !strcmp(argv[1], "proxy-queue1")) /* a full queue: the host waits */
        setenv("SHMPI_STREAM_QUEUE", "1", 1);
    int ipc0 = argc > 1 && !strcmp(argv[1], "ipc0");
    if (proxy)
        setenv("SHMPI_STREAM_PROXY", "all", 1);
    if (ipc0)
        setenv("SHMPI_DEVICE_IPC", "0", 1);
    const char *ipc = getenv("SHMPI_DEVICE_IPC"), *proxy_env = getenv("SHMPI_STREAM_PROXY");
    ipc0 = ipc && !strcmp(ipc, "0"); /* also set from outside, with another argument */
    proxy = proxy_env && !strcmp(proxy_env, "all");
#ifdef FAKE_CUDA_LIBRARY
    setenv("SHMPI_CUDA_LIBRARY", FAKE_CUDA_LIBRARY, 0);
    setenv("SHMPI_FAKE_CUDA_DELAY_US", "1000", 0); /* DELAY_US */
#endif
    setenv("SHMPI_DEVICE_HEAP_SIZE", late ? "0" : "4m", late);
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (late) {
        CHECK(!shmemx_device_heap_available() && shmemx_device_ordinal() == -1, "a heap at start");
        CHECK(shmemx_device_init(-1, 4 << 20) == 0, "shmemx_device_init");
        CHECK(shmemx_device_init(-1, 0) == 0, "a second shmemx_device_init");
    }
    CHECK(shmemx_device_heap_available() && shmemx_device_ordinal() >= 0, "no device heap");
    load_driver();
    /* Emulated nodes (tests/launch-nodes.sh): SHMPI_TEST_PPN PEs a node, in blocks. */
    const char *ppn_text = getenv("SHMPI_TEST_PPN");
    int ppn = ppn_text && atoi(ppn_text) > 0 ? atoi(ppn_text) : npes;
    CHECK(shmem_team_n_pes(SHMEMX_TEAM_NODE) == ppn &&
              shmem_team_my_pe(SHMEMX_TEAM_NODE) == me % ppn,
          "SHMEMX_TEAM_NODE has %d PEs, want %d", shmem_team_n_pes(SHMEMX_TEAM_NODE), ppn);
    shmemx_stream_t s;
    CHECK(cu_stream_create(&s, 1) == 0, "cuStreamCreate");
    if (argc > 1 && !late && strncmp(argv[1], "proxy", 5) && strcmp(argv[1], "ipc0"))
        misuse(argv[1], s);
    test_rma(s);
    test_signals(s);
    test_collectives(SHMEM_TEAM_WORLD, "world", s);
    test_collectives(SHMEMX_TEAM_NODE, "node", s);
    /* The PEs of this index on their node: one per node. */
    CHECK(shmem_team_n_pes(SHMEMX_TEAM_SAME_MYPE_NODE) == npes / ppn &&
              shmem_team_translate_pe(SHMEMX_TEAM_SAME_MYPE_NODE, 0, SHMEM_TEAM_WORLD) ==
                  me % ppn,
          "SHMEMX_TEAM_SAME_MYPE_NODE has %d PEs", shmem_team_n_pes(SHMEMX_TEAM_SAME_MYPE_NODE));
    test_collectives(SHMEMX_TEAM_SAME_MYPE_NODE, "same mype node", s);
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    if (npes > 2) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd);
        test_collectives(odd, "odd PEs", s);
        if (odd != SHMEM_TEAM_INVALID)
            shmem_team_destroy(odd);
    }
    test_register(s);
    /* SHMEM_SIGNAL_ADD goes to PE 0: the kernel runs there where the adds of
     * others come through the network (their server applies them). */
    int remote_adds = ipc0 || ppn < npes;
    if (fake_count)
        CHECK(fake_count("writes") > 0 && fake_count("waits") > 0 &&
                  (fake_count("kernels") > 0 || (remote_adds && me != 0)),
              "stream operations missing: writes %lu, waits %lu, kernels %lu",
              fake_count("writes"), fake_count("waits"), fake_count("kernels"));
    /* The proxy's queue words: written and waited on by the stream where some
     * other PE's device memory is not mapped here (another node, ipc0) or
     * SHMPI_STREAM_PROXY=all; never otherwise. */
    if (fake_count && (proxy || ipc0 || ppn < npes) && npes > 1)
        CHECK(fake_count("mapped_memops") > 0, "no stream operation went through the proxy");
    if (fake_count && !proxy && !ipc0 && ppn == npes)
        CHECK(fake_count("mapped_memops") == 0, "%lu stream operations on mapped host memory "
              "without a need for the proxy", fake_count("mapped_memops"));
    sync_stream(s);
    cu_stream_destroy(s);
    test_passed(late ? "device_stream late" : "device_stream");
    shmem_finalize();
    return 0;
}
