/*
 * stream_reduce.c - the collectives on a stream against host references
 * (docs/device-heap.md, "Streams"): every type and operator of the
 * reductions and reduce-scatters on a stream, out of place and in place,
 * and broadcast, fcollect and alltoall, on the world team, the team of
 * odd PEs and the machine's (SHMEMX_TEAM_NODE, SHMEM_TEAM_SHARED).  On the
 * fake driver (tests/fake_cuda.c), which runs shmpi's reduction kernel
 * with the functions of src/device/fold.h.  Each team's reductions are
 * enqueued back to back and synchronized once, so the test stays short.
 *
 * Arguments: "split": SHMPI_STREAM_PUSH_MAX=0, every collective between
 * barriers, reductions split across the members; "host": the driver cannot
 * load the kernel (SHMPI_FAKE_CUDA_NO_JIT), reductions fold on the host;
 * "ipc0": SHMPI_DEVICE_IPC=0, no other PE's device memory mapped, so the
 * collectives pull through the stream proxy and fold on the host.
 * Default: the one round of flags (small collectives).
 */
#include <complex.h>
#include <dlfcn.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"
#include "test_cuda.h"

#define COUNT 37 /* elements per block: not a multiple of any team size here */
#define SLOT 4096 /* bytes per block slot: 16-byte elements, COUNT of them, up to 4 PEs */

static unsigned long (*fake_count)(const char *what); /* NULL on a GPU */

static void load_driver(void)
{
    void *lib = test_cuda_open();
    *(void **)&fake_count = dlsym(lib, "fake_cuda_count");
}

static void to_host(void *host, const void *device, size_t bytes)
{
    CHECK(cu_memcpy((uintptr_t)host, (uintptr_t)device, bytes) == 0, "cuMemcpy to host");
}
static void to_device(void *device, const void *host, size_t bytes)
{
    CHECK(cu_memcpy((uintptr_t)device, (uintptr_t)host, bytes) == 0, "cuMemcpy to device");
    CHECK(cu_ctx_synchronize() == 0, "cuCtxSynchronize");
}

/* 16-bit floats from and to float, for the small integers of the values
 * (exact in both: no rounding here). */
static float half_float(uint16_t h)
{
    int exp = h >> 10 & 0x1f, man = h & 0x3ff;
    float f = exp ? (float)(0x400 | man) * (float)(1 << exp) / (float)(1 << 25) : 0.0f;
    return h & 0x8000 ? -f : f;
}
static uint16_t float_half(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    if (!(b & 0x7fffffff))
        return (uint16_t)(b >> 16);
    return (uint16_t)((b >> 16 & 0x8000) | (((b >> 23 & 0xff) - 112) << 10) | (b >> 13 & 0x3ff));
}
static float bfloat16_float(uint16_t h)
{
    uint32_t b = (uint32_t)h << 16;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}
static uint16_t float_bfloat16(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return (uint16_t)(b >> 16);
}

/* Values per operator (testlib.h), for team PE j, element i. */
#define VAL_and V_BIT
#define VAL_or V_BIT
#define VAL_xor V_BIT
#define VAL_max V_MINMAX
#define VAL_min V_MINMAX
#define VAL_sum V_SUM
#define VAL_prod V_PROD
#define CVAL_sum V_CSUM
#define CVAL_prod V_CPROD

/* The value of PE j's element i of block b (a reduce-scatter's block b goes to PE b). */
#define ELEM(b, i) ((b) * 5 + (i))
#define SAME(x) (x)
/* STORE: the element type; CALC: the type the reference folds in; TO and
 * FROM convert between them. */
#define DEFINE_ENTRY(N, OP, STORE, CALC, VAL, TO, FROM)                                       \
    static void fill_##N##_##OP(void *src, int me, int blocks)                                \
    {                                                                                         \
        STORE *s = src;                                                                       \
        for (int b = 0; b < blocks; b++)                                                      \
            for (int i = 0; i < COUNT; i++)                                                   \
                s[b * COUNT + i] = TO(VAL(CALC, me, ELEM(b, i)));                             \
    }                                                                                         \
    static int check_##N##_##OP(const void *dst, int n, int b)                                \
    {                                                                                         \
        const STORE *d = dst;                                                                 \
        for (int i = 0; i < COUNT; i++) {                                                     \
            CALC want = VAL(CALC, 0, ELEM(b, i));                                             \
            for (int j = 1; j < n; j++)                                                       \
                want = (CALC)F_##OP(want, VAL(CALC, j, ELEM(b, i)));                          \
            if (FROM(d[i]) != want)                                                           \
                return i;                                                                     \
        }                                                                                     \
        return -1;                                                                            \
    }
#define NATIVE_ENTRY(N, T, M, OP, MPI_OP) DEFINE_ENTRY(N, OP, T, T, VAL_##OP, SAME, SAME)
#define COMPLEX_ENTRY(N, T, M, OP, MPI_OP) DEFINE_ENTRY(N, OP, T, T, CVAL_##OP, SAME, SAME)
#define HALF_ENTRY(N, T, M, OP, MPI_OP)                                                       \
    DEFINE_ENTRY(N, OP, uint16_t, float, VAL_##OP, float_##N, N##_float)
/* Every reduction on a stream (SHMPI_STREAM_REDUCTIONS of shmpi_stream.h),
 * each row with its kind of values. */
#define EVERY_REDUCTION(NATIVE, COMPLEX, HALF)                                                \
    SHMPI_REDUCE_BITWISE_TYPE_ROWS(SHMPI_REDUCE_BITWISE_OPS, NATIVE)                          \
    SHMPI_REDUCE_MINMAX_TYPE_ROWS(SHMPI_REDUCE_MINMAX_OPS, NATIVE)                            \
    SHMPI_REDUCE_MINMAX_TYPE_ROWS(SHMPI_REDUCE_ARITH_OPS, NATIVE)                             \
    SHMPI_COMPLEX_TYPE_ROWS(SHMPI_REDUCE_ARITH_OPS, COMPLEX)                                  \
    SHMPI_STREAM_HALF_TYPE_ROWS(SHMPI_REDUCE_MINMAX_OPS, HALF)                                \
    SHMPI_STREAM_HALF_TYPE_ROWS(SHMPI_REDUCE_ARITH_OPS, HALF)
EVERY_REDUCTION(NATIVE_ENTRY, COMPLEX_ENTRY, HALF_ENTRY)

#define TABLE_ROW(N, T, M, OP, MPI_OP)                                                        \
    {#N "_" #OP, sizeof(T), fill_##N##_##OP,                                                  \
     (int (*)(shmem_team_t, void *, const void *, size_t, shmemx_stream_t))                   \
         shmemx_##N##_##OP##_reduce_on_stream,                                                \
     (int (*)(shmem_team_t, void *, const void *, size_t, shmemx_stream_t))                   \
         shmemx_##N##_##OP##_reducescatter_on_stream,                                         \
     check_##N##_##OP},
/* One reduction: fill this PE's source (n blocks for a reduce-scatter),
 * enqueue it, check dest against the fold computed here. */
static const struct entry {
    const char *name;
    size_t size;
    void (*fill)(void *src, int me, int blocks);
    int (*reduce)(shmem_team_t, void *, const void *, size_t, shmemx_stream_t);
    int (*scatter)(shmem_team_t, void *, const void *, size_t, shmemx_stream_t);
    int (*check)(const void *dst, int n, int block); /* the first element wrong, or -1 */
} table[] = {EVERY_REDUCTION(TABLE_ROW, TABLE_ROW, TABLE_ROW)};
#define N_ENTRIES (sizeof table / sizeof table[0])

static int me, npes;
static int host_fold; /* mode host: each staging block is released before the next is
                         taken (the fake has 256 regions, a block each in flight) */
static unsigned char host[SLOT * 4];

/* Every reduction of the table on `team` three ways (out of place, in
 * place, reduce-scatter), enqueued back to back, then checked. */
static void test_reductions(shmem_team_t team, const char *name, shmemx_stream_t s,
                            unsigned char *src, unsigned char *dst)
{
    int tme = shmem_team_my_pe(team), tn = shmem_team_n_pes(team);
    enum { OUT, IN_PLACE, SCATTER, WAYS };
    static const char *const ways[] = {"reduce", "reduce in place", "reducescatter"};
    for (size_t e = 0; e < N_ENTRIES; e++)
        for (int w = 0; w < WAYS; w++) {
            table[e].fill(host, tme, w == SCATTER ? tn : 1);
            to_device(src + (e * WAYS + w) * SLOT, host, SLOT);
        }
    for (size_t e = 0; e < N_ENTRIES; e++)
        for (int w = 0; w < WAYS; w++) {
            unsigned char *from = src + (e * WAYS + w) * SLOT, *to = dst + (e * WAYS + w) * SLOT;
            int rc = (w == SCATTER ? table[e].scatter : table[e].reduce)(
                team, w == IN_PLACE ? from : to, from, COUNT, s);
            CHECK(rc == 0, "%s %s returned %d", table[e].name, ways[w], rc);
            if (host_fold)
                CHECK(cu_stream_synchronize(s) == 0, "cuStreamSynchronize");
        }
    CHECK(cu_stream_synchronize(s) == 0, "cuStreamSynchronize");
    for (size_t e = 0; e < N_ENTRIES; e++)
        for (int w = 0; w < WAYS; w++) {
            unsigned char *at = (w == IN_PLACE ? src : dst) + (e * WAYS + w) * SLOT;
            to_host(host, at, COUNT * table[e].size);
            int bad = table[e].check(host, tn, w == SCATTER ? tme : 0);
            CHECK(bad < 0, "%s %s on %s (%d PEs): element %d differs from the host fold",
                  table[e].name, ways[w], name, tn, bad);
        }
}

/* broadcast from each end, fcollect and alltoall of longs. */
static void test_moves(shmem_team_t team, const char *name, shmemx_stream_t s, long *src,
                       long *dst)
{
    int tme = shmem_team_my_pe(team), tn = shmem_team_n_pes(team);
    long h[4 * COUNT], got[4 * COUNT];
    for (int root = 0; root < tn; root += tn > 1 ? tn - 1 : 1) {
        for (int i = 0; i < COUNT; i++)
            h[i] = tme * 1000 + i;
        to_device(src, h, COUNT * sizeof(long));
        CHECK(shmemx_long_broadcast_on_stream(team, dst, src, COUNT, root, s) == 0, "bcast");
        CHECK(cu_stream_synchronize(s) == 0, "cuStreamSynchronize");
        to_host(got, dst, COUNT * sizeof(long));
        for (int i = 0; i < COUNT; i++)
            CHECK(got[i] == root * 1000 + i, "%s broadcast from %d: element %d is %ld", name,
                  root, i, got[i]);
    }
    shmemx_long_fcollect_on_stream(team, dst, src, COUNT, s);
    CHECK(cu_stream_synchronize(s) == 0, "cuStreamSynchronize");
    to_host(got, dst, (size_t)tn * COUNT * sizeof(long));
    for (int p = 0; p < tn; p++)
        for (int i = 0; i < COUNT; i++)
            CHECK(got[p * COUNT + i] == p * 1000 + i, "%s fcollect: block %d element %d is %ld",
                  name, p, i, got[p * COUNT + i]);
    for (int p = 0; p < tn; p++)
        for (int i = 0; i < COUNT; i++)
            h[p * COUNT + i] = tme * 1000 + p * 100 + i;
    to_device(src, h, (size_t)tn * COUNT * sizeof(long));
    shmemx_long_alltoall_on_stream(team, dst, src, COUNT, s);
    /* twice, back to back: the second's pushes wait for the first's arrivals */
    shmemx_long_alltoall_on_stream(team, dst + 4 * COUNT, src, COUNT, s);
    CHECK(cu_stream_synchronize(s) == 0, "cuStreamSynchronize");
    for (int k = 0; k < 2; k++) {
        to_host(got, dst + k * 4 * COUNT, (size_t)tn * COUNT * sizeof(long));
        for (int p = 0; p < tn; p++)
            for (int i = 0; i < COUNT; i++)
                CHECK(got[p * COUNT + i] == p * 1000 + tme * 100 + i,
                      "%s alltoall %d: block %d element %d is %ld", name, k, p, i,
                      got[p * COUNT + i]);
    }
}

/* One element, out of place and in place: split, the last PEs have no part. */
static void test_one(shmem_team_t team, const char *name, shmemx_stream_t s, long *src,
                     long *dst)
{
    int tme = shmem_team_my_pe(team), tn = shmem_team_n_pes(team);
    for (int in_place = 0; in_place < 2; in_place++) {
        long v = tme + 1, got = 0;
        to_device(src, &v, sizeof v);
        shmemx_long_sum_reduce_on_stream(team, in_place ? src : dst, src, 1, s);
        CHECK(cu_stream_synchronize(s) == 0, "cuStreamSynchronize");
        to_host(&got, in_place ? src : dst, sizeof got);
        CHECK(got == (long)tn * (tn + 1) / 2, "%s one-element sum%s: %ld, want %d", name,
              in_place ? " in place" : "", got, tn * (tn + 1) / 2);
    }
}

static void test_team(shmem_team_t team, const char *name, shmemx_stream_t s)
{
    size_t bytes = N_ENTRIES * 3 * SLOT;
    unsigned char *src = shmemx_device_calloc(bytes, 1), *dst = shmemx_device_calloc(bytes, 1);
    CHECK(src && dst, "shmemx_device_calloc of %zu bytes", bytes);
    if (team != SHMEM_TEAM_INVALID) {
        test_reductions(team, name, s, src, dst);
        test_moves(team, name, s, (long *)src, (long *)dst);
        /* the last element of each block: the empty parts lie past its end */
        test_one(team, name, s, (long *)(src + bytes) - 1, (long *)(dst + bytes) - 1);
    }
    shmem_barrier_all();
    shmemx_device_free(dst);
    shmemx_device_free(src);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "push";
#ifdef FAKE_CUDA_LIBRARY
    setenv("SHMPI_CUDA_LIBRARY", FAKE_CUDA_LIBRARY, 0);
    setenv("SHMPI_FAKE_CUDA_LATE_US", "0", 0); /* the ordering is device_stream's to check */
#endif
    if (!strcmp(mode, "split"))
        setenv("SHMPI_STREAM_PUSH_MAX", "0", 1);
    else if (!strcmp(mode, "host"))
        setenv("SHMPI_FAKE_CUDA_NO_JIT", "1", 1), host_fold = 1;
    else if (!strcmp(mode, "ipc0"))
        setenv("SHMPI_DEVICE_IPC", "0", 1), host_fold = 1;
    else
        CHECK(!strcmp(mode, "push"), "unknown mode %s (push, split, host, ipc0)", mode);
    setenv("SHMPI_DEVICE_HEAP_SIZE", "8m", 1);
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    /* On emulated nodes (tests/launch-nodes.sh) the world team has members
     * whose device memory is not mapped here: its collectives fold on the
     * host, pulling through the stream proxy. */
    const char *ppn = getenv("SHMPI_TEST_PPN");
    int world_unmapped = ppn && atoi(ppn) < npes;
    if (world_unmapped)
        host_fold = 1;
    CHECK(npes <= 4, "at most 4 PEs (SLOT)");
    load_driver();
    shmemx_stream_t s;
    CHECK(cu_stream_create(&s, 1) == 0, "cuStreamCreate");
    unsigned long kernels = fake_count ? fake_count("kernels") : 0;
    test_team(SHMEM_TEAM_WORLD, "world", s);
    if (fake_count && (npes > 1 || strcmp(mode, "ipc0"))) /* the kernel ran, or did not */
        CHECK(host_fold || world_unmapped ? fake_count("kernels") == kernels
                                    : fake_count("kernels") > kernels,
              "%lu kernels ran in mode %s", fake_count("kernels") - kernels, mode);
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    if (npes > 1)
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd);
    test_team(odd, "odd PEs", s);
    if (odd != SHMEM_TEAM_INVALID)
        shmem_team_destroy(odd);
    test_team(SHMEMX_TEAM_NODE, "node", s);
    test_team(SHMEM_TEAM_SHARED, "shared", s);
    cu_stream_destroy(s);
    char pass[64];
    snprintf(pass, sizeof pass, "stream_reduce %s", mode);
    test_passed(pass);
    shmem_finalize();
    return 0;
}
