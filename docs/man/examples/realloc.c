/* shmem_realloc: a symmetric list that grows as items arrive; its first
 * items survive each resize.
 * Build and run: oshcc realloc.c -o realloc && oshrun -n 2 ./realloc
 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    size_t room = 4;
    int *list = shmem_malloc(room * sizeof(int));
    for (int i = 0; i < 4; i++)
        list[i] = i;
    for (int round = 0; round < 3; room *= 2, round++) {
        int *bigger = shmem_realloc(list, 2 * room * sizeof(int));
        if (!bigger) /* no room: list is still the old block */
            break;
        list = bigger;
        for (size_t i = room; i < 2 * room; i++)
            list[i] = (int)i;
    }
    if (shmem_my_pe() == 0)
        printf("room for %zu, list[3] = %d, list[31] = %d\n", room, list[3], list[31]);
    shmem_free(list);
    shmem_finalize();
    return 0;
}
/* Output:
 * room for 32, list[3] = 3, list[31] = 31
 */
