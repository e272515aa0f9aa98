/* shmem_pe_quiet: PE 0 puts to every PE but, before raising PE 1's and
 * PE 2's flags, completes only the puts to those two.
 * Build and run: oshcc pe_quiet.c -o pe_quiet && oshrun -n 4 ./pe_quiet
 */
#include <shmem.h>
#include <stdio.h>

static long data[4]; /* symmetric */
static int ready;    /* symmetric flag */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (me == 0) {
        long values[4] = {1, 2, 3, 4};
        for (int pe = 1; pe < npes; pe++)
            shmem_long_put_nbi(data, values, 4, pe);
        int first[2] = {1, 2};
        shmem_pe_quiet(first, 2); /* the puts to PEs 1 and 2 are complete */
        for (int i = 0; i < 2; i++)
            shmem_int_p(&ready, 1, first[i]);
    }
    shmem_barrier_all(); /* completes the rest too */
    if (me == 1 || me == 2) {
        shmem_int_wait_until(&ready, SHMEM_CMP_EQ, 1);
        printf("PE %d: data ends with %ld\n", me, data[3]);
    }
    shmem_finalize();
    return 0;
}
/* Output (lines in any order):
 * PE 1: data ends with 4
 * PE 2: data ends with 4
 */
