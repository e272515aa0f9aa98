/*
 * wait.h - the point-to-point waits (wait.c): shmem_wait_until and its
 * siblings, the multi-variable waits and tests.
 */
#ifndef SHMPI_WAIT_H
#define SHMPI_WAIT_H

#include "progress.h"

/* Waits until satisfied(state) holds, driving progress; `cmp` (or NULL)
 * says what it compares, for the status page. */
void shmpi_wait_until(const char *routine, const void *addr, const struct shmpi_wait_cmp *cmp,
                      bool (*satisfied)(const void *state), const void *state);

/* The multi-variable waits and tests.  Element i takes part unless
 * status && status[i] != 0; ready(state, i) tests it.
 *   ALL:  returns 1 when every element taking part is ready (0 for a test
 *         that finds one not ready);
 *   ANY:  returns the index of a ready element, SIZE_MAX if none takes
 *         part (or, for a test, none is ready); fair: each call starts
 *         looking one past the index the previous call returned;
 *   SOME: returns how many are ready and writes their indices to
 *         indices[0..n-1]; 0 if none takes part (or, for a test, is ready).
 * `block` selects wait_until (true) or test (false) behaviour. */
enum shmpi_wait_kind { SHMPI_WAIT_ALL, SHMPI_WAIT_ANY, SHMPI_WAIT_SOME };
size_t shmpi_wait_multi(const char *routine, const void *addr, enum shmpi_wait_kind kind,
                        bool block, size_t nelems, const int *status, size_t *indices,
                        bool (*ready)(const void *state, size_t i), const void *state);

#endif /* SHMPI_WAIT_H */
