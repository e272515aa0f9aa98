/*
 * bench_coll.c - shmpi's collectives on SHMEM_TEAM_WORLD next to the raw
 * MPI collective on MPI_COMM_WORLD, measured in the same run:
 *
 *   MPI      the blocking MPI collective (MPI_Barrier, MPI_Bcast,
 *            MPI_Allreduce, MPI_Allgather, MPI_Alltoall): the reference.
 *   MPI-nb   the nonblocking one (MPI_Ibarrier, ...) completed with
 *            MPI_Test + sched_yield, which is what shmpi uses when a node
 *            runs more PEs than it has CPUs (a blocking MPI collective then
 *            spins and starves the PEs it waits for); otherwise it uses the
 *            blocking one, except for large broadcasts, which overlap the
 *            root's copy to dest with an MPI_Ibcast.
 *
 *   line     (barrier and 8-byte rows) a dissemination barrier on cache
 *            lines: in each of log2(npes) rounds a PE stores a counter into
 *            a flag of the PE 2^round after it (C11 atomics through
 *            shmem_ptr) and waits for its own flag.  Every PE must hear from
 *            every other, so no such collective does less: the memory
 *            system's limit in the same job.
 *   copies   (1 MiB rows) the collective's copies alone, see below.
 *
 * A collective's time is the slowest PE's, per call.  barrier_all and
 * sync_all are always measured; the team collectives (broadcastmem,
 * long_sum_reduce, fcollectmem, alltoallmem) only when the library has
 * them: they are referenced weakly and looked up when the program starts.
 *
 * Built against an OpenSHMEM 1.4 library (no teams; benchmarks/peers.sh
 * builds these programs against peer implementations), the shmem column is
 * that library's 1.4 active-set routine on all PEs instead (shmem_broadcast64,
 * shmem_long_sum_to_all, shmem_fcollect64, shmem_alltoall64, alternating two
 * pSync arrays), and the titles and a header line say so.  One difference:
 * a 1.4 broadcast does not copy to the root's own dest.
 *
 * Legacy rows (tables titled "legacy ..."): the deprecated active-set
 * routines exactly as an OSU-style OpenSHMEM program calls them, in every
 * library: all PEs (PE_start 0, logPE_stride 0, PE_size npes), two pSync
 * arrays alternating from call to call, root 0, a shmem_barrier_all before
 * each timed batch (untimed, as in such a program: the harness's
 * pre_run); shmem_broadcast, shmem_collect (equal sizes),
 * shmem_fcollect (64-bit forms, 32-bit for 4 B) and shmem_long_sum_to_all
 * (int for 4 B), 4 B, 8 B and 16 B to 1 MiB; on 4 PEs also the set of PEs 0 and 2
 * (logPE_stride 1).  Beside each: the team form of the same collective
 * (broadcastmem, collectmem, fcollectmem, TYPE_sum_reduce on the world
 * team or on the team of the same PEs; shmpi's build only), the raw MPI
 * collective it maps to on the set's communicator (MPI_Bcast; for collect
 * MPI_Allgather of the sizes + MPI_Allgatherv, since no PE knows the
 * others' sizes; MPI_Allgather; MPI_Allreduce) and the memory system's
 * limit (all-PE rows: line up to 256 B, copies beyond; none for the
 * reduction's large rows and the stride-2 set).
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#if SHMEM_MAJOR_VERSION > 1 || (SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION >= 5)
#define BENCH_TEAMS 1
#define BENCH_NAME_BCAST "shmem_broadcastmem"
#define BENCH_NAME_MPI_BCAST "MPI_Bcast + the root's memcpy to its dest"
#define BENCH_NAME_REDUCE "shmem_long_sum_reduce"
#define BENCH_NAME_FCOLLECT "shmem_fcollectmem"
#define BENCH_NAME_ALLTOALL "shmem_alltoallmem"
/* Team collectives may still be missing from the library: weak references,
 * NULL when absent. */
#pragma weak shmem_broadcastmem
#pragma weak shmem_long_sum_reduce
#pragma weak shmem_fcollectmem
#pragma weak shmem_alltoallmem
#pragma weak shmem_collectmem
#pragma weak shmem_int_sum_reduce
#else
#define BENCH_TEAMS 0
#define BENCH_NAME_BCAST "shmem_broadcast64 (1.4)"
#define BENCH_NAME_MPI_BCAST "MPI_Bcast"
#define BENCH_NAME_REDUCE "shmem_long_sum_to_all (1.4)"
#define BENCH_NAME_FCOLLECT "shmem_fcollect64 (1.4)"
#define BENCH_NAME_ALLTOALL "shmem_alltoall64 (1.4)"
#endif
/* The largest pSync any of the 1.4 collectives needs. */
#define BENCH_PSYNC_MAX(a, b) ((a) > (b) ? (a) : (b))
#define BENCH_PSYNC_SIZE                                                                         \
    BENCH_PSYNC_MAX(BENCH_PSYNC_MAX(SHMEM_BCAST_SYNC_SIZE, SHMEM_REDUCE_SYNC_SIZE),             \
                    BENCH_PSYNC_MAX(BENCH_PSYNC_MAX(SHMEM_COLLECT_SYNC_SIZE,                     \
                                                    SHMEM_ALLTOALL_SYNC_SIZE),                   \
                                    SHMEM_BARRIER_SYNC_SIZE))

struct coll {
    char *src, *dst; /* symmetric */
    size_t bytes;    /* per PE (fcollect/alltoall: per block) */
    int me, npes_all;
    char **peer_src; /* every PE's src mapped here (shmem_ptr), or NULL */
    _Atomic long *my_flags;       /* line barrier: a 64-byte line per round */
    _Atomic long **round_flags;   /* [round]: that flag of the PE it signals */
    int rounds;
    long line_seq;
    int rc;          /* first nonzero return of a shmem collective */
    int npes;
    unsigned long calls; /* 1.4 calls so far: which pSync is next */
    long *psync[2];      /* symmetric; consecutive calls alternate, so a call never
                          * reuses the pSync of the call just before it */
    long *psync_barrier; /* symmetric: the barriers between legacy batches */
    long *pwrk;     /* symmetric reduction work array */
};

#if BENCH_TEAMS
static void keep_rc(struct coll *c, int rc)
{
    if (rc && !c->rc)
        c->rc = rc;
}
#endif

/* ---- barrier / sync ------------------------------------------------------------------------- */
static void barrier_shmpi(void *arg, long n)
{
    (void)arg;
    for (long i = 0; i < n; i++)
        shmem_barrier_all();
}

static void sync_shmpi(void *arg, long n)
{
    (void)arg;
    for (long i = 0; i < n; i++)
        shmem_sync_all();
}

static void barrier_mpi(void *arg, long n)
{
    (void)arg;
    for (long i = 0; i < n; i++)
        MPI_Barrier(MPI_COMM_WORLD);
}

static void barrier_mpi_nb(void *arg, long n)
{
    (void)arg;
    for (long i = 0; i < n; i++) {
        MPI_Request req;
        MPI_Ibarrier(MPI_COMM_WORLD, &req);
        bench_wait_yield(&req);
    }
}

/* ---- broadcast from PE 0 --------------------------------------------------------------------- */
static void bcast_shmpi(void *arg, long n)
{
    struct coll *c = arg;
    for (long i = 0; i < n; i++)
#if BENCH_TEAMS
        keep_rc(c, shmem_broadcastmem(SHMEM_TEAM_WORLD, c->dst, c->src, c->bytes, 0));
#else
        shmem_broadcast64(c->dst, c->src, c->bytes / 8, 0, 0, 0, c->npes, c->psync[c->calls++ & 1]);
#endif
}

/* The raw MPI sequence of a team broadcast: since OpenSHMEM 1.5 the root's
 * dest receives the data too, so the root broadcasts from src and copies it
 * to its dest, as shmpi does (a 1.4 broadcast leaves the root's dest alone). */
static void bcast_mpi(void *arg, long n)
{
    struct coll *c = arg;
    bool root_copies = BENCH_TEAMS && c->me == 0;
    for (long i = 0; i < n; i++) {
        MPI_Bcast(root_copies ? c->src : c->dst, (int)c->bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
        if (root_copies)
            memcpy(c->dst, c->src, c->bytes);
    }
}

static void bcast_mpi_nb(void *arg, long n)
{
    struct coll *c = arg;
    for (long i = 0; i < n; i++) {
        MPI_Request req;
        MPI_Ibcast(c->dst, (int)c->bytes, MPI_BYTE, 0, MPI_COMM_WORLD, &req);
        bench_wait_yield(&req);
    }
}

/* ---- sum reduction of longs to all ------------------------------------------------------------ */
static void reduce_shmpi(void *arg, long n)
{
    struct coll *c = arg;
    for (long i = 0; i < n; i++)
#if BENCH_TEAMS
        keep_rc(c, shmem_long_sum_reduce(SHMEM_TEAM_WORLD, (long *)c->dst, (const long *)c->src,
                                         c->bytes / sizeof(long)));
#else
        shmem_long_sum_to_all((long *)c->dst, (const long *)c->src, (int)(c->bytes / sizeof(long)),
                              0, 0, c->npes, c->pwrk, c->psync[c->calls++ & 1]);
#endif
}

static void reduce_mpi(void *arg, long n)
{
    struct coll *c = arg;
    for (long i = 0; i < n; i++)
        MPI_Allreduce(c->src, c->dst, (int)(c->bytes / sizeof(long)), MPI_LONG, MPI_SUM,
                      MPI_COMM_WORLD);
}

static void reduce_mpi_nb(void *arg, long n)
{
    struct coll *c = arg;
    for (long i = 0; i < n; i++) {
        MPI_Request req;
        MPI_Iallreduce(c->src, c->dst, (int)(c->bytes / sizeof(long)), MPI_LONG, MPI_SUM,
                       MPI_COMM_WORLD, &req);
        bench_wait_yield(&req);
    }
}

/* ---- fcollect (allgather) --------------------------------------------------------------------- */
static void fcollect_shmpi(void *arg, long n)
{
    struct coll *c = arg;
    for (long i = 0; i < n; i++)
#if BENCH_TEAMS
        keep_rc(c, shmem_fcollectmem(SHMEM_TEAM_WORLD, c->dst, c->src, c->bytes));
#else
        shmem_fcollect64(c->dst, c->src, c->bytes / 8, 0, 0, c->npes, c->psync[c->calls++ & 1]);
#endif
}

static void fcollect_mpi(void *arg, long n)
{
    struct coll *c = arg;
    for (long i = 0; i < n; i++)
        MPI_Allgather(c->src, (int)c->bytes, MPI_BYTE, c->dst, (int)c->bytes, MPI_BYTE,
                      MPI_COMM_WORLD);
}

static void fcollect_mpi_nb(void *arg, long n)
{
    struct coll *c = arg;
    for (long i = 0; i < n; i++) {
        MPI_Request req;
        MPI_Iallgather(c->src, (int)c->bytes, MPI_BYTE, c->dst, (int)c->bytes, MPI_BYTE,
                       MPI_COMM_WORLD, &req);
        bench_wait_yield(&req);
    }
}

/* ---- alltoall --------------------------------------------------------------------------------- */
static void alltoall_shmpi(void *arg, long n)
{
    struct coll *c = arg;
    for (long i = 0; i < n; i++)
#if BENCH_TEAMS
        keep_rc(c, shmem_alltoallmem(SHMEM_TEAM_WORLD, c->dst, c->src, c->bytes));
#else
        shmem_alltoall64(c->dst, c->src, c->bytes / 8, 0, 0, c->npes, c->psync[c->calls++ & 1]);
#endif
}

static void alltoall_mpi(void *arg, long n)
{
    struct coll *c = arg;
    for (long i = 0; i < n; i++)
        MPI_Alltoall(c->src, (int)c->bytes, MPI_BYTE, c->dst, (int)c->bytes, MPI_BYTE,
                     MPI_COMM_WORLD);
}

static void alltoall_mpi_nb(void *arg, long n)
{
    struct coll *c = arg;
    for (long i = 0; i < n; i++) {
        MPI_Request req;
        MPI_Ialltoall(c->src, (int)c->bytes, MPI_BYTE, c->dst, (int)c->bytes, MPI_BYTE,
                      MPI_COMM_WORLD, &req);
        bench_wait_yield(&req);
    }
}

/* ---- the memory system's limit for small collectives: a barrier on cache lines -------------- */
#define LINE_LONGS 8 /* longs per 64-byte line */

static void line_barrier(void *arg, long n)
{
    struct coll *c = arg;
    for (long i = 0; i < n; i++) {
        long seq = ++c->line_seq;
        for (int r = 0; r < c->rounds; r++) {
            atomic_store_explicit(c->round_flags[r], seq, memory_order_release);
            /* With more PEs than CPUs the PE it waits for may need this
             * CPU: yield after a few looks. */
            bench_line_wait(&c->my_flags[r * LINE_LONGS], seq,
                            bench_job.oversubscribed ? 16 : BENCH_SPINS_BEFORE_YIELD);
        }
    }
}

/* ---- the memory system's limit: the collective's copies, nothing else ------------------------
 * Each PE copies what the collective brings it, straight from the other
 * PEs' src mapped here, with no synchronization: what the copies alone
 * cost in this job (run to run the machine's memory speed varies by up to
 * 2x at 4 PEs on 2 CPUs, so a library is judged against this column of its
 * own job).  broadcast: PE 0's src to dest; fcollect: every PE's src to
 * its block; alltoall: my block of every PE's src to its block. */
static void bcast_copies(void *arg, long n)
{
    struct coll *c = arg;
    for (long i = 0; i < n; i++)
        memcpy(c->dst, c->peer_src[0], c->bytes);
}

/* Block pe of dst from every PE's src, at offset `pick` in it. */
static void block_copies(const struct coll *c, long n, size_t pick)
{
    for (long i = 0; i < n; i++)
        for (int k = 0; k < c->npes_all; k++) {
            int pe = (c->me + k) % c->npes_all;
            memcpy(c->dst + c->bytes * (size_t)pe, c->peer_src[pe] + pick, c->bytes);
        }
}

static void fcollect_copies(void *arg, long n)
{
    block_copies(arg, n, 0);
}

static void alltoall_copies(void *arg, long n)
{
    const struct coll *c = arg;
    block_copies(c, n, c->bytes * (size_t)c->me);
}

/* ---- legacy rows: the deprecated active-set routines as legacy programs call them ---------- */
struct legacy {
    struct coll *c;
    int start, log, size; /* the active set */
    bool all;             /* it is every PE */
    MPI_Comm comm;        /* its communicator (raw MPI); MPI_COMM_NULL on non-members */
    bool member;
    bool root;            /* set PE 0 */
    int *counts, *displs; /* [size]: the raw MPI collect's tables */
#if BENCH_TEAMS
    shmem_team_t team; /* the team of the same PEs */
#endif
};

static long *next_psync(struct coll *c)
{
    return c->psync[c->calls++ & 1];
}

/* What an OSU-style program does before a timed loop (untimed: run as
 * the harness's pre_run hook). */
static void legacy_batch_start(void *arg)
{
    const struct legacy *l = arg;
    if (l->all)
        shmem_barrier_all();
    else
        shmem_barrier(l->start, l->log, l->size, l->c->psync_barrier);
}

static void lg_bcast(void *arg, long n)
{
    struct legacy *l = arg;
    struct coll *c = l->c;
    for (long i = 0; i < n; i++) {
        if (c->bytes % 8 == 0)
            shmem_broadcast64(c->dst, c->src, c->bytes / 8, 0, l->start, l->log, l->size,
                              next_psync(c));
        else
            shmem_broadcast32(c->dst, c->src, c->bytes / 4, 0, l->start, l->log, l->size,
                              next_psync(c));
    }
}

static void lg_collect(void *arg, long n)
{
    struct legacy *l = arg;
    struct coll *c = l->c;
    for (long i = 0; i < n; i++) {
        if (c->bytes % 8 == 0)
            shmem_collect64(c->dst, c->src, c->bytes / 8, l->start, l->log, l->size,
                            next_psync(c));
        else
            shmem_collect32(c->dst, c->src, c->bytes / 4, l->start, l->log, l->size,
                            next_psync(c));
    }
}

static void lg_fcollect(void *arg, long n)
{
    struct legacy *l = arg;
    struct coll *c = l->c;
    for (long i = 0; i < n; i++) {
        if (c->bytes % 8 == 0)
            shmem_fcollect64(c->dst, c->src, c->bytes / 8, l->start, l->log, l->size,
                             next_psync(c));
        else
            shmem_fcollect32(c->dst, c->src, c->bytes / 4, l->start, l->log, l->size,
                             next_psync(c));
    }
}

static void lg_reduce(void *arg, long n)
{
    struct legacy *l = arg;
    struct coll *c = l->c;
    for (long i = 0; i < n; i++) {
        if (c->bytes % 8 == 0)
            shmem_long_sum_to_all((long *)c->dst, (const long *)c->src, (int)(c->bytes / 8),
                                  l->start, l->log, l->size, c->pwrk, next_psync(c));
        else
            shmem_int_sum_to_all((int *)c->dst, (const int *)c->src, (int)(c->bytes / 4),
                                 l->start, l->log, l->size, (int *)c->pwrk, next_psync(c));
    }
}

#if BENCH_TEAMS
static void lt_bcast(void *arg, long n)
{
    struct legacy *l = arg;
    struct coll *c = l->c;
    for (long i = 0; i < n; i++)
        keep_rc(c, shmem_broadcastmem(l->team, c->dst, c->src, c->bytes, 0));
}

static void lt_collect(void *arg, long n)
{
    struct legacy *l = arg;
    struct coll *c = l->c;
    for (long i = 0; i < n; i++)
        keep_rc(c, shmem_collectmem(l->team, c->dst, c->src, c->bytes));
}

static void lt_fcollect(void *arg, long n)
{
    struct legacy *l = arg;
    struct coll *c = l->c;
    for (long i = 0; i < n; i++)
        keep_rc(c, shmem_fcollectmem(l->team, c->dst, c->src, c->bytes));
}

static void lt_reduce(void *arg, long n)
{
    struct legacy *l = arg;
    struct coll *c = l->c;
    for (long i = 0; i < n; i++) {
        if (c->bytes % 8 == 0)
            keep_rc(c, shmem_long_sum_reduce(l->team, (long *)c->dst, (const long *)c->src,
                                             c->bytes / 8));
        else
            keep_rc(c, shmem_int_sum_reduce(l->team, (int *)c->dst, (const int *)c->src,
                                            c->bytes / 4));
    }
}
#endif

/* Raw MPI on the set's communicator: a 1.4 broadcast leaves the root's
 * dest alone, so the root broadcasts from its source. */
static void lm_bcast(void *arg, long n)
{
    struct legacy *l = arg;
    struct coll *c = l->c;
    for (long i = 0; i < n; i++)
        MPI_Bcast(l->root ? c->src : c->dst, (int)c->bytes, MPI_BYTE, 0, l->comm);
}

/* A collect's sizes are not known beforehand: gather them, then the data. */
static void lm_collect(void *arg, long n)
{
    struct legacy *l = arg;
    struct coll *c = l->c;
    int mine = (int)c->bytes;
    for (long i = 0; i < n; i++) {
        MPI_Allgather(&mine, 1, MPI_INT, l->counts, 1, MPI_INT, l->comm);
        for (int k = 0, at = 0; k < l->size; k++) {
            l->displs[k] = at;
            at += l->counts[k];
        }
        MPI_Allgatherv(c->src, mine, MPI_BYTE, c->dst, l->counts, l->displs, MPI_BYTE, l->comm);
    }
}

static void lm_fcollect(void *arg, long n)
{
    struct legacy *l = arg;
    struct coll *c = l->c;
    for (long i = 0; i < n; i++)
        MPI_Allgather(c->src, (int)c->bytes, MPI_BYTE, c->dst, (int)c->bytes, MPI_BYTE,
                      l->comm);
}

static void lm_reduce(void *arg, long n)
{
    struct legacy *l = arg;
    struct coll *c = l->c;
    bool is_long = c->bytes % 8 == 0;
    int count = (int)(c->bytes / (is_long ? 8 : 4));
    for (long i = 0; i < n; i++)
        MPI_Allreduce(c->src, c->dst, count, is_long ? MPI_LONG : MPI_INT, MPI_SUM, l->comm);
}

struct legacy_op {
    const char *name, *title; /* the title is followed by the set */
    bench_fn legacy, team, mpi;
    bench_fn copies; /* the limit column of rows beyond 256 B (all-PE set) */
    bool team_present;
};

/* One table per routine and set, a row per size; each row is judged
 * against the team form (or, under SHMPI_MPI_ONLY, raw MPI). */
static void legacy_tables(struct coll *c, struct legacy *l, const struct legacy_op *ops, int n_ops,
                          const size_t *sizes, int n_sizes, bool have_limits, const char *set)
{
    bench_cfg.pre_run = legacy_batch_start;
    bench_cfg.pre_run_arg = l;
    for (int o = 0; o < n_ops; o++) {
        const struct legacy_op *op = &ops[o];
        char title[256];
        snprintf(title, sizeof title, "%s, %s: %s | team form | %s | limit: %s", op->name, set,
                 op->title, op == &ops[1] ? "MPI_Allgather of sizes + MPI_Allgatherv" : "MPI",
                 !l->all ? "none" : op->copies ? "line to 256 B, copies beyond" : "line to 256 B");
        bool first = true;
        for (int k = 0; k < n_sizes; k++) {
            c->bytes = sizes[k];
            bench_fn limit = !l->all || !have_limits ? NULL
                             : c->bytes <= 256       ? line_barrier
                                                     : op->copies;
            struct bench_variant v[4] = {
                {"legacy", l->member ? op->legacy : NULL, l, 1, c->bytes, true},
                {"team", l->member ? op->team : NULL, l, 1, c->bytes, op->team_present},
                {"MPI", l->member ? op->mpi : NULL, l, 1, c->bytes, true},
                {"limit", limit, c, 1, c->bytes, limit != NULL},
            };
            if (first)
                bench_table_head(title, v, 4, 1, false);
            first = false;
            struct bench_stat st[4];
            bench_run(v, 4, st);
            bench_table_row(c->bytes, v, st, 4, false);
            char what[96], sz[16];
            snprintf(what, sizeof what, "%s, %s, %s B / %s", op->name, set,
                     bench_size_str(c->bytes, sz, sizeof sz),
                     bench_job.mpi_only ? "raw MPI" : "team form");
            if (!bench_job.is_shmpi)
                continue;
            if (bench_job.mpi_only)
                bench_target(what, st[0].valid ? bench_ratio(&st[0], &st[2]) : -1, 1.1, "x");
            else if (op->team_present)
                bench_target(what, st[0].valid ? bench_ratio(&st[0], &st[1]) : -1, 1.1, "x");
        }
    }
    bench_cfg.pre_run = NULL;
}

struct op {
    const char *name, *title;
    bench_fn shmpi, mpi, mpi_nb;
    bench_fn limit; /* the limit column: line (small rows) or copies (1 MiB rows) */
    bool present;  /* the shmem routine is in the library */
    size_t bytes;  /* 0: barrier */
};

#define MIB ((size_t)1 << 20)

int main(int argc, char **argv)
{
    bench_init(argc, argv, "bench_coll",
               "barrier_all, sync_all, broadcastmem, long_sum_reduce, fcollectmem, "
               "alltoallmem on SHMEM_TEAM_WORLD vs the MPI collective on MPI_COMM_WORLD");
    int npes = bench_job.npes;
    bench_cfg.rate_scale = 1e3;
    bench_cfg.rate_unit = "kop/s";
#if BENCH_TEAMS
    bool has_bcast = bench_all(shmem_broadcastmem != NULL);
    bool has_reduce = bench_all(shmem_long_sum_reduce != NULL);
    bool has_fcollect = bench_all(shmem_fcollectmem != NULL);
    bool has_alltoall = bench_all(shmem_alltoallmem != NULL);
    bench_printf("# team collectives in the library: broadcastmem %s, long_sum_reduce %s, "
                 "fcollectmem %s, alltoallmem %s\n",
                 has_bcast ? "yes" : "NO", has_reduce ? "yes" : "NO",
                 has_fcollect ? "yes" : "NO", has_alltoall ? "yes" : "NO");
#else
    bool has_bcast = true, has_reduce = true, has_fcollect = true, has_alltoall = true;
    bench_printf("# the library is OpenSHMEM %d.%d (no teams): the shmem column is its 1.4 "
                 "active-set collective on all PEs (broadcast64, long_sum_to_all, fcollect64, "
                 "alltoall64), not the team collective\n",
                 SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION);
#endif

    const struct op ops[] = {
        {"barrier_all", "barrier_all: shmem_barrier_all | MPI_Barrier | MPI_Ibarrier+yield | line",
         barrier_shmpi, barrier_mpi, barrier_mpi_nb, line_barrier, true, 0},
        {"sync_all", "sync_all: shmem_sync_all | MPI_Barrier | MPI_Ibarrier+yield | line",
         sync_shmpi, barrier_mpi, barrier_mpi_nb, line_barrier, true, 0},
        {"broadcast 8 B", "broadcast 8 B from PE 0: " BENCH_NAME_BCAST " | " BENCH_NAME_MPI_BCAST
                          " | MPI_Ibcast | line",
         bcast_shmpi, bcast_mpi, bcast_mpi_nb, line_barrier, has_bcast, 8},
        {"broadcast 1 MiB", "broadcast 1 MiB from PE 0: " BENCH_NAME_BCAST " | "
                            BENCH_NAME_MPI_BCAST " | MPI_Ibcast | copies",
         bcast_shmpi, bcast_mpi, bcast_mpi_nb, bcast_copies, has_bcast, MIB},
        {"reduce 8 B", "sum reduce, 1 long: " BENCH_NAME_REDUCE " | MPI_Allreduce | "
                       "MPI_Iallreduce | line",
         reduce_shmpi, reduce_mpi, reduce_mpi_nb, line_barrier, has_reduce, 8},
        {"reduce 1 MiB", "sum reduce, 1 MiB of longs: " BENCH_NAME_REDUCE " | MPI_Allreduce | "
                         "MPI_Iallreduce",
         reduce_shmpi, reduce_mpi, reduce_mpi_nb, NULL, has_reduce, MIB},
        {"fcollect 8 B", "fcollect 8 B per PE: " BENCH_NAME_FCOLLECT " | MPI_Allgather | "
                         "MPI_Iallgather | line",
         fcollect_shmpi, fcollect_mpi, fcollect_mpi_nb, line_barrier, has_fcollect, 8},
        {"fcollect 1 MiB", "fcollect 1 MiB per PE: " BENCH_NAME_FCOLLECT " | MPI_Allgather | "
                           "MPI_Iallgather | copies",
         fcollect_shmpi, fcollect_mpi, fcollect_mpi_nb, fcollect_copies, has_fcollect, MIB},
        {"alltoall 8 B", "alltoall 8 B per PE pair: " BENCH_NAME_ALLTOALL " | MPI_Alltoall | "
                         "MPI_Ialltoall | line",
         alltoall_shmpi, alltoall_mpi, alltoall_mpi_nb, line_barrier, has_alltoall, 8},
        {"alltoall 1 MiB", "alltoall 1 MiB per PE pair: " BENCH_NAME_ALLTOALL " | MPI_Alltoall | "
                           "MPI_Ialltoall | copies",
         alltoall_shmpi, alltoall_mpi, alltoall_mpi_nb, alltoall_copies, has_alltoall, MIB},
    };
    const int n_ops = (int)(sizeof ops / sizeof ops[0]);

    size_t buf = MIB * (size_t)npes;
    struct coll c = {.src = shmem_malloc(buf), .dst = shmem_malloc(buf)};
    if (!c.src || !c.dst) {
        fprintf(stderr, "bench_coll: PE %d: cannot allocate 2 x %zu bytes\n", bench_job.me, buf);
        shmem_global_exit(1);
    }
    memset(c.src, 1, buf);
    memset(c.dst, 0, buf);
    c.me = bench_job.me;
    c.npes_all = npes;
    c.peer_src = malloc(sizeof(char *) * (size_t)npes);
    bool mapped = c.peer_src != NULL;
    for (int pe = 0; mapped && pe < npes; pe++)
        mapped = (c.peer_src[pe] = shmem_ptr(c.src, pe)) != NULL;
    while ((1 << c.rounds) < npes)
        c.rounds++;
    c.my_flags = shmem_calloc((size_t)(c.rounds ? c.rounds : 1) * LINE_LONGS, sizeof(long));
    c.round_flags = malloc(sizeof(_Atomic long *) * (size_t)(c.rounds ? c.rounds : 1));
    mapped = mapped && c.my_flags && c.round_flags;
    for (int r = 0; mapped && r < c.rounds; r++) {
        void *flag = shmem_ptr((void *)&c.my_flags[r * LINE_LONGS], (c.me + (1 << r)) % npes);
        mapped = (c.round_flags[r] = flag) != NULL;
    }
    bool have_limits = bench_all(mapped);
    bench_printf("# limit columns: %s\n",
                 have_limits ? "line (barrier and 8-byte rows): a dissemination barrier on "
                               "cache lines through shmem_ptr; copies (1 MiB rows): the "
                               "collective's copies alone, through shmem_ptr, unsynchronized"
                             : "not available (PEs' heaps not mapped)");
    c.npes = npes;
    size_t nwrk = MIB / sizeof(long) / 2 + 1;
    if (nwrk < SHMEM_REDUCE_MIN_WRKDATA_SIZE)
        nwrk = SHMEM_REDUCE_MIN_WRKDATA_SIZE;
    c.pwrk = shmem_malloc(nwrk * sizeof(long));
    long **psyncs[] = {&c.psync[0], &c.psync[1], &c.psync_barrier};
    for (int k = 0; k < 3; k++) {
        long *p = *psyncs[k] = shmem_malloc(BENCH_PSYNC_SIZE * sizeof(long));
        for (int j = 0; p && j < BENCH_PSYNC_SIZE; j++)
            p[j] = SHMEM_SYNC_VALUE;
    }
    if (!c.pwrk || !c.psync[0] || !c.psync[1] || !c.psync_barrier) {
        fprintf(stderr, "bench_coll: PE %d: cannot allocate pSync/pWrk\n", bench_job.me);
        shmem_global_exit(1);
    }
    shmem_barrier_all();

    struct bench_stat st[16][4];
    for (int o = 0; o < n_ops; o++) {
        const struct op *op = &ops[o];
        c.bytes = op->bytes;
        struct bench_variant v[4] = {
            {"shmpi", op->shmpi, &c, 1, op->bytes, op->present},
            {"MPI", op->mpi, &c, 1, op->bytes, true},
            {"MPI-nb", op->mpi_nb, &c, 1, op->bytes, true},
            {op->bytes >= MIB ? "copies" : "line", op->limit, &c, 1, op->bytes, have_limits},
        };
        int nv = op->limit ? 4 : 3;
        bench_table_head(op->title, v, nv, 1, false);
        bench_run(v, nv, st[o]);
        if (!op->present)
            bench_printf("# (%s: not in the library yet)\n", op->name);
        bench_table_row(op->bytes, v, st[o], nv, false);
    }
    /* Legacy rows: all PEs, then (4 PEs) PEs 0 and 2. */
#if BENCH_TEAMS
    bool has_collect = bench_all(shmem_collectmem != NULL);
    bool has_int_reduce = bench_all(shmem_int_sum_reduce != NULL);
#define LEGACY_TEAM(f) f
#else
    bool has_collect = false, has_int_reduce = false;
#define LEGACY_TEAM(f) NULL
#endif
    const struct legacy_op lops[] = {
        {"legacy broadcast", "shmem_broadcast64 (32 for 4 B)", lg_bcast, LEGACY_TEAM(lt_bcast),
         lm_bcast, bcast_copies, has_bcast && BENCH_TEAMS},
        {"legacy collect", "shmem_collect64, equal sizes", lg_collect, LEGACY_TEAM(lt_collect),
         lm_collect, fcollect_copies, has_collect && BENCH_TEAMS},
        {"legacy fcollect", "shmem_fcollect64", lg_fcollect, LEGACY_TEAM(lt_fcollect),
         lm_fcollect, fcollect_copies, has_fcollect && BENCH_TEAMS},
        {"legacy sum_to_all", "shmem_long_sum_to_all (int for 4 B)", lg_reduce,
         LEGACY_TEAM(lt_reduce), lm_reduce, NULL,
         has_reduce && has_int_reduce && BENCH_TEAMS},
    };
    (void)has_collect;
    (void)has_int_reduce;
    size_t sweep[11] = {4, 8}; /* 4 B, 8 B (the usual small row), 16 B to 1 MiB x4 */
    for (int k = 2; k < 11; k++)
        sweep[k] = (size_t)16 << (2 * (k - 2));
    struct legacy all = {.c = &c, .size = npes, .all = true, .comm = MPI_COMM_NULL,
                         .member = true, .root = c.me == 0};
    MPI_Comm_dup(MPI_COMM_WORLD, &all.comm);
    int *tables = malloc(2 * sizeof(int) * (size_t)npes);
    if (!tables) {
        fprintf(stderr, "bench_coll: PE %d: out of memory\n", bench_job.me);
        shmem_global_exit(1);
    }
    all.counts = tables;
    all.displs = tables + npes;
#if BENCH_TEAMS
    all.team = SHMEM_TEAM_WORLD;
#endif
    legacy_tables(&c, &all, lops, 4, sweep, 11, have_limits, "all PEs");
    MPI_Comm_free(&all.comm);
    if (npes == 4) {
        struct legacy odd = {.c = &c, .log = 1, .size = 2, .comm = MPI_COMM_NULL,
                              .member = c.me % 2 == 0, .root = c.me == 0,
                              .counts = tables, .displs = tables + npes};
        MPI_Comm_split(MPI_COMM_WORLD, odd.member ? 0 : MPI_UNDEFINED, c.me, &odd.comm);
#if BENCH_TEAMS
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, 2, NULL, 0, &odd.team);
#endif
        const size_t few[] = {8, 64 * 1024, MIB};
        legacy_tables(&c, &odd, lops, 4, few, 3, have_limits, "PEs 0 and 2");
        if (odd.comm != MPI_COMM_NULL)
            MPI_Comm_free(&odd.comm);
#if BENCH_TEAMS
        shmem_team_destroy(odd.team);
#endif
    }
    free(tables);

    int rc = c.rc;
    MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
    if (rc)
        bench_printf("# WARNING: a shmem collective returned nonzero (%d)\n", rc);

    if (!bench_job.mpi_only && npes == 4)
        bench_target("4-PE barrier_all (us)", st[0][0].valid ? st[0][0].med * 1e6 : -1, 10, "us");
    /* Between nodes every collective is one MPI collective (nonblocking,
     * waited for while serving AMO messages): at the floor of the blocking
     * one it stands on. */
    if (bench_job.mpi_only || bench_job.nodes > 1)
        for (int o = 0; o < n_ops; o++) {
            char what[96];
            snprintf(what, sizeof what, "%s / raw MPI", ops[o].name);
            bench_target(what, st[o][0].valid ? bench_ratio(&st[o][0], &st[o][1]) : -1,
                         bench_job.nodes > 1 ? 1.05 : 1.1, "x");
        }
    bench_printf("\n## known facts (issue) vs this run\n");
    bench_printf("# MPI_Barrier on %d ranks: %.1f us (issue: 12 ms at 4 ranks on 2 cores)\n",
                 npes, st[0][1].med * 1e6);

    shmem_barrier_all();
    shmem_free(c.psync_barrier);
    shmem_free(c.psync[1]);
    shmem_free(c.psync[0]);
    shmem_free(c.pwrk);
    free(c.round_flags);
    shmem_free(c.my_flags);
    free(c.peer_src);
    shmem_free(c.dst);
    shmem_free(c.src);
    bench_finalize();
    return 0;
}
