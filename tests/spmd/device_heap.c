/*
 * device_heap.c - RMA into the device heap (shmemx_device_malloc), every
 * put/get family, with the local buffer in host and in device memory.
 *
 * Runs against the CUDA driver named by SHMPI_CUDA_LIBRARY: by default the
 * fake of tests/fake_cuda.c (FAKE_CUDA_LIBRARY), whose device addresses
 * fault on any host load or store, so a copy that bypassed the driver would
 * crash; with the fake, each family must also have made driver copies
 * (fake_cuda_count).  benchmarks/gpu-run.sh runs it on a real GPU with
 * SHMPI_CUDA_LIBRARY=libcuda.so.1.  The test reads and writes device
 * memory itself only through cuMemcpy of the same library.
 *
 * An argument selects a misuse case instead (tests/device_errors.test):
 * amo, wait, coll (a strided alltoalls), strided-local, no-heap.  Or
 * "stale": the same test with a fake device memory object of an ended
 * process under this PE's PID (a killed job's are left in /dev/shm, and
 * PIDs come round again): the fake driver must take another name.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <string.h>

#include "testlib.h"

#define N 64 /* longs per buffer */

typedef int (*memcpy_fn)(unsigned long long dst, unsigned long long src, size_t bytes);
typedef int (*ctx_sync_fn)(void);
typedef unsigned long (*count_fn)(const char *what);
typedef int (*alloc_fn)(unsigned long long *dptr, size_t bytes);
typedef int (*free_fn)(unsigned long long dptr);
static alloc_fn cu_mem_alloc;
static free_fn cu_mem_free;
static memcpy_fn cu_memcpy;
static ctx_sync_fn cu_ctx_synchronize;
static count_fn fake_count; /* NULL with a real driver */

/* Device memory from and to the host, through the driver. */
static void to_host(void *host, const void *device, size_t bytes)
{
    CHECK(cu_memcpy((uintptr_t)host, (uintptr_t)device, bytes) == 0, "cuMemcpy to host");
}
static void to_device(void *device, const void *host, size_t bytes)
{
    CHECK(cu_memcpy((uintptr_t)device, (uintptr_t)host, bytes) == 0, "cuMemcpy to device");
    /* From pageable memory cuMemcpy may return before the data arrived. */
    CHECK(cu_ctx_synchronize() == 0, "cuCtxSynchronize");
}

static unsigned long copies(void)
{
    return fake_count ? fake_count("copies") : 0;
}

/* The family just run went through the driver (the fake counts its copies). */
static unsigned long mark;
static int peer_mapped = 1; /* else a get's copy is the peer's, not this PE's */
static void family_done(const char *family)
{
    if (fake_count && peer_mapped)
        CHECK(copies() > mark, "%s made no driver copy (copies %lu)", family, copies());
    mark = copies();
}

static long value(int pe, int i)
{
    return (long)pe * 1000 + i + 1;
}

/* dev (a device-heap block of N longs) holds value(from, i) for i in [lo, hi)
 * with `step`, and `fill` elsewhere. */
static void check_device(const char *what, long *dev, int from, int lo, int hi, int step,
                         long fill)
{
    long host[N];
    to_host(host, dev, sizeof host);
    for (int i = 0; i < N; i++) {
        int in = i >= lo && i < hi && (i - lo) % step == 0;
        long want = in ? value(from, i) : fill;
        CHECK(host[i] == want, "%s: element %d is %ld, want %ld", what, i, host[i], want);
    }
}

static void reset(long *dev)
{
    long zero[N] = {0};
    to_device(dev, zero, sizeof zero);
    shmem_barrier_all();
}

static void load_driver(void)
{
    const char *name = getenv("SHMPI_CUDA_LIBRARY");
    void *lib = dlopen(name && *name ? name : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    CHECK(lib, "dlopen: %s", dlerror());
    cu_memcpy = (memcpy_fn)dlsym(lib, "cuMemcpy");
    cu_ctx_synchronize = (ctx_sync_fn)dlsym(lib, "cuCtxSynchronize");
    cu_mem_alloc = (alloc_fn)dlsym(lib, "cuMemAlloc_v2");
    cu_mem_free = (free_fn)dlsym(lib, "cuMemFree_v2");
    CHECK(cu_memcpy && cu_ctx_synchronize && cu_mem_alloc && cu_mem_free,
          "no cuMemcpy, cuCtxSynchronize, cuMemAlloc_v2 or cuMemFree_v2");
    fake_count = (count_fn)dlsym(lib, "fake_cuda_count");
}

/* Completion: a blocking or quieted transfer into the device heap has
 * landed when the routine returns, so the left neighbour reads it after the
 * barrier that follows (through shmem_ptr with a synchronous cuMemcpy, which
 * does not wait for shmpi's stream).  On the fake driver every copy lands
 * late (SHMPI_FAKE_CUDA_LATE_US): a routine that returned early fails here. */
static void test_completion(long *dev, int me, int right)
{
    for (int round = 1; round <= 3; round++) {
        long fill[N], seen[N];
        for (int i = 0; i < N; i++)
            fill[i] = value(me, i) * 10 + round;
        for (int nbi = 0; nbi <= 1; nbi++) {
            if (nbi) {
                fill[0] += 5;
                shmem_putmem_nbi(dev, fill, sizeof fill, me);
                shmem_quiet();
            } else {
                shmem_long_put(dev, fill, N, me);
            }
            shmem_barrier_all();
            if (shmem_ptr(dev, right))
                to_host(seen, shmem_ptr(dev, right), sizeof seen);
            else /* not mapped here (another node, SHMPI_DEVICE_IPC=0): through the server */
                shmem_getmem(seen, dev, sizeof seen, right);
            for (int i = 0; i < N; i++) {
                long want = value(right, i) * 10 + round + (nbi && !i ? 5 : 0);
                CHECK(seen[i] == want, "round %d: %s into this PE's own block, barrier, the "
                      "left neighbour reads element %d: %ld, want %ld (the put landed after "
                      "the barrier)", round, nbi ? "shmem_putmem_nbi + shmem_quiet" :
                      "shmem_long_put", i, seen[i], want);
            }
            shmem_barrier_all();
        }
    }
    const char *sync = getenv("SHMPI_FAKE_CUDA_SYNCHRONOUS");
    if (fake_count && !(sync && atoi(sync)))
        CHECK(fake_count("late") > 0, "the fake driver landed no synchronous copy late");
}

/* Whether PE pe's device heap is mapped here: always on this PE's own,
 * else on the same node (SHMPI_TEST_PPN PEs a node under tests/launch-nodes.sh)
 * unless SHMPI_DEVICE_IPC=0. */
static int mapped(int pe)
{
    int me = shmem_my_pe();
    const char *ipc = getenv("SHMPI_DEVICE_IPC"), *ppn = getenv("SHMPI_TEST_PPN");
    if (pe == me)
        return 1;
    if (ipc && !strcmp(ipc, "0"))
        return 0;
    return !ppn || pe / atoi(ppn) == me / atoi(ppn);
}

static void misuse(const char *what, long *dev, int right)
{
    static long host_word;
    if (!strcmp(what, "amo"))
        shmem_long_atomic_add(dev, 1, right);
    else if (!strcmp(what, "wait"))
        shmem_long_wait_until_all(dev, 2, NULL, SHMEM_CMP_EQ, 1); /* single waits work */
    else if (!strcmp(what, "coll"))
        shmem_long_alltoalls(SHMEM_TEAM_WORLD, dev, dev + 32, 2, 2, 1);
    else if (!strcmp(what, "strided-local"))
        shmem_long_iput(&host_word, dev, 1, 1, 1, right);
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    /* Unless the environment says otherwise: a small heap on the fake driver. */
    setenv("SHMPI_DEVICE_HEAP_SIZE", "1m", 0);
    setenv("SHMPI_DEVICE_CHUNK", "4k", 0); /* many pieces where peers are not mapped */
#ifdef FAKE_CUDA_LIBRARY
    setenv("SHMPI_CUDA_LIBRARY", FAKE_CUDA_LIBRARY, 0);
#endif
    if (argc > 1 && !strcmp(argv[1], "no-heap"))
        setenv("SHMPI_DEVICE_HEAP_SIZE", "0", 1);
    /* The second emulated node without a GPU: the job ends with one line. */
    const char *ppn = getenv("SHMPI_TEST_PPN"), *rank = getenv("PMI_RANK");
    if (argc > 1 && !strcmp(argv[1], "gpu-less-node") && ppn && rank &&
        atoi(rank) / atoi(ppn) == 1)
        setenv("SHMPI_FAKE_CUDA_DEVICES", "0", 1);
    int ipc0 = argc > 1 && !strcmp(argv[1], "ipc0"); /* every peer through the network */
    if (ipc0)
        setenv("SHMPI_DEVICE_IPC", "0", 1);
    char stale[64] = ""; /* the fake driver's first name in this process */
    if (argc > 1 && !strcmp(argv[1], "stale")) {
        snprintf(stale, sizeof stale, "/fake-cuda-%d-0", (int)getpid());
        int fd = shm_open(stale, O_RDWR | O_CREAT | O_EXCL, 0600);
        CHECK(fd >= 0, "cannot make %s in /dev/shm", stale);
        close(fd);
    }
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    if (argc > 1 && !strcmp(argv[1], "no-heap")) {
        CHECK(!shmemx_device_heap_available(), "a device heap without SHMPI_DEVICE_HEAP_SIZE");
        const char *name = getenv("SHMPI_CUDA_LIBRARY");
        CHECK(!dlopen(name, RTLD_NOW | RTLD_NOLOAD), "%s was loaded without a device heap",
              name);
        shmemx_device_malloc(8); /* must end the job */
    }
    load_driver();
    CHECK(shmemx_device_heap_available(), "no device heap");
    long *dev = shmemx_device_calloc(N, sizeof(long));
    long *dev_src = shmemx_device_malloc(N * sizeof(long));
    CHECK(dev && dev_src, "device allocation failed");
    if (argc > 1 && !stale[0] && !ipc0 && strcmp(argv[1], "gpu-less-node"))
        misuse(argv[1], dev, right);

    peer_mapped = mapped(right);
    long *host_heap = shmem_calloc(N, sizeof(long));
    uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
    long src[N], got[N];
    for (int i = 0; i < N; i++)
        src[i] = value(me, i);
    to_device(dev_src, src, sizeof src);
    check_device("calloc", dev, 0, 0, 0, 1, 0);
    shmem_barrier_all();
    test_completion(dev, me, right);
    reset(dev);
    mark = copies();

    /* Typed, sized, mem and single-element puts from host memory. */
    shmem_long_put(dev, src, N, right);
    shmem_barrier_all();
    check_device("long_put", dev, left, 0, N, 1, 0);
    family_done("typed put");
    reset(dev);
    shmem_put64(dev, src, N / 2, right);
    shmem_put32((char *)dev + N * 4, (char *)src + N * 4, N, right);
    shmem_barrier_all();
    check_device("put64/put32", dev, left, 0, N, 1, 0);
    family_done("sized put");
    reset(dev);
    shmem_putmem(dev, src, N * sizeof(long), right);
    shmem_barrier_all();
    check_device("putmem", dev, left, 0, N, 1, 0);
    family_done("putmem");
    reset(dev);
    for (int i = 0; i < N; i++)
        shmem_long_p(dev + i, src[i], right);
    shmem_barrier_all();
    check_device("long_p", dev, left, 0, N, 1, 0);
    family_done("p");

    /* Gets into host memory: every element of the right neighbour. */
    shmem_barrier_all();
    memset(got, 0, sizeof got);
    shmem_long_get(got, dev_src, N, right);
    for (int i = 0; i < N; i++)
        CHECK(got[i] == value(right, i), "long_get %d: %ld", i, got[i]);
    family_done("typed get");
    memset(got, 0, sizeof got);
    shmem_getmem(got, dev_src, N * sizeof(long), right);
    shmem_get64(got, dev_src, N, right);
    for (int i = 0; i < N; i++)
        CHECK(got[i] == value(right, i), "getmem/get64 %d: %ld", i, got[i]);
    family_done("getmem/sized get");
    for (int i = 0; i < N; i += 7)
        CHECK(shmem_long_g(dev_src + i, right) == value(right, i), "long_g %d", i);
    family_done("g");

    /* nbi: complete at quiet. */
    reset(dev);
    shmem_long_put_nbi(dev, src, N, right);
    shmem_quiet();
    shmem_barrier_all();
    check_device("put_nbi", dev, left, 0, N, 1, 0);
    memset(got, 0, sizeof got);
    shmem_long_get_nbi(got, dev_src, N, right);
    shmem_quiet();
    for (int i = 0; i < N; i++)
        CHECK(got[i] == value(right, i), "get_nbi %d: %ld", i, got[i]);
    family_done("nbi");

    /* Strided: iput/iget every other element, ibput/ibget blocks of 4. */
    reset(dev);
    shmem_long_iput(dev, src, 2, 2, N / 2, right);
    shmem_barrier_all();
    check_device("iput", dev, left, 0, N, 2, 0);
    memset(got, 0, sizeof got);
    shmem_long_iget(got, dev_src, 1, 3, N / 3, right);
    for (int i = 0; i < N / 3; i++)
        CHECK(got[i] == value(right, 3 * i), "iget %d: %ld", i, got[i]);
    family_done("iput/iget");
    reset(dev);
    shmem_long_ibput(dev, src, 8, 8, 4, N / 8, right);
    shmem_barrier_all();
    {
        long host[N];
        to_host(host, dev, sizeof host);
        for (int i = 0; i < N; i++)
            CHECK(host[i] == (i % 8 < 4 ? value(left, i) : 0), "ibput %d: %ld", i, host[i]);
    }
    memset(got, 0, sizeof got);
    shmem_long_ibget(got, dev_src, 4, 8, 4, N / 8, right);
    for (int i = 0; i < N / 2; i++)
        CHECK(got[i] == value(right, (i / 4) * 8 + i % 4), "ibget %d: %ld", i, got[i]);
    family_done("ibput/ibget");

    /* Context forms. */
    shmem_ctx_t ctx;
    CHECK(shmem_ctx_create(0, &ctx) == 0, "ctx_create");
    reset(dev);
    shmem_ctx_long_put_nbi(ctx, dev, src, N, right);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    check_device("ctx_put_nbi", dev, left, 0, N, 1, 0);
    memset(got, 0, sizeof got);
    shmem_ctx_long_get(ctx, got, dev_src, N, right);
    for (int i = 0; i < N; i++)
        CHECK(got[i] == value(right, i), "ctx_get %d: %ld", i, got[i]);
    shmem_ctx_destroy(ctx);
    family_done("ctx");

    /* put_signal: data in the device heap, the signal in the host heap. */
    reset(dev);
    shmem_long_put_signal(dev, src, N, sig, 1, SHMEM_SIGNAL_SET, right);
    shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1);
    check_device("put_signal", dev, left, 0, N, 1, 0);
    shmem_barrier_all();
    *sig = 0;
    reset(dev);
    shmem_putmem_signal_nbi(dev, src, N * sizeof(long), sig, 1, SHMEM_SIGNAL_ADD, right);
    shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1);
    check_device("putmem_signal_nbi", dev, left, 0, N, 1, 0);
    family_done("put_signal");

    /* Signals on a word in the device heap: put_signal, signal_add and
     * signal_set from the left neighbour, each waited for on this PE. */
    {
        uint64_t *dev_sig = shmemx_device_calloc(1, sizeof(uint64_t));
        CHECK(dev_sig, "device allocation for a signal word");
        reset(dev);
        shmem_long_put_signal(dev, src, N, dev_sig, 1, SHMEM_SIGNAL_ADD, right);
        CHECK(shmem_signal_wait_until(dev_sig, SHMEM_CMP_EQ, 1) == 1, "device put_signal");
        check_device("put_signal, device signal word", dev, left, 0, N, 1, 0);
        shmem_barrier_all(); /* every PE saw 1 before any adds */
        shmem_signal_add(dev_sig, 41, right);
        CHECK(shmem_signal_wait_until(dev_sig, SHMEM_CMP_EQ, 42) == 42, "device signal_add");
        shmem_barrier_all();
        shmem_signal_set(dev_sig, 7, right);
        shmem_barrier_all();
        CHECK(shmem_signal_fetch(dev_sig) == 7, "device signal_set, then barrier: %llu",
              (unsigned long long)shmem_signal_fetch(dev_sig));
        shmemx_device_free(dev_sig);
        family_done("device signals");
    }

    /* A registered range (cuMemAlloc, shmemx_device_register): put, get and
     * the signal through the peer's mapping or, not mapped, its server. */
    {
        unsigned long long mem = 0;
        CHECK(cu_mem_alloc(&mem, 2 * N * sizeof(long)) == 0, "cuMemAlloc");
        long *reg = (long *)(uintptr_t)mem, back[N];
        CHECK(shmemx_device_register(reg, 2 * N * sizeof(long)) == 0, "register");
        to_device(reg + N, src, sizeof src);
        shmem_barrier_all();
        shmem_long_put(reg, src, N, right);
        shmem_barrier_all();
        to_host(back, reg, sizeof back);
        for (int i = 0; i < N; i++)
            CHECK(back[i] == value(left, i), "put into a registered range %d: %ld", i,
                  back[i]);
        memset(back, 0, sizeof back);
        shmem_long_get(back, reg + N, N, right);
        for (int i = 0; i < N; i++)
            CHECK(back[i] == value(right, i), "get from a registered range %d: %ld", i,
                  back[i]);
        shmem_barrier_all();
        CHECK(shmemx_device_unregister(reg) == 0, "unregister");
        CHECK(cu_mem_free(mem) == 0, "cuMemFree");
    }

    /* Large transfers, compared to a host reference: with SHMPI_DEVICE_CHUNK
     * 4k (set above) many chunks and batches where the peer is not mapped. */
    {
        enum { BIG = 160 * 1024 - 24 };
        char *dev_big = shmemx_device_calloc(BIG, 1), *dev_big_src = shmemx_device_malloc(BIG);
        char *ref = malloc(BIG), *back = malloc(BIG);
        CHECK(dev_big && dev_big_src && ref && back, "allocation of %d bytes", BIG);
        for (int i = 0; i < BIG; i++)
            ref[i] = (char)(i * 7 + me * 13 + 1);
        to_device(dev_big_src, ref, BIG);
        shmem_barrier_all();
        shmem_putmem(dev_big, ref, BIG, right); /* from host memory */
        shmem_barrier_all();
        to_host(back, dev_big, BIG);
        for (int i = 0; i < BIG; i++)
            CHECK(back[i] == (char)(i * 7 + left * 13 + 1), "big put from host %d", i);
        shmem_barrier_all();
        shmem_putmem_nbi(dev_big + 8, dev_big_src, BIG - 8, right); /* from device memory */
        shmem_quiet();
        shmem_barrier_all();
        to_host(back, dev_big + 8, BIG - 8);
        for (int i = 0; i < BIG - 8; i++)
            CHECK(back[i] == (char)(i * 7 + left * 13 + 1), "big put from device %d", i);
        memset(back, 0, BIG);
        shmem_getmem(back, dev_big_src, BIG, right); /* into host memory */
        for (int i = 0; i < BIG; i++)
            CHECK(back[i] == (char)(i * 7 + right * 13 + 1), "big get into host %d", i);
        shmem_barrier_all();
        shmem_getmem(dev_big, dev_big_src, BIG, right); /* into device memory */
        to_host(back, dev_big, BIG);
        for (int i = 0; i < BIG; i++)
            CHECK(back[i] == (char)(i * 7 + right * 13 + 1), "big get into device %d", i);
        shmem_barrier_all();
        shmemx_device_free(dev_big_src);
        shmemx_device_free(dev_big);
        free(ref);
        free(back);
        family_done("large transfers");
    }

    /* The local buffer in device memory: device to peer device, and the
     * device heap to and from the host heap (staged). */
    reset(dev);
    shmem_long_put(dev, dev_src, N, right);
    shmem_barrier_all();
    check_device("device-to-device put", dev, left, 0, N, 1, 0);
    reset(dev);
    shmem_long_get(dev, dev_src, N, right);
    check_device("device-to-device get", dev, right, 0, N, 1, 0);
    family_done("device local buffer");
    shmem_long_put(host_heap, dev_src, N, right);
    shmem_barrier_all();
    for (int i = 0; i < N; i++)
        CHECK(host_heap[i] == value(left, i), "device-to-host-heap put %d: %ld", i,
              host_heap[i]);
    shmem_barrier_all();
    reset(dev);
    shmem_long_get(dev, host_heap, N, right);
    check_device("host-heap-to-device get", dev, me, 0, N, 1, 0);
    family_done("staged");

    /* shmem_ptr: the peer's device address, which the driver copies from. */
    shmem_barrier_all();
    long *peer = shmem_ptr(dev_src, right);
    if (mapped(right)) {
        CHECK(peer != NULL, "shmem_ptr of a device-heap address is NULL");
        CHECK(right == me ? peer == dev_src : peer != dev_src, "shmem_ptr %p", (void *)peer);
        to_host(got, peer, sizeof got);
        for (int i = 0; i < N; i++)
            CHECK(got[i] == value(right, i), "through shmem_ptr %d: %ld", i, got[i]);
    } else {
        CHECK(peer == NULL, "shmem_ptr of PE %d's device heap, not mapped here: %p", right,
              (void *)peer);
    }
    CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, dev_src, right) == peer, "shmem_team_ptr");
    CHECK(shmem_ptr(src, right) == NULL, "shmem_ptr of a local array");
    CHECK(shmem_addr_accessible(dev_src, right), "a device-heap address is not accessible");

    /* Collectives on device buffers (staged through host memory). */
    {
        long host[N], *all = shmemx_device_calloc(N * 4, sizeof(long));
        CHECK(all, "device allocation for collectives");
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dev, dev_src, N);
        to_host(host, dev, sizeof host);
        for (int i = 0; i < N; i++) {
            long want = 0;
            for (int pe = 0; pe < npes; pe++)
                want += value(pe, i);
            CHECK(host[i] == want, "sum_reduce %d: %ld, want %ld", i, host[i], want);
        }
        shmem_long_broadcast(SHMEM_TEAM_WORLD, dev, dev_src, N, npes - 1);
        check_device("broadcast", dev, npes - 1, 0, N, 1, 0);
        int per = N / 4 < N / npes ? N / 4 : N / npes; /* elements per PE in `all` */
        shmem_long_fcollect(SHMEM_TEAM_WORLD, all, dev_src, (size_t)per);
        long gathered[N * 4];
        to_host(gathered, all, (size_t)per * npes * sizeof(long));
        for (int pe = 0; pe < npes; pe++)
            for (int i = 0; i < per; i++)
                CHECK(gathered[pe * per + i] == value(pe, i), "fcollect %d %d", pe, i);
        shmem_long_collect(SHMEM_TEAM_WORLD, all, dev_src, (size_t)(me + 1));
        to_host(gathered, all, (size_t)(npes * (npes + 1) / 2) * sizeof(long));
        for (int pe = 0, at = 0; pe < npes; at += ++pe)
            for (int i = 0; i <= pe; i++)
                CHECK(gathered[at + i] == value(pe, i), "collect %d %d: %ld", pe, i,
                      gathered[at + i]);
        int block = N / npes;
        shmem_long_alltoall(SHMEM_TEAM_WORLD, all, dev_src, (size_t)block);
        to_host(gathered, all, (size_t)block * npes * sizeof(long));
        for (int pe = 0; pe < npes; pe++)
            for (int i = 0; i < block; i++)
                CHECK(gathered[pe * block + i] == value(pe, me * block + i), "alltoall %d %d",
                      pe, i);
        shmem_long_sum_inscan(SHMEM_TEAM_WORLD, dev, dev_src, N);
        to_host(host, dev, sizeof host);
        for (int i = 0; i < N; i++) {
            long want = 0;
            for (int pe = 0; pe <= me; pe++)
                want += value(pe, i);
            CHECK(host[i] == want, "sum_inscan %d: %ld, want %ld", i, host[i], want);
        }
        shmemx_device_free(all);
    }

    /* A full heap gives NULL on every PE; free and reuse. */
    CHECK(shmemx_device_malloc((size_t)1 << 40) == NULL, "a 1 TiB device block");
    shmemx_device_free(dev_src);
    long *again = shmemx_device_malloc(N * sizeof(long));
    CHECK(again == dev_src, "the freed block is not reused: %p, %p", (void *)again,
          (void *)dev_src);
    shmemx_device_free(again);
    shmemx_device_free(dev);
    shmem_free(host_heap);
    shmem_free(sig);
    if (me == 0 && fake_count)
        printf("fake driver: %lu copies, %lu syncs, %lu IPC opens on PE 0\n", copies(),
               fake_count("syncs"), fake_count("ipc_opens"));
    if (stale[0])
        shm_unlink(stale);
    test_passed("device_heap");
    shmem_finalize();
    return 0;
}
