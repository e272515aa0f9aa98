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

/* Prints the pass line once, from PE 0. */
static inline void test_passed(const char *name)
{
    if (shmem_my_pe() == 0) {
        printf("PASS %s on %d PEs\n", name, shmem_n_pes());
        fflush(stdout);
    }
}

#endif
