/* team_sets.c - the teams the collective tests run on, included by them
 * (not a program of its own): the world, the shared team, the reversed
 * world (stride -1), every other PE from PE 1 (stride 2), every other PE
 * from the last one down (stride -2), the row and column teams of a 2-D
 * split with 3 columns, and a split of the shared team.  Each entry knows
 * the world PE of every team PE, from shmem_team_translate_pe. */
#include <stdbool.h>
#include <string.h>

#include "testlib.h"

#define MAX_TEAM_PES 64
#define MAX_TEST_TEAMS 10

struct test_team {
    const char *name;
    shmem_team_t team; /* SHMEM_TEAM_INVALID where this PE is not a member */
    bool destroy;      /* created here, destroyed by free_test_teams */
    int n, me;         /* team size and this PE's team PE */
    int world[MAX_TEAM_PES];
};

static void add_team(struct test_team *t, int *count, const char *name, shmem_team_t team,
                     bool destroy)
{
    struct test_team *e = &t[(*count)++];
    e->name = name;
    e->team = team;
    e->destroy = destroy;
    e->n = e->me = -1;
    if (team == SHMEM_TEAM_INVALID)
        return;
    e->n = shmem_team_n_pes(team);
    e->me = shmem_team_my_pe(team);
    CHECK(e->n >= 1 && e->n <= MAX_TEAM_PES, "%s has %d PEs", name, e->n);
    for (int i = 0; i < e->n; i++)
        e->world[i] = shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD);
    CHECK(e->world[e->me] == shmem_my_pe(), "%s: my team PE %d is world %d", name, e->me,
          e->world[e->me]);
}

/* Makes the teams (collective over the world); returns how many. */
static int make_test_teams(struct test_team *t)
{
    int n = shmem_n_pes(), count = 0;
    shmem_team_t team, x, y;
    add_team(t, &count, "world", SHMEM_TEAM_WORLD, false);
    add_team(t, &count, "shared", SHMEM_TEAM_SHARED, false);
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, NULL, 0, &team) == 0, "rev");
    add_team(t, &count, "reversed", team, true);
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1 % n, 2, n > 1 ? n / 2 : 1, NULL, 0,
                                   &team) == 0,
          "odd");
    add_team(t, &count, "odd", team, true);
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -2, (n + 1) / 2, NULL, 0, &team) ==
              0,
          "down2");
    add_team(t, &count, "down2", team, true);
    CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 3, NULL, 0, &x, NULL, 0, &y) == 0, "2d");
    add_team(t, &count, "row", x, true);
    add_team(t, &count, "column", y, true);
    int ns = shmem_team_n_pes(SHMEM_TEAM_SHARED);
    CHECK(shmem_team_split_strided(SHMEM_TEAM_SHARED, ns - 1, -1, ns, NULL, 0, &team) == 0,
          "shared reversed");
    add_team(t, &count, "shared-reversed", team, true);
    return count;
}

static void free_test_teams(struct test_team *t, int count)
{
    for (int i = 0; i < count; i++)
        if (t[i].destroy && t[i].team != SHMEM_TEAM_INVALID)
            shmem_team_destroy(t[i].team);
}
