/* shmemx_int_broadcast_on_stream, shmemx_int_fcollect_on_stream,
 * shmemx_int_alltoall_on_stream: the collectives of a team on a CUDA
 * stream, over arrays of the device heap; every PE enqueues them in the
 * same order, and the host waits once, at the end.
 * Build and run: oshcc stream_coll.c -o stream_coll && SHMPI_DEVICE_HEAP_SIZE=64m oshrun -n 2 ./stream_coll
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
    size_t bytes = MAX_PES * sizeof(int);
    int *src = shmemx_device_malloc(bytes), *bcast = shmemx_device_malloc(bytes);
    int *all = shmemx_device_malloc(bytes), *mix = shmemx_device_malloc(bytes);
    uint64_t *word = shmemx_device_calloc(1, sizeof(uint64_t));
    static int mine[MAX_PES], b[MAX_PES], a[MAX_PES], m[MAX_PES];
    for (int j = 0; j < npes; j++)
        mine[j] = 10 * me + j;
    shmemx_int_put_on_stream(src, mine, npes, me, stream); /* into this PE's GPU */
    shmemx_int_broadcast_on_stream(SHMEM_TEAM_WORLD, bcast, src, npes, 0, stream);
    shmemx_int_fcollect_on_stream(SHMEM_TEAM_WORLD, all, src, 1, stream);
    shmemx_int_alltoall_on_stream(SHMEM_TEAM_WORLD, mix, src, 1, stream);
    shmemx_int_get_on_stream(b, bcast, npes, me, stream);
    shmemx_int_get_on_stream(a, all, npes, me, stream);
    shmemx_int_get_on_stream(m, mix, npes, me, stream);
    stream_wait(word, stream);
    printf("PE %d: broadcast %d %d, fcollect %d %d, alltoall %d %d\n", me, b[0], b[1], a[0],
           a[1], m[0], m[1]);
    shmemx_device_free(word);
    shmemx_device_free(mix);
    shmemx_device_free(all);
    shmemx_device_free(bcast);
    shmemx_device_free(src);
    shmem_finalize();
    return 0;
}
/* Output (lines in any order):
 * PE 0: broadcast 0 1, fcollect 0 10, alltoall 0 10
 * PE 1: broadcast 0 1, fcollect 0 10, alltoall 1 11
 */
