/* shmem_iget: PE 1 reads the diagonal of a 4 x 4 matrix held by PE 0:
 * its elements are 5 apart there (row length + 1).
 * Build and run: oshcc iget.c -o iget && oshrun -n 2 ./iget
 */
#include <shmem.h>
#include <stdio.h>

static int matrix[4][4]; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            matrix[r][c] = 10 * r + c;
    shmem_barrier_all();
    int wrong = 0;
    if (me == 1) {
        int diagonal[4];
        shmem_int_iget(diagonal, &matrix[0][0], 1, 5, 4, 0); /* C11: shmem_iget */
        printf("diagonal: %d %d %d %d\n", diagonal[0], diagonal[1], diagonal[2], diagonal[3]);
        wrong = diagonal[3] != 33;
    }
    shmem_finalize();
    return wrong;
}
/* Output:
 * diagonal: 0 11 22 33
 */
