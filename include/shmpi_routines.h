/*
 * shmpi_routines.h - every routine of the OpenSHMEM API that shmpi provides,
 * written once: each is one SHMPI_FN(RET, NAME, (PARAMS)) entry, the typed
 * families expanded from the type tables of shmpi_typetables.h.
 *
 * This file has no include guard: its includer defines SHMPI_FN first.
 * shmem.h makes each entry the declaration RET NAME(PARAMS); pshmem.h makes
 * it the profiling name's, RET pNAME(PARAMS); the library's own build
 * (src/core/shmpi.h) gives each the assembler name pNAME and a weak alias
 * NAME (see docs/profiling.md).  SHMPI_CHAPTER names the file of src/api
 * that defines the entries that follow.  Installed because shmem.h needs
 * it; programs include shmem.h (and tools pshmem.h), not this file.
 *
 * An entry whose definition is one call into src/core carries that call:
 * SHMPI_FN_CALL(RET, NAME, PARAMS, CALL) returns CALL, SHMPI_FN_DO(NAME,
 * PARAMS, CALL) is a void routine that makes it.  Outside the library both
 * are plain entries (the call is never expanded); src/api/listed.c defines
 * them, so such a routine is written here and in its core function only.
 *
 * To see every declaration expanded, one per line (e.g. to grep a typed
 * name), run `make decls` in the build directory:
 *   make -s decls | grep shmem_long_put
 */
#ifndef SHMPI_FN_CALL
#define SHMPI_FN_CALL(RET, NAME, PARAMS, CALL) SHMPI_FN(RET, NAME, PARAMS)
#define SHMPI_FN_DO(NAME, PARAMS, CALL) SHMPI_FN(void, NAME, PARAMS)
#endif

#undef SHMPI_CHAPTER
#define SHMPI_CHAPTER setup
/* ---- Setup, query, threads ------------------------------------------------- */
SHMPI_FN(void, shmem_init, (void))
SHMPI_FN(int, shmem_init_thread, (int requested, int *provided))
SHMPI_FN(void, shmem_query_thread, (int *provided))
SHMPI_FN(void, shmem_finalize, (void))
SHMPI_FN(void, shmem_global_exit, (int status))
SHMPI_FN(int, shmem_my_pe, (void))
SHMPI_FN(int, shmem_n_pes, (void))
SHMPI_FN(int, shmem_pe_accessible, (int pe))
SHMPI_FN(int, shmem_addr_accessible, (const void *addr, int pe))
SHMPI_FN(void *, shmem_ptr, (const void *dest, int pe))
SHMPI_FN(void *, shmem_team_ptr, (shmem_team_t team, const void *dest, int pe))
SHMPI_FN(void, shmem_query_initialized, (int *initialized))
SHMPI_FN(void, shmem_info_get_version, (int *major, int *minor))
SHMPI_FN(void, shmem_info_get_name, (char *name))
SHMPI_FN(void, shmem_pcontrol, (int level, ...))
SHMPI_FN(void, start_pes, (int npes))
SHMPI_FN(int, _my_pe, (void))
SHMPI_FN(int, _num_pes, (void))

#undef SHMPI_CHAPTER
#define SHMPI_CHAPTER mem
/* ---- Memory management --------------------------------------------------------- */
SHMPI_FN(void *, shmem_malloc, (size_t size))
SHMPI_FN(void *, shmem_calloc, (size_t count, size_t size))
SHMPI_FN(void *, shmem_align, (size_t alignment, size_t size))
SHMPI_FN(void *, shmem_realloc, (void *ptr, size_t size))
SHMPI_FN(void *, shmem_malloc_with_hints, (size_t size, long hints))
SHMPI_FN(void, shmem_free, (void *ptr))
SHMPI_FN(void *, shmalloc, (size_t size))
SHMPI_FN(void, shfree, (void *ptr))
SHMPI_FN(void *, shrealloc, (void *ptr, size_t size))
SHMPI_FN(void *, shmemalign, (size_t alignment, size_t size))

#undef SHMPI_CHAPTER
#define SHMPI_CHAPTER team
/* ---- Teams ------------------------------------------------------------------------ */
SHMPI_FN(int, shmem_team_my_pe, (shmem_team_t team))
SHMPI_FN(int, shmem_team_n_pes, (shmem_team_t team))
SHMPI_FN(int, shmem_team_get_config, (shmem_team_t team, long config_mask,
                                      shmem_team_config_t *config))
SHMPI_FN(int, shmem_team_translate_pe, (shmem_team_t src_team, int src_pe,
                                        shmem_team_t dest_team))
SHMPI_FN(int, shmem_team_split_strided, (shmem_team_t parent_team, int start, int stride,
                                         int size, const shmem_team_config_t *config,
                                         long config_mask, shmem_team_t *new_team))
SHMPI_FN(int, shmem_team_split_2d, (shmem_team_t parent_team, int xrange,
                                    const shmem_team_config_t *xaxis_config, long xaxis_mask,
                                    shmem_team_t *xaxis_team,
                                    const shmem_team_config_t *yaxis_config, long yaxis_mask,
                                    shmem_team_t *yaxis_team))
SHMPI_FN(void, shmem_team_destroy, (shmem_team_t team))

#undef SHMPI_CHAPTER
#define SHMPI_CHAPTER ctx
/* ---- Contexts --------------------------------------------------------------------- */
SHMPI_FN(int, shmem_ctx_create, (long options, shmem_ctx_t *ctx))
SHMPI_FN(int, shmem_team_create_ctx, (shmem_team_t team, long options, shmem_ctx_t *ctx))
SHMPI_FN(void, shmem_ctx_destroy, (shmem_ctx_t ctx))
SHMPI_FN(int, shmem_ctx_get_team, (shmem_ctx_t ctx, shmem_team_t *team))
SHMPI_FN(void, shmem_ctx_session_start, (shmem_ctx_t ctx, long options,
                                         const shmem_ctx_session_config_t *config,
                                         long config_mask))
SHMPI_FN(void, shmem_ctx_session_stop, (shmem_ctx_t ctx))

#undef SHMPI_CHAPTER
#define SHMPI_CHAPTER rma
/* ---- RMA ------------------------------------------------------------------------------ */
#define SHMPI_DECL_RMA(N, T)                                                                  \
    SHMPI_FN(void, shmem_##N##_put, (T *dest, const T *source, size_t nelems, int pe))        \
    SHMPI_FN(void, shmem_ctx_##N##_put, (shmem_ctx_t ctx, T *dest, const T *source,           \
                                         size_t nelems, int pe))                              \
    SHMPI_FN(void, shmem_##N##_get, (T *dest, const T *source, size_t nelems, int pe))        \
    SHMPI_FN(void, shmem_ctx_##N##_get, (shmem_ctx_t ctx, T *dest, const T *source,           \
                                         size_t nelems, int pe))                              \
    SHMPI_FN(void, shmem_##N##_p, (T *dest, T value, int pe))                                 \
    SHMPI_FN(void, shmem_ctx_##N##_p, (shmem_ctx_t ctx, T *dest, T value, int pe))            \
    SHMPI_FN(T, shmem_##N##_g, (const T *source, int pe))                                     \
    SHMPI_FN(T, shmem_ctx_##N##_g, (shmem_ctx_t ctx, const T *source, int pe))                \
    SHMPI_FN(void, shmem_##N##_iput, (T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
                                      size_t nelems, int pe))                                 \
    SHMPI_FN(void, shmem_ctx_##N##_iput, (shmem_ctx_t ctx, T *dest, const T *source,          \
                                          ptrdiff_t dst, ptrdiff_t sst, size_t nelems,        \
                                          int pe))                                            \
    SHMPI_FN(void, shmem_##N##_iget, (T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
                                      size_t nelems, int pe))                                 \
    SHMPI_FN(void, shmem_ctx_##N##_iget, (shmem_ctx_t ctx, T *dest, const T *source,          \
                                          ptrdiff_t dst, ptrdiff_t sst, size_t nelems,        \
                                          int pe))                                            \
    SHMPI_FN(void, shmem_##N##_put_nbi, (T *dest, const T *source, size_t nelems, int pe))    \
    SHMPI_FN(void, shmem_ctx_##N##_put_nbi, (shmem_ctx_t ctx, T *dest, const T *source,       \
                                             size_t nelems, int pe))                          \
    SHMPI_FN(void, shmem_##N##_get_nbi, (T *dest, const T *source, size_t nelems, int pe))    \
    SHMPI_FN(void, shmem_ctx_##N##_get_nbi, (shmem_ctx_t ctx, T *dest, const T *source,       \
                                             size_t nelems, int pe))
SHMPI_RMA_TYPES(SHMPI_DECL_RMA)
#undef SHMPI_DECL_RMA

/* OpenSHMEM 1.6: blocked strided put/get (nblocks blocks of bsize elements). */
#define SHMPI_DECL_RMA_BLOCKED(NAME, T)                                                       \
    SHMPI_FN(void, shmem_##NAME, (T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,     \
                                  size_t bsize, size_t nblocks, int pe))                      \
    SHMPI_FN(void, shmem_ctx_##NAME, (shmem_ctx_t ctx, T *dest, const T *source,              \
                                      ptrdiff_t dst, ptrdiff_t sst, size_t bsize,             \
                                      size_t nblocks, int pe))
#define SHMPI_DECL_RMA_BLOCKED_TYPED(N, T)                                                    \
    SHMPI_DECL_RMA_BLOCKED(N##_ibput, T) SHMPI_DECL_RMA_BLOCKED(N##_ibget, T)
#define SHMPI_DECL_RMA_BLOCKED_SIZED(B)                                                       \
    SHMPI_DECL_RMA_BLOCKED(ibput##B, void) SHMPI_DECL_RMA_BLOCKED(ibget##B, void)
SHMPI_RMA_TYPES(SHMPI_DECL_RMA_BLOCKED_TYPED)
SHMPI_RMA_SIZES(SHMPI_DECL_RMA_BLOCKED_SIZED)
#undef SHMPI_DECL_RMA_BLOCKED_TYPED
#undef SHMPI_DECL_RMA_BLOCKED_SIZED
#undef SHMPI_DECL_RMA_BLOCKED

#define SHMPI_DECL_RMA_SIZED(S, B)                                                            \
    SHMPI_FN(void, shmem_##S##B, (void *dest, const void *source, size_t nelems, int pe))     \
    SHMPI_FN(void, shmem_ctx_##S##B, (shmem_ctx_t ctx, void *dest, const void *source,        \
                                      size_t nelems, int pe))
#define SHMPI_DECL_RMA_STRIDED(S, B)                                                          \
    SHMPI_FN(void, shmem_##S##B, (void *dest, const void *source, ptrdiff_t dst,              \
                                  ptrdiff_t sst, size_t nelems, int pe))                      \
    SHMPI_FN(void, shmem_ctx_##S##B, (shmem_ctx_t ctx, void *dest, const void *source,        \
                                      ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe))
#define SHMPI_DECL_RMA_SIZES(B)                                                               \
    SHMPI_DECL_RMA_SIZED(put, B) SHMPI_DECL_RMA_SIZED(get, B)                                 \
    SHMPI_DECL_RMA_STRIDED(iput, B) SHMPI_DECL_RMA_STRIDED(iget, B)                           \
    SHMPI_DECL_RMA_SIZED(put, B##_nbi) SHMPI_DECL_RMA_SIZED(get, B##_nbi)
SHMPI_RMA_SIZES(SHMPI_DECL_RMA_SIZES)
SHMPI_DECL_RMA_SIZED(put, mem)
SHMPI_DECL_RMA_SIZED(get, mem)
SHMPI_DECL_RMA_SIZED(put, mem_nbi)
SHMPI_DECL_RMA_SIZED(get, mem_nbi)
#undef SHMPI_DECL_RMA_SIZES
#undef SHMPI_DECL_RMA_SIZED
#undef SHMPI_DECL_RMA_STRIDED

#undef SHMPI_CHAPTER
#define SHMPI_CHAPTER amo
/* ---- Atomic memory operations ---------------------------------------------------- */
#define SHMPI_DECL_AMO_EXT(N, T)                                                              \
    SHMPI_FN(T, shmem_##N##_atomic_fetch, (const T *source, int pe))                          \
    SHMPI_FN(T, shmem_ctx_##N##_atomic_fetch, (shmem_ctx_t ctx, const T *source, int pe))     \
    SHMPI_FN(void, shmem_##N##_atomic_set, (T *dest, T value, int pe))                        \
    SHMPI_FN(void, shmem_ctx_##N##_atomic_set, (shmem_ctx_t ctx, T *dest, T value, int pe))   \
    SHMPI_FN(T, shmem_##N##_atomic_swap, (T *dest, T value, int pe))                          \
    SHMPI_FN(T, shmem_ctx_##N##_atomic_swap, (shmem_ctx_t ctx, T *dest, T value, int pe))     \
    SHMPI_FN(void, shmem_##N##_atomic_fetch_nbi, (T *fetch, const T *source, int pe))         \
    SHMPI_FN(void, shmem_ctx_##N##_atomic_fetch_nbi, (shmem_ctx_t ctx, T *fetch,              \
                                                      const T *source, int pe))               \
    SHMPI_FN(void, shmem_##N##_atomic_swap_nbi, (T *fetch, T *dest, T value, int pe))         \
    SHMPI_FN(void, shmem_ctx_##N##_atomic_swap_nbi, (shmem_ctx_t ctx, T *fetch, T *dest,      \
                                                     T value, int pe))
SHMPI_AMO_EXT_TYPES(SHMPI_DECL_AMO_EXT)
#undef SHMPI_DECL_AMO_EXT

#define SHMPI_DECL_AMO_STD(N, T)                                                              \
    SHMPI_FN(T, shmem_##N##_atomic_compare_swap, (T *dest, T cond, T value, int pe))          \
    SHMPI_FN(T, shmem_ctx_##N##_atomic_compare_swap, (shmem_ctx_t ctx, T *dest, T cond,       \
                                                      T value, int pe))                       \
    SHMPI_FN(T, shmem_##N##_atomic_fetch_inc, (T *dest, int pe))                              \
    SHMPI_FN(T, shmem_ctx_##N##_atomic_fetch_inc, (shmem_ctx_t ctx, T *dest, int pe))         \
    SHMPI_FN(void, shmem_##N##_atomic_inc, (T *dest, int pe))                                 \
    SHMPI_FN(void, shmem_ctx_##N##_atomic_inc, (shmem_ctx_t ctx, T *dest, int pe))            \
    SHMPI_FN(T, shmem_##N##_atomic_fetch_add, (T *dest, T value, int pe))                     \
    SHMPI_FN(T, shmem_ctx_##N##_atomic_fetch_add, (shmem_ctx_t ctx, T *dest, T value, int pe)) \
    SHMPI_FN(void, shmem_##N##_atomic_add, (T *dest, T value, int pe))                        \
    SHMPI_FN(void, shmem_ctx_##N##_atomic_add, (shmem_ctx_t ctx, T *dest, T value, int pe))   \
    SHMPI_FN(void, shmem_##N##_atomic_compare_swap_nbi, (T *fetch, T *dest, T cond, T value,  \
                                                         int pe))                             \
    SHMPI_FN(void, shmem_ctx_##N##_atomic_compare_swap_nbi, (shmem_ctx_t ctx, T *fetch,       \
                                                             T *dest, T cond, T value,        \
                                                             int pe))                         \
    SHMPI_FN(void, shmem_##N##_atomic_fetch_inc_nbi, (T *fetch, T *dest, int pe))             \
    SHMPI_FN(void, shmem_ctx_##N##_atomic_fetch_inc_nbi, (shmem_ctx_t ctx, T *fetch, T *dest, \
                                                          int pe))                            \
    SHMPI_FN(void, shmem_##N##_atomic_fetch_add_nbi, (T *fetch, T *dest, T value, int pe))    \
    SHMPI_FN(void, shmem_ctx_##N##_atomic_fetch_add_nbi, (shmem_ctx_t ctx, T *fetch, T *dest, \
                                                          T value, int pe))
SHMPI_AMO_STD_TYPES(SHMPI_DECL_AMO_STD)
#undef SHMPI_DECL_AMO_STD

#define SHMPI_DECL_AMO_BIT_OP(N, T, OP)                                                       \
    SHMPI_FN(T, shmem_##N##_atomic_fetch_##OP, (T *dest, T value, int pe))                    \
    SHMPI_FN(T, shmem_ctx_##N##_atomic_fetch_##OP, (shmem_ctx_t ctx, T *dest, T value,        \
                                                    int pe))                                  \
    SHMPI_FN(void, shmem_##N##_atomic_##OP, (T *dest, T value, int pe))                       \
    SHMPI_FN(void, shmem_ctx_##N##_atomic_##OP, (shmem_ctx_t ctx, T *dest, T value, int pe))  \
    SHMPI_FN(void, shmem_##N##_atomic_fetch_##OP##_nbi, (T *fetch, T *dest, T value, int pe)) \
    SHMPI_FN(void, shmem_ctx_##N##_atomic_fetch_##OP##_nbi, (shmem_ctx_t ctx, T *fetch,       \
                                                             T *dest, T value, int pe))
#define SHMPI_DECL_AMO_BIT(N, T)                                                              \
    SHMPI_DECL_AMO_BIT_OP(N, T, and) SHMPI_DECL_AMO_BIT_OP(N, T, or)                          \
    SHMPI_DECL_AMO_BIT_OP(N, T, xor)
SHMPI_AMO_BIT_TYPES(SHMPI_DECL_AMO_BIT)
#undef SHMPI_DECL_AMO_BIT
#undef SHMPI_DECL_AMO_BIT_OP

#define SHMPI_DECL_AMO_DEPRECATED_EXT(N, T)                                                   \
    SHMPI_FN(T, shmem_##N##_fetch, (const T *source, int pe))                                 \
    SHMPI_FN(void, shmem_##N##_set, (T *dest, T value, int pe))                               \
    SHMPI_FN(T, shmem_##N##_swap, (T *dest, T value, int pe))
SHMPI_AMO_DEPRECATED_EXT_TYPES(SHMPI_DECL_AMO_DEPRECATED_EXT)
#undef SHMPI_DECL_AMO_DEPRECATED_EXT
#define SHMPI_DECL_AMO_DEPRECATED_STD(N, T)                                                   \
    SHMPI_FN(T, shmem_##N##_cswap, (T *dest, T cond, T value, int pe))                        \
    SHMPI_FN(T, shmem_##N##_finc, (T *dest, int pe))                                          \
    SHMPI_FN(void, shmem_##N##_inc, (T *dest, int pe))                                        \
    SHMPI_FN(T, shmem_##N##_fadd, (T *dest, T value, int pe))                                 \
    SHMPI_FN(void, shmem_##N##_add, (T *dest, T value, int pe))
SHMPI_AMO_DEPRECATED_STD_TYPES(SHMPI_DECL_AMO_DEPRECATED_STD)
#undef SHMPI_DECL_AMO_DEPRECATED_STD

#undef SHMPI_CHAPTER
#define SHMPI_CHAPTER signal
/* ---- Signals ---------------------------------------------------------------------- */
#define SHMPI_DECL_SIGNAL(NAME, T)                                                            \
    SHMPI_FN(void, shmem_##NAME, (T *dest, const T *source, size_t nelems, uint64_t *sig_addr, \
                                  uint64_t signal, int sig_op, int pe))                       \
    SHMPI_FN(void, shmem_ctx_##NAME, (shmem_ctx_t ctx, T *dest, const T *source,              \
                                      size_t nelems, uint64_t *sig_addr, uint64_t signal,     \
                                      int sig_op, int pe))
#define SHMPI_DECL_SIGNAL_TYPED(N, T)                                                         \
    SHMPI_DECL_SIGNAL(N##_put_signal, T) SHMPI_DECL_SIGNAL(N##_put_signal_nbi, T)
#define SHMPI_DECL_SIGNAL_SIZED(B)                                                            \
    SHMPI_DECL_SIGNAL(put##B##_signal, void) SHMPI_DECL_SIGNAL(put##B##_signal_nbi, void)
SHMPI_RMA_TYPES(SHMPI_DECL_SIGNAL_TYPED)
SHMPI_RMA_SIZES(SHMPI_DECL_SIGNAL_SIZED)
SHMPI_DECL_SIGNAL(putmem_signal, void)
SHMPI_DECL_SIGNAL(putmem_signal_nbi, void)
#undef SHMPI_DECL_SIGNAL_SIZED
#undef SHMPI_DECL_SIGNAL_TYPED
#undef SHMPI_DECL_SIGNAL
SHMPI_FN(uint64_t, shmem_signal_fetch, (const uint64_t *sig_addr))
/* OpenSHMEM 1.6: signal updates without data. */
SHMPI_FN(void, shmem_signal_add, (uint64_t *sig_addr, uint64_t signal, int pe))
SHMPI_FN(void, shmem_ctx_signal_add, (shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal,
                                      int pe))
SHMPI_FN(void, shmem_signal_set, (uint64_t *sig_addr, uint64_t signal, int pe))
SHMPI_FN(void, shmem_ctx_signal_set, (shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal,
                                      int pe))
SHMPI_FN(uint64_t, shmem_signal_wait_until, (uint64_t *sig_addr, int cmp, uint64_t cmp_value))

#undef SHMPI_CHAPTER
#define SHMPI_CHAPTER order
/* ---- Ordering --------------------------------------------------------------------------- */
SHMPI_FN(void, shmem_fence, (void))
SHMPI_FN(void, shmem_ctx_fence, (shmem_ctx_t ctx))
SHMPI_FN(void, shmem_quiet, (void))
SHMPI_FN(void, shmem_ctx_quiet, (shmem_ctx_t ctx))
SHMPI_FN(void, shmem_pe_quiet, (const int *target_pes, size_t npes))
SHMPI_FN(void, shmem_ctx_pe_quiet, (shmem_ctx_t ctx, const int *target_pes, size_t npes))
#undef SHMPI_CHAPTER
#define SHMPI_CHAPTER lock

/* ---- Distributed locks ----------------------------------------------------------------- */
SHMPI_FN(void, shmem_set_lock, (long *lock))
SHMPI_FN(int, shmem_test_lock, (long *lock))
SHMPI_FN(void, shmem_clear_lock, (long *lock))

#undef SHMPI_CHAPTER
#define SHMPI_CHAPTER p2p
/* ---- Point-to-point synchronization ------------------------------------------------ */
#define SHMPI_DECL_P2P(N, T)                                                                  \
    SHMPI_FN(void, shmem_##N##_wait_until, (T *ivar, int cmp, T cmp_value))                   \
    SHMPI_FN(int, shmem_##N##_test, (T *ivar, int cmp, T cmp_value))                          \
    SHMPI_FN(void, shmem_##N##_wait_until_all, (T *ivars, size_t nelems, const int *status,   \
                                                int cmp, T cmp_value))                        \
    SHMPI_FN(size_t, shmem_##N##_wait_until_any, (T *ivars, size_t nelems, const int *status, \
                                                  int cmp, T cmp_value))                      \
    SHMPI_FN(size_t, shmem_##N##_wait_until_some, (T *ivars, size_t nelems, size_t *indices,  \
                                                   const int *status, int cmp, T cmp_value))  \
    SHMPI_FN(void, shmem_##N##_wait_until_all_vector, (T *ivars, size_t nelems,               \
                                                       const int *status, int cmp,            \
                                                       const T *cmp_values))                  \
    SHMPI_FN(size_t, shmem_##N##_wait_until_any_vector, (T *ivars, size_t nelems,             \
                                                         const int *status, int cmp,          \
                                                         const T *cmp_values))                \
    SHMPI_FN(size_t, shmem_##N##_wait_until_some_vector, (T *ivars, size_t nelems,            \
                                                          size_t *indices, const int *status, \
                                                          int cmp, const T *cmp_values))      \
    SHMPI_FN(int, shmem_##N##_test_all, (T *ivars, size_t nelems, const int *status, int cmp, \
                                         T cmp_value))                                        \
    SHMPI_FN(size_t, shmem_##N##_test_any, (T *ivars, size_t nelems, const int *status,       \
                                            int cmp, T cmp_value))                            \
    SHMPI_FN(size_t, shmem_##N##_test_some, (T *ivars, size_t nelems, size_t *indices,        \
                                             const int *status, int cmp, T cmp_value))        \
    SHMPI_FN(int, shmem_##N##_test_all_vector, (T *ivars, size_t nelems, const int *status,   \
                                                int cmp, const T *cmp_values))                \
    SHMPI_FN(size_t, shmem_##N##_test_any_vector, (T *ivars, size_t nelems, const int *status, \
                                                   int cmp, const T *cmp_values))             \
    SHMPI_FN(size_t, shmem_##N##_test_some_vector, (T *ivars, size_t nelems, size_t *indices, \
                                                    const int *status, int cmp,               \
                                                    const T *cmp_values))
SHMPI_P2P_TYPES(SHMPI_DECL_P2P)
SHMPI_P2P_DEPRECATED_TYPES(SHMPI_DECL_P2P)
#undef SHMPI_DECL_P2P
#define SHMPI_DECL_WAIT_DEPRECATED(N, T)                                                      \
    SHMPI_FN(void, shmem_##N##_wait, (T *ivar, T cmp_value))
SHMPI_WAIT_DEPRECATED_TYPES(SHMPI_DECL_WAIT_DEPRECATED)
#undef SHMPI_DECL_WAIT_DEPRECATED
/* Deprecated untyped forms; C11 code gets the type-generic macros of the same names. */
SHMPI_FN(void, shmem_wait_until, (long *ivar, int cmp, long cmp_value))
SHMPI_FN(void, shmem_wait, (long *ivar, long cmp_value))

#undef SHMPI_CHAPTER
#define SHMPI_CHAPTER coll
/* ---- Collectives ------------------------------------------------------------------ */
SHMPI_FN(void, shmem_barrier_all, (void))
SHMPI_FN(void, shmem_sync_all, (void))
SHMPI_FN(int, shmem_team_sync, (shmem_team_t team))
#define SHMPI_DECL_COLL(N, T)                                                                 \
    SHMPI_FN(int, shmem_##N##_broadcast, (shmem_team_t team, T *dest, const T *source,        \
                                          size_t nelems, int PE_root))                        \
    SHMPI_FN(int, shmem_##N##_collect, (shmem_team_t team, T *dest, const T *source,          \
                                        size_t nelems))                                       \
    SHMPI_FN(int, shmem_##N##_fcollect, (shmem_team_t team, T *dest, const T *source,         \
                                         size_t nelems))                                      \
    SHMPI_FN(int, shmem_##N##_alltoall, (shmem_team_t team, T *dest, const T *source,         \
                                         size_t nelems))                                      \
    SHMPI_FN(int, shmem_##N##_alltoalls, (shmem_team_t team, T *dest, const T *source,        \
                                          ptrdiff_t dst, ptrdiff_t sst, size_t nelems))
SHMPI_RMA_TYPES(SHMPI_DECL_COLL)
#undef SHMPI_DECL_COLL
SHMPI_FN(int, shmem_broadcastmem, (shmem_team_t team, void *dest, const void *source,
                                   size_t nelems, int PE_root))
SHMPI_FN(int, shmem_collectmem, (shmem_team_t team, void *dest, const void *source,
                                 size_t nelems))
SHMPI_FN(int, shmem_fcollectmem, (shmem_team_t team, void *dest, const void *source,
                                  size_t nelems))
SHMPI_FN(int, shmem_alltoallmem, (shmem_team_t team, void *dest, const void *source,
                                  size_t nelems))
SHMPI_FN(int, shmem_alltoallsmem, (shmem_team_t team, void *dest, const void *source,
                                   ptrdiff_t dst, ptrdiff_t sst, size_t nelems))

/* Deprecated active-set collectives. */
SHMPI_FN(void, shmem_barrier, (int PE_start, int logPE_stride, int PE_size, long *pSync))
SHMPI_FN(void, shmem_sync, (int PE_start, int logPE_stride, int PE_size, long *pSync))
#define SHMPI_DECL_ASET_COLL(B)                                                               \
    SHMPI_FN(void, shmem_broadcast##B, (void *dest, const void *source, size_t nelems,        \
                                        int PE_root, int PE_start, int logPE_stride,          \
                                        int PE_size, long *pSync))                            \
    SHMPI_FN(void, shmem_collect##B, (void *dest, const void *source, size_t nelems,          \
                                      int PE_start, int logPE_stride, int PE_size,            \
                                      long *pSync))                                           \
    SHMPI_FN(void, shmem_fcollect##B, (void *dest, const void *source, size_t nelems,         \
                                       int PE_start, int logPE_stride, int PE_size,           \
                                       long *pSync))                                          \
    SHMPI_FN(void, shmem_alltoall##B, (void *dest, const void *source, size_t nelems,         \
                                       int PE_start, int logPE_stride, int PE_size,           \
                                       long *pSync))                                          \
    SHMPI_FN(void, shmem_alltoalls##B, (void *dest, const void *source, ptrdiff_t dst,        \
                                        ptrdiff_t sst, size_t nelems, int PE_start,           \
                                        int logPE_stride, int PE_size, long *pSync))
SHMPI_DECL_ASET_COLL(32)
SHMPI_DECL_ASET_COLL(64)
#undef SHMPI_DECL_ASET_COLL

#undef SHMPI_CHAPTER
#define SHMPI_CHAPTER reduce
/* ---- Reductions ---------------------------------------------------------------------- */
#define SHMPI_DECL_REDUCE(N, T, DT_MPI, OP, OP_MPI)                                           \
    SHMPI_FN_CALL(int, shmem_##N##_##OP##_reduce,                                             \
                  (shmem_team_t team, T *dest, const T *source, size_t nreduce),              \
                  shmpi_coll_reduce(__func__, SHMPI_TEAM_GROUP(__func__, team), dest, source, \
                                    nreduce, sizeof(T), DT_MPI, OP_MPI))
SHMPI_TEAM_REDUCTIONS(SHMPI_DECL_REDUCE)
#undef SHMPI_DECL_REDUCE

#undef SHMPI_CHAPTER
#define SHMPI_CHAPTER scan
/* OpenSHMEM 1.6 scans (prefix sums): the types of the SUM column. */
#define SHMPI_DECL_SCAN(N, T, DT_MPI, KIND, EXCLUSIVE)                                        \
    SHMPI_FN_CALL(int, shmem_##N##_sum_##KIND,                                                \
                  (shmem_team_t team, T *dest, const T *source, size_t nelems),               \
                  shmpi_coll_scan(__func__, SHMPI_TEAM_GROUP(__func__, team), dest, source,   \
                                  nelems, sizeof(T), DT_MPI, MPI_SUM, EXCLUSIVE))
#define SHMPI_DECL_SCANS(N, T, DT_MPI)                                                        \
    SHMPI_DECL_SCAN(N, T, DT_MPI, inscan, false) SHMPI_DECL_SCAN(N, T, DT_MPI, exscan, true)
SHMPI_REDUCE_ARITH_TYPE_ROWS(SHMPI_ROW_MPI, SHMPI_DECL_SCANS)
#undef SHMPI_DECL_SCANS
#undef SHMPI_DECL_SCAN

#undef SHMPI_CHAPTER
#define SHMPI_CHAPTER reduce
/* Deprecated active-set reductions. */
#define SHMPI_DECL_TO_ALL(N, T, DT_MPI, OP, OP_MPI)                                           \
    SHMPI_FN(void, shmem_##N##_##OP##_to_all, (T *dest, const T *source, int nreduce,         \
                                               int PE_start, int logPE_stride, int PE_size,   \
                                               T *pWrk, long *pSync))
SHMPI_TO_ALL_REDUCTIONS(SHMPI_DECL_TO_ALL)
#undef SHMPI_DECL_TO_ALL
#undef SHMPI_CHAPTER
