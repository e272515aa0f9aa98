/*
 * Collectives called in different orders: the job must end within seconds
 * with one line naming both PEs and both routines, not hang.
 * Argument: what PE 1 does while every other PE waits in
 * shmem_int_sum_reduce on all PEs:
 *   free      shmem_free twice, then shmem_finalize (what shmem4py does at
 *             exit after an exception on one PE)
 *   finalize  shmem_finalize at once
 * A second argument "pe0": PE 0 does it instead (the PE that leaves is then
 * the lowest of those that see the pair).
 * (tests/run-spmd.sh checks the line and the time from "departs at".)
 */
#include <shmem.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static int source = 1, dest;

static long long now_ms(void)
{
    struct timeval t;
    gettimeofday(&t, NULL);
    return (long long)t.tv_sec * 1000 + t.tv_usec / 1000;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3 || (strcmp(argv[1], "free") && strcmp(argv[1], "finalize")) ||
        (argc == 3 && strcmp(argv[2], "pe0"))) {
        fprintf(stderr, "usage: coll_order_fails free|finalize [pe0]\n");
        return 2;
    }
    const int freeing = strcmp(argv[1], "free") == 0, leaver = argc == 3 ? 0 : 1;
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (n < 2) {
        if (me == 0)
            printf("skipped: needs 2 PEs\n");
        shmem_finalize();
        return 77;
    }
    int *a = shmem_malloc(64), *b = shmem_malloc(64);
    shmem_barrier_all();
    if (me == leaver) {
        /* What the harness reads, in one write of the one PE that prints
         * before the failure: the launcher forwards each PE's output on its
         * own, and lines of two PEs have come out spliced.  The line comes
         * from one of the PEs that see the pair: either side. */
        const char *theirs = freeing ? "shmem_free" : "shmem_finalize";
        printf("expect failure: (shmem_int_sum_reduce: PE %d waits in %s|%s: PE [0-9]+ waits in "
               "shmem_int_sum_reduce): collectives called in different orders\n"
               "expect lines: 1\ndeparts at %lld\n",
               leaver, theirs, theirs, now_ms());
        fflush(stdout);
        if (freeing) {
            shmem_free(a);
            shmem_free(b);
        }
        shmem_finalize();
        return 0;
    }
    shmem_int_sum_reduce(SHMEM_TEAM_WORLD, &dest, &source, 1);
    fprintf(stderr, "FAIL: PE %d went on past PE %d's %s\n", me, leaver, argv[1]);
    shmem_finalize();
    return 1;
}
