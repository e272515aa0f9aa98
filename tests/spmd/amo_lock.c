/*
 * Distributed locks: every PE does hundreds of non-atomic read-modify-
 * write increments (get, then put) of counters on PE 0 under the lock,
 * taking it with shmem_set_lock or by spinning on shmem_test_lock.  The
 * counts must be exact, and an owner word catches two PEs inside at once.
 * Twice: lock in the heap with the data in static memory, and the other
 * way round.  Also: test_lock fails while another PE holds the lock.
 * Iterations: AMO_LOCK_ITERS (default 200).
 */
#include <stdlib.h>

#include "testlib.h"

struct guarded {
    long count;
    long owner; /* -1 when no PE is inside */
    long sum;   /* sum of (pe + 1) over all increments */
};

static long static_lock;
static struct guarded static_data = {0, -1, 0};
static long done_count, release_flag; /* test_finish_phase */

static void hammer(long *lock, struct guarded *g, long iters, const char *what, long phase)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (long i = 0; i < iters; i++) {
        if ((i + me) % 3 == 0) {
            while (shmem_test_lock(lock))
                ;
        } else {
            shmem_set_lock(lock);
        }
        long owner = shmem_long_g(&g->owner, 0);
        CHECK(owner == -1, "%s: PE %ld was inside the lock when I entered", what, owner);
        shmem_long_p(&g->owner, me, 0);
        long count = shmem_long_g(&g->count, 0);
        long sum;
        shmem_long_get(&sum, &g->sum, 1, 0);
        shmem_long_p(&g->count, count + 1, 0);
        sum += me + 1;
        shmem_long_put(&g->sum, &sum, 1, 0);
        shmem_quiet(); /* the owner check below must see my own puts */
        CHECK(shmem_long_g(&g->owner, 0) == me, "%s: someone entered while I held it", what);
        shmem_long_p(&g->owner, -1, 0);
        shmem_clear_lock(lock);
    }
    test_finish_phase(&done_count, &release_flag, phase);
    if (me == 0) {
        long want = iters * n, want_sum = iters * (long)n * (n + 1) / 2;
        CHECK(g->count == want, "%s: count %ld, expected %ld", what, g->count, want);
        CHECK(g->sum == want_sum, "%s: sum %ld, expected %ld", what, g->sum, want_sum);
        CHECK(g->owner == -1, "%s: owner %ld left behind", what, g->owner);
    }
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    test_thread_arg(argc, argv);
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    const char *env = getenv("AMO_LOCK_ITERS");
    long iters = env ? atol(env) : 200;

    long *heap_lock = shmem_calloc(1, sizeof(long));
    struct guarded *heap_data = shmem_malloc(sizeof(struct guarded));
    CHECK(heap_lock && heap_data, "allocation");
    heap_data->count = heap_data->sum = 0;
    heap_data->owner = -1;
    shmem_barrier_all();

    hammer(heap_lock, &static_data, iters, "heap lock, static data", 1);
    hammer(&static_lock, heap_data, iters, "static lock, heap data", 2);

    /* While PE 0 holds a lock, test_lock fails everywhere else; once it
     * is released, exactly one of the PEs that try gets it. */
    if (me == 0)
        shmem_set_lock(&static_lock);
    shmem_barrier_all();
    if (me != 0)
        CHECK(shmem_test_lock(&static_lock) == 1, "test_lock took a held lock");
    shmem_barrier_all();
    if (me == 0)
        shmem_clear_lock(&static_lock);
    shmem_barrier_all();
    int got = shmem_test_lock(&static_lock) == 0;
    int *winners = shmem_calloc(1, sizeof(int));
    CHECK(winners, "calloc");
    shmem_barrier_all();
    if (got)
        shmem_int_atomic_inc(winners, 0);
    shmem_barrier_all();
    if (me == 0)
        CHECK(*winners == 1, "%d PEs won one test_lock round", *winners);
    if (got)
        shmem_clear_lock(&static_lock);
    shmem_barrier_all();
    /* Only PE 0's copy of the lock word was ever touched. */
    if (me != 0)
        CHECK(static_lock == 0 && *heap_lock == 0, "lock copy on PE %d changed", me);
    (void)n;

    shmem_free(winners);
    shmem_free(heap_lock);
    shmem_free(heap_data);
    test_passed("amo_lock");
    shmem_finalize();
    return 0;
}
