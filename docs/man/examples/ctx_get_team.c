/* shmem_team_create_ctx, shmem_ctx_get_team: a context on the team of the
 * even PEs; the puts through it count PEs in that team.
 * Build and run: oshcc ctx_get_team.c -o ctx_get_team && oshrun -n 4 ./ctx_get_team
 */
#include <shmem.h>
#include <stdio.h>

static int from; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    shmem_team_t evens;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens);
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    if (evens != SHMEM_TEAM_INVALID && shmem_team_create_ctx(evens, 0, &ctx) == 0) {
        shmem_team_t team;
        shmem_ctx_get_team(ctx, &team);
        int mine = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
        shmem_ctx_int_p(ctx, &from, me, (mine + 1) % n); /* team PE, not world PE */
        shmem_ctx_quiet(ctx);
        shmem_team_sync(team);
        printf("PE %d (team PE %d) heard from PE %d\n", me, mine, from);
        shmem_ctx_destroy(ctx);
        shmem_team_destroy(evens);
    }
    shmem_finalize();
    return 0;
}
/* Output (lines in any order):
 * PE 0 (team PE 0) heard from PE 2
 * PE 2 (team PE 1) heard from PE 0
 */
