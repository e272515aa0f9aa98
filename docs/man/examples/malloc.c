/* shmem_malloc, shmem_free: a symmetric array whose size is known only at
 * run time; every PE writes into its right neighbour's.
 * Build and run: oshcc malloc.c -o malloc && oshrun -n 4 ./malloc
 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    size_t n = 1000 * (size_t)npes;            /* the same on every PE */
    long *data = shmem_malloc(n * sizeof(long));
    if (!data) {                               /* the heap is too small */
        shmem_finalize();
        return 1;
    }
    long mine[3] = {me, me, me};
    shmem_long_put(data, mine, 3, (me + 1) % npes);
    shmem_barrier_all();
    printf("PE %d: data[0] = %ld\n", me, data[0]);
    int wrong = data[0] != (me + npes - 1) % npes;
    shmem_free(data);                          /* collective too */
    shmem_finalize();
    return wrong;
}
/* Output (lines in any order):
 * PE 0: data[0] = 3
 * PE 1: data[0] = 0
 * PE 2: data[0] = 1
 * PE 3: data[0] = 2
 */
