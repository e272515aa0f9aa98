/*
 * ctx.c - communication management routines (spec: Communication
 * Management Routines).  The work is in src/core/team.c.
 */
#include "../core/shmpi.h"

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
