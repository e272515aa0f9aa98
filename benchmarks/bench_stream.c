/*
 * bench_stream.c - shmpi's operations on CUDA streams (docs/device-heap.md,
 * "Streams") against the raw driver calls they stand for,
 * on the same stream and the same IPC mappings, in the same run:
 *
 *   RMA (2 PEs: PE 0 to and from PE 1's device heap; the local buffer is a
 *   device-heap block) at 8 B, 64 KiB, 1 MiB and 64 MiB:
 *     put        shmemx_putmem_on_stream          | cuMemcpyAsync to shmem_ptr(dest, 1)
 *     get        shmemx_getmem_on_stream          | cuMemcpyAsync from shmem_ptr(src, 1)
 *     put_signal shmemx_putmem_signal_on_stream   | the copy + cuStreamWriteValue64_v2
 *   (a) enqueue: host time per call, many calls back to back (then one
 *       synchronize, not timed); target shmpi <= raw + 0.3 us;
 *   (b) done: per call, the call + cuStreamSynchronize; target 0.95-1.05x.
 *   ping-pong (2 PEs): put_signal + signal_wait_until_on_stream on both
 *     streams | the copy + cuStreamWriteValue64_v2 + cuStreamWaitValue64_v2;
 *     per round trip, the hosts only enqueue; target <= 1.05x.
 *   barrier (any PE count): shmemx_barrier_all_on_stream + cuStreamSynchronize
 *     | the same dissemination of raw stream writes and waits; target <= 1.2x.
 *   collectives on a stream (any PE count) at 8 B, 64 KiB, 1 MiB per block:
 *     broadcastmem, fcollectmem, alltoallmem, int64 sum reduce, each + a
 *     synchronize | the host collective on the same device-heap buffers
 *     (staged through host memory, blocking); the speed-up, no target.
 *
 * Medians of REPS runs (shmpi and raw runs alternate).  Prints the command
 * line, the machine (GPU name from cuDeviceGetName) and markdown tables with
 * PASS/FAIL per target; the last line counts them.  Needs
 * SHMPI_DEVICE_HEAP_SIZE (256m for 64 MiB rows at 2 PEs: larger sizes are
 * dropped when the heap is too small, with a note); the driver is
 * SHMPI_CUDA_LIBRARY (libcuda.so.1 by default), or tests/fake_cuda.c without a
 * GPU, where the times mean nothing.  A watchdog ends a PE that waits more
 * than 60 s for any step.  benchmarks/gpu-run.sh runs it.
 *
 * usage: bench_stream [-r REPS] [-m MAX_BYTES] [-q]   (-q: fewer calls per run)
 */
#include "bench_stats.h"

#include <dlfcn.h>
#include <shmem.h>
#include <shmemx.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
static struct {
    CUresult (*memcpy)(CUdeviceptr, CUdeviceptr, size_t);
    CUresult (*memcpy_async)(CUdeviceptr, CUdeviceptr, size_t, void *);
    CUresult (*stream_create)(void **, unsigned);
    CUresult (*stream_sync)(void *);
    CUresult (*write64)(void *, CUdeviceptr, unsigned long long, unsigned);
    CUresult (*wait64)(void *, CUdeviceptr, unsigned long long, unsigned);
    CUresult (*device_get)(int *, int);
    CUresult (*device_get_name)(char *, int, int);
    CUresult (*ctx_synchronize)(void);
} cu;
static void *stream;
static int me, npes, reps = 5, quick, passed, failed;
static const char *step = "start";
enum { WAIT_GEQ = 0, WATCHDOG_S = 60 };

static void on_alarm(int sig)
{
    (void)sig;
    char line[200];
    int n = snprintf(line, sizeof line, "bench_stream: PE %d: no progress for %d s in %s\n", me,
                     WATCHDOG_S, step);
    if (write(2, line, (size_t)n) < 0) {
    }
    _exit(1);
}

static void enter(const char *what)
{
    step = what;
    alarm(WATCHDOG_S);
}

static void check(const char *call, CUresult status)
{
    if (status != 0) {
        fprintf(stderr, "bench_stream: PE %d: %s failed: CUDA error %d (in %s)\n", me, call,
                status, step);
        shmem_global_exit(1);
    }
}

static void sync_stream(void)
{
    check("cuStreamSynchronize", cu.stream_sync(stream));
}

static const char *verdict(int ok)
{
    ok ? passed++ : failed++;
    return ok ? "PASS" : "FAIL";
}

/* A table of one row: shmpi's time s against raw's time w, target s / w <= limit. */
static void ratio_table(const char *what, double s, double w, double limit)
{
    printf("| what | shmpi | raw | ratio | target | verdict |\n|---|---:|---:|---:|---|---|\n");
    printf("| %s | %.2f | %.2f | %.2fx | <= %gx | %s |\n", what, s, w, s / w, limit,
           verdict(s / w <= limit));
    fflush(stdout);
}

static void size_name(char *buf, size_t len, size_t n)
{
    if (n >= (1 << 20))
        snprintf(buf, len, "%zu MiB", n >> 20);
    else if (n >= 1024)
        snprintf(buf, len, "%zu KiB", n >> 10);
    else
        snprintf(buf, len, "%zu B", n);
}

/* ---- RMA ------------------------------------------------------------------------------ */
enum op { PUT, GET, PUT_SIGNAL };
static const char *const op_names[] = {"put", "get", "put_signal"};
static char *remote, *local, *peer_remote; /* dev block (PE 1's), local block, PE 1's mapped */
static uint64_t *sig, *peer_sig, sig_value;

static void rma_call(enum op op, int raw, size_t n)
{
    if (!raw) {
        if (op == PUT)
            shmemx_putmem_on_stream(remote, local, n, 1, stream);
        else if (op == GET)
            shmemx_getmem_on_stream(local, remote, n, 1, stream);
        else
            shmemx_putmem_signal_on_stream(remote, local, n, sig, ++sig_value, SHMEM_SIGNAL_SET,
                                           1, stream);
        return;
    }
    if (op == GET)
        check("cuMemcpyAsync", cu.memcpy_async((uintptr_t)local, (uintptr_t)peer_remote, n, stream));
    else
        check("cuMemcpyAsync", cu.memcpy_async((uintptr_t)peer_remote, (uintptr_t)local, n, stream));
    if (op == PUT_SIGNAL)
        check("cuStreamWriteValue64", cu.write64(stream, (uintptr_t)peer_sig, ++sig_value, 0));
}

/* Time per call of `iters` calls: enqueue only (then an untimed synchronize), or each
 * call followed by a synchronize. */
static double rma_time(enum op op, int raw, size_t n, int iters, int enqueue_only)
{
    double start = bench_now_us();
    for (int i = 0; i < iters; i++) {
        rma_call(op, raw, n);
        if (!enqueue_only)
            sync_stream();
    }
    double t = (bench_now_us() - start) / iters;
    if (enqueue_only)
        sync_stream();
    return t;
}

struct rma_case {
    enum op op;
    size_t n;
    int enq_iters, done_iters;
};

/* Variants 0 and 1 shmpi's, 2 and 3 raw's: an enqueue run (even), a done run (odd). */
static double rma_run(void *arg, int variant)
{
    const struct rma_case *c = arg;
    int raw = variant / 2;
    if (variant % 2)
        return rma_time(c->op, raw, c->n, c->done_iters, 0);
    return rma_time(c->op, raw, c->n, c->enq_iters, 1);
}

static void rma_rows(size_t max)
{
    static const size_t sizes[] = {8, 64 << 10, 1 << 20, 64 << 20};
    if (me == 0) {
        printf("\n## RMA on a stream, PE 0 <-> PE 1's device heap (local: device heap); us per "
               "call, median of %d runs\n",
               reps);
        printf("raw: cuMemcpyAsync through shmem_ptr's IPC mapping (+ cuStreamWriteValue64_v2 "
               "for put_signal) on the same stream. enqueue target: shmpi <= raw + 0.3 us; "
               "done (call + cuStreamSynchronize) target: 0.95-1.05x\n\n");
        printf("| op | bytes | enq shmpi | enq raw | enq +us | enq | done shmpi | done raw | "
               "ratio | done | GB/s |\n");
        printf("|---|---:|---:|---:|---:|---|---:|---:|---:|---|---:|\n");
    }
    for (int op = PUT; op <= PUT_SIGNAL; op++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes && sizes[s] <= max; s++) {
            size_t n = sizes[s];
            enter(op_names[op]);
            if (me == 0) {
                struct rma_case c = {op, n, n <= 65536 ? 200 : n <= (1 << 20) ? 50 : 4,
                                     n <= 65536 ? 100 : n <= (1 << 20) ? 20 : 3};
                if (quick)
                    c.enq_iters = c.enq_iters / 4 + 1, c.done_iters = c.done_iters / 4 + 1;
                for (int raw = 0; raw < 2; raw++) /* warm */
                    rma_time(op, raw, n, 2, 0);
                double t[4 * BENCH_MAX_REPS];
                bench_rounds(rma_run, &c, 4, reps, t);
                double es = bench_median(t, reps), er = bench_median(t + 2 * reps, reps);
                double ds = bench_median(t + reps, reps), dr = bench_median(t + 3 * reps, reps);
                double ratio = ds / dr;
                char name[32];
                size_name(name, sizeof name, n);
                printf("| %s | %s | %.2f | %.2f | %+.2f | %s | %.2f | %.2f | %.2fx | %s | %.2f |\n",
                       op_names[op], name, es, er, es - er, verdict(es <= er + 0.3), ds, dr,
                       ratio, verdict(ratio >= 0.95 && ratio <= 1.05), n / ds / 1e3);
                fflush(stdout);
            }
            shmem_barrier_all();
        }
}

/* ---- ping-pong ------------------------------------------------------------------------ */
#define BATCH 10
static uint64_t *pp_sig;   /* [0]: shmpi's, [1]: raw's; each PE waits on its own */
static char *pp_data;      /* 8 bytes */

static void pingpong_batch(int raw, uint64_t base)
{
    uint64_t *mine = &pp_sig[raw], *theirs = shmem_ptr(&pp_sig[raw], 1 - me);
    char *their_data = shmem_ptr(pp_data, 1 - me);
    for (uint64_t i = base + 1; i <= base + BATCH; i++) {
        int send_first = me == 0;
        for (int half = 0; half < 2; half++) {
            if ((half == 0) == send_first) { /* send */
                if (!raw)
                    shmemx_putmem_signal_on_stream(pp_data, local, 8, &pp_sig[raw], i,
                                                   SHMEM_SIGNAL_SET, 1 - me, stream);
                else {
                    check("cuMemcpyAsync", cu.memcpy_async((uintptr_t)their_data,
                                                           (uintptr_t)local, 8, stream));
                    check("cuStreamWriteValue64", cu.write64(stream, (uintptr_t)theirs, i, 0));
                }
            } else { /* wait */
                if (!raw)
                    shmemx_signal_wait_until_on_stream(mine, SHMEM_CMP_GE, i, stream);
                else
                    check("cuStreamWaitValue64",
                          cu.wait64(stream, (uintptr_t)mine, i, WAIT_GEQ));
            }
        }
    }
}

struct pingpong {
    int batches;
    uint64_t base[2]; /* the signal values so far, shmpi's and raw's */
};

/* One run of shmpi's (raw 0) or raw's ping-pong: the median over its batches. */
static double pingpong_run(void *arg, int raw)
{
    struct pingpong *pp = arg;
    double per[64];
    for (int b = 0; b < pp->batches; b++) {
        if (me == 1)
            pingpong_batch(raw, pp->base[raw]);
        shmem_barrier_all();
        double start = bench_now_us();
        if (me == 0)
            pingpong_batch(raw, pp->base[raw]);
        sync_stream();
        per[b] = (bench_now_us() - start) / BATCH;
        pp->base[raw] += BATCH;
    }
    return bench_median(per, pp->batches);
}

static void pingpong_rows(void)
{
    enter("ping-pong");
    struct pingpong pp = {quick ? 5 : 20, {0, 0}};
    double warm[2], t[2 * BENCH_MAX_REPS];
    bench_rounds(pingpong_run, &pp, 2, 1, warm);
    bench_rounds(pingpong_run, &pp, 2, reps, t);
    if (me == 0) {
        double s = bench_median(t, reps), w = bench_median(t + reps, reps);
        printf("\n## ping-pong on the streams, PE 0 <-> PE 1: us per round trip (batches of %d, "
               "the hosts only enqueue), median of %d runs\n\n",
               BATCH, reps);
        ratio_table("8 B put_signal + signal_wait_until_on_stream (raw: cuMemcpyAsync + "
                    "cuStreamWriteValue64_v2 + cuStreamWaitValue64_v2)",
                    s, w, 1.05);
    }
    shmem_barrier_all();
}

/* ---- barrier -------------------------------------------------------------------------- */
static uint64_t *bar_words; /* npes words: word j counts PE j's arrivals here */
static uint64_t bar_count;

static void raw_barrier(void)
{
    bar_count++;
    for (int dist = 1; dist < npes; dist *= 2) {
        int to = (me + dist) % npes;
        uint64_t *there = shmem_ptr(&bar_words[me], to);
        check("cuStreamWriteValue64", cu.write64(stream, (uintptr_t)there, bar_count, 0));
        int from = (me - dist + npes) % npes;
        check("cuStreamWaitValue64",
              cu.wait64(stream, (uintptr_t)&bar_words[from], bar_count, WAIT_GEQ));
    }
}

/* One run of `*iters` barriers, shmpi's (raw 0) or raw's: the time per barrier. */
static double barrier_run(void *arg, int raw)
{
    int iters = *(const int *)arg;
    shmem_barrier_all();
    double start = bench_now_us();
    for (int i = 0; i < iters; i++) {
        if (raw)
            raw_barrier();
        else
            shmemx_barrier_all_on_stream(stream);
        sync_stream();
    }
    return (bench_now_us() - start) / iters;
}

static void barrier_rows(void)
{
    enter("barrier");
    int warm_iters = 5, iters = quick ? 20 : 100;
    double warm[2], t[2 * BENCH_MAX_REPS];
    bench_rounds(barrier_run, &warm_iters, 2, 1, warm);
    bench_rounds(barrier_run, &iters, 2, reps, t);
    int rounds = 0;
    for (int dist = 1; dist < npes; dist *= 2)
        rounds++;
    if (me == 0) {
        double s = bench_median(t, reps), w = bench_median(t + reps, reps);
        printf("\n## barrier on a stream, %d PEs: us per barrier (+ cuStreamSynchronize), PE "
               "0, median of %d runs\n\n",
               npes, reps);
        char what[200];
        snprintf(what, sizeof what,
                 "shmemx_barrier_all_on_stream (raw: the same dissemination of "
                 "cuStreamWriteValue64_v2/cuStreamWaitValue64_v2, %d round%s)",
                 rounds, rounds == 1 ? "" : "s");
        ratio_table(what, s, w, 1.2);
    }
    shmem_barrier_all();
}

/* ---- collectives ---------------------------------------------------------------------- */
enum coll { BCAST, FCOLLECT, ALLTOALL, REDUCE };
static const char *const coll_names[] = {"broadcast", "fcollect", "alltoall", "int64 sum reduce"};
static char *cdest, *csrc;   /* device heap, npes x the largest block each */
static unsigned char *host_buf;

static void coll_call(enum coll c, int on_stream, size_t n)
{
    if (on_stream) {
        switch (c) {
        case BCAST: shmemx_broadcastmem_on_stream(SHMEM_TEAM_WORLD, cdest, csrc, n, 0, stream); break;
        case FCOLLECT: shmemx_fcollectmem_on_stream(SHMEM_TEAM_WORLD, cdest, csrc, n, stream); break;
        case ALLTOALL: shmemx_alltoallmem_on_stream(SHMEM_TEAM_WORLD, cdest, csrc, n, stream); break;
        case REDUCE:
            shmemx_int64_sum_reduce_on_stream(SHMEM_TEAM_WORLD, (int64_t *)cdest,
                                              (const int64_t *)csrc, n / 8, stream);
            break;
        }
        sync_stream();
        return;
    }
    switch (c) {
    case BCAST: shmem_broadcastmem(SHMEM_TEAM_WORLD, cdest, csrc, n, 0); break;
    case FCOLLECT: shmem_fcollectmem(SHMEM_TEAM_WORLD, cdest, csrc, n); break;
    case ALLTOALL: shmem_alltoallmem(SHMEM_TEAM_WORLD, cdest, csrc, n); break;
    case REDUCE:
        shmem_int64_sum_reduce(SHMEM_TEAM_WORLD, (int64_t *)cdest, (const int64_t *)csrc, n / 8);
        break;
    }
}

/* Fills the source (int64 words: 1000 * PE + index), clears dest, runs one stream call
 * and checks dest: 1 if right. */
static int coll_check(enum coll c, size_t n)
{
    size_t words = n * (size_t)npes / 8;
    int64_t *h = (int64_t *)host_buf;
    for (size_t i = 0; i < words; i++)
        h[i] = 1000 * (int64_t)me + (int64_t)i;
    check("cuMemcpy", cu.memcpy((uintptr_t)csrc, (uintptr_t)h, n * (size_t)npes));
    memset(h, 0xee, n * (size_t)npes);
    check("cuMemcpy", cu.memcpy((uintptr_t)cdest, (uintptr_t)h, n * (size_t)npes));
    /* a cuMemcpy from pageable memory may land after it returns, and the stream is
       non-blocking: wait for both before the stream call */
    check("cuCtxSynchronize", cu.ctx_synchronize());
    shmem_barrier_all();
    coll_call(c, 1, n);
    size_t out = c == BCAST || c == REDUCE ? n : n * (size_t)npes, bw = n / 8;
    check("cuMemcpy", cu.memcpy((uintptr_t)h, (uintptr_t)cdest, out));
    int ok = 1;
    for (size_t i = 0; i < out / 8 && ok; i++) {
        int64_t want;
        size_t blk = i / bw, at = i % bw;
        switch (c) {
        case BCAST: want = (int64_t)i; break; /* root 0's words */
        case FCOLLECT: want = 1000 * (int64_t)blk + (int64_t)at; break;
        case ALLTOALL: want = 1000 * (int64_t)blk + (int64_t)(me * bw + at); break;
        default: want = 1000 * (int64_t)npes * (npes - 1) / 2 + (int64_t)npes * (int64_t)i;
        }
        ok = h[i] == want;
    }
    int all;
    static int ok_sym, all_sym;
    ok_sym = ok;
    shmem_int_and_reduce(SHMEM_TEAM_WORLD, &all_sym, &ok_sym, 1);
    all = all_sym;
    return all;
}

struct coll_case {
    enum coll c;
    size_t n;
    int iters;
};

/* One run of `iters` calls on the stream (host 0) or on the host: the time per call. */
static double coll_run(void *arg, int host)
{
    const struct coll_case *cc = arg;
    shmem_barrier_all();
    double start = bench_now_us();
    for (int i = 0; i < cc->iters; i++)
        coll_call(cc->c, !host, cc->n);
    return (bench_now_us() - start) / cc->iters;
}

static void coll_rows(size_t max_block)
{
    static const size_t sizes[] = {8, 64 << 10, 1 << 20};
    if (me == 0) {
        printf("\n## collectives on a stream, %d PEs, SHMEM_TEAM_WORLD: us per call (+ "
               "cuStreamSynchronize), PE 0, median of %d runs\n",
               npes, reps);
        printf("host: the blocking host collective on the same device-heap buffers (staged "
               "through host memory); bytes per block; check: the stream call's result\n\n");
        printf("| collective | bytes | on stream | host | speed-up | check |\n"
               "|---|---:|---:|---:|---:|---|\n");
    }
    for (int c = BCAST; c <= REDUCE; c++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes && sizes[s] <= max_block; s++) {
            size_t n = sizes[s];
            enter(coll_names[c]);
            int ok = coll_check(c, n);
            struct coll_case cc = {c, n, n <= 65536 ? 50 : 10};
            if (quick)
                cc.iters = cc.iters / 5 + 1;
            double t[2 * BENCH_MAX_REPS];
            coll_call(c, 0, n);
            bench_rounds(coll_run, &cc, 2, reps, t);
            shmem_barrier_all();
            if (me == 0) {
                double st = bench_median(t, reps), ho = bench_median(t + reps, reps);
                char name[32];
                size_name(name, sizeof name, n);
                ok ? passed++ : failed++;
                printf("| %s | %s | %.2f | %.2f | %.2fx | %s |\n", coll_names[c], name, st, ho,
                       ho / st, ok ? "PASS" : "FAIL (wrong result)");
                fflush(stdout);
            }
        }
}

/* SHMPI_DEVICE_HEAP_SIZE in bytes (k, m, g suffixes), or 0 when unset or unreadable. */
static size_t heap_size(void)
{
    const char *v = getenv("SHMPI_DEVICE_HEAP_SIZE");
    char *end;
    double n = v ? strtod(v, &end) : 0;
    if (!v || end == v || n <= 0)
        return 0;
    switch (*end | 0x20) {
    case 'k': n *= 1024; break;
    case 'm': n *= 1024 * 1024; break;
    case 'g': n *= 1024.0 * 1024 * 1024; break;
    }
    return (size_t)n;
}

/* ---- main ----------------------------------------------------------------------------- */
#define LOAD(field, name) (*(void **)&cu.field = lib ? dlsym(lib, name) : NULL)

int main(int argc, char **argv)
{
    size_t max = (size_t)64 << 20;
    int opt;
    while ((opt = getopt(argc, argv, "r:m:qh")) != -1) {
        if (opt == 'r')
            reps = atoi(optarg);
        else if (opt == 'm')
            max = strtoull(optarg, NULL, 0);
        else if (opt == 'q')
            quick = 1;
        else {
            fprintf(stderr, "usage: %s [-r REPS] [-m MAX_BYTES] [-q]\n", argv[0]);
            return opt == 'h' ? 0 : 2;
        }
    }
    if (reps < 1 || reps > BENCH_MAX_REPS)
        reps = 5;
    signal(SIGALRM, on_alarm);
    enter("shmem_init");
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (!shmemx_device_heap_available()) {
        if (me == 0)
            fprintf(stderr, "bench_stream: needs SHMPI_DEVICE_HEAP_SIZE (256m for 64 MiB rows)\n");
        shmem_global_exit(2);
    }
    const char *env = getenv("SHMPI_CUDA_LIBRARY");
    const char *path = env && *env ? env : "libcuda.so.1";
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    LOAD(memcpy, "cuMemcpy");
    LOAD(memcpy_async, "cuMemcpyAsync");
    LOAD(stream_create, "cuStreamCreate");
    LOAD(ctx_synchronize, "cuCtxSynchronize");
    LOAD(stream_sync, "cuStreamSynchronize");
    LOAD(write64, "cuStreamWriteValue64_v2");
    LOAD(wait64, "cuStreamWaitValue64_v2");
    LOAD(device_get, "cuDeviceGet");
    LOAD(device_get_name, "cuDeviceGetName");
    if (!cu.memcpy || !cu.memcpy_async || !cu.stream_create || !cu.ctx_synchronize ||
        !cu.stream_sync || !cu.write64 ||
        !cu.wait64 || cu.stream_create(&stream, 1)) {
        fprintf(stderr, "bench_stream: cannot reach the CUDA driver %s\n", path);
        shmem_global_exit(1);
    }
    char gpu[128] = "(no cuDeviceGetName: not NVIDIA's driver, the times mean nothing)";
    int dev;
    if (cu.device_get && cu.device_get_name &&
        cu.device_get(&dev, shmemx_device_ordinal()) == 0)
        cu.device_get_name(gpu, sizeof gpu, dev);

    /* The RMA blocks (2 PEs only): the largest size that fits both. */
    size_t rma_max = 0, heap = heap_size();
    if (npes == 2) {
        rma_max = max;
        /* Start where two blocks leave room for the rest (2 x 2 MiB of collective
         * buffers, the words), so the library does not warn for every try. */
        while (heap && rma_max >= 8 && 2 * rma_max + ((size_t)5 << 20) > heap)
            rma_max /= 2;
        for (; rma_max >= 8; rma_max /= 2) {
            remote = shmemx_device_calloc(1, rma_max);
            local = remote ? shmemx_device_calloc(1, rma_max) : NULL;
            if (local)
                break;
            if (remote)
                shmemx_device_free(remote);
        }
        if (rma_max < 8)
            rma_max = 0;
    }
    sig = shmemx_device_calloc(4, 8);
    pp_sig = sig + 1;
    pp_data = (char *)(sig + 3);
    bar_words = shmemx_device_calloc((size_t)npes, 8);
    size_t block = max < ((size_t)1 << 20) ? max : (size_t)1 << 20;
    for (; block >= 8; block /= 2) {
        cdest = shmemx_device_calloc((size_t)npes, block);
        csrc = cdest ? shmemx_device_calloc((size_t)npes, block) : NULL;
        if (csrc)
            break;
        if (cdest)
            shmemx_device_free(cdest);
    }
    host_buf = malloc((size_t)npes * (block < 8 ? 8 : block));
    if (!sig || !bar_words || block < 8 || !host_buf || (npes == 2 && !rma_max)) {
        fprintf(stderr, "bench_stream: the device heap is too small (raise "
                        "SHMPI_DEVICE_HEAP_SIZE)\n");
        shmem_global_exit(1);
    }
    if (npes == 2) {
        peer_remote = shmem_ptr(remote, 1);
        peer_sig = shmem_ptr(sig, 1);
    }

    if (me == 0) {
        char host[64] = "?";
        gethostname(host, sizeof host);
        printf("# bench_stream, %d PEs, SHMPI_DEVICE_HEAP_SIZE=%s:", npes,
               getenv("SHMPI_DEVICE_HEAP_SIZE") ? getenv("SHMPI_DEVICE_HEAP_SIZE") : "");
        for (int i = 0; i < argc; i++)
            printf(" %s", argv[i]);
        printf("\n# machine: %s, %ld CPUs, GPU %d: %s; driver %s\n", host,
               sysconf(_SC_NPROCESSORS_ONLN), shmemx_device_ordinal(), gpu, path);
        if (npes == 2 && rma_max < max && rma_max < ((size_t)64 << 20))
            printf("# RMA rows up to %zu bytes: the device heap holds no more\n", rma_max);
        if (block < ((size_t)1 << 20) && block < max)
            printf("# collective rows up to %zu bytes per block: the device heap holds no more\n",
                   block);
        if (npes != 2)
            printf("# RMA and ping-pong rows: 2 PEs only\n");
        fflush(stdout);
    }
    shmem_barrier_all();
    if (npes == 2) {
        rma_rows(rma_max);
        pingpong_rows();
    }
    barrier_rows();
    coll_rows(block);
    enter("shmem_finalize");
    if (me == 0)
        printf("\nbench_stream: %d PEs: %d PASS, %d FAIL\n", npes, passed, failed);
    shmem_barrier_all();
    free(host_buf);
    shmem_finalize();
    alarm(0);
    return 0;
}
