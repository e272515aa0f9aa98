/* shmem_put: every PE writes four numbers into an array of the PE to its
 * right; a barrier completes the puts, then each PE reads what it got.
 * Build and run: oshcc put.c -o put && oshrun -n 4 ./put
 */
#include <shmem.h>
#include <stdio.h>

static long inbox[4]; /* static, so symmetric: it exists on every PE */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long mine[4];
    for (int i = 0; i < 4; i++)
        mine[i] = 10 * me + i;
    shmem_put(inbox, mine, 4, (me + 1) % npes); /* C11; or shmem_long_put */
    shmem_barrier_all(); /* every PE's put is complete, then all go on */
    int left = (me + npes - 1) % npes;
    printf("PE %d got %ld %ld %ld %ld from PE %d\n", me, inbox[0], inbox[1], inbox[2],
           inbox[3], left);
    int right = inbox[0] == 10 * left && inbox[3] == 10 * left + 3;
    shmem_finalize();
    return right ? 0 : 1;
}
/* Output (lines in any order):
 * PE 0 got 30 31 32 33 from PE 3
 * PE 1 got 0 1 2 3 from PE 0
 * PE 2 got 10 11 12 13 from PE 1
 * PE 3 got 20 21 22 23 from PE 2
 */
