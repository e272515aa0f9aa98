/*
 * rma.c - puts, gets and their completion.  Every typed RMA routine of the
 * API is a call to one of these with a byte count.
 *
 * Route: if the target's segment is mapped here (shmpi_symm_target gives
 * its mapped address: this PE, or a segment of the same node), the data is
 * copied by the CPU; otherwise it is an MPI_Put or MPI_Get on the window
 * (mpi_rma.h).  Completion follows the spec and no more:
 * blocking put = the source is reusable (a small one is copied to a staging
 * ring, a larger one waits for MPI_Win_flush_local), blocking get
 * = the data arrived (MPI_Win_flush), nbi = nothing until quiet, and quiet
 * = one MPI_Win_flush_all, only if an MPI operation is outstanding.  When
 * waits must yield (flush.c), blocking transfers use MPI_Rput/MPI_Rget and
 * wait on the request instead, and quiet probes before flushing.  Strided
 * transfers always wait on a request: one code path, and a derived-datatype
 * transfer costs far more than the request does.
 */
#include "rma.h"
#include "amo_deferred.h"
#include "amo_message.h"
#include "copy.h"
#include "device_heap.h"
#include "device_reach.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* MPI counts are int: larger transfers go in pieces of this many bytes. */
#define MPI_CHUNK ((size_t)1 << 30)

/* A CPU copy to or from a mapped segment: each byte stored once (copy.h),
 * so a flag the target resets after seeing it stays reset; memmove only
 * for a transfer to self whose two sides overlap. */
static SHMPI_ALWAYS_INLINE void mapped_copy(void *to, const void *from, size_t nbytes)
{
    uintptr_t t = (uintptr_t)to, f = (uintptr_t)from;
    if (SHMPI_UNLIKELY(t < f + nbytes && f < t + nbytes))
        memmove(to, from, nbytes);
    else
        shmpi_copy_once(to, from, nbytes);
}

/* ---- staged puts --------------------------------------------------------------------
 * A blocking put need only leave its source reusable, and MPI_Win_flush_local,
 * which says so, costs a round trip on a dynamic window with MPICH ch4:ucx
 * (a put rate of 40-56k/s across nodes, against 93-107k/s for puts
 * completed together: benchmarks/RESULTS.md).  So a blocking MPI put of up
 * to STAGED_PUT_MAX bytes copies its source into a staging ring and puts
 * from there: the caller's source is free at once, and the ring's bytes
 * stay untouched until MPI completes the put.  That is at the next quiet
 * (MPI_Win_flush_all), or when the ring is full, one MPI_Win_flush_local_all
 * for all the puts in it.  Larger puts wait as before: copying them costs
 * more than the round trip saves, and MPI sends them by rendezvous. */
#define STAGED_PUT_MAX 4096
/* How many transfers to mapped memory between two entries into MPI (below). */
#define MAPPED_OPS_PER_PROGRESS 64
#define STAGING_BYTES ((size_t)1 << 20)
#define STAGING_ALIGN 64
static char *staging;
static size_t staging_used;
static atomic_ulong staged_puts;  /* puts staged so far (a quiet frees the ring if
                                     none came during its flush) */
static pthread_mutex_t staging_lock = PTHREAD_MUTEX_INITIALIZER;

static void staged_put(const char *routine, const void *source, int len, int pe, MPI_Aint disp)
{
    shmpi_mt_lock(&staging_lock);
    if (SHMPI_UNLIKELY(!staging))
        staging = shmpi_xmalloc(routine, STAGING_BYTES);
    size_t need = ((size_t)len + STAGING_ALIGN - 1) & ~(size_t)(STAGING_ALIGN - 1);
    if (staging_used + need > STAGING_BYTES) {
        /* Every put from the ring is complete here, so all of it is free. */
        if (shmpi_g.yield_waits)
            shmpi_flush_all();
        else
            shmpi_rma_flush_local_all();
        staging_used = 0;
    }
    char *copy = staging + staging_used;
    staging_used += need;
    memcpy(copy, source, (size_t)len);
    shmpi_rma_put(copy, len, MPI_BYTE, pe, disp, len, MPI_BYTE);
    atomic_fetch_add_explicit(&staged_puts, 1, memory_order_relaxed);
    shmpi_mt_unlock(&staging_lock);
}

/* MPI_Win_flush_all runs around this: the ring is free if no put was
 * staged since `before` (read before the flush). */
static void staging_flushed(unsigned long before)
{
    shmpi_mt_lock(&staging_lock);
    if (atomic_load_explicit(&staged_puts, memory_order_relaxed) == before)
        staging_used = 0;
    shmpi_mt_unlock(&staging_lock);
}

/* A put or get whose local buffer is in the device heap and whose remote
 * one is host memory: staged through a host buffer, blocking. */
static void device_staged(const char *routine, shmem_ctx_t ctx, bool is_put, void *dest,
                          const void *source, size_t nbytes, int pe)
{
    char *bounce = shmpi_xmalloc(routine, nbytes);
    if (is_put) {
        shmpi_device_copy(routine, bounce, source, nbytes);
        shmpi_put(routine, ctx, dest, bounce, nbytes, pe, SHMPI_BLOCKING);
    } else {
        shmpi_get(routine, ctx, bounce, source, nbytes, pe, SHMPI_BLOCKING);
        shmpi_device_copy(routine, dest, bounce, nbytes);
    }
    free(bounce);
}

/* One contiguous put or get: a CPU copy when the target is mapped here,
 * else MPI_Put/MPI_Get in pieces MPI can count, completed as the spec asks
 * of the routine (see the top of this file). */
static SHMPI_ALWAYS_INLINE void contiguous(const char *routine, shmem_ctx_t handle,
                                           bool is_put, void *dest, const void *source,
                                           size_t nbytes, int pe,
                                           enum shmpi_completion completion)
{
    shmpi_check_ready(routine);
    struct shmpi_ctx *ctx = shmpi_ctx_of(routine, handle);
    int world_pe = shmpi_team_world_pe(routine, ctx->team, pe);
    if (SHMPI_UNLIKELY(nbytes == 0))
        return;
    const void *remote = is_put ? dest : source;
    int s = shmpi_symm_segment(remote, nbytes);
    if (SHMPI_UNLIKELY(s < 0)) { /* the device heap, or not symmetric */
        shmpi_device_contiguous(routine, ctx, is_put, dest, source, nbytes, world_pe,
                                completion);
        return;
    }
    if (SHMPI_UNLIKELY(shmpi_device_holds(is_put ? source : dest, nbytes))) {
        device_staged(routine, handle, is_put, dest, source, nbytes, pe);
        return;
    }
    struct shmpi_target t = shmpi_segment_target(s, remote, world_pe);
    if (t.mapped) {
        if (is_put)
            mapped_copy(t.mapped, source, nbytes);
        else
            mapped_copy(dest, t.mapped, nbytes);
        /* A PE that polls with transfers that stay on its node (its own
         * memory, say) never entered MPI, so the MPI operations other PEs
         * aimed at it never completed: the Mellanox verifier's
         * atomic_lock_stress livelocked at 3 PEs with SHMPI_MPI_ONLY=1 and on
         * emulated nodes.  Every MAPPED_OPS_PER_PROGRESS such transfers enter
         * MPI once, where some memory is reached only through MPI. */
        static _Thread_local unsigned mapped_ops;
        if (SHMPI_UNLIKELY(!shmpi_job_all_mapped()) && ++mapped_ops % MAPPED_OPS_PER_PROGRESS == 0)
            shmpi_progress();
        return;
    }
    if (is_put && completion == SHMPI_BLOCKING && nbytes <= STAGED_PUT_MAX) {
        staged_put(routine, source, (int)nbytes, world_pe, t.disp);
        shmpi_mark_pending(ctx, world_pe);
        return;
    }
    /* Yield mode: a blocking transfer waits on its own request, yielding. */
    bool by_request = completion == SHMPI_BLOCKING && shmpi_g.yield_waits;
    for (size_t done = 0; done < nbytes; done += MPI_CHUNK) {
        int len = (int)(nbytes - done < MPI_CHUNK ? nbytes - done : MPI_CHUNK);
        MPI_Aint disp = t.disp + (MPI_Aint)done;
        const char *from = (const char *)source + done;
        char *to = (char *)dest + done;
        MPI_Request req;
        if (is_put && by_request)
            shmpi_rma_rput(from, len, MPI_BYTE, world_pe, disp, len, MPI_BYTE, &req);
        else if (is_put)
            shmpi_rma_put(from, len, MPI_BYTE, world_pe, disp, len, MPI_BYTE);
        else if (by_request)
            shmpi_rma_rget(to, len, MPI_BYTE, world_pe, disp, len, MPI_BYTE, &req);
        else
            shmpi_rma_get(to, len, MPI_BYTE, world_pe, disp, len, MPI_BYTE);
        if (by_request) { /* a wait that lasts names the PE (shmpi_info --waits) */
            const struct shmpi_waiter awaiting = {
                .needs = SHMPI_NEEDS_PE, .pe = world_pe, .waits_in = SHMPI_WAITS_FOR_MPI,
                .routine = is_put ? "a put through MPI" : "a get through MPI"};
            shmpi_wait_request_needing(&req, &awaiting);
        }
    }
    if (completion == SHMPI_NBI || is_put)
        shmpi_mark_pending(ctx, world_pe);
    if (completion == SHMPI_BLOCKING && !by_request) {
        if (is_put)
            shmpi_rma_flush_local(world_pe);
        else
            shmpi_rma_flush(world_pe);
    }
}

void shmpi_put(const char *routine, shmem_ctx_t handle, void *dest, const void *source,
               size_t nbytes, int pe, enum shmpi_completion completion)
{
    contiguous(routine, handle, true, dest, source, nbytes, pe, completion);
}

void shmpi_get(const char *routine, shmem_ctx_t handle, void *dest, const void *source,
               size_t nbytes, int pe, enum shmpi_completion completion)
{
    contiguous(routine, handle, false, dest, source, nbytes, pe, completion);
}

/* ---- strided: blocks of elements at a stride ------------------------------------
 * iput/iget move single elements, ibput/ibget (1.6) blocks of bsize
 * elements; both are "nblocks blocks of `block` bytes, the k-th at
 * base + k * stride * elem_size" on each side. */
struct strided_side {
    char *first;       /* address of block 0 */
    char *lowest;      /* lowest byte touched */
    size_t extent;     /* bytes from lowest to the end of the highest block */
    ptrdiff_t step;    /* bytes between consecutive blocks */
};

static struct strided_side strided_side(const char *routine, const char *what, const void *base,
                                        ptrdiff_t stride, size_t nblocks, size_t elem_size,
                                        size_t block)
{
    struct strided_side side = {(char *)base, (char *)base, block, 0};
    ptrdiff_t step, span;
    if (SHMPI_UNLIKELY(nblocks > PTRDIFF_MAX ||
                       __builtin_mul_overflow(stride, (ptrdiff_t)elem_size, &step) ||
                       __builtin_mul_overflow(step, (ptrdiff_t)(nblocks - 1), &span) ||
                       (size_t)(span < 0 ? -span : span) > SIZE_MAX - block))
        shmpi_abort(routine, "%s stride %td over %zu blocks of %zu bytes overflows", what,
                    stride, nblocks, block);
    side.step = step;
    if (span < 0)
        side.lowest = (char *)base + span;
    side.extent = (size_t)(span < 0 ? -span : span) + block;
    return side;
}

static void strided_copy(const struct strided_side *to, const struct strided_side *from,
                         size_t nblocks, size_t block)
{
    for (size_t i = 0; i < nblocks; i++)
        mapped_copy(to->first + (ptrdiff_t)i * to->step, from->first + (ptrdiff_t)i * from->step,
                    block);
}

/* A vector datatype for one side of a strided transfer. */
static MPI_Datatype strided_type(const struct strided_side *side, size_t nblocks,
                                 MPI_Datatype block)
{
    MPI_Datatype type;
    MPI_Type_create_hvector((int)nblocks, 1, side->step, block, &type);
    MPI_Type_commit(&type);
    return type;
}

static void strided(const char *routine, shmem_ctx_t handle, bool is_put, void *dest,
                    const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,
                    size_t nblocks, size_t elem_size, int pe)
{
    shmpi_check_ready(routine);
    struct shmpi_ctx *ctx = shmpi_ctx_of(routine, handle);
    int world_pe = shmpi_team_world_pe(routine, ctx->team, pe);
    if (nblocks == 0 || bsize == 0)
        return;
    size_t block = shmpi_bytes(routine, bsize, elem_size);
    struct strided_side to = strided_side(routine, "dst", dest, dst, nblocks, elem_size, block);
    struct strided_side from =
        strided_side(routine, "sst", source, sst, nblocks, elem_size, block);
    struct strided_side *remote = is_put ? &to : &from;
    struct strided_side *local = is_put ? &from : &to;
    int s = shmpi_symm_segment(remote->lowest, remote->extent);
    if (SHMPI_UNLIKELY(s < 0)) { /* the device heap, or not symmetric */
        shmpi_device_strided(routine, is_put, to.first, to.step, from.first, from.step, nblocks,
                             block, remote->lowest, remote->extent, world_pe);
        return;
    }
    if (SHMPI_UNLIKELY(shmpi_device_holds(local->lowest, local->extent)))
        shmpi_device_refuse(routine, local->lowest, "the local buffer of a strided transfer to host memory");
    struct shmpi_target t = shmpi_segment_target(s, remote->lowest, world_pe);
    if (t.mapped) {
        remote->first = t.mapped + (remote->first - remote->lowest);
        strided_copy(&to, &from, nblocks, block);
        return;
    }
    /* Blocks that land on one target address (stride 0) would be an MPI
     * overlap; sequentially only the last one survives, so send just it. */
    if (is_put && dst == 0) {
        from.first += (ptrdiff_t)(nblocks - 1) * from.step;
        nblocks = 1;
    }
    if (nblocks > INT_MAX || block > INT_MAX)
        shmpi_abort(routine, "%zu blocks of %zu bytes are more than MPI can describe (%d)",
                    nblocks, block, INT_MAX);
    MPI_Aint target_disp = t.disp + (remote->first - remote->lowest);
    MPI_Datatype block_type;
    MPI_Type_contiguous((int)block, MPI_BYTE, &block_type);
    MPI_Datatype to_type = strided_type(&to, nblocks, block_type);
    MPI_Datatype from_type = strided_type(&from, nblocks, block_type);
    MPI_Request req;
    if (is_put) {
        shmpi_rma_rput(from.first, 1, from_type, world_pe, target_disp, 1, to_type, &req);
        shmpi_mark_pending(ctx, world_pe);
    } else {
        shmpi_rma_rget(to.first, 1, to_type, world_pe, target_disp, 1, from_type, &req);
    }
    /* Put: the source is reusable; get: the data arrived. */
    shmpi_wait_request(&req);
    MPI_Type_free(&to_type);
    MPI_Type_free(&from_type);
    MPI_Type_free(&block_type);
}

void shmpi_iput(const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
                ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, size_t elem_size,
                int pe)
{
    strided(routine, ctx, true, dest, source, dst, sst, bsize, nblocks, elem_size, pe);
}

void shmpi_iget(const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
                ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, size_t elem_size,
                int pe)
{
    strided(routine, ctx, false, dest, source, dst, sst, bsize, nblocks, elem_size, pe);
}

/* ---- completion ------------------------------------------------------------------------
 * A quiet takes a context's mark (mpi_pending) and then flushes.  Under
 * SHMEM_THREAD_MULTIPLE one quiet at a time does both (flush_mutex, held
 * over the flush): a thread whose mark another thread's quiet took waits
 * until that flush has completed its operations, instead of finding the
 * mark clear and returning at once.  (An operation marks its context
 * after it is issued, so a flush that follows the taking covers it.) */
static pthread_mutex_t flush_mutex = PTHREAD_MUTEX_INITIALIZER;

/* What every quiet completes first: the device heap's copies, the deferred
 * AMOs, the AMO messages, and the stores to mapped peers. */
static void quiet_common(void)
{
    shmpi_device_quiet();
    shmpi_amo_drain(true);
    shmpi_amo_message_quiet();
    /* Copies into peers' memory are plain stores: order them first. */
    atomic_thread_fence(memory_order_seq_cst);
}

/* Flushes every target if *mark was set, clearing it (and `also`). */
static void flush_marked(atomic_int *mark, atomic_int *also)
{
    shmpi_mt_lock(&flush_mutex);
    if (atomic_exchange_explicit(mark, 0, memory_order_acq_rel)) {
        if (also)
            atomic_store(also, 0);
        unsigned long staged = atomic_load_explicit(&staged_puts, memory_order_relaxed);
        shmpi_flush_all();
        staging_flushed(staged);
    }
    shmpi_mt_unlock(&flush_mutex);
}

void shmpi_quiet(struct shmpi_ctx *ctx)
{
    quiet_common();
    flush_marked(&ctx->mpi_pending, NULL);
}

void shmpi_quiet_all(void)
{
    quiet_common();
    flush_marked(&shmpi_g.mpi_pending_any, &shmpi_g.ctx_default.mpi_pending);
}

void shmpi_pe_quiet(const char *routine, struct shmpi_ctx *ctx, const int *target_pes,
                    size_t npes)
{
    quiet_common(); /* every PE's AMO messages, a superset */
    shmpi_mt_lock(&flush_mutex);
    /* Only the listed PEs: the context stays marked for a later quiet. */
    if (atomic_load_explicit(&ctx->mpi_pending, memory_order_acquire))
        for (size_t i = 0; i < npes; i++)
            shmpi_flush(shmpi_team_world_pe(routine, ctx->team, target_pes[i]));
    shmpi_mt_unlock(&flush_mutex);
}
