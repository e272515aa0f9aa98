/*
 * pshmem.h - the profiling names of shmpi's OpenSHMEM routines.
 *
 * Every routine of shmem.h is also callable as pNAME (pshmem_long_put,
 * pshmem_barrier_all, and pstart_pes, p_my_pe, pshmalloc for the old names
 * without the shmem_ prefix); the shmem_ names are weak aliases of them.  A
 * profiling tool defines shmem_X, does its work and calls pshmem_X; linked
 * before libshmpi (or preloaded), its shmem_X is the one programs call.  See
 * docs/profiling.md.  The declarations come from the same list as shmem.h's
 * (shmpi_routines.h).
 */
#ifndef PSHMEM_H
#define PSHMEM_H

#include "shmem.h"

#ifdef __cplusplus
extern "C" {
#endif
#define SHMPI_FN(RET, NAME, PARAMS) RET p##NAME PARAMS;
#include "shmpi_routines.h"
#undef SHMPI_FN
#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PSHMEM_H */
