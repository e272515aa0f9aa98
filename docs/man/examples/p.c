/* shmem_p: PE 0 stores a value into a flag on every other PE, which waits
 * for it.
 * Build and run: oshcc p.c -o p && oshrun -n 4 ./p
 */
#include <shmem.h>
#include <stdio.h>

static int flag; /* symmetric, 0 at start */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (me == 0) {
        for (int pe = 1; pe < npes; pe++)
            shmem_int_p(&flag, 40 + pe, pe); /* C11: shmem_p(&flag, 40 + pe, pe) */
        shmem_quiet();
    } else {
        shmem_int_wait_until(&flag, SHMEM_CMP_NE, 0);
        printf("PE %d: flag is %d\n", me, flag);
    }
    int right = me == 0 || flag == 40 + me;
    shmem_finalize();
    return right ? 0 : 1;
}
/* Output (lines in any order):
 * PE 1: flag is 41
 * PE 2: flag is 42
 * PE 3: flag is 43
 */
