/*
 * coll.c - collectives on MPI communicators (see coll.h), and the entry
 * of every collective: a team with shared memory goes to coll_shm.c first.
 *
 * On the MPI path a routine is one MPI collective on the group's
 * communicator, or a few (a collect first gathers the sizes; SHMEM_DEBUG
 * adds checks).  When the team's members fit the CPUs of their machines
 * (not shmpi_team_crowded) they are the blocking forms: MPICH's blocking
 * collectives are several times faster than its nonblocking ones for small
 * messages on one node, and they spin in the progress engine, which also
 * serves RMA aimed at this PE.  For crowded members they are the
 * nonblocking ones waited for by shmpi_wait_request (progress + yield): a
 * spinning blocking collective starves the PEs it waits for
 * (benchmarks/RESULTS.md, "Measurements behind design constants").  Where
 * AMOs are messages (between nodes) they are the nonblocking ones too,
 * waited for spinning while serving them (shmpi_wait_spinning): inside a
 * blocking MPI call nobody but the progress thread would answer an AMO
 * aimed at this PE.  The choice (shmpi_coll_nonblocking) is the same on
 * every member, so all members of a communicator pick the same form, as
 * MPI requires (a blocking and a nonblocking collective never match).  Counts beyond an int use the
 * MPI-4 large-count forms where the MPI library has them, so no transfer
 * is cut into pieces.
 *
 * MPI forbids a send buffer that overlaps the receive buffer; the spec
 * allows some overlaps (a reduction in place, a collect whose source is
 * its own slot of dest), which become MPI_IN_PLACE, and any other one is
 * served from a private copy of the source.
 */
#include "coll.h"
#include "barrier.h"
#include "progress.h"

#include <stdlib.h>
#include <string.h>

/* LARGE(f): the large-count form where MPI has one (for the vector
 * collective, whose count arrays are count_t; see CALL_N for the others). */
#if MPI_VERSION >= 4
typedef MPI_Count count_t;
typedef MPI_Aint displ_t;
#define COUNT_MAX ((size_t)PTRDIFF_MAX)
#define LARGE(f) f##_c
#else
typedef int count_t;
typedef int displ_t;
#define COUNT_MAX ((size_t)INT_MAX)
#define LARGE(f) f
#endif

/* Waits for a collective's request (shmpi_coll_nonblocking): crowded,
 * yielding, and a member that left ends the job; else spinning as MPI's
 * blocking form would, serving AMO messages. */
static void coll_wait(const char *routine, const struct shmpi_group *g, MPI_Request *req)
{
    if (shmpi_team_crowded(g->team)) {
        struct shmpi_waiter needing = {.needs = SHMPI_NEEDS_TEAM, .team = g->team};
        shmpi_wait_request_needing(req, &needing);
        return;
    }
    shmpi_blocking_begin(routine, g->team, false);
    shmpi_wait_spinning(req);
    shmpi_blocking_end();
}

/* Where AMOs are messages, small collectives are point-to-point rounds of
 * their own (coll_p2p.c), up to the sizes at which MPICH's blocking forms
 * use the same rounds; the same on every member. */
static bool p2p_form(size_t nbytes, size_t limit)
{
    return shmpi_amo_by_message() && nbytes <= limit;
}
#define P2P_BCAST_MAX ((size_t)12 * 1024)
#define P2P_REDUCE_MAX ((size_t)2048)
#define P2P_GATHER_MAX ((size_t)64 * 1024) /* all of the PEs' blocks together */
#define P2P_ALLTOALL_BLOCK_MAX ((size_t)256)

/* One collective in the form chosen above: BLOCKING(args...) or
 * NONBLOCKING(args..., &request) and coll_wait. */
#define COLL_RUN(BLOCKING, NONBLOCKING, ...)                                                  \
    do {                                                                                      \
        if (shmpi_coll_nonblocking(g->team)) {                                                \
            MPI_Request coll_req_;                                                            \
            NONBLOCKING(__VA_ARGS__, &coll_req_);                                             \
            coll_wait(routine, g, &coll_req_);                                                \
        } else {                                                                              \
            shmpi_blocking_begin(routine, g->team, false);                                    \
            BLOCKING(__VA_ARGS__);                                                            \
            shmpi_blocking_end();                                                             \
        }                                                                                     \
    } while (0)

/* F(args...) where the arguments name the count `n_`, which is N: the
 * MPI-4 large-count form F_c only when N does not fit in an int, since
 * MPICH's _c entry points cost more per call (benchmarks/RESULTS.md,
 * "Measurements behind design constants"). */
#if MPI_VERSION >= 4
#define CALL_N(N, F, ...)                                                                     \
    do {                                                                                      \
        if ((N) <= INT_MAX) {                                                                 \
            int n_ = (int)(N);                                                                \
            F(__VA_ARGS__);                                                                   \
        } else {                                                                              \
            MPI_Count n_ = (N);                                                               \
            F##_c(__VA_ARGS__);                                                               \
        }                                                                                     \
    } while (0)
#else
#define CALL_N(N, F, ...)                                                                     \
    do {                                                                                      \
        int n_ = (N);                                                                         \
        F(__VA_ARGS__);                                                                       \
    } while (0)
#endif

/* COLL_RUN of a collective with one count N (`n_` in the arguments). */
#define COLL_RUN_N(N, BLOCKING, NONBLOCKING, ...)                                             \
    do {                                                                                      \
        if (shmpi_coll_nonblocking(g->team)) {                                                \
            MPI_Request coll_req_;                                                            \
            CALL_N(N, NONBLOCKING, __VA_ARGS__, &coll_req_);                                  \
            coll_wait(routine, g, &coll_req_);                                                \
        } else {                                                                              \
            shmpi_blocking_begin(routine, g->team, false);                                    \
            CALL_N(N, BLOCKING, __VA_ARGS__);                                                 \
            shmpi_blocking_end();                                                             \
        }                                                                                     \
    } while (0)

static count_t count_of(const char *routine, size_t n)
{
    if (SHMPI_UNLIKELY(n > COUNT_MAX))
        shmpi_abort(routine, "%zu elements are more than MPI can count (%zu)", n, COUNT_MAX);
    return (count_t)n;
}

static size_t mul(const char *routine, size_t a, size_t b)
{
    return shmpi_bytes(routine, a, b);
}

/* Under SHMEM_DEBUG the buffers must be symmetric, as the spec requires
 * (MPI itself would take any local buffer).  Always: not in the device heap
 * (neither MPI nor the shared-memory algorithms may touch GPU memory). */
static inline void debug_symm(const char *routine, const void *addr, size_t len)
{
    if (len > 0 && addr != MPI_IN_PLACE)
        shmpi_device_check_host(routine, addr, "buffer");
    if (SHMPI_UNLIKELY(shmpi_g.env.debug) && len > 0 && addr != MPI_IN_PLACE &&
        shmpi_symm_segment(addr, len) < 0)
        shmpi_symm_fail(routine, addr, len, shmpi_g.my_pe);
}

/* The send buffer of a collective that receives into [dst, dst+dst_len):
 * MPI_IN_PLACE if src is where this PE's own contribution lies in dst
 * (`in_place`, NULL when the collective has no such form), else as
 * shmpi_unaliased(). */
static const void *send_buffer(const char *routine, const void *src, size_t src_len,
                               const void *dst, size_t dst_len, const void *in_place,
                               void **copy)
{
    *copy = NULL;
    if (in_place && src == in_place)
        return MPI_IN_PLACE;
    return shmpi_unaliased(routine, src, src_len, dst, dst_len, copy);
}

/* ---- the collectives ------------------------------------------------------------- */
int shmpi_coll_sync(const struct shmpi_group *g)
{
    /* Stores made before (also into peers' memory) are visible after. */
    atomic_thread_fence(memory_order_seq_cst);
    if (g->comm == shmpi_g.team_world.comm) {
        shmpi_sync_world(shmpi_depart_routine); /* meets in shared memory within each node */
    } else if (!shmpi_shm_sync(g->team)) {
        struct shmpi_waiter needing = {.needs = SHMPI_NEEDS_TEAM, .team = g->team};
        shmpi_barrier_comm(g->comm, &needing);
    }
    return 0;
}

int shmpi_coll_broadcast_any(const char *routine, const struct shmpi_group *g, void *dest,
                             const void *source, size_t nbytes, int root, bool root_dest)
{
    if (root < 0 || root >= g->n_pes)
        shmpi_abort_together(routine, g->my_pe == 0,
                             "PE_root %d is not a PE of the team (0 to %d)", root,
                             g->n_pes - 1);
    if (nbytes == 0)
        return 0;
    if (shmpi_device_coll_staged(dest, source))
        return shmpi_device_coll(routine, g, SHMPI_DEVICE_BROADCAST, dest, source, nbytes, root,
                                 root_dest, MPI_BYTE, MPI_OP_NULL);
    bool is_root = g->my_pe == root;
    debug_symm(routine, dest, nbytes);
    if (is_root)
        debug_symm(routine, source, nbytes);
    if (shmpi_team_has_shm(g->team) &&
        shmpi_shm_broadcast(routine, g->team, dest, source, nbytes, root, root_dest))
        return 0;
    count_t count = count_of(routine, nbytes);
    /* The root sends from source, which MPI only reads, and copies it to
     * dest during or after the broadcast; only if the two overlap does it
     * copy first and send from dest. */
    void *buf = dest;
    bool copy_after = false;
    if (is_root) {
        if (!root_dest || dest == source || !shmpi_overlap(source, nbytes, dest, nbytes)) {
            buf = (void *)source;
            copy_after = root_dest && dest != source;
        } else {
            memmove(dest, source, nbytes);
        }
    }
    /* nbytes and root_dest are the same on every PE, so is the form. */
    if (p2p_form(nbytes, P2P_BCAST_MAX)) {
        shmpi_blocking_begin(routine, g->team, false);
        shmpi_p2p_bcast(g, buf, (int)nbytes, root);
        shmpi_blocking_end();
        if (copy_after)
            memcpy(dest, source, nbytes);
    } else if (shmpi_coll_nonblocking(g->team) ||
               (root_dest && nbytes >= SHMPI_BCAST_OVERLAP_MIN)) {
        MPI_Request req;
        CALL_N(count, MPI_Ibcast, buf, n_, MPI_BYTE, root, g->comm, &req);
        if (copy_after)
            memcpy(dest, source, nbytes); /* MPI may read source meanwhile */
        coll_wait(routine, g, &req);
    } else {
        shmpi_blocking_begin(routine, g->team, false);
        CALL_N(count, MPI_Bcast, buf, n_, MPI_BYTE, root, g->comm);
        shmpi_blocking_end();
        if (copy_after)
            memcpy(dest, source, nbytes);
    }
    return 0;
}

int shmpi_coll_collect(const char *routine, const struct shmpi_group *g, void *dest,
                       const void *source, size_t nbytes)
{
    if (shmpi_device_coll_staged(dest, source))
        return shmpi_device_coll(routine, g, SHMPI_DEVICE_COLLECT, dest, source, nbytes, 0,
                                 false, MPI_BYTE, MPI_OP_NULL);
    if (shmpi_team_has_shm(g->team) && shmpi_shm_collect(routine, g->team, dest, source, nbytes))
        return 0;
    int n = g->n_pes;
    uint64_t mine = nbytes;
    /* Up to COLLECT_STACK_PES members the tables live on the stack: three
     * mallocs were a measurable share of a small collect. */
    enum { COLLECT_STACK_PES = 64 };
    uint64_t sizes_here[COLLECT_STACK_PES];
    count_t counts_here[COLLECT_STACK_PES];
    displ_t displs_here[COLLECT_STACK_PES];
    bool small = n <= COLLECT_STACK_PES;
    uint64_t *sizes = small ? sizes_here : shmpi_xmalloc(routine, (size_t)n * sizeof(uint64_t));
    if (p2p_form((size_t)n * sizeof mine, P2P_GATHER_MAX)) {
        shmpi_blocking_begin(routine, g->team, false);
        shmpi_p2p_allgather(routine, g, &mine, (int)sizeof mine, sizes);
        shmpi_blocking_end();
    } else {
        COLL_RUN(MPI_Allgather, MPI_Iallgather, &mine, 1, MPI_UINT64_T, sizes, 1,
                 MPI_UINT64_T, g->comm);
    }
    count_t *counts = small ? counts_here : shmpi_xmalloc(routine, (size_t)n * sizeof(count_t));
    displ_t *displs = small ? displs_here : shmpi_xmalloc(routine, (size_t)n * sizeof(displ_t));
    size_t total = 0, my_displ = 0;
    for (int i = 0; i < n; i++) {
        counts[i] = count_of(routine, sizes[i]);
        displs[i] = (displ_t)count_of(routine, total);
        if (i == g->my_pe)
            my_displ = total;
        if (__builtin_add_overflow(total, (size_t)sizes[i], &total))
            shmpi_abort(routine, "the collected data is larger than the address space");
    }
    count_of(routine, total);
    debug_symm(routine, source, nbytes);
    debug_symm(routine, dest, total);
    if (total > 0) {
        void *copy;
        const void *send = send_buffer(routine, source, nbytes, dest, total,
                                       (char *)dest + my_displ, &copy);
        if (small && total <= INT_MAX) {
            /* int counts: MPICH's large-count entry points cost more */
            int icounts[COLLECT_STACK_PES], idispls[COLLECT_STACK_PES];
            for (int i = 0; i < n; i++) {
                icounts[i] = (int)counts[i];
                idispls[i] = (int)displs[i];
            }
            COLL_RUN(MPI_Allgatherv, MPI_Iallgatherv, send, icounts[g->my_pe], MPI_BYTE, dest,
                     icounts, idispls, MPI_BYTE, g->comm);
        } else {
            COLL_RUN(LARGE(MPI_Allgatherv), LARGE(MPI_Iallgatherv), send, counts[g->my_pe],
                     MPI_BYTE, dest, counts, displs, MPI_BYTE, g->comm);
        }
        free(copy);
    }
    if (!small) {
        free(sizes);
        free(counts);
        free(displs);
    }
    return 0;
}

/* fcollect (allgather) and alltoall: nbytes per block, one block per PE;
 * the source is one block (fcollect) or n_pes blocks (alltoall). */
static int blocks(const char *routine, const struct shmpi_group *g, void *dest, const void *source,
                  size_t nbytes, bool alltoall)
{
    if (nbytes == 0)
        return 0;
    if (shmpi_device_coll_staged(dest, source))
        return shmpi_device_coll(routine, g,
                                 alltoall ? SHMPI_DEVICE_ALLTOALL : SHMPI_DEVICE_FCOLLECT, dest,
                                 source, nbytes, 0, false, MPI_BYTE, MPI_OP_NULL);
    size_t total = mul(routine, nbytes, (size_t)g->n_pes);
    size_t src_len = alltoall ? total : nbytes;
    debug_symm(routine, source, src_len);
    debug_symm(routine, dest, total);
    if (shmpi_team_has_shm(g->team) &&
        shmpi_shm_blocks(routine, g->team, dest, source, nbytes, alltoall))
        return 0;
    void *copy;
    /* MPI_IN_PLACE means something else for an alltoall. */
    const void *own_slot = alltoall ? NULL : (char *)dest + nbytes * (size_t)g->my_pe;
    const void *send = send_buffer(routine, source, src_len, dest, total, own_slot, &copy);
    count_t count = count_of(routine, nbytes);
    if (p2p_form(total, P2P_GATHER_MAX) && (!alltoall || nbytes <= P2P_ALLTOALL_BLOCK_MAX)) {
        shmpi_blocking_begin(routine, g->team, false);
        if (alltoall)
            shmpi_p2p_alltoall(routine, g, send, (int)nbytes, dest);
        else
            shmpi_p2p_allgather(routine, g, send, (int)nbytes, dest);
        shmpi_blocking_end();
    } else if (alltoall)
        COLL_RUN_N(count, MPI_Alltoall, MPI_Ialltoall, send, n_, MPI_BYTE, dest, n_, MPI_BYTE,
                   g->comm);
    else
        COLL_RUN_N(count, MPI_Allgather, MPI_Iallgather, send, n_, MPI_BYTE, dest, n_,
                   MPI_BYTE, g->comm);
    free(copy);
    return 0;
}

int shmpi_coll_fcollect(const char *routine, const struct shmpi_group *g, void *dest,
                        const void *source, size_t nbytes)
{
    return blocks(routine, g, dest, source, nbytes, false);
}

int shmpi_coll_alltoall(const char *routine, const struct shmpi_group *g, void *dest,
                        const void *source, size_t nbytes)
{
    return blocks(routine, g, dest, source, nbytes, true);
}

/* Bytes from the first to the end of the last of `n` elements `stride` apart. */
static size_t strided_extent(const char *routine, size_t n, size_t stride, size_t elem_size)
{
    return mul(routine, mul(routine, n - 1, stride) + 1, elem_size);
}

/* One block of an alltoalls: nelems elements `stride` elements apart,
 * with an extent of nelems * stride elements so block j starts there. */
static MPI_Datatype strided_block(const char *routine, size_t nelems, ptrdiff_t stride,
                                  size_t elem_size, MPI_Datatype elem)
{
    MPI_Datatype vec, block;
    MPI_Aint step = (MPI_Aint)mul(routine, (size_t)stride, elem_size);
    MPI_Type_create_hvector((int)nelems, 1, step, elem, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)mul(routine, nelems, (size_t)step), &block);
    MPI_Type_commit(&block);
    MPI_Type_free(&vec);
    return block;
}

int shmpi_coll_alltoalls(const char *routine, const struct shmpi_group *g, void *dest,
                         const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                         size_t elem_size)
{
    if (dst < 1 || sst < 1)
        shmpi_abort_together(routine, g->my_pe == 0,
                             "strides dst %td and sst %td must be at least 1", dst, sst);
    if (nelems == 0)
        return 0;
    if (dst == 1 && sst == 1)
        return shmpi_coll_alltoall(routine, g, dest, source, mul(routine, nelems, elem_size));
    if (nelems > INT_MAX || elem_size > INT_MAX)
        shmpi_abort(routine, "%zu elements of %zu bytes are more than MPI can describe",
                    nelems, elem_size);
    size_t all = mul(routine, nelems, (size_t)g->n_pes);
    size_t src_len = strided_extent(routine, all, (size_t)sst, elem_size);
    size_t dst_len = strided_extent(routine, all, (size_t)dst, elem_size);
    debug_symm(routine, source, src_len);
    debug_symm(routine, dest, dst_len);
    if (shmpi_team_has_shm(g->team) &&
        shmpi_shm_alltoalls(routine, g->team, dest, source, dst, sst, nelems, elem_size))
        return 0;
    void *copy = NULL;
    const void *send = shmpi_unaliased(routine, source, src_len, dest, dst_len, &copy);
    MPI_Datatype elem;
    MPI_Type_contiguous((int)elem_size, MPI_BYTE, &elem);
    MPI_Datatype send_type = strided_block(routine, nelems, sst, elem_size, elem);
    MPI_Datatype recv_type = strided_block(routine, nelems, dst, elem_size, elem);
    COLL_RUN(MPI_Alltoall, MPI_Ialltoall, send, 1, send_type, dest, 1, recv_type, g->comm);
    MPI_Type_free(&send_type);
    MPI_Type_free(&recv_type);
    MPI_Type_free(&elem);
    free(copy);
    return 0;
}

enum reduction { ALLREDUCE, SCAN, EXSCAN };

/* Reductions and scans: dest == source is in place, any other overlap is
 * served from a copy. */
__attribute__((noinline)) static int reduction(const char *routine, const struct shmpi_group *g,
                                               void *dest, const void *source, size_t nelems,
                                               size_t elem_size, MPI_Datatype type, MPI_Op op,
                                               enum reduction kind)
{
    if (nelems == 0)
        return 0;
    size_t nbytes = mul(routine, nelems, elem_size);
    if (shmpi_device_coll_staged(dest, source))
        return shmpi_device_coll(routine, g,
                                 kind == ALLREDUCE ? SHMPI_DEVICE_REDUCE
                                 : kind == SCAN    ? SHMPI_DEVICE_SCAN
                                                   : SHMPI_DEVICE_EXSCAN,
                                 dest, source, nbytes, 0, false, type, op);
    debug_symm(routine, source, nbytes);
    debug_symm(routine, dest, nbytes);
    if (shmpi_team_has_shm(g->team) &&
        (kind == ALLREDUCE
             ? shmpi_shm_reduce(routine, g->team, dest, source, nelems, elem_size, type, op)
             : shmpi_shm_scan(routine, g->team, dest, source, nelems, elem_size, type, op,
                              kind == EXSCAN)))
        return 0;
    void *copy;
    const void *send = send_buffer(routine, source, nbytes, dest, nbytes, dest, &copy);
    count_t count = count_of(routine, nelems);
    switch (kind) {
    case ALLREDUCE:
        if (p2p_form(nbytes, P2P_REDUCE_MAX)) {
            shmpi_blocking_begin(routine, g->team, false);
            shmpi_p2p_allreduce(routine, g, send, dest, (int)nelems, type, op);
            shmpi_blocking_end();
        } else {
            COLL_RUN_N(count, MPI_Allreduce, MPI_Iallreduce, send, dest, n_, type, op,
                       g->comm);
        }
        break;
    case SCAN:
        COLL_RUN_N(count, MPI_Scan, MPI_Iscan, send, dest, n_, type, op, g->comm);
        break;
    case EXSCAN:
        COLL_RUN_N(count, MPI_Exscan, MPI_Iexscan, send, dest, n_, type, op, g->comm);
        /* MPI leaves rank 0's receive buffer of an exscan undefined; the
         * spec has the identity of the sum there (all zero bytes is 0 of
         * every integer, floating and complex type). */
        if (g->my_pe == 0)
            memset(dest, 0, nbytes);
        break;
    }
    free(copy);
    return 0;
}

int shmpi_coll_reduce(const char *routine, const struct shmpi_group *g, void *dest,
                      const void *source, size_t nelems, size_t elem_size, MPI_Datatype type,
                      MPI_Op op)
{
    /* The common MPI-path case in few instructions, as for broadcast. */
    bool plain = nelems > 0 && nelems <= INT_MAX && shmpi_mpi_short_path(g) &&
                 !shmpi_team_has_shm(g->team);
    if (plain && (dest == source ||
                  !shmpi_overlap(source, nelems * elem_size, dest, nelems * elem_size))) {
        shmpi_blocking_begin(routine, g->team, false);
        int status = MPI_Allreduce(dest == source ? MPI_IN_PLACE : source, dest, (int)nelems,
                                   type, op, g->comm);
        shmpi_blocking_end();
        return status;
    }
    return reduction(routine, g, dest, source, nelems, elem_size, type, op, ALLREDUCE);
}

int shmpi_coll_scan(const char *routine, const struct shmpi_group *g, void *dest,
                    const void *source, size_t nelems, size_t elem_size, MPI_Datatype type,
                    MPI_Op op, bool exclusive)
{
    return reduction(routine, g, dest, source, nelems, elem_size, type, op,
                     exclusive ? EXSCAN : SCAN);
}
