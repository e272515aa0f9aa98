/*
 * amo.c - the atomic core: the one atomic memory operation of shmpi, and
 * put-with-signal.  Below it, bottom to top: one word's update
 * (amo_word.c), AMOs as messages (amo_message.c), the deferred queue
 * (amo_deferred.c) and SHMPI_AMO_OPS (amo_ops.c).
 *
 * Every AMO routine of the API (all types, ctx and deprecated forms, nbi
 * forms, signal updates, lock words) is a call to shmpi_amo() on a 4- or
 * 8-byte word.  Atomicity has to hold among all AMOs any PE issues on one
 * word (OpenSHMEM 1.5 section 9.8: AMOs are atomic with respect to other
 * AMOs on the same object), so all PEs must update a given word by the
 * same mechanism.  Two mechanisms exist, and the choice depends only on the
 * word and the job, never on which PE asks:
 *
 * 1. CPU atomics (C11 <stdatomic.h>), when the word's segment (heap or
 *    static data) of every PE is mapped into every process
 *    (shmpi_amo_by_cpu(segment), shape.h: the job is one shared-memory
 *    node, neither SHMPI_MPI_ONLY nor SHMPI_PSEUDO_NODE_SIZE is set, and for
 *    static data SHMPI_SHARE_STATIC is not 0).  Then every PE, the owner
 *    included, reaches the word with the same lock-free instructions on
 *    the same physical memory.  Float arithmetic uses a compare-exchange
 *    loop.
 *
 * 2. MPI, for everything else: a segment that some PE reaches only through
 *    MPI (so a CPU atomic of its owner would not be atomic with theirs),
 *    heaps of other nodes, and any job where some segment is not mapped
 *    everywhere.  MPI guarantees atomicity only between concurrent
 *    accumulate operations that use the same operation or MPI_NO_OP and
 *    the same basic datatype (MPI-3.1 section 11.7.1 "Atomicity", and the
 *    info key accumulate_ops=same_op_no_op, section 11.2.1; MPI_Fetch_and_op
 *    and MPI_Compare_and_swap are accumulate operations, 11.3.4).  So an
 *    MPI AMO uses exactly two calls, always on the unsigned integer type of
 *    the word's size (floats travel as their bit patterns):
 *      - read:   MPI_Fetch_and_op(MPI_NO_OP),
 *      - update: MPI_Compare_and_swap; fetch_add, and/or/xor, swap and set
 *        compute the new value locally with the C type from the value the
 *        word had when this PE last saw it (read first if it never did),
 *        and retry the compare-and-swap from the value it returns until
 *        the word had not changed.
 *    The target PE itself goes through MPI too.  In a blocking AMO each call
 *    is followed by MPI_Win_flush to the target, so it is complete when it
 *    returns.  (When waits must yield, flush.c: the read is
 *    MPI_Rget_accumulate(MPI_NO_OP), waited on, and the flush after a
 *    compare-and-swap is preceded by such a read of the same word;
 *    MPI_NO_OP keeps both within same_op_no_op.)  Non-fetching and _nbi
 *    AMOs, which need only be complete at the next quiet, may instead wait
 *    in a queue until then (amo_deferred.c), with the same two calls.  The
 *    window is created with which_accumulate_ops=cswap,no_op
 *    (src/shape/mpi_rma.c).
 *
 *    A program that declares with SHMPI_AMO_OPS that its AMO routines make
 *    one kind of update only (add, and, or, xor, or set/swap), besides
 *    fetches, gets MPI's own op for it instead ("direct", amo_ops.c): no
 *    word then sees two kinds of update, so same_op_no_op still holds.
 */
#include "amo.h"
#include "device_heap.h"
#include "device_reach.h"
#include "stream.h"

#include <string.h>

/* One update with MPI's own op, complete at the target. */
static uint64_t mpi_direct(const struct shmpi_mpi_word *w, uint64_t operand)
{
    uint64_t operand_buf, result = 0;
    shmpi_amo_store_bits(&operand_buf, operand, w->size);
    shmpi_rma_fetch_and_op(&operand_buf, &result, w->type, w->pe, w->disp,
                           shmpi_amo_direct_mpi_op);
    shmpi_flush_word(w->pe, w->disp, w->type);
    return shmpi_amo_load_bits(&result, w->size);
}

/* ---- the entry points ------------------------------------------------------------------- */
/* from_api: called by an AMO routine of the program, which SHMPI_AMO_OPS
 * governs (not by a lock or signal routine). */
static void amo(const char *routine, shmem_ctx_t handle, enum shmpi_amo_op op,
                enum shmpi_amo_type type, void *dest, const void *operand, const void *compare,
                void *fetched, int pe, bool may_defer, bool from_api)
{
    shmpi_check_ready(routine);
    if (SHMPI_UNLIKELY(from_api && !(shmpi_g.env.amo_ops & (1u << op))))
        shmpi_amo_undeclared(routine, op);
    struct shmpi_ctx *ctx = shmpi_ctx_of(routine, handle);
    int world_pe = shmpi_team_world_pe(routine, ctx->team, pe);
    size_t size = shmpi_amo_type_size(type);
    struct shmpi_target t = shmpi_symm_target(routine, dest, size, world_pe);
    if (SHMPI_UNLIKELY((uintptr_t)dest & (size - 1)))
        shmpi_abort(routine, "address %p is not aligned to the %zu-byte size of its type",
                    dest, size);
    uint64_t operand_bits = operand ? shmpi_amo_load_bits(operand, size) : 0;
    uint64_t compare_bits = compare ? shmpi_amo_load_bits(compare, size) : 0;

    uint64_t old;
    /* The CPU atomics inline here: this is every on-node AMO's path. */
    if (t.mapped && (shmpi_amo_by_cpu(shmpi_symm_segment(dest, size)) || shmpi_amo_by_message())) {
        old = size == 4 ? cpu_amo32(op, type, t.mapped, operand_bits, compare_bits)
                        : cpu_amo64(op, type, t.mapped, operand_bits, compare_bits);
    } else if (shmpi_amo_by_message()) {
        int segment = shmpi_symm_segment(dest, size);
        /* What need only be complete at the next quiet does not wait for the
         * owner's answer. */
        old = shmpi_amo_message(op, type, segment,
                                (size_t)((char *)dest - shmpi_g.seg[segment].base), world_pe,
                                operand_bits, compare_bits,
                                may_defer ? SHMPI_ANSWER_AT_QUIET : SHMPI_ANSWER_NOW, fetched);
        if (may_defer)
            return; /* *fetched is written by the quiet */
    } else {
        struct shmpi_mpi_word w = {size == 4 ? MPI_UINT32_T : MPI_UINT64_T, size, world_pe, t.disp};
        bool direct = from_api && (shmpi_amo_direct_ops & (1u << op));
        if (may_defer && shmpi_amo_deferrable(op, type, direct)) {
            shmpi_amo_defer(op, type, &w, operand_bits, fetched, direct);
            return;
        }
        shmpi_amo_drain(true); /* this thread's earlier AMOs come first */
        /* what a wait for the target shows, unless a caller (a lock) named itself */
        bool named = !shmpi_mpi_wait_routine;
        if (named)
            shmpi_mpi_wait_routine = shmpi_amo_wait_name[op];
        old = direct ? mpi_direct(&w, operand_bits)
                     : shmpi_amo_mpi(op, type, &w, operand_bits, compare_bits);
        if (named)
            shmpi_mpi_wait_routine = NULL;
    }
    if (fetched)
        shmpi_amo_store_bits(fetched, old, size);
}

void shmpi_amo(const char *routine, shmem_ctx_t ctx, enum shmpi_amo_op op,
               enum shmpi_amo_type type, void *dest, const void *operand, const void *compare,
               void *fetched, int pe)
{
    amo(routine, ctx, op, type, dest, operand, compare, fetched, pe, false, false);
}

void shmpi_amo_nbi(const char *routine, shmem_ctx_t ctx, enum shmpi_amo_op op,
                   enum shmpi_amo_type type, void *dest, const void *operand,
                   const void *compare, void *fetched, int pe)
{
    amo(routine, ctx, op, type, dest, operand, compare, fetched, pe, true, false);
}

void shmpi_amo_routine(const char *routine, shmem_ctx_t ctx, enum shmpi_amo_op op,
                       enum shmpi_amo_type type, void *dest, const void *operand,
                       const void *compare, void *fetched, int pe)
{
    amo(routine, ctx, op, type, dest, operand, compare, fetched, pe, false, true);
}

void shmpi_amo_routine_nbi(const char *routine, shmem_ctx_t ctx, enum shmpi_amo_op op,
                           enum shmpi_amo_type type, void *dest, const void *operand,
                           const void *compare, void *fetched, int pe)
{
    amo(routine, ctx, op, type, dest, operand, compare, fetched, pe, true, true);
}

/* ---- put with signal ------------------------------------------------------------------- */
void shmpi_put_signal(const char *routine, shmem_ctx_t handle, void *dest, const void *source,
                      size_t nbytes, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
    shmpi_check_ready(routine);
    if (SHMPI_UNLIKELY(sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD))
        shmpi_abort(routine,
                    "sig_op %d is not SHMEM_SIGNAL_SET (%d) nor SHMEM_SIGNAL_ADD (%d)", sig_op,
                    SHMEM_SIGNAL_SET, SHMEM_SIGNAL_ADD);
    struct shmpi_ctx *ctx = shmpi_ctx_of(routine, handle);
    int world_pe = shmpi_team_world_pe(routine, ctx->team, pe);
    if (shmpi_device_word(sig_addr, sizeof(uint64_t))) { /* through the driver, after the data */
        shmpi_put(routine, handle, dest, source, nbytes, pe, SHMPI_BLOCKING);
        /* Data in device memory is ordered before the signal (a synchronized
         * copy, or the target's server taking messages in order); host
         * memory reached through MPI is flushed first. */
        if (nbytes > 0 && !shmpi_device_word(dest, nbytes) &&
            !shmpi_symm_target(routine, dest, nbytes, world_pe).mapped)
            shmpi_flush(world_pe);
        shmpi_device_word_signal(routine, sig_addr, signal, sig_op, world_pe);
        return;
    }
    /* Check the signal address before any data moves. */
    (void)shmpi_symm_target(routine, sig_addr, sizeof(uint64_t), world_pe);

    shmpi_put(routine, handle, dest, source, nbytes, pe, SHMPI_NBI);
    /* The data must be complete at the target before the signal changes:
     * an MPI put is flushed, a CPU copy is ordered by the fence. */
    if (nbytes > 0 && shmpi_device_word(dest, nbytes))
        shmpi_device_quiet(); /* the copy into device memory, or its server's answer */
    else if (nbytes > 0 && !shmpi_symm_target(routine, dest, nbytes, world_pe).mapped)
        shmpi_flush(world_pe);
    atomic_thread_fence(memory_order_release);
    shmpi_amo(routine, handle, sig_op == SHMEM_SIGNAL_SET ? SHMPI_AMO_SET : SHMPI_AMO_ADD,
              SHMPI_AMO_UINT64, sig_addr, &signal, NULL, NULL, pe);
}

