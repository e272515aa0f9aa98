/* shmemx_long_put_signal_on_stream, shmemx_signal_wait_until_on_stream,
 * shmemx_signal_op_on_stream: on a CUDA stream, each PE puts an array into
 * its right neighbour's device heap and sets a signal there; the
 * neighbour's stream waits for the signal, reads the array and answers
 * with a signal of its own.  The host enqueues everything and waits once,
 * at the end.
 * Build and run: oshcc stream_signal.c -o stream_signal && SHMPI_DEVICE_HEAP_SIZE=64m oshrun -n 2 ./stream_signal
 */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>

#define N 1000

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    shmemx_stream_t stream = 0; /* or the program's cudaStream_t */
    long *inbox = shmemx_device_malloc(N * sizeof(long));
    /* signals: [0] the left PE's data is in the inbox, [1] the right PE read ours */
    uint64_t *sig = shmemx_device_calloc(2, sizeof(uint64_t));
    static long mine[N], got[N];
    static uint64_t answered; /* host memory: a copy of sig[1] */
    for (int i = 0; i < N; i++)
        mine[i] = 1000 * me + i;
    shmemx_long_put_signal_on_stream(inbox, mine, N, &sig[0], 1, SHMEM_SIGNAL_SET, right,
                                     stream);
    shmemx_signal_wait_until_on_stream(&sig[0], SHMEM_CMP_EQ, 1, stream); /* the stream waits */
    shmemx_long_get_on_stream(got, inbox, N, me, stream);
    shmemx_signal_op_on_stream(&sig[1], 1, SHMEM_SIGNAL_SET, left, stream); /* read it */
    shmemx_signal_wait_until_on_stream(&sig[1], SHMEM_CMP_GE, 1, stream);
    /* the host waits for the stream (a CUDA program: cudaStreamSynchronize) */
    shmemx_getmem_on_stream(&answered, &sig[1], sizeof answered, me, stream);
    shmem_uint64_wait_until(&answered, SHMEM_CMP_EQ, 1);
    printf("PE %d: got[%d] = %ld from PE %d; PE %d has read ours\n", me, N - 1, got[N - 1],
           left, right);
    shmemx_device_free(sig);
    shmemx_device_free(inbox);
    shmem_finalize();
    return got[N - 1] == 1000 * left + N - 1 ? 0 : 1;
}
/* Output (lines in any order):
 * PE 0: got[999] = 1999 from PE 1; PE 1 has read ours
 * PE 1: got[999] = 999 from PE 0; PE 0 has read ours
 */
