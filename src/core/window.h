/*
 * window.h - the symmetric segments and the MPI window over them
 * (window.c).
 */
#ifndef SHMPI_WINDOW_H
#define SHMPI_WINDOW_H

#include <mpi.h>

/* Start-up (collective, after the environment is read): maps the heap and
 * static data of every PE this one can reach, creates the window, and
 * exchanges the segments' addresses.  shmpi_segments_fini undoes it. */
void shmpi_segments_init(void);
void shmpi_segments_fini(void);
/* (shmpi_node_comm, the PEs that map each other's segments: shape.h) */

#endif /* SHMPI_WINDOW_H */
