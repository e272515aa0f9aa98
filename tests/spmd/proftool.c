/*
 * proftool.c - a profiling tool as TAU or Score-P attach to OpenSHMEM
 * programs, built by the tests as a shared library that programs link
 * before libshmpi.  It defines shmem_X for a sample of routines of every
 * chapter (setup, memory, RMA, AMO, signals, collectives, point-to-point
 * synchronization, ordering, locks, teams, contexts, deprecated names),
 * counts each call and forwards it to pshmem_X.  proftool_count(NAME) reads
 * a count; proftool_level() is the last level given to shmem_pcontrol.
 */
#include <pshmem.h>
#include <string.h>

#include "proftool.h"

static long counts[PROFTOOL_N];
static int level = 1; /* the spec's level at start */

long proftool_count(const char *name)
{
    for (int i = 0; i < PROFTOOL_N; i++)
        if (strcmp(proftool_names[i], name) == 0)
            return counts[i];
    return -1;
}

int proftool_level(void)
{
    return level;
}

/* Each wrapper counts its routine (its index in PROFTOOL_ROUTINES). */
#define PROFTOOL_INDEX(NAME) PROFTOOL_I_##NAME
enum {
#define PROFTOOL_ENUM(NAME) PROFTOOL_INDEX(NAME),
    PROFTOOL_ROUTINES(PROFTOOL_ENUM)
#undef PROFTOOL_ENUM
};
#define COUNT(NAME) (counts[PROFTOOL_INDEX(NAME)]++)

/* Setup and query. */
void shmem_init(void)
{
    COUNT(shmem_init);
    pshmem_init();
}
int shmem_my_pe(void)
{
    COUNT(shmem_my_pe);
    return pshmem_my_pe();
}
int shmem_n_pes(void)
{
    COUNT(shmem_n_pes);
    return pshmem_n_pes();
}
void *shmem_ptr(const void *dest, int pe)
{
    COUNT(shmem_ptr);
    return pshmem_ptr(dest, pe);
}
void shmem_pcontrol(int new_level, ...)
{
    COUNT(shmem_pcontrol);
    level = new_level;
    pshmem_pcontrol(new_level);
}
int _my_pe(void)
{
    COUNT(_my_pe);
    return p_my_pe();
}

/* Memory. */
void *shmem_malloc(size_t size)
{
    COUNT(shmem_malloc);
    return pshmem_malloc(size);
}
void shmem_free(void *ptr)
{
    COUNT(shmem_free);
    pshmem_free(ptr);
}
void *shmalloc(size_t size)
{
    COUNT(shmalloc);
    return pshmalloc(size);
}

/* RMA. */
void shmem_long_put(long *dest, const long *source, size_t nelems, int pe)
{
    COUNT(shmem_long_put);
    pshmem_long_put(dest, source, nelems, pe);
}
void shmem_long_p(long *dest, long value, int pe)
{
    COUNT(shmem_long_p);
    pshmem_long_p(dest, value, pe);
}
long shmem_long_g(const long *source, int pe)
{
    COUNT(shmem_long_g);
    return pshmem_long_g(source, pe);
}
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe)
{
    COUNT(shmem_getmem);
    pshmem_getmem(dest, source, nelems, pe);
}

/* AMOs, the deprecated name too. */
long shmem_long_atomic_fetch_add(long *dest, long value, int pe)
{
    COUNT(shmem_long_atomic_fetch_add);
    return pshmem_long_atomic_fetch_add(dest, value, pe);
}
void shmem_long_atomic_inc(long *dest, int pe)
{
    COUNT(shmem_long_atomic_inc);
    pshmem_long_atomic_inc(dest, pe);
}
long shmem_long_finc(long *dest, int pe)
{
    COUNT(shmem_long_finc);
    return pshmem_long_finc(dest, pe);
}

/* Signals. */
void shmem_long_put_signal(long *dest, const long *source, size_t nelems, uint64_t *sig_addr,
                           uint64_t signal, int sig_op, int pe)
{
    COUNT(shmem_long_put_signal);
    pshmem_long_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe);
}
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
    COUNT(shmem_signal_wait_until);
    return pshmem_signal_wait_until(sig_addr, cmp, cmp_value);
}
uint64_t shmem_signal_fetch(const uint64_t *sig_addr)
{
    COUNT(shmem_signal_fetch);
    return pshmem_signal_fetch(sig_addr);
}

/* Collectives. */
void shmem_barrier_all(void)
{
    COUNT(shmem_barrier_all);
    pshmem_barrier_all();
}
void shmem_sync_all(void)
{
    COUNT(shmem_sync_all);
    pshmem_sync_all();
}
int shmem_long_sum_reduce(shmem_team_t team, long *dest, const long *source, size_t nreduce)
{
    COUNT(shmem_long_sum_reduce);
    return pshmem_long_sum_reduce(team, dest, source, nreduce);
}
int shmem_long_broadcast(shmem_team_t team, long *dest, const long *source, size_t nelems,
                         int PE_root)
{
    COUNT(shmem_long_broadcast);
    return pshmem_long_broadcast(team, dest, source, nelems, PE_root);
}

/* Point-to-point synchronization. */
void shmem_long_wait_until(long *ivar, int cmp, long cmp_value)
{
    COUNT(shmem_long_wait_until);
    pshmem_long_wait_until(ivar, cmp, cmp_value);
}
int shmem_long_test(long *ivar, int cmp, long cmp_value)
{
    COUNT(shmem_long_test);
    return pshmem_long_test(ivar, cmp, cmp_value);
}

/* Ordering. */
void shmem_quiet(void)
{
    COUNT(shmem_quiet);
    pshmem_quiet();
}
void shmem_fence(void)
{
    COUNT(shmem_fence);
    pshmem_fence();
}

/* Locks. */
void shmem_set_lock(long *lock)
{
    COUNT(shmem_set_lock);
    pshmem_set_lock(lock);
}
void shmem_clear_lock(long *lock)
{
    COUNT(shmem_clear_lock);
    pshmem_clear_lock(lock);
}

/* Teams. */
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team)
{
    COUNT(shmem_team_split_strided);
    return pshmem_team_split_strided(parent_team, start, stride, size, config, config_mask,
                                     new_team);
}
int shmem_team_my_pe(shmem_team_t team)
{
    COUNT(shmem_team_my_pe);
    return pshmem_team_my_pe(team);
}
void shmem_team_destroy(shmem_team_t team)
{
    COUNT(shmem_team_destroy);
    pshmem_team_destroy(team);
}

/* Contexts. */
int shmem_ctx_create(long options, shmem_ctx_t *ctx)
{
    COUNT(shmem_ctx_create);
    return pshmem_ctx_create(options, ctx);
}
void shmem_ctx_long_put(shmem_ctx_t ctx, long *dest, const long *source, size_t nelems, int pe)
{
    COUNT(shmem_ctx_long_put);
    pshmem_ctx_long_put(ctx, dest, source, nelems, pe);
}
void shmem_ctx_quiet(shmem_ctx_t ctx)
{
    COUNT(shmem_ctx_quiet);
    pshmem_ctx_quiet(ctx);
}
void shmem_ctx_destroy(shmem_ctx_t ctx)
{
    COUNT(shmem_ctx_destroy);
    pshmem_ctx_destroy(ctx);
}
