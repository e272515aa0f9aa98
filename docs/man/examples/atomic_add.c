/* shmem_atomic_add: every PE adds its share of a sum into PE 0's total
 * without waiting for an answer; a barrier completes the additions.
 * Build and run: oshcc atomic_add.c -o atomic_add && oshrun -n 4 ./atomic_add
 */
#include <shmem.h>
#include <stdio.h>

static long long total; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    for (int i = 1; i <= 100; i++)             /* this PE's share of 1 + ... + 100n */
        shmem_atomic_add(&total, (long long)(me * 100 + i), 0); /* C11 */
    shmem_barrier_all();
    int wrong = 0;
    if (me == 0) {
        long long n = 100LL * npes;
        printf("total %lld (want %lld)\n", total, n * (n + 1) / 2);
        wrong = total != n * (n + 1) / 2;
    }
    shmem_finalize();
    return wrong;
}
/* Output:
 * total 80200 (want 80200)
 */
