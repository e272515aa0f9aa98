/*
 * ctx.c - communication management routines (spec: Communication
 * Management Routines) and the communication sessions of 1.6.  The work is
 * in src/team/ctx.c.
 */
#define SHMPI_DEFINES_ctx SHMPI_HERE /* weak shmem_ names of this chapter here */
#include "shmpi.h"
#include "ctx.h"

int shmem_ctx_create(long options, shmem_ctx_t *ctx)
{
    return shmpi_ctx_create(__func__, SHMEM_TEAM_WORLD, options, ctx);
}

int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
    return shmpi_ctx_create(__func__, team, options, ctx);
}

void shmem_ctx_destroy(shmem_ctx_t ctx)
{
    shmpi_ctx_destroy(__func__, ctx);
}

int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team)
{
    return shmpi_ctx_team(__func__, ctx, team);
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
