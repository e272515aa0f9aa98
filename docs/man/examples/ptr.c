/* shmem_ptr: where a PE maps its neighbour's memory it adds to it with a
 * plain store; elsewhere (another node, SHMPI_MPI_ONLY=1) it uses a put.
 * Build and run: oshcc ptr.c -o ptr && oshrun -n 4 ./ptr
 */
#include <shmem.h>
#include <stdio.h>

static long box[2]; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes;
    long *theirs = shmem_ptr(box, right);
    long values[2] = {me, 2 * me};
    if (theirs) {                 /* the same node: load and store */
        theirs[0] = values[0];
        theirs[1] = values[1];
    } else {                      /* not mapped: a put */
        shmem_long_put(box, values, 2, right);
    }
    shmem_barrier_all();          /* orders the stores and completes the puts */
    int left = (me + npes - 1) % npes;
    printf("PE %d: box holds %ld %ld\n", me, box[0], box[1]);
    shmem_finalize();
    return box[1] == 2 * left ? 0 : 1;
}
/* Output (lines in any order):
 * PE 0: box holds 3 6
 * PE 1: box holds 0 0
 * PE 2: box holds 1 2
 * PE 3: box holds 2 4
 */
