/*
 * testlib.h - assertions for multi-PE tests.  A failed check prints the PE,
 * place and values, then ends the whole job with a non-zero status, so the
 * harness sees the failure even if other PEs are waiting.
 */
#ifndef SHMPI_TESTLIB_H
#define SHMPI_TESTLIB_H

#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond, ...)                                                                     \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            fprintf(stderr, "FAIL PE %d %s:%d: %s: ", shmem_my_pe(), __FILE__, __LINE__,     \
                    #cond);                                                                  \
            fprintf(stderr, __VA_ARGS__);                                                    \
            fprintf(stderr, "\n");                                                           \
            fflush(stderr);                                                                  \
            shmem_global_exit(1);                                                            \
        }                                                                                    \
    } while (0)

/* Arguments "thread N" (a marker NAME@thread,N-npP.spmd): shmpi's progress thread every
 * N us (SHMPI_PROGRESS_THREAD), with which AMOs on words a PE does not map are messages to
 * the word's owner (src/ops/amo_message.c).  Call before shmem_init. */
static inline void test_thread_arg(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "thread") == 0)
        setenv("SHMPI_PROGRESS_THREAD", argv[2], 1);
}

/* Prints the pass line once, from PE 0. */
static inline void test_passed(const char *name)
{
    if (shmem_my_pe() == 0) {
        printf("PASS %s on %d PEs\n", name, shmem_n_pes());
        fflush(stdout);
    }
}

/* ---- Reduction values (reduce_types.c, scan_types.c, aset_coll.c) ---------------------
 * The value team PE j contributes as element i, per operator group: small,
 * so that on up to 8 PEs every sum and product is exact in every type.
 * The V_C* ones have imaginary parts (the includer includes <complex.h>).
 * F_OP combines two values as the reduction OP does. */
#define TEST_IS_SIGNED(T) ((T)((T)0 - (T)1) < (T)1)
#define V_BIT(T, j, i) ((T)(((unsigned long long)(j) + 1) * 0x9E3779B97F4A7C15ull >> ((i) % 29)))
#define V_MINMAX(T, j, i)                                                                    \
    ((T)((T)(((j) * 7 + (i) * 3) % 23) - (TEST_IS_SIGNED(T) ? (T)11 : (T)0)))
#define V_SUM(T, j, i) ((T)(((j) + (i)) % 5 + 1))
#define V_PROD(T, j, i) ((T)(((j) + (i)) % 4 == 0 ? 2 : 1))
#define V_CSUM(T, j, i) ((T)(((j) + (i)) % 5 + 1) + (T)(((j) * 2 + (i)) % 3) * (T)I)
#define V_CPROD(T, j, i) (((j) + (i)) % 3 == 0 ? (T)I : ((j) + (i)) % 3 == 1 ? (T)1 : (T)(1 + I))

#define F_and(a, b) ((a) & (b))
#define F_or(a, b) ((a) | (b))
#define F_xor(a, b) ((a) ^ (b))
#define F_max(a, b) ((a) > (b) ? (a) : (b))
#define F_min(a, b) ((a) < (b) ? (a) : (b))
#define F_sum(a, b) ((a) + (b))
#define F_prod(a, b) ((a) * (b))

/* ---- End of a phase in which every PE hammers PE 0 (amo_lock.c, amo_stress.c) ----------
 * done_count and release_flag are symmetric words, zero at start; call
 * with phase 1, 2, ... in turn.  PE 0 waits (serving the AMOs aimed at
 * it) until every PE has counted itself done, then releases the others.
 * A PE in shmem_wait_until keeps MPI moving for the operations aimed at
 * it, and yields, so the PEs still working get the CPU (with 8 PEs on 2
 * cores a barrier here would slow them down). */
static inline void test_finish_phase(long *done_count, long *release_flag, long phase)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_long_atomic_inc(done_count, 0);
    if (me == 0) {
        shmem_long_wait_until(done_count, SHMEM_CMP_EQ, phase * n);
        for (int pe = 1; pe < n; pe++)
            shmem_long_atomic_set(release_flag, phase, pe);
    } else {
        shmem_long_wait_until(release_flag, SHMEM_CMP_EQ, phase);
    }
    shmem_barrier_all();
}

#endif
