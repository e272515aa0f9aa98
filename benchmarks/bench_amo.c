/*
 * bench_amo.c - latency and rate of shmpi's atomic memory operations on a
 * heap word of the peer, next to the references measured in the same run:
 *
 *   C11     the same atomic done by the CPU on the peer's word, mapped here
 *           with shmem_ptr (atomic_fetch_add, atomic_compare_exchange_strong,
 *           atomic_load): the memory system's limit.  Only when the peer's
 *           heap is mapped (not under SHMPI_MPI_ONLY).
 *   MPI     raw MPI on a window of this program's own: MPI_Fetch_and_op
 *           (MPI_SUM / MPI_NO_OP), MPI_Compare_and_swap, MPI_Accumulate,
 *           each + MPI_Win_flush (rate tables: 64 of them + MPI_Win_flush_all).
 *
 * PEs form pairs (i, i + npes/2); the first of each pair issues the AMOs to
 * a word of the second; all pairs run at once.  The last table has both
 * PEs of a pair hammer the same word (contended fetch_add).
 *
 * In the default MPI-only mode shmpi maps add and fetch_add to compare-and-
 * swaps (src/ops/amo.c); the rate rows and the contended row are judged by
 * that sequence written in raw MPI (MPI-cas, MPI-cas-loop), the MPI column
 * then being information.
 *
 * With SHMPI_AMO_OPS set (the kinds of AMO routine the program calls, see
 * README), only the tables of those kinds run, and the target lines name
 * the declaration: SHMPI_AMO_OPS=add measures shmpi's direct MPI_SUM path.
 */
#include "bench.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define RATE_WINDOW 64
#define LINE_LONGS 8 /* longs per 64-byte cache line */

struct amo {
    long *word;              /* symmetric word (this PE's address; the target's copy is used) */
    _Atomic long *peer_word; /* the peer's word mapped here, or NULL */
    int pe;                  /* the PE holding the word */
    long cur;                /* compare_swap: the value the word holds now */
    struct bench_win *w;     /* MPI: word at offset `off` of PE pe's region */
    MPI_Aint off;
    long fetched[RATE_WINDOW];
};

static volatile long sink;

/* ---- fetch_add ------------------------------------------------------------------------------ */
static void fadd_shmpi(void *arg, long n)
{
    struct amo *a = arg;
    long s = 0;
    for (long i = 0; i < n; i++)
        s += shmem_long_atomic_fetch_add(a->word, 1, a->pe);
    sink = s;
}

static void fadd_c11(void *arg, long n)
{
    struct amo *a = arg;
    long s = 0;
    for (long i = 0; i < n; i++)
        s += atomic_fetch_add(a->peer_word, 1);
    sink = s;
}

static void fadd_mpi(void *arg, long n)
{
    struct amo *a = arg;
    long one = 1, s = 0;
    for (long i = 0; i < n; i++) {
        long old;
        MPI_Fetch_and_op(&one, &old, MPI_LONG, a->pe, a->w->disp[a->pe] + a->off, MPI_SUM,
                         a->w->win);
        MPI_Win_flush(a->pe, a->w->win);
        s += old;
    }
    sink = s;
}

/* ---- compare_swap (always succeeds: only this PE changes the word) ---------------------------- */
static void cswap_shmpi(void *arg, long n)
{
    struct amo *a = arg;
    for (long i = 0; i < n; i++) {
        long old = shmem_long_atomic_compare_swap(a->word, a->cur, a->cur + 1, a->pe);
        a->cur = old == a->cur ? a->cur + 1 : old;
    }
}

static void cswap_c11(void *arg, long n)
{
    struct amo *a = arg;
    for (long i = 0; i < n; i++) {
        long expected = a->cur;
        if (atomic_compare_exchange_strong(a->peer_word, &expected, expected + 1))
            a->cur = expected + 1;
        else
            a->cur = expected;
    }
}

static void cswap_mpi(void *arg, long n)
{
    struct amo *a = arg;
    for (long i = 0; i < n; i++) {
        long compare = a->cur, value = a->cur + 1, old;
        MPI_Compare_and_swap(&value, &compare, &old, MPI_LONG, a->pe,
                             a->w->disp[a->pe] + a->off, a->w->win);
        MPI_Win_flush(a->pe, a->w->win);
        a->cur = old == compare ? value : old;
    }
}

/* ---- add (non-fetching) ---------------------------------------------------------------------- */
static void add_shmpi(void *arg, long n)
{
    struct amo *a = arg;
    for (long i = 0; i < n; i++)
        shmem_long_atomic_add(a->word, 1, a->pe);
}

static void add_c11(void *arg, long n)
{
    struct amo *a = arg;
    for (long i = 0; i < n; i++)
        atomic_fetch_add(a->peer_word, 1);
}

static void add_mpi(void *arg, long n)
{
    struct amo *a = arg;
    long one = 1;
    for (long i = 0; i < n; i++) {
        MPI_Accumulate(&one, 1, MPI_LONG, a->pe, a->w->disp[a->pe] + a->off, 1, MPI_LONG,
                       MPI_SUM, a->w->win);
        MPI_Win_flush(a->pe, a->w->win);
    }
}

/* ---- fetch ------------------------------------------------------------------------------------ */
static void fetch_shmpi(void *arg, long n)
{
    struct amo *a = arg;
    long s = 0;
    for (long i = 0; i < n; i++)
        s += shmem_long_atomic_fetch(a->word, a->pe);
    sink = s;
}

static void fetch_c11(void *arg, long n)
{
    struct amo *a = arg;
    long s = 0;
    for (long i = 0; i < n; i++)
        s += atomic_load(a->peer_word);
    sink = s;
}

static void fetch_mpi(void *arg, long n)
{
    struct amo *a = arg;
    long s = 0;
    for (long i = 0; i < n; i++) {
        long old;
        MPI_Fetch_and_op(NULL, &old, MPI_LONG, a->pe, a->w->disp[a->pe] + a->off, MPI_NO_OP,
                         a->w->win);
        MPI_Win_flush(a->pe, a->w->win);
        s += old;
    }
    sink = s;
}

/* ---- rate: RATE_WINDOW operations, then completion ------------------------------------------- */
static void add_rate_shmpi(void *arg, long n)
{
    struct amo *a = arg;
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < RATE_WINDOW; k++)
            shmem_long_atomic_add(a->word, 1, a->pe);
        shmem_quiet();
    }
}

static void add_rate_c11(void *arg, long n)
{
    struct amo *a = arg;
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < RATE_WINDOW; k++)
            atomic_fetch_add_explicit(a->peer_word, 1, memory_order_relaxed);
        atomic_thread_fence(memory_order_seq_cst);
    }
}

static void add_rate_mpi(void *arg, long n)
{
    struct amo *a = arg;
    long one = 1;
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < RATE_WINDOW; k++)
            MPI_Accumulate(&one, 1, MPI_LONG, a->pe, a->w->disp[a->pe] + a->off, 1, MPI_LONG,
                           MPI_SUM, a->w->win);
        MPI_Win_flush_all(a->w->win);
    }
}

/* Nonblocking AMOs are OpenSHMEM 1.5: built against a 1.4 library (a peer,
 * benchmarks/peers.sh) the row has no shmem column and says why. */
#define BENCH_NBI_AMO                                                                            \
    (SHMEM_MAJOR_VERSION > 1 || (SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION >= 5))

static void fadd_nbi_shmpi(void *arg, long n)
{
#if BENCH_NBI_AMO
    struct amo *a = arg;
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < RATE_WINDOW; k++)
            shmem_long_atomic_fetch_add_nbi(&a->fetched[k], a->word, 1, a->pe);
        shmem_quiet();
    }
#else
    (void)arg;
    (void)n;
#endif
}

static void fadd_nbi_c11(void *arg, long n)
{
    struct amo *a = arg;
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < RATE_WINDOW; k++)
            a->fetched[k] = atomic_fetch_add_explicit(a->peer_word, 1, memory_order_relaxed);
        atomic_thread_fence(memory_order_seq_cst);
        BENCH_CLOBBER();
    }
}

static void fadd_nbi_mpi(void *arg, long n)
{
    struct amo *a = arg;
    long one = 1;
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < RATE_WINDOW; k++)
            MPI_Fetch_and_op(&one, &a->fetched[k], MPI_LONG, a->pe,
                             a->w->disp[a->pe] + a->off, MPI_SUM, a->w->win);
        MPI_Win_flush_all(a->w->win);
    }
}

/* ---- diagnostics: shmpi's MPI algorithm for add/fetch_add in raw MPI ---------------------
 * src/ops/amo.c uses only MPI_NO_OP and MPI_Compare_and_swap: compare-and-swap
 * old -> old + 1 from a guess of the word, retried from the value it returns
 * until the word had not changed, each + flush. */
static long mpi_read_word(struct amo *a, MPI_Aint disp)
{
    long value;
    MPI_Fetch_and_op(NULL, &value, MPI_LONG, a->pe, disp, MPI_NO_OP, a->w->win);
    MPI_Win_flush(a->pe, a->w->win);
    return value;
}

/* Adds 1 by compare-and-swap starting from `guess`; returns the old value. */
static long mpi_cas_add_one(struct amo *a, MPI_Aint disp, long guess)
{
    for (;;) {
        long value = guess + 1, seen;
        MPI_Compare_and_swap(&value, &guess, &seen, MPI_LONG, a->pe, disp, a->w->win);
        MPI_Win_flush(a->pe, a->w->win);
        if (seen == guess)
            return guess;
        guess = seen;
    }
}

/* Uncontended: read the word, then compare-and-swap. */
static void fadd_mpi_readcas(void *arg, long n)
{
    struct amo *a = arg;
    MPI_Aint disp = a->w->disp[a->pe] + a->off;
    long s = 0;
    for (long i = 0; i < n; i++)
        s += mpi_cas_add_one(a, disp, mpi_read_word(a, disp));
    sink = s;
}

/* Contended, guessing as shmpi does: each compare-and-swap expects the value
 * this PE left after its previous one (read once at the start). */
static void fadd_mpi_guesscas(void *arg, long n)
{
    struct amo *a = arg;
    MPI_Aint disp = a->w->disp[a->pe] + a->off;
    long guess = mpi_read_word(a, disp), s = 0;
    for (long i = 0; i < n; i++) {
        long old = mpi_cas_add_one(a, disp, guess);
        s += old;
        guess = old + 1;
    }
    sink = s;
}

/* Rate, queued as shmpi queues a non-fetching or _nbi add: RATE_WINDOW
 * compare-and-swaps, each from the value the previous one leaves, then one
 * flush; one the word did not match (none here: nobody else writes it)
 * would be redone. */
static void add_rate_mpi_cas(void *arg, long n)
{
    struct amo *a = arg;
    MPI_Aint disp = a->w->disp[a->pe] + a->off;
    long guess = mpi_read_word(a, disp);
    long value[RATE_WINDOW], compare[RATE_WINDOW];
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < RATE_WINDOW; k++) {
            compare[k] = guess;
            value[k] = ++guess;
            MPI_Compare_and_swap(&value[k], &compare[k], &a->fetched[k], MPI_LONG, a->pe, disp,
                                 a->w->win);
        }
        MPI_Win_flush_all(a->w->win);
        for (int k = 0; k < RATE_WINDOW; k++)
            if (a->fetched[k] != compare[k])
                guess = mpi_cas_add_one(a, disp, mpi_read_word(a, disp)) + 1;
    }
}

/* An extra raw MPI column: shmpi's default MPI sequence for the operation. */
struct seq {
    const char *name; /* column title */
    const char *what; /* its description in the table title */
    bool judged;      /* the row is judged by it (in the default mode): the sequence
                         shmpi maps the operation to, not a diagnostic */
    bench_fn fn;
};

static const struct seq read_cas = {
    "MPI-rd+cas",
    "diagnostic: MPI-rd+cas = shmpi's MPI algorithm in raw MPI (MPI_Fetch_and_op(MPI_NO_OP) "
    "+ flush, MPI_Compare_and_swap + flush)",
    false, fadd_mpi_readcas};
static const struct seq cas_chain = {
    "MPI-cas",
    "MPI-cas = shmpi's default MPI sequence in raw MPI (64 x MPI_Compare_and_swap, each from "
    "the value the one before leaves, + MPI_Win_flush_all)",
    true, add_rate_mpi_cas};

struct op {
    const char *name, *kind, *title; /* kind: its SHMPI_AMO_OPS name */
    bench_fn shmpi, c11, mpi;
    int per_call;
    const struct seq *seq; /* shmpi's sequence in raw MPI (default mode only), or NULL */
    bool sum_window; /* MPI reference uses MPI_SUM: window with which_accumulate_ops=sum,... */
};

static const struct op ops[] = {
    {"fetch_add", "add", "fetch_add: shmem_long_atomic_fetch_add | C11 atomic_fetch_add through "
                  "shmem_ptr | MPI_Fetch_and_op(MPI_SUM) + MPI_Win_flush",
     fadd_shmpi, fadd_c11, fadd_mpi, 1, &read_cas, true},
    {"compare_swap", "compare_swap", "compare_swap: shmem_long_atomic_compare_swap | C11 "
                     "atomic_compare_exchange_strong | MPI_Compare_and_swap + MPI_Win_flush",
     cswap_shmpi, cswap_c11, cswap_mpi, 1, NULL, false},
    {"add", "add", "add (non-fetching): shmem_long_atomic_add | C11 atomic_fetch_add | "
            "MPI_Accumulate(MPI_SUM) + MPI_Win_flush",
     add_shmpi, add_c11, add_mpi, 1, &read_cas, true},
    {"fetch", "fetch", "fetch: shmem_long_atomic_fetch | C11 atomic_load | "
              "MPI_Fetch_and_op(MPI_NO_OP) + MPI_Win_flush",
     fetch_shmpi, fetch_c11, fetch_mpi, 1, NULL, false},
    {"add_rate", "add", "add rate: 64 x shmem_long_atomic_add + shmem_quiet, per op | 64 x C11 "
                 "atomic_fetch_add + fence | 64 x MPI_Accumulate + MPI_Win_flush_all",
     add_rate_shmpi, add_rate_c11, add_rate_mpi, RATE_WINDOW, &cas_chain, true},
    {"fetch_add_nbi_rate", "add", "fetch_add_nbi rate: 64 x shmem_long_atomic_fetch_add_nbi + "
                           "shmem_quiet, per op | 64 x C11 atomic_fetch_add + fence | "
                           "64 x MPI_Fetch_and_op(MPI_SUM) + MPI_Win_flush_all",
     fadd_nbi_shmpi, fadd_nbi_c11, fadd_nbi_mpi, RATE_WINDOW, &cas_chain, true},
};
#define N_OPS ((int)(sizeof ops / sizeof ops[0]))

/* Whether SHMPI_AMO_OPS (unset: any) lets the program call AMOs of `kind`
 * (a fetch always may). */
static bool declared(const char *kind)
{
    const char *list = getenv("SHMPI_AMO_OPS");
    if (!list || !strcmp(list, "any") || !strcmp(kind, "fetch"))
        return true;
    size_t len = strlen(kind);
    for (const char *item = list;; item++) {
        size_t item_len = strcspn(item, ",");
        if (item_len == len && !strncmp(item, kind, len))
            return true;
        item += item_len;
        if (!*item)
            return false;
    }
}

int main(int argc, char **argv)
{
    bench_init(argc, argv, "bench_amo",
               "fetch_add, compare_swap, add, fetch on a peer's heap word vs C11 atomics "
               "through shmem_ptr and vs raw MPI atomics on a window of its own");
    int me = bench_job.me, npes = bench_job.npes;
    if (npes < 2) {
        bench_printf("# bench_amo needs at least 2 PEs\n");
        bench_finalize();
        return 0;
    }
    int half = npes / 2;
    bool initiator = me < half;
    bool active = me < 2 * half;
    int peer = !active ? me : initiator ? me + half : me - half;
    bench_printf("# pairs: PE i -> word on PE i+%d for i < %d (%d pair%s at once)%s\n", half,
                 half, half, half > 1 ? "s" : "", npes % 2 ? "; the last PE idles" : "");

    /* One cache line per word: ops, then the contended word. */
    long *words = shmem_calloc((size_t)(N_OPS + 1) * LINE_LONGS, sizeof(long));
    if (!words) {
        fprintf(stderr, "bench_amo: PE %d: shmem_calloc failed\n", me);
        shmem_global_exit(1);
    }
    /* The MPI references: MPI_SUM needs it in which_accumulate_ops; fetch and
     * compare_swap use a window with exactly shmpi's hints. */
    struct bench_win win_sum, win_cas;
    bench_win_create(&win_sum, 4096, "sum,cswap,no_op");
    bench_win_create(&win_cas, 4096, NULL);
    shmem_barrier_all();
    bool have_c11 = bench_all(!initiator || shmem_ptr(words, peer) != NULL);
    bench_printf("# peer heap mapped (shmem_ptr): %s\n",
                 have_c11 ? "yes: C11 references measured" : "no: C11 references not available");
    int judge = have_c11 ? 1 : 2;
    const char *decl = getenv("SHMPI_AMO_OPS");
    char prefix[96] = "";
    if (decl && strcmp(decl, "any") != 0)
        snprintf(prefix, sizeof prefix, "[SHMPI_AMO_OPS=%s] ", decl);

    struct bench_stat st[N_OPS][4] = {0}; /* .valid false for tables not run */
    bool by_seq[N_OPS] = {0};              /* judged by the sequence column */
    for (int o = 0; o < N_OPS; o++) {
        const struct op *op = &ops[o];
        if (!declared(op->kind)) {
            bench_printf("\n# %s: not run (SHMPI_AMO_OPS=%s)\n", op->name, decl);
            continue;
        }
        long *word = &words[o * LINE_LONGS];
        struct amo a = {word, have_c11 && initiator ? shmem_ptr(word, peer) : NULL, peer, 0,
                        op->sum_window ? &win_sum : &win_cas, (MPI_Aint)(o * 64), {0}};
        struct amo c = a, m = a, d = a;
        d.w = &win_cas; /* shmpi's window hints */
        d.off = (MPI_Aint)(o * 64);
        /* The sequence column is shmpi's default algorithm: not for the
         * direct path (SHMPI_AMO_OPS) nor for another library. */
        int nv = op->seq && !*prefix && bench_job.is_shmpi ? 4 : 3;
        by_seq[o] = nv == 4 && op->seq->judged && !have_c11;
        bool in_library = BENCH_NBI_AMO || op->shmpi != fadd_nbi_shmpi;
        struct bench_variant v[4] = {
            {"shmpi", initiator ? op->shmpi : NULL, &a, op->per_call, 0, in_library},
            {"C11", initiator ? op->c11 : NULL, &c, op->per_call, 0, have_c11},
            {"MPI", initiator ? op->mpi : NULL, &m, op->per_call, 0, true},
            {nv == 4 ? op->seq->name : "", initiator && nv == 4 ? op->seq->fn : NULL, &d,
             op->per_call, 0, true},
        };
        if (nv == 4) {
            char title[512];
            snprintf(title, sizeof title, "%s | %s", op->title, op->seq->what);
            bench_table_head(title, v, nv, by_seq[o] ? 3 : judge, false);
        } else {
            bench_table_head(op->title, v, nv, judge, false);
        }
        bench_run(v, nv, st[o]);
        if (!in_library)
            bench_printf("# (%s: the library is OpenSHMEM %d.%d, without nonblocking AMOs)\n",
                         op->name, SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION);
        bench_table_row(8, v, st[o], nv, false);
    }

    /* Contended: both PEs of a pair fetch_add the second one's word at once. */
    struct bench_stat cst[4] = {0};
    /* The cas-loop column is shmpi's default MPI algorithm: not shown for the
     * direct path (SHMPI_AMO_OPS) nor for another library (Open MPI 4.1.4's
     * emulated compare-and-swap crashed in it, in osc/rdma + btl/vader). */
    int ncv = *prefix || !bench_job.is_shmpi ? 3 : 4;
    if (declared("add")) {
        long *word = &words[N_OPS * LINE_LONGS];
        int holder = initiator ? peer : me;
        struct amo a = {word, have_c11 ? shmem_ptr(word, holder) : NULL, holder, 0, &win_sum,
                        (MPI_Aint)(N_OPS * 64), {0}};
        struct amo c = a, m = a, g = a;
        g.w = &win_cas; /* shmpi's window hints */
        struct bench_variant v[4] = {
            {"shmpi", active ? fadd_shmpi : NULL, &a, 1, 0, true},
            {"C11", active ? fadd_c11 : NULL, &c, 1, 0, have_c11},
            {"MPI", active ? fadd_mpi : NULL, &m, 1, 0, true},
            {"MPI-cas-loop", active ? fadd_mpi_guesscas : NULL, &g, 1, 0, true},
        };
        bench_table_head(ncv == 4 ? "contended fetch_add: both PEs of a pair on one word (per "
                                    "op of one PE) | MPI-cas-loop = shmpi's default MPI "
                                    "algorithm in raw MPI (MPI_Compare_and_swap + flush from "
                                    "the value it left, retried)"
                                  : "contended fetch_add: both PEs of a pair on one word (per "
                                    "op of one PE)",
                         v, ncv, ncv == 4 && !have_c11 ? 3 : judge, false);
        bench_run(v, ncv, cst);
        bench_table_row(8, v, cst, ncv, false);
    }

    if (have_c11) {
        bench_target("fetch_add latency (us)", st[0][0].valid ? st[0][0].med * 1e6 : -1, 0.2,
                     "us");
    } else {
        char what[192];
        for (int o = 0; o < N_OPS; o++) {
            if (!declared(ops[o].kind))
                continue;
            if (by_seq[o]) {
                snprintf(what, sizeof what, "%s / its raw MPI sequence (%s)", ops[o].name,
                         ops[o].seq->name);
                bench_target(what, bench_ratio(&st[o][0], &st[o][3]), 1.1, "x");
                continue;
            }
            snprintf(what, sizeof what, "%s%s / raw MPI", prefix, ops[o].name);
            bench_target(what, bench_ratio(&st[o][0], &st[o][2]), 1.1, "x");
        }
        /* shmpi's default maps fetch_add to a compare-and-swap loop (every
         * AMO one MPI op, so that mixed kinds stay atomic): judged against
         * that sequence, MPI_Fetch_and_op shown below for information.  The
         * direct path (SHMPI_AMO_OPS=add) is judged against MPI_Fetch_and_op. */
        if (ncv == 4) {
            bench_target("contended fetch_add / its raw MPI sequence (cas loop)",
                         bench_ratio(&cst[0], &cst[3]), 1.1, "x");
        } else if (declared("add")) {
            snprintf(what, sizeof what, "%scontended fetch_add / raw MPI", prefix);
            bench_target(what, bench_ratio(&cst[0], &cst[2]), 1.1, "x");
        }
    }
    bench_printf("\n## known facts (issue) vs this run\n");
    if (ncv == 4 && !have_c11 && cst[0].valid && cst[2].valid)
        bench_printf("# contended fetch_add / MPI_Fetch_and_op: %.3fx (information: the cas loop "
                     "keeps fetch_add atomic with the other AMO kinds, which MPI_Fetch_and_op "
                     "would not; SHMPI_AMO_OPS=add maps it to MPI_Fetch_and_op)\n",
                     bench_ratio(&cst[0], &cst[2]));
    for (int o = 0; o < N_OPS; o++)
        if (by_seq[o] && st[o][0].valid && st[o][2].valid)
            bench_printf("# %s / the MPI column: %.3fx (information: queued adds are "
                         "compare-and-swaps, atomic with the other AMO kinds; SHMPI_AMO_OPS=add "
                         "maps them to MPI_SUM)\n",
                         ops[o].name, bench_ratio(&st[o][0], &st[o][2]));
    if (declared("add"))
        bench_printf("# raw MPI_Fetch_and_op + flush: %.2f us (issue: 1.7 us)\n",
                     st[0][2].med * 1e6);
    if (have_c11 && declared("add"))
        bench_printf("# C11 atomic_fetch_add on the peer's line: %.1f ns uncontended, %.1f ns "
                     "contended\n",
                     st[0][1].med * 1e9, cst[1].med * 1e9);

    shmem_barrier_all();
    bench_win_free(&win_cas);
    bench_win_free(&win_sum);
    shmem_free(words);
    bench_finalize();
    return 0;
}
