/*
 * shmemx.h - shmpi extensions to OpenSHMEM (names start with shmemx_).
 */
#ifndef SHMEMX_H
#define SHMEMX_H

#include <shmem.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- MPI interoperability ---------------------------------------------------------
 * Declared only when mpi.h was included before this header (MPI_VERSION is
 * defined), so that shmemx.h itself never needs mpi.h.
 *
 * shmemx_team_get_mpi_comm: sets *comm to the MPI communicator of `team`,
 * whose rank of each PE is its PE number in the team.  The communicator
 * belongs to the team: it is valid until the team is destroyed (or
 * shmem_finalize for SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED) and must not
 * be freed; MPI_Comm_dup it to keep one.  Returns 0, or nonzero with
 * *comm = MPI_COMM_NULL when team is SHMEM_TEAM_INVALID. */
#if defined(MPI_VERSION)
int shmemx_team_get_mpi_comm(shmem_team_t team, MPI_Comm *comm);
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SHMEMX_H */
