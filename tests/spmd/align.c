/*
 * shmem_align at every power-of-two alignment from 1 byte to 2 MiB, and
 * larger ones up to the heap size: the block is aligned on every PE and at
 * the same offset (a put through it lands in the neighbour's block).  A
 * non-power-of-two alignment, or one larger than the heap, gives NULL.
 * Run in all three modes (shared-memory heap, MPI_ONLY private heap,
 * pseudo-nodes).
 */
#include "testlib.h"
#include <stdint.h>

static int me, npes;

static void check_block(size_t align, size_t size)
{
    long *p = shmem_align(align, size);
    CHECK(p != NULL, "shmem_align(%zu, %zu) returned NULL", align, size);
    CHECK((uintptr_t)p % align == 0, "shmem_align(%zu) gave %p", align, (void *)p);
    /* Same offset everywhere: every PE's block is aligned (checked above on
     * each) and a put to p on the next PE is read back from p there. */
    p[0] = -1;
    shmem_barrier_all();
    shmem_long_p(p, (long)(align + (size_t)me), (me + 1) % npes);
    shmem_barrier_all();
    long want = (long)(align + (size_t)((me + npes - 1) % npes));
    CHECK(p[0] == want, "align %zu: %ld, want %ld", align, p[0], want);
    /* (shmem_ptr's view of a peer's block is where this process maps that
     * peer's heap: page-aligned, not necessarily more.) */
    long *q = shmem_ptr(p, (me + 1) % npes);
    if (q)
        CHECK((uintptr_t)q % 4096 == 0 || align < 4096, "peer's block at %p", (void *)q);
    shmem_barrier_all();
    shmem_free(p);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    /* Something small in front, so the aligned blocks are not at the start. */
    char *small = shmem_malloc(24);
    CHECK(small != NULL, "shmem_malloc(24)");
    for (size_t align = 1; align <= ((size_t)2 << 20); align *= 2)
        check_block(align, 3 * sizeof(long));
    /* Several live blocks of large alignments at once. */
    long *a = shmem_align((size_t)1 << 20, 100);
    long *b = shmem_align((size_t)2 << 20, (size_t)3 << 20);
    long *c = shmem_align(4096, 8);
    CHECK(a && b && c, "live aligned blocks %p %p %p", (void *)a, (void *)b, (void *)c);
    CHECK((uintptr_t)a % (1 << 20) == 0 && (uintptr_t)b % (2 << 20) == 0 &&
              (uintptr_t)c % 4096 == 0,
          "alignments %p %p %p", (void *)a, (void *)b, (void *)c);
    shmem_free(b);
    shmem_free(a);
    shmem_free(c);
    /* Larger alignments: up to 16 MiB on every path; above that (up to the
     * heap size) the MPI-only path always, the shared-memory path when the
     * heap bases allow it, else NULL. */
    for (size_t align = (size_t)4 << 20; align <= ((size_t)16 << 20); align *= 2)
        check_block(align, 4096);
    for (size_t align = (size_t)32 << 20; align <= ((size_t)64 << 20); align *= 2) {
        char *p = shmem_align(align, 4096);
        CHECK(p || !getenv("SHMPI_MPI_ONLY"), "shmem_align(%zu) NULL on the MPI path", align);
        CHECK(!p || (uintptr_t)p % align == 0, "shmem_align(%zu) gave %p", align, (void *)p);
        shmem_free(p);
    }
    /* Not a power of two (0 is not one either); larger than any heap: NULL on
     * every PE. */
    CHECK(shmem_align(0, 64) == NULL, "shmem_align(0) is not NULL");
    CHECK(shmemalign(0, 64) == NULL, "shmemalign(0) is not NULL");
    CHECK(shmem_align(3, 64) == NULL, "shmem_align(3) is not NULL");
    CHECK(shmem_align(3 << 12, 64) == NULL, "shmem_align(12288) is not NULL");
    CHECK(shmem_align((size_t)1 << 50, 64) == NULL, "shmem_align(2^50) is not NULL");
    /* The heap still works afterwards. */
    check_block(64, 64);
    shmem_free(small);
    test_passed("align");
    shmem_finalize();
    return 0;
}
