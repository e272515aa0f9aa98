/*
 * parse.h - parsing of environment values (no MPI, unit-tested).
 */
#ifndef SHMPI_PARSE_H
#define SHMPI_PARSE_H

#include <stddef.h>

/* Parses a size the way the spec defines SHMEM_SYMMETRIC_SIZE: a positive
 * decimal number, integer or not, with an optional k/m/g/t suffix (powers
 * of 1024; only the first suffix character counts); the result is rounded
 * up to whole bytes.  Returns 0 and sets *out, or -1 if invalid. */
int shmpi_parse_size(const char *text, size_t *out);
/* Parses a non-negative decimal integer; returns 0, or -1 if malformed. */
int shmpi_parse_count(const char *text, long *out);

#endif /* SHMPI_PARSE_H */
