/*
 * barrier.c - barriers that keep RMA moving while they wait.
 *
 * MPI_Barrier would block inside MPI spinning, which with more PEs than
 * cores starves the PEs it waits for; MPI_Ibarrier plus shmpi_wait_request
 * drives progress and yields instead.
 */
#include "shmpi.h"

void shmpi_barrier_comm(MPI_Comm comm)
{
    MPI_Request req;
    MPI_Ibarrier(comm, &req);
    shmpi_wait_request(&req);
}

void shmpi_barrier_all(void)
{
    shmpi_quiet_all();
    shmpi_barrier_comm(shmpi_g.team_world.comm);
}
