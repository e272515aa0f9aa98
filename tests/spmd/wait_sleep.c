/* Waiting PEs give the CPU back.  PE 0 computes for COMPUTE_MS without
 * calling shmpi while the others wait for it, in shmem_barrier_all and in
 * shmem_long_wait_until.  With SHMPI_POLL_US=0 (the argument "sleep") a
 * waiter starts sleeping soon: when the PEs outnumber the CPUs it must use
 * under 30% of a CPU (measured 2-10%; a yielding waiter takes its full
 * share, about 50% here), and it must still leave the wait soon after PE 0
 * arrives.  (With a CPU per PE a barrier may spin inside a blocking MPI
 * collective: it takes nobody's CPU.)  Without the argument only the
 * waits' results and promptness are checked.
 *
 * Promptness is measured from the moment PE 0 arrives (its clock reading,
 * sent to the waiters after the rounds; every PE of a test job runs on one
 * kernel, so CLOCK_MONOTONIC is one clock), not from the start of the
 * round: on a loaded machine PE 0 itself may get the CPU late, which is no
 * fault of the waiters.  The median round is judged, against a bound that
 * grows with the median of a reference wait done in the same rounds: MPI's
 * own blocking MPI_Recv of a message PE 0 sends when it arrives.  A waiter
 * that sleeps too long is late in every round while MPI_Recv is not; a
 * loaded machine delays both alike (Open MPI's PEs share the launcher's
 * scheduler autogroup: against other busy sessions the whole job waits
 * for the CPU, in scheduler ticks). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "testlib.h"

#define COMPUTE_MS 20
#define ROUNDS 10 /* of each wait: waits of tens of ms are the ones that used to yield */
/* The waits: shmpi's two, and MPI's own blocking receive as the reference. */
enum { BARRIER, WAIT_UNTIL, REFERENCE, KINDS };
#define REFERENCE_FACTOR 3

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double cpu_s(void)
{
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return (double)(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
           1e-6 * (double)(r.ru_utime.tv_usec + r.ru_stime.tv_usec);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static volatile double sink;

static void compute(double seconds)
{
    double end = now_s() + seconds, x = 1;
    while (now_s() < end)
        for (int i = 0; i < 10000; i++)
            x = x * 1.0000001 + 1e-9;
    sink = x;
}

static long flag; /* symmetric (static data): PE 0 sets it on every PE */
/* symmetric: when PE 0 arrived at each kind's wait in each round */
static double arrived[KINDS][ROUNDS];

static double median(double *v)
{
    qsort(v, ROUNDS, sizeof v[0], compare_doubles);
    return v[ROUNDS / 2];
}

int main(int argc, char **argv)
{
    bool sleep_now = argc > 1 && strcmp(argv[1], "sleep") == 0;
    if (sleep_now)
        setenv("SHMPI_POLL_US", "0", 1);
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    /* Valgrind runs each wake-up many times slower: no CPU bound there. */
    const char *preload = getenv("LD_PRELOAD");
    bool under_valgrind = preload && strstr(preload, "vgpreload");
    bool crowded = n > sysconf(_SC_NPROCESSORS_ONLN);
    /* How late after PE 0's arrival a waiter may leave when the machine
     * gives it the CPU at once: more PEs than CPUs (or a barrier's other
     * waiters) delay it more. */
    double late = under_valgrind ? 2.0 : n > 2 ? 0.3 : 0.1;

    static const char *const how[KINDS] = {"barrier_all", "wait_until", "MPI_Recv"};
    double wall_all[KINDS] = {0}, cpu_all[KINDS] = {0}, left[KINDS][ROUNDS];
    /* The kinds take turns within each round, so the reference waits
     * under the same load as the others. */
    for (int round = 0; round < ROUNDS; round++) {
        for (int kind = 0; kind < KINDS; kind++) {
            long value = round + 1;
            shmem_barrier_all();
            double wall0 = now_s(), cpu0 = cpu_s();
            if (me == 0) {
                compute(COMPUTE_MS / 1000.0);
                arrived[kind][round] = now_s();
                if (kind == BARRIER)
                    shmem_barrier_all();
                else if (kind == WAIT_UNTIL)
                    for (int pe = 1; pe < n; pe++)
                        shmem_long_atomic_set(&flag, value, pe);
                else
                    for (int pe = 1; pe < n; pe++)
                        MPI_Send(&value, 1, MPI_LONG, pe, 0, MPI_COMM_WORLD);
            } else if (kind == BARRIER) {
                shmem_barrier_all();
            } else if (kind == WAIT_UNTIL) {
                shmem_long_wait_until(&flag, SHMEM_CMP_EQ, value);
                CHECK(flag == value, "flag %ld, expected %ld", flag, value);
            } else {
                long got = 0;
                MPI_Recv(&got, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                CHECK(got == value, "received %ld, expected %ld", got, value);
            }
            left[kind][round] = now_s();
            wall_all[kind] += left[kind][round] - wall0;
            cpu_all[kind] += cpu_s() - cpu0;
        }
    }
    /* PE 0's arrival times to every waiter. */
    shmem_barrier_all();
    if (me == 0)
        for (int pe = 1; pe < n; pe++)
            shmem_double_put(&arrived[0][0], &arrived[0][0], KINDS * ROUNDS, pe);
    shmem_barrier_all();
    if (me != 0) {
        double after[KINDS][ROUNDS], slowest[KINDS], mid[KINDS];
        for (int kind = 0; kind < KINDS; kind++) {
            slowest[kind] = 0;
            for (int round = 0; round < ROUNDS; round++) {
                after[kind][round] = left[kind][round] - arrived[kind][round];
                CHECK(after[kind][round] >= 0, "%s round %d returned %.3f ms before PE 0 arrived",
                      how[kind], round, -after[kind][round] * 1e3);
                if (after[kind][round] > slowest[kind])
                    slowest[kind] = after[kind][round];
            }
            mid[kind] = median(after[kind]);
        }
        /* A waiter that oversleeps is late in every round, while a loaded
         * machine delays every wait, MPI's own too: the median round of
         * each of shmpi's waits may take LATE plus REFERENCE_FACTOR times
         * the median of MPI_Recv's. */
        double limit = late + REFERENCE_FACTOR * mid[REFERENCE];
        for (int kind = 0; kind < REFERENCE; kind++) {
            CHECK(mid[kind] <= limit,
                  "%s: the median round returned %.1f ms after PE 0 arrived (limit %.0f ms "
                  "+ %d x MPI_Recv's median %.1f ms; %s slowest %.1f ms, MPI_Recv's %.1f ms)",
                  how[kind], mid[kind] * 1e3, late * 1e3, REFERENCE_FACTOR,
                  mid[REFERENCE] * 1e3, how[kind], slowest[kind] * 1e3,
                  slowest[REFERENCE] * 1e3);
            if (sleep_now && crowded && !under_valgrind)
                CHECK(cpu_all[kind] < 0.3 * wall_all[kind],
                      "%s with SHMPI_POLL_US=0 used %.0f ms of CPU in %.0f ms", how[kind],
                      cpu_all[kind] * 1e3, wall_all[kind] * 1e3);
        }
    }
    shmem_barrier_all();
    test_passed(sleep_now ? "wait_sleep sleep" : "wait_sleep");
    shmem_finalize();
    return 0;
}
