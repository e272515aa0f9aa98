/*
 * mem.c - memory management routines (spec: Memory Management Routines).
 */
#define SHMPI_DEFINES_mem SHMPI_HERE /* weak shmem_ names of this chapter here */
#include "shmpi.h"
#include "barrier.h"
#include "heap.h"


void *shmem_malloc(size_t size)
{
    return shmpi_malloc(__func__, size, SHMPI_ANY_ALIGN, false);
}

void *shmem_malloc_with_hints(size_t size, long hints)
{
    (void)hints; /* every heap block is equally fast for every use */
    return shmpi_malloc(__func__, size, SHMPI_ANY_ALIGN, false);
}

void *shmem_calloc(size_t count, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes)) {
        /* More than memory can hold: NULL (spec), after the barrier every
         * allocation has. */
        shmpi_check_ready(__func__);
        if (shmpi_g.my_pe == 0)
            shmpi_warn(__func__, "count %zu times size %zu overflows size_t; returning NULL",
                       count, size);
        shmpi_barrier_all(__func__);
        return NULL;
    }
    return shmpi_malloc(__func__, bytes, SHMPI_ANY_ALIGN, true);
}

void *shmem_align(size_t alignment, size_t size)
{
    return shmpi_malloc(__func__, size, alignment, false);
}

void *shmem_realloc(void *ptr, size_t size)
{
    return shmpi_realloc(__func__, ptr, size);
}

void shmem_free(void *ptr)
{
    shmpi_free(__func__, ptr);
}

void *shmalloc(size_t size)
{
    return shmpi_malloc(__func__, size, SHMPI_ANY_ALIGN, false);
}

void shfree(void *ptr)
{
    shmpi_free(__func__, ptr);
}

void *shrealloc(void *ptr, size_t size)
{
    return shmpi_realloc(__func__, ptr, size);
}

void *shmemalign(size_t alignment, size_t size)
{
    return shmpi_malloc(__func__, size, alignment, false);
}
