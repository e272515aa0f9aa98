/* shmemx_long_sum_reduce_on_stream, shmemx_long_max_reducescatter_on_stream:
 * reductions over a team on a CUDA stream, on arrays of the device heap.
 * The host enqueues them and waits once, at the end.
 * Build and run: oshcc stream_reduce.c -o stream_reduce && SHMPI_DEVICE_HEAP_SIZE=64m oshrun -n 2 ./stream_reduce
 */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>

#define MAX_PES 8

/* Returns when `stream` has run the work enqueued on it (a CUDA program
 * calls cudaStreamSynchronize): a device-heap word is set and copied into
 * host memory on the stream, and the host waits for the copy. */
static void stream_wait(uint64_t *word, shmemx_stream_t stream)
{
    static uint64_t seen; /* symmetric, for shmem_uint64_wait_until */
    int me = shmem_my_pe();
    seen = 0;
    shmemx_signal_op_on_stream(word, 1, SHMEM_SIGNAL_SET, me, stream);
    shmemx_getmem_on_stream(&seen, word, sizeof seen, me, stream);
    shmem_uint64_wait_until(&seen, SHMEM_CMP_EQ, 1);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (npes > MAX_PES)
        shmem_global_exit(1);
    shmemx_stream_t stream = 0; /* or the program's cudaStream_t */
    long *x = shmemx_device_malloc(MAX_PES * sizeof(long));
    long *sum = shmemx_device_malloc(MAX_PES * sizeof(long));
    long *block = shmemx_device_malloc(sizeof(long));
    uint64_t *word = shmemx_device_calloc(1, sizeof(uint64_t));
    static long mine[MAX_PES], sums[MAX_PES], max;
    for (int j = 0; j < npes; j++)
        mine[j] = (me + 1) * (j + 1);
    shmemx_long_put_on_stream(x, mine, npes, me, stream); /* into this PE's GPU */
    /* sum[j] = the sum of every PE's x[j] */
    shmemx_long_sum_reduce_on_stream(SHMEM_TEAM_WORLD, sum, x, npes, stream);
    /* block[0] = the largest x[me] of the PEs: this PE's block of the result */
    shmemx_long_max_reducescatter_on_stream(SHMEM_TEAM_WORLD, block, x, 1, stream);
    shmemx_long_get_on_stream(sums, sum, npes, me, stream);
    shmemx_long_get_on_stream(&max, block, 1, me, stream);
    stream_wait(word, stream);
    printf("PE %d: sums %ld %ld, largest x[%d] %ld\n", me, sums[0], sums[1], me, max);
    shmemx_device_free(word);
    shmemx_device_free(block);
    shmemx_device_free(sum);
    shmemx_device_free(x);
    shmem_finalize();
    return 0;
}
/* Output (lines in any order):
 * PE 0: sums 3 6, largest x[0] 2
 * PE 1: sums 3 6, largest x[1] 4
 */
