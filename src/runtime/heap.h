/*
 * heap.h - the collective side of the symmetric heap (heap.c).  The
 * allocator's bookkeeping is heap_alloc.h; shmpi_malloc and its siblings
 * are declared in shmpi.h.
 */
#ifndef SHMPI_HEAP_H
#define SHMPI_HEAP_H

/* Start-up (collective, once the heap segment is mapped): the allocator,
 * the reserved block at the same offset on every PE, and the alignment
 * every PE's heap base allows. */
void shmpi_heap_setup(void);

#endif /* SHMPI_HEAP_H */
