/*
 * amo_internal.h - what the three files of the AMO core share: the atomic
 * core (amo.c), the deferred queue (amo_deferred.c) and SHMPI_AMO_OPS
 * (amo_ops.c).  Only those files include it; the rest of shmpi uses amo.h.
 */
#ifndef SHMPI_AMO_INTERNAL_H
#define SHMPI_AMO_INTERNAL_H

#include "amo.h"

#include <string.h>

/* The bytes of a word of the type. */
static inline size_t shmpi_amo_type_size(enum shmpi_amo_type type)
{
    return type == SHMPI_AMO_INT32 || type == SHMPI_AMO_UINT32 || type == SHMPI_AMO_FLOAT ? 4
                                                                                         : 8;
}

/* Values travel inside the core as the bits of the word, zero-extended. */
static inline uint64_t shmpi_amo_load_bits(const void *p, size_t size)
{
    if (size == 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static inline void shmpi_amo_store_bits(void *p, uint64_t bits, size_t size)
{
    if (size == 4) {
        uint32_t v = (uint32_t)bits;
        memcpy(p, &v, 4);
    } else {
        memcpy(p, &bits, 8);
    }
}

/* The new value of a word holding `old` after op(operand), computed with
 * the C type.  Integer sums are taken modulo 2^bits, which for the signed
 * types is the two's complement result a CPU atomic add gives. */
static inline uint64_t shmpi_amo_apply(enum shmpi_amo_op op, enum shmpi_amo_type type,
                                       uint64_t old, uint64_t operand)
{
    switch (op) {
    case SHMPI_AMO_SET:
    case SHMPI_AMO_SWAP: return operand;
    case SHMPI_AMO_AND: return old & operand;
    case SHMPI_AMO_OR: return old | operand;
    case SHMPI_AMO_XOR: return old ^ operand;
    case SHMPI_AMO_ADD:
        switch (type) {
        case SHMPI_AMO_FLOAT: {
            float a, b;
            uint32_t a_bits = (uint32_t)old, b_bits = (uint32_t)operand;
            memcpy(&a, &a_bits, 4);
            memcpy(&b, &b_bits, 4);
            a += b;
            memcpy(&a_bits, &a, 4);
            return a_bits;
        }
        case SHMPI_AMO_DOUBLE: {
            double a, b;
            memcpy(&a, &old, 8);
            memcpy(&b, &operand, 8);
            a += b;
            memcpy(&old, &a, 8);
            return old;
        }
        case SHMPI_AMO_INT32:
        case SHMPI_AMO_UINT32: return (uint32_t)((uint32_t)old + (uint32_t)operand);
        default: return old + operand;
        }
    default: return old; /* FETCH and CSWAP never compute */
    }
}

/* A word reached through MPI. */
struct shmpi_mpi_word {
    MPI_Datatype type; /* MPI_UINT32_T or MPI_UINT64_T */
    size_t size;
    int pe;            /* world PE */
    MPI_Aint disp;
};

/* ---- the guess cache (amo.c) ----------------------------------------------------------
 * The last value this PE saw in a word, kept as the guess for its next
 * update: a compare-and-swap with a right guess is one round trip, where
 * reading first would be two; a wrong one fails and returns the value to
 * retry with, which is the read it replaced.  Entries are only guesses,
 * so collisions and races between threads cost a retry, never a result. */
#define SHMPI_AMO_HINT_SLOTS 256
struct shmpi_amo_hint {
    _Atomic uint64_t key;
    _Atomic uint64_t value;
};
extern struct shmpi_amo_hint shmpi_amo_hints[SHMPI_AMO_HINT_SLOTS];

/* By size too: a 4-byte AMO on the first half of a word that 8-byte AMOs
 * used took their 64-bit value as its guess, whose upper half made a
 * compare-and-swap that succeeded look failed, and the update was applied
 * twice (the Mellanox verifier's atomic int_fadd after longlong_cswap). */
static inline uint64_t shmpi_amo_hint_key(const struct shmpi_mpi_word *w)
{
    return ((uint64_t)w->disp * 0x9e3779b97f4a7c15u ^ (uint64_t)w->pe) + w->size;
}

static inline bool shmpi_amo_hint_get(const struct shmpi_mpi_word *w, uint64_t *value)
{
    uint64_t key = shmpi_amo_hint_key(w);
    struct shmpi_amo_hint *h = &shmpi_amo_hints[(unsigned)(key >> 56) % SHMPI_AMO_HINT_SLOTS];
    if (atomic_load_explicit(&h->key, memory_order_relaxed) != key)
        return false;
    /* Only the word's own bits: a guess is compared with what the
     * compare-and-swap returns, which has no others. */
    uint64_t bits = atomic_load_explicit(&h->value, memory_order_relaxed);
    *value = w->size == 4 ? bits & 0xffffffffu : bits;
    return true;
}

static inline void shmpi_amo_hint_set(const struct shmpi_mpi_word *w, uint64_t value)
{
    uint64_t key = shmpi_amo_hint_key(w);
    struct shmpi_amo_hint *h = &shmpi_amo_hints[(unsigned)(key >> 56) % SHMPI_AMO_HINT_SLOTS];
    atomic_store_explicit(&h->value, value, memory_order_relaxed);
    atomic_store_explicit(&h->key, key, memory_order_relaxed);
}

/* The compare-and-swap loop: `op` on the word, complete at the target;
 * returns the old value (amo.c). */
uint64_t shmpi_amo_mpi(enum shmpi_amo_op op, enum shmpi_amo_type type,
                       const struct shmpi_mpi_word *w, uint64_t operand, uint64_t compare);

/* `op` on a word this PE maps, with the CPU's atomics; returns the old
 * value (amo.c). */
uint64_t shmpi_amo_cpu(enum shmpi_amo_op op, enum shmpi_amo_type type, size_t size, void *word,
                       uint64_t operand, uint64_t compare);

/* ---- AMOs as messages (amo_message.c) ---------------------------------------------- */
/* `op` on the word at `offset` of PE pe's segment, applied by its owner.
 * SHMPI_ANSWER_NOW: returns the old value once the owner answered.
 * SHMPI_ANSWER_AT_QUIET: returns once sent; the next quiet completes it and
 * writes the old value to *fetched, unless fetched is NULL. */
enum shmpi_answer { SHMPI_ANSWER_NOW, SHMPI_ANSWER_AT_QUIET };
uint64_t shmpi_amo_message(enum shmpi_amo_op op, enum shmpi_amo_type type, int segment,
                           size_t offset, int pe, uint64_t operand, uint64_t compare,
                           enum shmpi_answer answer, void *fetched);
/* What a wait for an AMO through MPI shows as its routine (the status page):
 * the routine's name would keep it live on every AMO's fast path. */
extern const char *const shmpi_amo_wait_name[];

/* ---- SHMPI_AMO_OPS (amo_ops.c) ------------------------------------------------------ */
/* The MPI op the program's AMO routines use directly (MPI_OP_NULL: none),
 * and the update kinds (bit 1 << op) that use it; set by shmpi_amo_init. */
extern MPI_Op shmpi_amo_direct_mpi_op;
extern unsigned shmpi_amo_direct_ops;
/* Ends the job: an AMO routine made a kind of update SHMPI_AMO_OPS does not list. */
_Noreturn void shmpi_amo_undeclared(const char *routine, enum shmpi_amo_op op);

/* ---- the deferred queue (amo_deferred.c) ------------------------------------------- */
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

#endif /* SHMPI_AMO_INTERNAL_H */
