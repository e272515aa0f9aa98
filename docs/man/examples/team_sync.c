/* shmem_team_sync: the even PEs form a team; within it each PE puts a value
 * to its partner, completes it with a quiet, and syncs the team before
 * reading.  The odd PEs do not take part.
 * Build and run: oshcc team_sync.c -o team_sync && oshrun -n 4 ./team_sync
 */
#include <shmem.h>
#include <stdio.h>

static int got; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    shmem_team_t evens;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens);
    int wrong = 0;
    if (evens != SHMEM_TEAM_INVALID) {
        int mine = shmem_team_my_pe(evens), n = shmem_team_n_pes(evens);
        int partner = (mine + 1) % n;  /* in the team's numbering */
        shmem_int_p(&got, 100 + mine, shmem_team_translate_pe(evens, partner, SHMEM_TEAM_WORLD));
        shmem_quiet();
        shmem_team_sync(evens);       /* C11: shmem_sync(evens) */
        int from = (mine + n - 1) % n;
        printf("PE %d got %d from team PE %d\n", me, got, from);
        wrong = got != 100 + from;
        shmem_team_destroy(evens);
    }
    shmem_finalize();
    return wrong;
}
/* Output (lines in any order):
 * PE 0 got 101 from team PE 1
 * PE 2 got 100 from team PE 0
 */
