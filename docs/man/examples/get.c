/* shmem_get: every PE fills a table in symmetric memory; then PE 0 reads
 * each other PE's table with a nonblocking get and one shmem_quiet.
 * Build and run: oshcc get.c -o get && oshrun -n 4 ./get
 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int *table = shmem_malloc(3 * sizeof(int)); /* symmetric: same call on every PE */
    for (int i = 0; i < 3; i++)
        table[i] = 100 * me + i;
    shmem_barrier_all(); /* every table is filled before anyone reads */
    int wrong = 0;
    if (me == 0) {
        int copy[16][3];
        for (int pe = 1; pe < npes && pe < 16; pe++)
            shmem_int_get_nbi(copy[pe], table, 3, pe);
        shmem_quiet(); /* now every copy[pe] holds its data */
        for (int pe = 1; pe < npes && pe < 16; pe++) {
            printf("PE %d has %d %d %d\n", pe, copy[pe][0], copy[pe][1], copy[pe][2]);
            wrong += copy[pe][2] != 100 * pe + 2;
        }
    }
    shmem_barrier_all(); /* no PE frees its table while PE 0 reads it */
    shmem_free(table);
    shmem_finalize();
    return wrong;
}
/* Output:
 * PE 1 has 100 101 102
 * PE 2 has 200 201 202
 * PE 3 has 300 301 302
 */
