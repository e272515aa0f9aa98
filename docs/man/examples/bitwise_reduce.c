/* shmem_and_reduce, shmem_or_reduce, shmem_xor_reduce: each PE reports the
 * features it has as bits; AND gives those every PE has, OR those some PE
 * has, XOR those an odd number of PEs have.
 * Build and run: oshcc bitwise_reduce.c -o bitwise_reduce && oshrun -n 4 ./bitwise_reduce
 */
#include <shmem.h>
#include <stdio.h>

static unsigned int features, all, any, odd; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    features = 0x1u | (0x2u << (me % 3)); /* bit 0 everywhere, one more per PE */
    shmem_and_reduce(SHMEM_TEAM_WORLD, &all, &features, 1); /* C11; or shmem_uint_and_reduce */
    shmem_or_reduce(SHMEM_TEAM_WORLD, &any, &features, 1);
    shmem_xor_reduce(SHMEM_TEAM_WORLD, &odd, &features, 1);
    if (me == 0)
        printf("every PE: 0x%x, some PE: 0x%x, an odd number of PEs: 0x%x\n", all, any, odd);
    shmem_finalize();
    return (all & 1u) ? 0 : 1;
}
/* Output:
 * every PE: 0x1, some PE: 0xf, an odd number of PEs: 0xc
 */
