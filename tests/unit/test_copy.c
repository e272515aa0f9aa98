/* Unit tests: the shared-memory RMA copy (src/base/copy.h).  It must copy
 * right at every size and alignment, and store each destination byte once:
 * a PE that sees a flag arrive and resets it must not see the flag stored
 * again.  The second property is checked exactly by tracing a child process
 * instruction by instruction (ptrace single-step): after every instruction
 * the tracer resets each destination byte that has arrived, as the fastest
 * possible reader would, and a byte that arrives twice is a failure. */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../src/base/copy.h"

#define BUF 4608
#define GUARD 16

static unsigned char source[BUF + 64] __attribute__((aligned(64)));
static unsigned char dest[BUF + 2 * GUARD + 64] __attribute__((aligned(64)));

static void fill_source(void)
{
    for (size_t i = 0; i < sizeof source; i++)
        source[i] = (unsigned char)(i * 7 + 1) | 1; /* never 0 */
}

START_TEST(copies_every_size_and_alignment)
{
    static unsigned char untouched[sizeof dest];
    memset(untouched, 0xee, sizeof untouched);
    fill_source();
    static const size_t big[] = {511, 512, 513, 575, 2047, 2048, 2049, 4096 + 13};
    for (size_t doff = 0; doff < 16; doff++)
        for (size_t soff = 0; soff < 16; soff += 3)
            for (size_t k = 0; k < 300 + sizeof big / sizeof big[0]; k++) {
                size_t n = k < 300 ? k : big[k - 300];
                memset(dest, 0xee, sizeof dest);
                unsigned char *d = dest + GUARD + doff;
                shmpi_copy_once(d, source + soff, n);
                ck_assert_msg(memcmp(d, source + soff, n) == 0, "%zu bytes at +%zu/+%zu", n,
                              doff, soff);
                ck_assert_msg(memcmp(dest, untouched, GUARD + doff) == 0 &&
                                  memcmp(d + n, untouched, sizeof dest - (GUARD + doff + n)) == 0,
                              "%zu bytes at +%zu/+%zu: a byte outside was stored", n, doff, soff);
            }
}
END_TEST

/* ---- each byte stored once, traced ----------------------------------------------------- */
typedef void copy_fn(void *to, const void *from, size_t n);

static void copy_once(void *to, const void *from, size_t n) { shmpi_copy_once(to, from, n); }

/* A copy that stores its first int twice, as glibc's memcpy does for 4 to 7
 * bytes: the tracer must catch it. */
static void copy_storing_twice(void *to, const void *from, size_t n)
{
    int v;
    memcpy(&v, from, sizeof v);
    *(volatile int *)to = v;
    *(volatile int *)to = v;
    for (size_t i = sizeof v; i < n; i++)
        ((volatile unsigned char *)to)[i] = ((const unsigned char *)from)[i];
}

enum traced { TRACED_ONCE, TRACED_TWICE, TRACED_MISSING, TRACED_UNAVAILABLE };

/* Runs copy(dest + doff, source, n) in a traced child; after every
 * instruction resets the destination bytes that arrived. */
static enum traced trace_copy(copy_fn *copy, size_t doff, size_t n)
{
    fill_source();
    memset(dest, 0, sizeof dest);
    unsigned char *d = dest + doff;
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) {
        if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
            _exit(77);
        raise(SIGSTOP);
        copy(d, source, n);
        _exit(0);
    }
    int status;
    unsigned char arrived[BUF] = {0};
    enum traced result = TRACED_ONCE;
    /* Whole words covering the destination. */
    uintptr_t first = (uintptr_t)d & ~(uintptr_t)(sizeof(long) - 1);
    uintptr_t last = ((uintptr_t)d + n + sizeof(long) - 1) & ~(uintptr_t)(sizeof(long) - 1);
    for (;;) {
        if (waitpid(child, &status, 0) != child)
            return TRACED_UNAVAILABLE;
        if (WIFEXITED(status))
            break;
        /* The destination as the child sees it, in one read. */
        static long words[(BUF + 2 * sizeof(long)) / sizeof(long)];
        struct iovec here = {words, last - first}, there = {(void *)first, last - first};
        if (process_vm_readv(child, &here, 1, &there, 1, 0) != (ssize_t)(last - first))
            return TRACED_UNAVAILABLE;
        for (uintptr_t w = first; w < last; w += sizeof(long)) {
            long word = words[(w - first) / sizeof(long)];
            if (word == 0)
                continue;
            unsigned char bytes[sizeof(long)];
            memcpy(bytes, &word, sizeof word);
            for (size_t b = 0; b < sizeof word; b++) {
                size_t at = w + b - (uintptr_t)d;
                if (!bytes[b] || w + b < (uintptr_t)d || at >= n)
                    continue;
                if (arrived[at])
                    result = TRACED_TWICE;
                arrived[at] = 1;
                bytes[b] = 0;
            }
            memcpy(&word, bytes, sizeof word);
            ptrace(PTRACE_POKEDATA, child, (void *)w, (void *)word);
        }
        ptrace(PTRACE_SINGLESTEP, child, NULL, NULL);
    }
    if (WEXITSTATUS(status) == 77)
        return TRACED_UNAVAILABLE;
    if (result == TRACED_ONCE)
        for (size_t i = 0; i < n; i++)
            if (!arrived[i])
                return TRACED_MISSING;
    return result;
}

START_TEST(tracer_catches_a_second_store)
{
    enum traced r = trace_copy(copy_storing_twice, 0, 8);
    if (r == TRACED_UNAVAILABLE) {
        fprintf(stderr, "test_copy: ptrace not permitted here: the traced checks are skipped\n");
        return;
    }
    ck_assert_int_eq(r, TRACED_TWICE);
}
END_TEST

START_TEST(stores_each_byte_once)
{
    static const size_t sizes[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  12,  15,  16,  17,   24,
                                   31, 32, 33, 48, 63, 64, 65, 100, 127, 128, 255, 256, 511, 512, 513,
                                   2048, 2051};
    for (size_t doff = 0; doff < 8; doff++)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            if (sizes[k] >= 2048 && doff > 0)
                continue; /* the string move steps a byte at a time: a few suffice */
            enum traced r = trace_copy(copy_once, doff, sizes[k]);
            if (r == TRACED_UNAVAILABLE)
                return;
            ck_assert_msg(r == TRACED_ONCE, "%zu bytes at +%zu: %s", sizes[k], doff,
                          r == TRACED_TWICE ? "a byte stored twice" : "a byte never stored");
        }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("copy");
    TCase *tc = tcase_create("copy");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, copies_every_size_and_alignment);
    tcase_add_test(tc, tracer_catches_a_second_store);
    tcase_add_test(tc, stores_each_byte_once);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
