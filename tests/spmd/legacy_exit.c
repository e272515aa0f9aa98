/*
 * A legacy program: it initializes MPI itself, calls start_pes twice,
 * meets the others and returns from main without shmem_finalize or
 * MPI_Finalize.  Every PE must exit 0 (the exit path finalizes both; a
 * repeated start_pes opens no nested init).  tests/legacy_exit.test runs it
 * many times at 8 PEs.
 */
#include <mpi.h>
#include <shmem.h>
#include <stdio.h>

static long got;

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    start_pes(0);
    start_pes(0);
    int me = _my_pe(), n = _num_pes();
    shmem_long_p(&got, me, (me + 1) % n);
    shmem_barrier_all();
    if (got != (me + n - 1) % n) {
        fprintf(stderr, "FAIL: PE %d got %ld\n", me, got);
        return 1;
    }
    if (me == 0)
        printf("PASS legacy_exit on %d PEs\n", n);
    return 0;
}
