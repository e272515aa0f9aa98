/*
 * bench_device.c - the device heap (docs/device-heap.md): blocking put and
 * get of PE 0 to and from PE 1's device heap at 8 B, 64 KiB, 1 MiB and
 * 64 MiB, against a raw cuMemcpyAsync + cuStreamSynchronize through the same
 * IPC mapping (the address shmem_ptr returns), in the same run.  The local
 * buffer is a device-heap block (device to peer device) and host memory.
 * Needs 2 PEs on one machine and SHMPI_DEVICE_HEAP_SIZE of at least 256m;
 * the driver is SHMPI_CUDA_LIBRARY (libcuda.so.1 by default).  Prints one
 * table row per case: median microseconds per transfer over REPS timed
 * runs, shmpi / raw, GB/s of shmpi.  benchmarks/gpu-run.sh runs it.
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
static memcpy_async_fn cu_memcpy_async;
static stream_sync_fn cu_stream_sync;
static void *stream;

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

enum kind { SHMPI_PUT, SHMPI_GET, RAW_PUT, RAW_GET };

/* Median over `reps` runs of the time per transfer of `iters` transfers. */
static double measure(enum kind kind, char *local, char *dev_block, char *peer_block, size_t n,
                      int iters, int reps)
{
    double t[32];
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
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    return t[reps / 2];
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
    if (reps < 1 || reps > 32)
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
