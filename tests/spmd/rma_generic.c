/*
 * The C11 type-generic RMA names pick the routine of the argument's type,
 * with and without a context, for every type of the RMA table.
 */
#include <string.h>

#include "testlib.h"

#define N 8

#define TEST_GENERIC(NAME, T)                                                                 \
    static void test_##NAME(void *heap_dst, void *heap_src, int right, int left)              \
    {                                                                                         \
        T *dst = heap_dst, *src = heap_src, local[N];                                         \
        for (int i = 0; i < N; i++)                                                           \
            src[i] = (T)(shmem_my_pe() + i + 1);                                              \
        shmem_barrier_all();                                                                  \
        shmem_put(dst, src, N, right);                                                        \
        shmem_barrier_all();                                                                  \
        CHECK(dst[N - 1] == (T)(left + N), #NAME " shmem_put");                               \
        shmem_p(dst, (T)42, right);                                                           \
        shmem_barrier_all();                                                                  \
        CHECK(dst[0] == (T)42 && shmem_g(dst + 1, right) == (T)(shmem_my_pe() + 2),           \
              #NAME " shmem_p/shmem_g");                                                      \
        shmem_get(local, dst, N, right);                                                      \
        CHECK(local[2] == (T)(shmem_my_pe() + 3), #NAME " shmem_get");                        \
        shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;                                                  \
        shmem_barrier_all();                                                                  \
        shmem_put(ctx, dst, src, 2, right);                                                   \
        shmem_p(ctx, dst + 2, (T)7, right);                                                   \
        shmem_put_nbi(dst + 3, src + 3, 1, right);                                            \
        shmem_put_nbi(ctx, dst + 4, src + 4, 1, right);                                       \
        shmem_iput(dst + 5, src, 1, 1, 1, right);                                             \
        shmem_iput(ctx, dst + 6, src, 1, 1, 1, right);                                        \
        shmem_quiet();                                                                        \
        shmem_barrier_all();                                                                  \
        CHECK(dst[0] == (T)(left + 1) && dst[2] == (T)7 && dst[3] == (T)(left + 4) &&         \
                  dst[4] == (T)(left + 5) && dst[5] == (T)(left + 1) &&                       \
                  dst[6] == (T)(left + 1),                                                    \
              #NAME " ctx and nbi forms");                                                    \
        memset(local, 0, sizeof local);                                                       \
        shmem_get(ctx, local, dst, 1, right);                                                 \
        shmem_get_nbi(local + 1, dst + 1, 1, right);                                          \
        shmem_get_nbi(ctx, local + 2, dst + 2, 1, right);                                     \
        shmem_iget(local + 3, dst + 3, 1, 1, 1, right);                                       \
        shmem_iget(ctx, local + 4, dst + 4, 1, 1, 1, right);                                  \
        shmem_quiet();                                                                        \
        CHECK(local[0] == (T)(shmem_my_pe() + 1) && local[2] == (T)7 &&                       \
                  local[3] == (T)(shmem_my_pe() + 4) && local[4] == (T)(shmem_my_pe() + 5) && \
                  shmem_g(ctx, dst + 2, right) == (T)7,                                       \
              #NAME " ctx get forms");                                                        \
        shmem_barrier_all();                                                                  \
    }
/* The rows are written out here, not expanded from SHMPI_RMA_TYPES: the
 * generic names expand that table themselves, and a macro cannot expand
 * inside its own expansion.  Listing the spec's 24 types independently
 * also checks the table. */
TEST_GENERIC(float, float)
TEST_GENERIC(double, double)
TEST_GENERIC(longdouble, long double)
TEST_GENERIC(char, char)
TEST_GENERIC(schar, signed char)
TEST_GENERIC(short, short)
TEST_GENERIC(int, int)
TEST_GENERIC(long, long)
TEST_GENERIC(longlong, long long)
TEST_GENERIC(uchar, unsigned char)
TEST_GENERIC(ushort, unsigned short)
TEST_GENERIC(uint, unsigned int)
TEST_GENERIC(ulong, unsigned long)
TEST_GENERIC(ulonglong, unsigned long long)
TEST_GENERIC(int8, int8_t)
TEST_GENERIC(int16, int16_t)
TEST_GENERIC(int32, int32_t)
TEST_GENERIC(int64, int64_t)
TEST_GENERIC(uint8, uint8_t)
TEST_GENERIC(uint16, uint16_t)
TEST_GENERIC(uint32, uint32_t)
TEST_GENERIC(uint64, uint64_t)
TEST_GENERIC(size, size_t)
TEST_GENERIC(ptrdiff, ptrdiff_t)

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    void *dst = shmem_malloc(N * 16), *src = shmem_malloc(N * 16);
#define RUN(NAME, T) test_##NAME(dst, src, (me + 1) % n, (me + n - 1) % n);
    SHMPI_RMA_TYPES(RUN)
    /* 1.6 blocked forms: 2 blocks of 2 longs, target blocks 3 apart */
    long *ldst = dst, *lsrc = src, back[4] = {0, 0, 0, 0};
    for (int i = 0; i < 8; i++) {
        lsrc[i] = me * 10 + i;
        ldst[i] = -1;
    }
    shmem_barrier_all();
    shmem_ibput(ldst, lsrc, 3, 2, 2, 2, (me + 1) % n);
    shmem_ibput(SHMEM_CTX_DEFAULT, ldst + 6, lsrc, 1, 1, 1, 1, (me + 1) % n);
    shmem_barrier_all();
    int left = (me + n - 1) % n;
    CHECK(ldst[0] == left * 10 && ldst[1] == left * 10 + 1 && ldst[2] == -1 &&
              ldst[3] == left * 10 + 2 && ldst[4] == left * 10 + 3 && ldst[6] == left * 10,
          "generic shmem_ibput");
    shmem_ibget(back, ldst, 2, 3, 2, 2, (me + 1) % n);
    shmem_ibget(SHMEM_CTX_DEFAULT, back + 3, ldst + 6, 1, 1, 1, 1, (me + 1) % n);
    CHECK(back[0] == me * 10 && back[1] == me * 10 + 1 && back[2] == me * 10 + 2 &&
              back[3] == me * 10,
          "generic shmem_ibget");
    shmem_barrier_all();
    shmem_free(dst);
    shmem_free(src);
    test_passed("rma_generic");
    shmem_finalize();
    return 0;
}
