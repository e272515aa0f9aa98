/*
 * device.c - the device-heap extensions of shmemx.h (shmemx_device_*).
 * The work is in src/device/device_heap.c.
 */
#include "barrier.h"
#include "device_heap.h"
#include "device_life.h"
#include "device_reach.h"

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

int shmemx_device_init(int device, size_t heap_size)
{
    shmpi_check_ready(__func__);
    if (shmpi_device.size)
        return 0;
    if (device < -1)
        shmpi_abort(__func__, "device %d is not a GPU ordinal (or -1 for the current one)",
                    device);
    size_t size = heap_size ? heap_size : shmpi_g.env.device_heap_size;
    shmpi_device_heap_start(__func__, device, size ? size : (size_t)1 << 30);
    shmpi_barrier_all(__func__); /* no PE reaches a peer's heap before it exists */
    return 0;
}

int shmemx_device_ordinal(void)
{
    shmpi_check_ready(__func__);
    return shmpi_device.size ? shmpi_device.ordinal : -1;
}

int shmemx_device_register(void *ptr, size_t size)
{
    return shmpi_device_register(__func__, ptr, size);
}

int shmemx_device_unregister(void *ptr)
{
    return shmpi_device_unregister(__func__, ptr);
}
