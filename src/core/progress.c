/*
 * progress.c - how shmpi waits.
 *
 * With MPICH ch4 an RMA operation aimed at a PE completes only while that
 * PE is inside MPI, so every loop that waits for something (a flag, a lock,
 * a request) calls into MPI on each turn.  With more PEs than cores a
 * waiter that only spins steals the CPU from the PE it waits for, so after
 * a few turns the loop yields, and after many it sleeps briefly.
 */
#include "shmpi.h"

#include <sched.h>
#include <time.h>

/* Turns of pure polling before yielding, and before short sleeps. */
#define SPINS_BEFORE_YIELD 16
#define SPINS_BEFORE_SLEEP 20000

void shmpi_progress(void)
{
    int flag;
    /* Any entry into the progress engine processes incoming RMA; probing a
     * private communicator that never carries messages is the cheapest. */
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, shmpi_g.comm, &flag, MPI_STATUS_IGNORE);
}

void shmpi_backoff(unsigned *spins)
{
    shmpi_progress();
    unsigned n = ++*spins;
    if (n < SPINS_BEFORE_YIELD)
        return;
    if (n < SPINS_BEFORE_SLEEP) {
        sched_yield();
        return;
    }
    struct timespec pause = {0, 50 * 1000};
    nanosleep(&pause, NULL);
}

void shmpi_wait_request(MPI_Request *req)
{
    unsigned spins = 0;
    for (;;) {
        int done = 0;
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        if (++spins >= SPINS_BEFORE_YIELD)
            sched_yield();
    }
}
