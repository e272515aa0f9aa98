/*
 * rma.h - the RMA core (rma.c): every typed put/get routine lands here;
 * quiet.  It includes what an operation needs below it: the contexts and
 * teams, the address translation, completion and waiting.
 */
#ifndef SHMPI_RMA_H
#define SHMPI_RMA_H

#include "shmpi.h"
#include "ctx.h"
#include "team.h"
#include "window.h"
#include "flush.h"
#include "progress.h"
#include "device_heap.h"

void shmpi_put(const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
               size_t nbytes, int pe, enum shmpi_completion completion);
void shmpi_get(const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
               size_t nbytes, int pe, enum shmpi_completion completion);
/* Strided: nblocks blocks of bsize elements (elem_size bytes each); block
 * k goes from source + k*sst elements to dest + k*dst elements.  iput and
 * iget pass bsize 1. */
void shmpi_iput(const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
                ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, size_t elem_size,
                int pe);
void shmpi_iget(const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
                ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, size_t elem_size,
                int pe);
/* Completes every operation of the context (quiet); fence only orders
 * them, which shmpi does by completing them. */
void shmpi_quiet(struct shmpi_ctx *ctx);
/* Completes the context's operations to the listed PEs (team-relative). */
void shmpi_pe_quiet(const char *routine, struct shmpi_ctx *ctx, const int *target_pes,
                    size_t npes);
/* Completes the operations of every context (barrier_all, finalize). */
void shmpi_quiet_all(void);

#endif /* SHMPI_RMA_H */
