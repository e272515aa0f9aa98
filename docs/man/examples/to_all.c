/* shmem_sum_to_all and the other active-set reductions (deprecated): the
 * odd PEs (PE_start 1, logPE_stride 1) add up their values; new code makes
 * a team and calls shmem_sum_reduce.  pWrk and pSync are symmetric and
 * pSync starts at SHMEM_SYNC_VALUE, as the specification asks.
 * Build and run: oshcc to_all.c -o to_all && oshrun -n 4 ./to_all
 */
#include <shmem.h>
#include <stdio.h>

static int value, sum, largest;
static int pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long pSync[SHMEM_REDUCE_SYNC_SIZE];   /* all SHMEM_SYNC_VALUE (0) */
static long pSync2[SHMEM_REDUCE_SYNC_SIZE];  /* a second one for the next call */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int odd_pes = npes / 2;
    value = 10 * me;
    if (me % 2 == 1) {
        shmem_int_sum_to_all(&sum, &value, 1, 1, 1, odd_pes, pWrk, pSync);
        shmem_int_max_to_all(&largest, &value, 1, 1, 1, odd_pes, pWrk, pSync2);
        printf("PE %d: sum %d, largest %d\n", me, sum, largest);
    }
    shmem_finalize();
    return me % 2 == 1 && largest != 10 * (2 * odd_pes - 1);
}
/* Output (lines in any order):
 * PE 1: sum 40, largest 30
 * PE 3: sum 40, largest 30
 */
