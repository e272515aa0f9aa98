/*
 * PE 0 polls its own memory with shmem_int_g (a copy on its node, never an
 * MPI call) until the last PE's put arrives; the last PE then waits in
 * shmem_quiet for that put to complete.  Where the put goes through MPI
 * (SHMPI_MPI_ONLY=1, pseudo-nodes, other nodes) it completes only while PE 0
 * is inside MPI, so shmpi must enter MPI now and then during PE 0's polling:
 * without that both waited forever (the Mellanox verifier's
 * atomic_lock_stress at 3 PEs).  The middle PEs poll PE 0's word too.
 */
#include "testlib.h"

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int *flag = shmem_calloc(1, sizeof *flag);
    CHECK(flag, "no symmetric int");
    for (int round = 1; round <= 20; round++) {
        shmem_barrier_all();
        if (me == npes - 1 && npes > 1) {
            shmem_int_p(flag, round, 0);
            shmem_quiet();
        } else {
            long polls = 0;
            while (shmem_int_g(flag, 0) != (npes > 1 ? round : 0))
                polls++;
            CHECK(polls >= 0, "unreachable");
        }
    }
    shmem_barrier_all();
    shmem_free(flag);
    test_passed("poll_self");
    shmem_finalize();
    return 0;
}
