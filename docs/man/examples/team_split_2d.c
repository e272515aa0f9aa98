/* shmem_team_split_2d: 4 PEs as a 2 x 2 grid; each PE sums over its row
 * team and over its column team.
 * Build and run: oshcc team_split_2d.c -o team_split_2d && oshrun -n 4 ./team_split_2d
 */
#include <shmem.h>
#include <stdio.h>

static int me_world, row_sum, col_sum; /* symmetric */

int main(void)
{
    shmem_init();
    me_world = shmem_my_pe();
    shmem_team_t row, col;
    shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &row, NULL, 0, &col);
    shmem_sum_reduce(row, &row_sum, &me_world, 1);
    shmem_sum_reduce(col, &col_sum, &me_world, 1);
    printf("PE %d: column %d of its row (sum %d), row %d of its column (sum %d)\n", me_world,
           shmem_team_my_pe(row), row_sum, shmem_team_my_pe(col), col_sum);
    shmem_team_destroy(row);
    shmem_team_destroy(col);
    shmem_finalize();
    return 0;
}
/* Output (lines in any order):
 * PE 0: column 0 of its row (sum 1), row 0 of its column (sum 2)
 * PE 1: column 1 of its row (sum 1), row 0 of its column (sum 4)
 * PE 2: column 0 of its row (sum 5), row 1 of its column (sum 2)
 * PE 3: column 1 of its row (sum 5), row 1 of its column (sum 4)
 */
