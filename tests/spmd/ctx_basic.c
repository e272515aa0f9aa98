/* Contexts: create/destroy with every option, the predefined handles,
 * team contexts whose PE numbers are team-relative, quiet per context,
 * and the num_contexts limit of a team's configuration. */
#include <string.h>

#include "testlib.h"

#define BIG 65536
static int slot[4];
static int flag;
static char big[BIG];

/* Through `ctx` on `team`, each member puts its world PE into slot[which]
 * of the next team PE, then checks what its previous team PE put. */
static void ring(shmem_team_t team, shmem_ctx_t ctx, int which)
{
    int me = shmem_my_pe();
    int tn = shmem_team_n_pes(team), tme = shmem_team_my_pe(team);
    slot[which] = -1;
    shmem_team_sync(team);
    shmem_ctx_int_p(ctx, &slot[which], me, (tme + 1) % tn);
    shmem_ctx_quiet(ctx);
    shmem_team_sync(team);
    int prev = shmem_team_translate_pe(team, (tme + tn - 1) % tn, SHMEM_TEAM_WORLD);
    CHECK(slot[which] == prev, "slot %d holds %d, expected world PE %d", which, slot[which],
          prev);
    /* A get through the context reads team PEs too. */
    CHECK(shmem_ctx_int_g(ctx, &slot[which], (tme + 1) % tn) == me, "g from next gives %d",
          shmem_ctx_int_g(ctx, &slot[which], (tme + 1) % tn));
    shmem_team_sync(team);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();

    /* Predefined handles. */
    shmem_team_t team = SHMEM_TEAM_INVALID;
    CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &team) == 0 && team == SHMEM_TEAM_WORLD,
          "default ctx team");
    team = SHMEM_TEAM_WORLD;
    CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &team) != 0 && team == SHMEM_TEAM_INVALID,
          "invalid ctx team");
    shmem_ctx_destroy(SHMEM_CTX_INVALID); /* no operation */

    /* Every option combination; unknown bits are refused. */
    long options[] = {0,
                      SHMEM_CTX_SERIALIZED,
                      SHMEM_CTX_PRIVATE,
                      SHMEM_CTX_NOSTORE,
                      SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE};
    shmem_ctx_t ctxs[5];
    for (int i = 0; i < 5; i++) {
        CHECK(shmem_ctx_create(options[i], &ctxs[i]) == 0, "create options %ld", options[i]);
        CHECK(ctxs[i] != SHMEM_CTX_INVALID && ctxs[i] != SHMEM_CTX_DEFAULT, "handle");
        CHECK(shmem_ctx_get_team(ctxs[i], &team) == 0 && team == SHMEM_TEAM_WORLD, "team");
    }
    ring(SHMEM_TEAM_WORLD, ctxs[0], 0);
    for (int i = 0; i < 5; i++)
        shmem_ctx_destroy(ctxs[i]);
    shmem_ctx_t bad = SHMEM_CTX_DEFAULT;
    CHECK(shmem_ctx_create(1L << 20, &bad) != 0 && bad == SHMEM_CTX_INVALID, "unknown option");
    bad = SHMEM_CTX_DEFAULT;
    CHECK(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &bad) != 0 && bad == SHMEM_CTX_INVALID,
          "ctx on SHMEM_TEAM_INVALID");

    /* Team contexts: the reversed world, the odd PEs, the shared team. */
    shmem_team_t rev, odd = SHMEM_TEAM_INVALID;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, NULL, 0, &rev) == 0, "rev");
    shmem_ctx_t rctx;
    CHECK(shmem_team_create_ctx(rev, SHMEM_CTX_PRIVATE, &rctx) == 0, "rev ctx");
    CHECK(shmem_ctx_get_team(rctx, &team) == 0 && team == rev, "rev ctx team");
    ring(rev, rctx, 1);
    /* Team PE 0 of rev is world PE n-1. */
    slot[3] = -1;
    shmem_barrier_all();
    if (me == 0)
        shmem_ctx_int_p(rctx, &slot[3], 4242, 0);
    shmem_ctx_quiet(rctx);
    shmem_barrier_all();
    CHECK(slot[3] == (me == n - 1 ? 4242 : -1), "rev PE 0: slot %d", slot[3]);
    if (n > 1) {
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &odd) == 0,
              "odd");
        if (me % 2) {
            shmem_ctx_t octx;
            CHECK(shmem_team_create_ctx(odd, 0, &octx) == 0, "odd ctx");
            ring(odd, octx, 2);
            shmem_ctx_destroy(octx);
        }
    }
    shmem_ctx_t sctx;
    CHECK(shmem_team_create_ctx(SHMEM_TEAM_SHARED, 0, &sctx) == 0, "shared ctx");
    CHECK(shmem_ctx_get_team(sctx, &team) == 0 && team == SHMEM_TEAM_SHARED, "shared team");
    ring(SHMEM_TEAM_SHARED, sctx, 0);
    shmem_ctx_destroy(sctx);

    /* Quiet of one context completes its puts: data then flag. */
    memset(big, 0, BIG);
    flag = 0;
    shmem_barrier_all();
    int next = (me + 1) % n;
    char pattern[BIG];
    for (int i = 0; i < BIG; i++)
        pattern[i] = (char)(i * 7 + me);
    shmem_ctx_t qctx;
    CHECK(shmem_ctx_create(0, &qctx) == 0, "qctx");
    shmem_ctx_putmem_nbi(qctx, big, pattern, BIG, next);
    shmem_ctx_quiet(qctx);
    shmem_ctx_int_p(qctx, &flag, 1, next);
    shmem_ctx_quiet(qctx);
    shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
    int prev = (me + n - 1) % n;
    for (int i = 0; i < BIG; i++)
        CHECK(big[i] == (char)(i * 7 + prev), "big[%d] = %d", i, big[i]);
    shmem_ctx_fence(qctx);
    shmem_ctx_destroy(qctx); /* quiets first */
    shmem_barrier_all();

    /* num_contexts: a team configured for 2 offers 2 at a time. */
    shmem_team_t lim;
    shmem_team_config_t cfg = {.num_contexts = 2};
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, &cfg, SHMEM_TEAM_NUM_CONTEXTS,
                                   &lim) == 0,
          "lim");
    shmem_ctx_t c1, c2, c3 = SHMEM_CTX_DEFAULT;
    CHECK(shmem_team_create_ctx(lim, 0, &c1) == 0, "c1");
    CHECK(shmem_team_create_ctx(lim, 0, &c2) == 0, "c2");
    CHECK(shmem_team_create_ctx(lim, 0, &c3) != 0 && c3 == SHMEM_CTX_INVALID, "c3 over limit");
    shmem_ctx_destroy(c1);
    CHECK(shmem_team_create_ctx(lim, 0, &c3) == 0, "c3 after a destroy");
    ring(lim, c3, 0);
    shmem_ctx_destroy(c2);
    shmem_ctx_destroy(c3);
    /* Without the mask bit there is no limit. */
    shmem_team_t nolim;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, &cfg, 0, &nolim) == 0, "nolim");
    shmem_ctx_t many[8];
    for (int i = 0; i < 8; i++)
        CHECK(shmem_team_create_ctx(nolim, 0, &many[i]) == 0, "many %d", i);
    for (int i = 0; i < 8; i++)
        shmem_ctx_destroy(many[i]);
    /* A team of zero contexts. */
    shmem_team_t none;
    cfg.num_contexts = 0;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, &cfg, SHMEM_TEAM_NUM_CONTEXTS,
                                   &none) == 0,
          "none");
    CHECK(shmem_team_create_ctx(none, 0, &c1) != 0 && c1 == SHMEM_CTX_INVALID, "zero allowed");
    /* Destroying a team with an open context destroys the context too. */
    CHECK(shmem_team_create_ctx(nolim, 0, &c1) == 0, "left open");
    shmem_ctx_int_p(c1, &slot[0], me, (me + 1) % n);

    shmem_team_destroy(none);
    shmem_team_destroy(nolim);
    shmem_team_destroy(lim);
    shmem_team_destroy(rev);
    shmem_team_destroy(odd);
    test_passed("ctx_basic");
    shmem_finalize();
    return 0;
}
