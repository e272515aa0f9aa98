/*
 * order.c - memory ordering routines (spec: Memory Ordering Routines) and
 * communication sessions.
 *
 * MPI does not order puts to one target, so fence completes what it must
 * order: it is quiet.  (Both cost one MPI_Win_flush_all, and nothing when
 * no MPI operation is outstanding.)
 */
#include "../core/shmpi.h"

void shmem_ctx_quiet(shmem_ctx_t ctx)
{
    shmpi_check_ready(__func__);
    if (ctx == SHMEM_CTX_INVALID) /* no operations can be pending on it */
        return;
    shmpi_quiet(shmpi_ctx_get(__func__, ctx));
}

void shmem_quiet(void)
{
    shmpi_check_ready(__func__);
    shmpi_quiet(&shmpi_g.ctx_default);
}

void shmem_ctx_fence(shmem_ctx_t ctx)
{
    shmpi_check_ready(__func__);
    if (ctx == SHMEM_CTX_INVALID) /* no operations can be pending on it */
        return;
    shmpi_quiet(shmpi_ctx_get(__func__, ctx));
}

void shmem_fence(void)
{
    shmpi_check_ready(__func__);
    shmpi_quiet(&shmpi_g.ctx_default);
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

/* Sessions (1.6) are hints that a burst of operations follows; shmpi
 * issues every operation at once anyway, so starting and stopping a session
 * only checks the context.  The spec allows this: a session changes
 * performance, never semantics. */
void shmem_ctx_session_start(shmem_ctx_t ctx, long options,
                             const shmem_ctx_session_config_t *config, long config_mask)
{
    (void)options, (void)config, (void)config_mask;
    shmpi_check_ready(__func__);
    shmpi_ctx_get(__func__, ctx);
}

void shmem_ctx_session_stop(shmem_ctx_t ctx)
{
    shmpi_check_ready(__func__);
    shmpi_ctx_get(__func__, ctx);
}
