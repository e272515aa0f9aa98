/* shmem_test: PE 1 counts work units while it waits for PE 0's flag,
 * testing the flag between units instead of blocking on it.
 * Build and run: oshcc test.c -o test && oshrun -n 2 ./test
 */
#include <shmem.h>
#include <stdio.h>

static long flag; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_p(&flag, 1, 1);
    } else if (me == 1) {
        long units = 0;
        while (!shmem_long_test(&flag, SHMEM_CMP_EQ, 1)) /* C11: shmem_test */
            units++; /* ... some work ... */
        printf("PE 1 saw the flag (work done meanwhile: %s)\n", units >= 0 ? "counted" : "?");
    }
    shmem_finalize();
    return 0;
}
/* Output:
 * PE 1 saw the flag (work done meanwhile: counted)
 */
