/*
 * wait.c - the waiting loops of point-to-point synchronization: one
 * variable (wait_until, signal_wait_until) and arrays of them
 * (wait_until_all/any/some, their _vector forms, and the tests).
 *
 * The awaited variables live in this PE's symmetric memory and change by
 * remote writes: direct stores from PEs of this node, or MPI operations
 * that this PE's progress engine applies, so the loops must keep calling
 * into MPI (shmpi_backoff) or they would wait for themselves.
 */
#include "wait.h"

void shmpi_wait_until(const char *routine, const void *addr, const struct shmpi_wait_cmp *cmp,
                      bool (*satisfied)(const void *state), const void *state)
{
    SHMPI_WAITER(waiter) = {
        .waits_in = SHMPI_WAITS_ON_MEMORY, .routine = routine, .addr = addr, .cmp = cmp};
    while (!satisfied(state))
        shmpi_backoff(&waiter);
    /* What the writer stored before the awaited value is visible now. */
    atomic_thread_fence(memory_order_acquire);
}

static bool takes_part(const int *status, size_t i)
{
    return !status || status[i] == 0;
}

/* ANY is fair: each look starts one past the index it last handed out (per
 * PE, whatever the array), so repeated calls on an array whose elements all
 * satisfy return every index in turn (the spec's shmem_test_any example
 * calls it with status NULL until each has been seen).  Relaxed atomics: a
 * race between threads costs only fairness. */
static _Atomic size_t any_next;

/* One look at every element taking part.  ALL: returns 1 if all are ready
 * (stops at the first that is not, remembered in *first_unready).  ANY:
 * the index of the first ready one from `from` on, wrapping, or SIZE_MAX.
 * SOME: the number of ready ones, their indices (ascending) in `indices`. */
static size_t scan(enum shmpi_wait_kind kind, size_t from, size_t nelems, const int *status,
                   size_t *indices, bool (*ready)(const void *, size_t), const void *state,
                   size_t *first_unready)
{
    if (kind == SHMPI_WAIT_ANY) {
        for (size_t k = 0, i = from; k < nelems; k++, i = i + 1 == nelems ? 0 : i + 1)
            if (takes_part(status, i) && ready(state, i))
                return i;
        return SIZE_MAX;
    }
    size_t count = 0;
    for (size_t i = from; i < nelems; i++) {
        if (!takes_part(status, i))
            continue;
        bool ok = ready(state, i);
        if (kind == SHMPI_WAIT_ALL && !ok) {
            *first_unready = i;
            return 0;
        }
        if (kind == SHMPI_WAIT_SOME && ok)
            indices[count++] = i;
    }
    return kind == SHMPI_WAIT_ALL ? 1 : count;
}

size_t shmpi_wait_multi(const char *routine, const void *addr, enum shmpi_wait_kind kind,
                        bool block, size_t nelems, const int *status, size_t *indices,
                        bool (*ready)(const void *state, size_t i), const void *state)
{
    const size_t none = kind == SHMPI_WAIT_ANY ? SIZE_MAX : 0;
    size_t result, from = 0, first_unready = 0;
    if (kind != SHMPI_WAIT_ALL) {
        /* Nothing to wait for when no element takes part. */
        size_t i = 0;
        while (i < nelems && !takes_part(status, i))
            i++;
        if (i == nelems)
            return none;
    }
    /* ANY and SOME are called in loops that go on while they find ready
     * elements (the spec's examples), so a call that finds one at once must
     * still let the updates aimed at this PE through MPI land, or the
     * loop would see its own element forever. */
    if (!shmpi_g.poll_quietly)
        shmpi_progress();
    if (kind == SHMPI_WAIT_ANY)
        from = atomic_load_explicit(&any_next, memory_order_relaxed) % nelems;
    SHMPI_WAITER(waiter) = {.waits_in = SHMPI_WAITS_ON_MEMORY, .routine = routine, .addr = addr};
    for (int attempt = 0;; attempt++) {
        result = scan(kind, from, nelems, status, indices, ready, state, &first_unready);
        if (result != none)
            break;
        /* ALL: elements found ready stay counted, the next look starts at
         * the first that was not (the usual wait_until_all meaning: each
         * element in turn is awaited until it satisfies). */
        if (kind == SHMPI_WAIT_ALL)
            from = first_unready;
        if (!block && attempt == 1)
            break;
        /* A test looks twice, with MPI progress between, so repeated tests
         * see remote updates arrive; a wait loops with backoff. */
        if (block)
            shmpi_backoff(&waiter);
        else
            shmpi_progress();
    }
    if (kind == SHMPI_WAIT_ANY && result != SIZE_MAX)
        atomic_store_explicit(&any_next, result + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    return result;
}
