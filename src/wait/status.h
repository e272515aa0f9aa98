/*
 * status.h - this PE's status page (status.c; the layout: status_page.h),
 * which shmpi_info --jobs and --waits read while the job runs, and the
 * snapshot signal (SHMPI_SNAPSHOT_SIGNAL).  Only start-up, allocation, locks
 * and the slow turns of waits that already yield write it.
 */
#ifndef SHMPI_STATUS_H
#define SHMPI_STATUS_H

#include "waiter.h"

/* At start-up, with the job's shape known and every PE's card at hand
 * (diagnose's step): creates the page (SHMPI_STATUS), arms the signal. */
void shmpi_status_init(void);
/* In shmem_finalize: removes the page, disarms the signal. */
void shmpi_status_fini(void);
/* The wait record diagnose.c publishes, its slow turns and its end. */
void shmpi_status_wait_begin(const struct shmpi_waiter *w, unsigned waits_in,
                             const struct shmpi_team *team, const char *routine);
void shmpi_status_wait_tick(const struct shmpi_waiter *w);
void shmpi_status_wait_end(void);
/* This PE took (held) or gives back a lock (api/lock.c). */
void shmpi_status_lock(const void *lock, bool held);
/* The symmetric heap's bytes in use changed (runtime/heap.c). */
void shmpi_status_heap_changed(void);

#endif
