/*
 * bench_stats.h - the timer and the statistics of every benchmark program
 * here, with neither MPI nor OpenSHMEM in them: the harness of bench.h
 * builds on them, and so do the programs that time their own loops
 * (bench_device, bench_stream, bench_progress; stream_probe, which runs on
 * MPI alone; bench_python_stream.c, which bench_python_stream.py compiles
 * by itself and which uses only the inline timer).
 *
 *   - bench_now_us / bench_now_s: CLOCK_MONOTONIC;
 *   - bench_median: the median of an array of run times;
 *   - bench_rounds: runs of several variants in turn, round after round,
 *     so that a change of the machine's load (CI on the other core) falls
 *     on every variant of a round alike;
 *   - bench_alternate: two variants in pairs of runs (shmpi's, then the
 *     reference's), with the median of each and the median of the pairs'
 *     ratios.
 */
#ifndef SHMPI_BENCH_STATS_H
#define SHMPI_BENCH_STATS_H

#include <time.h>

/* Timed runs per variant and table cell, at most. */
#define BENCH_MAX_REPS 32

/* Inline: a timed loop pays no call for its clock. */
static inline double bench_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static inline double bench_now_s(void)
{
    return bench_now_us() / 1e6;
}

/* Sorts t[0..n) in place and returns its median (the mean of the middle two
 * when n is even); t[0] and t[n - 1] are then the fastest and slowest. */
double bench_median(double *t, int n);

/* One timed run of variant `variant`: its time. */
typedef double (*bench_run_fn)(void *arg, int variant);

/* `rounds` rounds of run(arg, 0), run(arg, 1), ..., run(arg, nv - 1):
 * t[variant * rounds + round] gets each run's time. */
void bench_rounds(bench_run_fn run, void *arg, int nv, int rounds, double *t);

/* Variant 0 against variant 1 in pairs of runs back to back. */
struct bench_pairs {
    double a, b;  /* the median of variant 0's runs, of variant 1's */
    double ratio; /* the median of the pairs' ratios a / b (a pair whose b is
                   * not above 0 counts as 0) */
};
struct bench_pairs bench_alternate(bench_run_fn run, void *arg, int pairs);

#endif /* SHMPI_BENCH_STATS_H */
