/* shmem_fcollect: every PE contributes two numbers; every PE gets the
 * table of all of them, PE 0's first.
 * Build and run: oshcc fcollect.c -o fcollect && oshrun -n 4 ./fcollect
 */
#include <shmem.h>
#include <stdio.h>

static long pair[2], table[128]; /* symmetric: up to 64 PEs */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (npes > 64)
        shmem_global_exit(1);
    pair[0] = me, pair[1] = me * me;
    shmem_fcollect(SHMEM_TEAM_WORLD, table, pair, 2); /* C11; or shmem_long_fcollect */
    if (me == npes - 1)
        for (int pe = 0; pe < npes; pe++)
            printf("PE %ld: square %ld\n", table[2 * pe], table[2 * pe + 1]);
    int wrong = table[2 * (npes - 1) + 1] != (long)(npes - 1) * (npes - 1);
    shmem_finalize();
    return wrong;
}
/* Output:
 * PE 0: square 0
 * PE 1: square 1
 * PE 2: square 4
 * PE 3: square 9
 */
