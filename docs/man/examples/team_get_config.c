/* shmem_team_get_config: a team made to hold 2 contexts says so.
 * Build and run: oshcc team_get_config.c -o team_get_config && oshrun -n 2 ./team_get_config
 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    shmem_team_config_t want = {.num_contexts = 2}, got = {0};
    shmem_team_t team;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), &want,
                             SHMEM_TEAM_NUM_CONTEXTS, &team);
    int status = shmem_team_get_config(team, SHMEM_TEAM_NUM_CONTEXTS, &got);
    if (shmem_my_pe() == 0)
        printf("status %d, num_contexts %d\n", status, got.num_contexts);
    shmem_team_destroy(team);
    shmem_finalize();
    return got.num_contexts == 2 ? 0 : 1;
}
/* Output:
 * status 0, num_contexts 2
 */
