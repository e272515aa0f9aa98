/* shmem_calloc: a zeroed histogram on every PE; each PE counts into PE 0's
 * with atomic increments.
 * Build and run: oshcc calloc.c -o calloc && oshrun -n 4 ./calloc
 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    int *histogram = shmem_calloc(10, sizeof(int)); /* all zero on every PE */
    for (int i = 0; i < 10; i++)
        if (i % 2 == me % 2)
            shmem_int_atomic_inc(&histogram[i], 0);
    shmem_barrier_all();
    if (me == 0) {
        for (int i = 0; i < 10; i++)
            printf("%d%s", histogram[i], i < 9 ? " " : "\n");
    }
    shmem_free(histogram);
    shmem_finalize();
    return 0;
}
/* Output:
 * 2 2 2 2 2 2 2 2 2 2
 */
