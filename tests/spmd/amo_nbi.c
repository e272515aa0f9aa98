/*
 * Non-fetching and _nbi AMOs, which need only be complete at quiet (on the
 * MPI path shmpi queues them, src/ops/amo_deferred.c):
 *   contention: every PE adds to, increments and fetch_add_nbi's one word
 *     pair of PE 0 in batches closed by shmem_quiet; the sums are exact and
 *     the fetched values are each of 0..N-1 exactly once;
 *   order: on a word of its own (on the next PE) each PE applies add, xor,
 *     add, or, and without a fence; the result is the one of program order;
 *   fetch_nbi: sees the value of an earlier blocking set;
 *   spread: each PE adds to a word of every PE, queued together, then one
 *     quiet (the queue flushes each PE it holds); the sums are exact;
 *   waiting: each PE increments a counter of PE 0 and, without quiet,
 *     waits for PE 0 to see all increments (a waiting PE completes its own
 *     queued AMOs).
 * Rounds: AMO_NBI_ROUNDS (default 1000).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

static long sum_word, counter_word, arrivals, release, spread_word;
static uint64_t own_words[64]; /* word i belongs to PE i - 1 (mod n) */

int main(int argc, char **argv)
{
    test_thread_arg(argc, argv);
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    const char *env = getenv("AMO_NBI_ROUNDS");
    long rounds = env ? atol(env) : 1000;
    CHECK(rounds > 0 && n <= 64, "AMO_NBI_ROUNDS=%s, %d PEs", env, n);
    long *fetched = shmem_malloc(sizeof(long) * (size_t)rounds * (size_t)n);
    CHECK(fetched, "shmem_malloc");
    shmem_barrier_all();

    /* contention */
    for (long i = 0; i < rounds; i++) {
        shmem_long_atomic_add(&sum_word, i + 1, 0);
        shmem_long_atomic_inc(&sum_word, 0);
        shmem_long_atomic_fetch_add_nbi(&fetched[(size_t)me * (size_t)rounds + (size_t)i],
                                        &counter_word, 1, 0);
        if (i % 16 == 15)
            shmem_quiet();
    }
    shmem_quiet();
    /* The fetched values, to PE 0, for the distinctness check. */
    if (me != 0)
        shmem_long_put(&fetched[(size_t)me * (size_t)rounds],
                       &fetched[(size_t)me * (size_t)rounds], (size_t)rounds, 0);
    shmem_barrier_all();
    if (me == 0) {
        long total = (long)n * rounds;
        long want_sum = (long)n * (rounds * (rounds + 1) / 2 + rounds);
        CHECK(sum_word == want_sum, "sum %ld, expected %ld", sum_word, want_sum);
        CHECK(counter_word == total, "counter %ld, expected %ld", counter_word, total);
        unsigned char *seen = calloc((size_t)total, 1);
        CHECK(seen, "calloc");
        for (long k = 0; k < total; k++) {
            long v = fetched[k];
            CHECK(v >= 0 && v < total, "fetch_add_nbi returned %ld (of %ld)", v, total);
            CHECK(!seen[v], "fetch_add_nbi returned %ld twice", v);
            seen[v] = 1;
        }
        free(seen);
    }

    /* order without fence, on a word no one else touches */
    int next = (me + 1) % n;
    uint64_t *own = &own_words[me];
    uint64_t want = 0;
    for (long i = 0; i < rounds; i++) {
        uint64_t k = (uint64_t)i;
        shmem_uint64_atomic_add(own, k + 3, next);
        shmem_uint64_atomic_xor(own, 0x5a5a ^ k, next);
        shmem_uint64_atomic_add(own, 7, next);
        shmem_uint64_atomic_or(own, k << 20, next);
        shmem_uint64_atomic_and(own, ~(uint64_t)0x10, next);
        want = ((((want + k + 3) ^ (0x5a5a ^ k)) + 7) | (k << 20)) & ~(uint64_t)0x10;
    }
    uint64_t got;
    shmem_uint64_atomic_fetch_nbi(&got, own, next);
    shmem_quiet();
    CHECK(got == want, "own word on PE %d: %#llx, expected %#llx", next,
          (unsigned long long)got, (unsigned long long)want);

    /* fetch_nbi after a blocking set */
    shmem_uint64_atomic_set(own, 42 + (uint64_t)me, next);
    shmem_uint64_atomic_fetch_nbi(&got, own, next);
    shmem_quiet();
    CHECK(got == 42 + (uint64_t)me, "fetch_nbi after set: %llu", (unsigned long long)got);

    /* spread: one queue, every PE */
    for (long i = 0; i < rounds; i++)
        for (int k = 0; k < n; k++)
            shmem_long_atomic_add(&spread_word, me + 1, (me + k) % n);
    shmem_quiet();
    shmem_barrier_all();
    long spread_want = rounds * (long)n * (n + 1) / 2;
    CHECK(spread_word == spread_want, "spread word: %ld, expected %ld", spread_word,
          spread_want);

    /* waiting completes this PE's queued increments */
    shmem_barrier_all();
    shmem_long_atomic_inc(&arrivals, 0);
    if (me == 0) {
        shmem_long_wait_until(&arrivals, SHMEM_CMP_EQ, n);
        for (int pe = 0; pe < n; pe++)
            shmem_long_atomic_set(&release, 1, pe);
    }
    shmem_long_wait_until(&release, SHMEM_CMP_EQ, 1);

    shmem_barrier_all();
    shmem_free(fetched);
    test_passed("amo_nbi");
    shmem_finalize();
    return 0;
}
