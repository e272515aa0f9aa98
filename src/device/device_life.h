/*
 * device_life.h - the top floor of src/device (src/LAYERS): the device
 * heap's start and finalize, which bring the floors below up and down in
 * order (device_life.c).
 */
#ifndef SHMPI_DEVICE_LIFE_H
#define SHMPI_DEVICE_LIFE_H

#include "device_heap.h"

/* Start-up and finalize (runtime.c); nothing happens without
 * SHMPI_DEVICE_HEAP_SIZE. */
void shmpi_device_heap_init(void);
void shmpi_device_heap_fini(void);
/* Registers `release`, which shmpi_device_heap_fini calls once the device's
 * work is done, with the heap's context current, before the heap goes: how
 * a layer above frees what it made in that context (its kernels' modules).
 * Each at most once per device heap; SHMPI_DEVICE_FINI_HOOKS of them. */
#define SHMPI_DEVICE_FINI_HOOKS 4
void shmpi_device_at_fini(void (*release)(void));
/* Starts the device heap (collective): on GPU `ordinal` (-1: the current
 * context, else the PE's index on its machine modulo the GPUs), `size`
 * bytes.  shmem_init does it with SHMPI_DEVICE_HEAP_SIZE; shmemx_device_init
 * later. */
void shmpi_device_heap_start(const char *routine, int ordinal, size_t size);

#endif /* SHMPI_DEVICE_LIFE_H */
