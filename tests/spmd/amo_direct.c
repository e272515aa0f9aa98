/*
 * SHMPI_AMO_OPS: a program that declares one kind of update gets MPI's own
 * op on the MPI path (src/ops/amo_ops.c).  argv[1] is the
 * declaration (set here, before shmem_init; '+' for ','); every PE then hammers words
 * of PE 0 and of its right neighbour with that kind only, in the heap and
 * in static data, and the results must show each update applied exactly
 * once and atomically:
 *   add:       every fetch_add/fetch_inc value fetched from one counter is
 *              distinct and together they are 0..N-1 (N updates); signed
 *              int32 sums below zero, uint64 sums and nbi forms are exact; a lock and
 *              a signal (which mix kinds on their own words) still work;
 *   and / or:  each PE clears / sets its own bit of word r in round r: the
 *              value fetched never shows its bit changed, and the final
 *              words hold every PE's bit;
 *   xor:       each PE toggles its own bit of one word: every fetched value
 *              shows the bit as this PE left it;
 *   swap,set:  swap of a unique token per round: the values swapped out,
 *              plus the last value left, are 0 and every token, each once.
 * Run it also with SHMPI_MPI_ONLY=1 and SHMPI_PSEUDO_NODE_SIZE=2.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#define ROUNDS 500

struct words {
    long counter;
    int32_t negative;
    uint64_t big;
    long nbi_counter;
    uint64_t toggles;
    long chain;
    uint64_t bits[ROUNDS];
};

static struct words static_words;
static long fetched_all[8 * ROUNDS * 2]; /* gathered on PE 0 (up to 8 PEs) */
static long fetched_mine[ROUNDS * 2];
static long nbi_fetched[ROUNDS]; /* fetch_add_nbi targets: live until the quiet */
static long lock;
static uint64_t signal_word;

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* Every value in 0..count-1 exactly once. */
static void check_permutation(long *values, long count, const char *what)
{
    qsort(values, (size_t)count, sizeof(long), cmp_long);
    for (long i = 0; i < count; i++)
        CHECK(values[i] == i, "%s: sorted value %ld is %ld (lost or doubled update)", what, i,
              values[i]);
}

static void test_add(struct words *w, const char *place)
{
    int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n;
    for (int r = 0; r < ROUNDS; r++) {
        fetched_mine[2 * r] = shmem_long_atomic_fetch_add(&w->counter, 1, 0);
        fetched_mine[2 * r + 1] = shmem_long_atomic_fetch_inc(&w->counter, 0);
        shmem_int32_atomic_add(&w->negative, -3, right);
        shmem_int32_atomic_inc(&w->negative, right);
        shmem_uint64_atomic_add(&w->big, UINT64_C(1) << 40, 0);
        shmem_long_atomic_fetch_add_nbi(&nbi_fetched[r], &w->nbi_counter, 2, right);
        if (r % 64 == 0)
            shmem_quiet();
    }
    shmem_quiet();
    /* The old values of the nbi adds, written by the quiets: only this PE
     * adds to its neighbour's word, so they are 0, 2, ..., 2 (ROUNDS - 1). */
    qsort(nbi_fetched, ROUNDS, sizeof(long), cmp_long);
    for (int r = 0; r < ROUNDS; r++)
        CHECK(nbi_fetched[r] == 2L * r, "%s nbi fetched %ld, not %ld", place, nbi_fetched[r],
              2L * r);
    shmem_long_fcollect(SHMEM_TEAM_WORLD, fetched_all, fetched_mine, 2 * ROUNDS);
    if (me == 0) {
        check_permutation(fetched_all, (long)n * 2 * ROUNDS, place);
        CHECK(shmem_long_atomic_fetch(&w->counter, 0) == (long)n * 2 * ROUNDS, "%s counter",
              place);
        CHECK(w->big == (uint64_t)n * ROUNDS << 40, "%s uint64 sum %llu", place,
              (unsigned long long)w->big);
    }
    CHECK(w->negative == -2 * ROUNDS, "%s int32 sum %d", place, (int)w->negative);
    CHECK(w->nbi_counter == 2 * ROUNDS, "%s nbi sum %ld", place, w->nbi_counter);

    /* Locks and signals mix kinds on their own words and keep working. */
    static long guarded, calls; /* guarded counts over both calls */
    calls++;
    for (int r = 0; r < 50; r++) {
        shmem_set_lock(&lock);
        long v = shmem_long_g(&guarded, 0);
        shmem_long_p(&guarded, v + 1, 0);
        shmem_quiet();
        shmem_clear_lock(&lock);
    }
    shmem_long_put_signal(&w->chain, &w->counter, 1, &signal_word, 1, SHMEM_SIGNAL_ADD, right);
    shmem_signal_wait_until(&signal_word, SHMEM_CMP_GE, 1);
    shmem_barrier_all();
    if (me == 0)
        CHECK(guarded == 50L * n * calls, "%s lock-guarded count %ld", place, guarded);
    signal_word = 0;
}

static void test_bits(struct words *w, const char *place, int kind)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    uint64_t bit = UINT64_C(1) << me;
    uint64_t all = n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
    if (kind == 'a') {
        for (int r = 0; r < ROUNDS; r++)
            w->bits[r] = ~UINT64_C(0);
        shmem_barrier_all();
    }
    for (int r = 0; r < ROUNDS; r++) {
        uint64_t old;
        if (kind == 'a') {
            old = shmem_uint64_atomic_fetch_and(&w->bits[r], ~bit, 0);
            CHECK(old & bit, "%s and: round %d found its bit cleared", place, r);
        } else if (kind == 'o') {
            old = shmem_uint64_atomic_fetch_or(&w->bits[r], bit, 0);
            CHECK(!(old & bit), "%s or: round %d found its bit set", place, r);
        } else {
            old = shmem_uint64_atomic_fetch_xor(&w->toggles, bit, 0);
            CHECK(((old & bit) != 0) == (r % 2 == 1), "%s xor: round %d saw bit %d", place, r,
                  (old & bit) != 0);
        }
    }
    shmem_barrier_all();
    if (me == 0) {
        for (int r = 0; r < ROUNDS && kind != 'x'; r++)
            CHECK(w->bits[r] == (kind == 'a' ? ~all : all), "%s word %d is %llx", place, r,
                  (unsigned long long)w->bits[r]);
        CHECK(kind != 'x' || w->toggles == 0, "%s toggles %llx", place,
              (unsigned long long)w->toggles);
    }
}

static void test_swap(struct words *w, const char *place)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int r = 0; r < ROUNDS; r++)
        fetched_mine[r] = shmem_long_atomic_swap(&w->chain, 1 + me + (long)n * r, 0);
    shmem_long_atomic_set(&w->counter, 7, (me + 1) % n);
    shmem_barrier_all();
    shmem_long_fcollect(SHMEM_TEAM_WORLD, fetched_all, fetched_mine, ROUNDS);
    if (me == 0) {
        long count = (long)n * ROUNDS;
        fetched_all[count] = w->chain; /* the last token left */
        check_permutation(fetched_all, count + 1, place);
    }
    CHECK(w->counter == 7, "%s set left %ld", place, w->counter);
}

int main(int argc, char **argv)
{
    /* '+' stands for ',' (test markers turn commas into spaces) */
    char ops[64] = "add";
    if (argc > 1)
        snprintf(ops, sizeof ops, "%s", argv[1]);
    for (char *c = ops; *c; c++)
        *c = *c == '+' ? ',' : *c;
    setenv("SHMPI_AMO_OPS", ops, 1);
    shmem_init();
    CHECK(shmem_n_pes() <= 8, "at most 8 PEs (%d)", shmem_n_pes());
    struct words *heap_words = shmem_calloc(1, sizeof(struct words));
    CHECK(heap_words, "shmem_calloc");
    struct words *places[2] = {heap_words, &static_words};
    const char *names[2] = {"heap", "static"};
    for (int p = 0; p < 2; p++) {
        if (!strcmp(ops, "add"))
            test_add(places[p], names[p]);
        else if (!strcmp(ops, "and") || !strcmp(ops, "or") || !strcmp(ops, "xor"))
            test_bits(places[p], names[p], ops[0]);
        else if (!strcmp(ops, "swap,set"))
            test_swap(places[p], names[p]);
        else
            CHECK(0, "unknown declaration '%s'", ops);
        shmem_barrier_all();
    }
    shmem_free(heap_words);
    test_passed(ops);
    shmem_finalize();
    return 0;
}
