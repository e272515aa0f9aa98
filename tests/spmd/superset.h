/*
 * superset.h - the calls of the superset test (superset_c11.c, superset_cxx.cc):
 * forms that Sandia OpenSHMEM's test suite uses beyond the OpenSHMEM 1.6
 * tables.  Written once, compiled as C11 (generic selections) and as C++11
 * (overloads).  The type lists are the test's own copies (a generic name
 * cannot be used inside an expansion of the table macro it selects over).
 */
#include "testlib.h"
#include <stddef.h>
#include <stdint.h>

static int me, npes, right;

#define EQV(got, want, what)                                                                  \
    CHECK((got) == (want), "%s: got %lld, want %lld", what, (long long)(got), (long long)(want))

/* Every standard AMO type: the deprecated generic names and typed names. */
#define SUP_STD_TYPES(X)                                                                      \
    X(int, int) X(long, long) X(longlong, long long) X(uint, unsigned int)                    \
    X(ulong, unsigned long) X(ulonglong, unsigned long long) X(int32, int32_t)                \
    X(int64, int64_t) X(uint32, uint32_t) X(uint64, uint64_t) X(size, size_t)                 \
    X(ptrdiff, ptrdiff_t)

#define SUP_STD(N, T)                                                                         \
    static void std_##N(void)                                                                 \
    {                                                                                         \
        static T w;                                                                           \
        shmem_barrier_all();                                                                  \
        /* generic deprecated names, on the right neighbour (only the left one writes       \
         * here) */                                                                           \
        shmem_set(&w, (T)5, right);                                                           \
        EQV(shmem_fetch(&w, right), 5, #N " generic set/fetch");                             \
        shmem_add(&w, (T)2, right);                                                           \
        EQV(shmem_fadd(&w, (T)3, right), 7, #N " generic add/fadd");                         \
        shmem_inc(&w, right);                                                                 \
        EQV(shmem_finc(&w, right), 11, #N " generic inc/finc");                              \
        EQV(shmem_cswap(&w, (T)12, (T)20, right), 12, #N " generic cswap");                  \
        EQV(shmem_swap(&w, (T)30, right), 20, #N " generic swap");                           \
        /* typed deprecated names */                                                          \
        shmem_##N##_set(&w, (T)40, right);                                                    \
        EQV(shmem_##N##_fetch(&w, right), 40, #N " set/fetch");                              \
        shmem_##N##_add(&w, (T)2, right);                                                     \
        EQV(shmem_##N##_fadd(&w, (T)3, right), 42, #N " add/fadd");                          \
        shmem_##N##_inc(&w, right);                                                           \
        EQV(shmem_##N##_finc(&w, right), 46, #N " inc/finc");                                \
        EQV(shmem_##N##_cswap(&w, (T)0, (T)1, right), 47, #N " failed cswap");               \
        EQV(shmem_##N##_cswap(&w, (T)47, (T)50, right), 47, #N " cswap");                    \
        EQV(shmem_##N##_swap(&w, (T)60, right), 50, #N " swap");                             \
        shmem_barrier_all();                                                                  \
        EQV(w, 60, #N " final value");                                                        \
    }
SUP_STD_TYPES(SUP_STD)

/* float and double: the deprecated fetch, set, swap. */
#define SUP_EXT_ONLY_TYPES(X) X(float, float) X(double, double)
#define SUP_EXT(N, T)                                                                         \
    static void ext_##N(void)                                                                 \
    {                                                                                         \
        static T w;                                                                           \
        shmem_barrier_all();                                                                  \
        shmem_set(&w, (T)1.5, right);                                                         \
        CHECK(shmem_fetch(&w, right) == (T)1.5, #N " generic set/fetch");                     \
        CHECK(shmem_swap(&w, (T)2.5, right) == (T)1.5, #N " generic swap");                   \
        shmem_##N##_set(&w, (T)3.5, right);                                                   \
        CHECK(shmem_##N##_swap(&w, (T)4.5, right) == (T)3.5, #N " swap");                     \
        CHECK(shmem_##N##_fetch(&w, right) == (T)4.5, #N " fetch");                           \
        shmem_barrier_all();                                                                  \
        CHECK(w == (T)4.5, #N " final value");                                                \
    }
SUP_EXT_ONLY_TYPES(SUP_EXT)

/* short and unsigned short: every point-to-point form, generic and typed;
 * element 2 is set by the left neighbour. */
#define SUP_P2P_TYPES(X) X(short, short) X(ushort, unsigned short)
#define SUP_P2P(N, T)                                                                         \
    static void p2p_##N(void)                                                                 \
    {                                                                                         \
        static T v[4];                                                                        \
        T want[4] = {1, 1, 7, 1};                                                             \
        int status[4] = {0, 1, 0, 1};                                                         \
        size_t idx[4];                                                                        \
        for (int i = 0; i < 4; i++)                                                           \
            v[i] = 1;                                                                         \
        shmem_barrier_all();                                                                  \
        CHECK(shmem_test_any(v, 4, NULL, SHMEM_CMP_EQ, (T)7) == SIZE_MAX, #N " test_any");    \
        shmem_barrier_all();                                                                  \
        shmem_##N##_p(&v[2], (T)7, right);                                                    \
        EQV(shmem_wait_until_any(v, 4, NULL, SHMEM_CMP_EQ, (T)7), 2, #N " wait_until_any");  \
        shmem_wait_until(&v[2], SHMEM_CMP_EQ, (T)7);                                          \
        CHECK(shmem_test(&v[2], SHMEM_CMP_EQ, (T)7), #N " test");                             \
        shmem_wait_until_all(v, 4, NULL, SHMEM_CMP_GE, (T)1);                                 \
        EQV(shmem_wait_until_some(v, 4, idx, NULL, SHMEM_CMP_GT, (T)1), 1, #N " wus");        \
        EQV(idx[0], 2, #N " wait_until_some index");                                          \
        shmem_wait_until_all_vector(v, 4, NULL, SHMEM_CMP_EQ, want);                          \
        EQV(shmem_wait_until_any_vector(v, 4, status, SHMEM_CMP_EQ, want) % 2, 0, #N " wuav"); \
        EQV(shmem_wait_until_some_vector(v, 4, idx, status, SHMEM_CMP_EQ, want), 2, #N " wusv"); \
        EQV(shmem_test_all(v, 4, status, SHMEM_CMP_GE, (T)1), 1, #N " test_all");            \
        EQV(shmem_test_any(v, 4, status, SHMEM_CMP_GT, (T)1), 2, #N " test_any");            \
        EQV(shmem_test_some(v, 4, idx, NULL, SHMEM_CMP_EQ, (T)1), 3, #N " test_some");       \
        EQV(shmem_test_all_vector(v, 4, NULL, SHMEM_CMP_EQ, want), 1, #N " tav");             \
        EQV(shmem_test_any_vector(v, 4, status, SHMEM_CMP_NE, want), SIZE_MAX, #N " tanyv");  \
        EQV(shmem_test_some_vector(v, 4, idx, NULL, SHMEM_CMP_LE, want), 4, #N " tsv");       \
        /* the typed names */                                                                 \
        shmem_##N##_wait_until_all(v, 4, status, SHMEM_CMP_NE, (T)0);                         \
        EQV(shmem_##N##_test_any(v, 4, NULL, SHMEM_CMP_EQ, (T)7), 2, #N " typed test_any");  \
        EQV(shmem_##N##_test_some_vector(v, 4, idx, NULL, SHMEM_CMP_EQ, want), 4, #N " tsv");  \
        shmem_barrier_all();                                                                  \
    }
SUP_P2P_TYPES(SUP_P2P)

static void superset_run(void)
{
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
#define SUP_CALL(N, T) std_##N();
    SUP_STD_TYPES(SUP_CALL)
#undef SUP_CALL
#define SUP_CALL(N, T) ext_##N();
    SUP_EXT_ONLY_TYPES(SUP_CALL)
#undef SUP_CALL
#define SUP_CALL(N, T) p2p_##N();
    SUP_P2P_TYPES(SUP_CALL)
#undef SUP_CALL
}
