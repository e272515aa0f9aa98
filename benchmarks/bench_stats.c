/*
 * bench_stats.c - the statistics of the benchmark programs (see bench_stats.h).
 */
#include "bench_stats.h"

#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *t, int n)
{
    if (n < 1)
        return 0;
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

void bench_rounds(bench_run_fn run, void *arg, int nv, int rounds, double *t)
{
    for (int r = 0; r < rounds; r++)
        for (int v = 0; v < nv; v++)
            t[v * rounds + r] = run(arg, v);
}

struct bench_pairs bench_alternate(bench_run_fn run, void *arg, int pairs)
{
    if (pairs > BENCH_MAX_REPS)
        pairs = BENCH_MAX_REPS;
    double t[2 * BENCH_MAX_REPS], ratio[BENCH_MAX_REPS];
    double *a = t, *b = t + pairs;
    bench_rounds(run, arg, 2, pairs, t);
    for (int r = 0; r < pairs; r++)
        ratio[r] = b[r] > 0 ? a[r] / b[r] : 0;
    return (struct bench_pairs){bench_median(a, pairs), bench_median(b, pairs),
                                bench_median(ratio, pairs)};
}
