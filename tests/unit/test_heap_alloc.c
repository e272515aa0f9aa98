/* Unit tests: the symmetric heap allocator (offsets only, no MPI). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../src/base/heap_alloc.h"

#define HEAP_SIZE (1u << 20)

static struct shmpi_heap heap;

static void setup(void) { ck_assert_int_eq(shmpi_heap_init(&heap, HEAP_SIZE), 0); }
static void teardown(void) { shmpi_heap_destroy(&heap); }

static size_t alloc(size_t size, size_t align)
{
    size_t off = SIZE_MAX;
    ck_assert_int_eq(shmpi_heap_alloc(&heap, size, align, &off), 0);
    ck_assert_uint_le(off + size, HEAP_SIZE);
    return off;
}

START_TEST(first_blocks_are_packed_and_aligned)
{
    size_t a = alloc(10, 0), b = alloc(100, 0), c = alloc(1, 0);
    ck_assert_uint_eq(a, 0);
    ck_assert_uint_eq(b, 64);
    ck_assert_uint_eq(c, 192);
    ck_assert_uint_eq(shmpi_heap_block_size(&heap, b), 128);
    ck_assert_uint_eq(heap.n_used, 3);
}
END_TEST

START_TEST(alignment_is_honoured)
{
    alloc(8, 0);
    size_t page = alloc(100, 4096);
    ck_assert_uint_eq(page % 4096, 0);
    size_t big = alloc(10, 65536);
    ck_assert_uint_eq(big % 65536, 0);
    size_t small = alloc(8, 0); /* fits into the padding left before `page` */
    ck_assert_uint_lt(small, page);
    size_t off;
    ck_assert_int_eq(shmpi_heap_alloc(&heap, 8, 48, &off), -1); /* not a power of 2 */
}
END_TEST

START_TEST(exhaustion_and_reuse)
{
    size_t off;
    ck_assert_int_eq(shmpi_heap_alloc(&heap, HEAP_SIZE + 1, 0, &off), -1);
    size_t all = alloc(HEAP_SIZE, 0);
    ck_assert_uint_eq(all, 0);
    ck_assert_int_eq(shmpi_heap_alloc(&heap, 1, 0, &off), -1);
    ck_assert_uint_eq(shmpi_heap_largest_free(&heap), 0);
    ck_assert_int_eq(shmpi_heap_free(&heap, all), 0);
    ck_assert_uint_eq(shmpi_heap_largest_free(&heap), HEAP_SIZE);
    ck_assert_uint_eq(heap.used_bytes, 0);
}
END_TEST

START_TEST(free_merges_neighbours)
{
    size_t a = alloc(1000, 0), b = alloc(1000, 0), c = alloc(1000, 0);
    (void)c;
    ck_assert_int_eq(shmpi_heap_free(&heap, a), 0);
    ck_assert_int_eq(shmpi_heap_free(&heap, b), 0);
    /* a and b merged: a 2000-byte block fits at offset 0 again */
    ck_assert_uint_eq(alloc(2000, 0), 0);
}
END_TEST

START_TEST(bad_free_is_reported)
{
    size_t a = alloc(100, 0);
    ck_assert_int_eq(shmpi_heap_free(&heap, a + 64), -1);
    ck_assert_int_eq(shmpi_heap_free(&heap, 12345), -1);
    ck_assert_int_eq(shmpi_heap_free(&heap, a), 0);
    ck_assert_int_eq(shmpi_heap_free(&heap, a), -1); /* double free */
    ck_assert_uint_eq(shmpi_heap_block_size(&heap, a), 0);
}
END_TEST

START_TEST(realloc_in_place_and_moving)
{
    size_t a = alloc(100, 0), off;
    ck_assert_int_eq(shmpi_heap_realloc(&heap, a, 1000, &off), 0);
    ck_assert_uint_eq(off, a); /* grew into free space behind it */
    ck_assert_uint_eq(shmpi_heap_block_size(&heap, a), 1024);
    ck_assert_int_eq(shmpi_heap_realloc(&heap, a, 10, &off), 0);
    ck_assert_uint_eq(off, a); /* shrank in place */
    ck_assert_uint_eq(shmpi_heap_block_size(&heap, a), 64);
    size_t b = alloc(64, 0);
    ck_assert_uint_eq(b, 64); /* the tail given back is reused */
    ck_assert_int_eq(shmpi_heap_realloc(&heap, a, 500, &off), 0);
    ck_assert_uint_ne(off, a); /* blocked by b: a new block, old one kept */
    ck_assert_uint_eq(shmpi_heap_block_size(&heap, a), 64);
    ck_assert_int_eq(shmpi_heap_realloc(&heap, a, HEAP_SIZE, &off), -1);
    ck_assert_int_eq(shmpi_heap_realloc(&heap, 999, 8, &off), -1);
}
END_TEST

START_TEST(many_blocks_stay_consistent)
{
    enum { N = 5000 };
    static size_t offs[N];
    for (int i = 0; i < N; i++)
        offs[i] = alloc((size_t)(i % 7) * 8 + 1, 0);
    for (int i = 0; i < N; i += 2)
        ck_assert_int_eq(shmpi_heap_free(&heap, offs[i]), 0);
    for (int i = 1; i < N; i += 2)
        ck_assert_uint_eq(shmpi_heap_block_size(&heap, offs[i]), 64);
    for (int i = 1; i < N; i += 2)
        ck_assert_int_eq(shmpi_heap_free(&heap, offs[i]), 0);
    ck_assert_uint_eq(heap.used_bytes, 0);
    ck_assert_uint_eq(heap.n_used, 0);
    ck_assert_uint_eq(shmpi_heap_largest_free(&heap), HEAP_SIZE);
    ck_assert_ptr_null(heap.head->next); /* all merged back into one block */
}
END_TEST

START_TEST(top_is_the_end_of_the_last_used_block)
{
    ck_assert_uint_eq(shmpi_heap_top(&heap), 0);
    size_t a = alloc(1000, 0), b = alloc(100, 0);
    ck_assert_uint_eq(shmpi_heap_top(&heap), b + 128); /* sizes round up to 64 */
    ck_assert_int_eq(shmpi_heap_free(&heap, a), 0);    /* a hole below does not move it */
    ck_assert_uint_eq(shmpi_heap_top(&heap), b + 128);
    ck_assert_int_eq(shmpi_heap_free(&heap, b), 0);
    ck_assert_uint_eq(shmpi_heap_top(&heap), 0);
    size_t all = alloc(HEAP_SIZE, 0);
    ck_assert_uint_eq(shmpi_heap_top(&heap), all + HEAP_SIZE);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("heap_alloc");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, first_blocks_are_packed_and_aligned);
    tcase_add_test(tc, alignment_is_honoured);
    tcase_add_test(tc, exhaustion_and_reuse);
    tcase_add_test(tc, free_merges_neighbours);
    tcase_add_test(tc, bad_free_is_reported);
    tcase_add_test(tc, realloc_in_place_and_moving);
    tcase_add_test(tc, many_blocks_stay_consistent);
    tcase_add_test(tc, top_is_the_end_of_the_last_used_block);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
