/*
 * vmm.c - registration of CUDA VMM memory (vmm.h): export as a POSIX file
 * descriptor, hand-over to the PEs of the machine, import and mapping.
 *
 * The descriptor goes to a peer by pidfd_getfd(pidfd_open(pid), fd) where
 * the kernel allows it (Linux 5.6, and ptrace rights over the exporter),
 * else as SCM_RIGHTS datagrams to a Unix socket the receiver binds in the
 * abstract namespace (no file is left behind), named after its PID, PE, the
 * registration's serial and a random number the PEs exchange through MPI.
 * Abstract sockets have no permissions and every local user can read their
 * names (/proc/net/unix), so the receiver believes only what the kernel
 * attests (SO_PASSCRED): a datagram counts only if its sender's pid is that
 * of the PE it names and its uid this process's; anything else is dropped
 * and the wait goes on (docs/security.md).  SHMPI_FD_PASSING forces either
 * path.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "shmpi.h"
#include "cuda_driver.h"
#include "device_heap.h"
#include "progress.h"
#include "shape.h"
#include "vmm.h"

#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* The same numbers on every architecture (the unified syscall table). */
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

#define HANDOVER_TIMEOUT_S 60
/* Names tried when something else holds the receiving socket's name. */
#define BIND_TRIES 4
/* Dropped datagrams said one by one under SHMEM_DEBUG (then only counted). */
#define DROPS_SAID 8

static const char *driver_text(CUresult result)
{
    const char *text = NULL;
    shmpi_cuda.get_error_string(result, &text);
    return text ? text : "unknown error";
}

enum shmpi_vmm_kind shmpi_vmm_export(CUdeviceptr ptr, size_t size, CUdeviceptr alloc_base,
                                     size_t alloc_size, struct shmpi_vmm_card *card,
                                     char *problem, size_t problem_size)
{
    CUmemGenericAllocationHandle handle;
    if (!shmpi_cuda.mem_retain_allocation_handle ||
        shmpi_cuda.mem_retain_allocation_handle(&handle, (void *)(uintptr_t)ptr) !=
            SHMPI_CUDA_SUCCESS)
        return SHMPI_VMM_NOT; /* cudaMalloc memory (or a driver that cannot tell) */
    CUmemAllocationProp prop;
    CUresult result;
    if (shmpi_cuda.vmm_missing)
        snprintf(problem, problem_size,
                 "it is CUDA VMM memory (cuMemCreate) but the driver \"%s\" has no %s; set "
                 "SHMPI_CUDA_LIBRARY to a newer libcuda.so.1",
                 shmpi_g.env.cuda_library, shmpi_cuda.vmm_missing);
    else if (ptr + size > alloc_base + alloc_size)
        snprintf(problem, problem_size,
                 "it spans several CUDA VMM allocations (the cuMemCreate allocation holding "
                 "ptr ends %llu bytes into the range); register each allocation's part "
                 "separately",
                 (unsigned long long)(alloc_base + alloc_size - ptr));
    else if ((result = shmpi_cuda.mem_get_allocation_properties(&prop, handle)) !=
             SHMPI_CUDA_SUCCESS)
        snprintf(problem, problem_size, "cuMemGetAllocationPropertiesFromHandle failed: %s",
                 driver_text(result));
    else if (!(prop.requestedHandleTypes & SHMPI_CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR))
        snprintf(problem, problem_size,
                 "it is CUDA VMM memory created without a POSIX file descriptor handle, which "
                 "the other PEs need to map it; create it with requestedHandleTypes = "
                 "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR (cuda.core: "
                 "VirtualMemoryResourceOptions(handle_type=\"posix_fd\"))");
    else if ((result = shmpi_cuda.mem_export_to_shareable_handle(
                  &card->fd, handle, SHMPI_CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0)) !=
             SHMPI_CUDA_SUCCESS)
        snprintf(problem, problem_size, "cuMemExportToShareableHandle failed: %s",
                 driver_text(result));
    else
        problem = NULL;
    shmpi_cuda.mem_release(handle); /* the allocation stays the program's */
    if (problem)
        return SHMPI_VMM_REFUSED;
    card->alloc_size = alloc_size;
    card->pid = (int)getpid();
    return SHMPI_VMM_EXPORTED;
}

void shmpi_vmm_forget(struct shmpi_vmm_card *card)
{
    if (card->alloc_size)
        close(card->fd);
    card->alloc_size = 0;
}

/* ---- the hand-over ------------------------------------------------------------------ */
/* PE pe's descriptor through pidfd_getfd, or -errno. */
static int take_by_pidfd(const struct shmpi_vmm_card *card)
{
    long pidfd = syscall(SYS_pidfd_open, card->pid, 0);
    if (pidfd < 0)
        return -errno;
    long fd = syscall(SYS_pidfd_getfd, (int)pidfd, card->fd, 0);
    int error = errno;
    close((int)pidfd);
    return fd < 0 ? -error : (int)fd;
}

/* What a receiving PE tells the others through MPI: how many descriptors it
 * lacks and the random part of its socket's name. */
struct socket_card {
    int missing;
    unsigned nonce[2];
};

/* The abstract-namespace address of PE pe's receiving socket for this
 * registration; returns its length. */
static socklen_t socket_address(struct sockaddr_un *address, int pid, int pe,
                                unsigned serial, const unsigned nonce[2])
{
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    /* sun_path[0] = 0: the abstract namespace, gone with the socket */
    int n = snprintf(address->sun_path + 1, sizeof address->sun_path - 1,
                     "shmpi-fd-%d-pe%d-%u-%08x%08x", pid, pe, serial, nonce[0], nonce[1]);
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
}

/* Unpredictable bits (no one can hold the name before it is bound). */
static void random_nonce(unsigned nonce[2])
{
    if (getrandom(nonce, 2 * sizeof *nonce, 0) != (ssize_t)(2 * sizeof *nonce)) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        nonce[0] = (unsigned)t.tv_nsec * 2654435761u ^ (unsigned)getpid();
        nonce[1] = (unsigned)t.tv_sec ^ (unsigned)(uintptr_t)&t;
    }
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Sends this PE's descriptor (with its PE number) to PE to's socket;
 * returns 0, or errno (EAGAIN: its queue is full, try again). */
static int send_fd(int sock, const struct sockaddr_un *to, socklen_t to_len, int fd)
{
    int me = shmpi_g.my_pe;
    struct iovec iov = {.iov_base = &me, .iov_len = sizeof me};
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr msg = {.msg_name = (void *)to, .msg_namelen = to_len, .msg_iov = &iov,
                         .msg_iovlen = 1, .msg_control = control.buf,
                         .msg_controllen = sizeof control.buf};
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
    return sendmsg(sock, &msg, MSG_DONTWAIT | MSG_NOSIGNAL) < 0 ? errno : 0;
}

/* Descriptors one datagram may carry before the kernel truncates (and
 * closes the rest): a stranger's may carry several. */
#define FDS_PER_DATAGRAM 8

enum received { RECEIVED_NONE, RECEIVED_FD, RECEIVED_DROPPED };

/* Receives one datagram.  RECEIVED_FD: one descriptor from a PE of this job,
 * its PE in *from, the descriptor in *fd: the sender's pid (attested by the
 * kernel) is that PE's and its (real) uid this process's.  RECEIVED_DROPPED:
 * anything else, its descriptors closed, said under SHMEM_DEBUG. */
static enum received receive_fd(const char *routine, int sock,
                                const struct shmpi_vmm_card *cards, int *from, int *fd,
                                int *dropped)
{
    int claimed = -1;
    struct iovec iov = {.iov_base = &claimed, .iov_len = sizeof claimed};
    union {
        char buf[CMSG_SPACE(sizeof(struct ucred)) + CMSG_SPACE(FDS_PER_DATAGRAM * sizeof(int))];
        struct cmsghdr align;
    } control;
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
                         .msg_controllen = sizeof control.buf};
    ssize_t got = recvmsg(sock, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    if (got < 0)
        return RECEIVED_NONE;
    struct ucred cred = {.pid = 0, .uid = (uid_t)-1, .gid = (gid_t)-1};
    bool attested = false;
    int fds[FDS_PER_DATAGRAM], n_fds = 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET)
            continue;
        if (c->cmsg_type == SCM_CREDENTIALS && c->cmsg_len >= CMSG_LEN(sizeof cred)) {
            memcpy(&cred, CMSG_DATA(c), sizeof cred);
            attested = true;
        } else if (c->cmsg_type == SCM_RIGHTS) {
            size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (size_t i = 0; i < count && n_fds < FDS_PER_DATAGRAM; i++)
                memcpy(&fds[n_fds++], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
        }
    }
    int n = shmpi_g.n_pes;
    bool genuine = got == (ssize_t)sizeof claimed && !(msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) &&
                   n_fds == 1 && attested && claimed >= 0 && claimed < n &&
                   claimed != shmpi_g.my_pe && cards[claimed].alloc_size &&
                   cred.pid == cards[claimed].pid && cred.uid == getuid();
    if (genuine) {
        *from = claimed;
        *fd = fds[0];
        return RECEIVED_FD;
    }
    for (int i = 0; i < n_fds; i++)
        close(fds[i]);
    int said = (*dropped)++;
    if (shmpi_g.env.debug && said < DROPS_SAID)
        shmpi_warn(routine, "dropped a datagram on the CUDA VMM descriptor socket from pid %d "
                   "(uid %d), %zd bytes, %d descriptors, claiming PE %d: not that PE's process",
                   (int)cred.pid, (int)cred.uid, got, n_fds,
                   got == (ssize_t)sizeof claimed ? claimed : -1);
    return RECEIVED_DROPPED;
}

/* The PEs whose ranges are mapped here (device_heap.h). */
static bool same_machine(int pe)
{
    return shmpi_device_ipc_reaches(pe);
}

/* The socket path: this PE sends its descriptor to each PE of the machine
 * that still lacks some (peers[pe].missing > 0), and receives one from each VMM
 * exporter of the machine if it lacks some itself (bound to `sock`).  Sends
 * never block, so no two PEs wait on each other's full queues. */
static void hand_over_by_socket(const char *routine, const struct shmpi_vmm_card *cards,
                                const struct socket_card *peers, int sock, unsigned serial,
                                int *fds)
{
    int n = shmpi_g.n_pes, me = shmpi_g.my_pe;
    bool *sent = calloc((size_t)n, sizeof *sent);
    if (!sent)
        shmpi_abort(routine, "out of memory");
    int to_send = 0, to_receive = 0;
    for (int pe = 0; pe < n; pe++) {
        bool peer = pe != me && same_machine(pe);
        if (peer && cards[me].alloc_size && peers[pe].missing)
            to_send++;
        else
            sent[pe] = true;
        to_receive += peer && peers[me].missing && cards[pe].alloc_size;
    }
    int out = -1;
    if (to_send && (out = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
        shmpi_abort(routine, "socket(AF_UNIX) failed: %s", strerror(errno));
    double deadline = seconds() + HANDOVER_TIMEOUT_S;
    int drops = 0;
    while (to_send || to_receive) {
        for (int pe = 0; pe < n && to_send; pe++) {
            if (sent[pe])
                continue;
            struct sockaddr_un to;
            socklen_t to_len = socket_address(&to, cards[pe].pid, pe, serial, peers[pe].nonce);
            int error = send_fd(out, &to, to_len, cards[me].fd);
            if (error == 0) {
                sent[pe] = true;
                to_send--;
            } else if (error != EAGAIN && error != EWOULDBLOCK) {
                shmpi_abort(routine,
                            "passing the CUDA VMM descriptor to PE %d over a Unix socket "
                            "failed: %s; set SHMPI_FD_PASSING=pidfd if the kernel allows "
                            "pidfd_getfd",
                            pe, strerror(error));
            }
        }
        int from, fd;
        enum received got;
        /* (a bounded number per turn: a stranger's flood cannot keep this
         * PE from sending, or from its deadline) */
        for (int turn = 0; to_receive && turn < 64 &&
                           (got = receive_fd(routine, sock, cards, &from, &fd, &drops)) !=
                               RECEIVED_NONE;
             turn++) {
            if (got == RECEIVED_DROPPED)
                continue; /* a stranger's: the PE's own is still to come */
            if (fds[from] >= 0)
                close(fd); /* taken by pidfd already */
            else
                fds[from] = fd;
            to_receive--;
        }
        if (!to_send && !to_receive)
            break;
        if (seconds() > deadline)
            shmpi_abort(routine,
                        "no CUDA VMM descriptor came over the Unix socket from the PEs of "
                        "this machine within %d s (%d still to come, %d to send; %d datagrams "
                        "dropped from processes that are not this job's PEs); set "
                        "SHMPI_FD_PASSING=pidfd if the kernel allows pidfd_getfd",
                        HANDOVER_TIMEOUT_S, to_receive, to_send, drops);
        struct pollfd p = {.fd = sock, .events = POLLIN};
        poll(&p, sock >= 0 && to_receive ? 1 : 0, 1);
    }
    if (out >= 0)
        close(out);
    free(sent);
}

/* This PE's receiving socket for registration `serial`, bound, with the
 * random part of its name in nonce; the kernel attests each sender
 * (SO_PASSCRED).  A name some other process holds is never shared: another
 * is drawn, BIND_TRIES times, each said under SHMEM_DEBUG, then the job ends
 * with one line naming the cause. */
static int bind_receiver(const char *routine, unsigned serial, unsigned nonce[2])
{
    int sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    int on = 1;
    if (sock < 0 || setsockopt(sock, SOL_SOCKET, SO_PASSCRED, &on, sizeof on) != 0)
        shmpi_abort(routine, "cannot make a Unix socket to receive CUDA VMM descriptors: %s; "
                    "set SHMPI_FD_PASSING=pidfd if the kernel allows pidfd_getfd",
                    strerror(errno));
    struct sockaddr_un address;
    for (int tries = 1;; tries++) {
        random_nonce(nonce);
        socklen_t length = socket_address(&address, (int)getpid(), shmpi_g.my_pe, serial, nonce);
        if (bind(sock, (struct sockaddr *)&address, length) == 0)
            return sock;
        if (errno != EADDRINUSE)
            shmpi_abort(routine,
                        "cannot bind the Unix socket \"@%s\" to receive CUDA VMM "
                        "descriptors: %s; set SHMPI_FD_PASSING=pidfd if the kernel allows "
                        "pidfd_getfd",
                        address.sun_path + 1, strerror(errno));
        if (tries == BIND_TRIES)
            shmpi_abort(routine,
                        "cannot bind a Unix socket to receive CUDA VMM descriptors: another "
                        "process already holds each of the %d random names drawn (the last "
                        "\"@%s\"); "
                        "set SHMPI_FD_PASSING=pidfd if the kernel allows pidfd_getfd",
                        BIND_TRIES, address.sun_path + 1);
        if (shmpi_g.env.debug)
            shmpi_warn(routine, "the Unix socket name \"@%s\" is held by another process: "
                       "drawing another", address.sun_path + 1);
    }
}

/* Every VMM exporter's descriptor in fds[pe] (-1 elsewhere), for the PEs of
 * this machine but this one. */
static void hand_over(const char *routine, const struct shmpi_vmm_card *cards, int *fds)
{
    static unsigned serial; /* the same on every PE: every PE registers alike */
    serial++;
    int n = shmpi_g.n_pes, me = shmpi_g.my_pe, mode = shmpi_g.env.fd_passing;
    int missing = 0, by_pidfd = 0;
    for (int pe = 0; pe < n; pe++) {
        fds[pe] = -1;
        if (pe == me || !same_machine(pe) || !cards[pe].alloc_size)
            continue;
        int fd = mode == SHMPI_FD_SOCKET ? -ENOSYS : take_by_pidfd(&cards[pe]);
        if (fd >= 0) {
            fds[pe] = fd;
            by_pidfd++;
        } else if (mode == SHMPI_FD_PIDFD) {
            shmpi_abort(routine,
                        "SHMPI_FD_PASSING=pidfd but pidfd_getfd of PE %d's CUDA VMM "
                        "descriptor failed: %s; set SHMPI_FD_PASSING=auto or socket",
                        pe, strerror(-fd));
        } else {
            missing++;
        }
    }
    /* A PE that lacks some binds its socket before the exchange: every
     * sender then finds it bound. */
    struct socket_card mine = {.missing = missing};
    int sock = missing ? bind_receiver(routine, serial, mine.nonce) : -1;
    struct socket_card *peers = shmpi_xmalloc(routine, (size_t)n * sizeof *peers);
    MPI_Allgather(&mine, (int)(sizeof mine / sizeof(int)), MPI_INT, peers,
                  (int)(sizeof mine / sizeof(int)), MPI_INT, shmpi_g.comm);
    int by_socket = 0;
    for (int pe = 0; pe < n; pe++)
        by_socket += peers[pe].missing != 0;
    if (by_socket)
        hand_over_by_socket(routine, cards, peers, sock, serial, fds);
    if (sock >= 0)
        close(sock);
    free(peers);
    if (shmpi_g.env.debug && me == 0)
        shmpi_warn(routine, "CUDA VMM descriptors: %d by pidfd_getfd, %d over a Unix socket "
                   "(SCM_RIGHTS)", by_pidfd, missing);
}

/* ---- import and mapping -------------------------------------------------------------- */
static void map_one(const char *routine, int fd, size_t alloc_size, struct shmpi_vmm_map *map)
{
    CUmemGenericAllocationHandle handle;
    shmpi_cuda_check(routine, "cuMemImportFromShareableHandle",
                     shmpi_cuda.mem_import_from_shareable_handle(
                         &handle, (void *)(uintptr_t)fd,
                         SHMPI_CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    close(fd); /* the imported handle holds the memory */
    CUmemAllocationProp prop;
    shmpi_cuda_check(routine, "cuMemGetAllocationPropertiesFromHandle",
                     shmpi_cuda.mem_get_allocation_properties(&prop, handle));
    size_t granularity = 0;
    shmpi_cuda_check(routine, "cuMemGetAllocationGranularity",
                     shmpi_cuda.mem_get_allocation_granularity(
                         &granularity, &prop, SHMPI_CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    if (granularity == 0)
        granularity = 1;
    size_t size = (alloc_size + granularity - 1) / granularity * granularity;
    CUdeviceptr base = 0;
    shmpi_cuda_check(routine, "cuMemAddressReserve",
                     shmpi_cuda.mem_address_reserve(&base, size, granularity, 0, 0));
    shmpi_cuda_check(routine, "cuMemMap", shmpi_cuda.mem_map(base, size, 0, handle, 0));
    CUmemAccessDesc access = {
        .location = {.type = SHMPI_CU_MEM_LOCATION_TYPE_DEVICE, .id = shmpi_device.ordinal},
        .flags = SHMPI_CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    shmpi_cuda_check(routine, "cuMemSetAccess",
                     shmpi_cuda.mem_set_access(base, size, &access, 1));
    *map = (struct shmpi_vmm_map){.base = base, .size = size, .handle = handle};
}

struct shmpi_vmm_map *shmpi_vmm_map_peers(const char *routine,
                                          const struct shmpi_vmm_card *cards,
                                          const unsigned long long *offsets, char **peer)
{
    int n = shmpi_g.n_pes, me = shmpi_g.my_pe;
    int *fds = shmpi_xmalloc(routine, (size_t)n * sizeof *fds);
    hand_over(routine, cards, fds);
    /* Every PE has its descriptors now: the exporters may close theirs. */
    shmpi_barrier_comm(shmpi_g.comm, NULL);
    if (cards[me].alloc_size)
        close(cards[me].fd);
    struct shmpi_vmm_map *maps = calloc((size_t)n, sizeof *maps);
    if (!maps)
        shmpi_abort(routine, "out of memory");
    for (int pe = 0; pe < n; pe++) {
        if (fds[pe] < 0)
            continue;
        map_one(routine, fds[pe], cards[pe].alloc_size, &maps[pe]);
        peer[pe] = (char *)(uintptr_t)maps[pe].base + offsets[pe];
    }
    free(fds);
    return maps;
}

void shmpi_vmm_unmap(const char *routine, struct shmpi_vmm_map *map)
{
    if (!map->size)
        return;
    shmpi_cuda_check(routine, "cuMemUnmap", shmpi_cuda.mem_unmap(map->base, map->size));
    shmpi_cuda_check(routine, "cuMemAddressFree",
                     shmpi_cuda.mem_address_free(map->base, map->size));
    shmpi_cuda_check(routine, "cuMemRelease", shmpi_cuda.mem_release(map->handle));
    map->size = 0;
}
