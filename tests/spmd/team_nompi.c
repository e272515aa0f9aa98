/* shmemx.h stands alone: without mpi.h, shmemx_team_get_mpi_comm is still
 * declared (its comm a void *), so a program that includes shmemx.h first,
 * or only, calls it without an implicit declaration; and shmemx.h does not
 * pull in mpi.h.  The communicator is written into storage as large as any
 * MPI's MPI_Comm (an int in MPICH, a pointer in Open MPI). */
#include <shmemx.h>

#include "testlib.h"

#ifdef MPI_VERSION
#error "shmemx.h must not pull in mpi.h"
#endif

int main(void)
{
    union {
        long long word;
        void *pointer;
        unsigned char bytes[16];
    } comm;
    shmem_init();
    memset(&comm, 0xa5, sizeof comm);
    CHECK(shmemx_team_get_mpi_comm(SHMEM_TEAM_WORLD, &comm) == 0, "world comm");
    CHECK(comm.bytes[0] != 0xa5 || comm.bytes[1] != 0xa5 || comm.bytes[2] != 0xa5,
          "the world communicator was not written");
    CHECK(shmemx_team_get_mpi_comm(SHMEM_TEAM_INVALID, &comm) != 0, "invalid team gave 0");
    CHECK(shmem_team_n_pes(SHMEM_TEAM_WORLD) == shmem_n_pes(), "n_pes");
    shmem_team_sync(SHMEM_TEAM_WORLD);
    test_passed("team_nompi");
    shmem_finalize();
    return 0;
}
