/*
 * device.c - the device-heap extensions of shmemx.h (shmemx_device_*).
 * The work is in src/device/device_heap.c.
 */
#include "device_heap.h"
#include "barrier.h"

int shmemx_device_heap_available(void)
{
    shmpi_check_ready(__func__);
    return shmpi_device.size > 0;
}

void *shmemx_device_malloc(size_t size)
{
    return shmpi_device_malloc(__func__, size, false, shmpi_barrier_all);
}

void *shmemx_device_calloc(size_t count, size_t size)
{
    return shmpi_device_malloc(__func__, shmpi_bytes(__func__, count, size), true,
                               shmpi_barrier_all);
}

void shmemx_device_free(void *ptr)
{
    shmpi_device_free(__func__, ptr, shmpi_barrier_all);
}
