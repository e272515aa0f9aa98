/* shmem_atomic_set, shmem_atomic_fetch: PE 0 publishes a phase number on
 * every PE with an atomic write; each PE waits for it and reads it back
 * atomically from PE 0's copy too.
 * Build and run: oshcc atomic_fetch.c -o atomic_fetch && oshrun -n 4 ./atomic_fetch
 */
#include <shmem.h>
#include <stdio.h>

static int phase; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (me == 0)
        for (int pe = 0; pe < npes; pe++)
            shmem_atomic_set(&phase, 7, pe); /* C11; or shmem_int_atomic_set */
    shmem_int_wait_until(&phase, SHMEM_CMP_EQ, 7);
    int at_pe0 = shmem_atomic_fetch(&phase, 0);
    printf("PE %d: phase %d, PE 0 has %d\n", me, phase, at_pe0);
    shmem_finalize();
    return at_pe0 == 7 ? 0 : 1;
}
/* Output (lines in any order):
 * PE 0: phase 7, PE 0 has 7
 * PE 1: phase 7, PE 0 has 7
 * PE 2: phase 7, PE 0 has 7
 * PE 3: phase 7, PE 0 has 7
 */
