/* shmem_atomic_swap: every PE swaps its number into a slot on PE 0 that
 * starts at -1.  Each gets back what was there; what comes back, with what
 * is left in the slot, is every number once: -1 + 0 + 1 + 2 + 3 = 5.
 * Build and run: oshcc atomic_swap.c -o atomic_swap && oshrun -n 4 ./atomic_swap
 */
#include <shmem.h>
#include <stdio.h>

static long slot = -1; /* symmetric */
static long returned;  /* symmetric: the sum of what the swaps gave back */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long old = shmem_atomic_swap(&slot, (long)me, 0); /* C11; or shmem_long_atomic_swap */
    shmem_atomic_add(&returned, old, 0);
    shmem_barrier_all(); /* completes every swap and add */
    int wrong = 0;
    if (me == 0) {
        long sum = returned + slot, want = -1 + (long)npes * (npes - 1) / 2;
        printf("what the swaps gave back and what the slot holds add up to %ld\n", sum);
        wrong = sum != want || slot < 0 || slot >= npes;
    }
    shmem_finalize();
    return wrong;
}
/* Output (which PE swapped last changes from run to run; the sum does not):
 * what the swaps gave back and what the slot holds add up to 5
 */
