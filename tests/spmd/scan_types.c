/* Scans (OpenSHMEM 1.6 prefix sums): shmem_TYPENAME_sum_inscan and
 * _sum_exscan for every type of the SUM column (complex also with
 * imaginary parts), out of place, in place (dest == source) and with a
 * partly overlapping source, on the world, the reversed world (stride -1)
 * and the strided teams of team_sets.c, for 0, 1 and 1000 elements; every
 * element is checked against the prefix sum computed here (0 on the
 * team's PE 0 for exscan), and nothing beyond nelems is written.  Then
 * the C11 generic names shmem_sum_inscan / shmem_sum_exscan for every
 * distinct type of their selection. */
#include <complex.h>

#include "team_sets.c"

#if !defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L
#error "this test needs C11"
#endif

#define CANARY 0xA5
#define MAX_ELEMS 1000
#define PAD 2 /* elements of canary checked after the last one */

static unsigned char *dst_buf, *src_buf;

/* Values: V_SUM and V_CSUM of testlib.h (every sum exact in every type). */

static void check_canary(const char *what, const char *team, size_t from, size_t to)
{
    for (size_t b = from; b < to; b++)
        CHECK(dst_buf[b] == CANARY, "%s on %s: byte %zu past the end overwritten", what, team,
              b);
}

/* The expected dest[i] of team PE `me`: the sum over team PEs 0 to me
 * (inscan) or 0 to me - 1 (exscan). */
#define WANT(T, VAL, me, i, excl, out)                                                        \
    do {                                                                                      \
        out = (T)0;                                                                           \
        for (int j_ = 0; j_ < (me) + !(excl); j_++)                                           \
            out = (T)(out + VAL(T, j_, i));                                                   \
    } while (0)

/* One type, one kind: out of place, in place, and from a source that
 * overlaps dest by all but one element. */
#define TEST_KIND(N, T, KIND, EXCL, VAL)                                                      \
    static void test_##N##_##KIND(const struct test_team *t, size_t n)                        \
    {                                                                                         \
        T *dst = (T *)dst_buf, *src = (T *)src_buf, want;                                     \
        const char *what = "shmem_" #N "_sum_" #KIND;                                         \
        for (size_t i = 0; i < n; i++)                                                        \
            src[i] = VAL(T, t->me, i);                                                        \
        memset(dst_buf, CANARY, (n + PAD) * sizeof(T));                                       \
        CHECK(shmem_##N##_sum_##KIND(t->team, dst, src, n) == 0, "%s", what);                 \
        for (size_t i = 0; i < n; i++) {                                                      \
            WANT(T, VAL, t->me, i, EXCL, want);                                               \
            CHECK(dst[i] == want, "%s on %s (PE %d of %d), %zu elems: elem %zu wrong", what,  \
                  t->name, t->me, t->n, n, i);                                                \
            CHECK(src[i] == VAL(T, t->me, i), "%s: source elem %zu changed", what, i);        \
        }                                                                                     \
        check_canary(what, t->name, n * sizeof(T), (n + PAD) * sizeof(T));                    \
        /* in place */                                                                        \
        for (size_t i = 0; i < n; i++)                                                        \
            dst[i] = VAL(T, t->me, i);                                                        \
        CHECK(shmem_##N##_sum_##KIND(t->team, dst, dst, n) == 0, "%s in place", what);        \
        for (size_t i = 0; i < n; i++) {                                                      \
            WANT(T, VAL, t->me, i, EXCL, want);                                               \
            CHECK(dst[i] == want, "%s in place on %s (PE %d of %d), %zu elems: elem %zu",     \
                  what, t->name, t->me, t->n, n, i);                                          \
        }                                                                                     \
        check_canary(what, t->name, n * sizeof(T), (n + PAD) * sizeof(T));                    \
        /* source = dest + 1 (overlapping, not in place) */                                   \
        if (n == 0)                                                                           \
            return;                                                                           \
        memset(dst_buf, CANARY, (n + PAD) * sizeof(T));                                       \
        for (size_t i = 0; i < n; i++)                                                        \
            dst[i + 1] = VAL(T, t->me, i);                                                    \
        CHECK(shmem_##N##_sum_##KIND(t->team, dst, dst + 1, n) == 0, "%s overlap", what);     \
        for (size_t i = 0; i < n; i++) {                                                      \
            WANT(T, VAL, t->me, i, EXCL, want);                                               \
            CHECK(dst[i] == want, "%s overlapping on %s, %zu elems: elem %zu", what, t->name, \
                  n, i);                                                                      \
        }                                                                                     \
        CHECK(dst[n] == VAL(T, t->me, n - 1), "%s overlap: dest[%zu] changed", what, n);      \
        check_canary(what, t->name, (n + 1) * sizeof(T), (n + PAD) * sizeof(T));              \
    }
#define TEST_TYPE(N, T)                                                                       \
    TEST_KIND(N, T, inscan, 0, V_SUM) TEST_KIND(N, T, exscan, 1, V_SUM)
SHMPI_REDUCE_ARITH_TYPES(TEST_TYPE)

/* Complex values with imaginary parts. */
#define shmem_complexd_i_sum_inscan shmem_complexd_sum_inscan
#define shmem_complexd_i_sum_exscan shmem_complexd_sum_exscan
#define shmem_complexf_i_sum_inscan shmem_complexf_sum_inscan
#define shmem_complexf_i_sum_exscan shmem_complexf_sum_exscan
TEST_KIND(complexd_i, double _Complex, inscan, 0, V_CSUM)
TEST_KIND(complexd_i, double _Complex, exscan, 1, V_CSUM)
TEST_KIND(complexf_i, float _Complex, inscan, 0, V_CSUM)
TEST_KIND(complexf_i, float _Complex, exscan, 1, V_CSUM)

static int calls; /* typed scans made, for the pass line */

static void run_all(const struct test_team *t, size_t n)
{
#define RUN_TYPE(N, T) test_##N##_inscan(t, n); test_##N##_exscan(t, n); calls += 2;
    SHMPI_REDUCE_ARITH_TYPES(RUN_TYPE)
#undef RUN_TYPE
    test_complexd_i_inscan(t, n);
    test_complexd_i_exscan(t, n);
    test_complexf_i_inscan(t, n);
    test_complexf_i_exscan(t, n);
    calls += 4;
}

/* The generic names, for each distinct type of their selection (the
 * fixed-width and size/ptrdiff types are these types). */
#define TEST_GENERIC(T, VAL)                                                                  \
    do {                                                                                      \
        T *dst = (T *)dst_buf, *src = (T *)src_buf, want;                                     \
        for (int e = 0; e < 2; e++) {                                                         \
            for (size_t i = 0; i < n; i++)                                                    \
                src[i] = VAL(T, t->me, i);                                                    \
            memset(dst_buf, CANARY, (n + PAD) * sizeof(T));                                   \
            int rc = e ? shmem_sum_exscan(t->team, dst, src, n)                               \
                       : shmem_sum_inscan(t->team, dst, src, n);                              \
            CHECK(rc == 0, "generic %s " #T, e ? "exscan" : "inscan");                        \
            for (size_t i = 0; i < n; i++) {                                                  \
                WANT(T, VAL, t->me, i, e, want);                                              \
                CHECK(dst[i] == want, "generic %s " #T " on %s: elem %zu",                    \
                      e ? "exscan" : "inscan", t->name, i);                                   \
            }                                                                                 \
            check_canary("generic " #T, t->name, n * sizeof(T), (n + PAD) * sizeof(T));       \
            /* in place */                                                                    \
            for (size_t i = 0; i < n; i++)                                                    \
                dst[i] = VAL(T, t->me, i);                                                    \
            rc = e ? shmem_sum_exscan(t->team, dst, dst, n)                                   \
                   : shmem_sum_inscan(t->team, dst, dst, n);                                  \
            CHECK(rc == 0, "generic in place " #T);                                           \
            for (size_t i = 0; i < n; i++) {                                                  \
                WANT(T, VAL, t->me, i, e, want);                                              \
                CHECK(dst[i] == want, "generic %s in place " #T " on %s: elem %zu",           \
                      e ? "exscan" : "inscan", t->name, i);                                   \
            }                                                                                 \
        }                                                                                     \
    } while (0)

static void run_generic(const struct test_team *t, size_t n)
{
    TEST_GENERIC(char, V_SUM);
    TEST_GENERIC(signed char, V_SUM);
    TEST_GENERIC(short, V_SUM);
    TEST_GENERIC(int, V_SUM);
    TEST_GENERIC(long, V_SUM);
    TEST_GENERIC(long long, V_SUM);
    TEST_GENERIC(unsigned char, V_SUM);
    TEST_GENERIC(unsigned short, V_SUM);
    TEST_GENERIC(unsigned int, V_SUM);
    TEST_GENERIC(unsigned long, V_SUM);
    TEST_GENERIC(unsigned long long, V_SUM);
    TEST_GENERIC(int8_t, V_SUM);
    TEST_GENERIC(int64_t, V_SUM);
    TEST_GENERIC(uint16_t, V_SUM);
    TEST_GENERIC(size_t, V_SUM);
    TEST_GENERIC(ptrdiff_t, V_SUM);
    TEST_GENERIC(float, V_SUM);
    TEST_GENERIC(double, V_SUM);
    TEST_GENERIC(long double, V_SUM);
    TEST_GENERIC(double _Complex, V_CSUM);
    TEST_GENERIC(float _Complex, V_CSUM);
}

int main(void)
{
    shmem_init();
    int npes = shmem_n_pes();
    size_t bytes = (MAX_ELEMS + PAD + 1) * sizeof(long double _Complex);
    dst_buf = shmem_malloc(bytes);
    src_buf = shmem_malloc(bytes);
    CHECK(dst_buf && src_buf, "shmem_malloc of %zu bytes", bytes);
    struct test_team teams[MAX_TEST_TEAMS];
    int count = make_test_teams(teams);
    size_t sizes[] = {0, 1, MAX_ELEMS};
    int team_runs = 0;
    for (int k = 0; k < count; k++) {
        const struct test_team *t = &teams[k];
        const char *name = t->name;
        /* world, reversed world (stride -1), odd PEs (stride 2), every
         * other PE downwards (stride -2); on 8 PEs (oversubscribed) the
         * world and the odd PEs only. */
        bool wanted = !strcmp(name, "world") || !strcmp(name, "odd") ||
                      (npes <= 4 && (!strcmp(name, "reversed") || !strcmp(name, "down2")));
        if (!wanted || t->team == SHMEM_TEAM_INVALID)
            continue;
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
            run_all(t, sizes[s]);
        run_generic(t, 0);
        run_generic(t, 7);
        team_runs++;
    }
    free_test_teams(teams, count);
    shmem_free(dst_buf);
    shmem_free(src_buf);
    if (shmem_my_pe() == 0)
        printf("scan_types: %d typed scan tests (out of place, in place, overlapping) "
               "on %d teams\n",
               calls, team_runs);
    test_passed("scan_types");
    shmem_finalize();
    return 0;
}
