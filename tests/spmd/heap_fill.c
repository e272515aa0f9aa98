/*
 * Writes 100 MiB of the symmetric heap on every PE and checks a put into
 * it: run by tests/shm_small.test with a 64 MiB /dev/shm, where a heap in
 * shared memory would end in SIGBUS.
 */
#include "testlib.h"
#include <string.h>

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    size_t bytes = (size_t)100 << 20;
    char *p = shmem_malloc(bytes);
    CHECK(p != NULL, "shmem_malloc(%zu)", bytes);
    memset(p, me + 1, bytes);
    shmem_barrier_all();
    shmem_putmem(p + bytes - 4096, p, 4096, (me + 1) % n);
    shmem_barrier_all();
    int left = (me + n - 1) % n;
    CHECK(p[bytes - 1] == left + 1 && p[0] == me + 1, "bytes %d %d", p[bytes - 1], p[0]);
    shmem_free(p);
    test_passed("heap_fill");
    shmem_finalize();
    return 0;
}
