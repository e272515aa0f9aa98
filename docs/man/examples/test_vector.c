/* shmem_test_all_vector, _any_vector, _some_vector: PE 0 polls per-PE
 * counters, each against a target of its own, without blocking.
 * Build and run: oshcc test_vector.c -o test_vector && oshrun -n 4 ./test_vector
 */
#include <shmem.h>
#include <stdio.h>

#define MAX_PES 64
static int count[MAX_PES]; /* symmetric: on PE 0 */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (npes > MAX_PES)
        shmem_global_exit(1);
    int target[MAX_PES];
    for (int pe = 0; pe < npes; pe++)
        target[pe] = pe + 1;
    for (int i = 0; i < target[me]; i++)
        shmem_int_atomic_inc(&count[me], 0);
    if (me == 0) {
        size_t idx[MAX_PES], polls = 0;
        while (!shmem_int_test_all_vector(count, (size_t)npes, NULL, SHMEM_CMP_GE, target))
            polls++; /* ... other work ... */
        size_t n = shmem_int_test_some_vector(count, (size_t)npes, idx, NULL, SHMEM_CMP_GE, target);
        size_t any = shmem_int_test_any_vector(count, (size_t)npes, NULL, SHMEM_CMP_GT, target);
        printf("every counter reached its target; _some finds %zu, _any beyond target: %s\n",
               n, any == SIZE_MAX ? "none" : "some");
        (void)polls;
    }
    shmem_finalize();
    return 0;
}
/* Output:
 * every counter reached its target; _some finds 4, _any beyond target: none
 */
