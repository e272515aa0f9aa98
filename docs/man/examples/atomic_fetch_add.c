/* shmem_atomic_fetch_add: PEs append records of different lengths to one
 * log on PE 0.  Each reserves its place by adding its length to PE 0's
 * fill mark (the value returned is where its records go), then puts them.
 * Build and run: oshcc atomic_fetch_add.c -o atomic_fetch_add && oshrun -n 4 ./atomic_fetch_add
 */
#include <shmem.h>
#include <stdio.h>

static long fill;    /* symmetric: on PE 0, how much of the log is used */
static int journal[256]; /* symmetric: the log, on PE 0 */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int records[16], count = me + 1;        /* PE k writes k + 1 entries */
    for (int i = 0; i < count; i++)
        records[i] = me;
    long at = shmem_atomic_fetch_add(&fill, (long)count, 0); /* C11 */
    if (at + count <= 256)
        shmem_int_put(&journal[at], records, (size_t)count, 0);
    shmem_barrier_all(); /* every reservation and put is complete */
    int wrong = 0;
    if (me == 0) {
        int per_pe[16] = {0};
        for (long i = 0; i < fill && i < 256; i++)
            per_pe[journal[i] & 15]++;
        for (int pe = 0; pe < npes && pe < 16; pe++) {
            printf("PE %d wrote %d entries\n", pe, per_pe[pe]);
            wrong += per_pe[pe] != pe + 1;
        }
    }
    shmem_finalize();
    return wrong;
}
/* Output:
 * PE 0 wrote 1 entries
 * PE 1 wrote 2 entries
 * PE 2 wrote 3 entries
 * PE 3 wrote 4 entries
 */
