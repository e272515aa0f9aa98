/* The deprecated atomic names (shmem_int_fadd and friends), as programs
 * written for OpenSHMEM 1.3 call them; each is the shmem_atomic_ routine
 * of its page.  New code: shmem_atomic_fetch_add, ... (C11: shmem_fadd is
 * also a type-generic name).
 * Build and run: oshcc deprecated_amo.c -o deprecated_amo && oshrun -n 2 ./deprecated_amo
 */
#include <shmem.h>
#include <stdio.h>

static int counter, word = -1; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    shmem_int_add(&counter, 10, 0);            /* shmem_atomic_add */
    shmem_int_inc(&counter, 0);                /* shmem_atomic_inc */
    shmem_barrier_all();
    int seen = shmem_int_fadd(&counter, 0, 0); /* shmem_atomic_fetch_add */
    shmem_barrier_all();
    int ticket = shmem_int_finc(&counter, 0);  /* shmem_atomic_fetch_inc */
    (void)shmem_int_cswap(&word, -1, me, 0);   /* shmem_atomic_compare_swap */
    shmem_barrier_all();
    int wrong = 0;
    if (me == 0) {
        int leader = shmem_int_fetch(&word, 0);  /* shmem_atomic_fetch */
        int was = shmem_int_swap(&word, 99, 0);  /* shmem_atomic_swap */
        shmem_int_set(&counter, 0, 0);           /* shmem_atomic_set */
        printf("counter after add and inc: %d; one leader elected: %s\n", seen,
               leader == was && (leader == 0 || leader == 1) ? "yes" : "no");
        wrong = seen != 22 || leader != was;
    }
    wrong += ticket != 22 && ticket != 23;
    shmem_finalize();
    return wrong;
}
/* Output:
 * counter after add and inc: 22; one leader elected: yes
 */
