/*
 * bench_nodes.c - the rows of the OSU OpenSHMEM benchmarks that go to
 * another node, each next to the raw MPI operation it is judged by, on a
 * dynamic window of this program's own (the window kind shmpi uses),
 * measured in the same run.  Written after the OSU loops (the OSU suite is
 * not among the project's third-party snapshots):
 *
 *   put, get    8 bytes: shmem_putmem + shmem_quiet | MPI_Put + MPI_Win_flush;
 *               shmem_getmem | MPI_Get + MPI_Win_flush
 *   AMOs        as osu_oshm_atomics: each operation on the next word of an
 *               array the target filled with random values before the run,
 *               so the origin has seen none of them: fetch_add, swap,
 *               compare_swap | MPI_Fetch_and_op(MPI_SUM / MPI_REPLACE),
 *               MPI_Compare_and_swap, each + MPI_Win_flush; add (non-fetching,
 *               a shmem_quiet after each timed batch) | MPI_Fetch_and_op +
 *               MPI_Win_flush
 *   put rate    as osu_oshm_put_mr: 500 blocking puts of 8 B (4 KiB), then
 *               shmem_quiet | 500 MPI_Put + MPI_Win_flush; per put
 *   the target's wait
 *               fetch_add to a target that waits, as osu_oshm_atomics'
 *               target does, in each kind of wait: the target calls the wait at
 *               once and the origin joins it after its operations, so it ends
 *               each timed batch: a barrier, a team reduction, a broadcast, a
 *               collect, an alltoall, an active-set reduction (shmem_TYPE_sum_to_all
 *               of all PEs), wait_until (the origin sets the word last), and
 *               computing (a loop that calls nothing; the origin's last AMO sets
 *               the word it reads); put and get 8 B to a target in a reduction.
 *               The raw rows' target waits in the blocking
 *               MPI collective of the same kind (MPI_Barrier for wait_until);
 *               a computing raw MPI target would never complete them: no row.
 *
 * PEs form pairs (i, i + npes/2); the first of each pair is the origin.  Run
 * it with one PE per node (benchmarks/run.sh -N, tests/launch-nodes.sh 2x1);
 * on one node it measures the same rows through shared memory or, with
 * SHMPI_MPI_ONLY=1, through MPI.
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define WORDS 4096      /* fresh words per timed run (OSU: 500 per benchmark) */
#define RATE_PUTS 500   /* puts per quiet (osu_oshm_put_mr) */
#define RATE_MAX 4096   /* the largest rate row's message */

/* What the target waits in while the origin works (the rows of "the
 * target's wait"). */
enum meet {
    MEET_NONE, /* the harness's: shmem_barrier_all, or MPI_Barrier for raw rows */
    MEET_BARRIER,
    MEET_REDUCE,
    MEET_BROADCAST,
    MEET_COLLECT,
    MEET_ALLTOALL,
    MEET_ACTIVE_SET,
    MEET_WAIT_UNTIL,
    MEET_COMPUTING
};

struct side {
    long *words;          /* symmetric array of WORDS (the target's copy is used) */
    char *sym;            /* symmetric buffer of RATE_MAX bytes */
    char *loc;            /* private buffer of RATE_MAX bytes */
    struct bench_win *w;  /* MPI: words at offset 0, buffer at WORDS * 8 */
    int pe;               /* the target */
    size_t size;          /* bytes per put / get */
    long next;            /* the next fresh word */
    long seed;
    bool origin;
    enum meet meet;
    long *coll;           /* symmetric: MEET_WORDS longs per PE, twice (source, dest) */
    long *psync;          /* symmetric pSync of SHMEM_REDUCE_SYNC_SIZE (active set) */
    long *pwrk;           /* symmetric pWrk of SHMEM_REDUCE_MIN_WRKDATA_SIZE */
    long *flag;           /* symmetric word the origin sets last (wait_until, computing) */
    long meetings;        /* how many meetings this side made so far */
};
#define MEET_WORDS 1

static volatile long sink;

/* Before each timed run: new random values in the target's words (both
 * libraries' copies), so no word was seen by the origin. */
static void fresh_words(void *arg)
{
    struct side *s = arg;
    long values[WORDS];
    for (int i = 0; i < WORDS; i++) {
        s->seed = s->seed * 6364136223846793005L + 1442695040888963407L;
        values[i] = s->seed >> 20;
    }
    shmem_putmem(s->words, values, sizeof values, s->pe);
    shmem_quiet();
    MPI_Put(values, WORDS, MPI_LONG, s->pe, s->w->disp[s->pe], WORDS, MPI_LONG, s->w->win);
    MPI_Win_flush(s->pe, s->w->win);
    s->next = 0;
}

static long next_word(struct side *s)
{
    long i = s->next;
    s->next = s->next + 1 == WORDS ? 0 : s->next + 1;
    return i;
}

static MPI_Aint word_disp(struct side *s, long i)
{
    return s->w->disp[s->pe] + (MPI_Aint)(i * (long)sizeof(long));
}

static MPI_Aint buffer_disp(struct side *s)
{
    return s->w->disp[s->pe] + (MPI_Aint)(WORDS * sizeof(long));
}

/* ---- put, get ----------------------------------------------------------------------------- */
static void put_shmpi(void *arg, long n)
{
    struct side *s = arg;
    for (long i = 0; i < n; i++) {
        shmem_putmem(s->sym, s->loc, s->size, s->pe);
        shmem_quiet();
    }
}

/* MPI_Put (put) or MPI_Get, each + MPI_Win_flush. */
static void rma_mpi(struct side *s, long n, bool put)
{
    for (long i = 0; i < n; i++) {
        if (put)
            MPI_Put(s->loc, (int)s->size, MPI_BYTE, s->pe, buffer_disp(s), (int)s->size,
                    MPI_BYTE, s->w->win);
        else
            MPI_Get(s->loc, (int)s->size, MPI_BYTE, s->pe, buffer_disp(s), (int)s->size,
                    MPI_BYTE, s->w->win);
        MPI_Win_flush(s->pe, s->w->win);
    }
}

static void put_mpi(void *arg, long n)
{
    rma_mpi(arg, n, true);
}

static void get_shmpi(void *arg, long n)
{
    struct side *s = arg;
    for (long i = 0; i < n; i++)
        shmem_getmem(s->loc, s->sym, s->size, s->pe);
}

static void get_mpi(void *arg, long n)
{
    rma_mpi(arg, n, false);
}

/* ---- AMOs on fresh words ---------------------------------------------------------------- */
enum amo_kind { FETCH_ADD, SWAP, COMPARE_SWAP };

static void amo_shmpi(struct side *s, long n, enum amo_kind kind)
{
    long sum = 0;
    for (long i = 0; i < n; i++) {
        long *word = &s->words[next_word(s)];
        sum += kind == FETCH_ADD ? shmem_long_atomic_fetch_add(word, 1, s->pe)
               : kind == SWAP    ? shmem_long_atomic_swap(word, i, s->pe)
                                 : shmem_long_atomic_compare_swap(word, 0, 1, s->pe);
    }
    sink = sum;
}

static void amo_mpi(struct side *s, long n, enum amo_kind kind)
{
    long one = 1, zero = 0, sum = 0;
    for (long i = 0; i < n; i++) {
        long old;
        MPI_Aint disp = word_disp(s, next_word(s));
        if (kind == COMPARE_SWAP)
            MPI_Compare_and_swap(&one, &zero, &old, MPI_LONG, s->pe, disp, s->w->win);
        else
            MPI_Fetch_and_op(&one, &old, MPI_LONG, s->pe, disp,
                             kind == FETCH_ADD ? MPI_SUM : MPI_REPLACE, s->w->win);
        MPI_Win_flush(s->pe, s->w->win);
        sum += old;
    }
    sink = sum;
}

static void fadd_shmpi(void *arg, long n) { amo_shmpi(arg, n, FETCH_ADD); }
static void fadd_mpi(void *arg, long n) { amo_mpi(arg, n, FETCH_ADD); }
static void swap_shmpi(void *arg, long n) { amo_shmpi(arg, n, SWAP); }
static void swap_mpi(void *arg, long n) { amo_mpi(arg, n, SWAP); }
static void cswap_shmpi(void *arg, long n) { amo_shmpi(arg, n, COMPARE_SWAP); }
static void cswap_mpi(void *arg, long n) { amo_mpi(arg, n, COMPARE_SWAP); }

static void add_shmpi(void *arg, long n)
{
    struct side *s = arg;
    for (long i = 0; i < n; i++)
        shmem_long_atomic_add(&s->words[next_word(s)], 1, s->pe);
    shmem_quiet();
}

/* ---- the target's wait ------------------------------------------------------------------ */
/* shmpi's side of a meeting: the target enters it at once, the origin after
 * its operations. */
static void meet_shmpi(struct side *s)
{
    long n = shmem_n_pes(), *src = s->coll, *dst = s->coll + n * MEET_WORDS;
    long seq = ++s->meetings;
    switch (s->meet) {
    case MEET_NONE: break;
    case MEET_BARRIER: shmem_barrier_all(); break;
    case MEET_REDUCE: shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, MEET_WORDS); break;
    case MEET_BROADCAST: shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, MEET_WORDS, 0); break;
    case MEET_COLLECT: shmem_long_collect(SHMEM_TEAM_WORLD, dst, src, MEET_WORDS); break;
    case MEET_ALLTOALL: shmem_long_alltoall(SHMEM_TEAM_WORLD, dst, src, MEET_WORDS); break;
    case MEET_ACTIVE_SET:
        shmem_long_sum_to_all(dst, src, MEET_WORDS, 0, 0, (int)n, s->pwrk, s->psync);
        break;
    case MEET_WAIT_UNTIL:
        if (s->origin)
            shmem_long_atomic_set(s->flag, seq, s->pe);
        else
            shmem_long_wait_until(s->flag, SHMEM_CMP_GE, seq);
        break;
    case MEET_COMPUTING:
        if (s->origin) {
            shmem_long_atomic_set(s->flag, seq, s->pe);
        } else {
            /* Computing: nothing of shmpi's or MPI's is called. */
            for (volatile long spin = 0;
                 __atomic_load_n(s->flag, __ATOMIC_ACQUIRE) < seq; spin++)
                ;
        }
        break;
    }
}

/* The same for the raw MPI rows: the blocking MPI collective of its kind. */
static void meet_mpi(struct side *s)
{
    long src[64] = {0}, dst[64];
    MPI_Comm comm = bench_job.comm;
    switch (s->meet) {
    case MEET_REDUCE:
    case MEET_ACTIVE_SET: MPI_Allreduce(src, dst, MEET_WORDS, MPI_LONG, MPI_SUM, comm); break;
    case MEET_BROADCAST: MPI_Bcast(src, MEET_WORDS, MPI_LONG, 0, comm); break;
    case MEET_COLLECT: MPI_Allgather(src, MEET_WORDS, MPI_LONG, dst, MEET_WORDS, MPI_LONG, comm); break;
    case MEET_ALLTOALL: MPI_Alltoall(src, MEET_WORDS, MPI_LONG, dst, MEET_WORDS, MPI_LONG, comm); break;
    default: MPI_Barrier(comm); break;
    }
}

/* NAME(arg, n): the origin makes n calls of its operation (CALLS), then
 * every PE meets (MEET, as the row's target waits). */
#define WITH_MEETING(NAME, CALLS, MEET)                                                        \
    static void NAME(void *arg, long n)                                                       \
    {                                                                                         \
        struct side *s = arg;                                                                 \
        if (s->origin)                                                                        \
            CALLS;                                                                            \
        MEET(s);                                                                              \
    }
WITH_MEETING(fadd_meet_shmpi, amo_shmpi(s, n, FETCH_ADD), meet_shmpi)
WITH_MEETING(fadd_meet_mpi, amo_mpi(s, n, FETCH_ADD), meet_mpi)
WITH_MEETING(put_meet_shmpi, put_shmpi(s, n), meet_shmpi)
WITH_MEETING(put_meet_mpi, rma_mpi(s, n, true), meet_mpi)
WITH_MEETING(get_meet_shmpi, get_shmpi(s, n), meet_shmpi)
WITH_MEETING(get_meet_mpi, rma_mpi(s, n, false), meet_mpi)

/* ---- put rate ------------------------------------------------------------------------------ */
static void rate_shmpi(void *arg, long n)
{
    struct side *s = arg;
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < RATE_PUTS; k++)
            shmem_putmem(s->sym, s->loc, s->size, s->pe);
        shmem_quiet();
    }
}

static void rate_mpi(void *arg, long n)
{
    struct side *s = arg;
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < RATE_PUTS; k++)
            MPI_Put(s->loc, (int)s->size, MPI_BYTE, s->pe, buffer_disp(s), (int)s->size,
                    MPI_BYTE, s->w->win);
        MPI_Win_flush(s->pe, s->w->win);
    }
}

struct row {
    const char *name, *title;
    bench_fn shmpi, mpi;
    size_t size;
    int per_call;
    bool fresh;   /* fresh words before each timed run */
    double limit; /* target: shmpi time / raw MPI time at most this (0: none) */
    enum meet meet; /* MEET_NONE: the target runs nothing (waits in the harness) */
};

static const struct row rows[] = {
    {"put 8 B", "put 8 B: shmem_putmem + shmem_quiet | MPI_Put + MPI_Win_flush", put_shmpi,
     put_mpi, 8, 1, false, 1.1, MEET_NONE},
    {"get 8 B", "get 8 B: shmem_getmem | MPI_Get + MPI_Win_flush", get_shmpi, get_mpi, 8, 1,
     false, 1.1, MEET_NONE},
    {"fetch_add", "fetch_add, a fresh word each: shmem_long_atomic_fetch_add | "
                  "MPI_Fetch_and_op(MPI_SUM) + MPI_Win_flush",
     fadd_shmpi, fadd_mpi, 8, 1, true, 1.25, MEET_NONE},
    {"add", "add (non-fetching), a fresh word each, shmem_quiet after each batch: "
            "shmem_long_atomic_add | MPI_Fetch_and_op(MPI_SUM) + MPI_Win_flush",
     add_shmpi, fadd_mpi, 8, 1, true, 1.0, MEET_NONE},
    {"swap", "swap, a fresh word each: shmem_long_atomic_swap | MPI_Fetch_and_op(MPI_REPLACE) "
             "+ MPI_Win_flush",
     swap_shmpi, swap_mpi, 8, 1, true, 1.25, MEET_NONE},
    {"compare_swap", "compare_swap, a fresh word each: shmem_long_atomic_compare_swap | "
                     "MPI_Compare_and_swap + MPI_Win_flush",
     cswap_shmpi, cswap_mpi, 8, 1, true, 1.25, MEET_NONE},
    {"put rate 8 B", "put rate 8 B: 500 x shmem_putmem + shmem_quiet, per put | 500 x MPI_Put "
                     "+ MPI_Win_flush",
     rate_shmpi, rate_mpi, 8, RATE_PUTS, false, 1.25, MEET_NONE},
    {"put rate 4 KiB", "put rate 4 KiB: 500 x shmem_putmem + shmem_quiet, per put | 500 x "
                       "MPI_Put + MPI_Win_flush",
     rate_shmpi, rate_mpi, RATE_MAX, RATE_PUTS, false, 1.25, MEET_NONE},
#define FADD_TO(WAIT, MEET)                                                                    \
    {"fetch_add, target in " WAIT,                                                            \
     "fetch_add, a fresh word each, the target in " WAIT ": shmem_long_atomic_fetch_add | "   \
     "MPI_Fetch_and_op(MPI_SUM) + MPI_Win_flush",                                             \
     fadd_meet_shmpi, fadd_meet_mpi, 8, 1, true, 1.25, MEET}
    FADD_TO("a barrier", MEET_BARRIER),
    FADD_TO("a reduction", MEET_REDUCE),
    FADD_TO("a broadcast", MEET_BROADCAST),
    FADD_TO("a collect", MEET_COLLECT),
    FADD_TO("an alltoall", MEET_ALLTOALL),
    FADD_TO("an active-set reduction", MEET_ACTIVE_SET),
    FADD_TO("wait_until", MEET_WAIT_UNTIL),
    {"fetch_add, target computing", "fetch_add, a fresh word each, the target computing "
     "(no raw MPI row: its target would never complete it)",
     fadd_meet_shmpi, NULL, 8, 1, true, 0, MEET_COMPUTING},
    {"put 8 B, target in a reduction", "put 8 B, the target in a reduction: shmem_putmem + "
     "shmem_quiet | MPI_Put + MPI_Win_flush",
     put_meet_shmpi, put_meet_mpi, 8, 1, false, 1.1, MEET_REDUCE},
    {"get 8 B, target in a reduction", "get 8 B, the target in a reduction: shmem_getmem | "
     "MPI_Get + MPI_Win_flush",
     get_meet_shmpi, get_meet_mpi, 8, 1, false, 1.1, MEET_REDUCE},
};
#define N_ROWS ((int)(sizeof rows / sizeof rows[0]))

int main(int argc, char **argv)
{
    bench_init(argc, argv, "bench_nodes",
               "OSU-style put, get, AMO and put-rate rows to the paired PE vs raw MPI on a "
               "dynamic window of its own");
    int me = bench_job.me, npes = bench_job.npes;
    if (npes < 2) {
        bench_printf("# bench_nodes needs at least 2 PEs\n");
        bench_finalize();
        return 0;
    }
    int half = npes / 2;
    bool origin = me < half;
    int peer = me < half ? me + half : me - half;
    if (me >= 2 * half)
        peer = me;
    bench_printf("# pairs: PE i -> PE i+%d for i < %d; the target waits in shmem_barrier_all "
                 "(raw MPI rows: in the harness's MPI barrier)\n",
                 half, half);

    long *words = shmem_calloc(WORDS, sizeof(long));
    char *sym = shmem_calloc(RATE_MAX, 1);
    char *loc = calloc(RATE_MAX, 1);
    long *coll = shmem_calloc(2 * (size_t)npes * MEET_WORDS, sizeof(long));
    long *psync = shmem_malloc(SHMEM_REDUCE_SYNC_SIZE * sizeof(long));
    long *pwrk = shmem_malloc(SHMEM_REDUCE_MIN_WRKDATA_SIZE * sizeof(long));
    long *flag = shmem_calloc(1, sizeof(long));
    if (!words || !sym || !loc || !coll || !psync || !pwrk || !flag) {
        fprintf(stderr, "bench_nodes: PE %d: out of memory\n", me);
        shmem_global_exit(1);
    }
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    struct bench_win win;
    bench_win_create(&win, WORDS * sizeof(long) + RATE_MAX, "sum,replace,cswap,no_op");
    shmem_barrier_all();

    struct bench_stat st[N_ROWS][2];
    for (int r = 0; r < N_ROWS; r++) {
        const struct row *row = &rows[r];
        struct side s = {words, sym,   loc,  &win, peer, row->size, 0, 12345 + me, origin,
                         row->meet, coll, psync, pwrk, flag, 0};
        *flag = 0;
        shmem_barrier_all();
        bench_cfg.pre_run = row->fresh ? fresh_words : NULL;
        bench_cfg.pre_run_arg = row->fresh ? &s : NULL;
        /* A PE without a partner (odd count) waits in the harness. */
        bool works = origin || (row->meet != MEET_NONE && peer != me);
        struct bench_variant v[2] = {
            {"shmpi", works ? row->shmpi : NULL, &s, row->per_call, 0, true},
            {"MPI", works ? row->mpi : NULL, &s, row->per_call, 0, row->mpi != NULL},
        };
        bench_table_head(row->title, v, 2, 1, false);
        bench_run(v, 2, st[r]);
        bench_table_row(row->size, v, st[r], 2, false);
    }
    bench_cfg.pre_run = NULL;
    bench_cfg.pre_run_arg = NULL;

    /* The targets are the default configuration's: with SHMPI_PROGRESS_THREAD=0
     * (benchmarks/run.sh -m nodes_no_thread) AMOs are compare-and-swaps and the
     * rows are information. */
    const char *thread = getenv("SHMPI_PROGRESS_THREAD");
    if (bench_job.is_shmpi && thread && strcmp(thread, "0") == 0)
        bench_printf("\n# no targets: SHMPI_PROGRESS_THREAD=0 (they are for the defaults)\n");
    else
        for (int r = 0; r < N_ROWS; r++) {
            char what[96];
            snprintf(what, sizeof what, "%s / raw MPI", rows[r].name);
            if (rows[r].limit > 0)
                bench_target(what, bench_ratio(&st[r][0], &st[r][1]), rows[r].limit, "x");
        }
    bench_printf("\n## rates (per second)\n");
    for (int r = 0; r < N_ROWS; r++)
        if (rows[r].per_call > 1 && st[r][0].valid && st[r][1].valid)
            bench_printf("# %s: shmpi %.0f, raw MPI %.0f\n", rows[r].name, 1 / st[r][0].med,
                         1 / st[r][1].med);

    shmem_barrier_all();
    bench_win_free(&win);
    shmem_free(flag);
    shmem_free(pwrk);
    shmem_free(psync);
    shmem_free(coll);
    shmem_free(sym);
    shmem_free(words);
    free(loc);
    bench_finalize();
    return 0;
}
