/*
 * ctx.h - contexts (ctx.c): the default context and the contexts a
 * program creates on a team.
 *
 * The context's data (struct shmpi_ctx) is in team_types.h, a layer below
 * (the global state holds the default context).
 */
#include "shmpi.h"

#ifndef SHMPI_CTX_H
#define SHMPI_CTX_H

#include "team.h"

/* Sets up the default context (init, after the world team it belongs to). */
void shmpi_ctx_init(void);
/* What completes a context's operations before it is freed (shmpi_quiet,
 * rma.c: the operations are a layer above the contexts), set at start-up
 * before shmpi_ctx_init. */
void shmpi_ctx_on_free(void (*quiet)(struct shmpi_ctx *ctx));

/* Resolves the handle of a context (the default one included); NULL or a
 * destroyed handle is an error naming `routine`.  shmpi_ctx_of (below)
 * resolves the default context inline and calls this for the others. */
struct shmpi_ctx *shmpi_ctx_get(const char *routine, shmem_ctx_t ctx);

/* The routines of the Contexts chapter; `routine` names the caller in
 * error messages.  Each returns what the spec says. */
int shmpi_ctx_create(const char *routine, shmem_team_t team, long options, shmem_ctx_t *ctx);
void shmpi_ctx_destroy(const char *routine, shmem_ctx_t ctx);
int shmpi_ctx_team(const char *routine, shmem_ctx_t ctx, shmem_team_t *team);

/* Quiets and destroys every context still open on `team` (the team is
 * being destroyed, or the library finalized). */
void shmpi_ctx_destroy_all(struct shmpi_team *team);

/* The context behind a handle; the default one without a call. */
static inline struct shmpi_ctx *shmpi_ctx_of(const char *routine, shmem_ctx_t handle)
{
    if (SHMPI_LIKELY(handle == SHMEM_CTX_DEFAULT))
        return &shmpi_g.ctx_default;
    return shmpi_ctx_get(routine, handle);
}

#endif /* SHMPI_CTX_H */
