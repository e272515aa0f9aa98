/* shmem_broadcast: PE 1 sends its parameters to every PE of the world team.
 * Build and run: oshcc broadcast.c -o broadcast && oshrun -n 4 ./broadcast
 */
#include <shmem.h>
#include <stdio.h>

static double params[3], mine[3]; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    if (me == 1)
        mine[0] = 0.5, mine[1] = 2.0, mine[2] = 8.0;
    shmem_broadcast(SHMEM_TEAM_WORLD, params, mine, 3, 1); /* C11; or shmem_double_broadcast */
    printf("PE %d: %.1f %.1f %.1f\n", me, params[0], params[1], params[2]);
    shmem_finalize();
    return params[2] == 8.0 ? 0 : 1;
}
/* Output (lines in any order):
 * PE 0: 0.5 2.0 8.0
 * PE 1: 0.5 2.0 8.0
 * PE 2: 0.5 2.0 8.0
 * PE 3: 0.5 2.0 8.0
 */
