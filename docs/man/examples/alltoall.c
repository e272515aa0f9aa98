/* shmem_alltoall: PE i sends the number 10 * i + j to PE j; afterwards PE
 * j holds 10 * i + j from every PE i, in order.
 * Build and run: oshcc alltoall.c -o alltoall && oshrun -n 4 ./alltoall
 */
#include <shmem.h>
#include <stdio.h>

static int out[64], in[64]; /* symmetric: up to 64 PEs */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (npes > 64)
        shmem_global_exit(1);
    for (int j = 0; j < npes; j++)
        out[j] = 10 * me + j;
    shmem_alltoall(SHMEM_TEAM_WORLD, in, out, 1); /* C11; or shmem_int_alltoall */
    int wrong = 0;
    for (int i = 0; i < npes; i++)
        wrong += in[i] != 10 * i + me;
    if (me == 2)
        printf("PE 2 received %d %d %d %d\n", in[0], in[1], in[2], in[3]);
    shmem_finalize();
    return wrong;
}
/* Output:
 * PE 2 received 2 12 22 32
 */
