/* Deprecated active-set collectives: shmem_barrier, shmem_sync (function
 * and C11 generic), broadcast/collect/fcollect/alltoall/alltoalls 32 and
 * 64, and every shmem_TYPE_OP_to_all against a serial reference, on
 * strided active sets (PE_start, 2^logPE_stride, PE_size) of 1 to 8 PEs,
 * roots 0 and the last, sizes from 0 to 1 MiB (around the engine's line,
 * scratch and direct thresholds).  The root's dest of the deprecated
 * broadcast is not written.  Also: back-to-back calls alternating two
 * pSync arrays with no barrier between, disjoint sets running at once,
 * collect with zero, small, large and private (non-symmetric) counts in
 * one call, and large reductions. */
#include <complex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#define CANARY 0xA5
#define NELEMS 37
#define BIG ((size_t)1 << 20)

static long pSync[SHMEM_REDUCE_SYNC_SIZE];
static long pSync2[SHMEM_REDUCE_SYNC_SIZE];
static unsigned char *dst_buf, *src_buf;
static int slots[8]; /* one per active set: sets overlap in time */

struct aset {
    int start, log, size;
    int me; /* this PE's index in the set, -1 if not a member */
};

static int world_of(const struct aset *a, int i) { return a->start + (i << a->log); }

static void check_canary(const char *what, size_t from, size_t to)
{
    for (size_t b = from; b < to; b++)
        CHECK(dst_buf[b] == CANARY, "%s: byte %zu overwritten", what, b);
}

/* Element i that world PE w sends to set index j, as a BITS-bit word. */
#define WORD(BITS, w, j, i) ((uint##BITS##_t)(0x5000u + (w) * 1000u + (j) * 100u + (i) * 3u))

#define TEST_SIZED(BITS)                                                                      \
    static void test_##BITS(const struct aset *a, size_t nelems)                              \
    {                                                                                         \
        bool big = nelems * (BITS / 8) * (size_t)a->size * 3 > BIG;                           \
        uint##BITS##_t *dst = (uint##BITS##_t *)dst_buf, *src = (uint##BITS##_t *)src_buf;    \
        int n = a->size, me = shmem_my_pe();                                                  \
        size_t sz = BITS / 8;                                                                 \
        for (int root = 0; root < n; root += n > 2 ? n - 1 : 1) {                             \
            for (size_t i = 0; i < nelems; i++)                                               \
                src[i] = WORD(BITS, me, 0, i);                                                \
            memset(dst_buf, CANARY, (nelems + 2) * sz);                                       \
            shmem_broadcast##BITS(dst, src, nelems, root, a->start, a->log, a->size, pSync);  \
            if (a->me == root) {                                                              \
                check_canary("broadcast root dest", 0, (nelems + 2) * sz);                    \
            } else {                                                                          \
                for (size_t i = 0; i < nelems; i++)                                           \
                    CHECK(dst[i] == WORD(BITS, world_of(a, root), 0, i),                      \
                          "broadcast" #BITS " elem %zu", i);                                  \
                check_canary("broadcast", nelems * sz, (nelems + 2) * sz);                    \
            }                                                                                 \
            /* pSync may be reused after a barrier over the set (spec). */                    \
            shmem_barrier(a->start, a->log, a->size, pSync2);                                 \
        }                                                                                     \
        size_t mine = nelems + (size_t)(a->me % 2), total = 0;                                \
        for (int j = 0; j < n; j++)                                                           \
            total += nelems + (size_t)(j % 2);                                                \
        for (size_t i = 0; i < mine; i++)                                                     \
            src[i] = WORD(BITS, me, 1, i);                                                    \
        memset(dst_buf, CANARY, (total + 2) * sz);                                            \
        shmem_collect##BITS(dst, src, mine, a->start, a->log, a->size, pSync);                \
        size_t at = 0;                                                                        \
        for (int j = 0; j < n; j++)                                                           \
            for (size_t i = 0; i < nelems + (size_t)(j % 2); i++, at++)                       \
                CHECK(dst[at] == WORD(BITS, world_of(a, j), 1, i), "collect" #BITS);          \
        check_canary("collect", total * sz, (total + 2) * sz);                                \
        shmem_barrier(a->start, a->log, a->size, pSync2);                                     \
        memset(dst_buf, CANARY, ((size_t)n * nelems + 2) * sz);                               \
        shmem_fcollect##BITS(dst, src, nelems, a->start, a->log, a->size, pSync);             \
        for (int j = 0; j < n; j++)                                                           \
            for (size_t i = 0; i < nelems; i++)                                               \
                CHECK(dst[(size_t)j * nelems + i] == WORD(BITS, world_of(a, j), 1, i),        \
                      "fcollect" #BITS);                                                      \
        check_canary("fcollect", (size_t)n * nelems * sz, ((size_t)n * nelems + 2) * sz);     \
        shmem_barrier(a->start, a->log, a->size, pSync2);                                     \
        if (big)                                                                              \
            return;                                                                           \
        for (int j = 0; j < n; j++)                                                           \
            for (size_t i = 0; i < nelems; i++)                                               \
                src[(size_t)j * nelems + i] = WORD(BITS, me, j, i);                           \
        memset(dst_buf, CANARY, ((size_t)n * nelems + 2) * sz);                               \
        shmem_alltoall##BITS(dst, src, nelems, a->start, a->log, a->size, pSync);             \
        for (int j = 0; j < n; j++)                                                           \
            for (size_t i = 0; i < nelems; i++)                                               \
                CHECK(dst[(size_t)j * nelems + i] == WORD(BITS, world_of(a, j), a->me, i),    \
                      "alltoall" #BITS);                                                      \
        check_canary("alltoall", (size_t)n * nelems * sz, ((size_t)n * nelems + 2) * sz);     \
        shmem_barrier(a->start, a->log, a->size, pSync2);                                     \
        for (int j = 0; j < n; j++)                                                           \
            for (size_t i = 0; i < nelems; i++)                                               \
                src[((size_t)j * nelems + i) * 3] = WORD(BITS, me, j, i);                     \
        size_t span = (size_t)n * nelems * 2;                                                 \
        memset(dst_buf, CANARY, (span + 2) * sz);                                             \
        shmem_alltoalls##BITS(dst, src, 2, 3, nelems, a->start, a->log, a->size, pSync);      \
        for (int j = 0; j < n; j++)                                                           \
            for (size_t i = 0; i < nelems; i++) {                                             \
                size_t k = ((size_t)j * nelems + i) * 2;                                      \
                CHECK(dst[k] == WORD(BITS, world_of(a, j), a->me, i), "alltoalls" #BITS);     \
                check_canary("alltoalls gap", (k + 1) * sz, (k + 2) * sz);                    \
            }                                                                                 \
        check_canary("alltoalls", span * sz, (span + 2) * sz);                                \
        shmem_barrier(a->start, a->log, a->size, pSync2);                                     \
    }
TEST_SIZED(32)
TEST_SIZED(64)

/* to_all reductions: values V_BIT, V_MINMAX, V_SUM, V_PROD and F_OP of testlib.h. */
#define TEST_TO_ALL(N, T, OP, VAL)                                                            \
    static void test_##N##_##OP(const struct aset *a, int nreduce, bool in_place)             \
    {                                                                                         \
        static T pWrk[NELEMS / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];                        \
        T *dst = (T *)dst_buf, *src = in_place ? dst : (T *)src_buf;                          \
        memset(dst_buf, CANARY, ((size_t)nreduce + 2) * sizeof(T));                           \
        for (int i = 0; i < nreduce; i++)                                                     \
            src[i] = VAL(T, a->me, i);                                                        \
        shmem_##N##_##OP##_to_all(dst, src, nreduce, a->start, a->log, a->size, pWrk, pSync); \
        for (int i = 0; i < nreduce; i++) {                                                   \
            T want = VAL(T, 0, i);                                                            \
            for (int j = 1; j < a->size; j++)                                                 \
                want = (T)F_##OP(want, VAL(T, j, i));                                         \
            CHECK(dst[i] == want, #N "_" #OP "_to_all elem %d (start %d log %d size %d)", i,  \
                  a->start, a->log, a->size);                                                 \
        }                                                                                     \
        check_canary(#N "_" #OP "_to_all", (size_t)nreduce * sizeof(T),                       \
                     ((size_t)nreduce + 2) * sizeof(T));                                      \
        /* alternate pSync arrays, as the spec asks of back-to-back calls */                  \
        shmem_barrier(a->start, a->log, a->size, pSync2);                                     \
    }
#define TEST_BITWISE(N, T)                                                                    \
    TEST_TO_ALL(N, T, and, V_BIT) TEST_TO_ALL(N, T, or, V_BIT) TEST_TO_ALL(N, T, xor, V_BIT)
#define TEST_MINMAX(N, T) TEST_TO_ALL(N, T, max, V_MINMAX) TEST_TO_ALL(N, T, min, V_MINMAX)
#define TEST_ARITH(N, T) TEST_TO_ALL(N, T, sum, V_SUM) TEST_TO_ALL(N, T, prod, V_PROD)
SHMPI_TO_ALL_BITWISE_TYPES(TEST_BITWISE)
SHMPI_TO_ALL_MINMAX_TYPES(TEST_MINMAX)
SHMPI_TO_ALL_ARITH_TYPES(TEST_ARITH)

static void test_reductions(const struct aset *a, int nreduce, bool in_place)
{
#define RUN_BITWISE(N, T)                                                                     \
    test_##N##_and(a, nreduce, in_place);                                                     \
    test_##N##_or(a, nreduce, in_place);                                                      \
    test_##N##_xor(a, nreduce, in_place);
#define RUN_MINMAX(N, T)                                                                      \
    test_##N##_max(a, nreduce, in_place);                                                     \
    test_##N##_min(a, nreduce, in_place);
#define RUN_ARITH(N, T)                                                                       \
    test_##N##_sum(a, nreduce, in_place);                                                     \
    test_##N##_prod(a, nreduce, in_place);
    SHMPI_TO_ALL_BITWISE_TYPES(RUN_BITWISE)
    SHMPI_TO_ALL_MINMAX_TYPES(RUN_MINMAX)
    SHMPI_TO_ALL_ARITH_TYPES(RUN_ARITH)
}

/* Barrier: each member puts to the next member, then the barrier makes
 * it visible (barrier = quiet + sync); sync after a quiet does too. */
static void test_barrier(const struct aset *a, int *slot)
{
    int next = world_of(a, (a->me + 1) % a->size);
    int prev = world_of(a, (a->me + a->size - 1) % a->size);
    for (int round = 0; round < 20; round++) {
        shmem_int_p(slot, round * 100 + shmem_my_pe(), next);
        shmem_barrier(a->start, a->log, a->size, pSync);
        CHECK(*slot == round * 100 + prev, "barrier round %d: slot %d (set %d, %d, %d)", round,
              *slot, a->start, a->log, a->size);
        shmem_barrier(a->start, a->log, a->size, pSync2);
    }
    shmem_int_p(slot, -shmem_my_pe(), next);
    shmem_quiet();
    shmem_sync(a->start, a->log, a->size, pSync); /* C11 generic: the active-set form */
    CHECK(*slot == -prev, "sync: slot %d", *slot);
    (shmem_sync)(a->start, a->log, a->size, pSync2);
}

/* Back-to-back calls on one set alternating two pSync arrays, no barrier
 * between (the spec's rule): each call's result is checked. */
static void test_back_to_back(const struct aset *a)
{
    uint64_t *dst = (uint64_t *)dst_buf, *src = (uint64_t *)src_buf;
    int root = a->size - 1;
    for (int round = 0; round < 64; round++) {
        size_t nelems = round % 3 == 0 ? 1 : round % 3 == 1 ? 9 : 600; /* line, scratch, direct */
        for (size_t i = 0; i < nelems; i++)
            src[i] = WORD(64, shmem_my_pe(), round, i);
        if (a->me != root)
            dst[0] = dst[nelems - 1] = 0;
        shmem_broadcast64(dst, src, nelems, root, a->start, a->log, a->size,
                          round % 2 ? pSync : pSync2);
        if (a->me != root)
            for (size_t i = 0; i < nelems; i += nelems > 9 ? 37 : 1)
                CHECK(dst[i] == WORD(64, world_of(a, root), round, i),
                      "back-to-back broadcast round %d elem %zu (set %d, %d, %d)", round, i,
                      a->start, a->log, a->size);
        /* then a reduction into a different buffer, also back to back */
        static long sum_src[4], sum_dst[4];
        static long pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
        for (int i = 0; i < 4; i++)
            sum_src[i] = round * 10 + a->me + i;
        shmem_long_sum_to_all(sum_dst, sum_src, 4, a->start, a->log, a->size, pWrk,
                              round % 2 ? pSync2 : pSync);
        for (int i = 0; i < 4; i++) {
            long want = 0;
            for (int j = 0; j < a->size; j++)
                want += round * 10 + j + i;
            CHECK(sum_dst[i] == want, "back-to-back sum round %d elem %d: %ld, want %ld", round,
                  i, sum_dst[i], want);
        }
    }
    shmem_barrier(a->start, a->log, a->size, pSync);
}

/* collect in one call with members giving a few elements (in a line),
 * thousands from a private buffer peers cannot read, none, thousands
 * (read in place) and some hundreds (scratch). */
static void test_collect_mixed(const struct aset *a)
{
    static const size_t counts[] = {3, 4100, 0, 5000, 200, 0};
    uint64_t *dst = (uint64_t *)dst_buf;
    size_t total = 0, at = 0;
    for (int j = 0; j < a->size; j++)
        total += counts[j % 6];
    size_t mine = counts[a->me % 6];
    uint64_t *src = a->me % 6 == 1 ? malloc(mine * 8 + 8) : (uint64_t *)src_buf;
    CHECK(src != NULL, "malloc");
    for (size_t i = 0; i < mine; i++)
        src[i] = WORD(64, shmem_my_pe(), 7, i);
    memset(dst_buf, CANARY, (total + 2) * 8);
    shmem_collect64(dst, src, mine, a->start, a->log, a->size, pSync);
    for (int j = 0; j < a->size; j++)
        for (size_t i = 0; i < counts[j % 6]; i++, at++)
            CHECK(dst[at] == WORD(64, world_of(a, j), 7, i),
                  "mixed collect from %d elem %zu (set %d, %d, %d)", j, i, a->start, a->log,
                  a->size);
    check_canary("mixed collect", total * 8, (total + 2) * 8);
    /* in place: the source is this member's own block of dest */
    size_t off = 0;
    for (int j = 0; j < a->me; j++)
        off += counts[j % 6];
    for (size_t i = 0; i < mine; i++)
        dst[off + i] = WORD(64, shmem_my_pe(), 8, i);
    shmem_collect64(dst, dst + off, mine, a->start, a->log, a->size, pSync2);
    at = 0;
    for (int j = 0; j < a->size; j++)
        for (size_t i = 0; i < counts[j % 6]; i++, at++)
            CHECK(dst[at] == WORD(64, world_of(a, j), 8, i), "in-place collect from %d elem %zu",
                  j, i);
    if (a->me % 6 == 1)
        free(src);
    shmem_barrier(a->start, a->log, a->size, pSync);
}

/* Large reductions (sliced in shared memory), in place and apart. */
static void test_big_reduce(const struct aset *a)
{
    const int nreduce = 20000;
    long *pWrk = shmem_malloc(((size_t)nreduce / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE) *
                              sizeof(long));
    long *dst = (long *)dst_buf, *src = (long *)src_buf;
    for (int in_place = 0; in_place < 2; in_place++) {
        long *from = in_place ? dst : src;
        for (int i = 0; i < nreduce; i++)
            from[i] = (long)a->me * 3 + i;
        shmem_long_max_to_all(dst, from, nreduce, a->start, a->log, a->size, pWrk,
                              in_place ? pSync : pSync2);
        for (int i = 0; i < nreduce; i++)
            CHECK(dst[i] == (long)(a->size - 1) * 3 + i, "big max_to_all elem %d", i);
    }
    shmem_barrier(a->start, a->log, a->size, pSync);
    shmem_free(pWrk); /* collective over all PEs: called by everyone below */
}

int main(int argc, char **argv)
{
    test_thread_arg(argc, argv); /* "thread N": between nodes' forms on one node */
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        pSync[i] = pSync2[i] = SHMEM_SYNC_VALUE;
    dst_buf = shmem_malloc((size_t)n * BIG + (1 << 16));
    src_buf = shmem_malloc((size_t)n * BIG + (1 << 16));
    CHECK(dst_buf && src_buf, "malloc");
    shmem_barrier_all();

    struct aset sets[] = {
        {0, 0, n, -1},                    /* everyone */
        {0, 1, (n + 1) / 2, -1},          /* even PEs */
        {1 % n, 1, n > 1 ? n / 2 : 1, -1}, /* odd PEs */
        {n > 2 ? 1 : 0, 0, n > 2 ? n - 1 : 1, -1}, /* all but PE 0 */
        {0, 2, (n + 3) / 4, -1},          /* every 4th PE */
        {n - 1, 0, 1, -1},                /* the last PE alone */
        {0, 0, n > 1 ? 2 : 1, -1},        /* the first two */
        {0, 0, n > 2 ? 3 : 1, -1},        /* the first three */
    };
    int nsets = (int)(sizeof(sets) / sizeof(sets[0]));
    for (int s = 0; s < nsets; s++) {
        struct aset *a = &sets[s];
        int d = me - a->start;
        if (d >= 0 && d % (1 << a->log) == 0 && d / (1 << a->log) < a->size)
            a->me = d >> a->log;
    }
    /* Sets are taken one after another: members of a later set wait for
     * members of an earlier one only through sets they share. */
    for (int s = 0; s < nsets; s++) {
        const struct aset *a = &sets[s];
        if (a->me < 0)
            continue;
        test_barrier(a, &slots[s]);
        test_32(a, 0);
        test_32(a, NELEMS);
        test_64(a, 1);
        test_64(a, NELEMS);
        if (n <= 4 || s < 2) {
            test_reductions(a, 1, false);
            test_reductions(a, NELEMS, true);
        }
        test_reductions(a, NELEMS, false);
        if (n <= 4 || s < 2) {
            /* around the line (56 B), scratch (2 KiB) and reduction (4 KiB)
             * thresholds, and 1 MiB */
            static const size_t n32[] = {14, 15, 511, 513, 1023, 1025};
            static const size_t n64[] = {7, 8, 255, 257, 511, 513, BIG / 8};
            for (size_t k = 0; k < sizeof n32 / sizeof n32[0]; k++)
                test_32(a, n32[k]);
            for (size_t k = 0; k < sizeof n64 / sizeof n64[0]; k++)
                test_64(a, n64[k]);
        }
        test_back_to_back(a);
        test_collect_mixed(a);
    }
    /* Disjoint sets at once: the even and the odd PEs, back to back. */
    int half = me % 2 == 0 ? 1 : 2;
    if (sets[half].me >= 0 && sets[half].size > 0)
        test_back_to_back(&sets[half]);
    shmem_barrier_all();
    /* Large reductions: every PE calls shmem_malloc/free (collective). */
    for (int s = 0; s < 2; s++) {
        if (sets[s].me >= 0)
            test_big_reduce(&sets[s]);
        else {
            long *p = shmem_malloc(((size_t)20000 / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE) *
                                   sizeof(long));
            shmem_free(p);
        }
    }
    /* Active-set communicators are cached: many calls, no growth. */
    for (int i = 0; i < 500; i++)
        if (sets[1].me >= 0)
            shmem_barrier(sets[1].start, sets[1].log, sets[1].size, i % 2 ? pSync : pSync2);
    shmem_barrier_all();
    shmem_free(dst_buf);
    shmem_free(src_buf);
    test_passed("aset_coll");
    shmem_finalize();
    return 0;
}
