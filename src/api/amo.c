/*
 * amo.c - atomic memory operations (spec: Atomic Memory Operations, their
 * non-blocking and deprecated forms).  Each routine is one call into
 * shmpi_amo_routine() (src/ops/amo.c, which explains how atomicity is kept); the
 * type tables generate them all.
 */
#define SHMPI_DEFINES_amo SHMPI_HERE /* weak shmem_ names of this chapter here */
#include "amo.h"

/* One AMO on the word of type T at dest that need only be complete at the
 * next quiet (non-fetching, or _nbi): FETCHED is where the old value goes
 * (NULL: not wanted), OPERAND and COMPARE point to T values or are NULL. */
#define AMO(CTX, OP, T, DEST, OPERAND, COMPARE, FETCHED, PE)                                  \
    shmpi_amo_routine_nbi(__func__, CTX, SHMPI_AMO_##OP, SHMPI_AMO_TYPE_OF(T), (void *)(DEST),   \
                          OPERAND, COMPARE, FETCHED, PE)
/* A blocking fetching AMO, returning the old value. */
#define AMO_FETCHING(CTX, OP, T, DEST, OPERAND, COMPARE, PE)                                  \
    T fetched;                                                                                \
    shmpi_amo_routine(__func__, CTX, SHMPI_AMO_##OP, SHMPI_AMO_TYPE_OF(T), (void *)(DEST),       \
                      OPERAND, COMPARE, &fetched, PE);                                        \
    return fetched

#define CHECK_AMO_TYPE(N, T)                                                                  \
    _Static_assert(sizeof(T) == 4 || sizeof(T) == 8, #T " is not a 4- or 8-byte type");
SHMPI_AMO_EXT_TYPES(CHECK_AMO_TYPE)

/* fetch, set, swap (extended AMO types, floats included). */
#define DEFINE_AMO_EXT(N, T)                                                                  \
    T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe)                  \
    { AMO_FETCHING(ctx, FETCH, T, source, NULL, NULL, pe); }                                  \
    T shmem_##N##_atomic_fetch(const T *source, int pe)                                       \
    { AMO_FETCHING(SHMEM_CTX_DEFAULT, FETCH, T, source, NULL, NULL, pe); }                    \
    void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *dest, T value, int pe)                \
    { AMO(ctx, SET, T, dest, &value, NULL, NULL, pe); }                                       \
    void shmem_##N##_atomic_set(T *dest, T value, int pe)                                     \
    { AMO(SHMEM_CTX_DEFAULT, SET, T, dest, &value, NULL, NULL, pe); }                         \
    T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe)                  \
    { AMO_FETCHING(ctx, SWAP, T, dest, &value, NULL, pe); }                                   \
    T shmem_##N##_atomic_swap(T *dest, T value, int pe)                                       \
    { AMO_FETCHING(SHMEM_CTX_DEFAULT, SWAP, T, dest, &value, NULL, pe); }                     \
    void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, const T *source, int pe) \
    { AMO(ctx, FETCH, T, source, NULL, NULL, fetch, pe); }                                    \
    void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe)                      \
    { AMO(SHMEM_CTX_DEFAULT, FETCH, T, source, NULL, NULL, fetch, pe); }                      \
    void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe) \
    { AMO(ctx, SWAP, T, dest, &value, NULL, fetch, pe); }                                     \
    void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe)                      \
    { AMO(SHMEM_CTX_DEFAULT, SWAP, T, dest, &value, NULL, fetch, pe); }
SHMPI_AMO_EXT_TYPES(DEFINE_AMO_EXT)

/* compare_swap, fetch_inc, inc, fetch_add, add (standard AMO types). */
#define DEFINE_AMO_STD(N, T)                                                                  \
    T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *dest, T cond, T value, int pe)  \
    { AMO_FETCHING(ctx, CSWAP, T, dest, &value, &cond, pe); }                                 \
    T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe)                       \
    { AMO_FETCHING(SHMEM_CTX_DEFAULT, CSWAP, T, dest, &value, &cond, pe); }                   \
    T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe)                      \
    { AMO_FETCHING(ctx, ADD, T, dest, &(T){1}, NULL, pe); }                                   \
    T shmem_##N##_atomic_fetch_inc(T *dest, int pe)                                           \
    { AMO_FETCHING(SHMEM_CTX_DEFAULT, ADD, T, dest, &(T){1}, NULL, pe); }                     \
    void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe)                         \
    { AMO(ctx, ADD, T, dest, &(T){1}, NULL, NULL, pe); }                                      \
    void shmem_##N##_atomic_inc(T *dest, int pe)                                              \
    { AMO(SHMEM_CTX_DEFAULT, ADD, T, dest, &(T){1}, NULL, NULL, pe); }                        \
    T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t ctx, T *dest, T value, int pe)             \
    { AMO_FETCHING(ctx, ADD, T, dest, &value, NULL, pe); }                                    \
    T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe)                                  \
    { AMO_FETCHING(SHMEM_CTX_DEFAULT, ADD, T, dest, &value, NULL, pe); }                      \
    void shmem_ctx_##N##_atomic_add(shmem_ctx_t ctx, T *dest, T value, int pe)                \
    { AMO(ctx, ADD, T, dest, &value, NULL, NULL, pe); }                                       \
    void shmem_##N##_atomic_add(T *dest, T value, int pe)                                     \
    { AMO(SHMEM_CTX_DEFAULT, ADD, T, dest, &value, NULL, NULL, pe); }                         \
    void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T cond,  \
                                                 T value, int pe)                             \
    { AMO(ctx, CSWAP, T, dest, &value, &cond, fetch, pe); }                                   \
    void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe)      \
    { AMO(SHMEM_CTX_DEFAULT, CSWAP, T, dest, &value, &cond, fetch, pe); }                     \
    void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, T *dest, int pe)     \
    { AMO(ctx, ADD, T, dest, &(T){1}, NULL, fetch, pe); }                                     \
    void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe)                          \
    { AMO(SHMEM_CTX_DEFAULT, ADD, T, dest, &(T){1}, NULL, fetch, pe); }                       \
    void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value,    \
                                              int pe)                                         \
    { AMO(ctx, ADD, T, dest, &value, NULL, fetch, pe); }                                      \
    void shmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe)                 \
    { AMO(SHMEM_CTX_DEFAULT, ADD, T, dest, &value, NULL, fetch, pe); }
SHMPI_AMO_STD_TYPES(DEFINE_AMO_STD)

/* fetch_OP, OP, fetch_OP_nbi for OP in and, or, xor (bitwise AMO types). */
#define DEFINE_AMO_BIT_OP(N, T, op, OP)                                                       \
    T shmem_ctx_##N##_atomic_fetch_##op(shmem_ctx_t ctx, T *dest, T value, int pe)            \
    { AMO_FETCHING(ctx, OP, T, dest, &value, NULL, pe); }                                     \
    T shmem_##N##_atomic_fetch_##op(T *dest, T value, int pe)                                 \
    { AMO_FETCHING(SHMEM_CTX_DEFAULT, OP, T, dest, &value, NULL, pe); }                       \
    void shmem_ctx_##N##_atomic_##op(shmem_ctx_t ctx, T *dest, T value, int pe)               \
    { AMO(ctx, OP, T, dest, &value, NULL, NULL, pe); }                                        \
    void shmem_##N##_atomic_##op(T *dest, T value, int pe)                                    \
    { AMO(SHMEM_CTX_DEFAULT, OP, T, dest, &value, NULL, NULL, pe); }                          \
    void shmem_ctx_##N##_atomic_fetch_##op##_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, \
                                                 int pe)                                      \
    { AMO(ctx, OP, T, dest, &value, NULL, fetch, pe); }                                       \
    void shmem_##N##_atomic_fetch_##op##_nbi(T *fetch, T *dest, T value, int pe)              \
    { AMO(SHMEM_CTX_DEFAULT, OP, T, dest, &value, NULL, fetch, pe); }
#define DEFINE_AMO_BIT(N, T)                                                                  \
    DEFINE_AMO_BIT_OP(N, T, and, AND)                                                         \
    DEFINE_AMO_BIT_OP(N, T, or, OR)                                                           \
    DEFINE_AMO_BIT_OP(N, T, xor, XOR)
SHMPI_AMO_BIT_TYPES(DEFINE_AMO_BIT)

/* Deprecated names (spec 1.5 still lists them); errors name the old name. */
#define DEFINE_AMO_DEPRECATED_EXT(N, T)                                                       \
    T shmem_##N##_fetch(const T *source, int pe)                                              \
    { AMO_FETCHING(SHMEM_CTX_DEFAULT, FETCH, T, source, NULL, NULL, pe); }                    \
    void shmem_##N##_set(T *dest, T value, int pe)                                            \
    { AMO(SHMEM_CTX_DEFAULT, SET, T, dest, &value, NULL, NULL, pe); }                         \
    T shmem_##N##_swap(T *dest, T value, int pe)                                              \
    { AMO_FETCHING(SHMEM_CTX_DEFAULT, SWAP, T, dest, &value, NULL, pe); }
SHMPI_AMO_DEPRECATED_EXT_TYPES(DEFINE_AMO_DEPRECATED_EXT)

#define DEFINE_AMO_DEPRECATED_STD(N, T)                                                       \
    T shmem_##N##_cswap(T *dest, T cond, T value, int pe)                                     \
    { AMO_FETCHING(SHMEM_CTX_DEFAULT, CSWAP, T, dest, &value, &cond, pe); }                   \
    T shmem_##N##_finc(T *dest, int pe)                                                       \
    { AMO_FETCHING(SHMEM_CTX_DEFAULT, ADD, T, dest, &(T){1}, NULL, pe); }                     \
    void shmem_##N##_inc(T *dest, int pe)                                                     \
    { AMO(SHMEM_CTX_DEFAULT, ADD, T, dest, &(T){1}, NULL, NULL, pe); }                        \
    T shmem_##N##_fadd(T *dest, T value, int pe)                                              \
    { AMO_FETCHING(SHMEM_CTX_DEFAULT, ADD, T, dest, &value, NULL, pe); }                      \
    void shmem_##N##_add(T *dest, T value, int pe)                                            \
    { AMO(SHMEM_CTX_DEFAULT, ADD, T, dest, &value, NULL, NULL, pe); }
SHMPI_AMO_DEPRECATED_STD_TYPES(DEFINE_AMO_DEPRECATED_STD)
