/*
 * team_comm.h - the communicators of new teams (team_comm.c): made by the
 * members alone, from a cache of templates.
 */
#ifndef SHMPI_TEAM_COMM_H
#define SHMPI_TEAM_COMM_H

#include <mpi.h>

struct shmpi_team;

/* Called by the members only: a communicator whose rank i is parent PE
 * members[i] (world PE world[i]). */
MPI_Comm shmpi_team_comm(const char *routine, struct shmpi_team *parent, const int *members,
                         const int *world, int n);
/* Frees the cached templates (finalize). */
void shmpi_team_comm_fini(void);

#endif /* SHMPI_TEAM_COMM_H */
