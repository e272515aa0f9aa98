/*
 * Writes 100 MiB of the symmetric heap on every PE and checks a put into
 * it: run by tests/shm_small.test with a 64 MiB /dev/shm, where a heap in
 * shared memory would end in SIGBUS.  With the argument fill-later, PE 0
 * first fills /dev/shm as another job would (the heaps fitted at
 * shmem_init, whose pages are taken when written): the PE whose write finds
 * no page must end the job with shmpi's line naming /dev/shm, not a bare
 * SIGBUS.
 */
#include "testlib.h"
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static void fill_dev_shm(void)
{
    int fd = open("/dev/shm/heap_fill.other-job", O_CREAT | O_WRONLY | O_TRUNC, 0600);
    CHECK(fd >= 0, "open a file in /dev/shm");
    static char block[1 << 20];
    memset(block, 7, sizeof block);
    while (write(fd, block, sizeof block) > 0)
        ;
    close(fd);
}

int main(int argc, char **argv)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    size_t bytes = (size_t)100 << 20;
    char *p = shmem_malloc(bytes);
    CHECK(p != NULL, "shmem_malloc(%zu)", bytes);
    if (argc > 1 && strcmp(argv[1], "fill-later") == 0 && me == 0)
        fill_dev_shm();
    shmem_barrier_all();
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
