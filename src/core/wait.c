/*
 * wait.c - the one waiting loop of point-to-point synchronization.
 *
 * The awaited variable lives in this PE's symmetric memory and changes by
 * remote writes: direct stores from PEs of this node, or MPI operations
 * that this PE's progress engine applies, so the loop must keep calling
 * into MPI (shmpi_backoff) or it would wait for itself.
 */
#include "shmpi.h"

void shmpi_wait_until(const char *routine, bool (*satisfied)(const void *state),
                      const void *state)
{
    unsigned spins = 0;
    (void)routine;
    while (!satisfied(state))
        shmpi_backoff(&spins);
    /* What the writer stored before the awaited value is visible now. */
    atomic_thread_fence(memory_order_acquire);
}
