/*
 * Misuse of the amo-area routines, one per run (argv[1] names it); under
 * SHMEM_DEBUG=1 each must end the job with a message that names the
 * routine and the bad value.  Driven by amo_errors.test.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

static int word;
static long lword;
static uint64_t sig;
static long buf[4];

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    /* SHMPI_AMO_OPS cases: the declaration is made before shmem_init. */
    /* The rank before MPI starts: Hydra (MPICH) sets PMI_RANK, Open MPI's
     * launcher OMPI_COMM_WORLD_RANK. */
    const char *rank = getenv("PMI_RANK");
    if (!rank)
        rank = getenv("OMPI_COMM_WORLD_RANK");
    if (!strcmp(mode, "amo_undeclared"))
        setenv("SHMPI_AMO_OPS", "add,fetch", 1);
    else if (!strcmp(mode, "amo_ops_bad"))
        setenv("SHMPI_AMO_OPS", "add,,xor", 1);
    else if (!strcmp(mode, "amo_ops_differ"))
        setenv("SHMPI_AMO_OPS", rank && !strcmp(rank, "1") ? "or" : "add", 1);
    shmem_init();
    int n = shmem_n_pes();
    long stack_long = 0, src[4] = {0};
    int stack_ints[4] = {0};
    uint64_t stack_sig = 0;
    size_t idx[4];

    if (!strcmp(mode, "amo_pe"))
        shmem_int_atomic_fetch_add(&word, 1, n);
    else if (!strcmp(mode, "amo_ctx_pe"))
        shmem_ctx_long_atomic_inc(SHMEM_CTX_DEFAULT, &lword, -1);
    else if (!strcmp(mode, "amo_symm"))
        shmem_long_atomic_swap(&stack_long, 1, 0);
    else if (!strcmp(mode, "amo_deprecated"))
        shmem_long_fadd(&stack_long, 1, 0);
    else if (!strcmp(mode, "amo_undeclared"))
        shmem_int_atomic_compare_swap(&word, 0, 1, 0);
    else if (!strcmp(mode, "amo_ops_bad") || !strcmp(mode, "amo_ops_differ"))
        CHECK(0, "shmem_init accepted SHMPI_AMO_OPS=%s", getenv("SHMPI_AMO_OPS"));
    else if (!strcmp(mode, "amo_align"))
        shmem_int_atomic_inc((int *)(void *)((char *)buf + 2), 0);
    else if (!strcmp(mode, "wait_cmp"))
        shmem_int_wait_until(&word, 42, 0);
    else if (!strcmp(mode, "multi_cmp"))
        shmem_long_test_some(buf, 4, idx, NULL, -1, 0);
    else if (!strcmp(mode, "signal_cmp"))
        shmem_signal_wait_until(&sig, 9, 0);
    else if (!strcmp(mode, "sig_op"))
        shmem_putmem_signal(buf, src, 8, &sig, 1, 7, 0);
    else if (!strcmp(mode, "sig_symm"))
        shmem_long_put_signal(buf, src, 1, &stack_sig, 1, SHMEM_SIGNAL_SET, 0);
    else if (!strcmp(mode, "sig_pe"))
        shmem_long_put_signal_nbi(buf, src, 1, &sig, 1, SHMEM_SIGNAL_ADD, n + 3);
    else if (!strcmp(mode, "lock_symm"))
        shmem_set_lock(&stack_long);
    else if (!strcmp(mode, "multi_symm"))
        shmem_int_wait_until_all(stack_ints, 4, NULL, SHMEM_CMP_EQ, 0);
    else
        CHECK(0, "unknown mode '%s'", mode);
    shmem_barrier_all();
    printf("mode %s: the misuse was not caught\n", mode);
    shmem_finalize();
    return 0;
}
