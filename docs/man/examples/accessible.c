/* shmem_pe_accessible, shmem_addr_accessible: which PEs and which
 * addresses can be the target of an operation.
 * Build and run: oshcc accessible.c -o accessible && oshrun -n 2 ./accessible
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

static int global_counter; /* static data: symmetric */

int main(void)
{
    shmem_init();
    int on_stack = 0;
    int *heap = shmem_malloc(sizeof(int));
    int *private_memory = malloc(sizeof(int));
    if (shmem_my_pe() == 0) {
        printf("PE 1: %d, PE 2: %d\n", shmem_pe_accessible(1), shmem_pe_accessible(2));
        printf("static: %d, symmetric heap: %d, stack: %d, malloc: %d\n",
               shmem_addr_accessible(&global_counter, 1), shmem_addr_accessible(heap, 1),
               shmem_addr_accessible(&on_stack, 1), shmem_addr_accessible(private_memory, 1));
    }
    free(private_memory);
    shmem_free(heap);
    shmem_finalize();
    return 0;
}
/* Output:
 * PE 1: 1, PE 2: 0
 * static: 1, symmetric heap: 1, stack: 0, malloc: 0
 */
