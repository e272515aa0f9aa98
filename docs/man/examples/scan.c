/* shmem_sum_inscan, shmem_sum_exscan: PE k has k + 1 items; the exclusive
 * sum is where its items start in a list of everyone's, the inclusive sum
 * where they end.
 * Build and run: oshcc scan.c -o scan && oshrun -n 4 ./scan
 */
#include <shmem.h>
#include <stdio.h>

static int items, start, end; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    items = me + 1;
    shmem_sum_exscan(SHMEM_TEAM_WORLD, &start, &items, 1); /* C11; or shmem_int_sum_exscan */
    shmem_sum_inscan(SHMEM_TEAM_WORLD, &end, &items, 1);
    printf("PE %d: items %d to %d\n", me, start, end - 1);
    shmem_finalize();
    return end - start == items ? 0 : 1;
}
/* Output (lines in any order):
 * PE 0: items 0 to 0
 * PE 1: items 1 to 2
 * PE 2: items 3 to 5
 * PE 3: items 6 to 9
 */
