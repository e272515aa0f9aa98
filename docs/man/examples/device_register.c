/* shmemx_device_register, shmemx_device_unregister: GPU memory that the
 * program allocated itself becomes symmetric, so that puts (here on a CUDA
 * stream) name the peers' buffers by this PE's address of its own.
 * Build and run: oshcc device_register.c -o device_register && SHMPI_DEVICE_HEAP_SIZE=64m oshrun -n 2 ./device_register
 */
#include <dlfcn.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>

/* GPU memory of the program's own.  A CUDA program calls cudaMalloc and
 * cudaFree; this one builds without CUDA, so it calls the CUDA driver that
 * shmpi loaded (SHMPI_CUDA_LIBRARY, by default libcuda.so.1). */
static void *cuda_driver(const char *name)
{
    const char *library = getenv("SHMPI_CUDA_LIBRARY");
    void *handle = dlopen(library ? library : "libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    return handle ? dlsym(handle, name) : NULL;
}
static void *gpu_malloc(size_t size)
{
    int (*mem_alloc)(unsigned long long *, size_t) =
        (int (*)(unsigned long long *, size_t))cuda_driver("cuMemAlloc_v2");
    unsigned long long ptr = 0;
    return mem_alloc && mem_alloc(&ptr, size) == 0 ? (void *)(uintptr_t)ptr : NULL;
}
static void gpu_free(void *ptr)
{
    int (*mem_free)(unsigned long long) =
        (int (*)(unsigned long long))cuda_driver("cuMemFree_v2");
    mem_free((unsigned long long)(uintptr_t)ptr);
}

#define N 4096

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes(), left = (me + npes - 1) % npes;
    int *buf = gpu_malloc(N * sizeof(int)); /* any address, the same size on every PE */
    if (!buf || shmemx_device_register(buf, N * sizeof(int)) != 0)
        shmem_global_exit(1);
    static int mine[N], got = -1; /* host memory; got symmetric, for shmem_int_wait_until */
    for (int i = 0; i < N; i++)
        mine[i] = 10 * me + i % 10;
    shmemx_int_put_on_stream(buf, mine, N, (me + 1) % npes, 0); /* into the neighbour's */
    shmemx_barrier_all_on_stream(0);
    shmemx_int_get_on_stream(&got, &buf[N - 1], 1, me, 0);
    shmem_int_wait_until(&got, SHMEM_CMP_NE, -1); /* a CUDA program: cudaStreamSynchronize */
    printf("PE %d: buf[%d] = %d from PE %d\n", me, N - 1, got, left);
    shmemx_device_unregister(buf);
    gpu_free(buf);
    shmem_finalize();
    return got == 10 * left + (N - 1) % 10 ? 0 : 1;
}
/* Output (lines in any order):
 * PE 0: buf[4095] = 15 from PE 1
 * PE 1: buf[4095] = 5 from PE 0
 */
