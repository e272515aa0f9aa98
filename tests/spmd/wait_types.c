/*
 * wait_until and test for every point-to-point type and every comparison,
 * with the value set by another PE (deprecated short/ushort forms and
 * shmem_wait too).
 */
#include "testlib.h"

static int me, n;

#define TEST_WAIT(NAME, T)                                                                    \
    static void test_##NAME(void)                                                             \
    {                                                                                         \
        static T var;                                                                         \
        static const int cmps[] = {SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT,                  \
                                   SHMEM_CMP_GE, SHMEM_CMP_LT, SHMEM_CMP_LE};                 \
        /* value written, value compared against: the pair satisfies cmp, the\
         * initial 5 does not */                   \
        static const int written[] = {7, 9, 9, 7, 3, 4};                                      \
        static const int against[] = {7, 5, 7, 7, 5, 4};                                      \
        int writer = (me + n - 1) % n;                                                        \
        for (int c = 0; c < 6; c++) {                                                         \
            var = (T)5; /* no PE writes it before the barrier */                              \
            CHECK(!shmem_##NAME##_test(&var, cmps[c], (T)against[c]), #NAME " test %d", c);   \
            shmem_barrier_all();                                                              \
            shmem_##NAME##_p(&var, (T)written[c], (me + 1) % n);                              \
            shmem_##NAME##_wait_until(&var, cmps[c], (T)against[c]);                          \
            CHECK(var == (T)written[c], #NAME " cmp %d value", c);                            \
            CHECK(shmem_##NAME##_test(&var, cmps[c], (T)against[c]), #NAME " test %d", c);    \
            (void)writer;                                                                     \
            shmem_barrier_all();                                                              \
        }                                                                                     \
    }
SHMPI_P2P_TYPES(TEST_WAIT)
SHMPI_P2P_DEPRECATED_TYPES(TEST_WAIT)

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
#define RUN(NAME, T) test_##NAME();
    SHMPI_P2P_TYPES(RUN)
    SHMPI_P2P_DEPRECATED_TYPES(RUN)
    /* deprecated untyped forms: wait until the value differs */
    static long word;
    word = 0;
    shmem_barrier_all();
    shmem_long_p(&word, 42, (me + 1) % n);
    shmem_wait(&word, 0);
    CHECK(word == 42, "shmem_wait");
    shmem_barrier_all();
    shmem_long_p(&word, 43, (me + 1) % n);
    (shmem_wait_until)(&word, SHMEM_CMP_EQ, 43);
    static int iword;
    shmem_int_p(&iword, 5, (me + 1) % n);
    shmem_int_wait(&iword, 0);
    CHECK(iword == 5, "shmem_int_wait");
    shmem_barrier_all();
    test_passed("wait_types");
    shmem_finalize();
    return 0;
}
