/* shmemx_team_get_mpi_comm: an MPI collective on the PEs of a team (the
 * even PEs), through the team's own communicator.
 * Build and run: oshcc team_get_mpi_comm.c -o team_get_mpi_comm && oshrun -n 4 ./team_get_mpi_comm
 */
#include <mpi.h>     /* before shmemx.h: it then declares the routine */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    shmem_team_t evens;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens);
    if (evens != SHMEM_TEAM_INVALID) {
        MPI_Comm comm;
        shmemx_team_get_mpi_comm(evens, &comm); /* the team's: do not free it */
        int rank, size, sum;
        MPI_Comm_rank(comm, &rank);
        MPI_Comm_size(comm, &size);
        MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, comm);
        printf("PE %d: rank %d of %d, the ranks' PEs add up to %d\n", me, rank, size, sum);
        shmem_team_destroy(evens);
    }
    shmem_finalize();
    return 0;
}
/* Output (lines in any order):
 * PE 0: rank 0 of 2, the ranks' PEs add up to 2
 * PE 2: rank 1 of 2, the ranks' PEs add up to 2
 */
