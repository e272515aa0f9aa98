/* C11 type-generic collectives: shmem_broadcast, collect, fcollect,
 * alltoall, alltoalls, the seven reductions, and shmem_sync with a team
 * and with an active set; fixed-width types select the routine of the
 * basic type they are. */
#include <complex.h>
#include <stdint.h>
#include <string.h>

#include "testlib.h"

#if !defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L
#error "this test needs C11"
#endif

#define N 5
static long ld[N * 64], ls[N * 64];
static double dd[N * 64], ds[N * 64];
static int64_t id[N * 64], is[N * 64];
static size_t zd[N], zs[N];
static unsigned char ud[N], us[N];
static double _Complex cd[N], cs[N];
static float fd[N], fs[N];
static long psync[SHMEM_SYNC_SIZE];

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_team_t team = SHMEM_TEAM_WORLD;

    for (int i = 0; i < N; i++)
        ls[i] = me * 100 + i;
    CHECK(shmem_broadcast(team, ld, ls, N, n - 1) == 0, "broadcast");
    for (int i = 0; i < N; i++)
        CHECK(ld[i] == (n - 1) * 100 + i, "broadcast %d", i);
    for (int i = 0; i < N; i++)
        ds[i] = me + i * 0.5;
    CHECK(shmem_fcollect(team, dd, ds, N) == 0, "fcollect");
    for (int j = 0; j < n; j++)
        for (int i = 0; i < N; i++)
            CHECK(dd[j * N + i] == j + i * 0.5, "fcollect");
    CHECK(shmem_collect(team, ld, ls, (size_t)(me % 2)) == 0, "collect");
    for (int j = 0, at = 0; j < n; j++)
        for (int i = 0; i < j % 2; i++, at++)
            CHECK(ld[at] == j * 100 + i, "collect");
    for (int j = 0; j < n; j++)
        for (int i = 0; i < N; i++)
            is[j * N + i] = (int64_t)me << 32 | (int64_t)(j * N + i);
    CHECK(shmem_alltoall(team, id, is, N) == 0, "alltoall");
    for (int j = 0; j < n; j++)
        for (int i = 0; i < N; i++)
            CHECK(id[j * N + i] == ((int64_t)j << 32 | (int64_t)(me * N + i)), "alltoall");
    memset(id, 0, sizeof id);
    CHECK(shmem_alltoalls(team, id, is, 2, 1, N) == 0, "alltoalls");
    for (int j = 0; j < n; j++)
        for (int i = 0; i < N; i++)
            CHECK(id[(j * N + i) * 2] == ((int64_t)j << 32 | (int64_t)(me * N + i)), "alltoalls");

    /* Reductions: bitwise on size_t and unsigned char, min/max on float,
     * sum/prod on complex. */
    for (int i = 0; i < N; i++) {
        zs[i] = (size_t)1 << (me % 60);
        us[i] = (unsigned char)(0xF0 | me);
        fs[i] = (float)(me - i);
        cs[i] = me + 1 + I;
    }
    CHECK(shmem_or_reduce(team, zd, zs, N) == 0, "or");
    size_t want_or = 0;
    for (int j = 0; j < n; j++)
        want_or |= (size_t)1 << (j % 60);
    CHECK(zd[0] == want_or && zd[N - 1] == want_or, "or_reduce");
    CHECK(shmem_xor_reduce(team, zd, zs, N) == 0 && shmem_and_reduce(team, ud, us, N) == 0, "x");
    unsigned char want_and = 0xFF;
    for (int j = 0; j < n; j++)
        want_and &= (unsigned char)(0xF0 | j);
    CHECK(ud[2] == want_and, "and_reduce %u", ud[2]);
    CHECK(shmem_max_reduce(team, fd, fs, N) == 0 && fd[1] == (float)(n - 2), "max_reduce");
    CHECK(shmem_min_reduce(team, fd, fs, N) == 0 && fd[1] == -1.0f, "min_reduce");
    CHECK(shmem_sum_reduce(team, cd, cs, N) == 0, "sum");
    CHECK(cd[3] == n * (n + 1) / 2 + n * I, "sum_reduce");
    CHECK(shmem_prod_reduce(team, cd, cs, 1) == 0, "prod");
    double _Complex want = 1;
    for (int j = 0; j < n; j++)
        want *= j + 1 + I;
    CHECK(cd[0] == want, "prod_reduce");

    /* shmem_sync: team and active-set forms. */
    shmem_sync(team);
    shmem_sync(SHMEM_TEAM_SHARED);
    shmem_sync(0, 0, n, psync);
    test_passed("coll_generic");
    shmem_finalize();
    return 0;
}
