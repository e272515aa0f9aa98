/* The trivial OpenSHMEM program whose job startup.sh times: start-up and
 * finalize, nothing else. */
#include <shmem.h>

int main(void)
{
    shmem_init();
    shmem_finalize();
    return 0;
}
