/* shmem_global_exit: PE 1 finds a problem and ends every PE with status 3,
 * while the other PEs wait in a barrier they will never leave.
 * Build and run: oshcc global_exit.c -o global_exit && oshrun -n 4 ./global_exit
 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    printf("PE %d started\n", me);
    fflush(stdout);
    shmem_barrier_all();
    if (me == 1) /* say, an input file is missing */
        shmem_global_exit(3);
    shmem_barrier_all(); /* never completes: PE 1 ends the job */
    printf("PE %d: not reached\n", me);
    shmem_finalize();
    return 0;
}
/* Output (lines in any order; the launcher adds a note on standard error):
 * PE 0 started
 * PE 1 started
 * PE 2 started
 * PE 3 started
 * (exit status 3)
 */
