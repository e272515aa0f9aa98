/* shmem_ctx_session_start, shmem_ctx_session_stop: a burst of small puts
 * announced as a session (in shmpi a hint only), then completed.
 * Build and run: oshcc session.c -o session && oshrun -n 2 ./session
 */
#include <shmem.h>
#include <stdio.h>

static long cells[1000]; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    shmem_ctx_t ctx;
    shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx);
    shmem_ctx_session_config_t config = {.total_ops = 1000};
    shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, &config, SHMEM_CTX_SESSION_TOTAL_OPS);
    for (int i = 0; i < 1000; i++)
        shmem_ctx_long_p(ctx, &cells[i], i, (me + 1) % npes);
    shmem_ctx_session_stop(ctx);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    printf("PE %d: cells[999] = %ld\n", me, cells[999]);
    shmem_ctx_destroy(ctx);
    shmem_finalize();
    return cells[999] == 999 ? 0 : 1;
}
/* Output (lines in any order):
 * PE 0: cells[999] = 999
 * PE 1: cells[999] = 999
 */
