/* shmem_signal_set: a token passes round the ring of PEs: each waits for
 * its signal to hold the round number, then sets the next PE's.
 * Build and run: oshcc signal_set.c -o signal_set && oshrun -n 4 ./signal_set
 */
#include <shmem.h>
#include <stdio.h>

static uint64_t token; /* symmetric signal */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int next = (me + 1) % npes;
    for (uint64_t round = 1; round <= 3; round++) {
        if (me == 0) { /* PE 0 starts each round and waits for it to come back */
            shmem_signal_set(&token, round, next);
            shmem_signal_wait_until(&token, SHMEM_CMP_EQ, round);
        } else {
            shmem_signal_wait_until(&token, SHMEM_CMP_EQ, round);
            shmem_signal_set(&token, round, next);
        }
    }
    if (me == 0)
        printf("the token went round 3 times\n");
    shmem_finalize();
    return 0;
}
/* Output:
 * the token went round 3 times
 */
