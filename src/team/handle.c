/*
 * handle.c - the slabs behind team and context handles (handle.h says why
 * they are never returned to the system).
 */
#include "handle.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A free slot's link field (a struct pointer, unused while it is free)
 * points at the next free slot. */
static char *free_next(const struct shmpi_handle_pool *p, const char *obj)
{
    char *next;
    memcpy(&next, obj + p->link, sizeof(next));
    return next;
}

static void set_free_next(const struct shmpi_handle_pool *p, char *obj, char *next)
{
    memcpy(obj + p->link, &next, sizeof(next));
}

/* Appends a slot to the free list; p->lock held. */
static void put_locked(struct shmpi_handle_pool *p, char *obj)
{
    set_free_next(p, obj, NULL);
    if (p->free_tail)
        set_free_next(p, p->free_tail, obj);
    else
        p->free_head = obj;
    p->free_tail = obj;
}

void shmpi_handle_free(struct shmpi_handle_pool *p, void *obj)
{
    pthread_mutex_lock(&p->lock);
    put_locked(p, obj);
    pthread_mutex_unlock(&p->lock);
}

void *shmpi_handle_new(struct shmpi_handle_pool *p)
{
    pthread_mutex_lock(&p->lock);
    if (!p->free_head) {
        int n = atomic_load_explicit(&p->n_slabs, memory_order_relaxed);
        size_t count = (size_t)SHMPI_SLAB_FIRST << n;
        char *slab = n < SHMPI_SLAB_MAX ? calloc(count, p->slot) : NULL;
        if (!slab) {
            pthread_mutex_unlock(&p->lock);
            return NULL;
        }
        for (size_t i = 0; i < count; i++)
            put_locked(p, slab + i * p->slot);
        p->slab[n] = slab;
        atomic_store_explicit(&p->n_slabs, n + 1, memory_order_release);
    }
    char *obj = p->free_head;
    p->free_head = free_next(p, obj);
    if (!p->free_head)
        p->free_tail = NULL;
    pthread_mutex_unlock(&p->lock);
    memset(obj, 0, p->slot);
    return obj;
}

bool shmpi_handle_known(const struct shmpi_handle_pool *p, const void *handle)
{
    uintptr_t a = (uintptr_t)handle;
    int n = atomic_load_explicit(&p->n_slabs, memory_order_acquire);
    for (int i = 0; i < n; i++) {
        uintptr_t off = a - (uintptr_t)p->slab[i]; /* wraps if below the slab */
        if (off < ((size_t)SHMPI_SLAB_FIRST << i) * p->slot)
            return off % p->slot == 0;
    }
    return false;
}
