/*
 * c11_generic_all.c - one call of every C11 generic name of the OpenSHMEM
 * 1.6 list (openshmem-1.6-c11-generics.txt), with and without a leading
 * shmem_ctx_t where the spec has both.  Mainly a compile check that the
 * names exist and select; it also runs (every PE on itself) with light
 * checks.
 */
#include <stdio.h>
#include <string.h>

#include "testlib.h"

#if !defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L
#error "this test needs C11"
#endif

#define N 4
static long l_dst[3 * N], l_src[3 * N];
static int i_dst[3 * N], i_src[3 * N];
static uint64_t sig;
static long a_l;
static unsigned int a_u;
static double a_d;
static int dep_i;
static long w_l[N];
static short w_s;
static long c_d[N * 64], c_s[N * 64];
static int r_d[N], r_s[N];
static double _Complex x_d[N], x_s[N];
static long psync[SHMEM_SYNC_SIZE];

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    const int pe = me; /* every PE on itself: valid on any number of PEs */
    shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
    shmem_team_t team = SHMEM_TEAM_WORLD;
    for (int i = 0; i < 3 * N; i++) {
        l_src[i] = i + 1;
        i_src[i] = i + 1;
    }

    /* rma, rma-nbi */
    shmem_put(l_dst, l_src, N, pe);
    shmem_put(ctx, i_dst, i_src, N, pe);
    shmem_get(l_dst, l_src, N, pe);
    shmem_get(ctx, i_dst, i_src, N, pe);
    shmem_p(l_dst, 5L, pe);
    shmem_p(ctx, i_dst, 6, pe);
    shmem_quiet();
    CHECK(shmem_g(l_dst, pe) == 5 && shmem_g(ctx, i_dst, pe) == 6, "p/g");
    shmem_iput(l_dst, l_src, 2, 1, 2, pe);
    shmem_iput(ctx, i_dst, i_src, 2, 1, 2, pe);
    shmem_iget(l_dst, l_src, 1, 2, 2, pe);
    shmem_iget(ctx, i_dst, i_src, 1, 2, 2, pe);
    shmem_put_nbi(l_dst, l_src, N, pe);
    shmem_put_nbi(ctx, i_dst, i_src, N, pe);
    shmem_get_nbi(l_dst, l_src, N, pe);
    shmem_get_nbi(ctx, i_dst, i_src, N, pe);
    shmem_quiet();
    CHECK(l_dst[3] == 4 && i_dst[3] == 4, "put/get forms");
    shmem_ibput(l_dst, l_src, 3, 2, 1, 2, pe);
    shmem_ibput(ctx, i_dst, i_src, 3, 2, 1, 2, pe);
    shmem_ibget(l_dst, l_src, 1, 2, 1, 2, pe);
    shmem_ibget(ctx, i_dst, i_src, 1, 2, 1, 2, pe);

    /* signal */
    shmem_put_signal(l_dst, l_src, N, &sig, 1, SHMEM_SIGNAL_ADD, pe);
    shmem_put_signal(ctx, i_dst, i_src, N, &sig, 1, SHMEM_SIGNAL_ADD, pe);
    shmem_put_signal_nbi(l_dst, l_src, N, &sig, 1, SHMEM_SIGNAL_ADD, pe);
    shmem_put_signal_nbi(ctx, i_dst, i_src, N, &sig, 1, SHMEM_SIGNAL_ADD, pe);
    CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 4) == 4, "put_signal");
    shmem_signal_add(&sig, 1, pe);
    shmem_signal_add(ctx, &sig, 1, pe);
    shmem_signal_set(&sig, 0, pe);
    shmem_signal_set(ctx, &sig, 0, pe);

    /* amo */
    shmem_atomic_set(&a_l, 1L, pe);
    shmem_atomic_set(ctx, &a_u, 1u, pe);
    shmem_quiet();
    long lv = shmem_atomic_fetch(&a_l, pe);
    lv += (long)shmem_atomic_fetch(ctx, &a_u, pe);
    lv += shmem_atomic_swap(&a_l, 2L, pe);
    lv += (long)shmem_atomic_swap(ctx, &a_u, 2u, pe);
    lv += shmem_atomic_compare_swap(&a_l, 2L, 3L, pe);
    lv += (long)shmem_atomic_compare_swap(ctx, &a_u, 2u, 3u, pe);
    lv += shmem_atomic_fetch_inc(&a_l, pe);
    lv += (long)shmem_atomic_fetch_inc(ctx, &a_u, pe);
    shmem_atomic_inc(&a_l, pe);
    shmem_atomic_inc(ctx, &a_u, pe);
    shmem_quiet();
    lv += shmem_atomic_fetch_add(&a_l, 1L, pe);
    lv += (long)shmem_atomic_fetch_add(ctx, &a_u, 1u, pe);
    shmem_atomic_add(&a_l, 1L, pe);
    shmem_atomic_add(ctx, &a_u, 1u, pe);
    shmem_quiet();
    CHECK(lv == 2 * (1 + 1 + 2 + 3 + 5) && a_l == 7 && a_u == 7, "amo %ld", lv);
    unsigned int uv = shmem_atomic_fetch_and(&a_u, 0xFu, pe);
    uv += shmem_atomic_fetch_and(ctx, &a_u, 0xFu, pe);
    shmem_atomic_and(&a_u, 0xFu, pe);
    shmem_atomic_and(ctx, &a_u, 0xFu, pe);
    shmem_quiet();
    uv += shmem_atomic_fetch_or(&a_u, 0x10u, pe);
    uv += shmem_atomic_fetch_or(ctx, &a_u, 0x10u, pe);
    shmem_atomic_or(&a_u, 0x20u, pe);
    shmem_atomic_or(ctx, &a_u, 0x20u, pe);
    shmem_quiet();
    uv += shmem_atomic_fetch_xor(&a_u, 0x1u, pe);
    uv += shmem_atomic_fetch_xor(ctx, &a_u, 0x1u, pe);
    shmem_atomic_xor(&a_u, 0x2u, pe);
    shmem_atomic_xor(ctx, &a_u, 0x2u, pe);
    shmem_quiet();
    CHECK(a_u == 0x37u && uv == 7 + 7 + 7 + 0x17 + 0x37 + 0x36, "bitwise amo %u", uv);

    /* amo-nbi */
    long fl = 0;
    unsigned int fu = 0;
    double fd = 0;
    shmem_atomic_fetch_nbi(&fd, &a_d, pe);
    shmem_atomic_fetch_nbi(ctx, &fl, &a_l, pe);
    shmem_quiet();
    shmem_atomic_compare_swap_nbi(&fl, &a_l, 7L, 8L, pe);
    shmem_atomic_compare_swap_nbi(ctx, &fu, &a_u, 0x37u, 0x30u, pe);
    shmem_quiet();
    shmem_atomic_swap_nbi(&fd, &a_d, 1.5, pe);
    shmem_atomic_swap_nbi(ctx, &fl, &a_l, 9L, pe);
    shmem_quiet();
    shmem_atomic_fetch_inc_nbi(&fl, &a_l, pe);
    shmem_atomic_fetch_inc_nbi(ctx, &fu, &a_u, pe);
    shmem_quiet();
    shmem_atomic_fetch_add_nbi(&fl, &a_l, 1L, pe);
    shmem_atomic_fetch_add_nbi(ctx, &fu, &a_u, 1u, pe);
    shmem_quiet();
    shmem_atomic_fetch_and_nbi(&fu, &a_u, 0xFFu, pe);
    shmem_atomic_fetch_and_nbi(ctx, &fu, &a_u, 0xFFu, pe);
    shmem_quiet();
    shmem_atomic_fetch_or_nbi(&fu, &a_u, 0x0u, pe);
    shmem_atomic_fetch_or_nbi(ctx, &fu, &a_u, 0x0u, pe);
    shmem_quiet();
    shmem_atomic_fetch_xor_nbi(&fu, &a_u, 0x0u, pe);
    shmem_atomic_fetch_xor_nbi(ctx, &fu, &a_u, 0x0u, pe);
    shmem_quiet();
    CHECK(a_l == 11 && a_u == 0x32u && a_d == 1.5, "amo nbi %ld %u", a_l, a_u);

    /* deprecated-amo */
    shmem_set(&dep_i, 1, pe);
    shmem_quiet();
    int iv = shmem_fetch(&dep_i, pe);
    iv += shmem_swap(&dep_i, 2, pe);
    iv += shmem_cswap(&dep_i, 2, 3, pe);
    iv += shmem_finc(&dep_i, pe);
    shmem_inc(&dep_i, pe);
    iv += shmem_fadd(&dep_i, 1, pe);
    shmem_add(&dep_i, 1, pe);
    shmem_quiet();
    CHECK(iv == 1 + 1 + 2 + 3 + 5 && dep_i == 7, "deprecated amo %d", iv);

    /* p2p-sync (everything already holds) */
    size_t idx[N];
    const int status[N] = {0, 0, 0, 0};
    long want[N];
    for (int i = 0; i < N; i++) {
        w_l[i] = i;
        want[i] = i;
    }
    w_s = 1;
    shmem_wait_until(&w_s, SHMEM_CMP_EQ, 1);
    shmem_wait_until(&w_l[1], SHMEM_CMP_EQ, 1);
    shmem_wait_until_all(w_l, N, status, SHMEM_CMP_GE, 0);
    CHECK(shmem_wait_until_any(w_l, N, status, SHMEM_CMP_EQ, 2) == 2, "wait_until_any");
    CHECK(shmem_wait_until_some(w_l, N, idx, status, SHMEM_CMP_GE, 2) == 2, "wait_until_some");
    shmem_wait_until_all_vector(w_l, N, status, SHMEM_CMP_EQ, want);
    CHECK(shmem_wait_until_any_vector(w_l, N, status, SHMEM_CMP_EQ, want) < N, "any_vector");
    CHECK(shmem_wait_until_some_vector(w_l, N, idx, status, SHMEM_CMP_EQ, want) == N, "some_v");
    CHECK(shmem_test(&w_s, SHMEM_CMP_EQ, 1) && shmem_test(&w_l[0], SHMEM_CMP_EQ, 0), "test");
    CHECK(shmem_test_all(w_l, N, status, SHMEM_CMP_LT, 9) == 1, "test_all");
    CHECK(shmem_test_any(w_l, N, status, SHMEM_CMP_EQ, 3) == 3, "test_any");
    CHECK(shmem_test_some(w_l, N, idx, status, SHMEM_CMP_NE, 0) == 3, "test_some");
    CHECK(shmem_test_all_vector(w_l, N, status, SHMEM_CMP_EQ, want) == 1, "test_all_vector");
    CHECK(shmem_test_any_vector(w_l, N, status, SHMEM_CMP_NE, want) == SIZE_MAX, "any_vector");
    CHECK(shmem_test_some_vector(w_l, N, idx, status, SHMEM_CMP_EQ, want) == N, "some_vector");

    /* coll, reduce, scan, sync */
    for (int i = 0; i < N; i++) {
        c_s[i] = me;
        r_s[i] = me + 1;
        x_s[i] = 1;
    }
    CHECK(shmem_broadcast(team, c_d, c_s, N, 0) == 0, "broadcast");
    CHECK(shmem_collect(team, c_d, c_s, 1) == 0 && c_d[npes - 1] == npes - 1, "collect");
    CHECK(shmem_fcollect(team, c_d, c_s, 1) == 0 && c_d[npes - 1] == npes - 1, "fcollect");
    CHECK(shmem_alltoall(team, c_d, c_s, 1) == 0, "alltoall");
    CHECK(shmem_alltoalls(team, c_d, c_s, 1, 1, 1) == 0, "alltoalls");
    CHECK(shmem_and_reduce(team, r_d, r_s, N) == 0, "and_reduce");
    CHECK(shmem_or_reduce(team, r_d, r_s, N) == 0, "or_reduce");
    CHECK(shmem_xor_reduce(team, r_d, r_s, N) == 0, "xor_reduce");
    CHECK(shmem_max_reduce(team, r_d, r_s, N) == 0 && r_d[0] == npes, "max_reduce");
    CHECK(shmem_min_reduce(team, r_d, r_s, N) == 0 && r_d[0] == 1, "min_reduce");
    CHECK(shmem_sum_reduce(team, x_d, x_s, N) == 0 && x_d[1] == npes, "sum_reduce");
    CHECK(shmem_prod_reduce(team, r_d, r_s, N) == 0, "prod_reduce");
    CHECK(shmem_sum_inscan(team, r_d, r_s, N) == 0, "sum_inscan");
    CHECK(shmem_sum_exscan(team, r_d, r_s, N) == 0, "sum_exscan");
    CHECK(shmem_sync(team) == 0, "shmem_sync(team)");
    shmem_sync(0, 0, npes, psync);

    test_passed("c11_generic_all");
    shmem_finalize();
    return 0;
}
