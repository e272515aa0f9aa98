/*
 * bench_progress.c - what a busy target costs, and what buying progress for
 * it costs.
 *
 * On the MPI path (across nodes, or SHMPI_MPI_ONLY=1) an RMA operation
 * completes only while its target is inside MPI, so a target that computes
 * stalls every PE that reads its memory.  SHMPI_PROGRESS_THREAD=N (shmpi's
 * thread, entering MPI every N us) and MPIR_CVAR_ASYNC_PROGRESS=1 (MPICH's
 * thread) fix that at a price.  One run measures one setting (they are read
 * at start-up); benchmarks/progress.sh runs them all.  PEs pair up: PE i
 * (first half) reads from PE i + npes/2 (second half), all pairs at once.
 *
 *   idle CPU   CPU time a PE uses while it sleeps for `-t` ms (only the
 *              progress threads run then), in % of one core;
 *   get idle   shmem_long_g latency while the target waits in a barrier;
 *   compute    time of a fixed piece of arithmetic on the target: before
 *              MPI starts (about `-t` ms), then while its partner sleeps
 *              (what the progress threads cost it) and while its partner
 *              reads its memory in a loop (what serving the reads costs),
 *              the last two as slowdowns against the first;
 *   get busy   shmem_long_g latencies (median, maximum, count) during the
 *              second computation: without progress, the first read waits
 *              for the whole computation.
 *
 * usage: bench_progress [-t MS] [-m]
 *   -t MS  the computation (default 200)
 *   -m     initialize with SHMEM_THREAD_MULTIPLE even without a progress
 *          thread (to tell the thread's cost from the thread level's)
 */
#include "bench_stats.h"

#include <mpi.h>
#include <shmem.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_SAMPLES 200000

static long target_word = 1;   /* read by the partner (static data is symmetric) */
static long busy_done;         /* set on the reader by its target when it finished */

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Arithmetic that stays in registers and cannot be folded away. */
static double compute(long iters)
{
    volatile double sink;
    double x = 1.0;
    for (long i = 0; i < iters; i++)
        x = x * 1.0000001 + 1e-9;
    sink = x;
    return sink;
}

static double max_over_pes(double v)
{
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return v;
}

static void sleep_seconds(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static int env_on(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

static const char *setting(int level)
{
    static char buf[128];
    if (env_on("SHMPI_PROGRESS_THREAD"))
        snprintf(buf, sizeof buf, "SHMPI_PROGRESS_THREAD=%s", getenv("SHMPI_PROGRESS_THREAD"));
    else if (env_on("MPIR_CVAR_ASYNC_PROGRESS"))
        snprintf(buf, sizeof buf, "MPIR_CVAR_ASYNC_PROGRESS=%s",
                 getenv("MPIR_CVAR_ASYNC_PROGRESS"));
    else if (level == SHMEM_THREAD_MULTIPLE)
        snprintf(buf, sizeof buf, "no thread, THREAD_MULTIPLE");
    else
        snprintf(buf, sizeof buf, "no progress thread");
    return buf;
}

int main(int argc, char **argv)
{
    double busy_s = 0.2;
    /* MPICH's progress thread needs MPI_THREAD_MULTIPLE. */
    int level = env_on("MPIR_CVAR_ASYNC_PROGRESS") ? SHMEM_THREAD_MULTIPLE : SHMEM_THREAD_SINGLE;
    int opt;
    while ((opt = getopt(argc, argv, "t:mh")) != -1) {
        if (opt == 't') {
            busy_s = atof(optarg) / 1e3;
        } else if (opt == 'm') {
            level = SHMEM_THREAD_MULTIPLE;
        } else {
            fprintf(stderr, "usage: bench_progress [-t MS] [-m]  (see the comment at the top)\n");
            return opt == 'h' ? 0 : 2;
        }
    }
    /* The computation's size and its time before MPI and any progress thread
     * start (every PE at once; 2 PEs have a core each). */
    long iters = 1 << 20;
    double pure = 0;
    for (;;) {
        double t0 = bench_now_s();
        compute(iters);
        pure = bench_now_s() - t0;
        if (pure >= busy_s / 4)
            break;
        iters *= 2;
    }
    iters = (long)(iters * busy_s / pure);
    double t0 = bench_now_s();
    compute(iters);
    pure = bench_now_s() - t0;

    int provided = SHMEM_THREAD_SINGLE;
    if (shmem_init_thread(level, &provided) != 0 || provided < level) {
        fprintf(stderr, "bench_progress: thread level %d not available\n", level);
        return 2;
    }
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (npes < 2 || npes % 2) {
        if (me == 0)
            fprintf(stderr, "bench_progress: needs an even number of PEs >= 2\n");
        shmem_finalize();
        return 2;
    }
    int half = npes / 2;
    int reader = me < half;
    int partner = reader ? me + half : me - half;

    /* Idle CPU: every PE sleeps. */
    shmem_barrier_all();
    double c0 = cpu_now(), w0 = bench_now_s();
    sleep_seconds(busy_s);
    double idle_cpu = max_over_pes((cpu_now() - c0) / (bench_now_s() - w0) * 100.0);

    /* Get latency to a target waiting in a barrier. */
    shmem_barrier_all();
    double get_idle = 0;
    if (reader) {
        const int n = 2000;
        for (int i = 0; i < 100; i++)
            (void)shmem_long_g(&target_word, partner);
        double t0 = bench_now_s();
        for (int i = 0; i < n; i++)
            (void)shmem_long_g(&target_word, partner);
        get_idle = (bench_now_s() - t0) / n;
    }
    shmem_barrier_all();
    get_idle = max_over_pes(get_idle);

    /* The target computes alone (the reader sleeps: no CPU taken, no reads). */
    double alone = 0;
    if (!reader) {
        double t0 = bench_now_s();
        compute(iters);
        alone = bench_now_s() - t0;
    } else {
        sleep_seconds(busy_s * 1.5);
    }
    shmem_barrier_all();
    /* The figures of pair 0's target (PE half); medians do not reduce. */
    alone = max_over_pes(me == half ? alone : 0);

    /* The target computes while its reader reads its memory in a loop. */
    double *lat = malloc(MAX_SAMPLES * sizeof(double));
    if (!lat)
        shmem_global_exit(1);
    long count = 0;
    double served = 0;
    busy_done = 0;
    shmem_barrier_all();
    if (!reader) {
        double t0 = bench_now_s();
        compute(iters);
        served = bench_now_s() - t0;
        shmem_long_atomic_set(&busy_done, 1, partner);
        shmem_quiet();
    } else {
        while (!*(volatile long *)&busy_done && count < MAX_SAMPLES) {
            double t0 = bench_now_s();
            if (shmem_long_g(&target_word, partner) != 1)
                shmem_global_exit(3);
            lat[count++] = bench_now_s() - t0;
        }
        shmem_long_wait_until(&busy_done, SHMEM_CMP_EQ, 1);
    }
    shmem_barrier_all();
    served = max_over_pes(me == half ? served : 0);
    pure = max_over_pes(me == half ? pure : 0);
    double med = 0, max = 0;
    if (reader && count > 0) {
        med = bench_median(lat, (int)count);
        max = lat[count - 1];
    }
    /* PE 0 reports its pair; the others are alike. */
    if (me == 0) {
        printf("# bench_progress: %d PEs (%d pairs), compute ~%.0f ms; MPI path: %s\n", npes,
               half, busy_s * 1e3,
               env_on("SHMPI_MPI_ONLY") ? "every access (SHMPI_MPI_ONLY)" : "across nodes only");
        printf("# %-30s | %8s | %8s | %8s %7s %7s | %9s %9s %6s\n", "setting", "idle CPU",
               "get idle", "compute", "idle", "+reads", "get busy", "max", "count");
        printf("# %-30s | %8s | %8s | %8s %7s %7s | %9s %9s %6s\n", "", "% core", "us",
               "ms", "slow", "slow", "med us", "us", "");
        printf("  %-30s | %8.1f | %8.2f | %8.1f %6.2fx %6.2fx | %9.2f %9.1f %6ld\n",
               setting(provided), idle_cpu, get_idle * 1e6, pure * 1e3, alone / pure,
               served / pure, med * 1e6, max * 1e6, count);
        fflush(stdout);
    }
    free(lat);
    shmem_finalize();
    return 0;
}
