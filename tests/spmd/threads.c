/*
 * shmem_init_thread: the level provided is at most the one requested and
 * matches what MPI provides; a NULL `provided` is allowed; query_thread
 * agrees.  argv[1] is the level to request (0-3).
 */
#include <mpi.h>
#include <stdlib.h>

#include "testlib.h"

int main(int argc, char **argv)
{
    int requested = argc > 1 ? atoi(argv[1]) : SHMEM_THREAD_MULTIPLE;
    int provided = -1;
    int rc = requested == SHMEM_THREAD_FUNNELED ? shmem_init_thread(requested, NULL)
                                                : shmem_init_thread(requested, &provided);
    CHECK(rc == 0, "shmem_init_thread returned %d", rc);
    int queried = -1;
    shmem_query_thread(&queried);
    if (provided != -1)
        CHECK(provided == queried, "provided %d, query says %d", provided, queried);
    CHECK(queried <= requested && queried >= SHMEM_THREAD_SINGLE, "queried %d", queried);
    int mpi_level;
    MPI_Query_thread(&mpi_level);
    int want = requested == SHMEM_THREAD_SINGLE       ? MPI_THREAD_SINGLE
               : requested == SHMEM_THREAD_FUNNELED   ? MPI_THREAD_FUNNELED
               : requested == SHMEM_THREAD_SERIALIZED ? MPI_THREAD_SERIALIZED
                                                      : MPI_THREAD_MULTIPLE;
    CHECK(mpi_level >= want || queried < requested, "MPI level %d for request %d", mpi_level,
          requested);
    CHECK(SHMEM_THREAD_SINGLE < SHMEM_THREAD_FUNNELED &&
              SHMEM_THREAD_FUNNELED < SHMEM_THREAD_SERIALIZED &&
              SHMEM_THREAD_SERIALIZED < SHMEM_THREAD_MULTIPLE,
          "thread levels out of order");
    shmem_barrier_all();
    test_passed("threads");
    shmem_finalize();
    return 0;
}
