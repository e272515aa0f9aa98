/*
 * bench_nvshmem_stream.cu - NVSHMEM's own collectives on a stream, timed as
 * bench_stream -q times shmpi's (each call + cudaStreamSynchronize, PE 0's
 * time, medians of REPS runs), so benchmarks/nvshmem-compare.sh can print
 * both in one table.  Built only where NVSHMEM's host library is
 * (nvshmem-compare.sh: Python's site-packages nvidia/nvshmem), run under
 * MPICH's mpiexec with NVSHMEM_BOOTSTRAP=PMI, NVSHMEM_REMOTE_TRANSPORT=none,
 * all PEs on GPU 0 (under MPS, which NVSHMEM needs for several PEs per GPU).
 *
 * Rows, as bench_stream's: barrier_all_on_stream; int64 broadcast (root
 * 0), fcollect, alltoall and sum reduce on NVSHMEM_TEAM_WORLD at 8 B,
 * 64 KiB and 1 MiB per block.  Prints "| row | bytes | us |" lines.
 *
 * usage: bench_nvshmem_stream [-r REPS]
 */
#include <cuda_runtime.h>
#include <nvshmem.h>
#include <nvshmemx.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static cudaStream_t stream;
static int me, npes;

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void check(const char *what, cudaError_t e)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "bench_nvshmem_stream: PE %d: %s: %s\n", me, what, cudaGetErrorString(e));
        exit(1);
    }
}

static double median(double *t, int n)
{
    for (int i = 1; i < n; i++) /* insertion sort: n is small */
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
            double x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

enum row { BARRIER, BCAST, FCOLLECT, ALLTOALL, REDUCE };
static const char *const names[] = {"barrier", "broadcast", "fcollect", "alltoall",
                                    "int64 sum reduce"};
static int64_t *dest, *source;

static void call(enum row r, size_t n)
{
    size_t words = n / 8;
    switch (r) {
    case BARRIER: nvshmemx_barrier_all_on_stream(stream); break;
    case BCAST:
        nvshmemx_int64_broadcast_on_stream(NVSHMEM_TEAM_WORLD, dest, source, words, 0, stream);
        break;
    case FCOLLECT:
        nvshmemx_int64_fcollect_on_stream(NVSHMEM_TEAM_WORLD, dest, source, words, stream);
        break;
    case ALLTOALL:
        nvshmemx_int64_alltoall_on_stream(NVSHMEM_TEAM_WORLD, dest, source, words, stream);
        break;
    case REDUCE:
        nvshmemx_int64_sum_reduce_on_stream(NVSHMEM_TEAM_WORLD, dest, source, words, stream);
        break;
    }
    check("cudaStreamSynchronize", cudaStreamSynchronize(stream));
}

int main(int argc, char **argv)
{
    int reps = 5;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-r") && i + 1 < argc)
            reps = atoi(argv[++i]);
    if (reps < 1 || reps > 32)
        reps = 5;
    check("cudaSetDevice", cudaSetDevice(0)); /* every PE on the one GPU, before init */
    nvshmem_init();
    me = nvshmem_my_pe();
    npes = nvshmem_n_pes();
    check("cudaStreamCreate", cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    size_t max_block = 1 << 20;
    dest = (int64_t *)nvshmem_malloc(max_block * npes);
    source = (int64_t *)nvshmem_malloc(max_block * npes);
    if (!dest || !source) {
        fprintf(stderr, "bench_nvshmem_stream: PE %d: nvshmem_malloc of %zu bytes failed\n", me,
                max_block * npes);
        return 1;
    }
    check("cudaMemset", cudaMemset(source, 1, max_block * npes));
    check("cudaDeviceSynchronize", cudaDeviceSynchronize());
    if (me == 0)
        printf("# bench_nvshmem_stream, %d PEs, NVSHMEM %d.%d: us per call + "
               "cudaStreamSynchronize, PE 0, median of %d runs\n",
               npes, NVSHMEM_VENDOR_MAJOR_VERSION, NVSHMEM_VENDOR_MINOR_VERSION, reps);
    static const size_t sizes[] = {8, 64 << 10, 1 << 20};
    for (int r = BARRIER; r <= REDUCE; r++)
        for (size_t s = 0; s < 3; s++) {
            if (r == BARRIER && s > 0)
                break;
            size_t n = sizes[s];
            /* bench_stream -q's counts: 50 / 5 + 1 calls at up to 64 KiB, 10 / 5 + 1 above;
               its barrier, 20 */
            int iters = r == BARRIER ? 20 : n <= 65536 ? 11 : 3;
            double t[32];
            for (int i = 0; i < 3; i++)
                call((enum row)r, n); /* warm: first-use costs out of the runs */
            for (int k = 0; k < reps; k++) {
                nvshmem_barrier_all();
                double start = now_us();
                for (int i = 0; i < iters; i++)
                    call((enum row)r, n);
                t[k] = (now_us() - start) / iters;
            }
            nvshmem_barrier_all();
            if (me == 0) {
                char bytes[16];
                if (r == BARRIER)
                    snprintf(bytes, sizeof bytes, "-");
                else if (n >= 1 << 20)
                    snprintf(bytes, sizeof bytes, "%zu MiB", n >> 20);
                else if (n >= 1024)
                    snprintf(bytes, sizeof bytes, "%zu KiB", n >> 10);
                else
                    snprintf(bytes, sizeof bytes, "%zu B", n);
                printf("| %s | %s | %.2f |\n", names[r], bytes, median(t, reps));
                fflush(stdout);
            }
        }
    nvshmem_free(dest);
    nvshmem_free(source);
    nvshmem_finalize();
    return 0;
}
