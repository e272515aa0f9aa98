/*
 * barrier.h - the barriers over all PEs (barrier.c): start and end of the
 * node barrier, shmpi_sync_world and shmem_barrier_all.
 */
#ifndef SHMPI_BARRIER_H
#define SHMPI_BARRIER_H

#include "shmpi.h"

/* Collective, after shmpi_heap_setup: the node barrier lives in the node
 * leader's reserved heap block. */
void shmpi_barrier_init(void);
void shmpi_barrier_fini(void);
/* Barrier over all PEs (shared memory within a node); no quiet. */
void shmpi_sync_world(const char *routine);
/* shmem_barrier_all: quiet, then shmpi_sync_world. */
void shmpi_barrier_all(const char *routine);

#endif /* SHMPI_BARRIER_H */
