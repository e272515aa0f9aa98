/*
 * handle.h - storage for the structs behind team and context handles
 * (handle.c), so that any handle a program passes can be checked without
 * reading freed or unmapped memory.
 *
 * A team or context handle is the address of its struct, and a program may
 * pass one it destroyed, or any other value.  The structs live in slabs
 * that stay allocated until the process ends: a handle is accepted only if
 * it points at the start of a slot of one of those slabs (checked without a
 * lock, in a few instructions) and the slot holds a live struct (its magic;
 * a freed slot has magic 0).  Freed slots are reused oldest first, so a
 * destroyed handle keeps being recognized as such for as long as possible.
 */
#ifndef SHMPI_HANDLE_H
#define SHMPI_HANDLE_H

#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/* Slab i holds SHMPI_SLAB_FIRST << i slots. */
#define SHMPI_SLAB_FIRST 16
#define SHMPI_SLAB_MAX 24

/* The slots of one kind of struct.  Slabs and the free list change under
 * `lock`; n_slabs is read without it. */
struct shmpi_handle_pool {
    size_t slot;              /* bytes per slot */
    size_t link;              /* offset of a pointer field that links free slots */
    pthread_mutex_t lock;
    atomic_int n_slabs;
    char *slab[SHMPI_SLAB_MAX]; /* each written once, before n_slabs counts it */
    char *free_head, *free_tail;
};
/* The pool of TYPE, whose pointer field LINK (unused while the slot is
 * free) links the free slots. */
#define SHMPI_HANDLE_POOL(TYPE, LINK)                                                      \
    {                                                                                      \
        .slot = (sizeof(TYPE) + alignof(max_align_t) - 1) / alignof(max_align_t) *         \
                alignof(max_align_t),                                                      \
        .link = offsetof(TYPE, LINK), .lock = PTHREAD_MUTEX_INITIALIZER                    \
    }

/* A zeroed slot, NULL if memory is exhausted. */
void *shmpi_handle_new(struct shmpi_handle_pool *p);
/* Returns a slot to the pool; the caller has set its magic to 0. */
void shmpi_handle_free(struct shmpi_handle_pool *p, void *obj);
/* Whether `handle` is the address of a slot of `p`, live or freed (no lock). */
bool shmpi_handle_known(const struct shmpi_handle_pool *p, const void *handle);

#endif /* SHMPI_HANDLE_H */
