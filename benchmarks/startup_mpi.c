/* The trivial MPI program startup.sh times beside startup_shmem.c: what
 * MPI's own start-up and finalize cost on the same machine in the same run. */
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Finalize();
    return 0;
}
