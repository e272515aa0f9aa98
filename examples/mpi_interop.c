/*
 * mpi_interop.c - SHMEM and MPI in one program.
 *
 * The program owns MPI (MPI_Init first, MPI_Finalize last); shmem_init
 * joins it and shmem_finalize leaves it running.  PE numbers are
 * MPI_COMM_WORLD ranks.  Each PE fills its part of a symmetric array with
 * one-sided puts, MPI_Allreduce sums the array, and an MPI collective runs
 * on the communicator of a SHMEM team (shmemx_team_get_mpi_comm).
 *
 *   oshcc examples/mpi_interop.c -o mpi_interop && oshrun -n 4 ./mpi_interop
 */
#include <mpi.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    shmem_init();
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* SHMEM: every PE writes its rank into slot `rank` of every PE's array */
    long *slots = shmem_calloc((size_t)size, sizeof(long));
    for (int pe = 0; pe < size; pe++)
        shmem_long_p(&slots[rank], rank + 1, pe);
    shmem_barrier_all();

    /* MPI on the same symmetric data */
    long local = 0, total = 0;
    for (int i = 0; i < size; i++)
        local += slots[i];
    MPI_Allreduce(&local, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);

    /* an MPI collective on a SHMEM team: the even PEs */
    shmem_team_t evens;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (size + 1) / 2, NULL, 0, &evens);
    int team_sum = -1;
    if (evens != SHMEM_TEAM_INVALID) {
        MPI_Comm comm;
        shmemx_team_get_mpi_comm(evens, &comm);
        MPI_Allreduce(&rank, &team_sum, 1, MPI_INT, MPI_SUM, comm);
        shmem_team_destroy(evens);
    }
    long want = (long)size * size * (size + 1) / 2;
    int even_sum = 0;
    for (int r = 0; r < size; r += 2)
        even_sum += r;
    int ok = total == want && (rank % 2 || team_sum == even_sum);
    printf("rank %d: MPI sum of SHMEM data %ld (expected %ld), even-team sum %d\n", rank, total,
           want, team_sum);
    shmem_free(slots);
    shmem_finalize();

    /* MPI goes on after shmem_finalize */
    int all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    MPI_Finalize();
    return all_ok ? 0 : 1;
}
