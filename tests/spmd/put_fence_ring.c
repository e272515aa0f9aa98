/*
 * put_fence_ring.c - put, fence, flag: the pattern SHMEM programs and test
 * suites use to hand data to a PE that spins on the flag.
 *
 * Round i: each PE fills its buffer with -1, barrier, puts i into its right
 * neighbour's buffer, shmem_fence, shmem_int_p 1 into the neighbour's flag,
 * spins on its own flag, resets it to 0 and checks that its buffer holds i.
 * Then, where the neighbour's memory is mapped, one shmem_putmem of data and
 * flag together at every size from 4 to 128 bytes (the flag is the last
 * aligned int): the target resets the flag, which must stay reset.
 *
 * What it caught: the shared-memory path copied with memmove, which stores
 * the bytes of a 4-byte put twice (glibc covers 4 to 7 bytes with two
 * overlapping moves); a target that reset the flag between the two stores
 * lost its reset, started the next round with the flag set and read a
 * buffer not yet written (rounds of -1, or of the previous round's value).
 * The window is a few instructions wide, so the spin is tight: polls with
 * no call, and only after POLLS_BEFORE_CALL of them a shmem_int_test (which
 * lets MPI move a put aimed at this PE, where the path is MPI) and a yield.
 *
 * Arguments: heap | static (where the buffer and flag live), then the number
 * of rounds (default 20000, or 2000 where the neighbour is reached through MPI).
 */
#include "testlib.h"

#include <sched.h>
#include <stdint.h>
#include <string.h>

#define N 64
#define POLLS_BEFORE_CALL 4096
#define MSG_MAX 128

static float static_buf[N];
static int static_flag;
static unsigned char static_msg[MSG_MAX] __attribute__((aligned(16)));

/* Spins until *flag is set, then resets it. */
static void take_flag(int *flag)
{
    long polls = 0;
    while (*(volatile int *)flag == 0)
        if (++polls >= POLLS_BEFORE_CALL) {
            shmem_int_test(flag, SHMEM_CMP_NE, 0);
            sched_yield(); /* more PEs than CPUs: the writer needs one */
        }
    *(volatile int *)flag = 0;
}

int main(int argc, char **argv)
{
    shmem_init();
    const int me = shmem_my_pe(), npes = shmem_n_pes(), right = (me + 1) % npes;
    const int use_static = argc > 1 && strcmp(argv[1], "static") == 0;
    float *buf = use_static ? static_buf : shmem_malloc(N * sizeof(float));
    int *flag = use_static ? &static_flag : shmem_calloc(1, sizeof(int));
    /* The window looked for is in the shared-memory copy; where the neighbour
     * is reached through MPI (SHMPI_MPI_ONLY, other nodes) each round is a trip
     * through MPI progress, which with more PEs than CPUs and another job
     * beside took 2-6 ms: 20000 rounds ran past the suite's 180 s there.  Every
     * PE runs the same rounds: 2000 if any PE's neighbour is reached through MPI. */
    int *mapped = shmem_malloc(2 * sizeof(int));
    CHECK(mapped, "allocation failed");
    mapped[0] = shmem_ptr(flag, right) != NULL;
    shmem_int_min_reduce(SHMEM_TEAM_WORLD, mapped + 1, mapped, 1);
    const long rounds = argc > 2 ? atol(argv[2]) : mapped[1] ? 20000 : 2000;
    shmem_free(mapped);
    unsigned char *msg = use_static ? static_msg : shmem_align(16, MSG_MAX);
    CHECK(buf && flag && msg, "allocation failed");
    float src[N];
    long bad = 0, first_bad = 0;
    for (long i = 1; i <= rounds; i++) {
        for (int k = 0; k < N; k++)
            buf[k] = -1;
        shmem_barrier_all();
        for (int k = 0; k < N; k++)
            src[k] = (float)i;
        shmem_float_put(buf, src, N, right);
        shmem_fence();
        shmem_int_p(flag, 1, right);
        take_flag(flag);
        for (int k = 0; k < N; k++)
            if (buf[k] != (float)i) {
                if (!bad++)
                    first_bad = i;
                if (bad <= 3)
                    fprintf(stderr, "PE %d: round %ld: buf[%d] = %g\n", me, i, k, buf[k]);
                break;
            }
    }
    CHECK(bad == 0, "%ld of %ld rounds found the buffer not yet written (first: round %ld)",
          bad, rounds, first_bad);

    /* Data and flag in one put, where it is a CPU copy (only there is each
     * byte stored once a promise; the spec orders nothing within a put). */
    unsigned char out[MSG_MAX] __attribute__((aligned(16)));
    const int left = (me + npes - 1) % npes;
    const int sends = shmem_ptr(msg, right) != NULL, receives = shmem_ptr(msg, left) != NULL;
    for (long i = 1; i <= rounds / 4; i++) {
        size_t size = 4 + (size_t)(i % (MSG_MAX / 4)) * 4;
        int *msg_flag = (int *)(msg + size - 4);
        memset(msg, 0, MSG_MAX);
        shmem_barrier_all();
        memset(out, (int)(i & 0x7f), size - 4);
        int one = 1;
        memcpy(out + size - 4, &one, sizeof one);
        if (sends)
            shmem_putmem(msg, out, size, right);
        if (receives)
            take_flag(msg_flag);
        /* The put is over once the writer is in the barrier: a second store
         * of the flag would show now. */
        shmem_barrier_all();
        CHECK(*(volatile int *)msg_flag == 0, "round %ld, %zu-byte put: the flag is set again "
              "after it was reset", i, size);
    }
    shmem_barrier_all();
    if (!use_static) {
        shmem_free(msg);
        shmem_free(flag);
        shmem_free(buf);
    }
    test_passed(use_static ? "put_fence_ring static" : "put_fence_ring heap");
    shmem_finalize();
    return 0;
}
