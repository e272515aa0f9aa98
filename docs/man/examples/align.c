/* shmem_align: a symmetric buffer aligned to 4096 bytes (a page), and what
 * an alignment that is not a power of two gives.
 * Build and run: oshcc align.c -o align && oshrun -n 2 ./align
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    char *page = shmem_align(4096, 3 * 4096);
    void *odd = shmem_align(3, 64); /* NULL, and PE 0 prints a warning */
    if (shmem_my_pe() == 0)
        printf("aligned to a page: %s; alignment 3: %s\n",
               page && (uintptr_t)page % 4096 == 0 ? "yes" : "no", odd ? "a block" : "NULL");
    shmem_free(page);
    shmem_finalize();
    return page && !odd ? 0 : 1;
}
/* Output:
 * aligned to a page: yes; alignment 3: NULL
 */
