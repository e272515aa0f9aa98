/*
 * AMOs of two sizes on one address, in turn: 8-byte AMOs leave a value with
 * upper bits in a word, then every PE fetch-adds 4-byte ints on its first
 * half (PE 0's), and the sum must be exact.  On the MPI path (run with
 * SHMPI_MPI_ONLY=1 or SHMPI_PSEUDO_NODE_SIZE=1) a fetch-add is a
 * compare-and-swap from the value last seen at the address: a guess taken
 * from the 8-byte AMOs made a compare-and-swap that succeeded look failed,
 * and applied the add twice (the Mellanox verifier's int_fadd after
 * longlong_cswap: 602 for 600).
 */
#include <stdint.h>

#include "testlib.h"

#define ROUNDS 100

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long long *word = shmem_malloc(sizeof *word);
    CHECK(word, "no symmetric word");
    for (int round = 0; round < 3; round++) {
        /* Upper half set, lower half 2: every PE's 8-byte AMOs see it. */
        const long long wide = (long long)0x500000000LL + 2;
        if (me == 0)
            *word = wide;
        shmem_barrier_all();
        long long seen = shmem_longlong_atomic_fetch(word, 0);
        CHECK(seen == wide, "round %d: 8-byte fetch got %llx, want %llx", round,
              (unsigned long long)seen, (unsigned long long)wide);
        shmem_barrier_all();
        /* The 4-byte int at the word's address (its lower half on this
         * little-endian machine): set to 2 by PE 0, then adds. */
        int *half = (int *)word;
        if (me == 0)
            *word = 2;
        shmem_barrier_all();
        for (int i = 0; i < ROUNDS; i++)
            shmem_int_atomic_fetch_add(half, me + 1, 0);
        shmem_barrier_all();
        long long want = 2 + (long long)ROUNDS * npes * (npes + 1) / 2;
        if (me == 0)
            CHECK(*word == want, "round %d: the int sum is %lld, want %lld", round, *word, want);
        shmem_barrier_all();
    }
    shmem_free(word);
    test_passed("amo_sizes");
    shmem_finalize();
    return 0;
}
