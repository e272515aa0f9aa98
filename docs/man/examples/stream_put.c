/* shmemx_double_put_on_stream, shmemx_double_get_on_stream,
 * shmemx_quiet_on_stream, shmemx_barrier_all_on_stream: each PE puts an
 * array from host memory into its right neighbour's device heap, half with
 * a host routine and half on a CUDA stream, the PEs meet in a barrier on
 * the stream, and each gets its array back into host memory, still on the
 * stream.  The host enqueues everything and waits only at the end.
 * Build and run: oshcc stream_put.c -o stream_put && SHMPI_DEVICE_HEAP_SIZE=64m oshrun -n 2 ./stream_put
 */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>

#define N 1024

/* Returns when `stream` has run the work enqueued on it.  A CUDA program
 * calls cudaStreamSynchronize(stream); this one builds without CUDA: the
 * stream sets a device-heap word, copies it into host memory, and the host
 * waits for that copy. */
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
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    shmemx_stream_t stream = 0; /* or the program's cudaStream_t */
    double *field = shmemx_device_malloc(N * sizeof(double));
    uint64_t *word = shmemx_device_calloc(1, sizeof(uint64_t));
    static double mine[N], back[N];
    for (int i = 0; i < N; i++)
        mine[i] = me + i / 1000.0;
    shmem_double_put_nbi(field, mine, N / 2, right); /* host routine */
    shmemx_double_put_on_stream(field + N / 2, mine + N / 2, N / 2, right, stream);
    shmemx_quiet_on_stream(stream);       /* the stream waits for the nbi put too */
    shmemx_barrier_all_on_stream(stream); /* every PE's puts are in */
    shmemx_double_get_on_stream(back, field, N, me, stream);
    stream_wait(word, stream); /* the host waits here, and only here */
    printf("PE %d: back[1] = %.3f, back[%d] = %.3f from PE %d\n", me, back[1], N - 1,
           back[N - 1], left);
    shmemx_device_free(word);
    shmemx_device_free(field);
    shmem_finalize();
    return back[1] == left + 0.001 && back[N - 1] == left + (N - 1) / 1000.0 ? 0 : 1;
}
/* Output (lines in any order):
 * PE 0: back[1] = 1.001, back[1023] = 2.023 from PE 1
 * PE 1: back[1] = 0.001, back[1023] = 1.023 from PE 0
 */
