/* shmem_barrier_all: two phases.  In the first every PE puts its number
 * into a slot of every PE; the barrier completes all the puts, so in the
 * second every PE finds every slot filled.
 * Build and run: oshcc barrier_all.c -o barrier_all && oshrun -n 4 ./barrier_all
 */
#include <shmem.h>
#include <stdio.h>

static int slot[64]; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    for (int pe = 0; pe < npes && me < 64; pe++)
        shmem_int_p(&slot[me], me + 1, pe);
    shmem_barrier_all();
    int sum = 0;
    for (int i = 0; i < npes && i < 64; i++)
        sum += slot[i];
    printf("PE %d: slots add up to %d\n", me, sum);
    shmem_finalize();
    return sum == npes * (npes + 1) / 2 ? 0 : 1;
}
/* Output (lines in any order):
 * PE 0: slots add up to 10
 * PE 1: slots add up to 10
 * PE 2: slots add up to 10
 * PE 3: slots add up to 10
 */
