/*
 * proftool.h - the routines that the test tool proftool.c intercepts, and
 * how a program reads its counts.
 */
#ifndef PROFTOOL_H
#define PROFTOOL_H

#define PROFTOOL_ROUTINES(X)                                                                  \
    X(shmem_init) X(shmem_my_pe) X(shmem_n_pes) X(shmem_ptr) X(shmem_pcontrol) X(_my_pe)      \
    X(shmem_malloc) X(shmem_free) X(shmalloc)                                                 \
    X(shmem_long_put) X(shmem_long_p) X(shmem_long_g) X(shmem_getmem)                         \
    X(shmem_long_atomic_fetch_add) X(shmem_long_atomic_inc) X(shmem_long_finc)                \
    X(shmem_long_put_signal) X(shmem_signal_wait_until) X(shmem_signal_fetch)                 \
    X(shmem_barrier_all) X(shmem_sync_all) X(shmem_long_sum_reduce) X(shmem_long_broadcast)   \
    X(shmem_long_wait_until) X(shmem_long_test)                                               \
    X(shmem_quiet) X(shmem_fence)                                                             \
    X(shmem_set_lock) X(shmem_clear_lock)                                                     \
    X(shmem_team_split_strided) X(shmem_team_my_pe) X(shmem_team_destroy)                     \
    X(shmem_ctx_create) X(shmem_ctx_long_put) X(shmem_ctx_quiet) X(shmem_ctx_destroy)

#define PROFTOOL_STRING(NAME) #NAME,
static const char *const proftool_names[] = {PROFTOOL_ROUTINES(PROFTOOL_STRING)};
#undef PROFTOOL_STRING
#define PROFTOOL_N ((int)(sizeof proftool_names / sizeof proftool_names[0]))

#ifdef __cplusplus
extern "C" {
#endif
/* Calls of NAME counted by the tool in this PE, or -1 if it does not
 * intercept NAME. */
long proftool_count(const char *name);
/* The level of the last shmem_pcontrol call (1 before any). */
int proftool_level(void);
#ifdef __cplusplus
}
#endif

#endif
