/*
 * amo_word.h - one atomic update of one word, the floor of the AMO core
 * that the rest of src/ops builds on: the kinds of operation and of word,
 * the arithmetic on a word's bits, CPU atomics on a mapped word, and the
 * compare-and-swap loop through MPI with its guess cache (amo_word.c).
 * amo.c says which mechanism a word takes and why.
 */
#ifndef SHMPI_AMO_WORD_H
#define SHMPI_AMO_WORD_H

#include "shmpi.h"

#include <string.h>

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

/* ---- the guess cache (amo_word.c) -------------------------------------------------------
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
 * returns the old value. */
uint64_t shmpi_amo_mpi(enum shmpi_amo_op op, enum shmpi_amo_type type,
                       const struct shmpi_mpi_word *w, uint64_t operand, uint64_t compare);

/* `op` on a word this PE maps, with the CPU's atomics; returns the old
 * value. */
uint64_t shmpi_amo_cpu(enum shmpi_amo_op op, enum shmpi_amo_type type, size_t size, void *word,
                       uint64_t operand, uint64_t compare);

/* The MPI op the program's AMO routines use directly (MPI_OP_NULL: none),
 * and the update kinds (bit 1 << op) that use it; set by shmpi_amo_init
 * (amo_ops.c). */
extern MPI_Op shmpi_amo_direct_mpi_op;
extern unsigned shmpi_amo_direct_ops;

/* ---- CPU atomics on a mapped heap word ---------------------------------------------- */
/* Inlined into amo() (amo.c), where amo_message.c's owner calls them through
 * shmpi_amo_cpu: as a call they cost an on-node AMO about 1 ns of its 9. */
#define DEFINE_CPU_AMO(BITS)                                                                  \
    static inline __attribute__((always_inline)) uint64_t cpu_amo##BITS(                   \
        enum shmpi_amo_op op, enum shmpi_amo_type type, void *word, uint64_t operand,          \
        uint64_t compare)                                                                     \
    {                                                                                         \
        _Atomic uint##BITS##_t *p = word;                                                     \
        uint##BITS##_t v = (uint##BITS##_t)operand;                                           \
        bool is_float = type == SHMPI_AMO_FLOAT || type == SHMPI_AMO_DOUBLE;                  \
        switch (op) {                                                                         \
        case SHMPI_AMO_FETCH: return atomic_load(p);                                          \
        case SHMPI_AMO_SET: atomic_store(p, v); return 0;                                     \
        case SHMPI_AMO_SWAP: return atomic_exchange(p, v);                                    \
        case SHMPI_AMO_CSWAP: {                                                               \
            uint##BITS##_t expected = (uint##BITS##_t)compare;                                \
            atomic_compare_exchange_strong(p, &expected, v);                                  \
            return expected;                                                                  \
        }                                                                                     \
        case SHMPI_AMO_AND: return atomic_fetch_and(p, v);                                    \
        case SHMPI_AMO_OR: return atomic_fetch_or(p, v);                                      \
        case SHMPI_AMO_XOR: return atomic_fetch_xor(p, v);                                    \
        case SHMPI_AMO_ADD:                                                                   \
            if (!is_float)                                                                    \
                return atomic_fetch_add(p, v);                                                \
            break;                                                                            \
        }                                                                                     \
        /* Float arithmetic: compare-exchange until no one came between. */                   \
        uint##BITS##_t old = atomic_load(p);                                                  \
        while (!atomic_compare_exchange_weak(p, &old,                                         \
                                             (uint##BITS##_t)shmpi_amo_apply(op, type, old, operand)))  \
            ;                                                                                 \
        return old;                                                                           \
    }
DEFINE_CPU_AMO(32)
DEFINE_CPU_AMO(64)

#endif /* SHMPI_AMO_WORD_H */
