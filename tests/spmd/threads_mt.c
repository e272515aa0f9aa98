/*
 * SHMEM_THREAD_MULTIPLE: 4 threads per PE at once do puts, gets, AMOs and
 * quiet, half of them on private contexts of their own; exact results.
 */
#include <pthread.h>
#include <stdint.h>

#include "testlib.h"

#define THREADS 4
#define ITERS 300
#define SLOT 64 /* longs per thread */

static long *board;   /* [THREADS * SLOT] on every PE */
static long counter;  /* on PE 0: every thread of every PE adds 1 per iteration */
static int me, npes;

static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
    if (id % 2 == 1)
        CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0, "ctx_create in thread %d", id);
    long mine[SLOT], back[SLOT];
    for (int it = 1; it <= ITERS; it++) {
        for (int i = 0; i < SLOT; i++)
            mine[i] = ((long)me << 40) | ((long)id << 32) | ((long)it << 8) | i;
        shmem_ctx_long_put(ctx, board + id * SLOT, mine, SLOT, right);
        shmem_ctx_long_atomic_add(ctx, &counter, 1, 0);
        shmem_ctx_quiet(ctx);
        /* read back what this thread just wrote on its neighbour */
        shmem_ctx_long_get(ctx, back, board + id * SLOT, SLOT, right);
        for (int i = 0; i < SLOT; i++)
            CHECK(back[i] == mine[i], "thread %d iteration %d element %d", id, it, i);
        long seen = shmem_ctx_long_atomic_fetch(ctx, &counter, 0);
        CHECK(seen >= it && seen <= (long)npes * THREADS * ITERS, "counter %ld", seen);
    }
    (void)left;
    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    return NULL;
}

int main(void)
{
    int provided;
    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    CHECK(provided == SHMEM_THREAD_MULTIPLE, "provided %d", provided);
    board = shmem_calloc(THREADS * SLOT, sizeof(long));
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_create(&threads[t], NULL, worker, (void *)(intptr_t)t) == 0, "thread %d", t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    shmem_barrier_all();
    int left = (me + npes - 1) % npes;
    for (int t = 0; t < THREADS; t++)
        for (int i = 0; i < SLOT; i++)
            CHECK(board[t * SLOT + i] ==
                      (((long)left << 40) | ((long)t << 32) | ((long)ITERS << 8) | i),
                  "final board thread %d element %d", t, i);
    if (me == 0)
        CHECK(counter == (long)npes * THREADS * ITERS, "counter %ld, want %ld", counter,
              (long)npes * THREADS * ITERS);
    shmem_free(board);
    test_passed("threads_mt");
    shmem_finalize();
    return 0;
}
