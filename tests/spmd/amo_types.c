/*
 * Every AMO routine for every type of its table, with exact values: the
 * shmem_ and shmem_ctx_ forms, the nbi forms, the deprecated names and the
 * C11 generic names.  Each PE works on the words of its right neighbour,
 * in the symmetric heap and in static data (.data and .bss), and the
 * owner then checks what arrived.  Run it with SHMPI_MPI_ONLY=1 or
 * SHMPI_PSEUDO_NODE_SIZE=1 as well to cover the MPI path.
 */
#include <float.h>
#include <stdint.h>
#include <string.h>

#include "testlib.h"

static shmem_ctx_t ctx;          /* a created context, or the default one */
static int me, npes, right, left;
static long done;                /* set by the left neighbour when it is done */

/* Per type: one word in .bss, one in .data, one in the heap. */
#define DECLARE_WORDS(N, T)                                                                   \
    static T bss_##N;                                                                         \
    static T data_##N = (T)1;
SHMPI_AMO_EXT_TYPES(DECLARE_WORDS)

#define EQ(T, got, want, what)                                                                \
    CHECK((got) == (T)(want), "%s %s: got %.17g want %.17g", #T, what, (double)(got),         \
          (double)(T)(want))

/* fetch, set, swap and their nbi forms: floats included. */
#define TEST_EXT(N, T)                                                                        \
    static void test_ext_##N(T *w)                                                            \
    {                                                                                         \
        T f = 0;                                                                              \
        shmem_##N##_atomic_set(w, (T)10, right);                                              \
        EQ(T, shmem_##N##_atomic_fetch(w, right), 10, "set/fetch");                           \
        EQ(T, shmem_##N##_atomic_swap(w, (T)20, right), 10, "swap");                          \
        shmem_ctx_##N##_atomic_set(ctx, w, (T)21, right);                                     \
        EQ(T, shmem_ctx_##N##_atomic_fetch(ctx, w, right), 21, "ctx set/fetch");              \
        EQ(T, shmem_ctx_##N##_atomic_swap(ctx, w, (T)22, right), 21, "ctx swap");             \
        shmem_##N##_atomic_swap_nbi(&f, w, (T)23, right);                                     \
        shmem_quiet();                                                                        \
        EQ(T, f, 22, "swap_nbi");                                                             \
        shmem_ctx_##N##_atomic_swap_nbi(ctx, &f, w, (T)24, right);                            \
        shmem_ctx_quiet(ctx);                                                                 \
        EQ(T, f, 23, "ctx swap_nbi");                                                         \
        shmem_##N##_atomic_fetch_nbi(&f, w, right);                                           \
        shmem_quiet();                                                                        \
        EQ(T, f, 24, "fetch_nbi");                                                            \
        shmem_ctx_##N##_atomic_fetch_nbi(ctx, &f, w, right);                                  \
        shmem_ctx_quiet(ctx);                                                                 \
        EQ(T, f, 24, "ctx fetch_nbi");                                                        \
        shmem_ctx_##N##_atomic_set(ctx, w, (T)33, right); /* what the owner checks */         \
    }
SHMPI_AMO_EXT_TYPES(TEST_EXT)

/* compare_swap, fetch_inc, inc, fetch_add, add: the integer types. */
#define TEST_STD(N, T)                                                                        \
    static void test_std_##N(T *w)                                                            \
    {                                                                                         \
        T f = 0;                                                                              \
        shmem_##N##_atomic_set(w, (T)20, right);                                              \
        EQ(T, shmem_##N##_atomic_compare_swap(w, (T)20, (T)30, right), 20, "cswap hit");      \
        EQ(T, shmem_##N##_atomic_compare_swap(w, (T)99, (T)40, right), 30, "cswap miss");     \
        EQ(T, shmem_##N##_atomic_fetch(w, right), 30, "cswap result");                        \
        EQ(T, shmem_##N##_atomic_fetch_inc(w, right), 30, "fetch_inc");                       \
        shmem_##N##_atomic_inc(w, right);                                                     \
        EQ(T, shmem_##N##_atomic_fetch_add(w, (T)5, right), 32, "fetch_add");                 \
        shmem_##N##_atomic_add(w, (T)3, right);                                               \
        EQ(T, shmem_##N##_atomic_fetch(w, right), 40, "add");                                 \
        EQ(T, shmem_ctx_##N##_atomic_compare_swap(ctx, w, (T)40, (T)50, right), 40,           \
           "ctx cswap");                                                                      \
        EQ(T, shmem_ctx_##N##_atomic_fetch_inc(ctx, w, right), 50, "ctx fetch_inc");          \
        shmem_ctx_##N##_atomic_inc(ctx, w, right);                                            \
        EQ(T, shmem_ctx_##N##_atomic_fetch_add(ctx, w, (T)8, right), 52, "ctx fetch_add");    \
        shmem_ctx_##N##_atomic_add(ctx, w, (T)40, right);                                     \
        EQ(T, shmem_##N##_atomic_fetch(w, right), 100, "ctx add");                            \
        shmem_##N##_atomic_compare_swap_nbi(&f, w, (T)100, (T)110, right);                    \
        shmem_quiet();                                                                        \
        EQ(T, f, 100, "cswap_nbi");                                                           \
        shmem_ctx_##N##_atomic_compare_swap_nbi(ctx, &f, w, (T)1, (T)2, right);               \
        shmem_ctx_quiet(ctx);                                                                 \
        EQ(T, f, 110, "ctx cswap_nbi miss");                                                  \
        shmem_##N##_atomic_fetch_inc_nbi(&f, w, right);                                       \
        shmem_quiet();                                                                        \
        EQ(T, f, 110, "fetch_inc_nbi");                                                       \
        shmem_ctx_##N##_atomic_fetch_inc_nbi(ctx, &f, w, right);                              \
        shmem_ctx_quiet(ctx);                                                                 \
        EQ(T, f, 111, "ctx fetch_inc_nbi");                                                   \
        shmem_##N##_atomic_fetch_add_nbi(&f, w, (T)10, right);                                \
        shmem_quiet();                                                                        \
        EQ(T, f, 112, "fetch_add_nbi");                                                       \
        shmem_ctx_##N##_atomic_fetch_add_nbi(ctx, &f, w, (T)3, right);                        \
        shmem_ctx_quiet(ctx);                                                                 \
        EQ(T, f, 122, "ctx fetch_add_nbi");                                                   \
        EQ(T, shmem_##N##_atomic_fetch(w, right), 125, "after nbi");                          \
        /* Wraparound: the largest value plus one. */                                         \
        T top = (T)-1 > (T)0 ? (T)-1 : (T)(((T)1 << (sizeof(T) * 8 - 2)) - 1 +                 \
                                           ((T)1 << (sizeof(T) * 8 - 2)));                    \
        shmem_##N##_atomic_set(w, top, right);                                                \
        EQ(T, shmem_##N##_atomic_fetch_inc(w, right), top, "fetch_inc at max");               \
        if ((T)-1 > (T)0)                                                                     \
            EQ(T, shmem_##N##_atomic_fetch(w, right), 0, "unsigned wraps to 0");              \
        /* Negative values of the signed types. */                                            \
        if (!((T)-1 > (T)0)) {                                                                \
            shmem_##N##_atomic_set(w, (T)-5, right);                                          \
            EQ(T, shmem_##N##_atomic_fetch_add(w, (T)3, right), -5, "negative fetch_add");    \
            EQ(T, shmem_##N##_atomic_compare_swap(w, (T)-2, (T)-7, right), -2,                \
               "negative cswap");                                                             \
            EQ(T, shmem_##N##_atomic_fetch(w, right), -7, "negative");                        \
        }                                                                                     \
        shmem_##N##_atomic_set(w, (T)77, right); /* what the owner checks */                  \
    }
SHMPI_AMO_STD_TYPES(TEST_STD)

/* and, or, xor. */
#define TEST_BIT(N, T)                                                                        \
    static void test_bit_##N(T *w)                                                            \
    {                                                                                         \
        T f = 0;                                                                              \
        shmem_##N##_atomic_set(w, (T)0xC, right);                                             \
        EQ(T, shmem_##N##_atomic_fetch_and(w, (T)0xA, right), 0xC, "fetch_and");              \
        EQ(T, shmem_##N##_atomic_fetch_or(w, (T)0x5, right), 0x8, "fetch_or");                \
        EQ(T, shmem_##N##_atomic_fetch_xor(w, (T)0xF, right), 0xD, "fetch_xor");              \
        shmem_##N##_atomic_or(w, (T)0x30, right);                                             \
        shmem_##N##_atomic_and(w, (T)0x3E, right);                                            \
        shmem_##N##_atomic_xor(w, (T)0x11, right);                                            \
        EQ(T, shmem_##N##_atomic_fetch(w, right), 0x23, "and/or/xor");                        \
        EQ(T, shmem_ctx_##N##_atomic_fetch_and(ctx, w, (T)0x21, right), 0x23, "ctx fetch_and"); \
        EQ(T, shmem_ctx_##N##_atomic_fetch_or(ctx, w, (T)0x40, right), 0x21, "ctx fetch_or");   \
        EQ(T, shmem_ctx_##N##_atomic_fetch_xor(ctx, w, (T)0x1, right), 0x61, "ctx fetch_xor");  \
        shmem_ctx_##N##_atomic_and(ctx, w, (T)0x7E, right);                                   \
        shmem_ctx_##N##_atomic_or(ctx, w, (T)0x80, right);                                    \
        shmem_ctx_##N##_atomic_xor(ctx, w, (T)0xE0, right);                                   \
        EQ(T, shmem_##N##_atomic_fetch(w, right), 0x00, "ctx and/or/xor");                    \
        shmem_##N##_atomic_fetch_or_nbi(&f, w, (T)0xF0, right);                               \
        shmem_quiet();                                                                        \
        EQ(T, f, 0, "fetch_or_nbi");                                                          \
        shmem_##N##_atomic_fetch_and_nbi(&f, w, (T)0x3C, right);                              \
        shmem_quiet();                                                                        \
        EQ(T, f, 0xF0, "fetch_and_nbi");                                                      \
        shmem_##N##_atomic_fetch_xor_nbi(&f, w, (T)0xFF, right);                              \
        shmem_quiet();                                                                        \
        EQ(T, f, 0x30, "fetch_xor_nbi");                                                      \
        shmem_ctx_##N##_atomic_fetch_and_nbi(ctx, &f, w, (T)0x0F, right);                     \
        shmem_ctx_##N##_atomic_fetch_or_nbi(ctx, &f, w, (T)0x100, right);                     \
        shmem_ctx_##N##_atomic_fetch_xor_nbi(ctx, &f, w, (T)0x1, right);                      \
        shmem_ctx_quiet(ctx);                                                                 \
        EQ(T, f, 0x10F, "ctx fetch_*_nbi");                                                   \
        /* All bits: the top bit survives a round trip. */                                    \
        T top = (T)((T)1 << (sizeof(T) * 8 - 1));                                             \
        shmem_##N##_atomic_set(w, (T)0, right);                                               \
        shmem_##N##_atomic_or(w, top, right);                                                 \
        EQ(T, shmem_##N##_atomic_fetch_xor(w, (T)~(T)0, right), top, "top bit");              \
        EQ(T, shmem_##N##_atomic_fetch(w, right), (T)~top, "all but the top bit");            \
        shmem_##N##_atomic_set(w, (T)0x55, right); /* what the owner checks */                \
    }
SHMPI_AMO_BIT_TYPES(TEST_BIT)

/* Deprecated names, and their generic names. */
#define TEST_DEPRECATED_EXT(N, T)                                                             \
    static void test_dep_ext_##N(T *w)                                                        \
    {                                                                                         \
        shmem_##N##_set(w, (T)3, right);                                                      \
        EQ(T, shmem_##N##_fetch(w, right), 3, "deprecated set/fetch");                        \
        EQ(T, shmem_##N##_swap(w, (T)6, right), 3, "deprecated swap");                        \
    }
SHMPI_AMO_DEPRECATED_EXT_TYPES(TEST_DEPRECATED_EXT)
#define TEST_DEPRECATED_STD(N, T)                                                             \
    static void test_dep_std_##N(T *w)                                                        \
    {                                                                                         \
        shmem_##N##_set(w, (T)3, right);                                                      \
        EQ(T, shmem_##N##_cswap(w, (T)3, (T)4, right), 3, "deprecated cswap");                \
        EQ(T, shmem_##N##_finc(w, right), 4, "deprecated finc");                              \
        shmem_##N##_inc(w, right);                                                            \
        EQ(T, shmem_##N##_fadd(w, (T)10, right), 6, "deprecated fadd");                       \
        shmem_##N##_add(w, (T)-1, right);                                                     \
        EQ(T, shmem_##N##_fetch(w, right), 15, "deprecated add");                             \
        shmem_##N##_add(w, (T)11, right);                                                     \
    }
SHMPI_AMO_DEPRECATED_STD_TYPES(TEST_DEPRECATED_STD)


/* ---- C11 generic names ----------------------------------------------------------------
 * A macro cannot expand inside its own expansion, so the generic names
 * (which expand the tables of shmpi_typetables.h) cannot be called from
 * code generated by those same tables: these copies of the tables generate
 * the generic tests, and the static assertions keep them equal. */
#define EXT_TYPES(X) X(float, float) X(double, double) STD_TYPES(X)
#define STD_TYPES(X)                                                                          \
    X(int, int) X(long, long) X(longlong, long long) X(uint, unsigned int)                    \
    X(ulong, unsigned long) X(ulonglong, unsigned long long) X(int32, int32_t)                \
    X(int64, int64_t) X(uint32, uint32_t) X(uint64, uint64_t) X(size, size_t)                 \
    X(ptrdiff, ptrdiff_t)
#define BIT_TYPES(X)                                                                          \
    X(uint, unsigned int) X(ulong, unsigned long) X(ulonglong, unsigned long long)            \
    X(int32, int32_t) X(int64, int64_t) X(uint32, uint32_t) X(uint64, uint64_t)
#define DEPRECATED_EXT_TYPES(X) X(float, float) X(double, double) DEPRECATED_STD_TYPES(X)
#define DEPRECATED_STD_TYPES(X) X(int, int) X(long, long) X(longlong, long long)
#define ROW_NAME(N, T) #N " "
#define SAME_ROWS(MINE, TABLE)                                                                \
    _Static_assert(sizeof(MINE(ROW_NAME)) == sizeof(TABLE(ROW_NAME)), #MINE " is not " #TABLE)
SAME_ROWS(EXT_TYPES, SHMPI_AMO_EXT_TYPES);
SAME_ROWS(STD_TYPES, SHMPI_AMO_STD_TYPES);
SAME_ROWS(BIT_TYPES, SHMPI_AMO_BIT_TYPES);
SAME_ROWS(DEPRECATED_EXT_TYPES, SHMPI_AMO_DEPRECATED_EXT_TYPES);
SAME_ROWS(DEPRECATED_STD_TYPES, SHMPI_AMO_DEPRECATED_STD_TYPES);

#define GEN_EXT(N, T)                                                                         \
    static void gen_ext_##N(T *w)                                                             \
    {                                                                                         \
        T f = 0;                                                                              \
        shmem_atomic_set(w, (T)30, right);                                                    \
        EQ(T, shmem_atomic_fetch(w, right), 30, "generic set/fetch");                         \
        EQ(T, shmem_atomic_swap(ctx, w, (T)31, right), 30, "generic ctx swap");               \
        EQ(T, shmem_atomic_swap(w, (T)32, right), 31, "generic swap");                        \
        shmem_atomic_swap_nbi(&f, w, (T)33, right);                                           \
        shmem_quiet();                                                                        \
        EQ(T, f, 32, "generic swap_nbi");                                                     \
        shmem_atomic_swap_nbi(ctx, &f, w, (T)34, right);                                      \
        shmem_ctx_quiet(ctx);                                                                 \
        EQ(T, f, 33, "generic ctx swap_nbi");                                                 \
        shmem_atomic_fetch_nbi(ctx, &f, w, right);                                            \
        shmem_ctx_quiet(ctx);                                                                 \
        EQ(T, f, 34, "generic ctx fetch_nbi");                                                \
        shmem_atomic_fetch_nbi(&f, w, right);                                                 \
        shmem_quiet();                                                                        \
        EQ(T, f, 34, "generic fetch_nbi");                                                    \
        shmem_atomic_set(ctx, w, (T)35, right);                                               \
        EQ(T, shmem_atomic_fetch(ctx, w, right), 35, "generic ctx set/fetch");                \
    }
EXT_TYPES(GEN_EXT)

#define GEN_STD(N, T)                                                                         \
    static void gen_std_##N(T *w)                                                             \
    {                                                                                         \
        T f = 0;                                                                              \
        /* Generic names. */                                                                  \
        shmem_atomic_set(w, (T)1, right);                                                     \
        EQ(T, shmem_atomic_compare_swap(w, (T)1, (T)2, right), 1, "generic cswap");           \
        EQ(T, shmem_atomic_compare_swap(ctx, w, (T)2, (T)3, right), 2, "generic ctx cswap");  \
        EQ(T, shmem_atomic_fetch_inc(w, right), 3, "generic fetch_inc");                      \
        EQ(T, shmem_atomic_fetch_inc(ctx, w, right), 4, "generic ctx fetch_inc");             \
        shmem_atomic_inc(w, right);                                                           \
        shmem_atomic_inc(ctx, w, right);                                                      \
        EQ(T, shmem_atomic_fetch_add(w, (T)4, right), 7, "generic fetch_add");                \
        EQ(T, shmem_atomic_fetch_add(ctx, w, (T)4, right), 11, "generic ctx fetch_add");      \
        shmem_atomic_add(w, (T)1, right);                                                     \
        shmem_atomic_add(ctx, w, (T)1, right);                                                \
        shmem_atomic_compare_swap_nbi(&f, w, (T)17, (T)18, right);                            \
        shmem_atomic_compare_swap_nbi(ctx, &f, w, (T)18, (T)19, right);                       \
        shmem_atomic_fetch_inc_nbi(&f, w, right);                                             \
        shmem_atomic_fetch_inc_nbi(ctx, &f, w, right);                                        \
        shmem_atomic_fetch_add_nbi(&f, w, (T)2, right);                                       \
        shmem_atomic_fetch_add_nbi(ctx, &f, w, (T)2, right);                                  \
        shmem_quiet();                                                                        \
        shmem_ctx_quiet(ctx);                                                                 \
        EQ(T, f, 23, "generic nbi chain");                                                    \
        shmem_atomic_set(w, (T)77, right); /* what the owner checks */                        \
    }
STD_TYPES(GEN_STD)

#define GEN_BIT(N, T)                                                                         \
    static void gen_bit_##N(T *w)                                                             \
    {                                                                                         \
        T f = 0;                                                                              \
        /* Generic names. */                                                                  \
        shmem_atomic_set(w, (T)0x6, right);                                                   \
        EQ(T, shmem_atomic_fetch_and(w, (T)0x3, right), 0x6, "generic fetch_and");            \
        EQ(T, shmem_atomic_fetch_or(ctx, w, (T)0x8, right), 0x2, "generic ctx fetch_or");     \
        EQ(T, shmem_atomic_fetch_xor(w, (T)0x1, right), 0xA, "generic fetch_xor");            \
        shmem_atomic_and(w, (T)0xF, right);                                                   \
        shmem_atomic_or(ctx, w, (T)0x10, right);                                              \
        shmem_atomic_xor(w, (T)0x2, right);                                                   \
        shmem_atomic_and(ctx, w, (T)0xFF, right);                                             \
        shmem_atomic_or(w, (T)0x20, right);                                                   \
        shmem_atomic_xor(ctx, w, (T)0x1, right);                                              \
        shmem_atomic_fetch_and_nbi(&f, w, (T)0xFF, right);                                    \
        shmem_atomic_fetch_or_nbi(ctx, &f, w, (T)0x0, right);                                 \
        shmem_atomic_fetch_xor_nbi(&f, w, (T)0x0, right);                                     \
        shmem_quiet();                                                                        \
        shmem_ctx_quiet(ctx);                                                                 \
        EQ(T, f, 0x38, "generic bitwise chain");                                              \
        shmem_atomic_set(w, (T)0x55, right); /* what the owner checks */                      \
    }
BIT_TYPES(GEN_BIT)

#define GEN_DEPRECATED_EXT(N, T)                                                              \
    static void gen_dep_ext_##N(T *w)                                                         \
    {                                                                                         \
        shmem_set(w, (T)5, right);                                                            \
        EQ(T, shmem_fetch(w, right), 5, "deprecated generic set/fetch");                      \
        EQ(T, shmem_swap(w, (T)6, right), 5, "deprecated generic swap");                      \
    }
DEPRECATED_EXT_TYPES(GEN_DEPRECATED_EXT)
#define GEN_DEPRECATED_STD(N, T)                                                              \
    static void gen_dep_std_##N(T *w)                                                         \
    {                                                                                         \
        shmem_set(w, (T)15, right);                                                           \
        EQ(T, shmem_cswap(w, (T)15, (T)20, right), 15, "deprecated generic cswap");           \
        EQ(T, shmem_finc(w, right), 20, "deprecated generic finc");                           \
        shmem_inc(w, right);                                                                  \
        EQ(T, shmem_fadd(w, (T)2, right), 22, "deprecated generic fadd");                     \
        shmem_add(w, (T)2, right);                                                            \
        EQ(T, shmem_fetch(w, right), 26, "deprecated generic add");                           \
    }
DEPRECATED_STD_TYPES(GEN_DEPRECATED_STD)

/* The word of type N in place k: .bss, .data or the heap. */
#define DECLARE_HEAP_WORD(N, T) static T *heap_##N;
SHMPI_AMO_EXT_TYPES(DECLARE_HEAP_WORD)
#define WORD(N, k) ((k) == 0 ? &bss_##N : (k) == 1 ? &data_##N : heap_##N)
static const char *const place[3] = {".bss", ".data", "heap"};

int main(int argc, char **argv)
{
    test_thread_arg(argc, argv);
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    ctx = SHMEM_CTX_DEFAULT;
    int have_ctx = shmem_ctx_create(0, &ctx) == 0;
#define ALLOC_HEAP_WORD(N, T)                                                                 \
    heap_##N = shmem_malloc(sizeof(T));                                                       \
    CHECK(heap_##N != NULL, "malloc");
    SHMPI_AMO_EXT_TYPES(ALLOC_HEAP_WORD)

    /* Each PE runs every test on its right neighbour's words of one place,
     * leaves a mark in each, and the owner checks the marks arrived. */
#define RUN_EXT(N, T) test_ext_##N(WORD(N, k)); gen_ext_##N(WORD(N, k));
#define RUN_STD(N, T) test_std_##N(WORD(N, k)); gen_std_##N(WORD(N, k));
#define RUN_BIT(N, T) test_bit_##N(WORD(N, k)); gen_bit_##N(WORD(N, k));
#define RUN_DEP_EXT(N, T) test_dep_ext_##N(WORD(N, k)); gen_dep_ext_##N(WORD(N, k));
#define RUN_DEP_STD(N, T) test_dep_std_##N(WORD(N, k)); gen_dep_std_##N(WORD(N, k));
#define MARK(N, T) shmem_##N##_atomic_set(WORD(N, k), (T)(40 + k), right);
#define CHECK_MARK(N, T)                                                                      \
    CHECK(*WORD(N, k) == (T)(40 + k), "%s word %s holds %.17g after PE %d's AMOs", #T,        \
          place[k], (double)*WORD(N, k), left);
    for (int k = 0; k < 3; k++) {
        shmem_barrier_all();
        SHMPI_AMO_EXT_TYPES(RUN_EXT)
        SHMPI_AMO_STD_TYPES(RUN_STD)
        SHMPI_AMO_BIT_TYPES(RUN_BIT)
        SHMPI_AMO_DEPRECATED_EXT_TYPES(RUN_DEP_EXT)
        SHMPI_AMO_DEPRECATED_STD_TYPES(RUN_DEP_STD)
        SHMPI_AMO_EXT_TYPES(MARK)
        /* Wait for the left neighbour's AMOs here, where waiting serves
         * them quickly, before the barrier. */
        shmem_long_atomic_set(&done, k + 1, right);
        shmem_long_wait_until(&done, SHMEM_CMP_EQ, k + 1);
        shmem_barrier_all();
        SHMPI_AMO_EXT_TYPES(CHECK_MARK)
    }

    /* Non-integral float values keep every bit. */
    float *fw = shmem_malloc(sizeof(float));
    double *dw = shmem_malloc(sizeof(double));
    shmem_barrier_all();
    shmem_float_atomic_set(fw, 0.1f, right);
    shmem_double_atomic_set(dw, -DBL_MAX, right);
    CHECK(shmem_float_atomic_swap(fw, FLT_MIN, right) == 0.1f, "float bits");
    CHECK(shmem_double_atomic_fetch(dw, right) == -DBL_MAX, "double bits");
    shmem_barrier_all();
    CHECK(*fw == FLT_MIN, "float arrived: %g", (double)*fw);
    shmem_free(fw);
    shmem_free(dw);
#define FREE_HEAP_WORD(N, T) shmem_free(heap_##N);
    SHMPI_AMO_EXT_TYPES(FREE_HEAP_WORD)

    if (have_ctx)
        shmem_ctx_destroy(ctx);
    test_passed("amo_types");
    shmem_finalize();
    return 0;
}
