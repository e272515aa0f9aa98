/* Each PE puts its number into its right neighbour's symmetric variable;
 * every PE checks it received its left neighbour's. */
#include <shmem.h>
#include <stdio.h>

static long from_left = -1;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long mine = me;
    shmem_long_put(&from_left, &mine, 1, (me + 1) % n);
    shmem_barrier_all();
    int ok = from_left == (me + n - 1) % n;
    printf("neighbours: PE %d of %d received %ld: %s\n", me, n, from_left, ok ? "ok" : "WRONG");
    shmem_finalize();
    return !ok;
}
