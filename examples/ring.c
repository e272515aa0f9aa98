/*
 * ring.c - each PE puts its number into an array on its right neighbour,
 * then all PEs sum the array with a barrier in between.  The quick start
 * in README.md builds and runs this on 4 PEs.
 */
#include <shmem.h>
#include <stdio.h>

static long received;           /* static data is symmetric too */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long *board = shmem_calloc((size_t)npes, sizeof(long)); /* symmetric heap */

    /* one-sided: write my number into slot `me` of every PE's board */
    for (int pe = 0; pe < npes; pe++)
        shmem_long_p(&board[me], me + 1, pe);
    shmem_long_p(&received, me, (me + 1) % npes);
    shmem_barrier_all();

    long sum = 0;
    for (int i = 0; i < npes; i++)
        sum += board[i];
    printf("PE %d of %d: left neighbour is %ld, board sum %ld (expected %ld)\n", me, npes,
           received, sum, (long)npes * (npes + 1) / 2);
    int ok = sum == (long)npes * (npes + 1) / 2 && received == (me + npes - 1) % npes;
    shmem_free(board);
    shmem_finalize();
    return ok ? 0 : 1;
}
