/* shmem_atomic_compare_swap: the PEs elect a leader.  Each tries to turn
 * PE 0's word from -1 into its own number; exactly one succeeds, and every
 * PE learns who from the value that came back.
 * Build and run: oshcc atomic_compare_swap.c -o atomic_compare_swap && oshrun -n 4 ./atomic_compare_swap
 */
#include <shmem.h>
#include <stdio.h>

static int leader = -1; /* symmetric */
static int wins;        /* symmetric: on PE 0, how many PEs won */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    int old = shmem_atomic_compare_swap(&leader, -1, me, 0); /* C11; or shmem_int_... */
    if (old == -1)               /* the word held -1: this PE wrote it */
        shmem_atomic_inc(&wins, 0);
    int elected = old == -1 ? me : old;
    shmem_barrier_all();
    int agree = shmem_atomic_fetch(&leader, 0) == elected;
    if (me == 0)
        printf("%d PE won the election\n", wins);
    printf("PE %d agrees on the leader: %s\n", me, agree ? "yes" : "no");
    int right = agree && (me != 0 || wins == 1);
    shmem_finalize();
    return right ? 0 : 1;
}
/* Output (lines in any order; the leader itself changes from run to run):
 * 1 PE won the election
 * PE 0 agrees on the leader: yes
 * PE 1 agrees on the leader: yes
 * PE 2 agrees on the leader: yes
 * PE 3 agrees on the leader: yes
 */
