/* shmem_init_thread, shmem_query_thread: a program that will call the
 * library from several threads asks for SHMEM_THREAD_MULTIPLE and checks
 * what it got.
 * Build and run: oshcc init_thread.c -o init_thread && oshrun -n 2 ./init_thread
 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    int provided = -1, queried = -1;
    if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) != 0)
        return 1;
    shmem_query_thread(&queried);
    if (shmem_my_pe() == 0)
        printf("thread support: %s (query agrees: %s)\n",
               provided == SHMEM_THREAD_MULTIPLE ? "multiple" : "less than multiple",
               queried == provided ? "yes" : "no");
    shmem_finalize();
    return 0;
}
/* Output (with an MPI built for threads, as Debian's are):
 * thread support: multiple (query agrees: yes)
 */
