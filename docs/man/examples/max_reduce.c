/* shmem_max_reduce, shmem_min_reduce: the highest and lowest reading of
 * all PEs, on every PE.
 * Build and run: oshcc max_reduce.c -o max_reduce && oshrun -n 4 ./max_reduce
 */
#include <shmem.h>
#include <stdio.h>

static int reading, highest, lowest; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    reading = (me * 7) % 5 - 2;  /* -2, 0, 2, -1, ... */
    shmem_max_reduce(SHMEM_TEAM_WORLD, &highest, &reading, 1); /* C11; or shmem_int_max_reduce */
    shmem_min_reduce(SHMEM_TEAM_WORLD, &lowest, &reading, 1);
    if (me == npes - 1)
        printf("readings from %d to %d\n", lowest, highest);
    shmem_finalize();
    return lowest <= reading && reading <= highest ? 0 : 1;
}
/* Output:
 * readings from -2 to 2
 */
