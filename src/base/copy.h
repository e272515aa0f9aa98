/*
 * copy.h - the CPU copy of the shared-memory RMA path: every byte stored
 * exactly once.
 *
 * Why not memcpy: glibc's memcpy and memmove cover sizes that are not a
 * multiple of their move width with overlapping moves, so they store some
 * bytes twice (4 to 7 bytes: the first four and the last four, the same
 * four for an int).  A target that sees the first store of a flag put with
 * shmem_int_p, and resets the flag, has its reset overwritten by the
 * second: the next round then starts with a flag already set, and the
 * target reads a buffer the next put has not filled (the lost puts of
 * tests/spmd/put_fence_ring; docs/design.md, "Ordering on the
 * shared-memory path").  Here an aligned element of 1, 2, 4, 8 or 16 bytes
 * is one store, and every byte of a larger transfer is stored once.  (The
 * order of the stores within one transfer is not promised, as the spec
 * promises none; a flag put after it, by a later call, is stored after all
 * of them.)
 */
#ifndef SHMPI_COPY_H
#define SHMPI_COPY_H

#include <stddef.h>
#include <stdint.h>

typedef uint16_t shmpi_u16_any __attribute__((aligned(1), may_alias));
typedef uint32_t shmpi_u32_any __attribute__((aligned(1), may_alias));
typedef uint64_t shmpi_u64_any __attribute__((aligned(1), may_alias));
typedef char shmpi_v16_any __attribute__((vector_size(16), aligned(1), may_alias));

/* From this many bytes on, the copy is a call (shmpi_copy_bulk): wider
 * moves where the CPU has them.  Below, 16-byte moves inline: on a Xeon
 * with AVX-512 a 128-byte copy took 8 ns through the call and 4.7 inline
 * (glibc's memcpy: 3), at 512 bytes the two were alike. */
#define SHMPI_COPY_BULK_MIN 512

/* Copies n bytes, from this many on, each byte stored once (copy.c). */
void shmpi_copy_bulk(void *to, const void *from, size_t n);

/* The last n < 32 bytes, from the widest move down. */
static inline __attribute__((always_inline)) void shmpi_copy_tail(char *d, const char *s,
                                                                  size_t n)
{
    if (n >= 16) {
        *(shmpi_v16_any *)d = *(const shmpi_v16_any *)s;
        d += 16, s += 16, n -= 16;
    }
    if (n >= 8) {
        *(shmpi_u64_any *)d = *(const shmpi_u64_any *)s;
        d += 8, s += 8, n -= 8;
    }
    if (n >= 4) {
        *(shmpi_u32_any *)d = *(const shmpi_u32_any *)s;
        d += 4, s += 4, n -= 4;
    }
    if (n >= 2) {
        *(shmpi_u16_any *)d = *(const shmpi_u16_any *)s;
        d += 2, s += 2, n -= 2;
    }
    if (n)
        *d = *s;
}

/* Copies n bytes from `from` to `to` (not overlapping), storing each byte of
 * `to` once.  Below SHMPI_COPY_BULK_MIN bytes `to` is first aligned to 8
 * with one store of the widest size that fits, so an aligned element is
 * one store. */
static inline __attribute__((always_inline)) void shmpi_copy_once(void *to, const void *from,
                                                                  size_t n)
{
    char *d = to;
    const char *s = from;
    if (__builtin_expect(n >= SHMPI_COPY_BULK_MIN, 0)) {
        shmpi_copy_bulk(to, from, n);
        return;
    }
    /* One aligned element, the usual small put or get: one move, no chain
     * of tests (the chain cost an 8-byte put about 1 ns of its 4). */
    if (n <= 16 && (n & (n - 1)) == 0 && ((uintptr_t)d & (n - 1)) == 0) {
        switch (n) {
        case 1: *d = *s; break;
        case 2: *(shmpi_u16_any *)d = *(const shmpi_u16_any *)s; break;
        case 4: *(shmpi_u32_any *)d = *(const shmpi_u32_any *)s; break;
        case 8: *(shmpi_u64_any *)d = *(const shmpi_u64_any *)s; break;
        default: *(shmpi_v16_any *)d = *(const shmpi_v16_any *)s; break;
        }
        return;
    }
    if (((uintptr_t)d & 1) && n >= 1) {
        *d = *s;
        d += 1, s += 1, n -= 1;
    }
    if (((uintptr_t)d & 2) && n >= 2) {
        *(shmpi_u16_any *)d = *(const shmpi_u16_any *)s;
        d += 2, s += 2, n -= 2;
    }
    if (((uintptr_t)d & 4) && n >= 4) {
        *(shmpi_u32_any *)d = *(const shmpi_u32_any *)s;
        d += 4, s += 4, n -= 4;
    }
    for (; n >= 64; d += 64, s += 64, n -= 64) {
        shmpi_v16_any a = *(const shmpi_v16_any *)s, b = *(const shmpi_v16_any *)(s + 16),
                      c = *(const shmpi_v16_any *)(s + 32), e = *(const shmpi_v16_any *)(s + 48);
        *(shmpi_v16_any *)d = a;
        *(shmpi_v16_any *)(d + 16) = b;
        *(shmpi_v16_any *)(d + 32) = c;
        *(shmpi_v16_any *)(d + 48) = e;
    }
    if (n >= 32) {
        shmpi_v16_any a = *(const shmpi_v16_any *)s, b = *(const shmpi_v16_any *)(s + 16);
        *(shmpi_v16_any *)d = a;
        *(shmpi_v16_any *)(d + 16) = b;
        d += 32, s += 32, n -= 32;
    }
    shmpi_copy_tail(d, s, n);
}

#endif
