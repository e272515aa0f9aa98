/* shmem_sum_reduce: every PE computes part of a sum; the reduction gives
 * the total to all of them.
 * Build and run: oshcc sum_reduce.c -o sum_reduce && oshrun -n 4 ./sum_reduce
 */
#include <shmem.h>
#include <stdio.h>

static long part[2], total[2]; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    part[0] = 0, part[1] = 0;
    for (long i = me; i < 1000; i += npes) { /* this PE's share of 0..999 */
        part[0] += i;
        part[1] += i * i;
    }
    shmem_sum_reduce(SHMEM_TEAM_WORLD, total, part, 2); /* C11; or shmem_long_sum_reduce */
    printf("PE %d: sum %ld, sum of squares %ld\n", me, total[0], total[1]);
    shmem_finalize();
    return total[0] == 499500 && total[1] == 332833500 ? 0 : 1;
}
/* Output (lines in any order):
 * PE 0: sum 499500, sum of squares 332833500
 * PE 1: sum 499500, sum of squares 332833500
 * PE 2: sum 499500, sum of squares 332833500
 * PE 3: sum 499500, sum of squares 332833500
 */
