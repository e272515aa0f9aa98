/*
 * bench.h - the harness of the shmpi benchmarks that compare variants of
 * one operation in tables (bench_rma, bench_amo, bench_coll, bench_nodes),
 * on top of the timer and statistics every benchmark program shares
 * (bench_stats.h).
 *
 * A benchmark is a list of VARIANTS of one operation: the shmpi routine and
 * the references it is judged by (memcpy / C11 atomics through shmem_ptr,
 * raw MPI on a window of the benchmark's own, the raw MPI collective).  All
 * variants of an operation run in the same harness:
 *
 *   - every PE calls bench_run() with the same variant list; a PE that has
 *     nothing to do in a variant (the target of a one-sided operation) has
 *     fn == NULL there and just waits: in shmem_barrier_all, as in the
 *     OSU benchmarks, or for raw MPI variants (named "MPI...") in the
 *     harness's MPI synchronization (bench_sync), which drives the MPI
 *     progress their operations need;
 *   - the number of repetitions of fn per timed run is calibrated so that
 *     one run takes about bench_cfg.rep_time seconds, then bench_cfg.reps
 *     runs are timed with MPI_Wtime; the runs of the variants interleave
 *     (rep 1 of every variant, then rep 2, ...) so that load from other
 *     processes on the machine hits all variants alike;
 *     (a variant whose runs are so slow that bench_cfg.reps of them would
 *     take more than BENCH_MAX_CELL_TIME gets fewer runs, at least 3);
 *   - a run's time is the slowest PE's (MPI_MAX over PEs), per operation:
 *     run time / (calls * ops_per_call).  Reported: the average over all
 *     runs (total time / total operations) and the median of the runs.
 */
#ifndef SHMPI_BENCH_H
#define SHMPI_BENCH_H

#include "bench_stats.h"

#include <mpi.h>
#include <shmem.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Seconds of timed runs per variant and table cell beyond which a variant
 * whose single call is slow gets fewer runs (at least 3). */
#define BENCH_MAX_CELL_TIME 0.4
#define BENCH_MAX_VARIANTS 6

/* Command-line settings (bench_init parses them). */
struct bench_cfg {
    double rep_time;    /* -t MS: seconds per timed run */
    int reps;           /* -r N: timed runs per variant */
    size_t max_size;    /* -m BYTES: largest message (bench_rma) */
    const char *dat;    /* -d PREFIX: also write gnuplot data files PREFIX_*.dat */
    double rate_scale;  /* the rate column: operations per second / rate_scale ... */
    const char *rate_unit; /* ... in this unit (default 1e6, "Mop/s") */
    /* If set: called, untimed, right before each timed run of a variant
     * whose arg is pre_run_arg, on the PEs that run it (as a legacy
     * program's shmem_barrier_all before its timed loop). */
    void (*pre_run)(void *arg);
    void *pre_run_arg;
};
extern struct bench_cfg bench_cfg;

/* The job. */
struct bench_job {
    int me, npes;
    int ncpu;            /* online CPUs */
    bool mpi_only;       /* SHMPI_MPI_ONLY set (not "0"): every access is MPI RMA */
    bool pseudo_nodes;   /* SHMPI_PSEUDO_NODE_SIZE > 0 */
    int nodes;           /* machines the job spans (MPI_COMM_TYPE_SHARED groups) */
    bool oversubscribed; /* more PEs than CPUs */
    bool is_shmpi;       /* the library is shmpi (its diagnostic columns apply) */
    MPI_Comm comm;       /* private duplicate of MPI_COMM_WORLD for the harness */
};
extern struct bench_job bench_job;

/* One variant: fn(arg, n) performs n calls, each ops_per_call operations
 * of `bytes` bytes (bytes 0: no bandwidth column).  fn NULL: this PE only
 * synchronizes.  A variant whose `avail` is false is skipped (must be the
 * same on every PE). */
typedef void (*bench_fn)(void *arg, long n);
struct bench_variant {
    const char *name;    /* column title, e.g. "shmpi", "memcpy", "MPI" */
    bench_fn fn;
    void *arg;
    long ops_per_call;
    size_t bytes;
    bool avail;
};

/* Seconds per operation. */
struct bench_stat {
    double avg, med, min;
    bool valid;
};

/* shmem_init, options, job description; prints the header on PE 0. */
void bench_init(int argc, char **argv, const char *name, const char *what);
/* Frees the harness and calls shmem_finalize. */
void bench_finalize(void);

/* Runs the variants (collective) and fills out[nv] (meaningful on every PE). */
void bench_run(const struct bench_variant *v, int nv, struct bench_stat *out);

/* A barrier on the harness comm that drives MPI progress while it waits:
 * MPI_Barrier, as a raw MPI program waits, or, when PEs outnumber CPUs,
 * MPI_Ibarrier + MPI_Test + sched_yield, which lets the others run. */
void bench_sync(void);
/* The same for an MPI_MAX allreduce of doubles. */
void bench_allreduce_max(double *vals, int n);
/* Waits for a request with MPI_Test, yielding after 16 tries when PEs
 * outnumber CPUs (the harness's reductions, and the request-based
 * reference columns). */
void bench_wait_yield(MPI_Request *req);
/* Logical AND over PEs (consistent availability of a variant). */
bool bench_all(bool mine);

/* Spinning helpers for the reference loops: a poll loop calls
 * bench_poll_pause(&spins) on each failed try; it pauses the CPU and, after
 * BENCH_SPINS_BEFORE_YIELD tries, yields (so 4 PEs on 2 cores move). */
#define BENCH_SPINS_BEFORE_YIELD 256
void bench_poll_pause(unsigned *spins);
/* Waits until *flag >= seq (a cache-line reference), yielding from the
 * looks_before_yield-th failed look on (at most BENCH_SPINS_BEFORE_YIELD). */
void bench_line_wait(_Atomic long *flag, long seq, unsigned looks_before_yield);

/* A window of the benchmark's own for the raw MPI references:
 * MPI_Win_create_dynamic + MPI_Win_attach of `size` bytes of private,
 * page-aligned memory (mmap, like shmpi's heap under SHMPI_MPI_ONLY),
 * locked with MPI_Win_lock_all(MPI_MODE_NOCHECK).  disp[pe] is the address
 * of each PE's region.  The info keys are shmpi's own (src/shape/mpi_rma.c:
 * accumulate_ordering=none, accumulate_ops=same_op_no_op, coll_attach)
 * with which_accumulate_ops = `which_ops` (shmpi uses "cswap,no_op"). */
struct bench_win {
    MPI_Win win;
    char *base;
    size_t size;
    MPI_Aint *disp;
};
void bench_win_create(struct bench_win *w, size_t size, const char *which_ops);
void bench_win_free(struct bench_win *w);

/* Printing (PE 0 only prints; every function may be called on all PEs). */
void bench_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A table of one operation per message size: call bench_table_head once,
 * then bench_table_row per size.  Variant 0 is shmpi; the others are
 * references; `judge` is the index of the one the row is judged by (marked
 * with '*'); ratio columns are shmpi median / reference median. */
void bench_table_head(const char *title, const struct bench_variant *v, int nv, int judge,
                      bool bandwidth);
void bench_table_row(size_t bytes, const struct bench_variant *v, const struct bench_stat *s,
                     int nv, bool bandwidth);
/* Ratio shmpi/reference of medians, or -1 when one is missing. */
double bench_ratio(const struct bench_stat *shmpi, const struct bench_stat *ref);

/* Target verdicts collected during the run, printed by bench_targets_print. */
void bench_target(const char *what, double value, double limit, const char *unit);
void bench_targets_print(void);

/* "8", "2K", "1M": a size for titles. */
const char *bench_size_str(size_t bytes, char *buf, size_t len);
/* Optional data file (bench_cfg.dat set): PE 0 opens PREFIX_name.dat. */
FILE *bench_dat_open(const char *name);

/* Keeps the compiler from dropping or merging a reference loop's memory
 * accesses (memcpy of the same bytes n times is not "one memcpy"). */
#define BENCH_CLOBBER() __asm__ __volatile__("" ::: "memory")

#endif /* SHMPI_BENCH_H */
