/* shmem_test_lock: PEs take turns at a shared counter, doing other work
 * while the lock is busy instead of waiting for it.
 * Build and run: oshcc test_lock.c -o test_lock && oshrun -n 4 ./test_lock
 */
#include <shmem.h>
#include <stdio.h>

static long lock;    /* symmetric */
static long counter; /* symmetric: on PE 0 */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long other_work = 0;
    for (int turns = 0; turns < 10;) {
        if (shmem_test_lock(&lock) == 0) { /* 0: it is ours */
            shmem_long_p(&counter, shmem_long_g(&counter, 0) + 1, 0);
            shmem_clear_lock(&lock);
            turns++;
        } else {
            other_work++;
        }
    }
    shmem_barrier_all();
    if (me == 0)
        printf("counter %ld (want %d)\n", counter, 10 * npes);
    (void)other_work;
    int wrong = me == 0 && counter != 10 * npes;
    shmem_finalize();
    return wrong;
}
/* Output:
 * counter 40 (want 40)
 */
