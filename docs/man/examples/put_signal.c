/* shmem_put_signal, shmem_signal_wait_until, shmem_signal_fetch: PE 0 sends
 * a block of data to every other PE with one call each; a receiver waits
 * for the signal, then the data is there.
 * Build and run: oshcc put_signal.c -o put_signal && oshrun -n 4 ./put_signal
 */
#include <shmem.h>
#include <stdio.h>

static int block[8];     /* symmetric */
static uint64_t arrived; /* symmetric signal, 0 at start */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int wrong = 0;
    if (me == 0) {
        int data[8];
        for (int pe = 1; pe < npes; pe++) {
            for (int i = 0; i < 8; i++)
                data[i] = 100 * pe + i;
            /* C11: shmem_put_signal(block, data, 8, &arrived, 1, SHMEM_SIGNAL_SET, pe) */
            shmem_int_put_signal(block, data, 8, &arrived, 1, SHMEM_SIGNAL_SET, pe);
        }
    } else {
        if (shmem_signal_fetch(&arrived) == 0)     /* not yet: wait for it */
            shmem_signal_wait_until(&arrived, SHMEM_CMP_EQ, 1);
        printf("PE %d: block %d ... %d\n", me, block[0], block[7]);
        wrong = block[7] != 100 * me + 7;
    }
    shmem_finalize();
    return wrong;
}
/* Output (lines in any order):
 * PE 1: block 100 ... 107
 * PE 2: block 200 ... 207
 * PE 3: block 300 ... 307
 */
