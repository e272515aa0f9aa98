/* shmemx.h compiles without mpi.h: shmemx_team_get_mpi_comm is declared
 * only after mpi.h (this file would not compile if it were declared, since
 * it gives the name to a variable). */
#include <shmemx.h>

#include "testlib.h"

#ifdef MPI_VERSION
#error "shmemx.h must not pull in mpi.h"
#endif

static int shmemx_team_get_mpi_comm = 1; /* free name without mpi.h */

int main(void)
{
    shmem_init();
    CHECK(shmemx_team_get_mpi_comm == 1, "name in use");
    CHECK(shmem_team_n_pes(SHMEM_TEAM_WORLD) == shmem_n_pes(), "n_pes");
    shmem_team_sync(SHMEM_TEAM_WORLD);
    test_passed("team_nompi");
    shmem_finalize();
    return 0;
}
