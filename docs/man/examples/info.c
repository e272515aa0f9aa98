/* shmem_query_initialized, shmem_info_get_version, shmem_info_get_name:
 * what a program can ask before, during and after the library runs.
 * Build and run: oshcc info.c -o info && oshrun -n 2 ./info
 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    int before, during, after, major, minor;
    char name[SHMEM_MAX_NAME_LEN];
    shmem_query_initialized(&before);
    shmem_init();
    shmem_query_initialized(&during);
    shmem_info_get_version(&major, &minor);
    shmem_info_get_name(name);
    int me = shmem_my_pe();
    shmem_finalize();
    shmem_query_initialized(&after);
    if (me == 0) {
        printf("initialized: %d %d %d\n", before, during, after);
        printf("OpenSHMEM %d.%d, %s\n", major, minor, name);
    }
    return 0;
}
/* Output:
 * initialized: 0 1 0
 * OpenSHMEM 1.6, shmpi (OpenSHMEM over MPI-3 RMA)
 */
