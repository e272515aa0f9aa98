/*
 * order.c - memory ordering routines (spec: Memory Ordering Routines).
 *
 * MPI does not order puts to one target, so fence completes what it must
 * order: it is quiet, and the two share one body.  (Both complete the
 * deferred AMOs, order the stores made to mapped peers, and cost one
 * MPI_Win_flush_all only when an MPI operation is outstanding.)
 */
#define SHMPI_DEFINES_order SHMPI_HERE /* weak shmem_ names of this chapter here */
#include "shmpi.h"
#include "ctx.h"
#include "rma.h"

/* The body of quiet and fence: shmpi completes in both. */
static void complete(const char *routine, shmem_ctx_t ctx)
{
    shmpi_check_ready(routine);
    if (ctx == SHMEM_CTX_INVALID) /* no operations can be pending on it */
        return;
    shmpi_quiet(shmpi_ctx_of(routine, ctx));
}

void shmem_ctx_quiet(shmem_ctx_t ctx)
{
    complete(__func__, ctx);
}

void shmem_quiet(void)
{
    complete(__func__, SHMEM_CTX_DEFAULT);
}

void shmem_ctx_fence(shmem_ctx_t ctx)
{
    complete(__func__, ctx);
}

void shmem_fence(void)
{
    complete(__func__, SHMEM_CTX_DEFAULT);
}

void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes)
{
    shmpi_check_ready(__func__);
    if (ctx == SHMEM_CTX_INVALID) /* no operations can be pending on it */
        return;
    shmpi_pe_quiet(__func__, shmpi_ctx_get(__func__, ctx), target_pes, npes);
}

void shmem_pe_quiet(const int *target_pes, size_t npes)
{
    shmpi_check_ready(__func__);
    shmpi_pe_quiet(__func__, &shmpi_g.ctx_default, target_pes, npes);
}
