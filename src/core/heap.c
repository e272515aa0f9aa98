/*
 * heap.c - the collective side of the symmetric heap (heap.h): barriers, the
 * SHMEM_DEBUG consistency checks, and the messages for misuse.  The
 * bookkeeping itself is heap_alloc.c.
 */
#include "shmpi.h"
#include "heap.h"

#include <stdio.h>
#include <string.h>

void shmpi_heap_setup(void)
{
    struct shmpi_segment *seg = &shmpi_g.seg[SHMPI_SEG_HEAP];
    size_t reserved_off;
    if (shmpi_heap_init(&shmpi_g.heap, seg->size) ||
        shmpi_heap_alloc(&shmpi_g.heap, SHMPI_HEAP_RESERVED, _Alignof(struct shmpi_reserved),
                         &reserved_off))
        shmpi_abort("shmem_init", "out of memory for the heap's bookkeeping");
    /* Only the teams' counters and the barriers' round flags start at zero
     * here (the node leader sets up the rest of the node barrier,
     * barrier.c); scratch is written before it is read, so its pages (most
     * of the block) are not touched until a team uses them. */
    struct shmpi_reserved *reserved = (struct shmpi_reserved *)(seg->base + reserved_off);
    for (int slot = 0; slot < SHMPI_TEAM_SLOTS; slot++) {
        atomic_init(&reserved->team[slot].seq, 0);
        for (int k = 0; k < SHMPI_BARRIER_ROUNDS; k++)
            atomic_init(&reserved->team[slot].round[k].event, 0);
    }
    for (int k = 0; k < SHMPI_BARRIER_ROUNDS; k++)
        atomic_init(&reserved->node_barrier.round[k].event, 0);
    /* shmem_align can honour, symmetrically, any alignment that every PE's
     * heap base has: the lowest set bit of the OR of all bases (from the start-up
     * cards; window.c aligns each base to the largest power of two not above the heap
     * size). */
    uint64_t all_bits = 0;
    for (int pe = 0; pe < shmpi_g.n_pes; pe++)
        all_bits |= shmpi_shape.cards[pe].seg_base[SHMPI_SEG_HEAP];
    size_t align = all_bits ? (size_t)(all_bits & -all_bits) : (size_t)1 << 62;
    while (align > seg->size)
        align /= 2; /* no larger block fits anyway */
    shmpi_g.heap_align = align;
    shmpi_g.heap_reserved_off = reserved_off;
}

/* Under SHMEM_DEBUG: every PE must pass the same arguments. */
static void check_same_everywhere(const char *routine, const char *what, unsigned long value)
{
    if (!shmpi_g.env.debug)
        return;
    if (!shmpi_same_on_all_pes(value))
        shmpi_abort(routine,
                    "%s is %lu here but differs on another PE (it must be the same on "
                    "every PE)",
                    what, value);
}

static void *heap_addr(size_t off)
{
    return shmpi_g.seg[SHMPI_SEG_HEAP].base + off;
}

/* Sizes in the unit a person reads best: "268435456 bytes" is "256 MiB". */
static void human_size(char *text, size_t len, size_t bytes)
{
    if (bytes >= ((size_t)10 << 20))
        snprintf(text, len, "%zu MiB", bytes >> 20);
    else if (bytes >= ((size_t)10 << 10))
        snprintf(text, len, "%zu KiB", bytes >> 10);
    else
        snprintf(text, len, "%zu bytes", bytes);
}

/* A full heap: NULL is the spec's answer, but programs that do not check
 * for it crash later with no word about the heap.  So each PE says once per
 * routine what was asked, what is free and what to change (the routine's
 * name is its __func__ string: one pointer per routine); SHMEM_DEBUG adds
 * the fragmentation (largest free block) from PE 0. */
static void explain_full(const char *routine, size_t size)
{
    static const char *told[16];
    bool first = true;
    for (size_t i = 0; i < sizeof told / sizeof *told; i++) {
        if (told[i] == routine) {
            first = false;
            break;
        }
        if (!told[i]) {
            told[i] = routine;
            break;
        }
    }
    if (first) {
        char free_text[32], heap_text[32];
        human_size(free_text, sizeof free_text, shmpi_g.heap.size - shmpi_g.heap.used_bytes);
        human_size(heap_text, sizeof heap_text, shmpi_g.env.symmetric_size);
        shmpi_warn(routine,
                   "%zu bytes requested, %s of the %s symmetric heap free; returning NULL "
                   "(raise SHMEM_SYMMETRIC_SIZE)",
                   size, free_text, heap_text);
    }
    if (shmpi_g.env.debug && shmpi_g.my_pe == 0)
        shmpi_warn(routine,
                   "cannot allocate %zu bytes: the symmetric heap is %zu bytes per PE, %zu "
                   "in use, largest free block %zu; set SHMEM_SYMMETRIC_SIZE larger (e.g. "
                   "SHMEM_SYMMETRIC_SIZE=%zum)",
                   size, shmpi_g.heap.size, shmpi_g.heap.used_bytes,
                   shmpi_heap_largest_free(&shmpi_g.heap),
                   /* in MiB first: a huge size must not wrap around */
                   ((shmpi_g.heap.size >> 20) + (size >> 20) + 1) * 2 + 1);
}

static void refuse_align(const char *routine, size_t align, const char *what)
{
    if (shmpi_g.my_pe == 0)
        shmpi_warn(routine,
                   "alignment %zu %s (powers of two up to %zu work); returning NULL", align,
                   what, shmpi_g.heap_align);
}

void *shmpi_malloc(const char *routine, size_t size, size_t align, bool zero)
{
    shmpi_check_ready(routine);
    check_same_everywhere(routine, "size", size);
    check_same_everywhere(routine, "alignment", align);
    if (size == 0)
        return NULL; /* no action, so no barrier (spec) */
    size_t off;
    void *ptr = NULL;
    /* An alignment that is not a power of two, or larger than the heap,
     * cannot be given: NULL, as for a heap without room, on every PE. */
    if (align == 0 || (align & (align - 1)))
        refuse_align(routine, align, "is not a power of two");
    else if (align > shmpi_g.heap_align)
        refuse_align(routine, align,
                     align > shmpi_g.seg[SHMPI_SEG_HEAP].size
                         ? "is larger than the symmetric heap"
                         : "is larger than the alignment every PE's heap base has");
    else if (shmpi_heap_alloc(&shmpi_g.heap, size, align, &off) == 0) {
        ptr = heap_addr(off);
        if (zero) /* before the barrier: no PE may write into it earlier */
            memset(ptr, 0, size);
    } else
        explain_full(routine, size);
    shmpi_barrier_all(routine);
    return ptr;
}

static bool is_block(const void *ptr, size_t *off)
{
    const struct shmpi_segment *seg = &shmpi_g.seg[SHMPI_SEG_HEAP];
    *off = (uintptr_t)ptr - (uintptr_t)seg->base;
    return *off < seg->size && shmpi_heap_block_size(&shmpi_g.heap, *off) != 0;
}

/* Offset of a pointer that must be the start of a live block. */
static size_t block_offset(const char *routine, const void *ptr)
{
    size_t off;
    if (!is_block(ptr, &off))
        shmpi_abort(routine,
                    "pointer %p was not returned by shmem_malloc/shmem_align/shmem_realloc "
                    "(or was already freed)",
                    ptr);
    return off;
}

void shmpi_free(const char *routine, void *ptr)
{
    shmpi_check_ready(routine);
    if (!ptr)
        return;
    size_t off = block_offset(routine, ptr);
    check_same_everywhere(routine, "the heap offset of ptr", off);
    shmpi_barrier_all(routine);
    shmpi_heap_free(&shmpi_g.heap, off);
}

void *shmpi_realloc(const char *routine, void *ptr, size_t size)
{
    shmpi_check_ready(routine);
    if (!ptr)
        return shmpi_malloc(routine, size, SHMPI_ANY_ALIGN, false);
    if (size == 0) {
        shmpi_free(routine, ptr);
        return NULL;
    }
    /* A pointer that is no block (often one already freed: an established
     * verification suite reallocates those and expects NULL) gets NULL and
     * a line, with the same barriers as a real reallocation so that PEs
     * that disagree do not hang. */
    size_t off;
    if (!is_block(ptr, &off)) {
        shmpi_warn(routine,
                   "pointer %p was not returned by shmem_malloc/shmem_align/shmem_realloc (or "
                   "was already freed); returning NULL",
                   ptr);
        shmpi_barrier_all(routine);
        shmpi_barrier_all(routine);
        return NULL;
    }
    size_t old_size = shmpi_heap_block_size(&shmpi_g.heap, off);
    check_same_everywhere(routine, "size", size);
    shmpi_barrier_all(routine); /* nobody may still be using the old block */
    size_t new_off;
    void *result = NULL;
    if (shmpi_heap_realloc(&shmpi_g.heap, off, size, &new_off) == 0) {
        result = heap_addr(new_off);
        if (new_off != off) {
            memcpy(result, ptr, old_size < size ? old_size : size);
            shmpi_heap_free(&shmpi_g.heap, off);
        }
    } else {
        explain_full(routine, size);
    }
    shmpi_barrier_all(routine);
    return result;
}
