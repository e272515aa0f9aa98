/* shmem_pcontrol: a program marks the part a profiling tool should look
 * at; without a tool the calls do nothing.
 * Build and run: oshcc pcontrol.c -o pcontrol && oshrun -n 2 ./pcontrol
 */
#include <shmem.h>
#include <stdio.h>

static long counter; /* symmetric */

int main(void)
{
    shmem_init();
    shmem_pcontrol(0);   /* set-up: not profiled */
    shmem_barrier_all();
    shmem_pcontrol(1);   /* the part that matters */
    for (int i = 0; i < 100; i++)
        shmem_long_atomic_inc(&counter, 0);
    shmem_pcontrol(0);
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        printf("counter %ld\n", counter);
    shmem_finalize();
    return 0;
}
/* Output:
 * counter 200
 */
