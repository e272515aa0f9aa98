/*
 * Memory management: malloc, calloc, align, realloc, free, malloc_with_hints,
 * the deprecated names; exhaustion returns NULL on every PE; size 0 and
 * free(NULL).  Run with SHMEM_SYMMETRIC_SIZE unset (256 MiB default).
 */
#include <stdint.h>
#include <string.h>

#include "testlib.h"

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n;

    CHECK(shmem_malloc(0) == NULL, "malloc(0) is NULL");
    shmem_free(NULL); /* no action */

    /* Blocks are symmetric: a put into the neighbour's block lands there. */
    int *a = shmem_malloc(100 * sizeof(int));
    long *b = shmem_calloc(1000, sizeof(long));
    double *c = shmem_align(4096, 3 * sizeof(double));
    char *d = shmem_malloc_with_hints(77, SHMEM_MALLOC_ATOMICS_REMOTE);
    char *e = shmalloc(10);
    char *f = shmemalign(256, 10);
    CHECK(a && b && c && d && e && f, "allocations");
    CHECK((uintptr_t)c % 4096 == 0 && (uintptr_t)f % 256 == 0, "alignment %p %p", (void *)c,
          (void *)f);
    for (int i = 0; i < 1000; i++)
        CHECK(b[i] == 0, "calloc not zero at %d", i);
    for (int i = 0; i < 100; i++)
        a[i] = me;
    shmem_barrier_all();
    shmem_int_p(&a[99], me + 1000, right);
    shmem_long_p(&b[999], me + 2000, right);
    shmem_double_p(&c[2], me + 0.5, right);
    shmem_putmem(d + 76, "x", 1, right);
    shmem_barrier_all();
    int left = (me + n - 1) % n;
    CHECK(a[99] == left + 1000 && b[999] == left + 2000 && c[2] == left + 0.5 && d[76] == 'x',
          "symmetric blocks");

    /* realloc keeps the contents up to the smaller size. */
    a = shmem_realloc(a, 100000 * sizeof(int));
    CHECK(a != NULL, "realloc grow");
    for (int i = 0; i < 99; i++)
        CHECK(a[i] == me, "realloc lost element %d", i);
    CHECK(a[99] == left + 1000, "realloc lost the remote write");
    shmem_int_p(&a[99999], me, right);
    shmem_barrier_all();
    CHECK(a[99999] == left, "put into grown block");
    a = shrealloc(a, 4 * sizeof(int));
    CHECK(a != NULL && a[3] == me, "realloc shrink");
    CHECK(shmem_realloc(NULL, 16) != NULL, "realloc(NULL) allocates");
    CHECK(shmem_realloc(e, 0) == NULL, "realloc(p, 0) frees");

    /* Exhaustion: NULL everywhere, the heap still usable afterwards. */
    void *huge = shmem_malloc((size_t)1 << 40);
    CHECK(huge == NULL, "1 TiB allocation succeeded");
    void *too_big_calloc = shmem_calloc((size_t)1 << 20, (size_t)1 << 20);
    CHECK(too_big_calloc == NULL, "huge calloc succeeded");
    int *again = shmem_realloc(a, (size_t)1 << 40);
    CHECK(again == NULL && a[3] == me, "failed realloc must keep the block");
    /* Fill the heap with 1 MiB blocks until it is full, then free them all. */
    enum { MAX_BLOCKS = 4096 };
    static void *blocks[MAX_BLOCKS];
    int count = 0;
    while (count < MAX_BLOCKS && (blocks[count] = shmem_malloc(1 << 20)) != NULL)
        count++;
    CHECK(count > 10 && count < MAX_BLOCKS, "filled the heap with %d MiB", count);
    int min_count = count;
    /* every PE must have stopped at the same block */
    static int counts;
    counts = count;
    shmem_barrier_all();
    for (int pe = 0; pe < n; pe++)
        CHECK(shmem_int_g(&counts, pe) == min_count, "PE %d stopped at another block", pe);
    shmem_barrier_all();
    for (int i = count - 1; i >= 0; i--)
        shmem_free(blocks[i]);
    void *big = shmem_malloc((size_t)(count - 4) << 20);
    CHECK(big != NULL, "heap not reusable after freeing");
    shmem_free(big);

    shmem_free(a);
    shmem_free(b);
    shmem_free(c);
    shmem_free(d);
    shfree(f);
    test_passed("mem");
    shmem_finalize();
    return 0;
}
