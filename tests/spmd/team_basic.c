/* Teams: predefined teams, queries, translation, strided and 2-D splits
 * (negative strides, error cases), configuration, destroy, team_sync and
 * shmem_sync (both meanings), and the MPI communicator of a team. */
#include <mpi.h>
#include <stdlib.h>
#include <shmemx.h>

#include "testlib.h"

/* World PE of every team PE, checked against translate_pe both ways. */
static void check_translation(shmem_team_t team, const int *world_pes, int n)
{
    CHECK(shmem_team_n_pes(team) == n, "team has %d PEs, expected %d", shmem_team_n_pes(team),
          n);
    int me = shmem_my_pe(), my_team_pe = -1;
    for (int i = 0; i < n; i++) {
        CHECK(shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD) == world_pes[i],
              "team PE %d -> world %d, expected %d", i,
              shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD), world_pes[i]);
        CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, world_pes[i], team) == i,
              "world PE %d -> team %d, expected %d", world_pes[i],
              shmem_team_translate_pe(SHMEM_TEAM_WORLD, world_pes[i], team), i);
        if (world_pes[i] == me)
            my_team_pe = i;
    }
    CHECK(shmem_team_my_pe(team) == my_team_pe, "my_pe %d, expected %d", shmem_team_my_pe(team),
          my_team_pe);
    CHECK(shmem_team_translate_pe(team, -1, SHMEM_TEAM_WORLD) == -1, "PE -1 translated");
    CHECK(shmem_team_translate_pe(team, n, SHMEM_TEAM_WORLD) == -1, "PE n translated");
    /* World PEs outside the team translate to -1. */
    for (int w = 0; w < shmem_n_pes(); w++) {
        int in = 0;
        for (int i = 0; i < n; i++)
            in |= world_pes[i] == w;
        if (!in)
            CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, w, team) == -1,
                  "non-member world PE %d translated to %d", w,
                  shmem_team_translate_pe(SHMEM_TEAM_WORLD, w, team));
    }
}

/* Splits world with (start, stride, size) and checks membership. */
static void strided(int start, int stride, int size)
{
    int me = shmem_my_pe();
    shmem_team_t team = (shmem_team_t)&team; /* garbage the split must overwrite */
    int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, start, stride, size, NULL, 0, &team);
    CHECK(rc == 0, "split(%d, %d, %d) failed", start, stride, size);
    int world_pes[64], member = 0;
    for (int i = 0; i < size; i++) {
        world_pes[i] = start + i * stride;
        member |= world_pes[i] == me;
    }
    if (!member) {
        CHECK(team == SHMEM_TEAM_INVALID, "non-member got a team");
        return;
    }
    CHECK(team != SHMEM_TEAM_INVALID, "member got no team");
    check_translation(team, world_pes, size);
    CHECK(shmem_team_sync(team) == 0, "team_sync");
    shmem_sync(team); /* C11 generic: the team form */

    /* A split of the new team: every other PE from its last one. */
    int sub_start = size - 1, sub_size = (size + 1) / 2;
    shmem_team_t sub;
    CHECK(shmem_team_split_strided(team, sub_start, -2, sub_size, NULL, 0, &sub) == 0,
          "sub split");
    int sub_world[64], sub_member = 0;
    for (int i = 0; i < sub_size; i++) {
        sub_world[i] = world_pes[sub_start - 2 * i];
        sub_member |= sub_world[i] == me;
    }
    CHECK((sub != SHMEM_TEAM_INVALID) == sub_member, "sub membership");
    if (sub_member) {
        check_translation(sub, sub_world, sub_size);
        for (int i = 0; i < sub_size; i++)
            CHECK(shmem_team_translate_pe(sub, i, team) == sub_start - 2 * i, "sub -> parent");
        shmem_team_sync(sub);
        shmem_team_destroy(sub);
    }
    shmem_team_destroy(team);
}

static void split_2d(int xrange)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    int xr = xrange > n ? n : xrange;
    shmem_team_t x, y;
    shmem_team_config_t cfg = {.num_contexts = 2};
    int rc = shmem_team_split_2d(SHMEM_TEAM_WORLD, xrange, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &x,
                                 NULL, 0, &y);
    CHECK(rc == 0, "split_2d(%d)", xrange);
    CHECK(x != SHMEM_TEAM_INVALID && y != SHMEM_TEAM_INVALID, "every PE is in both");
    int row = me / xr, col = me % xr;
    int xs[64], nx = 0, ys[64], ny = 0;
    for (int p = row * xr; p < n && p < (row + 1) * xr; p++)
        xs[nx++] = p;
    for (int p = col; p < n; p += xr)
        ys[ny++] = p;
    check_translation(x, xs, nx);
    check_translation(y, ys, ny);
    CHECK(shmem_team_my_pe(x) == col && shmem_team_my_pe(y) == row, "coordinates");
    shmem_team_config_t got = {.num_contexts = -1};
    CHECK(shmem_team_get_config(x, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 &&
              got.num_contexts == 2,
          "x config %d", got.num_contexts);
    got.num_contexts = -1;
    CHECK(shmem_team_get_config(y, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 &&
              got.num_contexts == 0,
          "y config %d", got.num_contexts);
    /* Row and column teams translate into each other at their crossing. */
    CHECK(shmem_team_translate_pe(x, col, y) == row, "x -> y");
    shmem_team_sync(x);
    shmem_team_sync(y);
    shmem_team_destroy(x);
    shmem_team_destroy(y);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();

    /* Predefined teams. */
    CHECK(shmem_team_my_pe(SHMEM_TEAM_WORLD) == me, "world my_pe");
    CHECK(shmem_team_n_pes(SHMEM_TEAM_WORLD) == n, "world n_pes");
    CHECK(shmem_team_my_pe(SHMEM_TEAM_INVALID) == -1, "invalid my_pe");
    CHECK(shmem_team_n_pes(SHMEM_TEAM_INVALID) == -1, "invalid n_pes");
    int ns = shmem_team_n_pes(SHMEM_TEAM_SHARED);
    CHECK(ns >= 1 && ns <= n, "shared n_pes %d", ns);
    int ms = shmem_team_my_pe(SHMEM_TEAM_SHARED);
    CHECK(ms >= 0 && ms < ns, "shared my_pe %d", ms);
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_SHARED, ms, SHMEM_TEAM_WORLD) == me,
          "shared -> world of myself");
    for (int i = 0; i < ns; i++) {
        int w = shmem_team_translate_pe(SHMEM_TEAM_SHARED, i, SHMEM_TEAM_WORLD);
        CHECK(w >= 0 && w < n, "shared PE %d -> %d", i, w);
        CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, w, SHMEM_TEAM_SHARED) == i,
              "round trip");
    }
    /* Its members' heaps are mapped here; it shrinks with the environment. */
    long *heap_word = shmem_malloc(sizeof(long));
    for (int i = 0; i < ns; i++)
        CHECK(shmem_ptr(heap_word, shmem_team_translate_pe(SHMEM_TEAM_SHARED, i,
                                                           SHMEM_TEAM_WORLD)) != NULL,
              "shared team PE %d not load/store accessible", i);
    const char *mpi_only = getenv("SHMPI_MPI_ONLY"), *pseudo = getenv("SHMPI_PSEUDO_NODE_SIZE");
    if (mpi_only && atoi(mpi_only) == 1)
        CHECK(ns == 1, "SHMPI_MPI_ONLY: shared team of %d PEs", ns);
    else if (pseudo && atoi(pseudo) > 0)
        CHECK(ns <= atoi(pseudo), "SHMPI_PSEUDO_NODE_SIZE=%s: shared team of %d PEs", pseudo, ns);
    shmem_free(heap_word);
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD) == -1, "invalid src");
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, SHMEM_TEAM_INVALID) == -1, "invalid dst");
    shmem_team_config_t cfg = {.num_contexts = 77};
    CHECK(shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, &cfg) == 0 &&
              cfg.num_contexts == 0,
          "world config %d", cfg.num_contexts);
    CHECK(shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS, &cfg) != 0,
          "invalid config");
    CHECK(shmem_team_sync(SHMEM_TEAM_WORLD) == 0 && shmem_team_sync(SHMEM_TEAM_SHARED) == 0,
          "sync predefined");
    shmem_team_destroy(SHMEM_TEAM_INVALID); /* no operation */

    /* Strided splits: whole world, odd/even, reversed, single PEs. */
    strided(0, 1, n);
    strided(n - 1, -1, n);
    strided(1 % n, 2, n / 2 > 0 ? n / 2 : 1);
    strided(0, 2, (n + 1) / 2);
    strided(n - 1, -2, (n + 1) / 2);
    strided(n / 2, 0, 1);
    strided(n - 1, 5, 1);
    if (n >= 3)
        strided(1, 1, n - 2);

    /* Invalid triplets: nonzero return, SHMEM_TEAM_INVALID everywhere. */
    struct {
        int start, stride, size;
    } bad[] = {{0, 1, n + 1}, {-1, 1, 1},    {n, 1, 1},     {0, 0, 2},
               {0, 1, 0},     {0, -1, 2},    {n - 1, 1, 2}, {0, n, 2},
               {0, 1, -3},    {n - 1, -n, 2}};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        shmem_team_t t = SHMEM_TEAM_WORLD;
        int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, bad[i].start, bad[i].stride,
                                          bad[i].size, NULL, 0, &t);
        CHECK(rc != 0 && t == SHMEM_TEAM_INVALID, "bad split %zu (%d, %d, %d) rc %d", i,
              bad[i].start, bad[i].stride, bad[i].size, rc);
    }
    shmem_team_t t = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &t) != 0 &&
              t == SHMEM_TEAM_INVALID,
          "split of an invalid parent");
    shmem_team_config_t neg = {.num_contexts = -1};
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, &neg, SHMEM_TEAM_NUM_CONTEXTS,
                                   &t) != 0 &&
              t == SHMEM_TEAM_INVALID,
          "negative num_contexts");
    shmem_team_t tx = SHMEM_TEAM_WORLD, ty = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 0, NULL, 0, &tx, NULL, 0, &ty) != 0 &&
              tx == SHMEM_TEAM_INVALID && ty == SHMEM_TEAM_INVALID,
          "split_2d with xrange 0");
    CHECK(shmem_team_split_2d(SHMEM_TEAM_INVALID, 1, NULL, 0, &tx, NULL, 0, &ty) != 0 &&
              tx == SHMEM_TEAM_INVALID && ty == SHMEM_TEAM_INVALID,
          "split_2d of an invalid parent");

    /* 2-D splits, incomplete last row included; xrange beyond n is one row. */
    split_2d(1);
    split_2d(2);
    split_2d(3);
    split_2d(n);
    split_2d(n + 3);

    /* A split of SHMEM_TEAM_SHARED. */
    shmem_team_t half;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_SHARED, 0, 1, (ns + 1) / 2, NULL, 0, &half) == 0,
          "split shared");
    CHECK((half != SHMEM_TEAM_INVALID) == (ms < (ns + 1) / 2), "shared half membership");
    if (half != SHMEM_TEAM_INVALID) {
        CHECK(shmem_team_translate_pe(half, shmem_team_my_pe(half), SHMEM_TEAM_WORLD) == me,
              "half -> world");
        CHECK(shmem_team_translate_pe(half, shmem_team_my_pe(half), SHMEM_TEAM_SHARED) == ms,
              "half -> shared");
        shmem_team_destroy(half);
    }

    /* The team's MPI communicator: rank == team PE; usable for MPI. */
    MPI_Comm comm;
    CHECK(shmemx_team_get_mpi_comm(SHMEM_TEAM_WORLD, &comm) == 0, "world comm");
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    CHECK(rank == me && size == n, "world comm rank %d size %d", rank, size);
    shmem_team_t rev;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, NULL, 0, &rev);
    CHECK(shmemx_team_get_mpi_comm(rev, &comm) == 0, "reversed comm");
    MPI_Comm_rank(comm, &rank);
    CHECK(rank == n - 1 - me, "reversed rank %d", rank);
    int sum = 0, mine = rank;
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, comm);
    CHECK(sum == n * (n - 1) / 2, "allreduce %d", sum);
    shmem_team_destroy(rev);
    CHECK(shmemx_team_get_mpi_comm(SHMEM_TEAM_INVALID, &comm) != 0 && comm == MPI_COMM_NULL,
          "invalid team comm");

    /* shmem_sync: C11 generic active-set form, and the function itself. */
    static long psync[SHMEM_SYNC_SIZE];
    shmem_sync(0, 0, n, psync);
    (shmem_sync)(0, 0, n, psync);
    shmem_sync_all();

    test_passed("team_basic");
    shmem_finalize();
    return 0;
}
