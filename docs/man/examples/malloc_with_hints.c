/* shmem_malloc_with_hints: a block that will hold counters updated by
 * atomic operations from other PEs (in shmpi the hint changes nothing).
 * Build and run: oshcc malloc_with_hints.c -o malloc_with_hints && oshrun -n 4 ./malloc_with_hints
 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long *hits = shmem_malloc_with_hints(sizeof(long), SHMEM_MALLOC_ATOMICS_REMOTE);
    *hits = 0;
    shmem_barrier_all(); /* every PE's counter is 0 before anyone adds */
    for (int pe = 0; pe < npes; pe++)
        shmem_long_atomic_add(hits, me + 1, pe);
    shmem_barrier_all();
    printf("PE %d: %ld hits\n", me, *hits);
    int wrong = *hits != (long)npes * (npes + 1) / 2;
    shmem_free(hits);
    shmem_finalize();
    return wrong;
}
/* Output (lines in any order):
 * PE 0: 10 hits
 * PE 1: 10 hits
 * PE 2: 10 hits
 * PE 3: 10 hits
 */
