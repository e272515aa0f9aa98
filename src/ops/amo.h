/*
 * amo.h - internal API of the atomics area: the AMO core (src/ops/amo.c,
 * on amo_word.c, amo_message.c, amo_deferred.c and amo_ops.c, whose
 * headers it includes) and the waiting loops of point-to-point
 * synchronization (src/wait/wait.c).
 * The typed routines of src/api/{amo,signal,lock,p2p}.c are thin calls
 * into these.
 */
#ifndef SHMPI_AMO_H
#define SHMPI_AMO_H

#include "shmpi.h"
#include "amo_deferred.h"
#include "amo_message.h"
#include "amo_ops.h"
#include "amo_word.h"
#include "rma.h"
#include "wait.h"

/* Performs `op` on the word at symmetric address `dest` of PE `pe` (relative
 * to the context's team).  operand/compare/fetched point to values of the
 * type; fetched may be NULL when the old value is not wanted.  Returns when
 * the operation is complete at the target.  Errors name `routine`. */
void shmpi_amo(const char *routine, shmem_ctx_t ctx, enum shmpi_amo_op op,
               enum shmpi_amo_type type, void *dest, const void *operand, const void *compare,
               void *fetched, int pe);

/* The same for the routines that need only be complete at the next quiet
 * (non-fetching AMOs, fetching _nbi ones): on the MPI path some are queued
 * (src/ops/amo_deferred.c); *fetched is written by the quiet. */
void shmpi_amo_nbi(const char *routine, shmem_ctx_t ctx, enum shmpi_amo_op op,
                   enum shmpi_amo_type type, void *dest, const void *operand,
                   const void *compare, void *fetched, int pe);

/* The same two for the program's AMO routines (src/api/amo.c): they also
 * obey SHMPI_AMO_OPS, which locks and signals, mixing kinds of update on
 * their own words, must not. */
void shmpi_amo_routine(const char *routine, shmem_ctx_t ctx, enum shmpi_amo_op op,
                       enum shmpi_amo_type type, void *dest, const void *operand,
                       const void *compare, void *fetched, int pe);
void shmpi_amo_routine_nbi(const char *routine, shmem_ctx_t ctx, enum shmpi_amo_op op,
                           enum shmpi_amo_type type, void *dest, const void *operand,
                           const void *compare, void *fetched, int pe);

/* put-with-signal: the data, complete at the target, then the signal
 * update (sig_op SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD) as a uint64 AMO. */
void shmpi_put_signal(const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
                      size_t nbytes, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);

#endif /* SHMPI_AMO_H */
