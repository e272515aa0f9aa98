/* shmem_sync_all: each PE stores into its own symmetric variable and
 * synchronizes; then each reads its neighbour's with shmem_g.  Nothing
 * remote was written before the sync, so nothing needs completing.
 * Build and run: oshcc sync_all.c -o sync_all && oshrun -n 4 ./sync_all
 */
#include <shmem.h>
#include <stdio.h>

static long value; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    value = 1000 + me;  /* a local store */
    shmem_sync_all();   /* every PE has stored its value */
    int right = (me + 1) % npes;
    long theirs = shmem_long_g(&value, right);
    printf("PE %d: PE %d has %ld\n", me, right, theirs);
    shmem_sync_all();   /* no PE finalizes while another still reads */
    shmem_finalize();
    return theirs == 1000 + right ? 0 : 1;
}
/* Output (lines in any order):
 * PE 0: PE 1 has 1001
 * PE 1: PE 2 has 1002
 * PE 2: PE 3 has 1003
 * PE 3: PE 0 has 1000
 */
