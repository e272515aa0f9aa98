/*
 * copy.c - the bulk of the shared-memory RMA copy (copy.h): each byte
 * stored once, with the widest moves the CPU has: an AVX2 and a baseline
 * version, one picked on the first call (not GCC's target_clones, whose
 * resolver symbol is exported whatever the visibility): 32-byte moves copy 512 bytes in about 4 ns where 16-byte ones
 * take 7 (glibc's memmove: 3, with overlapping moves).  From
 * SHMPI_COPY_STRING_MIN bytes on, x86's string move, which stores each
 * byte once and is what glibc itself uses at those sizes (below 8 KiB it
 * was slower here: 2 KiB in 15 ns against 10).
 */
#include "copy.h"

typedef char v32_any __attribute__((vector_size(32), aligned(1), may_alias));

#define SHMPI_COPY_STRING_MIN 8192

/* The body, compiled once per instruction set: 32-byte vectors are two
 * 16-byte moves where AVX2 is not enabled. */
#define COPY_BULK_BODY                                                                    \
    char *d = to;                                                                         \
    const char *s = from;                                                                 \
    for (; n >= 128; d += 128, s += 128, n -= 128) {                                      \
        v32_any a = *(const v32_any *)s, b = *(const v32_any *)(s + 32),                  \
                c = *(const v32_any *)(s + 64), e = *(const v32_any *)(s + 96);           \
        *(v32_any *)d = a;                                                                \
        *(v32_any *)(d + 32) = b;                                                         \
        *(v32_any *)(d + 64) = c;                                                         \
        *(v32_any *)(d + 96) = e;                                                         \
    }                                                                                     \
    if (n >= 64) {                                                                        \
        v32_any a = *(const v32_any *)s, b = *(const v32_any *)(s + 32);                  \
        *(v32_any *)d = a;                                                                \
        *(v32_any *)(d + 32) = b;                                                         \
        d += 64, s += 64, n -= 64;                                                        \
    }                                                                                     \
    if (n >= 32) {                                                                        \
        *(v32_any *)d = *(const v32_any *)s;                                              \
        d += 32, s += 32, n -= 32;                                                        \
    }                                                                                     \
    shmpi_copy_tail(d, s, n);

static void copy_bulk_baseline(void *to, const void *from, size_t n)
{
    COPY_BULK_BODY
}

typedef void copy_fn(void *to, const void *from, size_t n);

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2"))) static void copy_bulk_avx2(void *to, const void *from, size_t n)
{
    COPY_BULK_BODY
}

static copy_fn *pick(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? copy_bulk_avx2 : copy_bulk_baseline;
}
#else
static copy_fn *pick(void)
{
    return copy_bulk_baseline;
}
#endif

void shmpi_copy_bulk(void *to, const void *from, size_t n)
{
#if defined(__x86_64__)
    if (n >= SHMPI_COPY_STRING_MIN) {
        char *d = to;
        const char *s = from;
        __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
        return;
    }
#endif
    /* Chosen on the first call; any thread that races here picks the same. */
    static copy_fn *chosen;
    copy_fn *copy = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
    if (__builtin_expect(!copy, 0)) {
        copy = pick();
        __atomic_store_n(&chosen, copy, __ATOMIC_RELAXED);
    }
    copy(to, from, n);
}
