/*
 * device_vmm.c - shmemx_device_register on CUDA VMM memory (cuMemCreate,
 * cuMemAddressReserve, cuMemMap, cuMemSetAccess), which has no legacy IPC
 * handle: each PE's allocation is exported as a POSIX file descriptor and
 * mapped by the other PEs (docs/device-heap.md, "Registration").  Host RMA,
 * put-with-signal and waits, RMA, signals, barriers and collectives on a
 * stream, shmem_ptr to the peers' ranges, all compared with host values;
 * then unregister, which must undo every peer mapping (the fake driver's
 * counts), and a second registration of the same memory.
 *
 * Arguments: "socket" or "pidfd" (SHMPI_FD_PASSING, else auto), or a case
 * that must refuse with -1 and one line (tests/device_errors.test): no-fd
 * (created without the POSIX fd handle type), spans (a range over two
 * allocations mapped back to back).  Attacks on the socket path
 * (tests/security.test; SHMPI_FD_PASSING=socket): forged (before each
 * descriptor shmpi sends, other processes send theirs to the same socket
 * claiming the same PE: one of this uid, and as root one of uid 65534; the
 * job must map its PEs' memory regardless), squat (the first name each PE
 * binds is held already: the job must draw another), squat-all (every name
 * held: the job must end with one line).
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <grp.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <string.h>

#include "testlib.h"
#include "test_cuda.h"

typedef unsigned long long CUdeviceptr;
typedef struct {
    int type, id;
} CUmemLocation;
typedef struct {
    int type, requestedHandleTypes;
    CUmemLocation location;
    void *win32HandleMetaData;
    unsigned char alloc_flags[8];
} CUmemAllocationProp;
typedef struct {
    CUmemLocation location;
    int flags;
} CUmemAccessDesc;

static CUresult (*cu_mem_create)(unsigned long long *, size_t, const CUmemAllocationProp *,
                                 unsigned long long);
static CUresult (*cu_mem_release)(unsigned long long);
static CUresult (*cu_mem_address_reserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr,
                                          unsigned long long);
static CUresult (*cu_mem_address_free)(CUdeviceptr, size_t);
static CUresult (*cu_mem_map)(CUdeviceptr, size_t, size_t, unsigned long long,
                              unsigned long long);
static CUresult (*cu_mem_unmap)(CUdeviceptr, size_t);
static CUresult (*cu_mem_set_access)(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t);
static CUresult (*cu_mem_granularity)(size_t *, const CUmemAllocationProp *, int);
static CUresult (*cu_ipc_get_mem_handle)(void *, CUdeviceptr);
static CUresult (*cu_ctx_get_device)(int *);
static unsigned long (*vmm_count)(const char *what); /* the fake's; NULL on a GPU */
static int me, npes;

static void load_driver(void)
{
    void *lib = test_cuda_open();
    TEST_CUDA_LOAD(lib, cu_mem_create, "cuMemCreate");
    TEST_CUDA_LOAD(lib, cu_mem_release, "cuMemRelease");
    TEST_CUDA_LOAD(lib, cu_mem_address_reserve, "cuMemAddressReserve");
    TEST_CUDA_LOAD(lib, cu_mem_address_free, "cuMemAddressFree");
    TEST_CUDA_LOAD(lib, cu_mem_map, "cuMemMap");
    TEST_CUDA_LOAD(lib, cu_mem_unmap, "cuMemUnmap");
    TEST_CUDA_LOAD(lib, cu_mem_set_access, "cuMemSetAccess");
    TEST_CUDA_LOAD(lib, cu_mem_granularity, "cuMemGetAllocationGranularity");
    TEST_CUDA_LOAD(lib, cu_ipc_get_mem_handle, "cuIpcGetMemHandle");
    TEST_CUDA_LOAD(lib, cu_ctx_get_device, "cuCtxGetDevice");
    *(void **)&vmm_count = dlsym(lib, "fake_cuda_vmm_count");
}

/* VMM memory as cuda.core's VirtualMemoryResource makes it: `chunks`
 * allocations of one granule each, mapped back to back in one reservation. */
struct vmm {
    CUdeviceptr base;
    size_t size, chunk;
    int chunks;
    unsigned long long handle[2];
};

static void vmm_alloc(struct vmm *v, int chunks, int handle_types)
{
    int device = 0;
    CHECK(cu_ctx_get_device(&device) == 0, "cuCtxGetDevice");
    CUmemAllocationProp prop = {.type = 1, .requestedHandleTypes = handle_types,
                                .location = {.type = 1, .id = device}};
    CHECK(cu_mem_granularity(&v->chunk, &prop, 1) == 0 && v->chunk, "granularity");
    v->chunks = chunks;
    v->size = v->chunk * (size_t)chunks;
    CHECK(cu_mem_address_reserve(&v->base, v->size, v->chunk, 0, 0) == 0,
          "cuMemAddressReserve");
    for (int c = 0; c < chunks; c++) {
        CHECK(cu_mem_create(&v->handle[c], v->chunk, &prop, 0) == 0, "cuMemCreate");
        CHECK(cu_mem_map(v->base + c * v->chunk, v->chunk, 0, v->handle[c], 0) == 0,
              "cuMemMap");
    }
    CUmemAccessDesc access = {.location = {.type = 1, .id = device}, .flags = 3};
    CHECK(cu_mem_set_access(v->base, v->size, &access, 1) == 0, "cuMemSetAccess");
}

static void vmm_free(struct vmm *v)
{
    for (int c = 0; c < v->chunks; c++) {
        CHECK(cu_mem_unmap(v->base + c * v->chunk, v->chunk) == 0, "cuMemUnmap");
        CHECK(cu_mem_release(v->handle[c]) == 0, "cuMemRelease");
    }
    CHECK(cu_mem_address_free(v->base, v->size) == 0, "cuMemAddressFree");
}

static void to_host(void *host, const void *device, size_t bytes)
{
    CHECK(cu_memcpy((uintptr_t)host, (uintptr_t)device, bytes) == 0, "cuMemcpy to host");
}
static void to_device(void *device, const void *host, size_t bytes)
{
    CHECK(cu_memcpy((uintptr_t)device, (uintptr_t)host, bytes) == 0, "cuMemcpy to device");
    /* From pageable memory the driver may return once the bytes are staged: they must
     * land before a barrier lets a peer write there. */
    CHECK(cu_ctx_synchronize() == 0, "cuCtxSynchronize");
}

static long value(int pe, int k, int i)
{
    return (long)pe * 100000 + k * 1000 + i + 1;
}

#define N 512         /* longs per block */
#define OFFSET 4096   /* the registered range starts this far into the allocation */
/* The registered range, in longs: blocks for host RMA, stream RMA, the
 * collectives' sources and results, then signal words. */
enum { HOST_PUT = 0, HOST_GET = N, STREAM_PUT = 2 * N, COLL_SRC = 3 * N, BCAST = 4 * N,
       FCOLLECT = 5 * N, SUM = 6 * N, SIGNALS = 7 * N, RANGE_LONGS = 7 * N + 8 };

static void check_block(const long *got, int pe, int k, const char *what)
{
    for (int i = 0; i < N; i++)
        CHECK(got[i] == value(pe, k, i), "%s: element %d is %ld, want %ld (PE %d's)", what, i,
              got[i], value(pe, k, i), pe);
}

static void exercise(long *reg, shmemx_stream_t s, int round)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    static long src[N], got[N * 8];
    uint64_t *sig = (uint64_t *)(reg + SIGNALS);
    uint64_t zero[8] = {0};
    to_device(sig, zero, sizeof zero);
    for (int i = 0; i < N; i++)
        src[i] = value(me, round, i);
    to_device(reg + HOST_GET, src, sizeof src);
    to_device(reg + COLL_SRC, src, sizeof src);
    shmem_barrier_all();

    /* host: put with a signal in the registered range, waited for by the host */
    shmem_putmem_signal(reg + HOST_PUT, src, sizeof src, &sig[0], 1, SHMEM_SIGNAL_SET, right);
    shmem_signal_wait_until(&sig[0], SHMEM_CMP_EQ, 1);
    to_host(got, reg + HOST_PUT, N * sizeof(long));
    check_block(got, left, round, "host put_signal into VMM memory");
    /* host: get of the right neighbour's block */
    shmem_getmem(got, reg + HOST_GET, N * sizeof(long), right);
    check_block(got, right, round, "host get from VMM memory");
    /* shmem_ptr: the right neighbour's range mapped here */
    long *peer = shmem_ptr(reg + HOST_GET, right);
    CHECK(peer && peer != reg + HOST_GET, "shmem_ptr of a peer's VMM range is %p", (void *)peer);
    to_host(got, peer, N * sizeof(long));
    check_block(got, right, round, "a load through shmem_ptr");

    /* stream: put with a signal, a wait on the stream, a barrier, collectives */
    shmemx_putmem_signal_on_stream(reg + STREAM_PUT, src, sizeof src, &sig[1], 7,
                                   SHMEM_SIGNAL_SET, right, s);
    shmemx_signal_wait_until_on_stream(&sig[1], SHMEM_CMP_EQ, 7, s);
    shmemx_barrier_all_on_stream(s);
    CHECK(shmemx_long_broadcast_on_stream(SHMEM_TEAM_WORLD, reg + BCAST, reg + COLL_SRC, N,
                                          npes - 1, s) == 0, "broadcast on a stream");
    CHECK(shmemx_long_fcollect_on_stream(SHMEM_TEAM_WORLD, reg + FCOLLECT, reg + COLL_SRC, 1,
                                         s) == 0, "fcollect on a stream");
    CHECK(shmemx_long_sum_reduce_on_stream(SHMEM_TEAM_WORLD, reg + SUM, reg + COLL_SRC, N,
                                           s) == 0, "sum reduction on a stream");
    CHECK(cu_stream_synchronize(s) == 0, "cuStreamSynchronize");
    to_host(got, reg + STREAM_PUT, N * sizeof(long));
    check_block(got, left, round, "put_signal on a stream into VMM memory");
    to_host(got, reg + BCAST, N * sizeof(long));
    check_block(got, npes - 1, round, "broadcast on a stream");
    to_host(got, reg + FCOLLECT, (size_t)npes * sizeof(long));
    for (int pe = 0; pe < npes; pe++)
        CHECK(got[pe] == value(pe, round, 0), "fcollect element %d is %ld, want %ld", pe,
              got[pe], value(pe, round, 0));
    to_host(got, reg + SUM, N * sizeof(long));
    for (int i = 0; i < N; i++) {
        long want = 0;
        for (int pe = 0; pe < npes; pe++)
            want += value(pe, round, i);
        CHECK(got[i] == want, "sum element %d is %ld, want %ld", i, got[i], want);
    }
    shmem_barrier_all(); /* no PE still reads a peer's range when it is unregistered */
}

/* ---- attacks on the descriptor socket ---------------------------------------------------
 * shmpi's own calls of sendmsg and bind come here first (the program's
 * definitions, visible, take precedence over libc's); the real calls are the
 * system calls.  Only those aimed at shmpi's abstract socket names are touched. */
static enum { ATTACK_NONE, ATTACK_FORGED, ATTACK_SQUAT, ATTACK_SQUAT_ALL } attack;
static int squats;

static int is_shmpi_socket(const void *name, socklen_t len)
{
    const struct sockaddr_un *a = name;
    const char prefix[] = "shmpi-fd-";
    return a && len > offsetof(struct sockaddr_un, sun_path) + sizeof prefix &&
           a->sun_family == AF_UNIX && a->sun_path[0] == '\0' &&
           !memcmp(a->sun_path + 1, prefix, sizeof prefix - 1);
}

/* In a child (another pid; as uid `uid` unless -1): sends `claimed` with a
 * descriptor of its own memory (`size` bytes of 0x5a) to the socket. */
static void forge(const struct msghdr *real, int claimed, size_t size, int uid)
{
    pid_t child = fork();
    if (child != 0) {
        int status;
        waitpid(child, &status, 0);
        return;
    }
    if (uid >= 0 && (setgroups(0, NULL) != 0 || setresgid(uid, uid, uid) != 0 ||
                     setresuid(uid, uid, uid) != 0))
        _exit(1);
    int fd = memfd_create("forged", 0);
    if (fd < 0 || ftruncate(fd, (off_t)size) != 0)
        _exit(1);
    char *bytes = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (bytes != MAP_FAILED)
        memset(bytes, 0x5a, size);
    /* shmpi's own datagram, with this process's descriptor in its place */
    int sock = socket(AF_UNIX, SOCK_DGRAM, 0);
    char control[256];
    if (real->msg_controllen > sizeof control)
        _exit(1);
    memcpy(control, real->msg_control, real->msg_controllen);
    struct iovec iov = {.iov_base = &claimed, .iov_len = sizeof claimed};
    struct msghdr msg = *real;
    msg.msg_iov = &iov;
    msg.msg_control = control;
    memcpy(CMSG_DATA(CMSG_FIRSTHDR(&msg)), &fd, sizeof fd);
    _exit(syscall(SYS_sendmsg, sock, &msg, 0) < 0 ? 1 : 0);
}

#define VISIBLE __attribute__((visibility("default")))
VISIBLE ssize_t sendmsg(int sock, const struct msghdr *msg, int flags)
{
    if (attack == ATTACK_FORGED && is_shmpi_socket(msg->msg_name, msg->msg_namelen) &&
        msg->msg_controllen >= CMSG_LEN(sizeof(int)) && msg->msg_iovlen == 1 &&
        msg->msg_iov[0].iov_len == sizeof(int)) {
        int claimed, fd;
        struct stat st;
        memcpy(&claimed, msg->msg_iov[0].iov_base, sizeof claimed);
        memcpy(&fd, CMSG_DATA(CMSG_FIRSTHDR((struct msghdr *)msg)), sizeof fd);
        size_t size = fstat(fd, &st) == 0 && st.st_size > 0 ? (size_t)st.st_size : 4096;
        forge(msg, claimed, size, -1); /* this uid, another process */
        if (geteuid() == 0)
            forge(msg, claimed, size, 65534); /* another user */
    }
    return syscall(SYS_sendmsg, sock, msg, flags);
}

VISIBLE int bind(int sock, const struct sockaddr *address, socklen_t len)
{
    if ((attack == ATTACK_SQUAT_ALL || (attack == ATTACK_SQUAT && !squats)) &&
        is_shmpi_socket(address, len)) {
        squats++;
        int squatter = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0); /* held to the end */
        if (squatter < 0 || syscall(SYS_bind, squatter, address, len) != 0)
            fprintf(stderr, "device_vmm: could not hold the name first: %s\n", strerror(errno));
    }
    return (int)syscall(SYS_bind, sock, address, len);
}

/* A registration that every PE must refuse with -1. */
static void refused(const char *what)
{
    struct vmm v;
    int spans = !strcmp(what, "spans");
    vmm_alloc(&v, spans ? 2 : 1, spans ? 1 : 0);
    void *ptr = (char *)(uintptr_t)v.base + (spans ? v.chunk - OFFSET : OFFSET);
    CHECK(shmemx_device_register(ptr, 2 * OFFSET) == -1, "registering %s VMM memory succeeded",
          what);
    vmm_free(&v);
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    const char *arg = argc > 1 ? argv[1] : "";
#ifdef FAKE_CUDA_LIBRARY
    setenv("SHMPI_CUDA_LIBRARY", FAKE_CUDA_LIBRARY, 0);
#endif
    setenv("SHMPI_DEVICE_HEAP_SIZE", "4m", 0);
    if (!strcmp(arg, "socket") || !strcmp(arg, "pidfd"))
        setenv("SHMPI_FD_PASSING", arg, 1);
    attack = !strcmp(arg, "forged")      ? ATTACK_FORGED
             : !strcmp(arg, "squat")     ? ATTACK_SQUAT
             : !strcmp(arg, "squat-all") ? ATTACK_SQUAT_ALL
                                         : ATTACK_NONE;
    if (attack)
        setenv("SHMPI_FD_PASSING", "socket", 1);
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    load_driver();
    if (!strcmp(arg, "no-fd") || !strcmp(arg, "spans")) {
        refused(arg);
        test_passed(arg);
        shmem_finalize();
        return 0;
    }
    struct vmm v;
    vmm_alloc(&v, 1, 1);
    unsigned char ipc[64];
    CHECK(cu_ipc_get_mem_handle(ipc, v.base) != 0, "cuIpcGetMemHandle of VMM memory succeeded");
    long *reg = (long *)(uintptr_t)(v.base + OFFSET);
    shmemx_stream_t s;
    CHECK(cu_stream_create(&s, 1) == 0, "cuStreamCreate");
    for (int round = 0; round < 2; round++) { /* registered twice: the names differ */
        CHECK(shmemx_device_register(reg, RANGE_LONGS * sizeof(long)) == 0, "register");
        if (vmm_count)
            CHECK(vmm_count("mappings") == (unsigned long)npes &&
                      vmm_count("imports") == (unsigned long)(npes - 1) * (round + 1),
                  "after register: %lu mappings, %lu imports", vmm_count("mappings"),
                  vmm_count("imports"));
        exercise(reg, s, round);
        CHECK(shmemx_device_unregister(reg) == 0, "unregister");
        if (vmm_count) /* the peers' mappings, reservations and handles are gone */
            CHECK(vmm_count("mappings") == 1 && vmm_count("reservations") == 1 &&
                      vmm_count("allocations") == 1,
                  "after unregister: %lu mappings, %lu reservations, %lu allocations",
                  vmm_count("mappings"), vmm_count("reservations"), vmm_count("allocations"));
    }
    CHECK(cu_stream_destroy(s) == 0, "cuStreamDestroy");
    vmm_free(&v);
    if (vmm_count)
        CHECK(vmm_count("allocations") == 0 && vmm_count("reservations") == 0,
              "%lu allocations left", vmm_count("allocations"));
    test_passed(*arg ? arg : "device_vmm");
    shmem_finalize();
    return 0;
}
