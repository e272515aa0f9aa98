/*
 * bench.c - the harness of the shmpi benchmarks (see bench.h).
 */
#include "bench.h"

#include <getopt.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

struct bench_cfg bench_cfg = {.rep_time = 0.010,
                              .reps = 7,
                              .max_size = (size_t)4 << 20,
                              .rate_scale = 1e6,
                              .rate_unit = "Mop/s"};
struct bench_job bench_job;

static void usage(const char *name, const char *what)
{
    if (bench_job.me == 0)
        fprintf(stderr,
                "usage: %s [-t MS] [-r REPS] [-m BYTES] [-d PREFIX]\n"
                "  %s\n"
                "  -t MS      time of one timed run in milliseconds (default %.0f)\n"
                "  -r REPS    timed runs per variant, median and average over them "
                "(default %d, max %d)\n"
                "  -m BYTES   largest message size (default %zu; bench_rma)\n"
                "  -d PREFIX  also write gnuplot data files PREFIX_<table>.dat\n",
                name, what, bench_cfg.rep_time * 1e3, bench_cfg.reps, BENCH_MAX_REPS,
                bench_cfg.max_size);
}

static bool env_set(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

void bench_init(int argc, char **argv, const char *name, const char *what)
{
    shmem_init();
    bench_job.me = shmem_my_pe();
    bench_job.npes = shmem_n_pes();
    int opt;
    while ((opt = getopt(argc, argv, "t:r:m:d:h")) != -1) {
        switch (opt) {
        case 't': bench_cfg.rep_time = atof(optarg) / 1e3; break;
        case 'r': bench_cfg.reps = atoi(optarg); break;
        case 'm': bench_cfg.max_size = (size_t)strtoull(optarg, NULL, 0); break;
        case 'd': bench_cfg.dat = optarg; break;
        default:
            usage(name, what);
            shmem_finalize();
            exit(opt == 'h' ? 0 : 2);
        }
    }
    if (bench_cfg.reps < 1)
        bench_cfg.reps = 1;
    if (bench_cfg.reps > BENCH_MAX_REPS)
        bench_cfg.reps = BENCH_MAX_REPS;
    if (!(bench_cfg.rep_time > 0))
        bench_cfg.rep_time = 0.010;
    bench_job.ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
    bench_job.mpi_only = env_set("SHMPI_MPI_ONLY");
    bench_job.pseudo_nodes = env_set("SHMPI_PSEUDO_NODE_SIZE");
    bench_job.oversubscribed = bench_job.npes > bench_job.ncpu;
    MPI_Comm_dup(MPI_COMM_WORLD, &bench_job.comm);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int node_rank, leaders;
    MPI_Comm_rank(node, &node_rank);
    MPI_Comm_free(&node);
    leaders = node_rank == 0;
    MPI_Allreduce(&leaders, &bench_job.nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(lib, &len);
    char shmem_name[SHMEM_MAX_NAME_LEN];
    shmem_info_get_name(shmem_name);
    bench_job.is_shmpi = strncmp(shmem_name, "shmpi", 5) == 0;
    char host[256] = "?";
    gethostname(host, sizeof host);
    host[sizeof host - 1] = '\0';
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", localtime(&now));
    double load[3] = {-1, -1, -1};
    int running = -1, tasks = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf %lf %lf %d/%d", &load[0], &load[1], &load[2], &running, &tasks) != 5)
            running = -1;
        fclose(f);
    }
    bench_printf("# %s: %s\n", name, what);
    bench_printf("# library: %s; MPI: %.*s\n", shmem_name, (int)strcspn(lib, "\n"), lib);
    bench_printf("# %d PEs on %d online CPUs of %s%s%s; mode: %s; %s\n", bench_job.npes,
                 bench_job.ncpu, host, bench_job.oversubscribed ? " (OVERSUBSCRIBED)" : "",
                 bench_job.nodes > 1 ? " and other nodes" : "",
                 bench_job.mpi_only       ? "SHMPI_MPI_ONLY=1 (every remote access is MPI RMA)"
                 : bench_job.pseudo_nodes ? "SHMPI_PSEUDO_NODE_SIZE set"
                                          : "default (node-local heaps mapped)",
                 date);
    /* The load average lags by a minute and counts this suite's own earlier
     * runs; the number of runnable tasks right now (this job's PEs included)
     * says whether others compete for the CPUs. */
    bench_printf("# load average at start: %.2f %.2f %.2f; runnable tasks now: %d (this job: %d "
                 "PEs)\n",
                 load[0], load[1], load[2], running, bench_job.npes);
    bench_printf("# timing: MPI_Wtime; %d timed runs of ~%.0f ms per variant after "
                 "calibration/warm-up (fewer, at least 3, when they would exceed %.1f s); "
                 "runs of the variants interleave; a run's time is the "
                 "slowest PE's; avg = total time / total ops, med = median of the runs; "
                 "ratio = shmpi med / reference med (>1: shmpi slower)\n",
                 bench_cfg.reps, bench_cfg.rep_time * 1e3, BENCH_MAX_CELL_TIME);
}

void bench_finalize(void)
{
    bench_targets_print();
    MPI_Comm_free(&bench_job.comm);
    shmem_finalize();
}

/* ---- synchronization that yields -------------------------------------------------- */
/* Spins in MPI_Test as MPI_Barrier does, yielding only when PEs outnumber
 * CPUs.  Yielding with a CPU per PE would handicap raw MPI variants whose
 * operations the waiting target serves (measured: 64 MPI_Accumulate +
 * flush, 0.37 us per op with the target spinning, 0.45 with it yielding). */
void bench_wait_yield(MPI_Request *req)
{
    unsigned spins = 0;
    for (;;) {
        int done = 0;
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        if (bench_job.oversubscribed && ++spins >= 16)
            sched_yield();
    }
}

void bench_sync(void)
{
    if (!bench_job.oversubscribed) { /* as a raw MPI program waits */
        MPI_Barrier(bench_job.comm);
        return;
    }
    MPI_Request req;
    MPI_Ibarrier(bench_job.comm, &req);
    bench_wait_yield(&req);
}

void bench_allreduce_max(double *vals, int n)
{
    MPI_Request req;
    MPI_Iallreduce(MPI_IN_PLACE, vals, n, MPI_DOUBLE, MPI_MAX, bench_job.comm, &req);
    bench_wait_yield(&req);
}

bool bench_all(bool mine)
{
    int v = mine;
    MPI_Request req;
    MPI_Iallreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_LAND, bench_job.comm, &req);
    bench_wait_yield(&req);
    return v != 0;
}

void bench_poll_pause(unsigned *spins)
{
    if (++*spins < BENCH_SPINS_BEFORE_YIELD) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        return;
    }
    sched_yield();
}

void bench_line_wait(_Atomic long *flag, long seq, unsigned looks_before_yield)
{
    unsigned spins = BENCH_SPINS_BEFORE_YIELD - looks_before_yield;
    while (atomic_load_explicit(flag, memory_order_acquire) < seq)
        bench_poll_pause(&spins);
}

/* ---- the measurement ------------------------------------------------------------------ */
/* Raw MPI variants (named "MPI...") need their targets inside MPI, so the
 * PEs without work wait for them in the harness's MPI synchronization.  The
 * others wait in the library's shmem_barrier_all, as in the OSU benchmarks:
 * how the library's waiting PEs share the CPUs with the working ones (4 PEs
 * on 2 CPUs) is part of what the library costs. */
static void sync_for(const struct bench_variant *v)
{
    if (strncmp(v->name, "MPI", 3) == 0)
        bench_sync();
    else
        shmem_barrier_all();
}

static double run_once(const struct bench_variant *v, long n)
{
    sync_for(v);
    if (bench_cfg.pre_run && v->fn && v->arg == bench_cfg.pre_run_arg)
        bench_cfg.pre_run(v->arg);
    double t0 = MPI_Wtime();
    if (v->fn)
        v->fn(v->arg, n);
    double t = MPI_Wtime() - t0;
    /* The PEs without work wait here, in this variant's way, while the
     * others run. */
    sync_for(v);
    return t;
}

/* Calls per timed run so that it takes about rep_time (the first, small
 * runs are the warm-up: page faults, MPI memory registration); *run_time
 * gets the expected time of one timed run. */
static long calibrate(const struct bench_variant *v, double *run_time)
{
    long n = 1;
    for (;;) {
        double t = run_once(v, n);
        bench_allreduce_max(&t, 1);
        if (t >= bench_cfg.rep_time / 4 || n >= (1L << 40)) {
            long calls = t > 0 ? (long)((double)n * bench_cfg.rep_time / t) + 1 : n;
            *run_time = t / (double)n * (double)calls;
            return calls;
        }
        double grow = t > 0 ? bench_cfg.rep_time / 2 / t : 16;
        if (grow < 2)
            grow = 2;
        if (grow > 16)
            grow = 16;
        n = (long)((double)n * grow);
    }
}

void bench_run(const struct bench_variant *v, int nv, struct bench_stat *out)
{
    long calls[BENCH_MAX_VARIANTS];
    int reps[BENCH_MAX_VARIANTS];
    double samples[BENCH_MAX_VARIANTS * BENCH_MAX_REPS];
    int max_reps = bench_cfg.reps;
    if (nv > BENCH_MAX_VARIANTS)
        nv = BENCH_MAX_VARIANTS;
    for (int i = 0; i < nv; i++) {
        out[i].valid = false;
        calls[i] = 0;
        reps[i] = 0;
        if (!v[i].avail)
            continue;
        double run_time;
        calls[i] = calibrate(&v[i], &run_time);
        /* A single call far longer than rep_time (4 MiB through a slow path):
         * fewer runs, at least 3, so one table cell stays within about
         * BENCH_MAX_CELL_TIME seconds. */
        reps[i] = max_reps;
        if (run_time * max_reps > BENCH_MAX_CELL_TIME) {
            reps[i] = (int)(BENCH_MAX_CELL_TIME / run_time);
            if (reps[i] < 3)
                reps[i] = 3;
            if (reps[i] > max_reps)
                reps[i] = max_reps;
        }
    }
    memset(samples, 0, sizeof samples);
    /* The variants run forwards, then backwards, and so on: so a variant
     * does not always follow the same one.  A variant that follows its twin
     * on the same buffers finds them in cache, one that follows the limit's
     * copies does not (1 MiB collectives at 4 PEs: 15-20% apart). */
    for (int r = 0; r < max_reps; r++)
        for (int k = 0; k < nv; k++) {
            int i = r % 2 ? nv - 1 - k : k;
            if (v[i].avail && r < reps[i])
                samples[i * max_reps + r] = run_once(&v[i], calls[i]);
        }
    bench_allreduce_max(samples, nv * max_reps);
    for (int i = 0; i < nv; i++) {
        if (!v[i].avail)
            continue;
        int n = reps[i];
        double ops = (double)calls[i] * (double)v[i].ops_per_call;
        double sum = 0, *s = &samples[i * max_reps];
        for (int r = 0; r < n; r++) {
            sum += s[r];
            s[r] /= ops;
        }
        out[i].avg = sum / (ops * n);
        out[i].med = bench_median(s, n);
        out[i].min = s[0];
        out[i].valid = true;
    }
}

/* ---- raw MPI window --------------------------------------------------------------------- */
void bench_win_create(struct bench_win *w, size_t size, const char *which_ops)
{
    long page = sysconf(_SC_PAGESIZE);
    w->size = (size + (size_t)page - 1) / (size_t)page * (size_t)page;
    void *p = mmap(NULL, w->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "bench: PE %d: cannot map %zu bytes for the MPI window\n", bench_job.me,
                w->size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    w->base = p;
    memset(w->base, 0, w->size);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "accumulate_ordering", "none");
    MPI_Info_set(info, "accumulate_ops", "same_op_no_op");
    MPI_Info_set(info, "which_accumulate_ops", which_ops ? which_ops : "cswap,no_op");
    MPI_Info_set(info, "coll_attach", "true");
    MPI_Win_create_dynamic(info, MPI_COMM_WORLD, &w->win);
    MPI_Info_free(&info);
    MPI_Win_attach(w->win, w->base, (MPI_Aint)w->size);
    w->disp = calloc((size_t)bench_job.npes, sizeof *w->disp);
    MPI_Aint mine;
    MPI_Get_address(w->base, &mine);
    MPI_Allgather(&mine, 1, MPI_AINT, w->disp, 1, MPI_AINT, MPI_COMM_WORLD);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, w->win);
}

void bench_win_free(struct bench_win *w)
{
    MPI_Win_unlock_all(w->win);
    MPI_Win_detach(w->win, w->base);
    MPI_Win_free(&w->win);
    munmap(w->base, w->size);
    free(w->disp);
    memset(w, 0, sizeof *w);
}

/* ---- printing ---------------------------------------------------------------------------- */
void bench_printf(const char *fmt, ...)
{
    if (bench_job.me != 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fflush(stdout);
}

const char *bench_size_str(size_t bytes, char *buf, size_t len)
{
    if (bytes >= ((size_t)1 << 20) && bytes % ((size_t)1 << 20) == 0)
        snprintf(buf, len, "%zuM", bytes >> 20);
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, len, "%zuK", bytes >> 10);
    else
        snprintf(buf, len, "%zu", bytes);
    return buf;
}

double bench_ratio(const struct bench_stat *shmpi, const struct bench_stat *ref)
{
    if (!shmpi->valid || !ref->valid || !(ref->med > 0))
        return -1;
    return shmpi->med / ref->med;
}

/* Tables: a column is COL characters wide; a group of columns per variant. */
#define COL 11

static int shmpi_cols(bool bandwidth) { return bandwidth ? 4 : 3; }
static int ref_cols(bool bandwidth) { return bandwidth ? 3 : 2; }

void bench_table_head(const char *title, const struct bench_variant *v, int nv, int judge,
                      bool bandwidth)
{
    bench_printf("\n## %s\n", title);
    bench_printf("# judged by: %s (marked *); ratio = shmpi med / that column's med\n",
                 v[judge].name);
    bench_printf("#%9s |%*s", "", shmpi_cols(bandwidth) * COL, v[0].name);
    for (int i = 1; i < nv; i++) {
        char name[40];
        snprintf(name, sizeof name, "%s%s", v[i].name, i == judge ? "*" : "");
        bench_printf(" |%*s", ref_cols(bandwidth) * COL, name);
    }
    bench_printf("\n#%9s |%*s%*s", "bytes", COL, "avg_us", COL, "med_us");
    if (bandwidth)
        bench_printf("%*s", COL, "GB/s");
    bench_printf("%*s", COL, bench_cfg.rate_unit);
    for (int i = 1; i < nv; i++) {
        bench_printf(" |%*s", COL, "med_us");
        if (bandwidth)
            bench_printf("%*s", COL, "GB/s");
        bench_printf("%*s", COL, "ratio");
    }
    bench_printf("\n");
}

void bench_table_row(size_t bytes, const struct bench_variant *v, const struct bench_stat *s,
                     int nv, bool bandwidth)
{
    bench_printf("%10zu |", bytes);
    if (s[0].valid) {
        bench_printf("%*.3f%*.3f", COL, s[0].avg * 1e6, COL, s[0].med * 1e6);
        if (bandwidth)
            bench_printf("%*.2f", COL, (double)v[0].bytes / s[0].med / 1e9);
        bench_printf("%*.3f", COL, 1 / s[0].med / bench_cfg.rate_scale);
    } else {
        for (int c = 0; c < shmpi_cols(bandwidth); c++)
            bench_printf("%*s", COL, "-");
    }
    for (int i = 1; i < nv; i++) {
        bench_printf(" |");
        if (!s[i].valid) {
            for (int c = 0; c < ref_cols(bandwidth); c++)
                bench_printf("%*s", COL, "-");
            continue;
        }
        bench_printf("%*.3f", COL, s[i].med * 1e6);
        if (bandwidth)
            bench_printf("%*.2f", COL, (double)v[i].bytes / s[i].med / 1e9);
        double r = bench_ratio(&s[0], &s[i]);
        if (r < 0)
            bench_printf("%*s", COL, "-");
        else
            bench_printf("%*.2f", COL, r);
    }
    bench_printf("\n");
}

/* ---- targets --------------------------------------------------------------------------- */
#define MAX_TARGETS 160
static struct {
    char what[160];
    double value, limit;
    char unit[16];
} targets[MAX_TARGETS];
static int n_targets;

void bench_target(const char *what, double value, double limit, const char *unit)
{
    if (n_targets == MAX_TARGETS)
        return;
    snprintf(targets[n_targets].what, sizeof targets[n_targets].what, "%s", what);
    snprintf(targets[n_targets].unit, sizeof targets[n_targets].unit, "%s", unit);
    targets[n_targets].value = value;
    targets[n_targets].limit = limit;
    n_targets++;
}

void bench_targets_print(void)
{
    if (n_targets == 0)
        return;
    bench_printf("\n## targets (%d PEs, %s)\n", bench_job.npes,
                 bench_job.mpi_only ? "SHMPI_MPI_ONLY=1" : "default mode");
    for (int i = 0; i < n_targets; i++) {
        if (targets[i].value < 0)
            bench_printf("# %-62s  n/a (not measured)\n", targets[i].what);
        else
            bench_printf("# %-62s %9.3f%s  (target <= %g%s)  %s\n", targets[i].what,
                         targets[i].value, targets[i].unit, targets[i].limit, targets[i].unit,
                         targets[i].value <= targets[i].limit ? "PASS" : "MISS");
    }
}

FILE *bench_dat_open(const char *name)
{
    if (!bench_cfg.dat || bench_job.me != 0)
        return NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s_%s.dat", bench_cfg.dat, name);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "bench: cannot write %s\n", path);
    return f;
}
