/* Unit tests: SHMEM_SYMMETRIC_SIZE and count parsing (spec rules). */
#include <check.h>
#include <stdlib.h>

#include "../../src/base/parse.h"

static size_t size_of(const char *text)
{
    size_t out = 0;
    ck_assert_int_eq(shmpi_parse_size(text, &out), 0);
    return out;
}

static void rejects(const char *text)
{
    size_t out = 12345;
    ck_assert_msg(shmpi_parse_size(text, &out) == -1, "accepted \"%s\"", text);
    ck_assert_uint_eq(out, 12345);
}

START_TEST(plain_numbers)
{
    ck_assert_uint_eq(size_of("1"), 1);
    ck_assert_uint_eq(size_of("4096"), 4096);
    ck_assert_uint_eq(size_of("1.5"), 2); /* rounded up to whole bytes */
}
END_TEST

START_TEST(suffixes)
{
    ck_assert_uint_eq(size_of("1k"), 1024);
    ck_assert_uint_eq(size_of("1K"), 1024);
    ck_assert_uint_eq(size_of("20m"), 20u << 20);
    ck_assert_uint_eq(size_of("2G"), 2ul << 30);
    ck_assert_uint_eq(size_of("1t"), 1ul << 40);
    ck_assert_uint_eq(size_of(".5m"), 512u << 10);
    ck_assert_uint_eq(size_of("0.5m"), size_of(".5m"));
    ck_assert_uint_eq(size_of("1.5k"), 1536);
}
END_TEST

START_TEST(only_first_suffix_counts)
{
    ck_assert_uint_eq(size_of("20kk"), 20u << 10);
    ck_assert_uint_ne(size_of("20kk"), size_of("20m"));
    ck_assert_uint_eq(size_of("3mb"), 3u << 20);
}
END_TEST

START_TEST(invalid)
{
    rejects(NULL);
    rejects("");
    rejects("abc");
    rejects("-5");
    rejects("-1m");
    rejects("+5");
    rejects("0");
    rejects("0k");
    rejects("12x");
    rejects("1e3");
    rejects("0x10");
    rejects("inf");
    rejects("nan");
    rejects("99999999t");
}
END_TEST

START_TEST(counts)
{
    long v = -1;
    ck_assert_int_eq(shmpi_parse_count("0", &v), 0);
    ck_assert_int_eq(v, 0);
    ck_assert_int_eq(shmpi_parse_count("16", &v), 0);
    ck_assert_int_eq(v, 16);
    ck_assert_int_eq(shmpi_parse_count("-2", &v), -1);
    ck_assert_int_eq(shmpi_parse_count("2x", &v), -1);
    ck_assert_int_eq(shmpi_parse_count("", &v), -1);
    ck_assert_int_eq(shmpi_parse_count("99999999999999999999999", &v), -1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("parse");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, plain_numbers);
    tcase_add_test(tc, suffixes);
    tcase_add_test(tc, only_first_suffix_counts);
    tcase_add_test(tc, invalid);
    tcase_add_test(tc, counts);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
