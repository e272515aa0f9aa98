/*
 * OpenSHMEM 1.6 blocked strided transfers: ibput/ibget for every RMA type,
 * the sized forms and ctx forms; heap and static targets.
 */
#include <string.h>

#include "testlib.h"

#define SLOTS 40
static int me, n, right, left;

#define TEST_BLOCKED(NAME, T)                                                                 \
    static T static_##NAME[SLOTS];                                                            \
    static void test_##NAME(T *heap)                                                          \
    {                                                                                         \
        T *targets[2] = {heap, static_##NAME};                                                \
        T src[SLOTS], got[SLOTS];                                                             \
        for (int k = 0; k < 2; k++) {                                                         \
            T *dst = targets[k];                                                              \
            for (int i = 0; i < SLOTS; i++) {                                                 \
                src[i] = (T)(me * 50 + i + 1);                                                \
                dst[i] = (T)0;                                                                \
            }                                                                                 \
            shmem_barrier_all();                                                              \
            /* 4 blocks of 3: source blocks every 4 elements, target every 7 */               \
            if (k == 0)                                                                       \
                shmem_##NAME##_ibput(dst, src, 7, 4, 3, 4, right);                            \
            else                                                                              \
                shmem_ctx_##NAME##_ibput(SHMEM_CTX_DEFAULT, dst, src, 7, 4, 3, 4, right);     \
            shmem_barrier_all();                                                              \
            for (int i = 0; i < SLOTS; i++) {                                                 \
                int blk = i / 7, off = i % 7;                                                 \
                T want = (blk < 4 && off < 3) ? (T)(left * 50 + blk * 4 + off + 1) : (T)0;    \
                CHECK(dst[i] == want, #NAME " ibput target %d slot %d", k, i);                \
            }                                                                                 \
            memset(got, 0, sizeof got);                                                       \
            /* back: target blocks every 7 into local blocks every 3 (packed) */              \
            if (k == 0)                                                                       \
                shmem_##NAME##_ibget(got, dst, 3, 7, 3, 4, right);                            \
            else                                                                              \
                shmem_ctx_##NAME##_ibget(SHMEM_CTX_DEFAULT, got, dst, 3, 7, 3, 4, right);     \
            for (int i = 0; i < 12; i++)                                                      \
                CHECK(got[i] == (T)(me * 50 + (i / 3) * 4 + i % 3 + 1),                       \
                      #NAME " ibget target %d slot %d", k, i);                                \
            shmem_barrier_all();                                                              \
        }                                                                                     \
    }
SHMPI_RMA_TYPES(TEST_BLOCKED)

#define TEST_BLOCKED_SIZED(BITS)                                                              \
    static void test_sized_##BITS(unsigned char *dst)                                         \
    {                                                                                         \
        const size_t e = BITS / 8;                                                            \
        unsigned char src[16 * 20], got[16 * 20];                                             \
        for (size_t i = 0; i < sizeof src; i++)                                               \
            src[i] = (unsigned char)(me + i);                                                 \
        memset(dst, 0, sizeof src);                                                           \
        shmem_barrier_all();                                                                  \
        shmem_ibput##BITS(dst, src, 5, 2, 2, 3, right); /* 3 blocks of 2 elements */          \
        shmem_barrier_all();                                                                  \
        for (size_t blk = 0; blk < 3; blk++)                                                  \
            for (size_t b = 0; b < 2 * e; b++)                                                \
                CHECK(dst[blk * 5 * e + b] == (unsigned char)(left + blk * 2 * e + b),        \
                      "ibput%d block %zu byte %zu", BITS, blk, b);                            \
        memset(got, 0, sizeof got);                                                           \
        shmem_ctx_ibget##BITS(SHMEM_CTX_DEFAULT, got, dst, 2, 5, 2, 3, right);                \
        for (size_t i = 0; i < 6 * e; i++)                                                    \
            CHECK(got[i] == (unsigned char)(me + i), "ibget%d byte %zu", BITS, i);            \
        shmem_ctx_ibput##BITS(SHMEM_CTX_DEFAULT, dst, src, 1, 1, 1, 1, right);                \
        shmem_ibget##BITS(got, dst, 1, 1, 1, 1, right);                                       \
        CHECK(got[0] == (unsigned char)me, "ctx ibput%d", BITS);                              \
        shmem_barrier_all();                                                                  \
    }
SHMPI_RMA_SIZES(TEST_BLOCKED_SIZED)

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    right = (me + 1) % n;
    left = (me + n - 1) % n;
    void *heap = shmem_malloc(SLOTS * 16);
#define RUN(NAME, T) test_##NAME(heap);
    SHMPI_RMA_TYPES(RUN)
#define RUN_SIZED(BITS) test_sized_##BITS(heap);
    SHMPI_RMA_SIZES(RUN_SIZED)
    /* zero blocks, or zero-length blocks, do nothing */
    shmem_long_ibput(NULL, NULL, 1, 1, 0, 5, right);
    shmem_long_ibput(NULL, NULL, 1, 1, 5, 0, right);
    shmem_free(heap);
    test_passed("blocked");
    shmem_finalize();
    return 0;
}
