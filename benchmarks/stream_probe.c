/*
 * stream_probe.c - what the CUDA driver's stream memory operations do
 * between two processes on one GPU (benchmarks/gpu-run.sh runs it
 * first, in about 20 seconds at most).  Needs MPI only, no shmpi: 2 MPI
 * processes share the GPU (device 0, or SHMPI_PROBE_DEVICE), each allocates
 * a block (cuMemAlloc) and opens the other's through CUDA IPC (the handles
 * travel by MPI).  The driver is SHMPI_CUDA_LIBRARY (libcuda.so.1 by
 * default), loaded with dlopen, so tests/fake_cuda.c stands in without a GPU.
 *
 *   1. progress and data-before-signal, ROUNDS rounds: process B (rank 1)
 *      enqueues cuStreamWaitValue64_v2 (GEQ) on a word of its own block, then
 *      a copy of its data area; process A (rank 0), on its own stream, writes
 *      a pattern into B's data area through the IPC mapping (cuMemsetD8Async
 *      of its own buffer, cuMemcpyAsync to B) and then the word
 *      (cuStreamWriteValue64_v2, default memory barrier).  B checks that its
 *      stream was held before the write, that it then proceeds, and that its
 *      copy saw A's data.
 *   2. a stream ping-pong: A writes B's word and waits on its own, B waits on
 *      its own and writes A's, all on the streams (the hosts only enqueue),
 *      in batches of BATCH round trips; the median over the batches of the
 *      time per round trip (ITERS round trips in all).
 *
 * Every wait has a host-side time-out (cuStreamQuery polling, -t seconds per
 * wait, default 5) and an alarm ends the process after -T seconds (default
 * 18), so the probe never hangs.  Prints one verdict line:
 *   stream waits across processes: progress OK, ping-pong X us; data before signal OK (N/N)
 *   stream waits across processes: DO NOT progress (timed out after N s)
 * Exit status 0 only when waits progress and every round saw its data.
 *
 * usage: mpiexec -n 2 stream_probe [-n ITERS] [-t WAIT_S] [-T LIMIT_S] [-x]
 *   -x: A never writes the word (checks the time-out path)
 */
#include "bench_stats.h"

#include <dlfcn.h>
#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef struct {
    char reserved[64];
} ipc_handle;

enum { NOT_READY = 600 };
enum { WAIT_GEQ = 0x0, STREAM_NON_BLOCKING = 0x1, IPC_LAZY_ENABLE_PEER_ACCESS = 0x1 };
#define DATA_OFFSET 4096                  /* the words first, then the data area */
#define DATA_BYTES ((size_t)1 << 20)
#define ROUNDS 20
#define BATCH 10

static struct {
    CUresult (*init)(unsigned);
    CUresult (*device_get)(int *, int);
    CUresult (*device_get_name)(char *, int, int);
    CUresult (*primary_ctx_retain)(void **, int);
    CUresult (*ctx_set_current)(void *);
    CUresult (*mem_alloc)(CUdeviceptr *, size_t);
    CUresult (*memcpy)(CUdeviceptr, CUdeviceptr, size_t);
    CUresult (*memcpy_async)(CUdeviceptr, CUdeviceptr, size_t, void *);
    CUresult (*memset_async)(CUdeviceptr, unsigned char, size_t, void *);
    CUresult (*ipc_get)(ipc_handle *, CUdeviceptr);
    CUresult (*ipc_open)(CUdeviceptr *, ipc_handle, unsigned);
    CUresult (*stream_create)(void **, unsigned);
    CUresult (*stream_query)(void *);
    CUresult (*write64)(void *, CUdeviceptr, unsigned long long, unsigned);
    CUresult (*wait64)(void *, CUdeviceptr, unsigned long long, unsigned);
} cu;

static int me, limit_s = 18;

static void on_alarm(int sig)
{
    (void)sig;
    char line[160];
    int n = snprintf(line, sizeof line,
                     "stream waits across processes: DO NOT progress (timed out after %d s; "
                     "rank %d gave up)\n",
                     limit_s, me);
    if (write(1, line, (size_t)n) < 0) {
    }
    _exit(1);
}

static void check(const char *call, CUresult status)
{
    if (status != 0) {
        if (strncmp(call, "cuStreamW", 9) == 0) /* WaitValue64, WriteValue64 */
            printf("stream waits across processes: NOT AVAILABLE (rank %d: %s: CUDA error "
                   "%d)\n",
                   me, call, status);
        else
            printf("stream_probe: rank %d: %s failed: CUDA error %d\n", me, call, status);
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* Polls the stream until it is idle: 0, or -1 after wait_s seconds. */
static int stream_wait(void *stream, double wait_s)
{
    double deadline = bench_now_us() + wait_s * 1e6;
    for (;;) {
        CUresult status = cu.stream_query(stream);
        if (status == 0)
            return 0;
        if (status != NOT_READY)
            check("cuStreamQuery", status);
        if (bench_now_us() > deadline)
            return -1;
    }
}

#define LOAD(field, name)                                                                     \
    do {                                                                                      \
        *(void **)&cu.field = lib ? dlsym(lib, name) : NULL;                                  \
        if (!cu.field && strcmp(name, "cuDeviceGetName") != 0) {                              \
            printf("stream_probe: the driver %s lacks %s\n", path, name);                     \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                     \
        }                                                                                     \
    } while (0)

int main(int argc, char **argv)
{
    int iters = 1000, opt, no_write = 0;
    double wait_s = 5;
    MPI_Init(&argc, &argv);
    while ((opt = getopt(argc, argv, "n:t:T:x")) != -1) {
        if (opt == 'n')
            iters = atoi(optarg);
        else if (opt == 't')
            wait_s = atof(optarg);
        else if (opt == 'T')
            limit_s = atoi(optarg);
        else if (opt == 'x')
            no_write = 1;
        else {
            fprintf(stderr, "usage: %s [-n ITERS] [-t WAIT_S] [-T LIMIT_S] [-x]\n", argv[0]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (iters < BATCH)
        iters = BATCH;
    int np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np != 2) {
        if (me == 0)
            printf("stream_probe: needs 2 MPI processes (has %d)\n", np);
        MPI_Finalize();
        return 2;
    }
    signal(SIGALRM, on_alarm);
    alarm((unsigned)limit_s);

    const char *env = getenv("SHMPI_CUDA_LIBRARY");
    const char *path = env && *env ? env : "libcuda.so.1";
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        printf("stream_probe: cannot load the driver %s: %s\n", path, dlerror());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    LOAD(init, "cuInit");
    LOAD(device_get, "cuDeviceGet");
    LOAD(device_get_name, "cuDeviceGetName");
    LOAD(primary_ctx_retain, "cuDevicePrimaryCtxRetain");
    LOAD(ctx_set_current, "cuCtxSetCurrent");
    LOAD(mem_alloc, "cuMemAlloc_v2");
    LOAD(memcpy, "cuMemcpy");
    LOAD(memcpy_async, "cuMemcpyAsync");
    LOAD(memset_async, "cuMemsetD8Async");
    LOAD(ipc_get, "cuIpcGetMemHandle");
    LOAD(ipc_open, "cuIpcOpenMemHandle_v2");
    LOAD(stream_create, "cuStreamCreate");
    LOAD(stream_query, "cuStreamQuery");
    LOAD(write64, "cuStreamWriteValue64_v2");
    LOAD(wait64, "cuStreamWaitValue64_v2");

    int ordinal = getenv("SHMPI_PROBE_DEVICE") ? atoi(getenv("SHMPI_PROBE_DEVICE")) : 0, dev;
    void *ctx, *stream, *helper;
    check("cuInit", cu.init(0));
    check("cuDeviceGet", cu.device_get(&dev, ordinal));
    check("cuDevicePrimaryCtxRetain", cu.primary_ctx_retain(&ctx, dev));
    check("cuCtxSetCurrent", cu.ctx_set_current(ctx));
    check("cuStreamCreate", cu.stream_create(&stream, STREAM_NON_BLOCKING));
    check("cuStreamCreate", cu.stream_create(&helper, STREAM_NON_BLOCKING));
    char gpu[128] = "no cuDeviceGetName: not NVIDIA's driver";
    if (cu.device_get_name)
        cu.device_get_name(gpu, sizeof gpu, dev);

    /* My block: words, then the data area; src: what A copies from; check: B's copy. */
    size_t block_bytes = DATA_OFFSET + DATA_BYTES;
    CUdeviceptr mine, src, dst, peer;
    check("cuMemAlloc", cu.mem_alloc(&mine, block_bytes));
    check("cuMemAlloc", cu.mem_alloc(&src, DATA_BYTES));
    check("cuMemAlloc", cu.mem_alloc(&dst, DATA_BYTES));
    unsigned char *host = calloc(1, block_bytes);
    check("cuMemcpy", cu.memcpy(mine, (uintptr_t)host, block_bytes));
    ipc_handle handle, other;
    check("cuIpcGetMemHandle", cu.ipc_get(&handle, mine));
    MPI_Sendrecv(&handle, sizeof handle, MPI_BYTE, 1 - me, 0, &other, sizeof other, MPI_BYTE,
                 1 - me, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    check("cuIpcOpenMemHandle", cu.ipc_open(&peer, other, IPC_LAZY_ENABLE_PEER_ACCESS));
    if (me == 0)
        printf("# stream_probe: 2 processes on GPU %d (%s), driver %s; waits time out after "
               "%.0f s\n",
               ordinal, gpu, path, wait_s);

    /* 1. progress and data-before-signal.  Word 0 of B's block is the flag. */
    int held = 0, progressed = 0, data_ok = 0;
    double first_us = 0;
    for (int round = 1; round <= ROUNDS; round++) {
        unsigned char pattern = (unsigned char)(round * 37 + 1);
        int timed_out = 0;
        if (me == 1) {
            check("cuStreamWaitValue64", cu.wait64(stream, mine, (unsigned long long)round, WAIT_GEQ));
            check("cuMemcpyAsync", cu.memcpy_async(dst, mine + DATA_OFFSET, DATA_BYTES, stream));
            usleep(1000);
            held += cu.stream_query(stream) == NOT_READY;
        }
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = bench_now_us();
        if (me == 0) {
            check("cuMemsetD8Async", cu.memset_async(src, pattern, DATA_BYTES, stream));
            check("cuMemcpyAsync", cu.memcpy_async(peer + DATA_OFFSET, src, DATA_BYTES, stream));
            if (!no_write)
                check("cuStreamWriteValue64",
                      cu.write64(stream, peer, (unsigned long long)round, 0));
        }
        timed_out = stream_wait(stream, wait_s) != 0;
        if (me == 1 && !timed_out) {
            if (round == 1)
                first_us = bench_now_us() - t0;
            progressed++;
            check("cuMemcpy", cu.memcpy((uintptr_t)host, dst, DATA_BYTES));
            size_t bad = 0;
            for (size_t i = 0; i < DATA_BYTES; i++)
                bad += host[i] != pattern;
            data_ok += bad == 0;
            if (bad)
                printf("stream_probe: round %d: %zu of %zu bytes not yet A's after the wait\n",
                       round, bad, DATA_BYTES);
        }
        int any;
        MPI_Allreduce(&timed_out, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (any) {
            if (me == 1)
                printf("stream waits across processes: DO NOT progress (timed out after %.0f s "
                       "in round %d; the stream was %sheld before the write)\n",
                       wait_s, round, held ? "" : "not ");
            fflush(stdout);
            /* Release the stuck wait from a stream of my own, then leave. */
            cu.write64(helper, mine, ~0ULL >> 1, 0);
            stream_wait(helper, 1);
            _exit(1);
        }
    }
    int summary[3] = {held, progressed, data_ok};
    MPI_Bcast(summary, 3, MPI_INT, 1, MPI_COMM_WORLD);
    MPI_Bcast(&first_us, 1, MPI_DOUBLE, 1, MPI_COMM_WORLD);
    if (me == 0)
        printf("# 1. B's stream held before A's write in %d of %d rounds; proceeded in %d; "
               "its copy after the wait saw all of A's %zu bytes in %d (first round: %.1f us "
               "from A's enqueue to B idle)\n",
               summary[0], ROUNDS, summary[1], DATA_BYTES, summary[2], first_us);

    /* 2. ping-pong: word 1 (ping, in B's block) and word 2 (pong, in A's). */
    int batches = iters / BATCH;
    double *t = calloc((size_t)batches, sizeof *t);
    CUdeviceptr ping = me ? mine + 8 : peer + 8, pong = me ? peer + 16 : mine + 16;
    unsigned long long v = 0;
    for (int b = 0; b < batches; b++) {
        if (me == 1)
            for (int i = 1; i <= BATCH; i++) {
                check("cuStreamWaitValue64", cu.wait64(stream, ping, v + i, WAIT_GEQ));
                check("cuStreamWriteValue64", cu.write64(stream, pong, v + i, 0));
            }
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = bench_now_us();
        if (me == 0)
            for (int i = 1; i <= BATCH; i++) {
                check("cuStreamWriteValue64", cu.write64(stream, ping, v + i, 0));
                check("cuStreamWaitValue64", cu.wait64(stream, pong, v + i, WAIT_GEQ));
            }
        int timed_out = stream_wait(stream, wait_s) != 0, any;
        t[b] = (bench_now_us() - t0) / BATCH;
        v += BATCH;
        MPI_Allreduce(&timed_out, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (any) {
            if (me == 0)
                printf("stream waits across processes: DO NOT progress (timed out after %.0f s "
                       "in ping-pong batch %d)\n",
                       wait_s, b);
            fflush(stdout);
            cu.write64(helper, me ? mine + 8 : mine + 16, ~0ULL >> 1, 0);
            stream_wait(helper, 1);
            _exit(1);
        }
    }
    double median = bench_median(t, batches);
    int ok = summary[1] == ROUNDS && summary[2] == ROUNDS;
    if (me == 0) {
        printf("# 2. ping-pong on the streams: %d round trips in batches of %d; per round trip "
               "min %.2f, median %.2f, max %.2f us\n",
               batches * BATCH, BATCH, t[0], median, t[batches - 1]);
        printf("stream waits across processes: progress OK, ping-pong %.2f us; data before "
               "signal %s (%d/%d rounds)\n",
               median, summary[2] == ROUNDS ? "OK" : "NOT SEEN", summary[2], ROUNDS);
        fflush(stdout);
    }
    alarm(0);
    free(t);
    free(host);
    MPI_Finalize();
    return ok ? 0 : 1;
}
