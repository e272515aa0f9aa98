/*
 * mem.c - memory management routines (spec: Memory Management Routines).
 */
#define SHMPI_DEFINES_mem SHMPI_HERE /* weak shmem_ names of this chapter here */
#include "../core/shmpi.h"


void *shmem_malloc(size_t size)
{
    return shmpi_malloc(__func__, size, 0, false);
}

void *shmem_malloc_with_hints(size_t size, long hints)
{
    (void)hints; /* every heap block is equally fast for every use */
    return shmpi_malloc(__func__, size, 0, false);
}

void *shmem_calloc(size_t count, size_t size)
{
    size_t bytes = shmpi_bytes(__func__, count, size);
    return shmpi_malloc(__func__, bytes, 0, true);
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
    return shmpi_malloc(__func__, size, 0, false);
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
