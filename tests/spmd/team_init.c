/*
 * SHMEMX_TEAM_SAME_MYPE_NODE and shmemx_team_get_uniqueid / shmemx_team_init.
 *
 * same mype node  its members are the PEs whose index in SHMEMX_TEAM_NODE is this
 *                 PE's (every PE's index and node gathered here), in world order;
 *                 a sync, a sum, a broadcast and a context put over it.
 * team_init       the last two PEs (PEs 2 and 3 of 4) with an id from PE 0, which
 *                 is no member and waits in a barrier meanwhile; the odd PEs in
 *                 reverse order (id from PE 1); evens and odds at once with two
 *                 ids of PE 0; each new team: translate_pe both ways, a sync, a
 *                 sum, destroy.  Wrong arguments return nonzero and
 *                 SHMEM_TEAM_INVALID without waiting (npes 0, an index out of
 *                 range, an id nobody issued, an id whose team was made).
 * rounds          teams of all PEs, in a rotated order, made and destroyed again
 *                 and again: more rounds than MPICH has communicator context ids
 *                 (2048) and than a PE has rendezvous slots (128).  The argument
 *                 sets the number of rounds.
 */
#include <shmemx.h>
#include <stdbool.h>

#include "testlib.h"

#define MAX_PES 64

static int me, n;
static uint64_t id[2];
static long src, dst, put_word;
static int pairs[2 * MAX_PES], mine[2];

/* id[0], id[1] from PE `issuer` to every PE. */
static void share_ids(int issuer)
{
    if (me == issuer) {
        CHECK(shmemx_team_get_uniqueid(&id[0]) == 0 && id[0] != 0, "uniqueid %#llx",
              (unsigned long long)id[0]);
        CHECK(shmemx_team_get_uniqueid(&id[1]) == 0 && id[1] != 0 && id[1] != id[0],
              "second uniqueid %#llx", (unsigned long long)id[1]);
    }
    shmem_uint64_broadcast(SHMEM_TEAM_WORLD, id, id, 2, issuer);
}

/* A team that must hold world PEs world[0..size-1] in that order, this PE
 * being team PE `rank`: its numbers, translation both ways, a sync, a sum. */
static void check_team(shmem_team_t team, const int *world, int size, int rank, const char *what)
{
    CHECK(team != SHMEM_TEAM_INVALID, "%s: no team", what);
    CHECK(shmem_team_n_pes(team) == size && shmem_team_my_pe(team) == rank,
          "%s: PE %d of %d, want %d of %d", what, shmem_team_my_pe(team),
          shmem_team_n_pes(team), rank, size);
    long sum = 0;
    for (int i = 0; i < size; i++) {
        CHECK(shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD) == world[i],
              "%s: team PE %d is PE %d, want %d", what, i,
              shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD), world[i]);
        CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, world[i], team) == i,
              "%s: PE %d is team PE %d, want %d", what, world[i],
              shmem_team_translate_pe(SHMEM_TEAM_WORLD, world[i], team), i);
        sum += world[i] + 1;
    }
    shmem_team_sync(team);
    src = me + 1;
    dst = -1;
    CHECK(shmem_long_sum_reduce(team, &dst, &src, 1) == 0, "%s: sum", what);
    CHECK(dst == sum, "%s: sum %ld, want %ld", what, dst, sum);
}

static void check_same_mype_node(void)
{
    shmem_team_t same = SHMEMX_TEAM_SAME_MYPE_NODE;
    mine[0] = shmem_team_my_pe(SHMEMX_TEAM_NODE);
    mine[1] = shmem_team_translate_pe(SHMEMX_TEAM_NODE, 0, SHMEM_TEAM_WORLD);
    CHECK(shmem_int_fcollect(SHMEM_TEAM_WORLD, pairs, mine, 2) == 0, "fcollect");
    int members[MAX_PES], size = 0, rank = -1;
    for (int pe = 0; pe < n; pe++)
        if (pairs[2 * pe] == mine[0]) {
            if (pe == me)
                rank = size;
            for (int i = 0; i < size; i++)
                CHECK(pairs[2 * members[i] + 1] != pairs[2 * pe + 1],
                      "PEs %d and %d: one node, one index", members[i], pe);
            members[size++] = pe;
        }
    check_team(same, members, size, rank, "SHMEMX_TEAM_SAME_MYPE_NODE");
    src = 1000 + me;
    CHECK(shmem_long_broadcast(same, &dst, &src, 1, 0) == 0, "broadcast");
    CHECK(dst == 1000 + members[0], "broadcast gave %ld, want %d", dst, 1000 + members[0]);
    shmem_ctx_t ctx;
    CHECK(shmem_team_create_ctx(same, 0, &ctx) == 0, "ctx");
    put_word = -1;
    shmem_team_sync(same);
    shmem_ctx_long_p(ctx, &put_word, me, (rank + 1) % size);
    shmem_ctx_quiet(ctx);
    shmem_team_sync(same);
    int from = members[(rank + size - 1) % size];
    CHECK(put_word == from, "context put: %ld, want %d", put_word, from);
    shmem_ctx_destroy(ctx);
    shmem_team_config_t config;
    CHECK(shmem_team_get_config(same, SHMEM_TEAM_NUM_CONTEXTS, &config) == 0, "config");
}

static void check_refusals(void)
{
    shmem_team_t team = SHMEM_TEAM_WORLD;
    CHECK(shmemx_team_get_uniqueid(NULL) != 0, "NULL uniqueid accepted");
    CHECK(shmemx_team_init(id[0], 0, 0, NULL, 0, &team) != 0 && team == SHMEM_TEAM_INVALID,
          "npes 0 accepted");
    team = SHMEM_TEAM_WORLD;
    CHECK(shmemx_team_init(id[0], n + 1, 0, NULL, 0, &team) != 0 && team == SHMEM_TEAM_INVALID,
          "npes above the PEs accepted");
    CHECK(shmemx_team_init(id[0], 1, 1, NULL, 0, &team) != 0, "index 1 of 1 accepted");
    CHECK(shmemx_team_init(id[0], 1, -1, NULL, 0, &team) != 0, "index -1 accepted");
    CHECK(shmemx_team_init(12345, 1, 0, NULL, 0, &team) != 0, "made-up id accepted");
    CHECK(shmemx_team_init(id[0], 1, 0, NULL, 0, &team) != 0, "used-up id accepted");
    CHECK(shmemx_team_init(id[0] ^ (1u << 20), 1, 0, NULL, 0, &team) != 0,
          "id of another generation accepted");
    CHECK(shmemx_team_init(id[0], 1, 0, NULL, SHMEM_TEAM_NUM_CONTEXTS, &team) != 0,
          "NULL config accepted");
}

int main(int argc, char **argv)
{
    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    CHECK(n <= MAX_PES, "%d PEs, at most %d", n, MAX_PES);
    check_same_mype_node();

    /* The last two PEs (or PE 0 alone), id from PE 0. */
    share_ids(0);
    int first = n >= 2 ? n - 2 : 0, size = n - first;
    if (me >= first) {
        shmem_team_t team;
        CHECK(shmemx_team_init(id[0], size, me - first, NULL, 0, &team) == 0, "last PEs");
        int world[2] = {first, first + 1};
        check_team(team, world, size, me - first, "the last PEs");
        shmem_team_destroy(team);
    }
    shmem_barrier_all();
    /* Its team is made: id[0] is used up.  id[1], never used, stays issued. */
    check_refusals();
    shmem_barrier_all();

    /* The odd PEs, last first, id from PE 1. */
    if (n >= 2) {
        share_ids(1);
        int odd = n / 2;
        if (me % 2 == 1) {
            shmem_team_t team;
            int rank = odd - 1 - me / 2, world[MAX_PES];
            for (int i = 0; i < odd; i++)
                world[i] = 2 * (odd - 1 - i) + 1;
            CHECK(shmemx_team_init(id[1], odd, rank, NULL, 0, &team) == 0, "odd PEs");
            check_team(team, world, odd, rank, "the odd PEs, reversed");
            CHECK(shmem_team_translate_pe(team, rank, SHMEMX_TEAM_SAME_MYPE_NODE) ==
                      shmem_team_my_pe(SHMEMX_TEAM_SAME_MYPE_NODE),
                  "odd team -> SHMEMX_TEAM_SAME_MYPE_NODE");
            shmem_team_destroy(team);
        }
    }

    /* Evens and odds at once, two ids of PE 0. */
    share_ids(0);
    {
        int parity = me % 2, size_of = (n + 1 - parity) / 2, world[MAX_PES];
        for (int i = 0; i < size_of; i++)
            world[i] = 2 * i + parity;
        shmem_team_t team;
        shmem_team_config_t config = {.num_contexts = 1};
        CHECK(shmemx_team_init(id[parity], size_of, me / 2, &config, SHMEM_TEAM_NUM_CONTEXTS,
                               &team) == 0,
              "evens and odds");
        check_team(team, world, size_of, me / 2, parity ? "odds at once" : "evens at once");
        CHECK(shmem_team_get_config(team, SHMEM_TEAM_NUM_CONTEXTS, &config) == 0 &&
                  config.num_contexts == 1,
              "num_contexts %d", config.num_contexts);
        shmem_team_destroy(team);
    }

    /* Rounds: all PEs, rotated; the issuer turns too. */
    int rounds = argc > 1 ? atoi(argv[1]) : (n <= 4 ? 2100 : 300);
    for (int r = 0; r < rounds; r++) {
        int issuer = r % n, shift = r % n;
        if (me == issuer)
            CHECK(shmemx_team_get_uniqueid(&id[0]) == 0, "round %d: uniqueid", r);
        shmem_uint64_broadcast(SHMEM_TEAM_WORLD, id, id, 1, issuer);
        shmem_team_t team;
        int rank = (me + shift) % n;
        CHECK(shmemx_team_init(id[0], n, rank, NULL, 0, &team) == 0, "round %d", r);
        CHECK(shmem_team_my_pe(team) == rank, "round %d: PE %d", r, shmem_team_my_pe(team));
        src = me;
        CHECK(shmem_long_sum_reduce(team, &dst, &src, 1) == 0 && dst == (long)n * (n - 1) / 2,
              "round %d: sum %ld", r, dst);
        shmem_team_destroy(team);
    }
    test_passed("team_init");
    shmem_finalize();
    return 0;
}
