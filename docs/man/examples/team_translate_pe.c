/* shmem_team_translate_pe: in a team of the PEs 3, 2, 1, 0 (start 3,
 * stride -1), which world PE is each team PE, and back.
 * Build and run: oshcc team_translate_pe.c -o team_translate_pe && oshrun -n 4 ./team_translate_pe
 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    shmem_team_t reversed;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0, &reversed);
    if (me == 0)
        for (int t = 0; t < npes; t++)
            printf("team PE %d is world PE %d\n", t,
                   shmem_team_translate_pe(reversed, t, SHMEM_TEAM_WORLD));
    int back = shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, reversed);
    int wrong = back != shmem_team_my_pe(reversed);
    shmem_team_destroy(reversed);
    shmem_finalize();
    return wrong;
}
/* Output:
 * team PE 0 is world PE 3
 * team PE 1 is world PE 2
 * team PE 2 is world PE 1
 * team PE 3 is world PE 0
 */
