/*
 * Edge cases of RMA: 0-byte transfers (even with bad addresses they are
 * no-ops), transfers to self, strides that interleave and stride 0, and
 * sizes from 1 byte to 64 MiB, every byte checked.
 */
#include <stdint.h>
#include <string.h>

#include "testlib.h"

#define MAX_BYTES ((size_t)64 << 20)

static unsigned char pattern(int pe, size_t i)
{
    return (unsigned char)((i * 131 + (size_t)pe * 17 + (i >> 12)) & 0xff);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    unsigned char *src = shmem_malloc(MAX_BYTES);
    unsigned char *dst = shmem_malloc(MAX_BYTES);
    CHECK(src && dst, "64 MiB buffers (SHMEM_SYMMETRIC_SIZE too small?)");

    /* 0 bytes: nothing happens, whatever the pointers */
    shmem_putmem(dst, src, 0, right);
    shmem_getmem(NULL, src, 0, right);
    shmem_long_iput((long *)dst, (long *)src, 1, 1, 0, right);
    shmem_putmem_nbi(dst, src, 0, right);
    shmem_quiet();

    for (size_t i = 0; i < MAX_BYTES; i++)
        src[i] = pattern(me, i);
    for (size_t bytes = 1; bytes <= MAX_BYTES; bytes *= 8) {
        memset(dst, 0, bytes + 1 < MAX_BYTES ? bytes + 1 : MAX_BYTES);
        shmem_barrier_all();
        shmem_putmem(dst, src, bytes, right);
        shmem_barrier_all();
        for (size_t i = 0; i < bytes; i++)
            if (dst[i] != pattern(left, i))
                CHECK(0, "put of %zu bytes: byte %zu is %d", bytes, i, dst[i]);
        if (bytes < MAX_BYTES)
            CHECK(dst[bytes] == 0, "put of %zu bytes wrote past its end", bytes);
        shmem_barrier_all();
        memset(dst, 0, bytes);
        shmem_getmem(dst, src, bytes, right);
        for (size_t i = 0; i < bytes; i++)
            if (dst[i] != pattern(right, i))
                CHECK(0, "get of %zu bytes: byte %zu is %d", bytes, i, dst[i]);
        shmem_barrier_all();
    }
    /* 64 MiB with nbi, both directions at once, then one quiet */
    memset(dst, 0, MAX_BYTES);
    shmem_barrier_all();
    shmem_putmem_nbi(dst, src, MAX_BYTES / 2, right);
    shmem_putmem_nbi(dst + MAX_BYTES / 2, src + MAX_BYTES / 2, MAX_BYTES / 2, right);
    shmem_quiet();
    shmem_barrier_all();
    for (size_t i = 0; i < MAX_BYTES; i++)
        if (dst[i] != pattern(left, i))
            CHECK(0, "put_nbi 64 MiB: byte %zu", i);
    shmem_barrier_all();

    /* to self: put and get with the caller as target */
    long *self = (long *)dst;
    for (int i = 0; i < 100; i++)
        ((long *)src)[i] = i * me;
    shmem_long_put(self, (long *)src, 100, me);
    for (int i = 0; i < 100; i++)
        CHECK(self[i] == i * me, "put to self elem %d", i);
    long back[100];
    shmem_long_get(back, self, 100, me);
    CHECK(memcmp(back, self, sizeof back) == 0, "get from self");
    CHECK(shmem_long_g(self + 7, me) == 7 * me, "g from self");

    /* interleaved strides: two iputs fill the odd and even slots */
    long *s = (long *)src, *d = (long *)dst;
    for (int i = 0; i < 200; i++) {
        s[i] = 1000 * me + i;
        d[i] = -1;
    }
    shmem_barrier_all();
    shmem_long_iput(d, s, 2, 1, 100, right);
    shmem_long_iput(d + 1, s + 100, 2, 1, 100, right);
    shmem_barrier_all();
    for (int i = 0; i < 200; i++) {
        long want = 1000 * left + (i % 2 ? 100 + i / 2 : i / 2);
        CHECK(d[i] == want, "interleaved iput slot %d: %ld want %ld", i, d[i], want);
    }
    /* source stride 0: one element replicated; target stride 0: last wins */
    shmem_barrier_all();
    shmem_long_iput(d, s + 5, 1, 0, 10, right);
    shmem_long_iput(d + 50, s, 0, 1, 10, right);
    shmem_barrier_all();
    for (int i = 0; i < 10; i++)
        CHECK(d[i] == 1000 * left + 5, "sst 0 slot %d", i);
    CHECK(d[50] == 1000 * left + 9, "dst 0: %ld", d[50]);
    /* iget with stride 0 on the source reads one element repeatedly */
    long rep[10];
    shmem_long_iget(rep, d + 50, 1, 0, 10, right);
    for (int i = 0; i < 10; i++)
        CHECK(rep[i] == 1000 * me + 9, "iget sst 0 slot %d", i);
    /* negative target stride: reversed order */
    shmem_barrier_all();
    shmem_long_iput(d + 99, s, -1, 1, 100, right);
    shmem_barrier_all();
    for (int i = 0; i < 100; i++)
        CHECK(d[99 - i] == 1000 * left + i, "negative stride slot %d", i);
    shmem_barrier_all();

    shmem_free(src);
    shmem_free(dst);
    test_passed("transfers");
    shmem_finalize();
    return 0;
}
