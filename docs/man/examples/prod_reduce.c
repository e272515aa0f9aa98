/* shmem_prod_reduce: the product of one factor from each PE, in place
 * (dest and source the same array).
 * Build and run: oshcc prod_reduce.c -o prod_reduce && oshrun -n 4 ./prod_reduce
 */
#include <shmem.h>
#include <stdio.h>

static double factor; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    factor = 1.0 + me;   /* 1, 2, 3, 4, ... */
    shmem_prod_reduce(SHMEM_TEAM_WORLD, &factor, &factor, 1); /* C11 */
    if (me == 0)
        printf("product %.0f\n", factor);
    shmem_finalize();
    return factor > 0 ? 0 : 1;
}
/* Output:
 * product 24
 */
