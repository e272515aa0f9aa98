/*
 * Every RMA routine for every type of the standard RMA table: put, get, p,
 * g, iput, iget, put_nbi, get_nbi, their ctx forms, the sized and mem
 * forms; targets on the heap and in static data (.data and .bss, including
 * function-local statics).
 */
#include <string.h>

#include "testlib.h"

#define N 64 /* elements per array */

static int me, npes, right, left;

/* A value every PE can predict: which PE wrote element i. */
#define VALUE(T, pe, i) ((T)((pe) * 3 + (i) % 29 + 1))

/* Static targets: one .data and one .bss array per type. */
#define STATIC_ARRAYS(NAME, T)                                                                \
    static T data_##NAME[N] = {(T)1};                                                         \
    static T bss_##NAME[N];
SHMPI_RMA_TYPES(STATIC_ARRAYS)

#define TEST_TYPE(NAME, T)                                                                    \
    static void test_##NAME(T *heap_dst, T *heap_src)                                         \
    {                                                                                         \
        T *targets[3] = {heap_dst, data_##NAME, bss_##NAME};                                  \
        T local[N];                                                                           \
        for (int k = 0; k < 3; k++) {                                                         \
            T *dst = targets[k];                                                              \
            for (int i = 0; i < N; i++) {                                                     \
                heap_src[i] = VALUE(T, me, i);                                                \
                dst[i] = (T)0;                                                                \
            }                                                                                 \
            shmem_barrier_all();                                                              \
            /* blocking put of the whole array, then p of the last element */                 \
            shmem_##NAME##_put(dst, heap_src, N - 1, right);                                  \
            shmem_##NAME##_p(dst + N - 1, VALUE(T, me, N - 1), right);                        \
            shmem_barrier_all();                                                              \
            for (int i = 0; i < N; i++)                                                       \
                CHECK(dst[i] == VALUE(T, left, i), #NAME " put target %d elem %d", k, i);     \
            /* get and g back from the right neighbour */                                     \
            memset(local, 0, sizeof local);                                                   \
            shmem_##NAME##_get(local, dst, N, right);                                         \
            for (int i = 0; i < N; i++)                                                       \
                CHECK(local[i] == VALUE(T, me, i), #NAME " get target %d elem %d", k, i);     \
            CHECK(shmem_##NAME##_g(dst + 5, right) == VALUE(T, me, 5), #NAME " g");           \
            shmem_barrier_all();                                                              \
            /* ctx forms and nbi: zero, then put_nbi + quiet */                               \
            for (int i = 0; i < N; i++)                                                       \
                local[i] = (T)0;                                                              \
            shmem_ctx_##NAME##_put(SHMEM_CTX_DEFAULT, dst, local, N, right);                  \
            shmem_barrier_all();                                                              \
            for (int i = 0; i < N; i++)                                                       \
                CHECK(dst[i] == (T)0, #NAME " ctx put zero");                                 \
            shmem_barrier_all();                                                              \
            shmem_##NAME##_put_nbi(dst, heap_src, N / 2, right);                              \
            shmem_ctx_##NAME##_put_nbi(SHMEM_CTX_DEFAULT, dst + N / 2, heap_src + N / 2,      \
                                       N / 2, right);                                         \
            shmem_quiet();                                                                    \
            shmem_barrier_all();                                                              \
            for (int i = 0; i < N; i++)                                                       \
                CHECK(dst[i] == VALUE(T, left, i), #NAME " put_nbi elem %d", i);              \
            memset(local, 0, sizeof local);                                                   \
            shmem_##NAME##_get_nbi(local, dst, N / 2, left);                                  \
            shmem_ctx_##NAME##_get_nbi(SHMEM_CTX_DEFAULT, local + N / 2, dst + N / 2, N / 2,  \
                                       left);                                                 \
            shmem_ctx_quiet(SHMEM_CTX_DEFAULT);                                               \
            for (int i = 0; i < N; i++)                                                       \
                CHECK(local[i] == VALUE(T, (left + npes - 1) % npes, i),                      \
                      #NAME " get_nbi elem %d", i);                                           \
            CHECK(shmem_ctx_##NAME##_g(SHMEM_CTX_DEFAULT, dst, left) ==                       \
                      VALUE(T, (left + npes - 1) % npes, 0),                                  \
                  #NAME " ctx g");                                                            \
            shmem_barrier_all();                                                              \
            shmem_ctx_##NAME##_p(SHMEM_CTX_DEFAULT, dst, VALUE(T, me, 7), right);             \
            shmem_barrier_all();                                                              \
            CHECK(dst[0] == VALUE(T, left, 7), #NAME " ctx p");                               \
            /* strided: every 2nd source element to every 3rd target slot */                  \
            for (int i = 0; i < N; i++)                                                       \
                dst[i] = (T)0;                                                                \
            shmem_barrier_all();                                                              \
            shmem_##NAME##_iput(dst, heap_src, 3, 2, N / 3, right);                           \
            shmem_barrier_all();                                                              \
            for (int i = 0; i < N; i++) {                                                     \
                T want = (i % 3 == 0 && i / 3 < N / 3) ? VALUE(T, left, (i / 3) * 2) : (T)0;  \
                CHECK(dst[i] == want, #NAME " iput elem %d", i);                              \
            }                                                                                 \
            memset(local, 0, sizeof local);                                                   \
            shmem_##NAME##_iget(local, dst, 2, 3, N / 3, right);                              \
            for (int i = 0; i < N / 3; i++)                                                   \
                CHECK(local[2 * i] == VALUE(T, me, 2 * i), #NAME " iget elem %d", i);         \
            shmem_barrier_all();                                                              \
            shmem_ctx_##NAME##_iput(SHMEM_CTX_DEFAULT, dst + 1, heap_src, 3, 1, N / 3, right); \
            shmem_barrier_all();                                                              \
            for (int i = 0; i < N / 3; i++)                                                   \
                CHECK(dst[3 * i + 1] == VALUE(T, left, i), #NAME " ctx iput elem %d", i);     \
            memset(local, 0, sizeof local);                                                   \
            shmem_ctx_##NAME##_iget(SHMEM_CTX_DEFAULT, local, dst + 1, 1, 3, N / 3, right);   \
            for (int i = 0; i < N / 3; i++)                                                   \
                CHECK(local[i] == VALUE(T, me, i), #NAME " ctx iget elem %d", i);             \
            shmem_barrier_all();                                                              \
        }                                                                                     \
    }
SHMPI_RMA_TYPES(TEST_TYPE)

/* Sized forms move elements of BITS/8 bytes regardless of type. */
#define TEST_SIZED(BITS)                                                                      \
    static void test_sized_##BITS(unsigned char *dst, unsigned char *src)                     \
    {                                                                                         \
        const size_t elem = BITS / 8, count = 10;                                             \
        for (size_t i = 0; i < elem * count * 3; i++) {                                       \
            src[i] = (unsigned char)(me + i);                                                 \
            dst[i] = 0;                                                                       \
        }                                                                                     \
        shmem_barrier_all();                                                                  \
        shmem_put##BITS(dst, src, count, right);                                              \
        shmem_barrier_all();                                                                  \
        for (size_t i = 0; i < elem * count * 3; i++)                                         \
            CHECK(dst[i] == (i < elem * count ? (unsigned char)(left + i) : 0),               \
                  "put%d byte %zu is %d", BITS, i, dst[i]);                               \
        shmem_barrier_all(); /* all checked before the next puts land */                 \
        unsigned char got[128 / 8 * 30];                                                      \
        memset(got, 0, sizeof got);                                                           \
        shmem_get##BITS(got, dst, count, right);                                              \
        for (size_t i = 0; i < elem * count; i++)                                             \
            CHECK(got[i] == (unsigned char)(me + i), "get%d byte %zu", BITS, i);              \
        shmem_ctx_put##BITS##_nbi(SHMEM_CTX_DEFAULT, dst + elem * count, src, count, right);  \
        shmem_put##BITS##_nbi(dst + 2 * elem * count, src, count, right);                     \
        shmem_quiet();                                                                        \
        shmem_barrier_all();                                                                  \
        for (size_t i = 0; i < elem * count; i++)                                             \
            CHECK(dst[elem * count + i] == (unsigned char)(left + i) &&                       \
                      dst[2 * elem * count + i] == (unsigned char)(left + i),                 \
                  "put%d_nbi byte %zu", BITS, i);                                             \
        memset(got, 0, sizeof got);                                                           \
        shmem_get##BITS##_nbi(got, dst, count, right);                                        \
        shmem_ctx_get##BITS##_nbi(SHMEM_CTX_DEFAULT, got + elem * count, dst, count, right);  \
        shmem_quiet();                                                                        \
        for (size_t i = 0; i < elem * count; i++)                                             \
            CHECK(got[i] == (unsigned char)(me + i) && got[elem * count + i] == got[i],       \
                  "get%d_nbi byte %zu", BITS, i);                                             \
        shmem_ctx_get##BITS(SHMEM_CTX_DEFAULT, got, dst, 1, right);                           \
        CHECK(got[0] == (unsigned char)me, "ctx get%d", BITS);                                \
        shmem_barrier_all();                                                                  \
        /* strided: element k of src to slot 2k of dst */                                     \
        memset(dst, 0, elem * count * 3);                                                     \
        shmem_barrier_all();                                                                  \
        shmem_iput##BITS(dst, src, 2, 1, count, right);                                       \
        shmem_barrier_all();                                                                  \
        for (size_t k = 0; k < count; k++)                                                    \
            for (size_t b = 0; b < elem; b++)                                                 \
                CHECK(dst[2 * k * elem + b] == (unsigned char)(left + k * elem + b) &&        \
                          dst[(2 * k + 1) * elem + b] == 0,                                   \
                      "iput%d elem %zu", BITS, k);                                            \
        memset(got, 0, sizeof got);                                                           \
        shmem_iget##BITS(got, dst, 1, 2, count, right);                                       \
        for (size_t i = 0; i < elem * count; i++)                                             \
            CHECK(got[i] == (unsigned char)(me + i), "iget%d byte %zu", BITS, i);             \
        shmem_ctx_iput##BITS(SHMEM_CTX_DEFAULT, dst, src, 1, 1, 1, right);                    \
        shmem_ctx_iget##BITS(SHMEM_CTX_DEFAULT, got, dst, 1, 1, 1, right);                    \
        CHECK(got[0] == (unsigned char)me, "ctx iput/iget%d", BITS);                          \
        shmem_barrier_all();                                                                  \
    }
SHMPI_RMA_SIZES(TEST_SIZED)

static void test_mem(char *dst, char *src)
{
    static char function_local_static[100]; /* .bss of this function */
    for (int i = 0; i < 100; i++)
        src[i] = (char)(me * 7 + i);
    shmem_barrier_all();
    shmem_putmem(function_local_static, src, 100, right);
    shmem_ctx_putmem(SHMEM_CTX_DEFAULT, dst, src, 50, right);
    shmem_putmem_nbi(dst + 50, src + 50, 50, right);
    shmem_ctx_putmem_nbi(SHMEM_CTX_DEFAULT, dst + 100, src, 10, right);
    shmem_quiet();
    shmem_barrier_all();
    for (int i = 0; i < 100; i++)
        CHECK(function_local_static[i] == (char)(left * 7 + i) && dst[i] == (char)(left * 7 + i),
              "putmem byte %d", i);
    char got[100];
    shmem_getmem(got, function_local_static, 100, right);
    for (int i = 0; i < 100; i++)
        CHECK(got[i] == (char)(me * 7 + i), "getmem byte %d", i);
    memset(got, 0, sizeof got);
    shmem_ctx_getmem(SHMEM_CTX_DEFAULT, got, dst, 10, right);
    shmem_getmem_nbi(got + 10, dst + 10, 10, right);
    shmem_ctx_getmem_nbi(SHMEM_CTX_DEFAULT, got + 20, dst + 20, 10, right);
    shmem_quiet();
    for (int i = 0; i < 30; i++)
        CHECK(got[i] == (char)(me * 7 + i), "getmem_nbi byte %d", i);
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    /* big enough for N long doubles and for 30 128-bit elements */
    unsigned char *dst = shmem_malloc(N * 16 * 2);
    unsigned char *src = shmem_malloc(N * 16 * 2);
    CHECK(dst && src, "shmem_malloc");
#define RUN_TYPE(NAME, T) test_##NAME((T *)dst, (T *)src);
    SHMPI_RMA_TYPES(RUN_TYPE)
#define RUN_SIZED(BITS) test_sized_##BITS(dst, src);
    SHMPI_RMA_SIZES(RUN_SIZED)
    test_mem((char *)dst, (char *)src);
    shmem_free(dst);
    shmem_free(src);
    test_passed("rma_types");
    shmem_finalize();
    return 0;
}
