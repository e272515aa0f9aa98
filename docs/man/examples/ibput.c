/* shmem_ibput: PE 0 writes a 2 x 2 tile into the corner of an 4 x 6 grid
 * on PE 1: 2 blocks of 2 elements, the blocks 6 apart there (a row), 2
 * apart here.
 * Build and run: oshcc ibput.c -o ibput && oshrun -n 2 ./ibput
 */
#include <shmem.h>
#include <stdio.h>

static short grid[4][6]; /* symmetric */

int main(void)
{
    shmem_init();
    short tile[2][2] = {{1, 2}, {3, 4}};
    if (shmem_my_pe() == 0) /* dest stride 6, source stride 2, blocks of 2, 2 blocks */
        shmem_short_ibput(&grid[0][0], &tile[0][0], 6, 2, 2, 2, 1);
    shmem_barrier_all();
    int wrong = 0;
    if (shmem_my_pe() == 1) {
        for (int r = 0; r < 4; r++)
            printf("%d %d %d %d %d %d\n", grid[r][0], grid[r][1], grid[r][2], grid[r][3],
                   grid[r][4], grid[r][5]);
        wrong = grid[1][1] != 4 || grid[2][0] != 0;
    }
    shmem_finalize();
    return wrong;
}
/* Output:
 * 1 2 0 0 0 0
 * 3 4 0 0 0 0
 * 0 0 0 0 0 0
 * 0 0 0 0 0 0
 */
