/*
 * env.c - every environment variable shmpi reads, in one table: name,
 * deprecated alias, default, meaning.  SHMEM_INFO prints the table, and
 * README.md has the same rows (tests/env_table.test checks both ways).
 */
#include "amo.h"
#include "device_heap.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_SYMMETRIC_SIZE "256m"

enum env_kind { ENV_FLAG, ENV_SIZE, ENV_COUNT };

struct env_var {
    const char *name;
    const char *alias;        /* deprecated SMA_ name, or NULL */
    enum env_kind kind;
    const char *default_text; /* shown by SHMEM_INFO */
    const char *meaning;
};

enum {
    VAR_SYMMETRIC_SIZE,
    VAR_DEBUG,
    VAR_VERSION,
    VAR_INFO,
    VAR_MPI_ONLY,
    VAR_PSEUDO_NODE_SIZE,
    VAR_PROGRESS_THREAD,
    VAR_SHARE_STATIC,
    VAR_YIELD_WAITS,
    VAR_FINALIZE_GRACE_MS,
    VAR_POLL_US,
    VAR_AMO_OPS,
    VAR_DEVICE_HEAP_SIZE,
    VAR_DEVICE_IPC,
    VAR_DEVICE_CHUNK,
    VAR_CUDA_LIBRARY,
    VAR_FD_PASSING,
    VAR_STREAM_QUEUE,
    VAR_STREAM_PROXY,
    VAR_STREAM_PUSH_MAX,
    VAR_TREE_MIN_PES,
    VAR_ORDER_CHECK,
    VAR_HANG_REPORT,
    VAR_STATUS,
    VAR_SNAPSHOT_SIGNAL,
};

static const struct env_var env_table[] = {
    [VAR_SYMMETRIC_SIZE] = {"SHMEM_SYMMETRIC_SIZE", "SMA_SYMMETRIC_SIZE", ENV_SIZE, DEFAULT_SYMMETRIC_SIZE,
     "symmetric heap size per PE: a number with optional k/m/g/t suffix (powers of 1024); "
     "malformed, zero or larger than memory ends the job at shmem_init"},
    [VAR_DEBUG] = {"SHMEM_DEBUG", "SMA_DEBUG", ENV_FLAG, "unset",
     "any value: extra checks that cost time (collective arguments the same on every PE, "
     "wait and collective buffers symmetric), and at every allocation the full heap refuses, "
     "its largest free block"},
    [VAR_VERSION] = {"SHMEM_VERSION", "SMA_VERSION", ENV_FLAG, "unset",
     "any value: PE 0 prints the library and MPI version at start-up"},
    [VAR_INFO] = {"SHMEM_INFO", "SMA_INFO", ENV_FLAG, "unset",
     "any value: PE 0 prints this table at start-up, with the values in use and what shmpi "
     "decided from the job's shape"},
    [VAR_MPI_ONLY] = {"SHMPI_MPI_ONLY", NULL, ENV_FLAG, "unset",
     "any value but 0: send every operation through MPI, no node-local shared memory"},
    [VAR_PSEUDO_NODE_SIZE] = {"SHMPI_PSEUDO_NODE_SIZE", NULL, ENV_COUNT, "0",
     "N > 0: treat each group of N consecutive PEs of a node as a node of its own (tests both "
     "paths on one machine)"},
    [VAR_PROGRESS_THREAD] = {"SHMPI_PROGRESS_THREAD", NULL, ENV_COUNT, "auto",
     "N > 0: a thread enters MPI every N microseconds unless the PE's own waits did, so MPI "
     "operations and AMOs aimed at a PE that computes complete; with it on every PE, AMOs on "
     "words a PE does not map are messages to the word's owner (needs MPI_THREAD_MULTIPLE); "
     "0: no thread (AMOs by compare-and-swap); auto: 1000 when no machine runs more PEs than "
     "CPUs and the job spans nodes, or the MPI is Open MPI 5 (whose one-sided operations "
     "wait for their target) and some memory is reached through MPI; else 0"},
    [VAR_SHARE_STATIC] = {"SHMPI_SHARE_STATIC", NULL, ENV_FLAG, "1",
     "0: keep static data (.data/.bss) private, reached through MPI even on the node; "
     "otherwise PEs of a node map each other's static data (fork without exec then shares it)"},
    [VAR_YIELD_WAITS] = {"SHMPI_YIELD_WAITS", NULL, ENV_FLAG, "auto",
     "1: waits for MPI completion (blocking get/put, AMOs, quiet) yield the CPU instead of "
     "spinning in MPI_Win_flush; 0: they spin; auto: 1 when some machine runs more PEs than the "
     "CPUs their affinity masks allow"},
    [VAR_FINALIZE_GRACE_MS] = {"SHMPI_FINALIZE_GRACE_MS", NULL, ENV_COUNT, "300",
     "ms every PE waits, without calling MPI, before MPI_Finalize closes the connections of "
     "a job that spans nodes (works around a hang of MPICH 4.0 ch4:ucx over TCP); 0: no wait"},
    [VAR_POLL_US] = {"SHMPI_POLL_US", NULL, ENV_COUNT, "auto",
     "us a waiting PE polls (yielding the CPU between polls) before it sleeps between polls; "
     "auto: 100 when a machine runs more PEs than CPUs and every PE maps every other's memory "
     "(nothing needs a waiter's MPI progress; sleeps grow to an eighth of the wait, up to "
     "1 ms), else 10000 (sleeps of 50 us)"},
    [VAR_AMO_OPS] = {"SHMPI_AMO_OPS", NULL, ENV_FLAG, "any",
     "the kinds of AMO routine the program calls, comma-separated from fetch, set, swap, "
     "compare_swap, add, and, or, xor; when they need one update (add, and, or, xor, or "
     "set/swap) MPI-path AMOs use MPI's own op for it, and a routine of another kind ends "
     "the job; any: every kind, atomic together through compare-and-swap"},
    [VAR_DEVICE_HEAP_SIZE] = {"SHMPI_DEVICE_HEAP_SIZE", NULL, ENV_SIZE, "0",
     "size of a symmetric heap in each PE's GPU memory for shmemx_device_malloc (k/m/g/t "
     "suffixes; docs/device-heap.md); 0: none, and the CUDA driver is not loaded"},
    [VAR_DEVICE_IPC] = {"SHMPI_DEVICE_IPC", NULL, ENV_FLAG, "1",
     "0: map no other PE's device heap or registered device memory through CUDA IPC, so "
     "every other PE's device memory is reached as across nodes (staged through pinned host "
     "memory and MPI; docs/device-heap.md); 1: PEs of one machine map each other's"},
    [VAR_DEVICE_CHUNK] = {"SHMPI_DEVICE_CHUNK", NULL, ENV_SIZE, "256k",
     "the pieces in which a transfer of device memory another PE does not map is copied and "
     "sent (4k to 1g; k/m/g suffixes): two of them in pinned host memory at each target, a "
     "transfer's copies overlap the network piece by piece"},
    [VAR_CUDA_LIBRARY] = {"SHMPI_CUDA_LIBRARY", NULL, ENV_FLAG, "libcuda.so.1",
     "the CUDA driver library the device heap loads (a path, or a name for dlopen)"},
    [VAR_FD_PASSING] = {"SHMPI_FD_PASSING", NULL, ENV_FLAG, "auto",
     "how shmemx_device_register hands the file descriptor of CUDA VMM memory (cuMemCreate) "
     "to the PEs of the machine: pidfd (pidfd_getfd), socket (SCM_RIGHTS over an "
     "abstract-namespace Unix socket), auto: pidfd where the kernel allows it, else socket"},
    [VAR_STREAM_QUEUE] = {"SHMPI_STREAM_QUEUE", NULL, ENV_COUNT, "256",
     "slots of the queue through which stream operations reach PEs whose device memory is "
     "not mapped here (the stream proxy, docs/device-heap.md); a stream routine finding it "
     "full waits for a slot"},
    [VAR_STREAM_PROXY] = {"SHMPI_STREAM_PROXY", NULL, ENV_FLAG, "auto",
     "all: every stream operation aimed at another PE goes through the stream proxy, also "
     "where the PE's device memory is mapped (to measure or test the proxy on one machine); "
     "auto: only those whose target is not mapped"},
    [VAR_STREAM_PUSH_MAX] = {"SHMPI_STREAM_PUSH_MAX", NULL, ENV_SIZE, "128k",
     "collectives on a stream whose result on a PE is at most this many bytes (k/m/g "
     "suffixes) take one round of flags: broadcast, fcollect and alltoall push each block "
     "into its target with a flag, reductions fold what every member holds; larger ones run "
     "between barriers, broadcast and fcollect pulling, reductions split across the members; "
     "0: always the latter (docs/device-heap.md)"},
    [VAR_TREE_MIN_PES] = {"SHMPI_TREE_MIN_PES", NULL, ENV_COUNT, "auto",
     "N > 0: teams (and nodes) of N PEs or more run their shared-memory barrier, broadcasts "
     "up to 2 KiB and reductions up to 4 KiB as log-depth trees, smaller ones flat; 0: always "
     "flat; auto: flat when a machine runs more PEs than CPUs (each tree level then waits for "
     "the scheduler), else trees for barriers from 4 PEs, broadcasts and reductions from 8"},
    [VAR_ORDER_CHECK] = {"SHMPI_ORDER_CHECK", NULL, ENV_FLAG, "1",
     "0: no check; otherwise a PE that has waited about a second in a collective for a PE "
     "that waits in another collective of the same team, or in shmem_finalize, ends the job "
     "with one line naming both (collectives called in different orders)"},
    [VAR_HANG_REPORT] = {"SHMPI_HANG_REPORT", NULL, ENV_COUNT, "5",
     "seconds: once every PE has waited this long with nothing in flight, PE 0 prints what "
     "each waits in (routine, address or lock, team), once; the job keeps waiting; 0: never"},
    [VAR_STATUS] = {"SHMPI_STATUS", NULL, ENV_FLAG, "1",
     "0: no status page; otherwise each PE keeps one in /dev/shm (shmpi-status.JOB.PE, "
     "removed by shmem_finalize) saying what it waits in, which shmpi_info --jobs and --waits "
     "read while the job runs"},
    [VAR_SNAPSHOT_SIGNAL] = {"SHMPI_SNAPSHOT_SIGNAL", NULL, ENV_COUNT, "USR2",
     "USR2, USR1 or a signal number: a PE sent it prints to stderr what every PE of the job on "
     "its node waits in (shmpi_info --waits), once per signal; 0: none; only where the "
     "signal still has its default action at shmem_init (MPICH takes USR1)"},
};
#define N_ENV_VARS (sizeof(env_table) / sizeof(env_table[0]))

/* The spec: SHMEM_ wins over SMA_ when both are set. */
static const char *env_lookup(const struct env_var *var)
{
    const char *value = getenv(var->name);
    if (!value && var->alias)
        value = getenv(var->alias);
    return value;
}

/* The first malformed value found: every PE reads the same environment as
 * a rule, so the job ends after all variables are read, with one message
 * (shmpi_end_if_any), not one per PE. */
static char problem[512];

static void __attribute__((format(printf, 1, 2))) env_problem(const char *fmt, ...)
{
    if (problem[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(problem, sizeof problem, fmt, ap);
    va_end(ap);
}

static bool flag_value(const char *value)
{
    return value != NULL;
}

/* The non-negative integer in variable `var`, or `fallback` if it is unset;
 * a malformed value or one above `max` is a problem: VAR="value" is not
 * `what` (expected `expected`). */
static long count_value(int var, long fallback, long max, const char *what,
                        const char *expected)
{
    const char *value = env_lookup(&env_table[var]);
    long count = fallback;
    if (value && (shmpi_parse_count(value, &count) || count > max)) {
        env_problem("%s=\"%s\" is not %s (expected %s)", env_table[var].name, value, what,
                    expected);
        count = fallback;
    }
    return count;
}

size_t shmpi_machine_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES);
    long page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (size_t)pages * (size_t)page : 0;
}

void shmpi_env_read(void)
{
    struct shmpi_env *env = &shmpi_g.env;
    const char *value;

    problem[0] = 0;
    const struct env_var *size_var = &env_table[VAR_SYMMETRIC_SIZE];
    const char *size_name = getenv(size_var->name) ? size_var->name : size_var->alias;
    value = env_lookup(size_var);
    if (!value)
        value = DEFAULT_SYMMETRIC_SIZE;
    size_t memory = shmpi_machine_memory();
    if (shmpi_parse_size(value, &env->symmetric_size)) {
        env_problem("%s=\"%s\" is not a valid size (expected a positive number with an "
                    "optional k, m, g or t suffix, e.g. 512m)",
                    size_name, value);
        shmpi_parse_size(DEFAULT_SYMMETRIC_SIZE, &env->symmetric_size);
    } else if (memory && env->symmetric_size > memory)
        env_problem("%s=\"%s\" (%zu bytes) is larger than this machine's memory (%zu bytes)",
                    size_name, value, env->symmetric_size, memory);

    env->debug = flag_value(env_lookup(&env_table[VAR_DEBUG]));
    env->version = flag_value(env_lookup(&env_table[VAR_VERSION]));
    env->info = flag_value(env_lookup(&env_table[VAR_INFO]));
    value = env_lookup(&env_table[VAR_MPI_ONLY]);
    env->mpi_only = value && strcmp(value, "0") != 0;
    value = env_lookup(&env_table[VAR_SHARE_STATIC]);
    env->share_static = !value || strcmp(value, "0") != 0;

    env->pseudo_node_size =
        (int)count_value(VAR_PSEUDO_NODE_SIZE, 0, 1 << 20, "a valid count",
                         "an integer >= 0");
    value = env_lookup(&env_table[VAR_PROGRESS_THREAD]);
    env->progress_interval_us =
        !value || strcmp(value, "auto") == 0
            ? -1
            : count_value(VAR_PROGRESS_THREAD, -1, 1000000, "a valid interval",
                          "auto or microseconds from 0 to 1000000; 0 = no progress thread");
    env->finalize_grace_ms = count_value(VAR_FINALIZE_GRACE_MS, 300, 600000, "valid",
                                         "milliseconds from 0 to 600000");

    value = env_lookup(&env_table[VAR_POLL_US]);
    env->poll_us = !value || strcmp(value, "auto") == 0
                       ? -1
                       : count_value(VAR_POLL_US, -1, 100000000, "valid",
                                     "auto or microseconds from 0 to 100000000");

    value = env_lookup(&env_table[VAR_ORDER_CHECK]);
    env->order_check = !value || strcmp(value, "0") != 0;
    env->hang_report_s = count_value(VAR_HANG_REPORT, 5, 86400, "valid",
                                     "seconds from 0 to 86400; 0 = no report");

    value = env_lookup(&env_table[VAR_STATUS]);
    env->status = !value || strcmp(value, "0") != 0;
    value = env_lookup(&env_table[VAR_SNAPSHOT_SIGNAL]);
    if (!value || strcmp(value, "USR2") == 0 || strcmp(value, "SIGUSR2") == 0)
        env->snapshot_signal = SIGUSR2;
    else if (strcmp(value, "USR1") == 0 || strcmp(value, "SIGUSR1") == 0)
        env->snapshot_signal = SIGUSR1;
    else
        env->snapshot_signal = count_value(VAR_SNAPSHOT_SIGNAL, 0, 64, "valid",
                                           "USR1, USR2, or a signal number from 0 to 64; 0 = none");

    value = env_lookup(&env_table[VAR_TREE_MIN_PES]);
    env->tree_min_pes = !value || strcmp(value, "auto") == 0
                            ? -1
                            : count_value(VAR_TREE_MIN_PES, -1, 1 << 30, "valid",
                                          "auto or a number of PEs; 0 = never");

    value = env_lookup(&env_table[VAR_AMO_OPS]);
    env->amo_ops_text = value ? value : "any";
    env->amo_ops = shmpi_amo_parse_ops(env->amo_ops_text);
    if (env->amo_ops == 0) {
        env_problem("SHMPI_AMO_OPS=\"%s\" is not valid (expected any, or a comma-separated "
                    "list of fetch, set, swap, compare_swap, add, and, or, xor)",
                    value);
        env->amo_ops = shmpi_amo_parse_ops("any");
    }
    env->amo_window_ops = shmpi_amo_window_ops(env->amo_ops);

    value = env_lookup(&env_table[VAR_DEVICE_HEAP_SIZE]);
    env->device_heap_size = 0;
    if (value && strcmp(value, "0") != 0 && shmpi_parse_size(value, &env->device_heap_size)) {
        env_problem("SHMPI_DEVICE_HEAP_SIZE=\"%s\" is not a valid size (expected 0 or a "
                    "positive number with an optional k, m, g or t suffix, e.g. 1g)",
                    value);
        env->device_heap_size = 0;
    }

    value = env_lookup(&env_table[VAR_DEVICE_IPC]);
    env->device_ipc = !value || strcmp(value, "0") != 0;
    if (value && strcmp(value, "0") != 0 && strcmp(value, "1") != 0)
        env_problem("SHMPI_DEVICE_IPC=\"%s\" is not valid (expected 0 or 1)", value);

    value = env_lookup(&env_table[VAR_DEVICE_CHUNK]);
    env->device_chunk = 256 * 1024;
    if (value && (shmpi_parse_size(value, &env->device_chunk) ||
                  env->device_chunk < 4096 || env->device_chunk > ((size_t)1 << 30))) {
        env_problem("SHMPI_DEVICE_CHUNK=\"%s\" is not valid (expected a size from 4k to 1g, "
                    "e.g. 256k)",
                    value);
        env->device_chunk = 256 * 1024;
    }
    value = env_lookup(&env_table[VAR_STREAM_PUSH_MAX]);
    env->stream_push_max = (size_t)128 << 10;
    if (value && strcmp(value, "0") == 0)
        env->stream_push_max = 0;
    else if (value && shmpi_parse_size(value, &env->stream_push_max))
        env_problem("SHMPI_STREAM_PUSH_MAX=\"%s\" is not a valid size (expected 0 or a "
                    "positive number with an optional k, m, g or t suffix, e.g. 128k)",
                    value);

    value = env_lookup(&env_table[VAR_CUDA_LIBRARY]);
    env->cuda_library = value && *value ? value : "libcuda.so.1";

    value = env_lookup(&env_table[VAR_FD_PASSING]);
    if (!value || !strcmp(value, "auto"))
        env->fd_passing = SHMPI_FD_AUTO;
    else if (!strcmp(value, "pidfd"))
        env->fd_passing = SHMPI_FD_PIDFD;
    else if (!strcmp(value, "socket"))
        env->fd_passing = SHMPI_FD_SOCKET;
    else
        env_problem("SHMPI_FD_PASSING=\"%s\" is not valid (expected auto, pidfd or socket)",
                    value);

    env->stream_queue = (int)count_value(VAR_STREAM_QUEUE, 256, 1 << 20, "a valid queue size",
                                         "a number of slots from 1 to 1048576");
    if (env->stream_queue < 1) {
        env_problem("SHMPI_STREAM_QUEUE=\"0\" is not a valid queue size (expected a number "
                    "of slots from 1 to 1048576)");
        env->stream_queue = 256;
    }
    value = env_lookup(&env_table[VAR_STREAM_PROXY]);
    env->stream_proxy_all = value && !strcmp(value, "all");
    if (value && strcmp(value, "all") && strcmp(value, "auto"))
        env_problem("SHMPI_STREAM_PROXY=\"%s\" is not valid (expected auto or all)", value);

    value = env_lookup(&env_table[VAR_YIELD_WAITS]);
    if (!value || strcmp(value, "auto") == 0)
        env->yield_waits = -1;
    else if (strcmp(value, "0") == 0 || strcmp(value, "1") == 0)
        env->yield_waits = value[0] - '0';
    else
        env_problem("SHMPI_YIELD_WAITS=\"%s\" is not valid (expected auto, 0 or 1)", value);

    shmpi_end_if_any("shmem_init", problem[0] ? problem : NULL);
}

void shmpi_env_print_info(void)
{
    printf("shmpi environment variables (name, value now, default, meaning):\n");
    for (size_t i = 0; i < N_ENV_VARS; i++) {
        const struct env_var *var = &env_table[i];
        const char *value = env_lookup(var);
        printf("  %-24s %-12s default %-8s %s%s%s\n", var->name, value ? value : "(unset)",
               var->default_text, var->meaning, var->alias ? "; deprecated alias " : "",
               var->alias ? var->alias : "");
    }
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    shmpi_mpi_library(library, sizeof library);
    printf("  MPI library: %s; window: %s\n", library, shmpi_rma_window_text());
    printf("  heap in use: %zu bytes per PE\n", shmpi_g.env.symmetric_size);
    if (shmpi_device.size)
        printf("  device heap: %zu bytes per PE in GPU memory (driver %s)\n",
               shmpi_device.size, shmpi_g.env.cuda_library);
    printf("  this job: %d PEs, %s; more PEs than CPUs on some machine: %s; waits yield: %s; "
           "waits sleep after %llu us; progress thread: %s; MPI-path AMOs: %s\n",
           shmpi_g.n_pes, shmpi_job_spans_nodes() ? "several nodes" : "one node",
           shmpi_job_crowded() ? "yes" : "no", shmpi_g.yield_waits ? "yes" : "no",
           (unsigned long long)(shmpi_g.poll_ns / 1000),
           shmpi_job_progress_thread() ? "yes" : "no",
           shmpi_amo_by_message() ? "messages to the owner"
                                  : shmpi_amo_direct_op_name(shmpi_g.env.amo_ops));
    fflush(stdout);
}
