/* start_pes, _my_pe, _num_pes (deprecated): how OpenSHMEM 1.1 programs
 * start; new code calls shmem_init, shmem_my_pe and shmem_n_pes (and
 * shmem_finalize at the end, which shmpi otherwise runs at exit).
 * Build and run: oshcc deprecated_setup.c -o deprecated_setup && oshrun -n 2 ./deprecated_setup
 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    start_pes(0); /* the argument is ignored */
    printf("PE %d of %d\n", _my_pe(), _num_pes());
    return 0;
}
/* Output (lines in any order):
 * PE 0 of 2
 * PE 1 of 2
 */
