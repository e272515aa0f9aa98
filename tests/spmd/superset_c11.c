/*
 * The superset forms (superset.h) as C11: deprecated generic AMO names on
 * every standard AMO type, the typed deprecated names (shmem_int32_add, ...),
 * the point-to-point generic names on short and unsigned short.
 */
#include "superset.h"

int main(void)
{
    shmem_init();
    superset_run();
    test_passed("superset_c11");
    shmem_finalize();
    return 0;
}
