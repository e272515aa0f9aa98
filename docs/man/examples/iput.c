/* shmem_iput: PE 0 writes one column of a 3 x 4 matrix (row-major) on
 * PE 1: the column's elements are 4 apart there, contiguous here.
 * Build and run: oshcc iput.c -o iput && oshrun -n 2 ./iput
 */
#include <shmem.h>
#include <stdio.h>

static long matrix[3][4]; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    long column[3] = {7, 8, 9};
    if (me == 0) /* into column 2: dest stride 4, source stride 1, 3 elements */
        shmem_long_iput(&matrix[0][2], column, 4, 1, 3, 1);
    shmem_barrier_all();
    int wrong = 0;
    if (me == 1)
        for (int r = 0; r < 3; r++) {
            printf("row %d: %ld %ld %ld %ld\n", r, matrix[r][0], matrix[r][1], matrix[r][2],
                   matrix[r][3]);
            wrong += matrix[r][2] != 7 + r;
        }
    shmem_finalize();
    return wrong;
}
/* Output:
 * row 0: 0 0 7 0
 * row 1: 0 0 8 0
 * row 2: 0 0 9 0
 */
