/*
 * AMOs under contention: every PE hammers the same words of PE 0, in the
 * symmetric heap and in static data, for thousands of rounds, and the
 * results must be exact:
 *   counter:   compare-swap increment loop + fetch_add(2) + inc per round
 *              on one long, plus fetch_inc on a 4-byte word;
 *   chain:     swap of a unique token per round; the values swapped out,
 *              plus the last value left, are exactly the initial 0 and all
 *              tokens, each once;
 *   toggles:   each PE flips its own bit of one uint64 by fetch_xor (even
 *              PEs) or by fetch_or/fetch_and (odd PEs); the old value
 *              fetched must always show the bit as this PE left it.
 * Rounds: AMO_STRESS_ROUNDS (default 2000).  Run it also with
 * SHMPI_MPI_ONLY=1 and SHMPI_PSEUDO_NODE_SIZE=2 (MPI path).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testlib.h"

struct words {
    long counter;
    int32_t counter32;
    long chain;
    uint64_t toggles;
};

static struct words static_words;
static long done_count, release_flag; /* test_finish_phase (testlib.h) */

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void run(struct words *w, const char *place, long rounds, long *all_received,
                long phase)
{
    double start = seconds();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *received = malloc(sizeof(long) * (size_t)rounds);
    CHECK(received, "malloc");
    uint64_t bit = (uint64_t)1 << (me % 64);
    if (me == 0)
        memset(w, 0, sizeof(*w));
    shmem_barrier_all();

    long last_fadd = -1;
    for (long i = 0; i < rounds; i++) {
        /* compare-swap increment loop */
        long seen = shmem_long_atomic_fetch(&w->counter, 0);
        for (;;) {
            long old = shmem_long_atomic_compare_swap(&w->counter, seen, seen + 1, 0);
            if (old == seen)
                break;
            seen = old;
        }
        long before = shmem_long_atomic_fetch_add(&w->counter, 2, 0);
        CHECK(before > last_fadd, "%s: fetch_add went back from %ld to %ld", place,
              last_fadd, before);
        last_fadd = before;
        shmem_long_atomic_inc(&w->counter, 0);
        shmem_int32_atomic_fetch_inc(&w->counter32, 0);

        received[i] = shmem_long_atomic_swap(&w->chain, me * rounds + i + 1, 0);

        uint64_t old;
        if (me % 2 == 0)
            old = shmem_uint64_atomic_fetch_xor(&w->toggles, bit, 0);
        else if (i % 2 == 0)
            old = shmem_uint64_atomic_fetch_or(&w->toggles, bit, 0);
        else
            old = shmem_uint64_atomic_fetch_and(&w->toggles, ~bit, 0);
        if (n <= 64)
            CHECK(((old & bit) != 0) == (i % 2 != 0),
                  "%s: round %ld found my bit %s (word %#llx)", place, i,
                  (old & bit) ? "set" : "clear", (unsigned long long)old);
    }
    shmem_long_put(all_received + (size_t)me * (size_t)rounds, received, (size_t)rounds, 0);
    shmem_quiet();
    free(received);
    test_finish_phase(&done_count, &release_flag, phase);

    if (me == 0) {
        long total = (long)n * rounds;
        CHECK(w->counter == 4 * total, "%s: counter %ld, expected %ld", place, w->counter,
              4 * total);
        CHECK(w->counter32 == (int32_t)total, "%s: counter32 %d, expected %ld", place,
              w->counter32, total);
        /* Every token and the initial 0 appear exactly once among the
         * values swapped out and the value left in the word. */
        unsigned char *seen = calloc((size_t)total + 1, 1);
        CHECK(seen, "calloc");
        for (long k = 0; k <= total; k++) {
            long v = k < total ? all_received[k] : w->chain;
            CHECK(v >= 0 && v <= total, "%s: swap returned %ld, never swapped in", place, v);
            CHECK(!seen[v], "%s: value %ld came out of the swap chain twice", place, v);
            seen[v] = 1;
        }
        free(seen);
        printf("%s words: %ld rounds on %d PEs in %.2f s\n", place, rounds, n,
               seconds() - start);
        fflush(stdout);
        uint64_t want = 0;
        if (rounds % 2)
            for (int pe = 0; pe < n && pe < 64; pe++)
                want |= (uint64_t)1 << pe;
        if (n <= 64)
            CHECK(w->toggles == want, "%s: toggles %#llx, expected %#llx", place,
                  (unsigned long long)w->toggles, (unsigned long long)want);
    }
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    test_thread_arg(argc, argv);
    shmem_init();
    int n = shmem_n_pes();
    const char *env = getenv("AMO_STRESS_ROUNDS");
    long rounds = env ? atol(env) : 2000;
    CHECK(rounds > 0, "AMO_STRESS_ROUNDS=%s", env);
    long *all_received = shmem_malloc(sizeof(long) * (size_t)n * (size_t)rounds);
    struct words *heap_words = shmem_calloc(1, sizeof(struct words));
    CHECK(all_received && heap_words, "shmem_malloc");

    run(heap_words, "heap", rounds, all_received, 1);
    run(&static_words, "static", rounds, all_received, 2);

    shmem_free(heap_words);
    shmem_free(all_received);
    test_passed("amo_stress");
    shmem_finalize();
    return 0;
}
