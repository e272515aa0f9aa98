/*
 * OpenSHMEM 1.6 initialization: every shmem_init is matched by a
 * shmem_finalize and only the last one ends the library; after that the
 * library can be initialized again (here MPI belongs to the program, so it
 * stays up in between).  Symmetric data works in every round.
 */
#include <mpi.h>

#include "testlib.h"

static long word;

static void use_library(int round)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *heap = shmem_malloc(sizeof(long));
    CHECK(heap != NULL, "malloc in round %d", round);
    shmem_long_p(heap, round * 100 + me, (me + 1) % n);
    shmem_long_p(&word, round * 1000 + me, (me + 1) % n);
    shmem_barrier_all();
    CHECK(*heap == round * 100 + (me + n - 1) % n && word == round * 1000 + (me + n - 1) % n,
          "round %d: %ld %ld", round, *heap, word);
    shmem_free(heap);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    for (int round = 1; round <= 3; round++) {
        shmem_init();
        shmem_init_thread(SHMEM_THREAD_SINGLE, NULL); /* nested: two inits open */
        use_library(round);
        shmem_finalize(); /* one init still open: the library keeps working */
        int up = 0;
        shmem_query_initialized(&up);
        CHECK(up == 1, "round %d: finalized too early", round);
        use_library(round);
        if (round == 3)
            test_passed("reinit");
        shmem_finalize();
        shmem_query_initialized(&up);
        if (up != 0) {
            fprintf(stderr, "FAIL: round %d: still initialized after the last finalize\n", round);
            return 1;
        }
    }
    MPI_Finalize();
    return 0;
}
