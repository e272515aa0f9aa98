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

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/prctl.h>
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
    /* A PE that waits or polls completes its own deferred AMOs: what it
     * waits for may depend on them. */
    shmpi_amo_drain(false);
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
        /* MPI_Test alone serves RMA aimed at this PE far more slowly than a
         * probe does (measured: 1.2 ms instead of 1.7 us per remote AMO). */
        shmpi_backoff(&spins);
    }
}

/* ---- the progress thread ---------------------------------------------------------------
 * With MPICH ch4 a PE that computes outside MPI delays every MPI operation
 * aimed at it.  SHMPI_PROGRESS_THREAD=N starts a thread that enters MPI
 * every N microseconds (MPI_Iprobe on its own communicator), bounding that
 * delay by about N us at the cost of N-us wake-ups.  It needs
 * MPI_THREAD_MULTIPLE, which shmpi then asks MPI for. */
static pthread_t progress_thread;
static atomic_bool progress_stop;
static bool progress_running;
static MPI_Comm progress_comm = MPI_COMM_NULL;

static void *progress_loop(void *arg)
{
    (void)arg;
    long us = shmpi_g.env.progress_interval_us;
    struct timespec pause = {us / 1000000, us % 1000000 * 1000};
    /* Linux lets a sleep overrun by the thread's timer slack (50 us by
     * default): a 10-us interval became ~60 us.  1 us keeps the interval. */
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    while (!atomic_load_explicit(&progress_stop, memory_order_relaxed)) {
        int flag;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, progress_comm, &flag, MPI_STATUS_IGNORE);
        nanosleep(&pause, NULL);
    }
    return NULL;
}

void shmpi_progress_thread_start(void)
{
    if (shmpi_g.env.progress_interval_us <= 0)
        return;
    int level;
    MPI_Query_thread(&level);
    if (level != MPI_THREAD_MULTIPLE) {
        if (shmpi_g.my_pe == 0)
            shmpi_warn("shmem_init",
                       "SHMPI_PROGRESS_THREAD ignored: MPI was initialized without "
                       "MPI_THREAD_MULTIPLE (call MPI_Init_thread with it, or let shmem_init "
                       "start MPI)");
        return;
    }
    MPI_Comm_dup(shmpi_g.comm, &progress_comm);
    atomic_store(&progress_stop, false);
    if (pthread_create(&progress_thread, NULL, progress_loop, NULL) != 0)
        shmpi_abort("shmem_init", "cannot start the progress thread");
    progress_running = true;
}

void shmpi_progress_thread_stop(void)
{
    if (!progress_running)
        return;
    atomic_store(&progress_stop, true);
    pthread_join(progress_thread, NULL);
    progress_running = false;
    MPI_Comm_free(&progress_comm);
}
