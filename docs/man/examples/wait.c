/* shmem_wait (deprecated): waits until a variable differs from a value; new
 * code calls shmem_wait_until(&flag, SHMEM_CMP_NE, 0).
 * Build and run: oshcc wait.c -o wait && oshrun -n 2 ./wait
 */
#include <shmem.h>
#include <stdio.h>

static long flag; /* symmetric */

int main(void)
{
    shmem_init();
    if (shmem_my_pe() == 0)
        shmem_long_p(&flag, 5, 1);
    else if (shmem_my_pe() == 1) {
        shmem_long_wait(&flag, 0);
        printf("PE 1: flag is %ld\n", flag);
    }
    shmem_finalize();
    return 0;
}
/* Output:
 * PE 1: flag is 5
 */
