/*
 * anysource_unexpected.c - plain MPI: does an MPI_ANY_SOURCE receive complete
 * when its message arrived before the receive was posted?  (MPICH 5.0.2's ucx
 * netmod: never; docs/mpi-implementations.md.)
 *
 * Each round rank 0 sends one int to rank 1, then both enter a barrier, so
 * the message is there (unexpected) before rank 1 posts its receive; rank 1
 * then tests the receive for up to 5 s.  MODE says which receive:
 *   any      MPI_Irecv(MPI_ANY_SOURCE) + MPI_Test (the default)
 *   source   MPI_Irecv from rank 0 + MPI_Test (the control)
 *   probe    MPI_Improbe(MPI_ANY_SOURCE) until it matches, then MPI_Mrecv
 * Prints "N rounds done", or "round R: the receive did not complete in 5 s"
 * and aborts (exit status non-zero).
 *   mpicc anysource_unexpected.c -o anysource_unexpected
 *   mpiexec -n 2 ./anysource_unexpected [ROUNDS [MODE]]
 * The two ranks must talk through the netmod: on two nodes, or on one with
 * MPIR_CVAR_NOLOCAL=1 (MPICH's shared memory alone completes it).  With
 * MPIR_CVAR_CH4_NETMOD=ofi, or in MODE source or probe, MPICH 5.0.2 passes.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIMIT_S 5.0

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rounds = argc > 1 ? atoi(argv[1]) : 100;
    const char *mode = argc > 2 ? argv[2] : "any";
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2 || (strcmp(mode, "any") && strcmp(mode, "source") && strcmp(mode, "probe"))) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n 2 %s [ROUNDS [any|source|probe]]\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    for (int round = 0; round < rounds; round++) {
        int sent = round, got = -1, done = 0;
        if (rank == 0)
            MPI_Send(&sent, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1) {
            double start = MPI_Wtime();
            if (strcmp(mode, "probe") == 0) {
                MPI_Message message;
                while (!done && MPI_Wtime() - start < LIMIT_S)
                    MPI_Improbe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &done, &message,
                                MPI_STATUS_IGNORE);
                if (done)
                    MPI_Mrecv(&got, 1, MPI_INT, &message, MPI_STATUS_IGNORE);
            } else {
                MPI_Request req;
                MPI_Irecv(&got, 1, MPI_INT, strcmp(mode, "any") == 0 ? MPI_ANY_SOURCE : 0, 0,
                          MPI_COMM_WORLD, &req);
                while (!done && MPI_Wtime() - start < LIMIT_S)
                    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
            }
            if (!done) {
                printf("round %d: the receive did not complete in %.0f s\n", round, LIMIT_S);
                fflush(stdout);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank == 1)
        printf("%d rounds done\n", rounds);
    MPI_Finalize();
    return 0;
}
