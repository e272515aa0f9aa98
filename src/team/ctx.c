/*
 * ctx.c - contexts (ctx.h): the default context and the contexts a
 * program creates on a team.  A context's structs come from a handle slab
 * (handle.h), so a destroyed or made-up handle is reported, never
 * dereferenced.  Each team lists its open contexts, so that destroying the
 * team, or shmem_finalize, frees whatever the program did not destroy.
 */
#include "shmpi.h"
#include "ctx.h"
#include "handle.h"
#include "team.h"

#include <pthread.h>

/* Guards every team's list of contexts and its n_contexts (contexts may be
 * created and destroyed by several threads at once). */
static pthread_mutex_t lists_lock = PTHREAD_MUTEX_INITIALIZER;
static struct shmpi_handle_pool ctx_pool = SHMPI_HANDLE_POOL(struct shmpi_ctx, next);

void shmpi_ctx_init(void)
{
    shmpi_g.ctx_default.magic = SHMPI_CTX_MAGIC;
    shmpi_g.ctx_default.team = &shmpi_g.team_world;
    shmpi_g.ctx_default.options = 0;
    shmpi_g.ctx_default.next = shmpi_g.ctx_default.prev = NULL;
    atomic_store(&shmpi_g.ctx_default.mpi_pending, 0);
}

struct shmpi_ctx *shmpi_ctx_get(const char *routine, shmem_ctx_t ctx)
{
    if (ctx == SHMEM_CTX_DEFAULT)
        return &shmpi_g.ctx_default;
    if (ctx == SHMEM_CTX_INVALID)
        shmpi_abort(routine, "context is SHMEM_CTX_INVALID");
    if (SHMPI_UNLIKELY(!shmpi_handle_known(&ctx_pool, ctx)))
        shmpi_abort(routine, "context handle %p is not a context (no shmem_ctx_create or "
                    "shmem_team_create_ctx returned it)", (void *)ctx);
    if (SHMPI_UNLIKELY(ctx->magic != SHMPI_CTX_MAGIC))
        shmpi_abort(routine, "context handle %p refers to a context that was destroyed "
                    "(by shmem_ctx_destroy, or with its team)", (void *)ctx);
    return ctx;
}

/* shmpi_quiet (rma.c, a layer above), registered at start-up. */
static void (*ctx_quiet)(struct shmpi_ctx *ctx);

void shmpi_ctx_on_free(void (*quiet)(struct shmpi_ctx *ctx))
{
    ctx_quiet = quiet;
}

/* Quiets and frees a context already unlinked from its team. */
static void ctx_free(struct shmpi_ctx *ctx)
{
    ctx_quiet(ctx);
    ctx->magic = 0;
    shmpi_handle_free(&ctx_pool, ctx);
}

int shmpi_ctx_create(const char *routine, shmem_team_t team_handle, long options,
                     shmem_ctx_t *ctx_out)
{
    shmpi_check_ready_out(routine, ctx_out, "ctx");
    *ctx_out = SHMEM_CTX_INVALID;
    if (team_handle == SHMEM_TEAM_INVALID)
        return -1;
    struct shmpi_team *team = shmpi_team_get(routine, team_handle);
    if (options & ~(SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE))
        return -1;
    pthread_mutex_lock(&lists_lock);
    /* A team configured with num_contexts offers that many, no more. */
    struct shmpi_ctx *ctx = NULL;
    if (!(team->config_mask & SHMEM_TEAM_NUM_CONTEXTS) ||
        team->n_contexts < team->config.num_contexts)
        ctx = shmpi_handle_new(&ctx_pool);
    if (!ctx) {
        pthread_mutex_unlock(&lists_lock);
        return -1;
    }
    ctx->magic = SHMPI_CTX_MAGIC;
    ctx->team = team;
    ctx->options = options;
    atomic_init(&ctx->mpi_pending, 0);
    team->n_contexts++;
    ctx->prev = NULL;
    ctx->next = team->contexts;
    if (team->contexts)
        team->contexts->prev = ctx;
    team->contexts = ctx;
    pthread_mutex_unlock(&lists_lock);
    *ctx_out = ctx;
    return 0;
}

/* Takes a context off its team's list; lists_lock held. */
static void ctx_unlink(struct shmpi_ctx *ctx)
{
    struct shmpi_team *team = ctx->team;
    if (ctx->prev)
        ctx->prev->next = ctx->next;
    else
        team->contexts = ctx->next;
    if (ctx->next)
        ctx->next->prev = ctx->prev;
    team->n_contexts--;
}

void shmpi_ctx_destroy(const char *routine, shmem_ctx_t handle)
{
    shmpi_check_ready(routine);
    /* SHMEM_CTX_INVALID: no operation (the spec); the default context is
     * not the program's to destroy. */
    if (handle == SHMEM_CTX_INVALID)
        return;
    if (handle == SHMEM_CTX_DEFAULT)
        shmpi_abort(routine, "SHMEM_CTX_DEFAULT is predefined and cannot be destroyed");
    struct shmpi_ctx *ctx = shmpi_ctx_get(routine, handle);
    pthread_mutex_lock(&lists_lock);
    ctx_unlink(ctx);
    pthread_mutex_unlock(&lists_lock);
    ctx_free(ctx);
}

void shmpi_ctx_destroy_all(struct shmpi_team *team)
{
    for (;;) {
        pthread_mutex_lock(&lists_lock);
        struct shmpi_ctx *ctx = team->contexts;
        if (ctx)
            ctx_unlink(ctx);
        pthread_mutex_unlock(&lists_lock);
        if (!ctx)
            return;
        ctx_free(ctx);
    }
}

int shmpi_ctx_team(const char *routine, shmem_ctx_t handle, shmem_team_t *team)
{
    shmpi_check_ready_out(routine, team, "team");
    if (handle == SHMEM_CTX_INVALID) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    *team = shmpi_team_handle(shmpi_ctx_get(routine, handle)->team);
    return 0;
}
