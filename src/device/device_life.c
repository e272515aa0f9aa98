/*
 * device_life.c - the top floor of src/device (src/LAYERS): brings the
 * floors below up at the device heap's start (memory, then the peers'
 * mappings and the network path, then the streams) and down at finalize in
 * the reverse order, so that no lower floor calls a higher one.
 */
#include "shmpi.h"
#include "cuda_driver.h"
#include "device_heap.h"
#include "device_life.h"
#include "device_net.h"
#include "device_reach.h"
#include "device_word.h"
#include "proxy.h"
#include "stream.h"

#include <pthread.h>

void shmpi_device_heap_init(void)
{
    shmpi_device_memory_init();
    if (shmpi_g.env.device_heap_size)
        shmpi_device_heap_start("shmem_init", -1, shmpi_g.env.device_heap_size);
}

void shmpi_device_heap_start(const char *routine, int ordinal, size_t size)
{
    char *base = shmpi_device_memory_start(routine, ordinal, size);
    shmpi_device_net_init(routine, shmpi_device_map_heap(routine, base, size));
    shmpi_device_memory_open(routine, base, size);
    shmpi_stream_init(routine);
}

static void (*fini_hooks[SHMPI_DEVICE_FINI_HOOKS])(void);
static pthread_mutex_t fini_hooks_lock = PTHREAD_MUTEX_INITIALIZER;

void shmpi_device_at_fini(void (*release)(void))
{
    pthread_mutex_lock(&fini_hooks_lock);
    int k = 0;
    while (k < SHMPI_DEVICE_FINI_HOOKS && fini_hooks[k] && fini_hooks[k] != release)
        k++;
    if (k == SHMPI_DEVICE_FINI_HOOKS)
        shmpi_abort("shmem_finalize", "internal error: more than %d device fini hooks",
                    SHMPI_DEVICE_FINI_HOOKS);
    fini_hooks[k] = release;
    pthread_mutex_unlock(&fini_hooks_lock);
}

void shmpi_device_heap_fini(void)
{
    const char *routine = "shmem_finalize";
    if (!shmpi_device.size)
        return;
    shmpi_device_enter(routine);
    shmpi_device_sync_context(routine); /* shmpi's copies, and the streams' work, staging included */
    for (int k = 0; k < SHMPI_DEVICE_FINI_HOOKS && fini_hooks[k]; k++) {
        fini_hooks[k]();
        fini_hooks[k] = NULL;
    }
    shmpi_proxy_fini();    /* its thread serves the network: stopped before it goes */
    shmpi_device_net_fini();
    while (shmpi_device.ranges)
        shmpi_device_unregister(routine, shmpi_device.ranges->base);
    shmpi_stream_fini();
    shmpi_device_word_fini();
    shmpi_device_unmap_heap(routine);
    shmpi_device_memory_stop(routine);
}
