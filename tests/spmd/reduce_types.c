/* Team reductions: every operator for every type of its table (and/or/xor
 * including the extra signed types, sum/prod including complex), out of
 * place and in place (dest == source), on every team of team_sets.c, and
 * 1 MiB reductions; every element is checked against the same reduction
 * computed here, and nothing beyond nreduce elements is written. */
#include <complex.h>

#include "team_sets.c"

#define CANARY 0xA5
#define MAX_ELEMS 300
#define BIG_BYTES (1 << 20)

static unsigned char *dst_buf, *src_buf;

/* Values: V_BIT, V_MINMAX, V_SUM, V_PROD, V_CSUM, V_CPROD and F_OP of testlib.h. */

static void check_canary(const char *what, size_t from, size_t to)
{
    for (size_t b = from; b < to; b++)
        CHECK(dst_buf[b] == CANARY, "%s: byte %zu overwritten", what, b);
}

/* One operator on one type: out of place, then in place. */
#define TEST_OP(N, T, OP, VAL)                                                                \
    static void test_##N##_##OP(const struct test_team *t, size_t nreduce)                    \
    {                                                                                         \
        T *dst = (T *)dst_buf, *src = (T *)src_buf;                                           \
        for (size_t i = 0; i < nreduce; i++)                                                  \
            src[i] = VAL(T, t->me, i);                                                        \
        memset(dst_buf, CANARY, (nreduce + 2) * sizeof(T));                                   \
        CHECK(shmem_##N##_##OP##_reduce(t->team, dst, src, nreduce) == 0, #N " " #OP);        \
        for (size_t i = 0; i < nreduce; i++) {                                                \
            T want = VAL(T, 0, i);                                                            \
            for (int j = 1; j < t->n; j++)                                                    \
                want = (T)F_##OP(want, VAL(T, j, i));                                         \
            CHECK(dst[i] == want, #N "_" #OP "_reduce on %s elem %zu", t->name, i);           \
            CHECK(src[i] == VAL(T, t->me, i), #N "_" #OP " source changed");                  \
        }                                                                                     \
        check_canary(#N "_" #OP "_reduce", nreduce * sizeof(T), (nreduce + 2) * sizeof(T));   \
        /* in place */                                                                        \
        for (size_t i = 0; i < nreduce; i++)                                                  \
            dst[i] = VAL(T, t->me, i);                                                        \
        CHECK(shmem_##N##_##OP##_reduce(t->team, dst, dst, nreduce) == 0, "in place");        \
        for (size_t i = 0; i < nreduce; i++) {                                                \
            T want = VAL(T, 0, i);                                                            \
            for (int j = 1; j < t->n; j++)                                                    \
                want = (T)F_##OP(want, VAL(T, j, i));                                         \
            CHECK(dst[i] == want, #N "_" #OP "_reduce in place on %s elem %zu", t->name, i);  \
        }                                                                                     \
        check_canary(#N "_" #OP " in place", nreduce * sizeof(T), (nreduce + 2) * sizeof(T)); \
    }
#define TEST_BITWISE(N, T)                                                                    \
    TEST_OP(N, T, and, V_BIT) TEST_OP(N, T, or, V_BIT) TEST_OP(N, T, xor, V_BIT)
#define TEST_MINMAX(N, T) TEST_OP(N, T, max, V_MINMAX) TEST_OP(N, T, min, V_MINMAX)
#define TEST_ARITH(N, T) TEST_OP(N, T, sum, V_SUM) TEST_OP(N, T, prod, V_PROD)
SHMPI_REDUCE_BITWISE_TYPES(TEST_BITWISE)
SHMPI_REDUCE_BITWISE_EXTRA_TYPES(TEST_BITWISE)
SHMPI_REDUCE_MINMAX_TYPES(TEST_MINMAX)
SHMPI_REDUCE_ARITH_TYPES(TEST_ARITH)

/* Complex values with imaginary parts. */
#define shmem_complexd_i_sum_reduce shmem_complexd_sum_reduce
#define shmem_complexd_i_prod_reduce shmem_complexd_prod_reduce
#define shmem_complexf_i_sum_reduce shmem_complexf_sum_reduce
#define shmem_complexf_i_prod_reduce shmem_complexf_prod_reduce
TEST_OP(complexd_i, double _Complex, sum, V_CSUM)
TEST_OP(complexd_i, double _Complex, prod, V_CPROD)
TEST_OP(complexf_i, float _Complex, sum, V_CSUM)
TEST_OP(complexf_i, float _Complex, prod, V_CPROD)

static void run_all(const struct test_team *t, size_t nreduce)
{
#define RUN_BITWISE(N, T) test_##N##_and(t, nreduce); test_##N##_or(t, nreduce); test_##N##_xor(t, nreduce);
#define RUN_MINMAX(N, T) test_##N##_max(t, nreduce); test_##N##_min(t, nreduce);
#define RUN_ARITH(N, T) test_##N##_sum(t, nreduce); test_##N##_prod(t, nreduce);
    SHMPI_REDUCE_BITWISE_TYPES(RUN_BITWISE)
    SHMPI_REDUCE_BITWISE_EXTRA_TYPES(RUN_BITWISE)
    SHMPI_REDUCE_MINMAX_TYPES(RUN_MINMAX)
    SHMPI_REDUCE_ARITH_TYPES(RUN_ARITH)
    test_complexd_i_sum(t, nreduce);
    test_complexd_i_prod(t, nreduce);
    test_complexf_i_sum(t, nreduce);
    test_complexf_i_prod(t, nreduce);
}

/* 1 MiB of ints summed and 1 MiB of doubles maxed, in place and not. */
static void big(const struct test_team *t, int *bdst, int *bsrc)
{
    size_t n = BIG_BYTES / sizeof(int);
    for (size_t i = 0; i < n; i++)
        bsrc[i] = (int)(i % 1000) * (t->me + 1);
    CHECK(shmem_int_sum_reduce(t->team, bdst, bsrc, n) == 0, "big sum");
    int factor = t->n * (t->n + 1) / 2;
    for (size_t i = 0; i < n; i++)
        CHECK(bdst[i] == (int)(i % 1000) * factor, "big sum on %s elem %zu: %d", t->name, i,
              bdst[i]);
    double *d = (double *)bsrc;
    size_t nd = BIG_BYTES / sizeof(double);
    for (size_t i = 0; i < nd; i++)
        d[i] = (double)((i + (size_t)t->me * 7) % 4099);
    CHECK(shmem_double_max_reduce(t->team, d, d, nd) == 0, "big max");
    for (size_t i = 0; i < nd; i++) {
        double want = 0;
        for (int j = 0; j < t->n; j++)
            want = F_max(want, (double)((i + (size_t)j * 7) % 4099));
        CHECK(d[i] == want, "big max on %s elem %zu", t->name, i);
    }
}

int main(int argc, char **argv)
{
    test_thread_arg(argc, argv); /* "thread N": between nodes' forms on one node */
    shmem_init();
    int n = shmem_n_pes();
    dst_buf = shmem_malloc(MAX_ELEMS * 2 * sizeof(long double) + 64);
    src_buf = shmem_malloc(MAX_ELEMS * 2 * sizeof(long double) + 64);
    int *bdst = shmem_malloc(BIG_BYTES), *bsrc = shmem_malloc(BIG_BYTES);
    CHECK(dst_buf && src_buf && bdst && bsrc, "malloc");
    struct test_team teams[MAX_TEST_TEAMS];
    int count = make_test_teams(teams);
    size_t sizes[] = {0, 1, 17, MAX_ELEMS};
    for (int k = 0; k < count; k++) {
        const struct test_team *t = &teams[k];
        if (t->team == SHMEM_TEAM_INVALID)
            continue;
        /* Oversubscribed runs (more PEs than cores) take fewer sizes. */
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
            if (n <= 4 || sizes[s] == 0 || sizes[s] == MAX_ELEMS || (k == 0 && sizes[s] == 1))
                run_all(t, sizes[s]);
        if (k < 4)
            big(t, bdst, bsrc);
    }
    free_test_teams(teams, count);
    shmem_free(bdst);
    shmem_free(bsrc);
    shmem_free(dst_buf);
    shmem_free(src_buf);
    test_passed("reduce_types");
    shmem_finalize();
    return 0;
}
