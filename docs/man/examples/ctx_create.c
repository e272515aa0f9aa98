/* shmem_ctx_create, shmem_ctx_destroy: PE 0 sends a large block to PE 1 on
 * a context of its own and small updates on the default one; quieting the
 * default context completes the small ones without waiting for the block.
 * Build and run: oshcc ctx_create.c -o ctx_create && oshrun -n 2 ./ctx_create
 */
#include <shmem.h>
#include <stdio.h>

static double block[1 << 16]; /* symmetric */
static int counter;

int main(void)
{
    shmem_init();
    shmem_ctx_t bulk;
    if (shmem_ctx_create(0, &bulk) != 0) { /* on SHMEM_TEAM_WORLD */
        printf("no context\n");
        shmem_global_exit(1);
    }
    if (shmem_my_pe() == 0) {
        static double data[1 << 16];
        shmem_ctx_double_put_nbi(bulk, block, data, 1 << 16, 1); /* C11: shmem_put_nbi(bulk, ...) */
        for (int i = 0; i < 10; i++)
            shmem_int_atomic_inc(&counter, 1);
        shmem_quiet();              /* the increments: SHMEM_CTX_DEFAULT only */
        shmem_ctx_quiet(bulk);      /* the block */
    }
    shmem_barrier_all();
    if (shmem_my_pe() == 1)
        printf("PE 1: counter %d\n", counter);
    shmem_ctx_destroy(bulk);
    shmem_finalize();
    return 0;
}
/* Output:
 * PE 1: counter 10
 */
