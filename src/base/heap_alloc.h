/*
 * heap_alloc.h - the symmetric heap allocator, pure bookkeeping.
 *
 * It hands out offsets inside a region of a given size and never touches
 * the memory itself, so every PE running the same sequence of calls gets
 * the same offsets (that is what makes the heap symmetric), the metadata
 * cannot be overwritten by a program that writes past its block, and the
 * logic is unit-tested without MPI.  Blocks, free and used, form a list in
 * offset order; used blocks are also in a hash table for O(1) free.
 */
#ifndef SHMPI_HEAP_ALLOC_H
#define SHMPI_HEAP_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

/* Every block starts on this boundary: a cache line, which also avoids
 * false sharing between separately allocated symmetric objects. */
#define SHMPI_HEAP_MIN_ALIGN 64

struct shmpi_heap_block {
    size_t off, size;
    bool used;
    struct shmpi_heap_block *prev, *next; /* offset order */
    struct shmpi_heap_block *hash_next;   /* used blocks: bucket chain */
};

struct shmpi_heap {
    size_t size;                    /* bytes managed */
    size_t used_bytes;              /* bytes in used blocks */
    size_t n_used;                  /* used blocks */
    struct shmpi_heap_block *head;  /* block at offset 0 */
    struct shmpi_heap_block **buckets;
    size_t n_buckets;               /* power of two */
};

/* Returns 0, or -1 if out of memory (of the process, not of the heap). */
int shmpi_heap_init(struct shmpi_heap *heap, size_t size);
void shmpi_heap_destroy(struct shmpi_heap *heap);
/* Allocates `size` bytes (0 is treated as 1) aligned to `align` (a power of
 * two; smaller values are raised to SHMPI_HEAP_MIN_ALIGN).  Returns 0 and
 * sets *off, or -1 if the heap has no room. */
int shmpi_heap_alloc(struct shmpi_heap *heap, size_t size, size_t align, size_t *off);
/* Frees the block that starts at `off`; -1 if no used block starts there. */
int shmpi_heap_free(struct shmpi_heap *heap, size_t off);
/* Size of the used block starting at `off`, or 0 if there is none. */
size_t shmpi_heap_block_size(const struct shmpi_heap *heap, size_t off);
/* Resizes the used block at `off`.  Grows or shrinks in place when it can
 * (*new_off == off); otherwise allocates a new block and leaves the old one
 * allocated, so the caller can copy the data and then free `off`.  Returns
 * -1 (nothing changed) if `off` is not a used block or there is no room. */
int shmpi_heap_realloc(struct shmpi_heap *heap, size_t off, size_t size, size_t *new_off);
/* Largest block that an allocation with minimum alignment could get now. */
size_t shmpi_heap_largest_free(const struct shmpi_heap *heap);
/* Where the free space at the end of the heap starts: the end of the last
 * used block, 0 when none is used.  A larger heap made by the same calls
 * has the same blocks, and its extra room starts there. */
size_t shmpi_heap_top(const struct shmpi_heap *heap);

#endif /* SHMPI_HEAP_ALLOC_H */
