/*
 * Put-with-signal: the data must be complete when the signal shows.
 *
 * Part 1: every PE sends hundreds of 256 KiB messages to its right
 * neighbour with put_signal (SET and ADD, blocking and nbi, typed, sized,
 * mem, ctx and generic forms), alternating heap and static destinations
 * and signal words; the receiver waits with shmem_signal_wait_until and
 * checks every word of every message before acknowledging it.
 * Part 2: every typed, sized and mem form (and its ctx and nbi forms)
 * once, with a short message, checked exactly.
 * Rounds: AMO_SIGNAL_ROUNDS (default 300).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#define WORDS (256 * 1024 / 8) /* one message: 256 KiB of longs */

static long static_buf[WORDS];
static uint64_t static_sig;
static uint64_t ack;           /* messages the right neighbour has checked */

static int me, npes, right, left;
static shmem_ctx_t ctx;

static long pattern(long round, int pe, long i)
{
    return (round << 40) ^ ((long)pe << 32) ^ (i * 2654435761L);
}

int main(int argc, char **argv)
{
    test_thread_arg(argc, argv);
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    ctx = SHMEM_CTX_DEFAULT;
    int have_ctx = shmem_ctx_create(0, &ctx) == 0;
    const char *env = getenv("AMO_SIGNAL_ROUNDS");
    long rounds = env ? atol(env) : 300;

    long *heap_buf = shmem_malloc(WORDS * sizeof(long));
    uint64_t *heap_sig = shmem_calloc(1, sizeof(uint64_t));
    long *src = malloc(WORDS * sizeof(long));
    CHECK(heap_buf && heap_sig && src, "allocation");
    shmem_barrier_all();

    /* How many messages each signal word has seen: SET writes count + 1,
     * ADD adds 1, so either way the word reads count + 1 afterwards. */
    uint64_t sent_on[2] = {0, 0}, received_on[2] = {0, 0};
    for (long r = 0; r < rounds; r++) {
        long *dest = r % 2 ? static_buf : heap_buf;
        int s = (r / 2) % 2;
        uint64_t *sig = s ? &static_sig : heap_sig;
        int op = r % 3 == 0 ? SHMEM_SIGNAL_SET : SHMEM_SIGNAL_ADD;

        /* Send round r once the right neighbour has checked round r-1. */
        shmem_uint64_wait_until(&ack, SHMEM_CMP_GE, (uint64_t)r);
        shmem_quiet(); /* the nbi forms may still read src */
        for (long i = 0; i < WORDS; i++)
            src[i] = pattern(r, me, i);
        sent_on[s]++;
        /* One form per round: typed, sized, mem, ctx, nbi, generic. */
        uint64_t value = op == SHMEM_SIGNAL_SET ? sent_on[s] : 1;
        switch (r % 8) {
        case 0: shmem_long_put_signal(dest, src, WORDS, sig, value, op, right); break;
        case 1: shmem_put64_signal(dest, src, WORDS, sig, value, op, right); break;
        case 2: shmem_putmem_signal(dest, src, WORDS * 8, sig, value, op, right); break;
        case 3: shmem_ctx_long_put_signal(ctx, dest, src, WORDS, sig, value, op, right); break;
        case 4: shmem_long_put_signal_nbi(dest, src, WORDS, sig, value, op, right); break;
        case 5:
            shmem_ctx_putmem_signal_nbi(ctx, dest, src, WORDS * 8, sig, value, op, right);
            break;
        case 6: shmem_put_signal(dest, src, WORDS, sig, value, op, right); break;
        default: shmem_put_signal_nbi(ctx, dest, src, WORDS, sig, value, op, right); break;
        }

        /* Receive round r from the left neighbour (same destination and
         * signal word choice), check every word, acknowledge. */
        received_on[s]++;
        uint64_t got = shmem_signal_wait_until(sig, SHMEM_CMP_GE, received_on[s]);
        CHECK(got == received_on[s], "round %ld: signal %llu, expected %llu", r,
              (unsigned long long)got, (unsigned long long)received_on[s]);
        CHECK(shmem_signal_fetch(sig) == received_on[s], "round %ld: signal_fetch", r);
        for (long i = 0; i < WORDS; i++)
            CHECK(dest[i] == pattern(r, left, i),
                  "round %ld (%s buffer, form %ld): word %ld is %#lx, expected %#lx", r,
                  r % 2 ? "static" : "heap", r % 8, i, dest[i], pattern(r, left, i));
        shmem_uint64_atomic_inc(&ack, left);
    }
    shmem_uint64_wait_until(&ack, SHMEM_CMP_GE, (uint64_t)rounds);
    shmem_quiet();
    shmem_barrier_all();

    /* Part 2: every form once, 17 elements, on the heap buffer. */
#define ONE_TYPED(N, T)                                                                       \
    do {                                                                                      \
        T *d = (T *)heap_buf, s_[17];                                                         \
        for (int nbi = 0; nbi < 2; nbi++)                                                     \
            for (int use_ctx = 0; use_ctx < 2; use_ctx++) {                                   \
                for (int i = 0; i < 17; i++)                                                  \
                    s_[i] = (T)(i + 3 * nbi + 7 * use_ctx + 1);                               \
                memset(heap_buf, 0, 17 * 16);                                                 \
                *heap_sig = 0;                                                                \
                shmem_barrier_all();                                                          \
                if (!nbi && !use_ctx)                                                         \
                    shmem_##N##_put_signal(d, s_, 17, heap_sig, 5, SHMEM_SIGNAL_SET, right);  \
                else if (!nbi)                                                                \
                    shmem_ctx_##N##_put_signal(ctx, d, s_, 17, heap_sig, 5, SHMEM_SIGNAL_ADD, \
                                               right);                                        \
                else if (!use_ctx)                                                            \
                    shmem_##N##_put_signal_nbi(d, s_, 17, heap_sig, 5, SHMEM_SIGNAL_SET,      \
                                               right);                                        \
                else                                                                          \
                    shmem_ctx_##N##_put_signal_nbi(ctx, d, s_, 17, heap_sig, 5,               \
                                                   SHMEM_SIGNAL_ADD, right);                  \
                shmem_signal_wait_until(heap_sig, SHMEM_CMP_EQ, 5);                           \
                for (int i = 0; i < 17; i++)                                                  \
                    CHECK(d[i] == (T)(i + 3 * nbi + 7 * use_ctx + 1),                         \
                          #N " put_signal nbi %d ctx %d: element %d", nbi, use_ctx, i);       \
                shmem_quiet();                                                                \
                shmem_ctx_quiet(ctx);                                                         \
                shmem_barrier_all();                                                          \
            }                                                                                 \
    } while (0);
    SHMPI_RMA_TYPES(ONE_TYPED)

#define ONE_SIZED(BITS)                                                                       \
    do {                                                                                      \
        unsigned char s_[17 * 16];                                                            \
        for (int form = 0; form < 4; form++) {                                                \
            for (size_t i = 0; i < sizeof(s_); i++)                                           \
                s_[i] = (unsigned char)(i * 7 + form + BITS);                                 \
            memset(heap_buf, 0, sizeof(s_));                                                  \
            *heap_sig = 0;                                                                    \
            shmem_barrier_all();                                                              \
            if (form == 0)                                                                    \
                shmem_put##BITS##_signal(heap_buf, s_, 17, heap_sig, 9, SHMEM_SIGNAL_SET,     \
                                         right);                                              \
            else if (form == 1)                                                               \
                shmem_ctx_put##BITS##_signal(ctx, heap_buf, s_, 17, heap_sig, 9,              \
                                             SHMEM_SIGNAL_ADD, right);                        \
            else if (form == 2)                                                               \
                shmem_put##BITS##_signal_nbi(heap_buf, s_, 17, heap_sig, 9, SHMEM_SIGNAL_ADD, \
                                             right);                                          \
            else                                                                              \
                shmem_ctx_put##BITS##_signal_nbi(ctx, heap_buf, s_, 17, heap_sig, 9,          \
                                                 SHMEM_SIGNAL_SET, right);                    \
            shmem_signal_wait_until(heap_sig, SHMEM_CMP_EQ, 9);                               \
            CHECK(memcmp(heap_buf, s_, 17 * (BITS / 8)) == 0, "put%d_signal form %d", BITS,   \
                  form);                                                                      \
            shmem_quiet();                                                                    \
            shmem_ctx_quiet(ctx);                                                             \
            shmem_barrier_all();                                                              \
        }                                                                                     \
    } while (0);
    SHMPI_RMA_SIZES(ONE_SIZED)
    {
        char s_[33];
        for (int form = 0; form < 4; form++) {
            for (int i = 0; i < 33; i++)
                s_[i] = (char)(i + form);
            memset(heap_buf, 0, sizeof(s_));
            *heap_sig = 0;
            shmem_barrier_all();
            if (form == 0)
                shmem_putmem_signal(heap_buf, s_, 33, heap_sig, 2, SHMEM_SIGNAL_SET, right);
            else if (form == 1)
                shmem_ctx_putmem_signal(ctx, heap_buf, s_, 33, heap_sig, 2, SHMEM_SIGNAL_ADD,
                                        right);
            else if (form == 2)
                shmem_putmem_signal_nbi(heap_buf, s_, 33, heap_sig, 2, SHMEM_SIGNAL_ADD, right);
            else
                shmem_ctx_putmem_signal_nbi(ctx, heap_buf, s_, 33, heap_sig, 2,
                                            SHMEM_SIGNAL_SET, right);
            shmem_signal_wait_until(heap_sig, SHMEM_CMP_EQ, 2);
            CHECK(memcmp(heap_buf, s_, 33) == 0, "putmem_signal form %d", form);
            shmem_quiet();
            shmem_ctx_quiet(ctx);
            shmem_barrier_all();
        }
    }
    /* A zero-length put-with-signal is a plain signal. */
    *heap_sig = 0;
    shmem_barrier_all();
    shmem_putmem_signal(heap_buf, src, 0, heap_sig, 40, SHMEM_SIGNAL_ADD, right);
    shmem_putmem_signal(heap_buf, src, 0, heap_sig, 2, SHMEM_SIGNAL_ADD, right);
    CHECK(shmem_signal_wait_until(heap_sig, SHMEM_CMP_GT, 41) == 42, "zero-length signals");
    shmem_barrier_all();

    if (have_ctx)
        shmem_ctx_destroy(ctx);
    shmem_free(heap_buf);
    shmem_free(heap_sig);
    free(src);
    test_passed("amo_signal");
    shmem_finalize();
    return 0;
}
