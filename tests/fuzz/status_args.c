/*
 * status_args.c - libFuzzer target: the command line of shmpi_status,
 * shmpi_info's helper for --jobs and --waits (tools/shmpi_status.c): the
 * input is its arguments, NUL-separated (at most 16).  An accepted line
 * must name exactly one of --jobs and --waits, and a --watch or --pid
 * value in range.  Its main is renamed: only the parser runs.
 */
#include <stdio.h>
/* The parser's complaints go nowhere (libFuzzer reports on stderr). */
static FILE *quiet;
#undef stderr
#define stderr quiet
#define main shmpi_status_main
#include "../../tools/shmpi_status.c"
#undef main

#include <assert.h>

#define MAX_ARGS 16

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    quiet = fopen("/dev/null", "w");
    assert(quiet);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    assert(text);
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[MAX_ARGS + 2] = {"shmpi_status"};
    int argc = 1;
    for (char *at = text; argc <= MAX_ARGS && at <= text + size; at += strlen(at) + 1)
        argv[argc++] = at;
    argv[argc] = NULL;
    struct options o;
    if (parse_options(argc, argv, &o) == 0) {
        assert(o.jobs + o.waits == 1);
        assert(o.watch >= 0 && o.watch <= 86400);
        assert(o.pid >= 0 && o.pid <= INT32_MAX);
        assert(!o.wanted || (o.wanted >= text && o.wanted <= text + size));
    }
    free(text);
    return 0;
}
