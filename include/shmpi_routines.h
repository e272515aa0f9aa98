/*
 * shmpi_routines.h - every routine of the OpenSHMEM API that shmpi provides,
 * written once: an untyped routine is one SHMPI_FN(RET, NAME, (PARAMS))
 * entry; a typed family is one SHMPI_TYPED entry over a type table of
 * shmpi_typetables.h (see shmpi_families.h), which is also its generic
 * name.  Each chapter ends with its C11 generic names, one #define a name.
 *
 * This file has no include guard: its includer defines SHMPI_FN first.
 * shmem.h makes each entry the declaration RET NAME(PARAMS) and, in C11,
 * defines the generic names; shmpi_cxx.h makes each family a C++ template;
 * pshmem.h makes each entry the profiling name's, RET pNAME(PARAMS); the
 * library's own build (src/base/shmpi.h) gives each the assembler name
 * pNAME and a weak alias NAME (see docs/profiling.md).  SHMPI_CHAPTER
 * names the file of src/api that defines the entries that follow.
 * Installed because shmem.h needs it; programs include shmem.h (and tools
 * pshmem.h), not this file.
 *
 * An entry whose definition is one call into the layers carries that call:
 * SHMPI_FN_CALL(RET, NAME, PARAMS, CALL) returns CALL, SHMPI_FN_DO(NAME,
 * PARAMS, CALL) is a void routine that makes it, SHMPI_TYPED_CALL is such
 * a family.  Outside the library they are plain entries (the call is never
 * expanded); src/api/listed.c defines them, so such a routine is written
 * here and in its core function only.
 *
 * To see every declaration expanded, one per line (e.g. to grep a typed
 * name), run `make decls` in the build directory:
 *   make -s decls | grep shmem_long_put
 */
#ifndef SHMPI_FN_CALL
#define SHMPI_FN_CALL(RET, NAME, PARAMS, CALL) SHMPI_FN(RET, NAME, PARAMS)
#define SHMPI_FN_DO(NAME, PARAMS, CALL) SHMPI_FN(void, NAME, PARAMS)
#endif
/* What a family gives besides its typed routines: nothing here; shmpi_cxx.h
 * makes it the C++ generic name (its templates). */
#ifndef SHMPI_GENERIC_NAME
#define SHMPI_GENERIC_NAME(RET, OP, TABLE, FORMS, SIG)
#endif

#include "shmpi_families.h"

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
SHMPI_TYPED(VOID, put, RMA, CTX, CONTIG)
SHMPI_TYPED(VOID, get, RMA, CTX, CONTIG)
SHMPI_TYPED(VOID, p, RMA, CTX, DVP)
SHMPI_TYPED(ELEM, g, RMA, CTX, SP)
SHMPI_TYPED(VOID, iput, RMA, CTX, STRIDED)
SHMPI_TYPED(VOID, iget, RMA, CTX, STRIDED)
SHMPI_TYPED(VOID, put_nbi, RMA, CTX, CONTIG)
SHMPI_TYPED(VOID, get_nbi, RMA, CTX, CONTIG)
/* OpenSHMEM 1.6: blocked strided put/get (nblocks blocks of bsize elements). */
SHMPI_TYPED(VOID, ibput, RMA, CTX, BLOCKED)
SHMPI_TYPED(VOID, ibget, RMA, CTX, BLOCKED)

/* The sized and mem forms: untyped, so written out. */
#define SHMPI_DECL_RMA_UNTYPED(NAME, SIG)                                                     \
    SHMPI_FN(void, shmem_##NAME, (SHMPI_SIG_##SIG(void, void)))                               \
    SHMPI_FN(void, shmem_ctx_##NAME, (shmem_ctx_t ctx, SHMPI_SIG_##SIG(void, void)))
#define SHMPI_DECL_RMA_SIZES(B)                                                               \
    SHMPI_DECL_RMA_UNTYPED(ibput##B, BLOCKED) SHMPI_DECL_RMA_UNTYPED(ibget##B, BLOCKED)       \
    SHMPI_DECL_RMA_UNTYPED(put##B, CONTIG) SHMPI_DECL_RMA_UNTYPED(get##B, CONTIG)             \
    SHMPI_DECL_RMA_UNTYPED(iput##B, STRIDED) SHMPI_DECL_RMA_UNTYPED(iget##B, STRIDED)         \
    SHMPI_DECL_RMA_UNTYPED(put##B##_nbi, CONTIG) SHMPI_DECL_RMA_UNTYPED(get##B##_nbi, CONTIG)
SHMPI_RMA_SIZES(SHMPI_DECL_RMA_SIZES)
SHMPI_DECL_RMA_UNTYPED(putmem, CONTIG)
SHMPI_DECL_RMA_UNTYPED(getmem, CONTIG)
SHMPI_DECL_RMA_UNTYPED(putmem_nbi, CONTIG)
SHMPI_DECL_RMA_UNTYPED(getmem_nbi, CONTIG)
#undef SHMPI_DECL_RMA_SIZES

#ifdef SHMPI_C11_GENERIC_NAMES
#define shmem_put(...) SHMPI_C11_GENERIC(CTX, put, RMA, CONTIG, __VA_ARGS__)
#define shmem_get(...) SHMPI_C11_GENERIC(CTX, get, RMA, CONTIG, __VA_ARGS__)
#define shmem_p(...) SHMPI_C11_GENERIC(CTX, p, RMA, DVP, __VA_ARGS__)
#define shmem_g(...) SHMPI_C11_GENERIC(CTX, g, RMA, SP, __VA_ARGS__)
#define shmem_iput(...) SHMPI_C11_GENERIC(CTX, iput, RMA, STRIDED, __VA_ARGS__)
#define shmem_iget(...) SHMPI_C11_GENERIC(CTX, iget, RMA, STRIDED, __VA_ARGS__)
#define shmem_put_nbi(...) SHMPI_C11_GENERIC(CTX, put_nbi, RMA, CONTIG, __VA_ARGS__)
#define shmem_get_nbi(...) SHMPI_C11_GENERIC(CTX, get_nbi, RMA, CONTIG, __VA_ARGS__)
#define shmem_ibput(...) SHMPI_C11_GENERIC(CTX, ibput, RMA, BLOCKED, __VA_ARGS__)
#define shmem_ibget(...) SHMPI_C11_GENERIC(CTX, ibget, RMA, BLOCKED, __VA_ARGS__)
#endif

#undef SHMPI_CHAPTER
#define SHMPI_CHAPTER amo
/* ---- Atomic memory operations ---------------------------------------------------- */
SHMPI_TYPED(ELEM, atomic_fetch, AMO_EXT, CTX, SP)
SHMPI_TYPED(VOID, atomic_set, AMO_EXT, CTX, DVP)
SHMPI_TYPED(ELEM, atomic_swap, AMO_EXT, CTX, DVP)
SHMPI_TYPED(VOID, atomic_fetch_nbi, AMO_EXT, CTX, FSP)
SHMPI_TYPED(VOID, atomic_swap_nbi, AMO_EXT, CTX, FDVP)
SHMPI_TYPED(ELEM, atomic_compare_swap, AMO_STD, CTX, DCVP)
SHMPI_TYPED(ELEM, atomic_fetch_inc, AMO_STD, CTX, DP)
SHMPI_TYPED(VOID, atomic_inc, AMO_STD, CTX, DP)
SHMPI_TYPED(ELEM, atomic_fetch_add, AMO_STD, CTX, DVP)
SHMPI_TYPED(VOID, atomic_add, AMO_STD, CTX, DVP)
SHMPI_TYPED(VOID, atomic_compare_swap_nbi, AMO_STD, CTX, FDCVP)
SHMPI_TYPED(VOID, atomic_fetch_inc_nbi, AMO_STD, CTX, FDP)
SHMPI_TYPED(VOID, atomic_fetch_add_nbi, AMO_STD, CTX, FDVP)
SHMPI_TYPED(ELEM, atomic_fetch_and, AMO_BIT, CTX, DVP)
SHMPI_TYPED(VOID, atomic_and, AMO_BIT, CTX, DVP)
SHMPI_TYPED(VOID, atomic_fetch_and_nbi, AMO_BIT, CTX, FDVP)
SHMPI_TYPED(ELEM, atomic_fetch_or, AMO_BIT, CTX, DVP)
SHMPI_TYPED(VOID, atomic_or, AMO_BIT, CTX, DVP)
SHMPI_TYPED(VOID, atomic_fetch_or_nbi, AMO_BIT, CTX, FDVP)
SHMPI_TYPED(ELEM, atomic_fetch_xor, AMO_BIT, CTX, DVP)
SHMPI_TYPED(VOID, atomic_xor, AMO_BIT, CTX, DVP)
SHMPI_TYPED(VOID, atomic_fetch_xor_nbi, AMO_BIT, CTX, FDVP)

/* Deprecated names: library routines on the types that had them (the
 * others are inline forwarders in shmem.h); the generic names cover both. */
#define SHMPI_DECL_AMO_DEPRECATED_EXT(N, T)                                                   \
    SHMPI_FN(T, shmem_##N##_fetch, (SHMPI_SIG_SP(T, T)))                                      \
    SHMPI_FN(void, shmem_##N##_set, (SHMPI_SIG_DVP(T, T)))                                    \
    SHMPI_FN(T, shmem_##N##_swap, (SHMPI_SIG_DVP(T, T)))
SHMPI_AMO_DEPRECATED_EXT_TYPES(SHMPI_DECL_AMO_DEPRECATED_EXT)
#undef SHMPI_DECL_AMO_DEPRECATED_EXT
#define SHMPI_DECL_AMO_DEPRECATED_STD(N, T)                                                   \
    SHMPI_FN(T, shmem_##N##_cswap, (SHMPI_SIG_DCVP(T, T)))                                    \
    SHMPI_FN(T, shmem_##N##_finc, (SHMPI_SIG_DP(T, T)))                                       \
    SHMPI_FN(void, shmem_##N##_inc, (SHMPI_SIG_DP(T, T)))                                     \
    SHMPI_FN(T, shmem_##N##_fadd, (SHMPI_SIG_DVP(T, T)))                                      \
    SHMPI_FN(void, shmem_##N##_add, (SHMPI_SIG_DVP(T, T)))
SHMPI_AMO_DEPRECATED_STD_TYPES(SHMPI_DECL_AMO_DEPRECATED_STD)
#undef SHMPI_DECL_AMO_DEPRECATED_STD
SHMPI_GENERIC_ONLY(ELEM, fetch, AMO_EXT, PLAIN, SP)
SHMPI_GENERIC_ONLY(VOID, set, AMO_EXT, PLAIN, DVP)
SHMPI_GENERIC_ONLY(ELEM, swap, AMO_EXT, PLAIN, DVP)
SHMPI_GENERIC_ONLY(ELEM, cswap, AMO_STD, PLAIN, DCVP)
SHMPI_GENERIC_ONLY(ELEM, finc, AMO_STD, PLAIN, DP)
SHMPI_GENERIC_ONLY(VOID, inc, AMO_STD, PLAIN, DP)
SHMPI_GENERIC_ONLY(ELEM, fadd, AMO_STD, PLAIN, DVP)
SHMPI_GENERIC_ONLY(VOID, add, AMO_STD, PLAIN, DVP)

#ifdef SHMPI_C11_GENERIC_NAMES
#define shmem_atomic_fetch(...) SHMPI_C11_GENERIC(CTX, atomic_fetch, AMO_EXT, SP, __VA_ARGS__)
#define shmem_atomic_set(...) SHMPI_C11_GENERIC(CTX, atomic_set, AMO_EXT, DVP, __VA_ARGS__)
#define shmem_atomic_swap(...) SHMPI_C11_GENERIC(CTX, atomic_swap, AMO_EXT, DVP, __VA_ARGS__)
#define shmem_atomic_fetch_nbi(...)                                                           \
    SHMPI_C11_GENERIC(CTX, atomic_fetch_nbi, AMO_EXT, FSP, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...)                                                            \
    SHMPI_C11_GENERIC(CTX, atomic_swap_nbi, AMO_EXT, FDVP, __VA_ARGS__)
#define shmem_atomic_compare_swap(...)                                                        \
    SHMPI_C11_GENERIC(CTX, atomic_compare_swap, AMO_STD, DCVP, __VA_ARGS__)
#define shmem_atomic_fetch_inc(...)                                                           \
    SHMPI_C11_GENERIC(CTX, atomic_fetch_inc, AMO_STD, DP, __VA_ARGS__)
#define shmem_atomic_inc(...) SHMPI_C11_GENERIC(CTX, atomic_inc, AMO_STD, DP, __VA_ARGS__)
#define shmem_atomic_fetch_add(...)                                                           \
    SHMPI_C11_GENERIC(CTX, atomic_fetch_add, AMO_STD, DVP, __VA_ARGS__)
#define shmem_atomic_add(...) SHMPI_C11_GENERIC(CTX, atomic_add, AMO_STD, DVP, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...)                                                    \
    SHMPI_C11_GENERIC(CTX, atomic_compare_swap_nbi, AMO_STD, FDCVP, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...)                                                       \
    SHMPI_C11_GENERIC(CTX, atomic_fetch_inc_nbi, AMO_STD, FDP, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...)                                                       \
    SHMPI_C11_GENERIC(CTX, atomic_fetch_add_nbi, AMO_STD, FDVP, __VA_ARGS__)
#define shmem_atomic_fetch_and(...)                                                           \
    SHMPI_C11_GENERIC(CTX, atomic_fetch_and, AMO_BIT, DVP, __VA_ARGS__)
#define shmem_atomic_and(...) SHMPI_C11_GENERIC(CTX, atomic_and, AMO_BIT, DVP, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...)                                                       \
    SHMPI_C11_GENERIC(CTX, atomic_fetch_and_nbi, AMO_BIT, FDVP, __VA_ARGS__)
#define shmem_atomic_fetch_or(...)                                                            \
    SHMPI_C11_GENERIC(CTX, atomic_fetch_or, AMO_BIT, DVP, __VA_ARGS__)
#define shmem_atomic_or(...) SHMPI_C11_GENERIC(CTX, atomic_or, AMO_BIT, DVP, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...)                                                        \
    SHMPI_C11_GENERIC(CTX, atomic_fetch_or_nbi, AMO_BIT, FDVP, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...)                                                           \
    SHMPI_C11_GENERIC(CTX, atomic_fetch_xor, AMO_BIT, DVP, __VA_ARGS__)
#define shmem_atomic_xor(...) SHMPI_C11_GENERIC(CTX, atomic_xor, AMO_BIT, DVP, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...)                                                       \
    SHMPI_C11_GENERIC(CTX, atomic_fetch_xor_nbi, AMO_BIT, FDVP, __VA_ARGS__)
#define shmem_fetch(...) SHMPI_C11_GENERIC(PLAIN, fetch, AMO_EXT, SP, __VA_ARGS__)
#define shmem_set(...) SHMPI_C11_GENERIC(PLAIN, set, AMO_EXT, DVP, __VA_ARGS__)
#define shmem_swap(...) SHMPI_C11_GENERIC(PLAIN, swap, AMO_EXT, DVP, __VA_ARGS__)
#define shmem_cswap(...) SHMPI_C11_GENERIC(PLAIN, cswap, AMO_STD, DCVP, __VA_ARGS__)
#define shmem_finc(...) SHMPI_C11_GENERIC(PLAIN, finc, AMO_STD, DP, __VA_ARGS__)
#define shmem_inc(...) SHMPI_C11_GENERIC(PLAIN, inc, AMO_STD, DP, __VA_ARGS__)
#define shmem_fadd(...) SHMPI_C11_GENERIC(PLAIN, fadd, AMO_STD, DVP, __VA_ARGS__)
#define shmem_add(...) SHMPI_C11_GENERIC(PLAIN, add, AMO_STD, DVP, __VA_ARGS__)
#endif

#undef SHMPI_CHAPTER
#define SHMPI_CHAPTER signal
/* ---- Signals ---------------------------------------------------------------------- */
SHMPI_TYPED(VOID, put_signal, RMA, CTX, SIGNAL)
SHMPI_TYPED(VOID, put_signal_nbi, RMA, CTX, SIGNAL)
#define SHMPI_DECL_SIGNAL_UNTYPED(NAME)                                                       \
    SHMPI_FN(void, shmem_##NAME, (SHMPI_SIG_SIGNAL(void, void)))                              \
    SHMPI_FN(void, shmem_ctx_##NAME, (shmem_ctx_t ctx, SHMPI_SIG_SIGNAL(void, void)))
#define SHMPI_DECL_SIGNAL_SIZED(B)                                                            \
    SHMPI_DECL_SIGNAL_UNTYPED(put##B##_signal) SHMPI_DECL_SIGNAL_UNTYPED(put##B##_signal_nbi)
SHMPI_RMA_SIZES(SHMPI_DECL_SIGNAL_SIZED)
SHMPI_DECL_SIGNAL_UNTYPED(putmem_signal)
SHMPI_DECL_SIGNAL_UNTYPED(putmem_signal_nbi)
#undef SHMPI_DECL_SIGNAL_SIZED
#undef SHMPI_DECL_SIGNAL_UNTYPED
SHMPI_FN(uint64_t, shmem_signal_fetch, (const uint64_t *sig_addr))
/* OpenSHMEM 1.6: signal updates without data. */
SHMPI_FN(void, shmem_signal_add, (uint64_t *sig_addr, uint64_t signal, int pe))
SHMPI_FN(void, shmem_ctx_signal_add, (shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal,
                                      int pe))
SHMPI_FN(void, shmem_signal_set, (uint64_t *sig_addr, uint64_t signal, int pe))
SHMPI_FN(void, shmem_ctx_signal_set, (shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal,
                                      int pe))
SHMPI_FN(uint64_t, shmem_signal_wait_until, (uint64_t *sig_addr, int cmp, uint64_t cmp_value))

#ifdef SHMPI_C11_GENERIC_NAMES
#define shmem_put_signal(...) SHMPI_C11_GENERIC(CTX, put_signal, RMA, SIGNAL, __VA_ARGS__)
#define shmem_put_signal_nbi(...)                                                             \
    SHMPI_C11_GENERIC(CTX, put_signal_nbi, RMA, SIGNAL, __VA_ARGS__)
/* signal_add and signal_set: the untyped routine, or its ctx form when
 * called with a leading context. */
#define shmem_signal_add(...) SHMPI_C11_UNTYPED(3, signal_add, __VA_ARGS__)
#define shmem_signal_set(...) SHMPI_C11_UNTYPED(3, signal_set, __VA_ARGS__)
#endif

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
SHMPI_TYPED(VOID, wait_until, P2P_ALL, PLAIN, WAIT)
SHMPI_TYPED(INT, test, P2P_ALL, PLAIN, WAIT)
SHMPI_TYPED(VOID, wait_until_all, P2P_ALL, PLAIN, SET)
SHMPI_TYPED(SIZE, wait_until_any, P2P_ALL, PLAIN, SET)
SHMPI_TYPED(SIZE, wait_until_some, P2P_ALL, PLAIN, SOME)
SHMPI_TYPED(VOID, wait_until_all_vector, P2P_ALL, PLAIN, SET_VECTOR)
SHMPI_TYPED(SIZE, wait_until_any_vector, P2P_ALL, PLAIN, SET_VECTOR)
SHMPI_TYPED(SIZE, wait_until_some_vector, P2P_ALL, PLAIN, SOME_VECTOR)
SHMPI_TYPED(INT, test_all, P2P_ALL, PLAIN, SET)
SHMPI_TYPED(SIZE, test_any, P2P_ALL, PLAIN, SET)
SHMPI_TYPED(SIZE, test_some, P2P_ALL, PLAIN, SOME)
SHMPI_TYPED(INT, test_all_vector, P2P_ALL, PLAIN, SET_VECTOR)
SHMPI_TYPED(SIZE, test_any_vector, P2P_ALL, PLAIN, SET_VECTOR)
SHMPI_TYPED(SIZE, test_some_vector, P2P_ALL, PLAIN, SOME_VECTOR)
#define SHMPI_DECL_WAIT_DEPRECATED(N, T)                                                      \
    SHMPI_FN(void, shmem_##N##_wait, (T *ivar, T cmp_value))
SHMPI_WAIT_DEPRECATED_TYPES(SHMPI_DECL_WAIT_DEPRECATED)
#undef SHMPI_DECL_WAIT_DEPRECATED
/* Deprecated untyped forms; C11 code gets the type-generic macros of the same names. */
SHMPI_FN(void, shmem_wait_until, (long *ivar, int cmp, long cmp_value))
SHMPI_FN(void, shmem_wait, (long *ivar, long cmp_value))

#ifdef SHMPI_C11_GENERIC_NAMES
#define shmem_wait_until(...) SHMPI_C11_GENERIC(PLAIN, wait_until, P2P_ALL, WAIT, __VA_ARGS__)
#define shmem_test(...) SHMPI_C11_GENERIC(PLAIN, test, P2P_ALL, WAIT, __VA_ARGS__)
#define shmem_wait_until_all(...)                                                             \
    SHMPI_C11_GENERIC(PLAIN, wait_until_all, P2P_ALL, SET, __VA_ARGS__)
#define shmem_wait_until_any(...)                                                             \
    SHMPI_C11_GENERIC(PLAIN, wait_until_any, P2P_ALL, SET, __VA_ARGS__)
#define shmem_wait_until_some(...)                                                            \
    SHMPI_C11_GENERIC(PLAIN, wait_until_some, P2P_ALL, SOME, __VA_ARGS__)
#define shmem_wait_until_all_vector(...)                                                      \
    SHMPI_C11_GENERIC(PLAIN, wait_until_all_vector, P2P_ALL, SET_VECTOR, __VA_ARGS__)
#define shmem_wait_until_any_vector(...)                                                      \
    SHMPI_C11_GENERIC(PLAIN, wait_until_any_vector, P2P_ALL, SET_VECTOR, __VA_ARGS__)
#define shmem_wait_until_some_vector(...)                                                     \
    SHMPI_C11_GENERIC(PLAIN, wait_until_some_vector, P2P_ALL, SOME_VECTOR, __VA_ARGS__)
#define shmem_test_all(...) SHMPI_C11_GENERIC(PLAIN, test_all, P2P_ALL, SET, __VA_ARGS__)
#define shmem_test_any(...) SHMPI_C11_GENERIC(PLAIN, test_any, P2P_ALL, SET, __VA_ARGS__)
#define shmem_test_some(...) SHMPI_C11_GENERIC(PLAIN, test_some, P2P_ALL, SOME, __VA_ARGS__)
#define shmem_test_all_vector(...)                                                            \
    SHMPI_C11_GENERIC(PLAIN, test_all_vector, P2P_ALL, SET_VECTOR, __VA_ARGS__)
#define shmem_test_any_vector(...)                                                            \
    SHMPI_C11_GENERIC(PLAIN, test_any_vector, P2P_ALL, SET_VECTOR, __VA_ARGS__)
#define shmem_test_some_vector(...)                                                           \
    SHMPI_C11_GENERIC(PLAIN, test_some_vector, P2P_ALL, SOME_VECTOR, __VA_ARGS__)
#endif

#undef SHMPI_CHAPTER
#define SHMPI_CHAPTER coll
/* ---- Collectives ------------------------------------------------------------------ */
SHMPI_FN(void, shmem_barrier_all, (void))
SHMPI_FN(void, shmem_sync_all, (void))
SHMPI_FN(int, shmem_team_sync, (shmem_team_t team))
SHMPI_TYPED(INT, broadcast, RMA, PLAIN, BROADCAST)
SHMPI_TYPED(INT, collect, RMA, PLAIN, COLL)
SHMPI_TYPED(INT, fcollect, RMA, PLAIN, COLL)
SHMPI_TYPED(INT, alltoall, RMA, PLAIN, COLL)
SHMPI_TYPED(INT, alltoalls, RMA, PLAIN, ALLTOALLS)
SHMPI_FN(int, shmem_broadcastmem, (SHMPI_SIG_BROADCAST(void, void)))
SHMPI_FN(int, shmem_collectmem, (SHMPI_SIG_COLL(void, void)))
SHMPI_FN(int, shmem_fcollectmem, (SHMPI_SIG_COLL(void, void)))
SHMPI_FN(int, shmem_alltoallmem, (SHMPI_SIG_COLL(void, void)))
SHMPI_FN(int, shmem_alltoallsmem, (SHMPI_SIG_ALLTOALLS(void, void)))

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

#ifdef SHMPI_C11_GENERIC_NAMES
#define shmem_broadcast(...) SHMPI_C11_GENERIC(PLAIN, broadcast, RMA, BROADCAST, __VA_ARGS__)
#define shmem_collect(...) SHMPI_C11_GENERIC(PLAIN, collect, RMA, COLL, __VA_ARGS__)
#define shmem_fcollect(...) SHMPI_C11_GENERIC(PLAIN, fcollect, RMA, COLL, __VA_ARGS__)
#define shmem_alltoall(...) SHMPI_C11_GENERIC(PLAIN, alltoall, RMA, COLL, __VA_ARGS__)
#define shmem_alltoalls(...) SHMPI_C11_GENERIC(PLAIN, alltoalls, RMA, ALLTOALLS, __VA_ARGS__)
/* shmem_sync(team) is shmem_team_sync; shmem_sync(PE_start, logPE_stride,
 * PE_size, pSync) the deprecated active-set routine. */
#define shmem_sync(...)                                                                       \
    _Generic((SHMPI_ARG1(__VA_ARGS__, 0)), shmem_team_t: shmem_team_sync,                     \
             default: (shmem_sync))(__VA_ARGS__)
#endif

#undef SHMPI_CHAPTER
#define SHMPI_CHAPTER reduce
/* ---- Reductions ---------------------------------------------------------------------- */
#define SHMPI_CALL_REDUCE(CTX, T, M, MPI_OP)                                                  \
    shmpi_coll_reduce(__func__, SHMPI_TEAM_GROUP(__func__, team), dest, source, nreduce,      \
                      sizeof(T), M, MPI_OP)
SHMPI_TYPED_CALL(INT, and_reduce, REDUCE_BITWISE_ALL, PLAIN, REDUCE, SHMPI_CALL_REDUCE, MPI_BAND)
SHMPI_TYPED_CALL(INT, or_reduce, REDUCE_BITWISE_ALL, PLAIN, REDUCE, SHMPI_CALL_REDUCE, MPI_BOR)
SHMPI_TYPED_CALL(INT, xor_reduce, REDUCE_BITWISE_ALL, PLAIN, REDUCE, SHMPI_CALL_REDUCE, MPI_BXOR)
SHMPI_TYPED_CALL(INT, max_reduce, REDUCE_MINMAX, PLAIN, REDUCE, SHMPI_CALL_REDUCE, MPI_MAX)
SHMPI_TYPED_CALL(INT, min_reduce, REDUCE_MINMAX, PLAIN, REDUCE, SHMPI_CALL_REDUCE, MPI_MIN)
SHMPI_TYPED_CALL(INT, sum_reduce, REDUCE_ARITH, PLAIN, REDUCE, SHMPI_CALL_REDUCE, MPI_SUM)
SHMPI_TYPED_CALL(INT, prod_reduce, REDUCE_ARITH, PLAIN, REDUCE, SHMPI_CALL_REDUCE, MPI_PROD)

#ifdef SHMPI_C11_GENERIC_NAMES
#define shmem_and_reduce(...)                                                                 \
    SHMPI_C11_GENERIC(PLAIN, and_reduce, REDUCE_BITWISE_ALL, REDUCE, __VA_ARGS__)
#define shmem_or_reduce(...)                                                                  \
    SHMPI_C11_GENERIC(PLAIN, or_reduce, REDUCE_BITWISE_ALL, REDUCE, __VA_ARGS__)
#define shmem_xor_reduce(...)                                                                 \
    SHMPI_C11_GENERIC(PLAIN, xor_reduce, REDUCE_BITWISE_ALL, REDUCE, __VA_ARGS__)
#define shmem_max_reduce(...) SHMPI_C11_GENERIC(PLAIN, max_reduce, REDUCE_MINMAX, REDUCE, __VA_ARGS__)
#define shmem_min_reduce(...) SHMPI_C11_GENERIC(PLAIN, min_reduce, REDUCE_MINMAX, REDUCE, __VA_ARGS__)
#define shmem_sum_reduce(...) SHMPI_C11_GENERIC(PLAIN, sum_reduce, REDUCE_ARITH, REDUCE, __VA_ARGS__)
#define shmem_prod_reduce(...)                                                                \
    SHMPI_C11_GENERIC(PLAIN, prod_reduce, REDUCE_ARITH, REDUCE, __VA_ARGS__)
#endif

#undef SHMPI_CHAPTER
#define SHMPI_CHAPTER scan
/* OpenSHMEM 1.6 scans (prefix sums): the types of the SUM column. */
#define SHMPI_CALL_SCAN(CTX, T, M, EXCLUSIVE)                                                 \
    shmpi_coll_scan(__func__, SHMPI_TEAM_GROUP(__func__, team), dest, source, nelems,         \
                    sizeof(T), M, MPI_SUM, EXCLUSIVE)
SHMPI_TYPED_CALL(INT, sum_inscan, REDUCE_ARITH, PLAIN, COLL, SHMPI_CALL_SCAN, false)
SHMPI_TYPED_CALL(INT, sum_exscan, REDUCE_ARITH, PLAIN, COLL, SHMPI_CALL_SCAN, true)

#ifdef SHMPI_C11_GENERIC_NAMES
#define shmem_sum_inscan(...) SHMPI_C11_GENERIC(PLAIN, sum_inscan, REDUCE_ARITH, COLL, __VA_ARGS__)
#define shmem_sum_exscan(...) SHMPI_C11_GENERIC(PLAIN, sum_exscan, REDUCE_ARITH, COLL, __VA_ARGS__)
#endif

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
