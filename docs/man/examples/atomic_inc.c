/* shmem_atomic_fetch_inc, shmem_atomic_inc: every PE draws a ticket from a
 * counter on PE 0 (each gets a different one) and counts itself in a second
 * counter; PE 0 checks that the tickets are 0 to npes - 1.
 * Build and run: oshcc atomic_inc.c -o atomic_inc && oshrun -n 4 ./atomic_inc
 */
#include <shmem.h>
#include <stdio.h>

static long next_ticket; /* symmetric counters on PE 0 */
static long arrived;
static long drawn[64];   /* on PE 0: how often each ticket was drawn */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long ticket = shmem_atomic_fetch_inc(&next_ticket, 0); /* C11 */
    shmem_atomic_inc(&arrived, 0);
    if (ticket >= 0 && ticket < 64)
        shmem_atomic_inc(&drawn[ticket], 0);
    shmem_barrier_all(); /* completes every increment */
    int wrong = 0;
    if (me == 0) {
        for (int t = 0; t < npes && t < 64; t++)
            wrong += drawn[t] != 1;
        printf("%ld PEs arrived, %ld tickets drawn, each once: %s\n", arrived, next_ticket,
               wrong ? "no" : "yes");
    }
    shmem_finalize();
    return wrong;
}
/* Output:
 * 4 PEs arrived, 4 tickets drawn, each once: yes
 */
