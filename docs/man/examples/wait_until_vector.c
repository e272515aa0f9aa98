/* shmem_wait_until_all_vector, _any_vector, _some_vector: each other PE
 * counts up its own counter on PE 0, to a target of its own; PE 0 waits
 * until each counter reaches its target.
 * Build and run: oshcc wait_until_vector.c -o wait_until_vector && oshrun -n 4 ./wait_until_vector
 */
#include <shmem.h>
#include <stdio.h>

#define MAX_PES 64
static long count[MAX_PES]; /* symmetric: on PE 0, one counter per PE */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (npes > MAX_PES)
        shmem_global_exit(1);
    long target[MAX_PES];
    for (int pe = 0; pe < npes; pe++)
        target[pe] = 5L * pe; /* PE 0's own target is 0: met at once */
    if (me != 0)
        for (long i = 0; i < target[me]; i++)
            shmem_long_atomic_inc(&count[me], 0);
    if (me == 0) {
        size_t first = shmem_long_wait_until_any_vector(count, (size_t)npes, NULL,
                                                        SHMEM_CMP_GE, target);
        size_t idx[MAX_PES];
        size_t some = shmem_long_wait_until_some_vector(count, (size_t)npes, idx, NULL,
                                                        SHMEM_CMP_GE, target);
        shmem_long_wait_until_all_vector(count, (size_t)npes, NULL, SHMEM_CMP_GE, target);
        printf("a counter at its target: %s; at least one found by _some: %s\n",
               count[first] >= target[first] ? "yes" : "no", some >= 1 ? "yes" : "no");
        for (int pe = 1; pe < npes; pe++)
            printf("PE %d counted to %ld\n", pe, count[pe]);
    }
    shmem_finalize();
    return 0;
}
/* Output:
 * a counter at its target: yes; at least one found by _some: yes
 * PE 1 counted to 5
 * PE 2 counted to 10
 * PE 3 counted to 15
 */
