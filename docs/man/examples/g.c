/* shmem_g: every PE reads one value of its left neighbour.
 * Build and run: oshcc g.c -o g && oshrun -n 4 ./g
 */
#include <shmem.h>
#include <stdio.h>

static double temperature; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    temperature = 20.0 + me;
    shmem_barrier_all(); /* every PE has set its value */
    int left = (me + npes - 1) % npes;
    double theirs = shmem_double_g(&temperature, left); /* C11: shmem_g */
    printf("PE %d: PE %d has %.1f\n", me, left, theirs);
    shmem_finalize();
    return theirs == 20.0 + left ? 0 : 1;
}
/* Output (lines in any order):
 * PE 0: PE 3 has 23.0
 * PE 1: PE 0 has 20.0
 * PE 2: PE 1 has 21.0
 * PE 3: PE 2 has 22.0
 */
