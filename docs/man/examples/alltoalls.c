/* shmem_alltoalls: as shmem_alltoall, but the elements for PE j sit every
 * other place in the source (sst 2), and land every third place (dst 3).
 * Build and run: oshcc alltoalls.c -o alltoalls && oshrun -n 4 ./alltoalls
 */
#include <shmem.h>
#include <stdio.h>

static long out[128], in[192]; /* symmetric: up to 64 PEs */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (npes > 64)
        shmem_global_exit(1);
    for (int j = 0; j < npes; j++)
        out[2 * j] = 10 * me + j, out[2 * j + 1] = -1; /* -1: not sent */
    shmem_alltoalls(SHMEM_TEAM_WORLD, in, out, 3, 2, 1); /* C11; or shmem_long_alltoalls */
    int wrong = 0;
    for (int i = 0; i < npes; i++)
        wrong += in[3 * i] != 10 * i + me;
    if (me == 1)
        printf("PE 1: %ld _ _ %ld _ _ %ld _ _ %ld\n", in[0], in[3], in[6], in[9]);
    shmem_finalize();
    return wrong;
}
/* Output:
 * PE 1: 1 _ _ 11 _ _ 21 _ _ 31
 */
