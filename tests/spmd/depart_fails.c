/*
 * One PE leaves the job early while the others still need it; the job must
 * end, with one line naming the PE that left, instead of hanging.
 * Arguments: WHERE the others wait (barrier: a barrier over all PEs, bcast:
 * a broadcast from the PE that leaves, get: blocking gets from it, then
 * barriers) and HOW the last PE leaves (exit: calls exit, return: returns
 * from main, finalize: calls shmem_finalize and returns).  No
 * shmem_finalize is skipped by the others: the job is expected to fail
 * (tests/run-spmd.sh checks the line printed first).
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static long source = 42, dest, word = 7;

static long long now_ms(void)
{
    struct timeval t;
    gettimeofday(&t, NULL);
    return (long long)t.tv_sec * 1000 + t.tv_usec / 1000;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: depart_fails barrier|bcast|get exit|return|finalize\n");
        return 2;
    }
    const char *where = argv[1], *how = argv[2];
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int leaver = n - 1;
    if (n < 2) {
        if (me == 0)
            printf("skipped: needs 2 PEs\n");
        shmem_finalize();
        return 77;
    }
    shmem_barrier_all();
    if (me == leaver) {
        /* The harness's lines in one write of one PE (the launcher forwards
         * each PE's output on its own: lines of two PEs have come out spliced). */
        printf("expect failure: PE %d waits in (exit \\(shmem_finalize\\)|shmem_finalize): "
               "collectives called in different orders\ndeparts at %lld\n",
               leaver, now_ms());
        fflush(stdout);
        if (strcmp(how, "exit") == 0)
            exit(0);
        if (strcmp(how, "finalize") == 0)
            shmem_finalize();
        return 0;
    }
    if (strcmp(where, "barrier") == 0) {
        shmem_barrier_all();
    } else if (strcmp(where, "bcast") == 0) {
        shmem_long_broadcast(SHMEM_TEAM_WORLD, &dest, &source, 1, leaver);
    } else {
        for (int i = 0; i < 100; i++)
            if (shmem_long_g(&word, leaver) != 7) {
                fprintf(stderr, "FAIL: PE %d: get from PE %d returned a wrong value\n", me,
                        leaver);
                return 1;
            }
    }
    /* The departing PE's own shmem_finalize barrier may pair with this
     * PE's first barrier after a get; the one after cannot complete. */
    if (strcmp(where, "get") == 0)
        shmem_barrier_all();
    shmem_barrier_all();
    fprintf(stderr, "FAIL: PE %d went on past PE %d's departure\n", me, leaver);
    shmem_finalize();
    return 1;
}
