/*
 * SHMEM and MPI in one program.  Mode "mpi-first" (argv[1]): MPI_Init,
 * shmem_init, both used, shmem_finalize, more MPI, MPI_Finalize.  Mode
 * "shmem-only-init": shmem_init starts MPI, MPI is used in between, and
 * shmem_finalize ends it.  PE numbers equal MPI_COMM_WORLD ranks.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

static long counter;
static long received;

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
    /* A large MPI message whose sender waits in SHMEM until the receiver
     * has it: MPICH may move it only while the sender is inside MPI, so
     * shmem_wait_until must keep entering MPI (even where it mostly only
     * looks at memory, a one-node job). */
    if (size > 1 && rank < 2) {
        enum { BIG = 8 << 20 };
        char *msg = malloc(BIG);
        CHECK(msg != NULL, "malloc");
        if (rank == 0) {
            memset(msg, 0x5a, BIG);
            MPI_Request req;
            MPI_Isend(msg, BIG, MPI_CHAR, 1, 7, MPI_COMM_WORLD, &req);
            shmem_long_wait_until(&received, SHMEM_CMP_EQ, 1);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(msg, BIG, MPI_CHAR, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(msg[0] == 0x5a && msg[BIG - 1] == 0x5a, "message %d %d", msg[0], msg[BIG - 1]);
            shmem_long_atomic_set(&received, 1, 0);
        }
        free(msg);
    }
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
