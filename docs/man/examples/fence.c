/* shmem_fence: PE 0 hands PE 1 a message and then raises a flag; the fence
 * between them makes the message arrive first.
 * Build and run: oshcc fence.c -o fence && oshrun -n 2 ./fence
 */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

static char message[32]; /* symmetric */
static int posted;       /* symmetric flag */

int main(void)
{
    shmem_init();
    if (shmem_my_pe() == 0) {
        const char text[] = "hello from PE 0";
        shmem_putmem(message, text, sizeof text, 1);
        shmem_fence();           /* the message reaches PE 1 before the flag */
        shmem_int_p(&posted, 1, 1);
    } else if (shmem_my_pe() == 1) {
        shmem_int_wait_until(&posted, SHMEM_CMP_EQ, 1);
        printf("PE 1 read: %s\n", message);
    }
    int wrong = shmem_my_pe() == 1 && strcmp(message, "hello from PE 0") != 0;
    shmem_finalize();
    return wrong;
}
/* Output:
 * PE 1 read: hello from PE 0
 */
