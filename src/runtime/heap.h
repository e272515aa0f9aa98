/*
 * heap.h - the collective side of the symmetric heap (heap.c).  The
 * allocator's bookkeeping is heap_alloc.h; shmpi_malloc and its siblings
 * are declared here.
 */
#ifndef SHMPI_HEAP_H
#define SHMPI_HEAP_H

#include "shmpi.h"

/* Start-up (collective, once the heap segment is mapped): the allocator,
 * the reserved block at the same offset on every PE, and the alignment
 * every PE's heap base allows. */
void shmpi_heap_setup(void);
/* Collective allocation from the symmetric heap (barrier at the end);
 * NULL on every PE if it does not fit.  `zero` clears the block. */
void *shmpi_malloc(const char *routine, size_t size, size_t align, bool zero);
/* Collective free (barrier at the start); NULL does nothing. */
void shmpi_free(const char *routine, void *ptr);
void *shmpi_realloc(const char *routine, void *ptr, size_t size);

#endif /* SHMPI_HEAP_H */
