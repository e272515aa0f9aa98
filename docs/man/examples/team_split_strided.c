/* shmem_team_split_strided, shmem_team_my_pe, shmem_team_n_pes,
 * shmem_team_destroy: the odd PEs (start 1, stride 2) form a team and sum
 * their numbers over it; the even PEs get SHMEM_TEAM_INVALID.
 * Build and run: oshcc team_split_strided.c -o team_split_strided && oshrun -n 4 ./team_split_strided
 */
#include <shmem.h>
#include <stdio.h>

static int me_world, sum; /* symmetric */

int main(void)
{
    shmem_init();
    int npes = shmem_n_pes();
    me_world = shmem_my_pe();
    shmem_team_t odd;
    if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd) != 0) {
        printf("split failed\n");
        shmem_global_exit(1);
    }
    if (odd == SHMEM_TEAM_INVALID) {
        printf("PE %d is not in the team\n", me_world);
    } else {
        shmem_sum_reduce(odd, &sum, &me_world, 1);
        printf("PE %d is PE %d of %d in the team; the members add up to %d\n", me_world,
               shmem_team_my_pe(odd), shmem_team_n_pes(odd), sum);
        shmem_team_destroy(odd);
    }
    shmem_finalize();
    return 0;
}
/* Output (lines in any order):
 * PE 0 is not in the team
 * PE 1 is PE 0 of 2 in the team; the members add up to 4
 * PE 2 is not in the team
 * PE 3 is PE 1 of 2 in the team; the members add up to 4
 */
