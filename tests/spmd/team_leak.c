/* Creating and destroying teams and contexts thousands of times leaks
 * nothing: MPICH has about 2048 communicator context ids per process, so a
 * leaked communicator per team would fail long before the end.  Every
 * team is used (sync, a reduction, a context) before it is destroyed.
 * An argument sets the number of rounds. */
#include <stdbool.h>
#include <stdlib.h>

#include "testlib.h"

int main(int argc, char **argv)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    /* More rounds than MPICH has context ids (2048). */
    int rounds = argc > 1 ? atoi(argv[1]) : (n <= 4 ? 3000 : 2200);
    static int src, dst;
    for (int r = 0; r < rounds; r++) {
        shmem_team_t team;
        int size = n > 1 ? n - r % 2 : 1; /* alternate: all PEs, all but the last */
        shmem_team_config_t cfg = {.num_contexts = 1};
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, size, &cfg,
                                       SHMEM_TEAM_NUM_CONTEXTS, &team) == 0,
              "split round %d", r);
        if (me < size) {
            CHECK(team != SHMEM_TEAM_INVALID, "round %d", r);
            src = me + r;
            CHECK(shmem_int_sum_reduce(team, &dst, &src, 1) == 0, "reduce");
            CHECK(dst == size * (size - 1) / 2 + size * r, "round %d sum %d", r, dst);
            shmem_ctx_t ctx;
            CHECK(shmem_team_create_ctx(team, 0, &ctx) == 0, "ctx round %d", r);
            if (r % 3 == 0) {
                shmem_ctx_destroy(ctx);
            } /* otherwise the team destroys it */
            shmem_team_destroy(team);
        } else {
            CHECK(team == SHMEM_TEAM_INVALID, "round %d", r);
        }
        if (r % 500 == 0) {
            /* 2-D splits too: two teams per call. */
            shmem_team_t x, y;
            CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &x, NULL, 0, &y) == 0,
                  "2d");
            shmem_team_destroy(x);
            shmem_team_destroy(y);
        }
    }
    /* Many different PE lists, each twice: more lists than shmpi keeps
     * communicator templates for (64), so later ones are made and freed
     * each time.  Every PE computes the same list of triplets. */
    int made = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int size = 2; size <= n && made < 2 * 100; size++)
            for (int stride = -(n - 1); stride <= n - 1; stride++)
                for (int start = 0; start < n && stride != 0; start++) {
                    int last = start + stride * (size - 1);
                    if (last < 0 || last >= n || made >= (pass + 1) * 100)
                        continue;
                    shmem_team_t team;
                    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, start, stride, size, NULL, 0,
                                                   &team) == 0,
                          "split %d %d %d", start, stride, size);
                    int d = me - start;
                    bool member = d % stride == 0 && d / stride >= 0 && d / stride < size;
                    CHECK((team != SHMEM_TEAM_INVALID) == member, "membership");
                    if (member) {
                        CHECK(shmem_team_my_pe(team) == d / stride, "team PE");
                        shmem_team_sync(team);
                        shmem_team_destroy(team);
                    }
                    made++;
                }
    /* Teams left for shmem_finalize to free. */
    shmem_team_t left, x, y;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &left);
    shmem_team_split_2d(left, 2, NULL, 0, &x, NULL, 0, &y);
    shmem_ctx_t ctx;
    CHECK(shmem_team_create_ctx(x, 0, &ctx) == 0, "ctx left");
    CHECK(shmem_ctx_create(0, &ctx) == 0, "world ctx left");
    for (int i = 0; i < 5000; i++) {
        CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0, "ctx %d", i);
        shmem_ctx_destroy(ctx);
    }
    test_passed("team_leak");
    shmem_finalize();
    return 0;
}
