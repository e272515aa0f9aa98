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
 * round: on a loaded machine PE 0 itself may get the CPU late (Open MPI's
 * PEs share the launcher's scheduler autogroup), which is no fault of the
 * waiters; and the median of the rounds is judged, since such a machine
 * also wakes the waiters late now and then, while a waiter that sleeps
 * too long is late in every round. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"

#define COMPUTE_MS 20
#define ROUNDS 10 /* of each wait: waits of tens of ms are the ones that used to yield */

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
static double arrived[ROUNDS]; /* symmetric: when PE 0 arrived at each round's wait */

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
    /* How late after PE 0's arrival a waiter may leave: more PEs than CPUs
     * (or a barrier's other waiters) delay it more. */
    double late = under_valgrind ? 2.0 : n > 2 ? 0.3 : 0.1;

    for (int kind = 0; kind < 2; kind++) {
        const char *how = kind == 0 ? "barrier_all" : "wait_until";
        double wall_all = 0, cpu_all = 0, left[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            long value = kind * ROUNDS + round + 1;
            shmem_barrier_all();
            double wall0 = now_s(), cpu0 = cpu_s();
            if (me == 0) {
                compute(COMPUTE_MS / 1000.0);
                arrived[round] = now_s();
                if (kind == 0)
                    shmem_barrier_all();
                else
                    for (int pe = 1; pe < n; pe++)
                        shmem_long_atomic_set(&flag, value, pe);
            } else if (kind == 0) {
                shmem_barrier_all();
            } else {
                shmem_long_wait_until(&flag, SHMEM_CMP_EQ, value);
                CHECK(flag == value, "flag %ld, expected %ld", flag, value);
            }
            left[round] = now_s();
            wall_all += left[round] - wall0;
            cpu_all += cpu_s() - cpu0;
        }
        /* PE 0's arrival times to every waiter. */
        shmem_barrier_all();
        if (me == 0)
            for (int pe = 1; pe < n; pe++)
                shmem_double_put(arrived, arrived, ROUNDS, pe);
        shmem_barrier_all();
        /* A waiter that oversleeps is late in every round; a loaded machine
         * (Open MPI's PEs share one scheduler autogroup) delays some: the
         * median round must be prompt. */
        double after[ROUNDS];
        for (int round = 0; round < ROUNDS && me != 0; round++) {
            after[round] = left[round] - arrived[round];
            CHECK(after[round] >= 0, "%s round %d returned %.3f ms before PE 0 arrived", how,
                  round, -after[round] * 1e3);
        }
        if (me != 0) {
            qsort(after, ROUNDS, sizeof after[0], compare_doubles);
            CHECK(after[ROUNDS / 2] <= late,
                  "%s: the median round returned %.1f ms after PE 0 arrived (limit %.0f ms; "
                  "fastest %.1f, slowest %.1f ms)",
                  how, after[ROUNDS / 2] * 1e3, late * 1e3, after[0] * 1e3,
                  after[ROUNDS - 1] * 1e3);
        }
        if (me != 0 && sleep_now && crowded && !under_valgrind)
            CHECK(cpu_all < 0.3 * wall_all,
                  "%s with SHMPI_POLL_US=0 used %.0f ms of CPU in %.0f ms", how, cpu_all * 1e3,
                  wall_all * 1e3);
    }
    shmem_barrier_all();
    test_passed(sleep_now ? "wait_sleep sleep" : "wait_sleep");
    shmem_finalize();
    return 0;
}
