/*
 * OpenSHMEM 1.6 additions of the setup and ordering chapters:
 * shmem_query_initialized, shmem_team_ptr, shmem_pe_quiet and
 * shmem_ctx_pe_quiet, and sessions (start/stop on a context).
 */
#include <string.h>

#include "testlib.h"

#define COUNT 4096
static long data[COUNT];
static long flag;

int main(void)
{
    int initialized = -1;
    shmem_query_initialized(&initialized);
    if (initialized != 0) {
        fprintf(stderr, "FAIL: query_initialized before init says %d\n", initialized);
        return 1;
    }
    shmem_init();
    shmem_query_initialized(&initialized);
    CHECK(initialized == 1, "query_initialized after init says %d", initialized);
    int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;

    long *heap = shmem_malloc(sizeof(long));
    for (int pe = 0; pe < n; pe++)
        CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, heap, pe) == shmem_ptr(heap, pe),
              "team_ptr(world) differs from shmem_ptr for PE %d", pe);
    CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, heap, me) == heap, "team_ptr to self");
    CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, heap, n) == NULL, "team_ptr out of range");

    /* pe_quiet completes the data to `right` before the flag is sent. */
    static long src[COUNT];
    for (int round = 1; round <= 20; round++) {
        for (int i = 0; i < COUNT; i++)
            src[i] = round * 100000L + me * 1000 + i;
        shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, NULL, 0);
        shmem_long_put_nbi(data, src, COUNT, right);
        if (round % 2)
            shmem_pe_quiet(&right, 1);
        else
            shmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, &right, 1);
        shmem_ctx_session_stop(SHMEM_CTX_DEFAULT);
        shmem_long_atomic_set(&flag, round, right);
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, round);
        for (int i = 0; i < COUNT; i++)
            CHECK(data[i] == round * 100000L + left * 1000 + i, "round %d elem %d is %ld", round,
                  i, data[i]);
        shmem_barrier_all();
    }
    shmem_pe_quiet(NULL, 0);
    shmem_free(heap);
    test_passed("v16_misc");
    shmem_finalize();
    shmem_query_initialized(&initialized);
    if (initialized != 0) {
        fprintf(stderr, "FAIL: query_initialized after finalize says %d\n", initialized);
        return 1;
    }
    return 0;
}
