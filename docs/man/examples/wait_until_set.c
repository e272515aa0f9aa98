/* shmem_wait_until_any, _some and _all: PE 0 has one mailbox per other PE
 * and serves them as they fill: _any or _some hand it the full ones, their
 * status is then set so they are not handed out again; _all waits for the
 * acknowledgements at the end.
 * Build and run: oshcc wait_until_set.c -o wait_until_set && oshrun -n 4 ./wait_until_set
 */
#include <shmem.h>
#include <stdio.h>

#define MAX_PES 64
static int mailbox[MAX_PES]; /* symmetric: on PE 0, one per PE */
static int ack[MAX_PES];     /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (npes > MAX_PES)
        shmem_global_exit(1);
    if (me != 0) {
        shmem_int_p(&mailbox[me], 10 * me, 0);
        shmem_int_wait_until(&ack[me], SHMEM_CMP_EQ, 1);
    } else {
        int status[MAX_PES] = {1}; /* PE 0 sends no mail: left out */
        size_t indices[MAX_PES], served = 0, sum = 0;
        while (served < (size_t)npes - 1) {
            if (served % 2 == 0) { /* one full mailbox */
                size_t i = shmem_int_wait_until_any(mailbox, (size_t)npes, status, SHMEM_CMP_NE, 0);
                status[i] = 1, sum += (size_t)mailbox[i], served++;
            } else {                /* every full mailbox */
                size_t n = shmem_int_wait_until_some(mailbox, (size_t)npes, indices, status,
                                                     SHMEM_CMP_NE, 0);
                for (size_t k = 0; k < n; k++)
                    status[indices[k]] = 1, sum += (size_t)mailbox[indices[k]], served++;
            }
        }
        for (int pe = 1; pe < npes; pe++)
            shmem_int_p(&ack[pe], 1, pe);
        shmem_int_wait_until_all(mailbox + 1, (size_t)npes - 1, NULL, SHMEM_CMP_GT, 0);
        printf("PE 0 served %zu mailboxes holding %zu in all\n", served, sum);
    }
    shmem_finalize();
    return 0;
}
/* Output:
 * PE 0 served 3 mailboxes holding 60 in all
 */
