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
 *                 range, an id of the issued form nobody issued, an id whose
 *                 team was made).
 * hand-chosen     ids no PE issued: 1004 for the last two PEs (NVSHMEM4Py's
 *                 tutorial: PEs 2 and 3 of 4); id 0 for all PEs, reversed; every
 *                 PE alone with its own id at once; evens and odds at once with
 *                 two ids that meet in one PE and want one slot (found with the
 *                 hash of docs/design.md, so one probes onward); evens with an
 *                 issued id and odds with a hand-chosen id that wants its slot.
 * rounds          teams of all PEs, in a rotated order, made and destroyed again
 *                 and again: more rounds than MPICH has communicator context ids
 *                 (2048) and than a PE has rendezvous slots (128); each third
 *                 with an issued id, 1004 again, a new hand-chosen id.  The
 *                 argument sets the number of rounds.
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

/* Where a hand-chosen id meets (docs/design.md): PE h % n, slots from
 * h >> 57 on, h = splitmix64(id). */
static uint64_t splitmix64(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ x >> 30) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ x >> 27) * UINT64_C(0x94d049bb133111eb);
    return x ^ x >> 31;
}

/* A hand-chosen id other than `not` (below 2^32, so never of the issued
 * form) that meets at PE `pe` and wants slot `slot` first. */
static uint64_t hand_id_at(int pe, int slot, uint64_t not)
{
    for (uint64_t id = 1;; id++) {
        uint64_t h = splitmix64(id);
        if (id != not && (int)(h % (uint64_t)n) == pe && (int)(h >> 57) == slot)
            return id;
    }
}

/* Evens with ids[0], odds with ids[1], at once: team PE i is world PE
 * 2 i + parity. */
static void evens_and_odds(const uint64_t ids[2], const char *what)
{
    int parity = me % 2, size_of = (n + 1 - parity) / 2, world[MAX_PES];
    for (int i = 0; i < size_of; i++)
        world[i] = 2 * i + parity;
    shmem_team_t team;
    shmem_team_config_t config = {.num_contexts = 1};
    CHECK(shmemx_team_init(ids[parity], size_of, me / 2, &config, SHMEM_TEAM_NUM_CONTEXTS,
                           &team) == 0,
          "%s: uniqueid %#llx", what, (unsigned long long)ids[parity]);
    check_team(team, world, size_of, me / 2, what);
    CHECK(shmem_team_get_config(team, SHMEM_TEAM_NUM_CONTEXTS, &config) == 0 &&
              config.num_contexts == 1,
          "%s: num_contexts %d", what, config.num_contexts);
    shmem_team_destroy(team);
}

static void check_hand_chosen(void)
{
    /* 1004 for the last two PEs (or PE 0 alone); the others wait. */
    int first = n >= 2 ? n - 2 : 0, size = n - first;
    if (me >= first) {
        shmem_team_t team;
        CHECK(shmemx_team_init(1004, size, me - first, NULL, 0, &team) == 0, "id 1004");
        int world[2] = {first, first + 1};
        check_team(team, world, size, me - first, "id 1004, the last PEs");
        shmem_team_destroy(team);
    }
    shmem_barrier_all();

    /* Id 0, all PEs, last first. */
    {
        shmem_team_t team;
        int world[MAX_PES];
        for (int i = 0; i < n; i++)
            world[i] = n - 1 - i;
        CHECK(shmemx_team_init(0, n, n - 1 - me, NULL, 0, &team) == 0, "id 0");
        check_team(team, world, n, n - 1 - me, "id 0, reversed");
        shmem_team_destroy(team);
    }

    /* Every PE alone at once, with an id above the issued form's PEs. */
    {
        shmem_team_t team;
        uint64_t own = (uint64_t)(n + 1) << 32 | (uint64_t)me;
        CHECK(shmemx_team_init(own, 1, 0, NULL, 0, &team) == 0, "id %#llx alone",
              (unsigned long long)own);
        check_team(team, &me, 1, 0, "alone");
        shmem_team_destroy(team);
    }

    /* Two hand-chosen ids wanting one slot of one PE. */
    uint64_t h = splitmix64(1004);
    uint64_t ids[2] = {1004, hand_id_at((int)(h % (uint64_t)n), (int)(h >> 57), 1004)};
    evens_and_odds(ids, "two hand-chosen ids, one slot");

    /* An issued id and a hand-chosen id that wants its slot. */
    if (me == 0)
        CHECK(shmemx_team_get_uniqueid(&id[0]) == 0, "uniqueid");
    shmem_uint64_broadcast(SHMEM_TEAM_WORLD, id, id, 1, 0);
    ids[0] = id[0];
    ids[1] = hand_id_at(0, (int)(id[0] & 127), 0);
    evens_and_odds(ids, "issued and hand-chosen ids, one slot");
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
    /* The issued form: upper 32 bits from 1 to n (generation 0 is never issued). */
    CHECK(shmemx_team_init(UINT64_C(1) << 32, 1, 0, NULL, 0, &team) != 0,
          "id 1 << 32 (PE 0, generation 0, slot 0) accepted");
    CHECK(shmemx_team_init(UINT64_C(1) << 32 | 1, 1, 0, NULL, 0, &team) != 0,
          "id 1 << 32 | 1 (PE 0, generation 0, slot 1) accepted");
    CHECK(shmemx_team_init((uint64_t)n << 32 | 55 << 7 | 3, 1, 0, NULL, 0, &team) != 0,
          "id of PE %d nobody issued accepted", n - 1);
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
    evens_and_odds(id, "evens and odds at once");
    check_hand_chosen();

    /* Rounds: all PEs, rotated; the issuer turns too. */
    int rounds = argc > 1 ? atoi(argv[1]) : (n <= 4 ? 2100 : 300);
    for (int r = 0; r < rounds; r++) {
        int issuer = r % n, shift = r % n;
        if (r % 3 == 0) {
            if (me == issuer)
                CHECK(shmemx_team_get_uniqueid(&id[0]) == 0, "round %d: uniqueid", r);
            shmem_uint64_broadcast(SHMEM_TEAM_WORLD, id, id, 1, issuer);
        } else {
            id[0] = r % 3 == 1 ? 1004 : 5000 + (uint64_t)r;
        }
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
