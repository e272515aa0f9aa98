/* shmem_test_any, _some and _all: PE 0 polls one mailbox per PE without
 * blocking, doing other work between looks, until all are full.
 * Build and run: oshcc test_set.c -o test_set && oshrun -n 4 ./test_set
 */
#include <shmem.h>
#include <stdio.h>

#define MAX_PES 64
static int mailbox[MAX_PES]; /* symmetric: on PE 0, one per PE */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (npes > MAX_PES)
        shmem_global_exit(1);
    if (me != 0)
        shmem_int_p(&mailbox[me], me, 0);
    if (me == 0) {
        int status[MAX_PES] = {1}; /* leave PE 0's own mailbox out */
        size_t idx[MAX_PES], seen = 0;
        while (!shmem_int_test_all(mailbox, (size_t)npes, status, SHMEM_CMP_NE, 0)) {
            size_t n = shmem_int_test_some(mailbox, (size_t)npes, idx, status, SHMEM_CMP_NE, 0);
            for (size_t k = 0; k < n; k++)
                status[idx[k]] = 1, seen++; /* handled: out of the next looks */
            /* ... other work ... */
        }
        size_t any = shmem_int_test_any(mailbox, (size_t)npes, NULL, SHMEM_CMP_NE, 0);
        printf("all %d mailboxes full; test_any finds one: %s\n", npes - 1,
               any != SIZE_MAX ? "yes" : "no");
        (void)seen;
    }
    shmem_finalize();
    return 0;
}
/* Output:
 * all 3 mailboxes full; test_any finds one: yes
 */
