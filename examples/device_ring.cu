/*
 * device_ring.cu - GPU kernels reading a neighbour's device heap directly.
 *
 * Each PE fills a block of its device heap (shmemx_device_malloc) with a
 * kernel; after a barrier, a second kernel reads the left neighbour's block
 * through the pointer shmem_ptr returns (the peer's memory, mapped here by
 * CUDA IPC) and the PE checks what it read.  Then a shmem_int_get copies the
 * right neighbour's block into host memory.  Needs nvcc (not built by make):
 *
 *   nvcc -O2 -o device_ring examples/device_ring.cu -I$PREFIX/include \
 *        -L$PREFIX/lib -lshmpi
 *   SHMPI_DEVICE_HEAP_SIZE=64m oshrun -n 4 ./device_ring
 *
 * (benchmarks/gpu-run.sh builds and runs it on the GPU machine.)
 */
#include <cuda_runtime.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 20)

__global__ void fill(int *block, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        block[i] = base + i;
}

__global__ void read_neighbour(const int *neighbour, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = neighbour[i];
}

static int check(const char *what, const int *got, int base, int me)
{
    for (int i = 0; i < N; i++)
        if (got[i] != base + i) {
            fprintf(stderr, "PE %d: %s: element %d is %d, want %d\n", me, what, i, got[i],
                    base + i);
            return 1;
        }
    return 0;
}

int main(void)
{
    shmem_init(); /* the device heap lives in the context it made current here */
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (!shmemx_device_heap_available()) {
        if (me == 0)
            fprintf(stderr, "device_ring: set SHMPI_DEVICE_HEAP_SIZE (e.g. 64m)\n");
        shmem_finalize();
        return 1;
    }
    int left = (me + npes - 1) % npes, right = (me + 1) % npes;
    int *block = (int *)shmemx_device_malloc(N * sizeof(int));
    int *out = (int *)shmemx_device_malloc(N * sizeof(int));
    int *host = (int *)malloc(N * sizeof(int));
    int threads = 256, blocks = (N + threads - 1) / threads;

    fill<<<blocks, threads>>>(block, N, me * 10000000);
    cudaDeviceSynchronize(); /* the block is written before others may read it */
    shmem_barrier_all();

    const int *neighbour = (const int *)shmem_ptr(block, left);
    int failed = neighbour == NULL;
    if (neighbour) {
        read_neighbour<<<blocks, threads>>>(neighbour, out, N);
        cudaError_t err = cudaDeviceSynchronize();
        if (err != cudaSuccess) {
            fprintf(stderr, "PE %d: kernel: %s\n", me, cudaGetErrorString(err));
            failed = 1;
        }
        cudaMemcpy(host, out, N * sizeof(int), cudaMemcpyDeviceToHost);
        failed |= check("kernel read through shmem_ptr", host, left * 10000000, me);
    } else {
        fprintf(stderr, "PE %d: shmem_ptr of PE %d's device heap is NULL\n", me, left);
    }
    shmem_int_get(host, block, N, right);
    failed |= check("shmem_int_get", host, right * 10000000, me);

    int *status = (int *)shmem_calloc(1, sizeof(int));
    shmem_int_atomic_add(status, failed, 0);
    shmem_barrier_all();
    if (me == 0)
        printf("device_ring: %d PEs, %s\n", npes, *status ? "FAILED" : "every PE read its "
                                                              "neighbours' device heaps");
    int rc = *status != 0;
    shmem_free(status);
    shmemx_device_free(out);
    shmemx_device_free(block);
    free(host);
    shmem_finalize();
    return rc;
}
