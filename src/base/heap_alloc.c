/*
 * heap_alloc.c - first-fit allocator over offsets (see heap_alloc.h).
 */
#include "heap_alloc.h"

#include <stdint.h>
#include <stdlib.h>

static size_t round_up(size_t value, size_t align)
{
    return (value + align - 1) & ~(align - 1);
}

static size_t bucket_of(const struct shmpi_heap *heap, size_t off)
{
    /* Offsets are multiples of 64: drop those bits, then mix. */
    uint64_t key = (uint64_t)(off / SHMPI_HEAP_MIN_ALIGN) * 0x9E3779B97F4A7C15ull;
    return (size_t)(key >> 32) & (heap->n_buckets - 1);
}

static void hash_insert(struct shmpi_heap *heap, struct shmpi_heap_block *block)
{
    size_t b = bucket_of(heap, block->off);
    block->hash_next = heap->buckets[b];
    heap->buckets[b] = block;
}

static struct shmpi_heap_block *hash_find(const struct shmpi_heap *heap, size_t off)
{
    for (struct shmpi_heap_block *p = heap->buckets[bucket_of(heap, off)]; p; p = p->hash_next)
        if (p->off == off)
            return p;
    return NULL;
}

static void hash_remove(struct shmpi_heap *heap, struct shmpi_heap_block *block)
{
    struct shmpi_heap_block **link = &heap->buckets[bucket_of(heap, block->off)];
    while (*link != block)
        link = &(*link)->hash_next;
    *link = block->hash_next;
}

/* Keeps lookups O(1) on average as the number of live blocks grows. */
static int hash_grow_if_full(struct shmpi_heap *heap)
{
    if (heap->n_used < heap->n_buckets)
        return 0;
    size_t old_n = heap->n_buckets;
    struct shmpi_heap_block **old = heap->buckets;
    struct shmpi_heap_block **fresh = calloc(old_n * 2, sizeof(*fresh));
    if (!fresh)
        return -1;
    heap->buckets = fresh;
    heap->n_buckets = old_n * 2;
    for (size_t b = 0; b < old_n; b++) {
        struct shmpi_heap_block *p = old[b];
        while (p) {
            struct shmpi_heap_block *next = p->hash_next;
            hash_insert(heap, p);
            p = next;
        }
    }
    free(old);
    return 0;
}

int shmpi_heap_init(struct shmpi_heap *heap, size_t size)
{
    heap->size = size;
    heap->used_bytes = 0;
    heap->n_used = 0;
    heap->n_buckets = 64;
    heap->buckets = calloc(heap->n_buckets, sizeof(*heap->buckets));
    heap->head = calloc(1, sizeof(*heap->head));
    if (!heap->buckets || !heap->head) {
        free(heap->buckets);
        free(heap->head);
        heap->buckets = NULL;
        heap->head = NULL;
        return -1;
    }
    heap->head->size = size;
    return 0;
}

void shmpi_heap_destroy(struct shmpi_heap *heap)
{
    struct shmpi_heap_block *p = heap->head;
    while (p) {
        struct shmpi_heap_block *next = p->next;
        free(p);
        p = next;
    }
    free(heap->buckets);
    heap->head = NULL;
    heap->buckets = NULL;
}

/* Splits `block` so that a new block starts at block->off + keep; the new
 * block gets the rest and the same state.  Returns it, or NULL on ENOMEM. */
static struct shmpi_heap_block *split(struct shmpi_heap_block *block, size_t keep)
{
    struct shmpi_heap_block *rest = calloc(1, sizeof(*rest));
    if (!rest)
        return NULL;
    rest->off = block->off + keep;
    rest->size = block->size - keep;
    rest->used = block->used;
    rest->prev = block;
    rest->next = block->next;
    if (block->next)
        block->next->prev = rest;
    block->next = rest;
    block->size = keep;
    return rest;
}

/* Merges `block` with its successor (both free). */
static void merge_next(struct shmpi_heap_block *block)
{
    struct shmpi_heap_block *next = block->next;
    block->size += next->size;
    block->next = next->next;
    if (next->next)
        next->next->prev = block;
    free(next);
}

static void mark_used(struct shmpi_heap *heap, struct shmpi_heap_block *block)
{
    block->used = true;
    heap->used_bytes += block->size;
    heap->n_used++;
    hash_insert(heap, block);
}

int shmpi_heap_alloc(struct shmpi_heap *heap, size_t size, size_t align, size_t *off)
{
    if (align & (align - 1))
        return -1;
    if (align < SHMPI_HEAP_MIN_ALIGN)
        align = SHMPI_HEAP_MIN_ALIGN;
    if (size == 0)
        size = 1;
    if (size > heap->size)
        return -1;
    size = round_up(size, SHMPI_HEAP_MIN_ALIGN);
    if (hash_grow_if_full(heap))
        return -1;
    for (struct shmpi_heap_block *p = heap->head; p; p = p->next) {
        if (p->used)
            continue;
        size_t start = round_up(p->off, align);
        size_t pad = start - p->off;
        if (pad >= p->size || p->size - pad < size)
            continue;
        struct shmpi_heap_block *block = p;
        if (pad) { /* the padding stays a free block of its own */
            block = split(p, pad);
            if (!block)
                return -1;
        }
        if (block->size > size && !split(block, size))
            return -1;
        mark_used(heap, block);
        *off = block->off;
        return 0;
    }
    return -1;
}

int shmpi_heap_free(struct shmpi_heap *heap, size_t off)
{
    struct shmpi_heap_block *block = hash_find(heap, off);
    if (!block)
        return -1;
    hash_remove(heap, block);
    block->used = false;
    heap->used_bytes -= block->size;
    heap->n_used--;
    if (block->next && !block->next->used)
        merge_next(block);
    if (block->prev && !block->prev->used)
        merge_next(block->prev);
    return 0;
}

size_t shmpi_heap_block_size(const struct shmpi_heap *heap, size_t off)
{
    const struct shmpi_heap_block *block = hash_find(heap, off);
    return block ? block->size : 0;
}

int shmpi_heap_realloc(struct shmpi_heap *heap, size_t off, size_t size, size_t *new_off)
{
    struct shmpi_heap_block *block = hash_find(heap, off);
    if (!block || size > heap->size)
        return -1;
    if (size == 0)
        size = 1;
    size = round_up(size, SHMPI_HEAP_MIN_ALIGN);
    if (size <= block->size) { /* shrink in place, give the tail back */
        if (size < block->size) {
            struct shmpi_heap_block *tail = split(block, size);
            if (!tail)
                return -1;
            heap->used_bytes -= tail->size;
            tail->used = false;
            if (tail->next && !tail->next->used)
                merge_next(tail);
        }
        *new_off = off;
        return 0;
    }
    struct shmpi_heap_block *next = block->next;
    if (next && !next->used && block->size + next->size >= size) { /* grow in place */
        size_t extra = size - block->size;
        if (next->size > extra && !split(next, extra))
            return -1;
        heap->used_bytes += next->size;
        merge_next(block);
        *new_off = off;
        return 0;
    }
    return shmpi_heap_alloc(heap, size, SHMPI_HEAP_MIN_ALIGN, new_off);
}

size_t shmpi_heap_largest_free(const struct shmpi_heap *heap)
{
    size_t best = 0;
    for (const struct shmpi_heap_block *p = heap->head; p; p = p->next)
        if (!p->used && p->size > best)
            best = p->size;
    return best;
}

size_t shmpi_heap_top(const struct shmpi_heap *heap)
{
    const struct shmpi_heap_block *last = heap->head;
    while (last && last->next)
        last = last->next;
    return !last ? 0 : last->used ? last->off + last->size : last->off;
}
