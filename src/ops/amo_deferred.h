/*
 * amo_deferred.h - the deferred AMOs (amo_deferred.c): MPI AMOs that need
 * only be complete at the next quiet wait in a queue until then.
 */
#ifndef SHMPI_AMO_DEFERRED_H
#define SHMPI_AMO_DEFERRED_H

#include "amo_word.h"

/* Whether an AMO that need only be complete at the next quiet may wait in
 * the queue (`direct`: it uses the direct op). */
static inline bool shmpi_amo_deferrable(enum shmpi_amo_op op, enum shmpi_amo_type type,
                                        bool direct)
{
    if (direct) /* queued direct updates must commute: a set or swap is not queued */
        return op != SHMPI_AMO_SET && op != SHMPI_AMO_SWAP;
    bool is_float = type == SHMPI_AMO_FLOAT || type == SHMPI_AMO_DOUBLE;
    return op == SHMPI_AMO_FETCH || op == SHMPI_AMO_AND || op == SHMPI_AMO_OR ||
           op == SHMPI_AMO_XOR || (op == SHMPI_AMO_ADD && !is_float);
}
/* Issues the AMO without a flush and queues it; *fetched is written when
 * the queue drains. */
void shmpi_amo_defer(enum shmpi_amo_op op, enum shmpi_amo_type type,
                     const struct shmpi_mpi_word *w, uint64_t operand, void *fetched,
                     bool direct);

/* Completes the deferred AMOs; with !wait_for_lock
 * it returns at once if another thread (or this one, further up) is at it. */
void shmpi_amo_drain(bool wait_for_lock);

#endif /* SHMPI_AMO_DEFERRED_H */
