/* shmalloc, shrealloc, shmemalign, shfree (deprecated): the allocation
 * routines of OpenSHMEM 1.1 programs; new code calls shmem_malloc,
 * shmem_realloc, shmem_align and shmem_free.
 * Build and run: oshcc deprecated_alloc.c -o deprecated_alloc && oshrun -n 2 ./deprecated_alloc
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    long *a = shmalloc(8 * sizeof(long));
    a[7] = 7;
    a = shrealloc(a, 16 * sizeof(long));
    double *b = shmemalign(256, 10 * sizeof(double));
    if (shmem_my_pe() == 0)
        printf("kept: %ld, aligned: %s\n", a[7], (uintptr_t)b % 256 == 0 ? "yes" : "no");
    shfree(b);
    shfree(a);
    shmem_finalize();
    return 0;
}
/* Output:
 * kept: 7, aligned: yes
 */
