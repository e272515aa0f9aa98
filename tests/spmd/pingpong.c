/*
 * 10,000 round trips of shmem_p + wait_until between PE 0 and PE 1 (on the
 * heap and in static data), then every PE waits on a flag set by its left
 * neighbour: waiting must keep other PEs' operations on this PE moving.
 */
#include "testlib.h"

#define ROUNDS 10000

static long static_flag;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *heap_flag = shmem_calloc(1, sizeof(long));
    long *flags[2] = {heap_flag, &static_flag};
    if (n >= 2 && me < 2) {
        for (int k = 0; k < 2; k++) {
            long *flag = flags[k];
            for (long i = 1; i <= ROUNDS; i++) {
                if (me == 0) {
                    shmem_long_p(flag, i, 1);
                    shmem_long_wait_until(flag, SHMEM_CMP_EQ, i);
                } else {
                    shmem_long_wait_until(flag, SHMEM_CMP_EQ, i);
                    shmem_long_p(flag, i, 0);
                }
            }
            CHECK(*flag == ROUNDS, "flag %ld", *flag);
        }
    }
    shmem_barrier_all();
    /* a ring: each PE signals its right neighbour once it was signalled */
    static int token;
    if (me == 0)
        shmem_int_p(&token, 1, (me + 1) % n);
    shmem_int_wait_until(&token, SHMEM_CMP_GE, 1);
    if (me != 0)
        shmem_int_p(&token, 1, (me + 1) % n);
    shmem_barrier_all();
    CHECK(token == 1, "token %d", token);
    shmem_free(heap_flag);
    test_passed("pingpong");
    shmem_finalize();
    return 0;
}
