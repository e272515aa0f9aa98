/* shmem_collect: PE k contributes k + 1 copies of its number; every PE gets
 * all of them, in PE order.
 * Build and run: oshcc collect.c -o collect && oshrun -n 4 ./collect
 */
#include <shmem.h>
#include <stdio.h>

static int source[16], dest[136]; /* symmetric: up to 16 PEs */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (npes > 16)
        shmem_global_exit(1);
    for (int i = 0; i <= me; i++)
        source[i] = me;
    shmem_collect(SHMEM_TEAM_WORLD, dest, source, (size_t)me + 1); /* C11; or shmem_int_collect */
    int total = npes * (npes + 1) / 2;
    if (me == 0) {
        for (int i = 0; i < total; i++)
            printf("%d%s", dest[i], i + 1 < total ? " " : "\n");
    }
    int wrong = dest[total - 1] != npes - 1;
    shmem_finalize();
    return wrong;
}
/* Output:
 * 0 1 1 2 2 2 3 3 3 3
 */
