/* shmem_signal_add: every PE reports to PE 0 by adding one to a signal
 * there; PE 0 waits until all have.
 * Build and run: oshcc signal_add.c -o signal_add && oshrun -n 4 ./signal_add
 */
#include <shmem.h>
#include <stdio.h>

static uint64_t reports; /* symmetric signal */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    shmem_signal_add(&reports, 1, 0);
    if (me == 0) {
        uint64_t n = shmem_signal_wait_until(&reports, SHMEM_CMP_EQ, (uint64_t)npes);
        printf("PE 0: %llu reports\n", (unsigned long long)n);
    }
    shmem_finalize();
    return 0;
}
/* Output:
 * PE 0: 4 reports
 */
