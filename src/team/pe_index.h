/*
 * pe_index.h - world PE <-> team PE (pe_index.c).  Each team keeps its
 * team PE -> world PE table (team->world_pe) and, built from it, a world
 * PE -> team PE index: computed for arithmetic progressions, a binary
 * search otherwise, so shmem_team_translate_pe is O(1) or O(log n) and RMA
 * on a team context needs no MPI call.
 */
#ifndef SHMPI_PE_INDEX_H
#define SHMPI_PE_INDEX_H

#include <mpi.h>

struct shmpi_team;

/* Builds team->world_start/world_stride/by_world from team->world_pe. */
void shmpi_pe_index_build(const char *routine, struct shmpi_team *team);
/* Team PE of world PE `world_pe`, or -1 if it is not a member. */
int shmpi_team_pe_of_world(const struct shmpi_team *team, int world_pe);
/* Team PE -> world PE for every member of `comm` (malloc'ed; the caller
 * frees it). */
int *shmpi_comm_world_pes(MPI_Comm comm);

#endif /* SHMPI_PE_INDEX_H */
