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
/* The PEs of this node or pseudo-node, which map each other's heaps, or
 * MPI_COMM_NULL when the shared-memory path is off. */
MPI_Comm shmpi_node_comm(void);

#endif /* SHMPI_WINDOW_H */
