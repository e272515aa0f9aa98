/* shmem_set_lock, shmem_clear_lock: every PE appends its number to a list
 * on PE 0; the lock makes each read-modify-write of the list's length
 * happen on one PE at a time.
 * Build and run: oshcc lock.c -o lock && oshrun -n 4 ./lock
 */
#include <shmem.h>
#include <stdio.h>

static long lock;     /* symmetric, 0: free */
static int length;    /* symmetric: the list on PE 0 */
static int items[64];

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    shmem_set_lock(&lock);
    int n = shmem_int_g(&length, 0);   /* read, then write: safe under the lock */
    if (n < 64)
        shmem_int_p(&items[n], me, 0);
    shmem_int_p(&length, n + 1, 0);
    shmem_clear_lock(&lock);           /* completes the two puts first */
    shmem_barrier_all();
    int wrong = 0;
    if (me == 0) {
        int seen[64] = {0};
        for (int i = 0; i < length && i < 64; i++)
            seen[items[i] & 63]++;
        for (int pe = 0; pe < npes; pe++)
            wrong += seen[pe] != 1;
        printf("%d items, each PE once: %s\n", length, wrong ? "no" : "yes");
    }
    shmem_finalize();
    return wrong;
}
/* Output:
 * 4 items, each PE once: yes
 */
