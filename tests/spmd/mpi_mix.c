/*
 * SHMEM and MPI in one program.  Mode "mpi-first" (argv[1]): MPI_Init,
 * shmem_init, both used, shmem_finalize, more MPI, MPI_Finalize.  Mode
 * "shmem-only-init": shmem_init starts MPI, MPI is used in between, and
 * shmem_finalize ends it.  PE numbers equal MPI_COMM_WORLD ranks.
 */
#include <mpi.h>
#include <string.h>

#include "testlib.h"

static long counter;

static void use_both(void)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(rank == shmem_my_pe() && size == shmem_n_pes(), "rank %d size %d", rank, size);
    /* SHMEM puts, then an MPI collective over the same data */
    shmem_long_p(&counter, rank + 1, (rank + 1) % size);
    shmem_barrier_all();
    long sum = 0;
    MPI_Allreduce(&counter, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == (long)size * (size + 1) / 2, "sum %ld", sum);
    /* MPI point-to-point in the middle of SHMEM traffic */
    int token = rank;
    MPI_Sendrecv_replace(&token, 1, MPI_INT, (rank + 1) % size, 0, (rank + size - 1) % size, 0,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(token == (rank + size - 1) % size, "token %d", token);
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    int mpi_first = argc > 1 && strcmp(argv[1], "mpi-first") == 0;
    if (mpi_first) {
        int provided;
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    }
    shmem_init();
    int initialized = 0;
    MPI_Initialized(&initialized);
    CHECK(initialized, "shmem_init must leave MPI initialized");
    use_both();
    test_passed(mpi_first ? "mpi_mix mpi-first" : "mpi_mix shmem-init");
    shmem_finalize();
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (mpi_first) {
        /* shmpi did not start MPI, so it must not have finalized it */
        if (finalized) {
            fprintf(stderr, "FAIL: shmem_finalize finalized MPI it did not start\n");
            return 1;
        }
        int rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        int value = rank, total = 0;
        MPI_Allreduce(&value, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        int size;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        if (total != size * (size - 1) / 2) {
            fprintf(stderr, "FAIL: MPI after shmem_finalize\n");
            return 1;
        }
        MPI_Finalize();
    } else if (!finalized) {
        fprintf(stderr, "FAIL: shmem_finalize did not finalize the MPI it started\n");
        return 1;
    }
    return 0;
}
