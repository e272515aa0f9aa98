/*
 * shmem.h - OpenSHMEM 1.6 interface of shmpi (OpenSHMEM over MPI-3 RMA).
 *
 * Typed routines are declared by expanding the type tables of
 * shmpi_typetables.h; the list of names is the specification's.  Usable from
 * C99 and later and from C++ (C11 type-generic names need C11; C++ gets
 * overloads of the same names from shmpi_cxx.h).
 */
#ifndef SHMEM_H
#define SHMEM_H

#include <stddef.h>
#include <stdint.h>
#include "shmpi_typetables.h"

/* ---- Version and vendor --------------------------------------------------- */
#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 6
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define SHMEM_MAX_NAME_LEN 256
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define SHMEM_VENDOR_STRING "shmpi (OpenSHMEM over MPI-3 RMA)"
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING
/* shmpi's own release: major * 10000 + minor * 100 + patch. */
#define SHMPI_VERSION_MAJOR 0
#define SHMPI_VERSION_MINOR 1
#define SHMPI_VERSION_PATCH 0
#define SHMPI_VENDOR_VERSION                                                  \
    (SHMPI_VERSION_MAJOR * 10000 + SHMPI_VERSION_MINOR * 100 + SHMPI_VERSION_PATCH)

/* ---- Constants -------------------------------------------------------------- */
#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_GE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_LE 5
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE

#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE (1L << 1)

#define SHMEM_CTX_SERIALIZED (1L << 0)
#define SHMEM_CTX_PRIVATE (1L << 1)
#define SHMEM_CTX_NOSTORE (1L << 2)

#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

/* Deprecated active-set collectives: pSync sizes and initial value. */
#define SHMEM_SYNC_VALUE 0L
#define SHMEM_SYNC_SIZE 64
#define SHMEM_BCAST_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_REDUCE_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_BARRIER_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_COLLECT_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_ALLTOALL_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_ALLTOALLS_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 16
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

/* ---- Handles ------------------------------------------------------------------
 * Contexts and teams are pointers to library objects.  The predefined
 * handles are small constants (address constants usable in static
 * initializers) that the library maps to its own objects; INVALID is NULL. */
typedef struct shmpi_ctx *shmem_ctx_t;
typedef struct shmpi_team *shmem_team_t;

#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)
#define SHMEM_CTX_DEFAULT ((shmem_ctx_t)(uintptr_t)1)
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)
#define SHMEM_TEAM_WORLD ((shmem_team_t)(uintptr_t)1)
#define SHMEM_TEAM_SHARED ((shmem_team_t)(uintptr_t)2)

typedef struct {
    int num_contexts;
} shmem_team_config_t;

/* OpenSHMEM 1.6 communication sessions. */
#define SHMEM_CTX_SESSION_TOTAL_OPS (1L << 0)
#define SHMEM_CTX_SESSION_BATCH (1L << 0)
typedef struct {
    size_t total_ops;
} shmem_ctx_session_config_t;

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Setup, query, threads ------------------------------------------------- */
void shmem_init(void);
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
void shmem_finalize(void);
void shmem_global_exit(int status);
int shmem_my_pe(void);
int shmem_n_pes(void);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void *addr, int pe);
void *shmem_ptr(const void *dest, int pe);
void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe);
void shmem_query_initialized(int *initialized);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);
void shmem_pcontrol(int level, ...);
void start_pes(int npes);
int _my_pe(void);
int _num_pes(void);

/* ---- Memory management --------------------------------------------------------- */
void *shmem_malloc(size_t size);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_realloc(void *ptr, size_t size);
void *shmem_malloc_with_hints(size_t size, long hints);
void shmem_free(void *ptr);
void *shmalloc(size_t size);
void shfree(void *ptr);
void *shrealloc(void *ptr, size_t size);
void *shmemalign(size_t alignment, size_t size);

/* ---- Teams ------------------------------------------------------------------------ */
int shmem_team_my_pe(shmem_team_t team);
int shmem_team_n_pes(shmem_team_t team);
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team);
int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
                        const shmem_team_config_t *xaxis_config, long xaxis_mask,
                        shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team);
void shmem_team_destroy(shmem_team_t team);

/* ---- Contexts --------------------------------------------------------------------- */
int shmem_ctx_create(long options, shmem_ctx_t *ctx);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);
void shmem_ctx_session_start(shmem_ctx_t ctx, long options,
                             const shmem_ctx_session_config_t *config, long config_mask);
void shmem_ctx_session_stop(shmem_ctx_t ctx);

/* ---- RMA ------------------------------------------------------------------------------ */
#define SHMPI_DECL_RMA(N, T)                                                                  \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe);                    \
    void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe);                    \
    void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
    void shmem_##N##_p(T *dest, T value, int pe);                                             \
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe);                        \
    T shmem_##N##_g(const T *source, int pe);                                                 \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe);                            \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,             \
                          size_t nelems, int pe);                                             \
    void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,       \
                              ptrdiff_t sst, size_t nelems, int pe);                          \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,             \
                          size_t nelems, int pe);                                             \
    void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,       \
                              ptrdiff_t sst, size_t nelems, int pe);                          \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe);                \
    void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,    \
                                 int pe);                                                     \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe);                \
    void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,    \
                                 int pe);
SHMPI_RMA_TYPES(SHMPI_DECL_RMA)
#undef SHMPI_DECL_RMA

/* OpenSHMEM 1.6: blocked strided put/get (nblocks blocks of bsize elements). */
#define SHMPI_DECL_RMA_BLOCKED(NAME, T)                                                       \
    void shmem_##NAME(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,   \
                      size_t nblocks, int pe);                                                \
    void shmem_ctx_##NAME(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,           \
                          ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);
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
    void shmem_##S##B(void *dest, const void *source, size_t nelems, int pe);                 \
    void shmem_ctx_##S##B(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,     \
                          int pe);
#define SHMPI_DECL_RMA_STRIDED(S, B)                                                          \
    void shmem_##S##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,           \
                      size_t nelems, int pe);                                                 \
    void shmem_ctx_##S##B(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,     \
                          ptrdiff_t sst, size_t nelems, int pe);
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

/* ---- Atomic memory operations ---------------------------------------------------- */
#define SHMPI_DECL_AMO_EXT(N, T)                                                              \
    T shmem_##N##_atomic_fetch(const T *source, int pe);                                      \
    T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe);                 \
    void shmem_##N##_atomic_set(T *dest, T value, int pe);                                    \
    void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *dest, T value, int pe);               \
    T shmem_##N##_atomic_swap(T *dest, T value, int pe);                                      \
    T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe);                 \
    void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe);                     \
    void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, const T *source, int pe); \
    void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe);                     \
    void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe);
SHMPI_AMO_EXT_TYPES(SHMPI_DECL_AMO_EXT)
#undef SHMPI_DECL_AMO_EXT

#define SHMPI_DECL_AMO_STD(N, T)                                                              \
    T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe);                      \
    T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *dest, T cond, T value, int pe); \
    T shmem_##N##_atomic_fetch_inc(T *dest, int pe);                                          \
    T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe);                     \
    void shmem_##N##_atomic_inc(T *dest, int pe);                                             \
    void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe);                        \
    T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe);                                 \
    T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t ctx, T *dest, T value, int pe);            \
    void shmem_##N##_atomic_add(T *dest, T value, int pe);                                    \
    void shmem_ctx_##N##_atomic_add(shmem_ctx_t ctx, T *dest, T value, int pe);               \
    void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe);     \
    void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T cond,  \
                                                 T value, int pe);                            \
    void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe);                         \
    void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, T *dest, int pe);    \
    void shmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe);                \
    void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value,    \
                                              int pe);
SHMPI_AMO_STD_TYPES(SHMPI_DECL_AMO_STD)
#undef SHMPI_DECL_AMO_STD

#define SHMPI_DECL_AMO_BIT_OP(N, T, OP)                                                       \
    T shmem_##N##_atomic_fetch_##OP(T *dest, T value, int pe);                                \
    T shmem_ctx_##N##_atomic_fetch_##OP(shmem_ctx_t ctx, T *dest, T value, int pe);           \
    void shmem_##N##_atomic_##OP(T *dest, T value, int pe);                                   \
    void shmem_ctx_##N##_atomic_##OP(shmem_ctx_t ctx, T *dest, T value, int pe);              \
    void shmem_##N##_atomic_fetch_##OP##_nbi(T *fetch, T *dest, T value, int pe);             \
    void shmem_ctx_##N##_atomic_fetch_##OP##_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, \
                                                 int pe);
#define SHMPI_DECL_AMO_BIT(N, T)                                                              \
    SHMPI_DECL_AMO_BIT_OP(N, T, and) SHMPI_DECL_AMO_BIT_OP(N, T, or)                          \
    SHMPI_DECL_AMO_BIT_OP(N, T, xor)
SHMPI_AMO_BIT_TYPES(SHMPI_DECL_AMO_BIT)
#undef SHMPI_DECL_AMO_BIT
#undef SHMPI_DECL_AMO_BIT_OP

#define SHMPI_DECL_AMO_DEPRECATED_EXT(N, T)                                                   \
    T shmem_##N##_fetch(const T *source, int pe);                                             \
    void shmem_##N##_set(T *dest, T value, int pe);                                           \
    T shmem_##N##_swap(T *dest, T value, int pe);
SHMPI_AMO_DEPRECATED_EXT_TYPES(SHMPI_DECL_AMO_DEPRECATED_EXT)
#undef SHMPI_DECL_AMO_DEPRECATED_EXT
#define SHMPI_DECL_AMO_DEPRECATED_STD(N, T)                                                   \
    T shmem_##N##_cswap(T *dest, T cond, T value, int pe);                                    \
    T shmem_##N##_finc(T *dest, int pe);                                                      \
    void shmem_##N##_inc(T *dest, int pe);                                                    \
    T shmem_##N##_fadd(T *dest, T value, int pe);                                             \
    void shmem_##N##_add(T *dest, T value, int pe);
SHMPI_AMO_DEPRECATED_STD_TYPES(SHMPI_DECL_AMO_DEPRECATED_STD)
#undef SHMPI_DECL_AMO_DEPRECATED_STD
/* The deprecated names on the other standard AMO types: inline forwarders
 * to the current names. */
#define SHMPI_INLINE_AMO_DEPRECATED(N, T)                                                     \
    static inline T shmem_##N##_fetch(const T *source, int pe)                                \
    {                                                                                         \
        return shmem_##N##_atomic_fetch(source, pe);                                          \
    }                                                                                         \
    static inline void shmem_##N##_set(T *dest, T value, int pe)                              \
    {                                                                                         \
        shmem_##N##_atomic_set(dest, value, pe);                                              \
    }                                                                                         \
    static inline T shmem_##N##_swap(T *dest, T value, int pe)                                \
    {                                                                                         \
        return shmem_##N##_atomic_swap(dest, value, pe);                                      \
    }                                                                                         \
    static inline T shmem_##N##_cswap(T *dest, T cond, T value, int pe)                       \
    {                                                                                         \
        return shmem_##N##_atomic_compare_swap(dest, cond, value, pe);                        \
    }                                                                                         \
    static inline T shmem_##N##_finc(T *dest, int pe)                                         \
    {                                                                                         \
        return shmem_##N##_atomic_fetch_inc(dest, pe);                                        \
    }                                                                                         \
    static inline void shmem_##N##_inc(T *dest, int pe)                                      \
    {                                                                                         \
        shmem_##N##_atomic_inc(dest, pe);                                                     \
    }                                                                                         \
    static inline T shmem_##N##_fadd(T *dest, T value, int pe)                                \
    {                                                                                         \
        return shmem_##N##_atomic_fetch_add(dest, value, pe);                                 \
    }                                                                                         \
    static inline void shmem_##N##_add(T *dest, T value, int pe)                              \
    {                                                                                         \
        shmem_##N##_atomic_add(dest, value, pe);                                              \
    }
SHMPI_AMO_DEPRECATED_INLINE_TYPES(SHMPI_INLINE_AMO_DEPRECATED)
#undef SHMPI_INLINE_AMO_DEPRECATED

/* ---- Signals ---------------------------------------------------------------------- */
#define SHMPI_DECL_SIGNAL(NAME, T)                                                            \
    void shmem_##NAME(T *dest, const T *source, size_t nelems, uint64_t *sig_addr,            \
                      uint64_t signal, int sig_op, int pe);                                   \
    void shmem_ctx_##NAME(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,           \
                          uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
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
uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
/* OpenSHMEM 1.6: signal updates without data. */
void(shmem_signal_add)(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
void(shmem_signal_set)(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);

/* ---- Ordering and locks -------------------------------------------------------------- */
void shmem_fence(void);
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_quiet(void);
void shmem_ctx_quiet(shmem_ctx_t ctx);
void shmem_pe_quiet(const int *target_pes, size_t npes);
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes);
void shmem_set_lock(long *lock);
int shmem_test_lock(long *lock);
void shmem_clear_lock(long *lock);

/* ---- Point-to-point synchronization ------------------------------------------------ */
#define SHMPI_DECL_P2P(N, T)                                                                  \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);                               \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value);                                      \
    void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp,      \
                                    T cmp_value);                                             \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp,    \
                                      T cmp_value);                                           \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices,              \
                                       const int *status, int cmp, T cmp_value);              \
    void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status,        \
                                           int cmp, const T *cmp_values);                           \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status,      \
                                             int cmp, const T *cmp_values);                         \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices,       \
                                              const int *status, int cmp, const T *cmp_values);     \
    int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp,             \
                             T cmp_value);                                                    \
    size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp,          \
                                T cmp_value);                                                 \
    size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, const int *status, \
                                 int cmp, T cmp_value);                                       \
    int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp,      \
                                    const T *cmp_values);                                           \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp,   \
                                       const T *cmp_values);                                        \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices,             \
                                        const int *status, int cmp, const T *cmp_values);
SHMPI_P2P_TYPES(SHMPI_DECL_P2P)
SHMPI_P2P_DEPRECATED_TYPES(SHMPI_DECL_P2P)
#undef SHMPI_DECL_P2P
#define SHMPI_DECL_WAIT_DEPRECATED(N, T) void shmem_##N##_wait(T *ivar, T cmp_value);
SHMPI_WAIT_DEPRECATED_TYPES(SHMPI_DECL_WAIT_DEPRECATED)
#undef SHMPI_DECL_WAIT_DEPRECATED
/* Deprecated untyped forms; C11 code gets the type-generic macros below. */
void(shmem_wait_until)(long *ivar, int cmp, long cmp_value);
void shmem_wait(long *ivar, long cmp_value);

/* ---- Collectives ------------------------------------------------------------------ */
void shmem_barrier_all(void);
void shmem_sync_all(void);
int shmem_team_sync(shmem_team_t team);
#define SHMPI_DECL_COLL(N, T)                                                                 \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems,     \
                              int PE_root);                                                   \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems);      \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems);     \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems);     \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst,     \
                              ptrdiff_t sst, size_t nelems);
SHMPI_RMA_TYPES(SHMPI_DECL_COLL)
#undef SHMPI_DECL_COLL
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems);

/* Deprecated active-set collectives. */
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
void(shmem_sync)(int PE_start, int logPE_stride, int PE_size, long *pSync);
#define SHMPI_DECL_ASET_COLL(B)                                                               \
    void shmem_broadcast##B(void *dest, const void *source, size_t nelems, int PE_root,       \
                            int PE_start, int logPE_stride, int PE_size, long *pSync);        \
    void shmem_collect##B(void *dest, const void *source, size_t nelems, int PE_start,        \
                          int logPE_stride, int PE_size, long *pSync);                        \
    void shmem_fcollect##B(void *dest, const void *source, size_t nelems, int PE_start,       \
                           int logPE_stride, int PE_size, long *pSync);                       \
    void shmem_alltoall##B(void *dest, const void *source, size_t nelems, int PE_start,       \
                           int logPE_stride, int PE_size, long *pSync);                       \
    void shmem_alltoalls##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,     \
                            size_t nelems, int PE_start, int logPE_stride, int PE_size,       \
                            long *pSync);
SHMPI_DECL_ASET_COLL(32)
SHMPI_DECL_ASET_COLL(64)
#undef SHMPI_DECL_ASET_COLL

/* ---- Reductions ---------------------------------------------------------------------- */
#define SHMPI_DECL_REDUCE_OP(N, T, OP)                                                        \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source,                \
                                  size_t nreduce);
#define SHMPI_DECL_REDUCE_BITWISE(N, T)                                                       \
    SHMPI_DECL_REDUCE_OP(N, T, and) SHMPI_DECL_REDUCE_OP(N, T, or)                            \
    SHMPI_DECL_REDUCE_OP(N, T, xor)
#define SHMPI_DECL_REDUCE_MINMAX(N, T)                                                        \
    SHMPI_DECL_REDUCE_OP(N, T, max) SHMPI_DECL_REDUCE_OP(N, T, min)
#define SHMPI_DECL_REDUCE_ARITH(N, T)                                                         \
    SHMPI_DECL_REDUCE_OP(N, T, sum) SHMPI_DECL_REDUCE_OP(N, T, prod)
SHMPI_REDUCE_BITWISE_TYPES(SHMPI_DECL_REDUCE_BITWISE)
SHMPI_REDUCE_BITWISE_EXTRA_TYPES(SHMPI_DECL_REDUCE_BITWISE)
SHMPI_REDUCE_MINMAX_TYPES(SHMPI_DECL_REDUCE_MINMAX)
SHMPI_REDUCE_ARITH_TYPES(SHMPI_DECL_REDUCE_ARITH)
#undef SHMPI_DECL_REDUCE_BITWISE
#undef SHMPI_DECL_REDUCE_MINMAX
#undef SHMPI_DECL_REDUCE_ARITH
#undef SHMPI_DECL_REDUCE_OP

/* OpenSHMEM 1.6 scans (prefix sums): the types of the SUM column. */
#define SHMPI_DECL_SCAN(N, T)                                                                 \
    int shmem_##N##_sum_inscan(shmem_team_t team, T *dest, const T *source, size_t nelems);   \
    int shmem_##N##_sum_exscan(shmem_team_t team, T *dest, const T *source, size_t nelems);
SHMPI_REDUCE_ARITH_TYPES(SHMPI_DECL_SCAN)
#undef SHMPI_DECL_SCAN

#define SHMPI_DECL_TO_ALL_OP(N, T, OP)                                                        \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start,       \
                                   int logPE_stride, int PE_size, T *pWrk, long *pSync);
#define SHMPI_DECL_TO_ALL_BITWISE(N, T)                                                       \
    SHMPI_DECL_TO_ALL_OP(N, T, and) SHMPI_DECL_TO_ALL_OP(N, T, or)                            \
    SHMPI_DECL_TO_ALL_OP(N, T, xor)
#define SHMPI_DECL_TO_ALL_MINMAX(N, T)                                                        \
    SHMPI_DECL_TO_ALL_OP(N, T, max) SHMPI_DECL_TO_ALL_OP(N, T, min)
#define SHMPI_DECL_TO_ALL_ARITH(N, T)                                                         \
    SHMPI_DECL_TO_ALL_OP(N, T, sum) SHMPI_DECL_TO_ALL_OP(N, T, prod)
SHMPI_TO_ALL_BITWISE_TYPES(SHMPI_DECL_TO_ALL_BITWISE)
SHMPI_TO_ALL_MINMAX_TYPES(SHMPI_DECL_TO_ALL_MINMAX)
SHMPI_TO_ALL_ARITH_TYPES(SHMPI_DECL_TO_ALL_ARITH)
#undef SHMPI_DECL_TO_ALL_BITWISE
#undef SHMPI_DECL_TO_ALL_MINMAX
#undef SHMPI_DECL_TO_ALL_ARITH
#undef SHMPI_DECL_TO_ALL_OP

#ifdef __cplusplus
} /* extern "C" */
#endif

/* ---- Type-generic interfaces ----------------------------------------------------- */
#if defined(__cplusplus)
#include "shmpi_cxx.h"
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#include "shmpi_generics.h"
#endif

#endif /* SHMEM_H */
