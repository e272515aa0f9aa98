/*
 * heap.c - the collective side of the symmetric heap (heap.h): barriers, the
 * SHMEM_DEBUG consistency checks, and the messages for misuse.  The
 * bookkeeping itself is heap_alloc.c.
 */
#include "shmpi.h"
#include "heap.h"
#include "barrier.h"
#include "env.h"
#include "heap_alloc.h"
#include "progress.h"
#include "shape.h"
#include "status.h"

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

/* Sizes in the unit a person reads best: 268435456 bytes is "256 MiB",
 * 2097152 "2.0 MiB" (one decimal below 10 of a unit). */
static void human_size(char *text, size_t len, size_t bytes)
{
    static const char *const unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = (double)bytes;
    int u = 0;
    while (value >= 1024 && u < 6) {
        value /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(text, len, "%zu bytes", bytes);
    else
        snprintf(text, len, value < 10 ? "%.1f %s" : "%.0f %s", value, unit[u]);
}

/* The SHMEM_SYMMETRIC_SIZE that would have served a request of `size`
 * bytes aligned to `align`, in MiB rounded up: the same calls on a larger
 * heap give the same blocks, so the request goes after the last used one
 * (or extends block `grow_off` in place when that is the last); 0 when no
 * size_t can say it. */
static size_t heap_needed_mib(size_t size, size_t align, size_t grow_off)
{
    const struct shmpi_heap *heap = &shmpi_g.heap;
    size_t top = shmpi_heap_top(heap);
    if (align < SHMPI_HEAP_MIN_ALIGN)
        align = SHMPI_HEAP_MIN_ALIGN;
    size_t start = (top + align - 1) & ~(align - 1);
    size_t grown = shmpi_heap_block_size(heap, grow_off);
    if (grown && grow_off + grown == top)
        start = grow_off;
    size_t mib = (size_t)1 << 20, rounded = (size + SHMPI_HEAP_MIN_ALIGN - 1) & ~(size_t)63;
    if (rounded < size || rounded > SIZE_MAX - start)
        return 0;
    size_t need = start + rounded - SHMPI_HEAP_RESERVED; /* the heap is that much larger */
    return need / mib + (need % mib != 0);
}

/* A full heap: NULL is the spec's answer, but programs that do not check
 * for it crash later with no word about the heap.  So each PE that fails
 * says once per routine what was asked, what the heap holds and the size
 * that would have served it (the routine's name is its __func__ string: one
 * pointer per routine); under SHMEM_DEBUG every failure says so, with the
 * largest free block (fragmentation). */
static void explain_full(const char *routine, size_t size, size_t align, size_t grow_off)
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
    if (!first && !shmpi_g.env.debug)
        return;
    const struct shmpi_heap *heap = &shmpi_g.heap;
    size_t reserved = shmpi_heap_block_size(heap, shmpi_g.heap_reserved_off);
    char want[32], heap_text[32], used[32], free_text[32], largest[64] = "";
    human_size(want, sizeof want, size);
    human_size(heap_text, sizeof heap_text, shmpi_g.env.symmetric_size);
    human_size(used, sizeof used, heap->used_bytes - reserved);
    human_size(free_text, sizeof free_text, heap->size - heap->used_bytes);
    if (shmpi_g.env.debug) {
        char text[32];
        human_size(text, sizeof text, shmpi_heap_largest_free(heap));
        snprintf(largest, sizeof largest, " (largest free block %s)", text);
    }
    char advice[160];
    size_t mib = heap_needed_mib(size, align, grow_off), memory = shmpi_machine_memory();
    if (mib == 0 || (memory && mib > memory >> 20))
        snprintf(advice, sizeof advice,
                 "No SHMEM_SYMMETRIC_SIZE can serve it on this machine (%zu MiB of memory).",
                 memory >> 20);
    else
        snprintf(advice, sizeof advice, "SHMEM_SYMMETRIC_SIZE=%zum or more would serve it.", mib);
    shmpi_warn(routine,
               "%zu bytes (%s) requested; the symmetric heap of %s has %s in use and %s free%s, "
               "so this returns NULL. %s",
               size, want, heap_text, used, free_text, largest, advice);
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
        explain_full(routine, size, align, SIZE_MAX);
    shmpi_status_heap_changed();
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
    shmpi_status_heap_changed();
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
        explain_full(routine, size, SHMPI_HEAP_MIN_ALIGN, off);
    }
    shmpi_status_heap_changed();
    shmpi_barrier_all(routine);
    return result;
}
