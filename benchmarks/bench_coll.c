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
#else
#define BENCH_TEAMS 0
#define BENCH_NAME_BCAST "shmem_broadcast64 (1.4)"
#define BENCH_NAME_MPI_BCAST "MPI_Bcast"
#define BENCH_NAME_REDUCE "shmem_long_sum_to_all (1.4)"
#define BENCH_NAME_FCOLLECT "shmem_fcollect64 (1.4)"
#define BENCH_NAME_ALLTOALL "shmem_alltoall64 (1.4)"
/* The largest pSync any of the four 1.4 collectives needs. */
#define BENCH_PSYNC_MAX(a, b) ((a) > (b) ? (a) : (b))
#define BENCH_PSYNC_SIZE                                                                         \
    BENCH_PSYNC_MAX(BENCH_PSYNC_MAX(SHMEM_BCAST_SYNC_SIZE, SHMEM_REDUCE_SYNC_SIZE),             \
                    BENCH_PSYNC_MAX(SHMEM_COLLECT_SYNC_SIZE, SHMEM_ALLTOALL_SYNC_SIZE))
#endif

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
#if !BENCH_TEAMS
    int npes;
    unsigned long calls; /* 1.4 calls so far: which pSync is next */
    long *psync[2];      /* symmetric; consecutive calls alternate, so a call never
                          * reuses the pSync of the call just before it */
    long *pwrk;     /* symmetric reduction work array */
#endif
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
#if !BENCH_TEAMS
    c.npes = npes;
    size_t nwrk = MIB / sizeof(long) / 2 + 1;
    if (nwrk < SHMEM_REDUCE_MIN_WRKDATA_SIZE)
        nwrk = SHMEM_REDUCE_MIN_WRKDATA_SIZE;
    c.pwrk = shmem_malloc(nwrk * sizeof(long));
    for (int k = 0; k < 2; k++) {
        c.psync[k] = shmem_malloc(BENCH_PSYNC_SIZE * sizeof(long));
        if (!c.psync[k])
            break;
        for (int j = 0; j < BENCH_PSYNC_SIZE; j++)
            c.psync[k][j] = SHMEM_SYNC_VALUE;
    }
    if (!c.pwrk || !c.psync[0] || !c.psync[1]) {
        fprintf(stderr, "bench_coll: PE %d: cannot allocate pSync/pWrk\n", bench_job.me);
        shmem_global_exit(1);
    }
#endif
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
    int rc = c.rc;
    MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
    if (rc)
        bench_printf("# WARNING: a shmem collective returned nonzero (%d)\n", rc);

    if (!bench_job.mpi_only && npes == 4)
        bench_target("4-PE barrier_all (us)", st[0][0].valid ? st[0][0].med * 1e6 : -1, 10, "us");
    if (bench_job.mpi_only)
        for (int o = 0; o < n_ops; o++) {
            char what[96];
            snprintf(what, sizeof what, "%s / raw MPI", ops[o].name);
            bench_target(what, st[o][0].valid ? bench_ratio(&st[o][0], &st[o][1]) : -1, 1.1,
                         "x");
        }
    bench_printf("\n## known facts (issue) vs this run\n");
    bench_printf("# MPI_Barrier on %d ranks: %.1f us (issue: 12 ms at 4 ranks on 2 cores)\n",
                 npes, st[0][1].med * 1e6);

    shmem_barrier_all();
#if !BENCH_TEAMS
    shmem_free(c.psync[1]);
    shmem_free(c.psync[0]);
    shmem_free(c.pwrk);
#endif
    free(c.round_flags);
    shmem_free(c.my_flags);
    free(c.peer_src);
    shmem_free(c.dst);
    shmem_free(c.src);
    bench_finalize();
    return 0;
}
