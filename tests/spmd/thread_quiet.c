/*
 * Quiet and fence under SHMEM_THREAD_MULTIPLE: 4 threads per PE, each with
 * its own counter and flag on the next PE, on a private context each, on
 * one context they share, or on the default context.  Every round a thread
 * adds 1 to its counter (a non-fetching AMO) and puts the round's number;
 *   odd rounds:  shmem_ctx_quiet, then reads both back: the counter must be
 *                at least the round (the add is complete), the word the
 *                round's number;
 *   even rounds: shmem_ctx_fence, then puts the round's number into its
 *                flag; a checker thread on the target reads the flag and
 *                then the counter in its own memory: the counter must be at
 *                least the flag (the fence ordered the add before it).
 * Stale reads are counted, not stopped at, and the job fails if there is
 * one.  Across nodes (check-4nodes) the adds are messages to the owner
 * (src/ops/amo_message.c), whose quiet is shared by the threads.
 * Argument: private, shared or default (the kind of context); none: all three.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

#include "testlib.h"

#define THREADS 4
#define ROUNDS 1000

enum kind { PRIVATE, SHARED, DEFAULT, KINDS };
static const char *const kind_name[KINDS] = {"private", "shared", "default"};

static long *counter, *word, *flag; /* [THREADS] each, symmetric */
static shmem_ctx_t shared_ctx;
static enum kind kind;
static int me, peer;
static atomic_long stale_quiet, stale_fence;

static long load(long *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    shmem_ctx_t ctx = kind == SHARED ? shared_ctx : SHMEM_CTX_DEFAULT;
    if (kind == PRIVATE)
        CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0, "ctx_create in thread %d", t);
    for (long i = 1; i <= ROUNDS; i++) {
        shmem_ctx_long_atomic_add(ctx, &counter[t], 1, peer);
        shmem_ctx_long_p(ctx, &word[t], i, peer);
        if (i % 2) {
            shmem_ctx_quiet(ctx); /* the add and the put are complete now */
            long seen = shmem_ctx_long_g(ctx, &counter[t], peer);
            long back = shmem_ctx_long_g(ctx, &word[t], peer);
            if (seen < i || back != i) {
                if (atomic_fetch_add(&stale_quiet, 1) < 3)
                    fprintf(stderr, "PE %d thread %d (%s): round %ld: after quiet the counter "
                            "reads %ld, the word %ld\n", me, t, kind_name[kind], i, seen, back);
            }
        } else {
            shmem_ctx_fence(ctx); /* the add and the put before the flag */
            shmem_ctx_long_p(ctx, &flag[t], i, peer);
        }
    }
    shmem_ctx_quiet(ctx);
    if (kind == PRIVATE)
        shmem_ctx_destroy(ctx);
    return NULL;
}

/* On the target: the flag, then the counter, in this PE's memory. */
static void *checker(void *arg)
{
    (void)arg;
    long last = ROUNDS - ROUNDS % 2, looked[THREADS] = {0};
    for (int done = 0; done < THREADS;) {
        done = 0;
        for (int t = 0; t < THREADS; t++) {
            long f = load(&flag[t]);
            if (f == last)
                done++;
            if (f == looked[t])
                continue;
            looked[t] = f;
            long c = load(&counter[t]);
            if (c < f && atomic_fetch_add(&stale_fence, 1) < 3)
                fprintf(stderr, "PE %d, flag of thread %d (%s): round %ld arrived before "
                        "its add (counter %ld)\n", me, t, kind_name[kind], f, c);
        }
        sched_yield(); /* more PEs than CPUs in the tests */
    }
    return NULL;
}

static void run(enum kind k)
{
    kind = k;
    for (int t = 0; t < THREADS; t++)
        counter[t] = word[t] = flag[t] = 0;
    if (k == SHARED)
        CHECK(shmem_ctx_create(0, &shared_ctx) == 0, "shared ctx_create");
    shmem_barrier_all();
    pthread_t threads[THREADS], check;
    CHECK(pthread_create(&check, NULL, checker, NULL) == 0, "checker thread");
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_create(&threads[t], NULL, worker, (void *)(intptr_t)t) == 0, "thread %d", t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    shmem_barrier_all(); /* every PE's flags have arrived */
    pthread_join(check, NULL);
    for (int t = 0; t < THREADS; t++)
        CHECK(counter[t] == ROUNDS, "%s: thread %d's counter %ld, want %d", kind_name[k], t,
              counter[t], ROUNDS);
    if (k == SHARED)
        shmem_ctx_destroy(shared_ctx);
    static long stale[2], total[2];
    stale[0] = atomic_exchange(&stale_quiet, 0);
    stale[1] = atomic_exchange(&stale_fence, 0);
    shmem_barrier_all();
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, total, stale, 2);
    if (me == 0)
        printf("thread_quiet %s: %d threads x %d rounds per PE: %ld stale after quiet, %ld "
               "flags before their add\n", kind_name[k], THREADS, ROUNDS, total[0], total[1]);
    CHECK(total[0] == 0 && total[1] == 0, "%s: stale reads", kind_name[k]);
}

int main(int argc, char **argv)
{
    int provided;
    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    CHECK(provided == SHMEM_THREAD_MULTIPLE, "provided %d", provided);
    me = shmem_my_pe();
    peer = (me + 1) % shmem_n_pes();
    counter = shmem_calloc(THREADS, sizeof(long));
    word = shmem_calloc(THREADS, sizeof(long));
    flag = shmem_calloc(THREADS, sizeof(long));
    for (int k = 0; k < KINDS; k++)
        if (argc < 2 || strcmp(argv[1], kind_name[k]) == 0)
            run((enum kind)k);
    shmem_free(flag);
    shmem_free(word);
    shmem_free(counter);
    test_passed("thread_quiet");
    shmem_finalize();
    return 0;
}
