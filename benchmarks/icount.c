/*
 * icount.c - the instructions each hot path executes per call, for
 * benchmarks/icount.sh, which runs it under callgrind: on a machine where
 * wall-clock timings of two builds move more than the difference looked for
 * (a 2-CPU VM: jobs of one build 2-5x apart), the instruction counts of
 * identical code are identical.  Each operation loops ITER times inside a
 * noinline function op_NAME; PE 0 targets PE 1 (on 2 PEs, one node: the
 * shared-memory path) or itself (1 PE, where barrier_all and the reduction
 * do not wait, so their count is the call path's own).
 */
#include <shmem.h>
#include <stdio.h>
#define ITER 20000
static long *heap;
static long local[16];
/* pe is unused by the operations that name no PE. */
#define OP(NAME, BODY)                                                                        \
    __attribute__((noinline)) static void op_##NAME(int pe)                                   \
    {                                                                                         \
        (void)pe;                                                                             \
        for (int i = 0; i < ITER; i++) {                                                      \
            BODY;                                                                             \
        }                                                                                     \
        __asm__ volatile("" ::: "memory");                                                    \
    }
OP(put8, shmem_long_put(heap, local, 1, pe))
OP(get8, shmem_long_get(local, heap, 1, pe))
OP(put_nbi8, shmem_long_put_nbi(heap, local, 1, pe))
OP(get_nbi8, shmem_long_get_nbi(local, heap, 1, pe))
OP(p, shmem_long_p(heap, i, pe))
OP(g, local[0] += shmem_long_g(heap, pe))
OP(fetch_add, local[0] += shmem_long_atomic_fetch_add(heap + 1, 1, pe))
OP(add, shmem_long_atomic_add(heap + 1, 1, pe))
OP(compare_swap, local[0] += shmem_long_atomic_compare_swap(heap + 1, 0, 1, pe))
OP(fetch, local[0] += shmem_long_atomic_fetch(heap + 1, pe))
OP(quiet, shmem_quiet())
OP(barrier_all, shmem_barrier_all())
OP(sum_reduce, shmem_long_sum_reduce(SHMEM_TEAM_WORLD, heap + 2, heap + 3, 1))
int main(void)
{
    shmem_init();
    heap = shmem_calloc(64, sizeof(long));
    int me = shmem_my_pe(), n = shmem_n_pes(), pe = (me + 1) % n;
    shmem_barrier_all();
    if (n == 1 || me == 0) {
        op_put8(pe); op_get8(pe); op_put_nbi8(pe); op_get_nbi8(pe); shmem_quiet();
        op_p(pe); op_g(pe); op_fetch_add(pe); op_add(pe); op_compare_swap(pe); op_fetch(pe);
        op_quiet(pe);
    }
    if (n == 1) {
        op_barrier_all(pe); op_sum_reduce(pe);
    }
    shmem_barrier_all();
    printf("PE %d: %ld\n", me, local[0]);
    shmem_finalize();
    return 0;
}
