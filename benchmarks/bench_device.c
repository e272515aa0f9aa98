/*
 * bench_device.c - the device heap (docs/device-heap.md): blocking put and
 * get of PE 0 to and from PE 1's device heap at 8 B, 64 KiB, 1 MiB and
 * 64 MiB, against a raw cuMemcpyAsync + cuStreamSynchronize through the same
 * IPC mapping (the address shmem_ptr returns), in the same run.  The local
 * buffer is a device-heap block (device to peer device) and host memory.
 * Needs 2 PEs and SHMPI_DEVICE_HEAP_SIZE of at least 256m;
 * the driver is SHMPI_CUDA_LIBRARY (libcuda.so.1 by default).  Prints one
 * table row per case: median microseconds per transfer over REPS timed
 * runs, shmpi / raw, GB/s of shmpi.  benchmarks/gpu-run.sh runs it.
 *
 * Where PE 1's device heap is not mapped (SHMPI_DEVICE_IPC=0, or PE 1 on
 * another node) the transfers take the network path (docs/device-heap.md,
 * "Across nodes"), and the reference is the same transfer done by hand in
 * the same run: a put copies a device buffer into pinned host memory
 * (cuMemcpyAsync into cuMemAllocHost memory), shmem_putmem's it into PE 1's
 * host heap, shmem_quiet, sets a flag on which PE 1 copies it into its
 * device heap and answers with a flag; a get asks PE 1 by a flag to copy its
 * device block into its host heap, waits for the answer, shmem_getmem's it
 * into pinned memory and copies that into the device buffer.  shmpi's put is
 * timed with a shmem_quiet after it (the data in PE 1's device memory, as by
 * hand).  shmpi's runs and those by hand alternate, and the ratio is the
 * median of the pairs' ratios, so that a machine whose load changes (CI on
 * the other core) moves both sides of each pair alike.  Targets: within
 * 1.2x of by hand at 8 B and 64 KiB, faster than by hand from 1 MiB (the
 * pipelining).
 *
 * usage: bench_device [-r REPS] [-m MAX_BYTES]
 */
#include "bench_stats.h"

#include <dlfcn.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*memcpy_async_fn)(unsigned long long, unsigned long long, size_t, void *);
typedef int (*stream_create_fn)(void **, unsigned);
typedef int (*stream_sync_fn)(void *);
typedef int (*alloc_host_fn)(void **, size_t);
static memcpy_async_fn cu_memcpy_async;
static stream_sync_fn cu_stream_sync;
static void *stream;

static void raw_copy(void *to, const void *from, size_t n)
{
    if (cu_memcpy_async((uintptr_t)to, (uintptr_t)from, n, stream) || cu_stream_sync(stream)) {
        fprintf(stderr, "bench_device: raw copy failed\n");
        shmem_global_exit(1);
    }
}

/* One row's transfers: `iters` of `n` bytes between PE 0's local buffer and
 * PE 1's device block (peer_block: its mapping, where mapped). */
struct transfer {
    int is_get;
    char *local;
    int local_on_device;
    char *dev_block, *peer_block;
    size_t n;
    int iters;
};

/* ---- the mapped path, against the raw copy ------------------------------------------ */
/* One run on PE 0, shmpi's or the raw copy's: the time per transfer. */
static double run_mapped(void *arg, int raw)
{
    const struct transfer *x = arg;
    double start = bench_now_us();
    for (int i = 0; i < x->iters; i++) {
        if (raw)
            raw_copy(x->is_get ? x->local : x->peer_block, x->is_get ? x->peer_block : x->local,
                     x->n);
        else if (x->is_get)
            shmem_getmem(x->local, x->dev_block, x->n, 1);
        else
            shmem_putmem(x->dev_block, x->local, x->n, 1);
    }
    return (bench_now_us() - start) / x->iters;
}

/* The median of `reps` runs of one side, back to back. */
static double median_of_runs(struct transfer *x, int raw, int reps)
{
    double t[BENCH_MAX_REPS];
    for (int r = 0; r < reps; r++)
        t[r] = run_mapped(x, raw);
    return bench_median(t, reps);
}

/* ---- the network path, against the same transfer by hand ---------------------------- */
/* PE 1's host-heap landing, the flags (asks on PE 1: 2 * seq, + 1 for a get;
 * answers on PE 0: seq), PE 0's pinned bounce buffer. */
static char *landing, *bounce;
static long *ask, *answer;
static long seq;

static void hand(int is_get, char *local, int local_on_device, size_t n)
{
    seq++;
    if (!is_get) {
        const char *from = local;
        if (local_on_device) {
            raw_copy(bounce, local, n);
            from = bounce;
        }
        shmem_putmem(landing, from, n, 1);
        shmem_quiet();
        shmem_long_atomic_set(ask, 2 * seq, 1);
        shmem_long_wait_until(answer, SHMEM_CMP_GE, seq); /* PE 1 copied it in */
    } else {
        shmem_long_atomic_set(ask, 2 * seq + 1, 1);
        shmem_long_wait_until(answer, SHMEM_CMP_GE, seq); /* PE 1 copied it out */
        shmem_getmem(local_on_device ? bounce : local, landing, n, 1);
        if (local_on_device)
            raw_copy(local, bounce, n);
    }
}

/* PE 1's side of `count` transfers by hand. */
static void serve_hand(char *dev_block, size_t n, int count)
{
    for (int i = 0; i < count; i++) {
        seq++;
        shmem_long_wait_until(ask, SHMEM_CMP_GE, 2 * seq);
        if (*ask & 1)
            raw_copy(landing, dev_block, n);
        else
            raw_copy(dev_block, landing, n);
        shmem_long_atomic_set(answer, seq, 0);
    }
}

/* One run, by shmpi or by hand: PE 0's time per transfer (0 on PE 1, which
 * serves the transfers by hand). */
static double run_network(void *arg, int by_hand)
{
    const struct transfer *x = arg;
    shmem_barrier_all();
    if (shmem_my_pe() == 1) {
        if (by_hand)
            serve_hand(x->dev_block, x->n, x->iters);
        return 0;
    }
    double start = bench_now_us();
    for (int i = 0; i < x->iters; i++) {
        if (by_hand)
            hand(x->is_get, x->local, x->local_on_device, x->n);
        else if (x->is_get)
            shmem_getmem(x->local, x->dev_block, x->n, 1);
        else {
            shmem_putmem(x->dev_block, x->local, x->n, 1);
            shmem_quiet();
        }
    }
    return (bench_now_us() - start) / x->iters;
}

static void network_setup(void *lib, size_t max)
{
    alloc_host_fn alloc_host = (alloc_host_fn)dlsym(lib, "cuMemAllocHost_v2");
    landing = shmem_malloc(max);
    ask = shmem_calloc(1, sizeof *ask);
    answer = shmem_calloc(1, sizeof *answer);
    if (!alloc_host || alloc_host((void **)&bounce, max) || !landing || !ask || !answer) {
        fprintf(stderr, "bench_device: no room for the transfers by hand (%zu bytes: raise "
                        "SHMEM_SYMMETRIC_SIZE)\n", max);
        shmem_global_exit(1);
    }
}

static void network_teardown(void)
{
    shmem_free(answer);
    shmem_free(ask);
    shmem_free(landing);
}

/* ---- the table ------------------------------------------------------------------------- */
static void print_head(const char *ref_column, const char *tail)
{
    printf("%-4s %-7s %10s %12s %12s %8s %9s%s\n", "op", "local", "bytes", "shmpi_us",
           ref_column, "ratio", "shmpi_GBs", tail);
}

static void print_row(const struct transfer *x, double shmpi_us, double ref_us, double ratio,
                      const char *tail)
{
    printf("%-4s %-7s %10zu %12.2f %12.2f %7.2fx %9.2f%s\n", x->is_get ? "get" : "put",
           x->local_on_device ? "device" : "host", x->n, shmpi_us, ref_us, ratio,
           x->n / shmpi_us / 1e3, tail);
    fflush(stdout);
}

/* One row per size, local buffer (device, then host) and direction (put, then
 * get), on the network path or the mapped one. */
static void rows(int network, char *dev_block, char *dev_local, char *host_local, size_t max,
                 int reps)
{
    static const size_t sizes[] = {8, 64 << 10, 1 << 20, 64 << 20};
    int me = shmem_my_pe();
    /* network path: small transfers are cheap and noisy, three times the pairs */
    int small_pairs = 3 * reps <= BENCH_MAX_REPS ? 3 * reps : reps;
    if (me == 0 && network) {
        printf("# device heap, PE 0 <-> PE 1's device heap through the network path "
               "(not mapped); shmpi and by hand alternate, medians of %d pairs of runs "
               "(%d up to 64 KiB), us per transfer, ratio: median of the pairs' ratios; by "
               "hand: pinned copy, host-heap put/get, quiet, copy at the target on a flag\n",
               reps, small_pairs);
        print_head("hand_us", "  target");
    } else if (me == 0) {
        printf("# device heap, PE 0 <-> PE 1's device heap; median of %d runs, us per "
               "transfer\n",
               reps);
        print_head("raw_us", "");
    }
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes && sizes[s] <= max; s++) {
        size_t n = sizes[s];
        for (int on_host = 0; on_host < 2; on_host++)
            for (int is_get = 0; is_get < 2; is_get++) {
                struct transfer x = {is_get, on_host ? host_local : dev_local, !on_host,
                                     dev_block, shmem_ptr(dev_block, 1), n, 2};
                double warm[2];
                if (network) {
                    bench_alternate(run_network, &x, 1);
                    x.iters = n <= 65536 ? 100 : n <= (1 << 20) ? 20 : 3;
                    struct bench_pairs p =
                        bench_alternate(run_network, &x, n <= 65536 ? small_pairs : reps);
                    double limit = n < (1 << 20) ? 1.2 : 1.0;
                    char target[64];
                    snprintf(target, sizeof target, "  %s %s %.1fx",
                             p.ratio <= limit ? "met:" : "MISSED:",
                             n < (1 << 20) ? "within" : "below", limit);
                    if (me == 0)
                        print_row(&x, p.a, p.b, p.ratio, target);
                } else if (me == 0) {
                    bench_rounds(run_mapped, &x, 2, 1, warm);
                    x.iters = n <= 65536 ? 200 : n <= (1 << 20) ? 50 : 5;
                    double a = median_of_runs(&x, 0, reps), b = median_of_runs(&x, 1, reps);
                    print_row(&x, a, b, a / b, "");
                }
                shmem_barrier_all();
            }
    }
}

int main(int argc, char **argv)
{
    int reps = 5, opt;
    size_t max = (size_t)64 << 20;
    while ((opt = getopt(argc, argv, "r:m:")) != -1) {
        if (opt == 'r')
            reps = atoi(optarg);
        else if (opt == 'm')
            max = strtoull(optarg, NULL, 0);
        else {
            fprintf(stderr, "usage: %s [-r REPS] [-m MAX_BYTES]\n", argv[0]);
            return 2;
        }
    }
    if (reps < 1 || reps > BENCH_MAX_REPS)
        reps = 5;
    shmem_init();
    int me = shmem_my_pe();
    if (shmem_n_pes() != 2 || !shmemx_device_heap_available()) {
        if (me == 0)
            fprintf(stderr, "bench_device: needs 2 PEs and SHMPI_DEVICE_HEAP_SIZE\n");
        shmem_global_exit(2);
    }
    const char *name = getenv("SHMPI_CUDA_LIBRARY");
    void *lib = dlopen(name && *name ? name : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    stream_create_fn stream_create = lib ? (stream_create_fn)dlsym(lib, "cuStreamCreate") : NULL;
    cu_memcpy_async = lib ? (memcpy_async_fn)dlsym(lib, "cuMemcpyAsync") : NULL;
    cu_stream_sync = lib ? (stream_sync_fn)dlsym(lib, "cuStreamSynchronize") : NULL;
    if (!stream_create || !cu_memcpy_async || !cu_stream_sync || stream_create(&stream, 1)) {
        fprintf(stderr, "bench_device: cannot reach the CUDA driver\n");
        shmem_global_exit(1);
    }
    char *dev_block = shmemx_device_calloc(1, max);   /* the remote buffer */
    char *dev_local = shmemx_device_calloc(1, max);   /* a device local buffer */
    char *host_local = calloc(1, max);
    if (!dev_block || !dev_local || !host_local) {
        fprintf(stderr, "bench_device: no room for 2 x %zu bytes (raise SHMPI_DEVICE_HEAP_SIZE)\n",
                max);
        shmem_global_exit(1);
    }
    int network = !shmem_ptr(dev_block, 1 - me); /* not mapped */
    if (network)
        network_setup(lib, max);
    rows(network, dev_block, dev_local, host_local, max, reps);
    if (network)
        network_teardown();
    free(host_local);
    shmemx_device_free(dev_local);
    shmemx_device_free(dev_block);
    shmem_finalize();
    return 0;
}
