/* shmem_team_ptr: every PE reads the value of each PE of its node
 * (SHMEM_TEAM_SHARED) through pointers, and counts the others.
 * Build and run: oshcc team_ptr.c -o team_ptr && oshrun -n 4 ./team_ptr
 */
#include <shmem.h>
#include <stdio.h>

static int value; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    value = 10 * me;
    shmem_barrier_all();
    int n = shmem_team_n_pes(SHMEM_TEAM_SHARED), reached = 0, sum = 0;
    for (int pe = 0; pe < n; pe++) {
        int *p = shmem_team_ptr(SHMEM_TEAM_SHARED, &value, pe);
        if (p)
            reached++, sum += *p;
    }
    shmem_barrier_all();
    printf("PE %d reached every PE of its team through a pointer: %s\n", me,
           reached == n ? "yes" : "no");
    shmem_finalize();
    return reached == n && sum >= 0 ? 0 : 1;
}
/* Output (lines in any order):
 * PE 0 reached every PE of its team through a pointer: yes
 * PE 1 reached every PE of its team through a pointer: yes
 * PE 2 reached every PE of its team through a pointer: yes
 * PE 3 reached every PE of its team through a pointer: yes
 */
