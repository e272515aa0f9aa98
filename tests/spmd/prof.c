/*
 * prof.c - the profiling interface seen by a tool (tests/spmd/proftool.c,
 * a shared library linked before libshmpi): every call of an intercepted
 * routine reaches the tool exactly once, whether the program names the
 * routine, a deprecated name or a C11 generic name; calls made inside the
 * library (shmem_team_ptr's lookup, shmalloc's allocation, collectives'
 * barriers) and calls of the pshmem_ names do not reach it.  The
 * operations themselves still give the right values.  Run on 1, 2 and 4 PEs.
 */
#include <pshmem.h>
#include <string.h>

#include "proftool.h"
#include "testlib.h"

/* Calls this program makes of each intercepted routine (index as in
 * PROFTOOL_ROUTINES), to compare with the tool's counts. */
static long expected[PROFTOOL_N];
#define EXPECT(NAME, N) expect(#NAME, N)
static void expect(const char *name, long n)
{
    for (int i = 0; i < PROFTOOL_N; i++)
        if (strcmp(proftool_names[i], name) == 0) {
            expected[i] += n;
            return;
        }
    fprintf(stderr, "prof: %s is not intercepted by the tool\n", name);
    abort();
}

static long lock_word;

int main(void)
{
    CHECK(proftool_level() == 1, "level %d before shmem_pcontrol", proftool_level());
    shmem_init();
    EXPECT(shmem_init, 1);
    int me = shmem_my_pe(), n = shmem_n_pes();
    EXPECT(shmem_my_pe, 1), EXPECT(shmem_n_pes, 1);
    int right = (me + 1) % n, left = (me + n - 1) % n;
    CHECK(_my_pe() == me, "_my_pe");
    EXPECT(_my_pe, 1);

    /* shmem_pcontrol: the tool sees each level; the library accepts all. */
    shmem_pcontrol(0);
    CHECK(proftool_level() == 0, "level %d", proftool_level());
    shmem_pcontrol(2);
    shmem_pcontrol(7, "tool-defined argument");
    CHECK(proftool_level() == 7, "level %d", proftool_level());
    shmem_pcontrol(1);
    EXPECT(shmem_pcontrol, 4);
    pshmem_pcontrol(3);
    CHECK(proftool_level() == 1, "pshmem_pcontrol reached the tool");

    /* Memory: shmalloc is counted as itself, not as shmem_malloc. */
    long *buf = shmem_malloc(16 * sizeof(long));
    long *old = shmalloc(sizeof(long));
    uint64_t *sig = shmem_malloc(sizeof(uint64_t));
    EXPECT(shmem_malloc, 2), EXPECT(shmalloc, 1);
    CHECK(buf && old && sig, "allocation failed");
    *sig = 0, *old = 0;
    long src[16];
    for (int i = 0; i < 16; i++)
        src[i] = 100 * me + i, buf[i] = -1;
    shmem_barrier_all();
    EXPECT(shmem_barrier_all, 1);

    /* RMA: the typed name and the C11 generic name are both shmem_long_put. */
    shmem_long_put(buf, src, 4, right);
    shmem_put(buf + 4, src + 4, 4, right);
    EXPECT(shmem_long_put, 2);
    shmem_long_p(buf + 8, 100 * me + 8, right);
    EXPECT(shmem_long_p, 1);
    shmem_fence();
    shmem_quiet();
    EXPECT(shmem_fence, 1), EXPECT(shmem_quiet, 1);
    shmem_barrier_all();
    EXPECT(shmem_barrier_all, 1);
    for (int i = 0; i < 9; i++)
        CHECK(buf[i] == 100 * left + i, "buf[%d] = %ld", i, buf[i]);
    CHECK(shmem_long_g(buf + 3, right) == 100 * me + 3, "shmem_long_g");
    EXPECT(shmem_long_g, 1);
    long got[2];
    shmem_getmem(got, buf, sizeof got, left);
    EXPECT(shmem_getmem, 1);
    CHECK(got[0] == 100 * ((left + n - 1) % n) && got[1] == got[0] + 1, "getmem %ld", got[0]);

    /* shmem_ptr as the program calls it counts; shmem_team_ptr uses it
     * inside the library, which the tool must not see. */
    CHECK(shmem_ptr(buf, me) == buf, "shmem_ptr to myself");
    (void)shmem_ptr(buf, right);
    EXPECT(shmem_ptr, 2);
    CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, buf, me) == buf, "shmem_team_ptr");

    /* AMOs on PE 0's word: typed, generic and deprecated names. */
    shmem_barrier_all();
    EXPECT(shmem_barrier_all, 1);
    shmem_long_atomic_fetch_add(old, 1, 0);
    shmem_atomic_fetch_add(old, 1, 0);
    EXPECT(shmem_long_atomic_fetch_add, 2);
    shmem_long_atomic_inc(old, 0);
    EXPECT(shmem_long_atomic_inc, 1);
    shmem_long_finc(old, 0);
    EXPECT(shmem_long_finc, 1);
    shmem_barrier_all();
    EXPECT(shmem_barrier_all, 1);
    if (me == 0)
        CHECK(*old == 4L * n, "AMO total %ld, expected %ld", *old, 4L * n);
    /* No PE's lock-protected increment below may land before PE 0 read it. */
    shmem_barrier_all();
    EXPECT(shmem_barrier_all, 1);

    /* Signals: a put with signal to the right, waited for on the left. */
    shmem_long_put_signal(buf + 12, src, 2, sig, 1, SHMEM_SIGNAL_ADD, right);
    EXPECT(shmem_long_put_signal, 1);
    CHECK(shmem_signal_wait_until(sig, SHMEM_CMP_GE, 1) == 1, "signal value");
    EXPECT(shmem_signal_wait_until, 1);
    CHECK(shmem_signal_fetch(sig) == 1, "shmem_signal_fetch");
    EXPECT(shmem_signal_fetch, 1);
    CHECK(buf[12] == 100 * left && buf[13] == 100 * left + 1, "put_signal data %ld", buf[12]);

    /* Point-to-point: a flag from the left neighbour, generic wait_until. */
    shmem_long_p(buf + 15, 1, right);
    EXPECT(shmem_long_p, 1);
    shmem_wait_until(buf + 15, SHMEM_CMP_EQ, 1);
    EXPECT(shmem_long_wait_until, 1);
    CHECK(shmem_long_test(buf + 15, SHMEM_CMP_EQ, 1) == 1, "shmem_long_test");
    EXPECT(shmem_long_test, 1);

    /* Locks. */
    shmem_set_lock(&lock_word);
    shmem_long_atomic_inc(old, 0);
    shmem_clear_lock(&lock_word);
    EXPECT(shmem_set_lock, 1), EXPECT(shmem_clear_lock, 1), EXPECT(shmem_long_atomic_inc, 1);

    /* Collectives: typed and generic reduction, broadcast, sync. */
    shmem_sync_all();
    EXPECT(shmem_sync_all, 1);
    long one = me + 1, sum = 0, sum2 = 0;
    long *rsrc = shmem_malloc(2 * sizeof(long)), *rdst = rsrc + 1;
    EXPECT(shmem_malloc, 1);
    *rsrc = one;
    shmem_barrier_all();
    EXPECT(shmem_barrier_all, 1);
    CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, rdst, rsrc, 1) == 0, "reduce");
    sum = *rdst;
    CHECK(shmem_sum_reduce(SHMEM_TEAM_WORLD, rdst, rsrc, 1) == 0, "generic reduce");
    sum2 = *rdst;
    EXPECT(shmem_long_sum_reduce, 2);
    CHECK(sum == (long)n * (n + 1) / 2 && sum2 == sum, "sum %ld %ld", sum, sum2);
    *rsrc = 1000 + me;
    shmem_barrier_all();
    EXPECT(shmem_barrier_all, 1);
    CHECK(shmem_long_broadcast(SHMEM_TEAM_WORLD, rdst, rsrc, 1, n - 1) == 0, "broadcast");
    EXPECT(shmem_long_broadcast, 1);
    if (me != n - 1)
        CHECK(*rdst == 1000 + n - 1, "broadcast value %ld", *rdst);

    /* Teams and contexts. */
    shmem_team_t evens;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &evens);
    EXPECT(shmem_team_split_strided, 1);
    if (me % 2 == 0) {
        CHECK(shmem_team_my_pe(evens) == me / 2, "team_my_pe");
        EXPECT(shmem_team_my_pe, 1);
        shmem_team_destroy(evens);
        EXPECT(shmem_team_destroy, 1);
    }
    shmem_ctx_t ctx;
    CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");
    EXPECT(shmem_ctx_create, 1);
    shmem_ctx_long_put(ctx, buf + 10, src, 1, right);
    shmem_put(ctx, buf + 11, src + 1, 1, right);
    EXPECT(shmem_ctx_long_put, 2);
    shmem_ctx_quiet(ctx);
    EXPECT(shmem_ctx_quiet, 1);
    shmem_ctx_destroy(ctx);
    EXPECT(shmem_ctx_destroy, 1);

    /* The pshmem_ names bypass the tool. */
    pshmem_barrier_all();
    pshmem_long_put(buf + 14, src, 1, right);
    pshmem_quiet();
    shmem_barrier_all();
    EXPECT(shmem_barrier_all, 1);
    CHECK(buf[10] == 100 * left && buf[11] == 100 * left + 1 && buf[14] == 100 * left,
          "ctx and pshmem puts %ld %ld %ld", buf[10], buf[11], buf[14]);
    if (me == 0)
        CHECK(*old == 5L * n, "lock-protected total %ld", *old);

    shmem_free(rsrc);
    shmem_free(sig);
    shmem_free(buf);
    shmem_free(old);
    EXPECT(shmem_free, 4);

    /* Every count exact, in every PE. */
    for (int i = 0; i < PROFTOOL_N; i++)
        CHECK(proftool_count(proftool_names[i]) == expected[i], "%s called %ld times, tool saw %ld",
              proftool_names[i], expected[i], proftool_count(proftool_names[i]));
    test_passed("prof");
    shmem_finalize();
    return 0;
}
