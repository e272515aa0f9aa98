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
#include <dlfcn.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int (*memcpy_async_fn)(unsigned long long, unsigned long long, size_t, void *);
typedef int (*stream_create_fn)(void **, unsigned);
typedef int (*stream_sync_fn)(void *);
typedef int (*alloc_host_fn)(void **, size_t);
static memcpy_async_fn cu_memcpy_async;
static stream_sync_fn cu_stream_sync;
static void *stream;

#define MAX_REPS 32

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void raw_copy(void *to, const void *from, size_t n)
{
    if (cu_memcpy_async((uintptr_t)to, (uintptr_t)from, n, stream) || cu_stream_sync(stream)) {
        fprintf(stderr, "bench_device: raw copy failed\n");
        shmem_global_exit(1);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *t, int count)
{
    qsort(t, (size_t)count, sizeof *t, cmp_double);
    return t[count / 2];
}

enum kind { SHMPI_PUT, SHMPI_GET, RAW_PUT, RAW_GET };

/* Median over `reps` runs of the time per transfer of `iters` transfers. */
static double measure(enum kind kind, char *local, char *dev_block, char *peer_block, size_t n,
                      int iters, int reps)
{
    double t[MAX_REPS];
    for (int r = 0; r < reps; r++) {
        double start = now_us();
        for (int i = 0; i < iters; i++) {
            switch (kind) {
            case SHMPI_PUT: shmem_putmem(dev_block, local, n, 1); break;
            case SHMPI_GET: shmem_getmem(local, dev_block, n, 1); break;
            case RAW_PUT: raw_copy(peer_block, local, n); break;
            case RAW_GET: raw_copy(local, peer_block, n); break;
            }
        }
        t[r] = (now_us() - start) / iters;
    }
    return median(t, reps);
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

/* One run of `iters` transfers, by shmpi or by hand: PE 0's time per
 * transfer (0 on PE 1, which serves the transfers by hand). */
static double run_network(int by_hand, int is_get, char *local, int local_on_device,
                          char *dev_block, size_t n, int iters)
{
    shmem_barrier_all();
    if (shmem_my_pe() == 1) {
        if (by_hand)
            serve_hand(dev_block, n, iters);
        return 0;
    }
    double start = now_us();
    for (int i = 0; i < iters; i++) {
        if (by_hand)
            hand(is_get, local, local_on_device, n);
        else if (is_get)
            shmem_getmem(local, dev_block, n, 1);
        else {
            shmem_putmem(dev_block, local, n, 1);
            shmem_quiet();
        }
    }
    return (now_us() - start) / iters;
}

struct network_row {
    double shmpi_us, hand_us, ratio;
};

/* `reps` pairs of runs, shmpi's then by hand, back to back, so that a change
 * of the machine's load falls on both: the medians of each, and the median
 * of the pairs' ratios. */
static struct network_row measure_network(int is_get, char *local, int local_on_device,
                                          char *dev_block, size_t n, int iters, int reps)
{
    double a[MAX_REPS], b[MAX_REPS], ratio[MAX_REPS];
    for (int r = 0; r < reps; r++) {
        a[r] = run_network(0, is_get, local, local_on_device, dev_block, n, iters);
        b[r] = run_network(1, is_get, local, local_on_device, dev_block, n, iters);
        ratio[r] = b[r] > 0 ? a[r] / b[r] : 0;
    }
    return (struct network_row){median(a, reps), median(b, reps), median(ratio, reps)};
}

static void network_rows(void *lib, char *dev_block, char *dev_local, char *host_local,
                         size_t max, int reps)
{
    int me = shmem_my_pe();
    alloc_host_fn alloc_host = (alloc_host_fn)dlsym(lib, "cuMemAllocHost_v2");
    landing = shmem_malloc(max);
    ask = shmem_calloc(1, sizeof *ask);
    answer = shmem_calloc(1, sizeof *answer);
    if (!alloc_host || alloc_host((void **)&bounce, max) || !landing || !ask || !answer) {
        fprintf(stderr, "bench_device: no room for the transfers by hand (%zu bytes: raise "
                        "SHMEM_SYMMETRIC_SIZE)\n", max);
        shmem_global_exit(1);
    }
    static const size_t sizes[] = {8, 64 << 10, 1 << 20, 64 << 20};
    /* small transfers are cheap and noisy: three times the pairs */
    int small_pairs = 3 * reps <= MAX_REPS ? 3 * reps : reps;
    if (me == 0) {
        printf("# device heap, PE 0 <-> PE 1's device heap through the network path "
               "(not mapped); shmpi and by hand alternate, medians of %d pairs of runs "
               "(%d up to 64 KiB), us per transfer, ratio: median of the pairs' ratios; by "
               "hand: pinned copy, host-heap put/get, quiet, copy at the target on a flag\n",
               reps, small_pairs);
        printf("%-4s %-7s %10s %12s %12s %8s %9s  %s\n", "op", "local", "bytes", "shmpi_us",
               "hand_us", "ratio", "shmpi_GBs", "target");
    }
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        size_t n = sizes[s];
        if (n > max)
            break;
        int iters = n <= 65536 ? 100 : n <= (1 << 20) ? 20 : 3;
        for (int local_kind = 0; local_kind < 2; local_kind++) {
            char *local = local_kind ? host_local : dev_local;
            for (int op = 0; op < 2; op++) {
                measure_network(op, local, !local_kind, dev_block, n, 2, 1); /* warm */
                int pairs = n <= 65536 ? small_pairs : reps;
                struct network_row row =
                    measure_network(op, local, !local_kind, dev_block, n, iters, pairs);
                if (me == 0) {
                    double limit = n < (1 << 20) ? 1.2 : 1.0;
                    printf("%-4s %-7s %10zu %12.2f %12.2f %7.2fx %9.2f  %s %s %.1fx\n",
                           op ? "get" : "put", local_kind ? "host" : "device", n,
                           row.shmpi_us, row.hand_us, row.ratio, n / row.shmpi_us / 1e3,
                           row.ratio <= limit ? "met:" : "MISSED:",
                           n < (1 << 20) ? "within" : "below", limit);
                    fflush(stdout);
                }
                shmem_barrier_all();
            }
        }
    }
    shmem_free(answer);
    shmem_free(ask);
    shmem_free(landing);
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
    if (reps < 1 || reps > MAX_REPS)
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
    char *peer_block = shmem_ptr(dev_block, 1);
    if (!shmem_ptr(dev_block, 1 - me)) { /* not mapped: the network path */
        network_rows(lib, dev_block, dev_local, host_local, max, reps);
        free(host_local);
        shmemx_device_free(dev_local);
        shmemx_device_free(dev_block);
        shmem_finalize();
        return 0;
    }
    static const size_t sizes[] = {8, 64 << 10, 1 << 20, 64 << 20};
    if (me == 0) {
        printf("# device heap, PE 0 <-> PE 1's device heap; median of %d runs, us per "
               "transfer\n",
               reps);
        printf("%-4s %-7s %10s %12s %12s %8s %9s\n", "op", "local", "bytes", "shmpi_us",
               "raw_us", "ratio", "shmpi_GBs");
    }
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        size_t n = sizes[s];
        if (n > max)
            break;
        int iters = n <= 65536 ? 200 : n <= (1 << 20) ? 50 : 5;
        for (int local_kind = 0; local_kind < 2; local_kind++) {
            char *local = local_kind ? host_local : dev_local;
            for (int op = 0; op < 2; op++) {
                if (me == 0) {
                    enum kind mine = op ? SHMPI_GET : SHMPI_PUT, raw = op ? RAW_GET : RAW_PUT;
                    measure(mine, local, dev_block, peer_block, n, 2, 1); /* warm */
                    measure(raw, local, dev_block, peer_block, n, 2, 1);
                    double a = measure(mine, local, dev_block, peer_block, n, iters, reps);
                    double b = measure(raw, local, dev_block, peer_block, n, iters, reps);
                    printf("%-4s %-7s %10zu %12.2f %12.2f %7.2fx %9.2f\n", op ? "get" : "put",
                           local_kind ? "host" : "device", n, a, b, a / b, n / a / 1e3);
                    fflush(stdout);
                }
                shmem_barrier_all();
            }
        }
    }
    free(host_local);
    shmemx_device_free(dev_local);
    shmemx_device_free(dev_block);
    shmem_finalize();
    return 0;
}
