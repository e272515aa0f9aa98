/*
 * fetch_op_bitwise.c - plain MPI: is a remote MPI_Fetch_and_op with MPI_BAND,
 * MPI_BOR or MPI_BXOR applied at the target?  (Open MPI 5.0's osc/rdma
 * without hardware atomics: no; docs/mpi-implementations.md.)
 *
 * Every rank owns WORDS 64-bit words in a dynamic window, the same layout
 * shmpi uses (one passive-target epoch, lock_all, flush after each call).
 * Rank r updates word i of rank r+1 with each op in turn, one word per op
 * and index, then checks its own words after a barrier.  MPI_SUM is the
 * control.  Prints one line per op, "OP: N of WORDS words wrong", and exits
 * 1 if any op has a wrong word.
 *   mpicc fetch_op_bitwise.c -o fetch_op_bitwise
 *   mpiexec -n 2 ./fetch_op_bitwise
 * (Open MPI 5 as root: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;
 * OMPI_MCA_osc_rdma_acc_use_amo=false makes it pass there.)
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define WORDS 500

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const struct {
        MPI_Op op;
        const char *name;
        uint64_t start, operand, want;
    } ops[] = {
        {MPI_SUM, "MPI_SUM", 1, 2, 3},
        {MPI_BAND, "MPI_BAND", 0xff, 0x0f, 0x0f},
        {MPI_BOR, "MPI_BOR", 0xf0, 0x0f, 0xff},
        {MPI_BXOR, "MPI_BXOR", 0xff, 0x0f, 0xf0},
    };
    enum { N_OPS = sizeof ops / sizeof ops[0] };
    uint64_t *words = calloc(N_OPS * WORDS, sizeof *words);
    uint64_t *addrs = malloc((size_t)size * sizeof *addrs);
    for (int k = 0; k < N_OPS; k++)
        for (int i = 0; i < WORDS; i++)
            words[k * WORDS + i] = ops[k].start;
    MPI_Win win;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_attach(win, words, N_OPS * WORDS * sizeof *words);
    MPI_Aint mine;
    MPI_Get_address(words, &mine);
    uint64_t mine64 = (uint64_t)mine;
    MPI_Allgather(&mine64, 1, MPI_UINT64_T, addrs, 1, MPI_UINT64_T, MPI_COMM_WORLD);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    MPI_Barrier(MPI_COMM_WORLD);

    int target = (rank + 1) % size;
    for (int k = 0; k < N_OPS; k++)
        for (int i = 0; i < WORDS; i++) {
            uint64_t result;
            MPI_Aint disp = (MPI_Aint)(addrs[target] + (uint64_t)(k * WORDS + i) * 8);
            MPI_Fetch_and_op(&ops[k].operand, &result, MPI_UINT64_T, target, disp, ops[k].op,
                             win);
            MPI_Win_flush(target, win);
        }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);

    int wrong_any = 0;
    for (int k = 0; k < N_OPS; k++) {
        int wrong = 0;
        for (int i = 0; i < WORDS; i++)
            wrong += words[k * WORDS + i] != ops[k].want;
        int total;
        MPI_Reduce(&wrong, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0)
            printf("%s: %d of %d words wrong\n", ops[k].name, total, WORDS * size);
        wrong_any |= wrong;
    }
    int fail;
    MPI_Allreduce(&wrong_any, &fail, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    MPI_Win_unlock_all(win);
    MPI_Win_detach(win, words);
    MPI_Win_free(&win);
    MPI_Finalize();
    free(words);
    free(addrs);
    return fail ? 1 : 0;
}
