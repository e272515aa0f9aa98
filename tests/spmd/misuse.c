/*
 * One misuse per run, named by argv[1]; tests/errors.test runs each and
 * checks that the job ends with a non-zero status and a message that names
 * the routine and the bad value.  Each case must never return normally.
 */
#include <signal.h>
#include <string.h>

#include "testlib.h"

static long static_word;

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    if (strcmp(what, "before-init") == 0) {
        shmem_long_p(&static_word, 1, 0);
        return 0;
    }
    shmem_init();
    int n = shmem_n_pes();
    long stack_word = 0;
    long *heap = shmem_malloc(8 * sizeof(long));
    if (strcmp(what, "pe-range") == 0)
        shmem_long_p(&static_word, 1, n);
    else if (strcmp(what, "pe-negative") == 0)
        shmem_long_get(&stack_word, heap, 1, -1);
    else if (strcmp(what, "not-symmetric") == 0)
        shmem_long_put(&stack_word, heap, 1, 0);
    else if (strcmp(what, "heap-overrun") == 0)
        shmem_putmem((char *)heap + 8, &stack_word, (size_t)1 << 40, 0);
    else if (strcmp(what, "length-overflow") == 0)
        shmem_long_put(heap, heap, (size_t)-1 / 4, 0);
    else if (strcmp(what, "stride-overflow") == 0)
        shmem_long_iput(heap, heap, (ptrdiff_t)1 << 62, 1, 4, 0);
    else if (strcmp(what, "bad-free") == 0)
        shmem_free(heap + 1);
    else if (strcmp(what, "bad-cmp") == 0)
        shmem_long_wait_until(heap, 42, 0);
    else if (strcmp(what, "bad-align") == 0)
        shmem_align(3, 64);
    else if (strcmp(what, "reinit-after-mpi") == 0) {
        shmem_finalize(); /* also finalizes the MPI that shmem_init started */
        shmem_init();
    } else if (strcmp(what, "after-finalize") == 0) {
        shmem_finalize();
        shmem_long_p(&static_word, 1, 0);
    } else if (strcmp(what, "global-exit") == 0) {
        shmem_barrier_all();
        if (shmem_my_pe() == n - 1)
            shmem_global_exit(7);
        /* the others wait in a barrier; the job must still end */
        shmem_barrier_all();
        shmem_long_wait_until(&static_word, SHMEM_CMP_EQ, 12345);
    } else if (strncmp(what, "die-", 4) == 0) {
        /* The last PE dies (die-segv, die-exit) while the others wait in a
         * barrier (die-*-barrier), a wait_until, a lock or a collective. */
        shmem_barrier_all();
        if (shmem_my_pe() == n - 1) {
            if (strstr(what, "segv"))
                raise(SIGSEGV);
            exit(3);
        }
        if (strstr(what, "barrier"))
            shmem_barrier_all();
        else if (strstr(what, "lock")) {
            static long lock;
            shmem_set_lock(&lock);
            shmem_long_wait_until(&static_word, SHMEM_CMP_EQ, 12345);
        } else
            shmem_long_wait_until(&static_word, SHMEM_CMP_EQ, 12345);
    } else if (strcmp(what, "heap-full") == 0) {
        /* Not misuse: NULL on every PE (and, under SHMEM_DEBUG, an
         * explanation); the program goes on and ends normally. */
        void *p = shmem_malloc((size_t)1 << 40);
        shmem_finalize();
        return p == NULL ? 0 : 98;
    } else if (strcmp(what, "init-only") == 0) {
        /* used with a bad environment: init must already have failed */
    }
    shmem_finalize();
    return strcmp(what, "init-only") == 0 ? 0 : 99; /* 99: the misuse was not caught */
}
