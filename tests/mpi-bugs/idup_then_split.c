/*
 * idup_then_split.c - plain MPI: may a blocking MPI_Comm_split follow an
 * MPI_Comm_idup of the same communicator that is still outstanding?  (The
 * standard says yes, when every rank calls them in the same order.  Open
 * MPI 4.1.4: it hangs now and then, some ranks in the split's context-id
 * agreement, the others waiting for the idup; docs/mpi-implementations.md.)
 *
 * ROUNDS times: MPI_Comm_idup of a duplicate of MPI_COMM_WORLD, then
 * MPI_Comm_split of it into pairs of ranks, then MPI_Wait for the idup:
 * shmpi's shmem_init made its teams so on more than one (pseudo-)node.
 * Prints "ROUNDS rounds done" from rank 0; a hang is the failure (run it
 * under timeout).
 *   mpicc idup_then_split.c -o idup_then_split
 *   timeout 60 mpiexec -n 4 ./idup_then_split
 * (Open MPI as root: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;
 * more ranks than cores: --oversubscribe.)
 */
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 200

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    for (int round = 0; round < ROUNDS; round++) {
        MPI_Comm dup, pair;
        MPI_Request req;
        MPI_Comm_idup(comm, &dup, &req);
        MPI_Comm_split(comm, rank / 2, rank, &pair);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Comm_free(&pair);
        MPI_Comm_free(&dup);
    }
    MPI_Comm_free(&comm);
    if (rank == 0)
        printf("%d rounds done\n", ROUNDS);
    MPI_Finalize();
    return 0;
}
