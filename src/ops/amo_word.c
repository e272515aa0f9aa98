/*
 * amo_word.c - one atomic update of one word (amo_word.h): with the CPU's
 * atomics on a mapped word, or through MPI with only its fetch (MPI_NO_OP)
 * and compare-and-swap, as amo.c explains.
 */
#include "amo_word.h"
#include "flush.h"
#include "mpi_rma.h"
#include "progress.h"

_Static_assert(ATOMIC_INT_LOCK_FREE == 2 && ATOMIC_LLONG_LOCK_FREE == 2,
               "shmpi needs lock-free 4- and 8-byte atomics");
_Static_assert(sizeof(float) == 4 && sizeof(double) == 8, "float/double sizes");

uint64_t shmpi_amo_cpu(enum shmpi_amo_op op, enum shmpi_amo_type type, size_t size, void *word,
                       uint64_t operand, uint64_t compare)
{
    return size == 4 ? cpu_amo32(op, type, word, operand, compare)
                     : cpu_amo64(op, type, word, operand, compare);
}

/* ---- MPI: fetch (NO_OP) and compare-and-swap, nothing else -------------------------- */
static uint64_t mpi_read(const struct shmpi_mpi_word *w)
{
    uint64_t result = 0;
    shmpi_fetch_word(w->pe, w->disp, w->type, &result);
    /* result holds w->size bytes at its start. */
    return shmpi_amo_load_bits(&result, w->size);
}

/* Returns the value the word held (the swap happened iff it equals compare). */
static uint64_t mpi_cas(const struct shmpi_mpi_word *w, uint64_t value, uint64_t compare)
{
    uint64_t value_buf, compare_buf, result = 0;
    shmpi_amo_store_bits(&value_buf, value, w->size);
    shmpi_amo_store_bits(&compare_buf, compare, w->size);
    shmpi_rma_compare_and_swap(&value_buf, &compare_buf, &result, w->type, w->size, w->pe,
                               w->disp);
    shmpi_flush_word(w->pe, w->disp, w->type);
    return shmpi_amo_load_bits(&result, w->size);
}

/* The guess cache (amo_word.h). */
struct shmpi_amo_hint shmpi_amo_hints[SHMPI_AMO_HINT_SLOTS];

#define CAS_RETRIES_BEFORE_BACKOFF 8
uint64_t shmpi_amo_mpi(enum shmpi_amo_op op, enum shmpi_amo_type type,
                       const struct shmpi_mpi_word *w, uint64_t operand, uint64_t compare)
{
    if (op == SHMPI_AMO_CSWAP) {
        uint64_t seen = mpi_cas(w, operand, compare);
        shmpi_amo_hint_set(w, seen == compare ? operand : seen);
        return seen;
    }
    uint64_t old;
    if (op == SHMPI_AMO_FETCH || !shmpi_amo_hint_get(w, &old)) {
        old = mpi_read(w);
        if (op == SHMPI_AMO_FETCH) {
            shmpi_amo_hint_set(w, old);
            return old;
        }
    }
    /* A retry goes at once: the failed compare-and-swap's round trip was the
     * wait, and anything more between tries, even one MPI_Iprobe, made a
     * contended fetch_add slower and bimodal (benchmarks/RESULTS.md,
     * "Measurements behind design constants").  Only a long losing streak
     * backs off (yields). */
    SHMPI_WAITER(waiter) = {.waits_in = SHMPI_WAITS_FOR_MPI};
    for (unsigned failures = 0;; failures++) {
        uint64_t new_value = shmpi_amo_apply(op, type, old, operand);
        uint64_t seen = mpi_cas(w, new_value, old);
        if (seen == old) {
            shmpi_amo_hint_set(w, new_value);
            return old;
        }
        old = seen; /* someone updated it in between: retry from what they left */
        if (failures >= CAS_RETRIES_BEFORE_BACKOFF)
            shmpi_backoff(&waiter);
    }
}

MPI_Op shmpi_amo_direct_mpi_op; /* set by shmpi_amo_init (amo_ops.c) */
unsigned shmpi_amo_direct_ops;   /* the update kinds that use it */
