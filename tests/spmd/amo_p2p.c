/*
 * Multi-variable point-to-point synchronization for every type:
 * wait_until_all/any/some, their _vector forms, and test_all/any/some
 * (and _vector), with every comparison and with status masks.
 *
 * Part 1 (each PE alone): fixed values in a symmetric array; every routine
 * with every SHMEM_CMP_* and several masks is compared with a reference
 * computed here (the waits only where they must return at once).
 * Part 2 (pairs): the left neighbour changes the array remotely, step by
 * step, while this PE waits; excluded elements must never be reported.
 * The generic names are used for a few types as well.
 */
#include <stdint.h>
#include <string.h>

#include "testlib.h"

#define NELEMS 8
static const int cmps[] = {SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT,
                           SHMEM_CMP_GE, SHMEM_CMP_LT, SHMEM_CMP_LE};
/* Masks: NULL (all take part), none excluded, some excluded, all excluded. */
static const int mask_some[NELEMS] = {1, 0, 0, 1, 0, 1, 0, 0};
static const int mask_none[NELEMS] = {0};
static const int mask_all[NELEMS] = {1, 1, 1, 1, 1, 1, 1, 1};
static const int *const masks[] = {NULL, mask_none, mask_some, mask_all};

static int me, npes, right;

static int holds(int cmp, long double a, long double b)
{
    switch (cmp) {
    case SHMEM_CMP_EQ: return a == b;
    case SHMEM_CMP_NE: return a != b;
    case SHMEM_CMP_GT: return a > b;
    case SHMEM_CMP_GE: return a >= b;
    case SHMEM_CMP_LT: return a < b;
    default: return a <= b;
    }
}

/* Checks a _some result: exactly the ready indices, each once. */
static void check_some(const char *what, size_t count, const size_t *indices,
                       const int *ready)
{
    size_t want = 0;
    int seen[NELEMS] = {0};
    for (int i = 0; i < NELEMS; i++)
        want += ready[i];
    CHECK(count == want, "%s: %zu ready reported, %zu expected", what, count, want);
    for (size_t k = 0; k < count; k++) {
        CHECK(indices[k] < NELEMS && ready[indices[k]] && !seen[indices[k]],
              "%s: bad index %zu", what, indices[k]);
        seen[indices[k]] = 1;
    }
}

#define PART1(N, T)                                                                           \
    static void part1_##N(T *ivars)                                                           \
    {                                                                                         \
        /* Values 0..7, some equal to the comparison value 3. */                             \
        static const int init[NELEMS] = {0, 3, 7, 3, 5, 1, 6, 2};                             \
        T values[NELEMS];                                                                     \
        for (int i = 0; i < NELEMS; i++) {                                                    \
            ivars[i] = (T)init[i];                                                            \
            values[i] = (T)((i * 5) % 8); /* per-element values for _vector */                \
        }                                                                                     \
        for (size_t c = 0; c < sizeof(cmps) / sizeof(cmps[0]); c++)                           \
            for (size_t m = 0; m < sizeof(masks) / sizeof(masks[0]); m++)                     \
                for (int vec = 0; vec < 2; vec++) {                                           \
                    int cmp = cmps[c];                                                        \
                    const int *st = masks[m];                                                 \
                    int ready[NELEMS], n_ready = 0, n_part = 0;                               \
                    for (int i = 0; i < NELEMS; i++) {                                        \
                        int part = !st || !st[i];                                             \
                        ready[i] = part && holds(cmp, (long double)ivars[i],                  \
                                                 (long double)(vec ? values[i] : (T)3));      \
                        n_ready += ready[i];                                                  \
                        n_part += part;                                                       \
                    }                                                                         \
                    char what[96];                                                            \
                    snprintf(what, sizeof(what), #N " cmp %d mask %zu vector %d", cmp, m,     \
                             vec);                                                            \
                    size_t idx[NELEMS];                                                       \
                    int all = vec ? shmem_##N##_test_all_vector(ivars, NELEMS, st, cmp,       \
                                                                values)                       \
                                  : shmem_##N##_test_all(ivars, NELEMS, st, cmp, (T)3);       \
                    CHECK(all == (n_ready == n_part), "%s: test_all %d", what, all);          \
                    size_t any = vec ? shmem_##N##_test_any_vector(ivars, NELEMS, st, cmp,    \
                                                                   values)                    \
                                     : shmem_##N##_test_any(ivars, NELEMS, st, cmp, (T)3);    \
                    if (n_ready)                                                              \
                        CHECK(any < NELEMS && ready[any], "%s: test_any %zu", what, any);     \
                    else                                                                      \
                        CHECK(any == SIZE_MAX, "%s: test_any %zu, none ready", what, any);    \
                    size_t some = vec ? shmem_##N##_test_some_vector(ivars, NELEMS, idx, st,  \
                                                                     cmp, values)             \
                                      : shmem_##N##_test_some(ivars, NELEMS, idx, st, cmp,    \
                                                              (T)3);                          \
                    check_some(what, some, idx, ready);                                       \
                    /* The waits, where they return at once. */                               \
                    if (n_ready == n_part) {                                                  \
                        if (vec)                                                              \
                            shmem_##N##_wait_until_all_vector(ivars, NELEMS, st, cmp, values); \
                        else                                                                  \
                            shmem_##N##_wait_until_all(ivars, NELEMS, st, cmp, (T)3);         \
                    }                                                                         \
                    if (n_ready || !n_part) {                                                 \
                        any = vec ? shmem_##N##_wait_until_any_vector(ivars, NELEMS, st, cmp, \
                                                                      values)                 \
                                  : shmem_##N##_wait_until_any(ivars, NELEMS, st, cmp, (T)3); \
                        if (n_part)                                                           \
                            CHECK(any < NELEMS && ready[any], "%s: wait_until_any %zu", what, \
                                  any);                                                       \
                        else                                                                  \
                            CHECK(any == SIZE_MAX, "%s: wait_until_any on an empty set %zu",  \
                                  what, any);                                                 \
                        some = vec ? shmem_##N##_wait_until_some_vector(ivars, NELEMS, idx,   \
                                                                        st, cmp, values)      \
                                   : shmem_##N##_wait_until_some(ivars, NELEMS, idx, st, cmp, \
                                                                 (T)3);                       \
                        check_some(what, some, idx, ready);                                   \
                    }                                                                         \
                }                                                                             \
        /* nelems 0: an empty set. */                                                         \
        CHECK(shmem_##N##_test_all(ivars, 0, NULL, SHMEM_CMP_EQ, (T)99) == 1, "empty all");   \
        CHECK(shmem_##N##_test_any(ivars, 0, NULL, SHMEM_CMP_EQ, (T)99) == SIZE_MAX,          \
              "empty any");                                                                   \
        CHECK(shmem_##N##_wait_until_some(ivars, 0, NULL, NULL, SHMEM_CMP_EQ, (T)99) == 0,    \
              "empty some");                                                                  \
        shmem_##N##_wait_until_all(ivars, 0, NULL, SHMEM_CMP_EQ, (T)99);                      \
    }
SHMPI_P2P_TYPES(PART1)

/* Part 2: the left neighbour drives this PE's array (and this PE the
 * right neighbour's).  Steps, separated by barriers:
 *   1. excluded element 0 becomes 1, then element 5: wait_until_any
 *      (mask excludes 0) returns 5;
 *   2. all elements become 2 one by one: wait_until_all(GE 2);
 *   3. elements 3 and 6 become 9: wait_until_some(EQ 9) until both seen;
 *   4. element i becomes i: wait_until_all_vector(EQ i), then
 *      wait_until_any_vector/some_vector see them, test_any polls. */
#define PART2(N, T)                                                                           \
    static void part2_##N(T *ivars)                                                           \
    {                                                                                         \
        static const int skip0[NELEMS] = {1, 0, 0, 0, 0, 0, 0, 0};                            \
        for (int i = 0; i < NELEMS; i++)                                                      \
            ivars[i] = 0;                                                                     \
        shmem_barrier_all();                                                                  \
        /* writer side, to the right neighbour */                                             \
        shmem_##N##_atomic_set(&ivars[0], (T)1, right);                                       \
        shmem_##N##_p(&ivars[5], (T)1, right);                                                \
        size_t got = shmem_##N##_wait_until_any(ivars, NELEMS, skip0, SHMEM_CMP_EQ, (T)1);    \
        CHECK(got == 5, #N " wait_until_any returned %zu", got);                              \
        shmem_barrier_all();                                                                  \
        for (int i = 0; i < NELEMS; i++)                                                      \
            shmem_##N##_atomic_set(&ivars[i], (T)2, right);                                   \
        shmem_##N##_wait_until_all(ivars, NELEMS, NULL, SHMEM_CMP_GE, (T)2);                  \
        for (int i = 0; i < NELEMS; i++)                                                      \
            CHECK(ivars[i] == (T)2, #N " wait_until_all: element %d", i);                     \
        shmem_barrier_all();                                                                  \
        shmem_##N##_atomic_set(&ivars[6], (T)9, right);                                       \
        shmem_##N##_atomic_set(&ivars[3], (T)9, right);                                       \
        int seen[NELEMS] = {0}, n_seen = 0;                                                   \
        int status[NELEMS] = {0};                                                             \
        while (n_seen < 2) {                                                                  \
            size_t idx[NELEMS];                                                               \
            size_t k = shmem_##N##_wait_until_some(ivars, NELEMS, idx, status, SHMEM_CMP_EQ,  \
                                                   (T)9);                                     \
            CHECK(k >= 1, #N " wait_until_some returned 0");                                  \
            for (size_t j = 0; j < k; j++) {                                                  \
                CHECK(idx[j] == 3 || idx[j] == 6, #N " wait_until_some index %zu", idx[j]);   \
                CHECK(!seen[idx[j]], #N " index %zu reported after it was excluded", idx[j]); \
                seen[idx[j]] = 1;                                                             \
                status[idx[j]] = 1; /* exclude what was seen */                               \
                n_seen++;                                                                     \
            }                                                                                 \
        }                                                                                     \
        shmem_barrier_all();                                                                  \
        T want[NELEMS];                                                                       \
        for (int i = 0; i < NELEMS; i++)                                                      \
            want[i] = (T)i;                                                                   \
        for (int i = NELEMS - 1; i >= 0; i--)                                                 \
            shmem_##N##_atomic_set(&ivars[i], (T)i, right);                                   \
        shmem_##N##_wait_until_all_vector(ivars, NELEMS, NULL, SHMEM_CMP_EQ, want);           \
        got = shmem_##N##_wait_until_any_vector(ivars, NELEMS, NULL, SHMEM_CMP_LE, want);     \
        CHECK(got < NELEMS, #N " wait_until_any_vector %zu", got);                            \
        size_t idx[NELEMS];                                                                   \
        CHECK(shmem_##N##_wait_until_some_vector(ivars, NELEMS, idx, NULL, SHMEM_CMP_GE,      \
                                                 want) == NELEMS,                             \
              #N " wait_until_some_vector");                                                  \
        while (shmem_##N##_test_any(ivars, NELEMS, NULL, SHMEM_CMP_EQ, (T)7) == SIZE_MAX)     \
            ;                                                                                 \
        CHECK(shmem_##N##_test_all_vector(ivars, NELEMS, NULL, SHMEM_CMP_EQ, want) == 1,      \
              #N " test_all_vector");                                                         \
        CHECK(shmem_##N##_test_any_vector(ivars, NELEMS, mask_all, SHMEM_CMP_EQ, want) ==     \
                  SIZE_MAX,                                                                   \
              #N " test_any_vector with all excluded");                                       \
        CHECK(shmem_##N##_test_some_vector(ivars, NELEMS, idx, NULL, SHMEM_CMP_NE, want) ==   \
                  0,                                                                          \
              #N " test_some_vector");                                                        \
        shmem_barrier_all();                                                                  \
    }
SHMPI_P2P_TYPES(PART2)

/* Generic names (outside the table expansions: see amo_types.c). */
static void generics(int *iv, long *lv, uint64_t *uv, short *sv)
{
    size_t idx[NELEMS];
    int status[NELEMS] = {0};
    long lvals[NELEMS];
    for (int i = 0; i < NELEMS; i++) {
        iv[i] = i;
        lv[i] = 2 * i;
        uv[i] = (uint64_t)i << 40;
        lvals[i] = 2 * i;
    }
    *sv = 4;
    CHECK(shmem_test_all(iv, NELEMS, status, SHMEM_CMP_GE, 0) == 1, "generic test_all");
    CHECK(shmem_test_any(lv, NELEMS, status, SHMEM_CMP_EQ, 6L) == 3, "generic test_any");
    CHECK(shmem_test_some(uv, NELEMS, idx, NULL, SHMEM_CMP_GT, (uint64_t)5 << 40) == 2,
          "generic test_some");
    CHECK(shmem_test_all_vector(lv, NELEMS, NULL, SHMEM_CMP_EQ, lvals) == 1, "generic tav");
    CHECK(shmem_test_any_vector(lv, NELEMS, mask_all, SHMEM_CMP_EQ, lvals) == SIZE_MAX,
          "generic tanyv");
    CHECK(shmem_test_some_vector(lv, NELEMS, idx, NULL, SHMEM_CMP_LT, lvals) == 0,
          "generic tsv");
    shmem_wait_until_all(iv, NELEMS, NULL, SHMEM_CMP_LT, 8);
    CHECK(shmem_wait_until_any(iv, NELEMS, mask_some, SHMEM_CMP_EQ, 1) == 1, "generic wua");
    CHECK(shmem_wait_until_some(lv, NELEMS, idx, NULL, SHMEM_CMP_GE, 14L) == 1, "generic wus");
    shmem_wait_until_all_vector(lv, NELEMS, NULL, SHMEM_CMP_LE, lvals);
    /* every element satisfies: any index (fair: not always the first) */
    CHECK(shmem_wait_until_any_vector(lv, NELEMS, NULL, SHMEM_CMP_GE, lvals) < NELEMS,
          "generic wuav");
    CHECK(shmem_wait_until_some_vector(lv, NELEMS, idx, NULL, SHMEM_CMP_EQ, lvals) == NELEMS,
          "generic wusv");
    shmem_wait_until(iv, SHMEM_CMP_EQ, 0);
    shmem_wait_until(sv, SHMEM_CMP_GT, 3); /* deprecated short type */
    CHECK(shmem_test(uv + 1, SHMEM_CMP_EQ, (uint64_t)1 << 40), "generic test");
    CHECK(shmem_test(sv, SHMEM_CMP_NE, 4) == 0, "generic test on short");
    (shmem_wait_until)(lv, SHMEM_CMP_EQ, 0); /* the deprecated function */
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;

#define ALLOC_RUN(N, T)                                                                       \
    {                                                                                         \
        T *ivars = shmem_calloc(NELEMS, sizeof(T));                                           \
        CHECK(ivars, "calloc");                                                               \
        part1_##N(ivars);                                                                     \
        part2_##N(ivars);                                                                     \
        shmem_free(ivars);                                                                    \
    }
    SHMPI_P2P_TYPES(ALLOC_RUN)

    int *iv = shmem_malloc(NELEMS * sizeof(int));
    long *lv = shmem_malloc(NELEMS * sizeof(long));
    uint64_t *uv = shmem_malloc(NELEMS * sizeof(uint64_t));
    short *sv = shmem_malloc(sizeof(short));
    CHECK(iv && lv && uv && sv, "malloc");
    generics(iv, lv, uv, sv);
    shmem_barrier_all();
    shmem_free(iv);
    shmem_free(lv);
    shmem_free(uv);
    shmem_free(sv);
    test_passed("amo_p2p");
    shmem_finalize();
    return 0;
}
