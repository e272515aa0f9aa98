/*
 * barrier.h - start and end of the node barrier (barrier.c).  The barriers
 * themselves are declared in shmpi.h.
 */
#ifndef SHMPI_BARRIER_H
#define SHMPI_BARRIER_H

/* Collective, after shmpi_heap_setup: the node barrier lives in the node
 * leader's reserved heap block. */
void shmpi_barrier_init(void);
void shmpi_barrier_fini(void);

#endif /* SHMPI_BARRIER_H */
