/* shmem_init, shmem_my_pe, shmem_n_pes, shmem_finalize: the smallest
 * OpenSHMEM program.
 * Build and run: oshcc hello.c -o hello && oshrun -n 4 ./hello
 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    printf("PE %d of %d says hello\n", shmem_my_pe(), shmem_n_pes());
    shmem_finalize();
    return 0;
}
/* Output (lines in any order):
 * PE 0 of 4 says hello
 * PE 1 of 4 says hello
 * PE 2 of 4 says hello
 * PE 3 of 4 says hello
 */
