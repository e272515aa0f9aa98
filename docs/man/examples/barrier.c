/* shmem_barrier and shmem_sync (deprecated active-set forms): the even PEs,
 * the set PE_start 0, logPE_stride 1, PE_size npes/2, synchronize among
 * themselves.  New code makes a team (shmem_team_split_strided) and calls
 * shmem_quiet and shmem_team_sync.
 * Build and run: oshcc barrier.c -o barrier && oshrun -n 4 ./barrier
 */
#include <shmem.h>
#include <stdio.h>

static long pSync[SHMEM_BARRIER_SYNC_SIZE]; /* symmetric, all SHMEM_SYNC_VALUE (0) */
static int mark;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (me % 2 == 0) {
        int evens = (npes + 1) / 2;
        shmem_int_p(&mark, 1, (me + 2) % (2 * evens)); /* into the next even PE */
        shmem_barrier(0, 1, evens, pSync);             /* completes the put, then meets */
        printf("PE %d: marked %d\n", me, mark);
        shmem_sync(0, 1, evens, pSync);                /* meets only */
    }
    shmem_finalize();
    return me % 2 == 0 && mark != 1;
}
/* Output (lines in any order):
 * PE 0: marked 1
 * PE 2: marked 1
 */
