/* shmemx_device_init, shmemx_device_ordinal, SHMEMX_TEAM_NODE: a program
 * that starts its device heap after shmem_init (as a binding that
 * initializes first would), on the GPU it chose, and counts the PEs of its
 * machine, whose device heaps it maps.
 * Build and run: oshcc device_init.c -o device_init && SHMPI_DEVICE_HEAP_SIZE=0 oshrun -n 2 ./device_init
 */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>

int main(void)
{
    shmem_init(); /* SHMPI_DEVICE_HEAP_SIZE=0: no device heap yet */
    int me = shmem_my_pe();
    int before = shmemx_device_heap_available();
    /* -1: the GPU current in this thread (a CUDA program's cudaSetDevice),
     * else this PE's index on its machine modulo the GPUs it sees */
    shmemx_device_init(-1, (size_t)64 << 20); /* 64 MiB */
    int ordinal = shmemx_device_ordinal();
    int node_pes = shmem_team_n_pes(SHMEMX_TEAM_NODE);
    int npes = shmem_n_pes(), left = (me + npes - 1) % npes;
    long *x = shmemx_device_malloc(sizeof(long)), mine = 100 + me, got = 0;
    shmem_long_put(x, &mine, 1, (me + 1) % npes); /* into the neighbour's GPU */
    shmem_barrier_all();
    shmem_long_get(&got, x, 1, me);
    printf("PE %d: device heap %d then %d, on %s GPU, %d PEs on this machine, x = %ld\n", me,
           before, shmemx_device_heap_available(), ordinal >= 0 ? "a" : "no", node_pes, got);
    shmem_barrier_all(); /* no PE frees while another still reads */
    shmemx_device_free(x);
    shmem_finalize();
    return got == 100 + left ? 0 : 1;
}
/* Output (lines in any order):
 * PE 0: device heap 0 then 1, on a GPU, 2 PEs on this machine, x = 101
 * PE 1: device heap 0 then 1, on a GPU, 2 PEs on this machine, x = 100
 */
