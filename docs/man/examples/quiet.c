/* shmem_quiet: PE 0 puts a table into every other PE with nonblocking
 * puts, completes them all with one quiet, then tells each PE with a flag.
 * Build and run: oshcc quiet.c -o quiet && oshrun -n 4 ./quiet
 */
#include <shmem.h>
#include <stdio.h>

static int table[100]; /* symmetric */
static int done;       /* symmetric flag */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (me == 0) {
        static int mine[100];
        for (int i = 0; i < 100; i++)
            mine[i] = i * i;
        for (int pe = 1; pe < npes; pe++)
            shmem_int_put_nbi(table, mine, 100, pe);
        shmem_quiet(); /* every table is in place, and mine may change again */
        for (int pe = 1; pe < npes; pe++)
            shmem_int_p(&done, 1, pe);
    } else {
        shmem_int_wait_until(&done, SHMEM_CMP_EQ, 1);
        printf("PE %d: table[99] = %d\n", me, table[99]);
    }
    int wrong = me != 0 && table[99] != 9801;
    shmem_finalize();
    return wrong;
}
/* Output (lines in any order):
 * PE 1: table[99] = 9801
 * PE 2: table[99] = 9801
 * PE 3: table[99] = 9801
 */
