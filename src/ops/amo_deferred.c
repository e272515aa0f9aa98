/*
 * amo_deferred.c - the deferred AMOs: a queue of MPI AMOs that need only be
 * complete at the next quiet.
 *
 * A non-fetching AMO, or a fetching one with _nbi, need only be complete at
 * the next quiet (OpenSHMEM 1.5 sections 9.8 and 9.9.1), and raw MPI issues
 * such accumulates back to back.  On the MPI path a deferrable add (integer),
 * and, or, xor or fetch is issued without a flush and queued:
 *   - add/and/or/xor as a compare-and-swap from the guessed value (the
 *     hint, chained: each queued update moves the hint on).  Whenever it
 *     succeeded it was exactly op(operand) applied atomically, whatever
 *     happened to the word before; one that failed changed nothing and is
 *     redone, blocking, when the queue drains.  These ops commute with
 *     themselves, and a word's queued ops are all of one kind (an op of
 *     another kind drains the queue first), so redoing a failed one after
 *     later ones succeeded gives the same result;
 *   - fetch as MPI_Get_accumulate(MPI_NO_OP).
 * The queue drains (flush, then the results: the fetched values written,
 * the failed updates redone) at quiet, fence and barriers, in every
 * waiting loop (so a PE that waits still completes its own updates), before
 * any blocking AMO, and when full.  One queue per process (locked only
 * under SHMEM_THREAD_MULTIPLE, see queue_lock).
 * The window asks for no accumulate ordering, and none is needed: a
 * compare-and-swap of the chain that reaches the word out of order finds
 * another value, fails and is redone.
 */
#include "amo_deferred.h"
#include "flush.h"
#include "mpi_rma.h"

#include <pthread.h>

#define DEFERRED_MAX 64

struct deferred {
    struct shmpi_mpi_word w;
    enum shmpi_amo_op op;
    enum shmpi_amo_type type;
    uint64_t operand;
    uint64_t guess;       /* the value the compare-and-swap expects */
    /* MPI's buffers, untouched until the flush: */
    uint64_t compare_buf, value_buf, result_buf;
    void *fetched;        /* where the old value goes, or NULL */
    bool direct;          /* MPI's own op (SHMPI_AMO_OPS): final, never redone */
};

static struct deferred deferred[DEFERRED_MAX];
static int n_deferred;
static unsigned deferred_ops; /* bit 1 << op of each op queued: one bit set, no conflict */
static int deferred_pe;       /* the PE of every queued op, or -1 if they differ */

/* The queue's lock.  Only SHMEM_THREAD_MULTIPLE needs the mutex (it costs a
 * noticeable share of a queued add on the MPI path: benchmarks/RESULTS.md,
 * "Measurements behind design constants"); below it one thread at a time calls
 * shmpi, and the flag only stops a waiting loop inside a drain from
 * draining again (the progress thread never touches the queue). */
static pthread_mutex_t deferred_mutex = PTHREAD_MUTEX_INITIALIZER;
static bool deferred_held;

static bool queue_lock(bool wait)
{
    if (shmpi_g.thread_level == SHMEM_THREAD_MULTIPLE)
        return wait ? pthread_mutex_lock(&deferred_mutex) == 0
                    : pthread_mutex_trylock(&deferred_mutex) == 0;
    if (deferred_held)
        return false;
    deferred_held = true;
    return true;
}

static void queue_unlock(void)
{
    if (shmpi_g.thread_level == SHMEM_THREAD_MULTIPLE)
        pthread_mutex_unlock(&deferred_mutex);
    else
        deferred_held = false;
}

static bool same_word(const struct shmpi_mpi_word *a, const struct shmpi_mpi_word *b)
{
    return a->pe == b->pe && a->disp == b->disp;
}

/* Completes the queue; deferred_lock is held. */
static void drain_locked(void)
{
    if (n_deferred == 0)
        return;
    if (deferred_pe >= 0) {
        shmpi_flush(deferred_pe);
    } else {
        for (int i = 0; i < n_deferred; i++) {
            bool flushed = false;
            for (int j = 0; j < i && !flushed; j++)
                flushed = deferred[j].w.pe == deferred[i].w.pe;
            if (!flushed)
                shmpi_flush(deferred[i].w.pe);
        }
    }
    for (int i = 0; i < n_deferred; i++) {
        struct deferred *d = &deferred[i];
        uint64_t old = shmpi_amo_load_bits(&d->result_buf, d->w.size);
        if (!d->direct && d->op != SHMPI_AMO_FETCH && old != d->guess)
            old = shmpi_amo_mpi(d->op, d->type, &d->w, d->operand, 0); /* it failed: redo */
        if (d->fetched)
            shmpi_amo_store_bits(d->fetched, old, d->w.size);
    }
    n_deferred = 0;
    deferred_ops = 0;
    atomic_store_explicit(&shmpi_g.amo_deferred, 0, memory_order_release);
}

void shmpi_amo_drain(bool wait_for_lock)
{
    if (!atomic_load_explicit(&shmpi_g.amo_deferred, memory_order_acquire))
        return;
    /* From a waiting loop inside a drain (this thread holds the lock), or
     * while another thread drains, the trylock fails and the caller goes on. */
    if (!queue_lock(wait_for_lock))
        return;
    drain_locked();
    queue_unlock();
}

void shmpi_amo_defer(enum shmpi_amo_op op, enum shmpi_amo_type type,
                     const struct shmpi_mpi_word *w, uint64_t operand, void *fetched,
                     bool direct)
{
    queue_lock(true);
    bool conflict = n_deferred == DEFERRED_MAX;
    if (deferred_ops & ~(1u << op)) /* only another kind of op can conflict */
        for (int i = 0; i < n_deferred && !conflict; i++)
            conflict = same_word(&deferred[i].w, w) && deferred[i].op != op;
    if (conflict)
        drain_locked();
    if (n_deferred == 0)
        deferred_pe = w->pe;
    else if (deferred_pe != w->pe)
        deferred_pe = -1;
    deferred_ops |= 1u << op;
    struct deferred *d = &deferred[n_deferred++];
    /* Field by field: *w was just stored field by field, and one 16-byte
     * load of it stalls (it cost half of this function's time). */
    d->w.type = w->type;
    d->w.size = w->size;
    d->w.pe = w->pe;
    d->w.disp = w->disp;
    d->op = op;
    d->type = type;
    d->operand = operand;
    d->fetched = fetched;
    d->direct = direct;
    d->result_buf = 0;
    uint64_t unused = 0;
    if (direct) {
        shmpi_amo_store_bits(&d->value_buf, operand, w->size);
        if (fetched)
            shmpi_rma_fetch_and_op(&d->value_buf, &d->result_buf, w->type, w->pe, w->disp,
                                   shmpi_amo_direct_mpi_op);
        else
            shmpi_rma_accumulate(&d->value_buf, w->type, w->pe, w->disp,
                                 shmpi_amo_direct_mpi_op);
    } else if (op == SHMPI_AMO_FETCH) {
        shmpi_rma_get_accumulate(&unused, &d->result_buf, w->type, w->pe, w->disp, MPI_NO_OP);
    } else {
        if (!shmpi_amo_hint_get(w, &d->guess))
            d->guess = 0; /* never seen: a fresh word is likely 0 */
        uint64_t new_value = shmpi_amo_apply(op, type, d->guess, operand);
        shmpi_amo_store_bits(&d->compare_buf, d->guess, w->size);
        shmpi_amo_store_bits(&d->value_buf, new_value, w->size);
        shmpi_rma_compare_and_swap(&d->value_buf, &d->compare_buf, &d->result_buf, w->type,
                                   w->size, w->pe, w->disp);
        shmpi_amo_hint_set(w, new_value);
    }
    /* No shmpi_flush_mark: the drain flushes the queued PEs itself. */
    atomic_store_explicit(&shmpi_g.amo_deferred, 1, memory_order_release);
    queue_unlock();
}
