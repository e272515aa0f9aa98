/*
 * window.h - the symmetric segments and the MPI window over them
 * (window.c).
 */
#ifndef SHMPI_WINDOW_H
#define SHMPI_WINDOW_H

#include <mpi.h>

/* Start-up, in this order (src/core/runtime.c).  Local: this PE's heap and
 * static data, in shared-memory objects where the job shares memory, and
 * their place on its card (before shmpi_shape_exchange). */
void shmpi_segments_create(void);
/* Local, once every card is known: maps the node peers' segments (or puts
 * this PE's back in private memory where the job does not share). */
void shmpi_segments_map(void);
/* After every PE has mapped its peers' (the last barrier of start-up):
 * removes the names of this PE's objects. */
void shmpi_segments_unlink(void);
/* Unmaps everything and frees the window (shmpi_rma_fini). */
void shmpi_segments_fini(void);

#endif /* SHMPI_WINDOW_H */
