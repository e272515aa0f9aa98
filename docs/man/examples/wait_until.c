/* shmem_wait_until: PE 0 puts a result into every other PE, then raises
 * its "ready" flag there; each waits for the flag before it reads.
 * Build and run: oshcc wait_until.c -o wait_until && oshrun -n 4 ./wait_until
 */
#include <shmem.h>
#include <stdio.h>

static double result; /* symmetric */
static int ready;     /* symmetric flag */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (me == 0) {
        for (int pe = 1; pe < npes; pe++) {
            double value = 1.5 * pe;
            shmem_double_put(&result, &value, 1, pe);
            shmem_fence();             /* the result arrives before the flag */
            shmem_int_p(&ready, 1, pe);
        }
    } else {
        shmem_int_wait_until(&ready, SHMEM_CMP_EQ, 1); /* C11: shmem_wait_until */
        printf("PE %d: result %.1f\n", me, result);
    }
    int wrong = me != 0 && result != 1.5 * me;
    shmem_finalize();
    return wrong;
}
/* Output (lines in any order):
 * PE 1: result 1.5
 * PE 2: result 3.0
 * PE 3: result 4.5
 */
