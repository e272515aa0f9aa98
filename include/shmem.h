/*
 * shmem.h - OpenSHMEM 1.6 interface of shmpi (OpenSHMEM over MPI-3 RMA).
 *
 * The routines are declared by shmpi_routines.h, one entry each, the typed
 * ones expanded from the type tables of shmpi_typetables.h; the list of
 * names is the specification's (pshmem.h declares their profiling names,
 * see docs/profiling.md).  Usable from C99 and later and from C++ (C11
 * type-generic names need C11; C++ gets overloads of the same names from
 * shmpi_cxx.h).
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
#define SHMPI_VERSION_MINOR 3
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

/* ---- Routines: every one is an entry of shmpi_routines.h ---------------------- */
/* In C11 the routine list also defines the generic names (their machinery
 * is shmpi_generics.h, below). */
#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define SHMPI_C11_GENERIC_NAMES 1
#endif
#ifdef __cplusplus
extern "C" {
#endif
#ifdef SHMPI_FN /* the library's own build: src/base/shmpi.h */
#include "shmpi_routines.h"
#else
#define SHMPI_FN(RET, NAME, PARAMS) RET(NAME) PARAMS;
#include "shmpi_routines.h"
#undef SHMPI_FN
#endif
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
#undef SHMPI_INLINE_AMO_DEPRECATED
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
