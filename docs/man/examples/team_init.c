/* shmemx_team_get_uniqueid, shmemx_team_init: the odd PEs make a team in
 * reverse order knowing only an id, their number and their index; then
 * SHMEMX_TEAM_SAME_MYPE_NODE, which on one machine is each PE alone.
 * Build and run: oshcc team_init.c -o team_init && oshrun -n 4 ./team_init
 */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>

static uint64_t id; /* symmetric: PE 0 broadcasts it */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (me == 0)
        shmemx_team_get_uniqueid(&id);
    shmem_uint64_broadcast(SHMEM_TEAM_WORLD, &id, &id, 1, 0);
    if (me % 2 == 1) {
        int odd = npes / 2, rank = odd - 1 - me / 2; /* the last odd PE is team PE 0 */
        shmem_team_t team;
        shmemx_team_init(id, odd, rank, NULL, 0, &team);
        int first = shmem_team_translate_pe(team, 0, SHMEM_TEAM_WORLD);
        printf("PE %d: PE %d of %d, team PE 0 is PE %d\n", me, shmem_team_my_pe(team),
               shmem_team_n_pes(team), first);
        shmem_team_destroy(team);
    }
    if (me == 0)
        printf("SHMEMX_TEAM_SAME_MYPE_NODE: %d PE(s)\n",
               shmem_team_n_pes(SHMEMX_TEAM_SAME_MYPE_NODE));
    shmem_finalize();
    return 0;
}
/* Output (lines in any order):
 * PE 1: PE 1 of 2, team PE 0 is PE 3
 * PE 3: PE 0 of 2, team PE 0 is PE 3
 * SHMEMX_TEAM_SAME_MYPE_NODE: 1 PE(s)
 */
