/*
 * amo.h - internal API of the atomics area: the AMO core (src/ops/amo.c,
 * with its deferred queue amo_deferred.c and SHMPI_AMO_OPS amo_ops.c) and
 * the waiting loops of point-to-point synchronization (src/wait/wait.c).
 * The typed routines of src/api/{amo,signal,lock,p2p}.c are thin calls
 * into these.
 */
#ifndef SHMPI_AMO_H
#define SHMPI_AMO_H

#include "shmpi.h"
#include "rma.h"
#include "wait.h"

/* ---- atomic memory operations ------------------------------------------------------ */
enum shmpi_amo_op {
    SHMPI_AMO_FETCH, /* fetched = *dest */
    SHMPI_AMO_SET,   /* *dest = operand */
    SHMPI_AMO_SWAP,  /* fetched = *dest, *dest = operand */
    SHMPI_AMO_CSWAP, /* fetched = *dest, if it equals compare: *dest = operand */
    SHMPI_AMO_ADD,   /* fetched = *dest, *dest += operand (inc: operand 1) */
    SHMPI_AMO_AND,   /* fetched = *dest, *dest &= operand */
    SHMPI_AMO_OR,    /* fetched = *dest, *dest |= operand */
    SHMPI_AMO_XOR    /* fetched = *dest, *dest ^= operand */
};

/* What the core needs to know of a C type: size, and integer (signed or
 * not) or floating point.  Every AMO type of the spec is one of these. */
enum shmpi_amo_type {
    SHMPI_AMO_INT32,
    SHMPI_AMO_INT64,
    SHMPI_AMO_UINT32,
    SHMPI_AMO_UINT64,
    SHMPI_AMO_FLOAT,  /* 4-byte IEEE float */
    SHMPI_AMO_DOUBLE  /* 8-byte IEEE double */
};

/* The amo type of the C type T (a constant expression). */
#define SHMPI_AMO_TYPE_OF(T)                                                                  \
    ((T)0.5 != (T)0 ? (sizeof(T) == 4 ? SHMPI_AMO_FLOAT : SHMPI_AMO_DOUBLE)                   \
     : (T)-1 > (T)0 ? (sizeof(T) == 4 ? SHMPI_AMO_UINT32 : SHMPI_AMO_UINT64)                  \
                    : (sizeof(T) == 4 ? SHMPI_AMO_INT32 : SHMPI_AMO_INT64))

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

/* Completes the deferred AMOs (src/ops/amo_deferred.c); with !wait_for_lock
 * it returns at once if another thread (or this one, further up) is at it. */
void shmpi_amo_drain(bool wait_for_lock);

/* ---- AMOs as messages to the owner (src/ops/amo_message.c) ---------------------- */
/* Its communicators, where shmpi_amo_by_message() (collective, init). */
void shmpi_amo_message_init(void);
void shmpi_amo_message_fini(void);
/* Completes this PE's AMOs sent without waiting (quiet). */
void shmpi_amo_message_quiet(void);

/* ---- SHMPI_AMO_OPS (src/ops/amo_ops.c) -------------------------------------------- */
/* Chooses the direct MPI op of SHMPI_AMO_OPS (the same everywhere: shape.c
 * checks it) and sets up AMOs as messages (collective, during init). */
void shmpi_amo_init(void);
/* The SHMPI_AMO_OPS mask of `text` (see struct shmpi_env), 0 if malformed. */
unsigned shmpi_amo_parse_ops(const char *text);
/* The window's which_accumulate_ops hint for that mask, and the MPI op that
 * AMOs use directly ("none" if every AMO is a compare-and-swap). */
const char *shmpi_amo_window_ops(unsigned amo_ops);
const char *shmpi_amo_direct_op_name(unsigned amo_ops);

#endif /* SHMPI_AMO_H */
