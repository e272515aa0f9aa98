/*
 * shmpi_generics_amo.h - C11 generic names, amo chapter (see
 * shmpi_generics.h): atomic memory operations (current, nbi and deprecated
 * names), put-with-signal and point-to-point synchronization.
 *
 * Each name selects on the type of the object its pointer argument points
 * to, over the rows of a type table of shmpi_typetables.h.  The fixed-width
 * types of the tables are typedefs of the basic ones (int32_t is int, ...),
 * and one _Generic may not list a type twice, so the selection is a chain:
 *     _Generic(E, T1: f1, default: _Generic(E, T2: f2, default: ...))
 * in table order, where a row repeating an earlier type is never reached.
 * A type outside the table is a compile-time error (the call names
 * shmpi_generic_argument_type_not_supported).
 *
 * Names that take an optional leading shmem_ctx_t (ctx-overload in the
 * spec) choose the shmem_ctx_ routine when called with one argument more.
 *
 * Because the selections expand the SHMPI_*_TYPES tables, a generic name
 * cannot be used inside an expansion of the same table macro (the C
 * preprocessor does not expand a macro within itself); programs have no
 * reason to use those internal tables anyway.
 */
#ifndef SHMPI_GENERICS_AMO_H
#define SHMPI_GENERICS_AMO_H

/* ---- machinery ---------------------------------------------------------------------- */
/* A table row as a parenthesized pair, each preceded by a comma. */
#define SHMPI_GA_ROW(N, T) , (N, T)
#define SHMPI_GA_EXPAND(...) __VA_ARGS__
#define SHMPI_GA_CALL(M, ARGS) M ARGS
#define SHMPI_GA_CAT(A, B) SHMPI_GA_CAT_(A, B)
#define SHMPI_GA_CAT_(A, B) A##B

/* How many rows (up to 32). */
#define SHMPI_GA_NROWS(...)                                                                   \
    SHMPI_GA_NROWS_(__VA_ARGS__, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18,  \
                    17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, ~)
#define SHMPI_GA_NROWS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, \
                        _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, \
                        _31, _32, N, ...)                                                     \
    N

/* One link of the chain: E of type T selects PREFIX##N##_##OP. */
#define SHMPI_GA_LINK(E, P, OP, REST, ROW)                                                    \
    SHMPI_GA_CALL(SHMPI_GA_LINK_, (E, P, OP, REST, SHMPI_GA_EXPAND ROW))
#define SHMPI_GA_LINK_(E, P, OP, REST, N, T) _Generic((E), T: P##N##_##OP, default: REST)
#define SHMPI_GA_LAST(E, P, OP, ROW)                                                          \
    SHMPI_GA_CALL(SHMPI_GA_LAST_, (E, P, OP, SHMPI_GA_EXPAND ROW))
#define SHMPI_GA_LAST_(E, P, OP, N, T)                                                        \
    _Generic((E), T: P##N##_##OP, default: shmpi_generic_argument_type_not_supported)
/* What a type outside the table selects: not a function, so the call
 * fails to compile ("called object is not a function"), naming the cause.
 * (Every association must be a valid expression even when not chosen.) */
extern const int shmpi_generic_argument_type_not_supported;

#define SHMPI_GA_1(E, P, OP, R) SHMPI_GA_LAST(E, P, OP, R)
#define SHMPI_GA_2(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_1(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_3(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_2(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_4(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_3(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_5(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_4(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_6(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_5(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_7(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_6(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_8(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_7(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_9(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_8(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_10(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_9(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_11(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_10(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_12(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_11(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_13(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_12(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_14(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_13(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_15(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_14(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_16(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_15(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_17(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_16(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_18(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_17(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_19(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_18(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_20(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_19(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_21(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_20(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_22(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_21(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_23(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_22(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_24(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_23(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_25(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_24(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_26(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_25(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_27(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_26(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_28(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_27(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_29(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_28(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_30(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_29(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_31(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_30(E, P, OP, __VA_ARGS__), R)
#define SHMPI_GA_32(E, P, OP, R, ...) SHMPI_GA_LINK(E, P, OP, SHMPI_GA_31(E, P, OP, __VA_ARGS__), R)

/* SHMPI_GA_SELECT(E, PREFIX, OP, TABLE): the routine PREFIX##N##_##OP of
 * the row whose type is the type of E.  (The indirection through
 * SHMPI_GA_SELECT_ lets TABLE expand into rows before they are counted.) */
#define SHMPI_GA_SELECT(E, P, OP, TABLE) SHMPI_GA_SELECT_(E, P, OP TABLE(SHMPI_GA_ROW))
#define SHMPI_GA_SELECT_(...) SHMPI_GA_SELECT__(__VA_ARGS__)
#define SHMPI_GA_SELECT__(E, P, OP, ...)                                                      \
    SHMPI_GA_CAT(SHMPI_GA_, SHMPI_GA_NROWS(__VA_ARGS__))(E, P, OP, __VA_ARGS__)

/* Picks the ctx form when called with one argument more than NARGS. */
#define SHMPI_GA_PICK2(_1, _2, _3, NAME, ...) NAME
#define SHMPI_GA_PICK3(_1, _2, _3, _4, NAME, ...) NAME
#define SHMPI_GA_PICK4(_1, _2, _3, _4, _5, NAME, ...) NAME
#define SHMPI_GA_PICK5(_1, _2, _3, _4, _5, _6, NAME, ...) NAME
#define SHMPI_GA_PICK7(_1, _2, _3, _4, _5, _6, _7, _8, NAME, ...) NAME
/* OVERLOAD(NARGS, PLAIN, CTX, args...): PLAIN(args) or CTX(args). */
#define SHMPI_GA_OVERLOAD(NARGS, PLAIN, CTX, ...)                                             \
    SHMPI_GA_PICK##NARGS(__VA_ARGS__, CTX, PLAIN, ~)(__VA_ARGS__)

/* Tables with more than one part. */
#define SHMPI_GA_P2P_ALL_TYPES(X) SHMPI_P2P_TYPES(X) SHMPI_P2P_DEPRECATED_TYPES(X)

/* ---- atomic memory operations ----------------------------------------------------------
 * shmpi_ga_OP(args) / shmpi_gac_OP(ctx, args): the selection on the
 * pointed-to type of the `dest`/`source` argument. */
#define shmpi_ga_fetch_(OP, TABLE, source, pe) SHMPI_GA_SELECT(*(source), shmem_, OP, TABLE)(source, pe)
#define shmpi_gac_fetch_(OP, TABLE, ctx, source, pe)                                          \
    SHMPI_GA_SELECT(*(source), shmem_ctx_, OP, TABLE)(ctx, source, pe)

#define shmpi_ga_atomic_fetch(source, pe) shmpi_ga_fetch_(atomic_fetch, SHMPI_AMO_EXT_TYPES, source, pe)
#define shmpi_gac_atomic_fetch(ctx, source, pe)                                               \
    shmpi_gac_fetch_(atomic_fetch, SHMPI_AMO_EXT_TYPES, ctx, source, pe)
#define shmem_atomic_fetch(...)                                                               \
    SHMPI_GA_OVERLOAD(2, shmpi_ga_atomic_fetch, shmpi_gac_atomic_fetch, __VA_ARGS__)

/* (dest, value, pe) routines. */
#define shmpi_ga_dvp_(OP, TABLE, dest, value, pe)                                             \
    SHMPI_GA_SELECT(*(dest), shmem_, OP, TABLE)(dest, value, pe)
#define shmpi_gac_dvp_(OP, TABLE, ctx, dest, value, pe)                                       \
    SHMPI_GA_SELECT(*(dest), shmem_ctx_, OP, TABLE)(ctx, dest, value, pe)
/* (dest, pe) routines. */
#define shmpi_ga_dp_(OP, TABLE, dest, pe) SHMPI_GA_SELECT(*(dest), shmem_, OP, TABLE)(dest, pe)
#define shmpi_gac_dp_(OP, TABLE, ctx, dest, pe)                                               \
    SHMPI_GA_SELECT(*(dest), shmem_ctx_, OP, TABLE)(ctx, dest, pe)
/* (dest, cond, value, pe) routines. */
#define shmpi_ga_dcvp_(OP, TABLE, dest, cond, value, pe)                                      \
    SHMPI_GA_SELECT(*(dest), shmem_, OP, TABLE)(dest, cond, value, pe)
#define shmpi_gac_dcvp_(OP, TABLE, ctx, dest, cond, value, pe)                                \
    SHMPI_GA_SELECT(*(dest), shmem_ctx_, OP, TABLE)(ctx, dest, cond, value, pe)

#define shmpi_ga_atomic_set(d, v, p) shmpi_ga_dvp_(atomic_set, SHMPI_AMO_EXT_TYPES, d, v, p)
#define shmpi_gac_atomic_set(c, d, v, p) shmpi_gac_dvp_(atomic_set, SHMPI_AMO_EXT_TYPES, c, d, v, p)
#define shmem_atomic_set(...)                                                                 \
    SHMPI_GA_OVERLOAD(3, shmpi_ga_atomic_set, shmpi_gac_atomic_set, __VA_ARGS__)

#define shmpi_ga_atomic_swap(d, v, p) shmpi_ga_dvp_(atomic_swap, SHMPI_AMO_EXT_TYPES, d, v, p)
#define shmpi_gac_atomic_swap(c, d, v, p) shmpi_gac_dvp_(atomic_swap, SHMPI_AMO_EXT_TYPES, c, d, v, p)
#define shmem_atomic_swap(...)                                                                \
    SHMPI_GA_OVERLOAD(3, shmpi_ga_atomic_swap, shmpi_gac_atomic_swap, __VA_ARGS__)

#define shmpi_ga_atomic_compare_swap(d, c, v, p)                                              \
    shmpi_ga_dcvp_(atomic_compare_swap, SHMPI_AMO_STD_TYPES, d, c, v, p)
#define shmpi_gac_atomic_compare_swap(x, d, c, v, p)                                          \
    shmpi_gac_dcvp_(atomic_compare_swap, SHMPI_AMO_STD_TYPES, x, d, c, v, p)
#define shmem_atomic_compare_swap(...)                                                        \
    SHMPI_GA_OVERLOAD(4, shmpi_ga_atomic_compare_swap, shmpi_gac_atomic_compare_swap,         \
                      __VA_ARGS__)

#define shmpi_ga_atomic_fetch_inc(d, p) shmpi_ga_dp_(atomic_fetch_inc, SHMPI_AMO_STD_TYPES, d, p)
#define shmpi_gac_atomic_fetch_inc(c, d, p)                                                   \
    shmpi_gac_dp_(atomic_fetch_inc, SHMPI_AMO_STD_TYPES, c, d, p)
#define shmem_atomic_fetch_inc(...)                                                           \
    SHMPI_GA_OVERLOAD(2, shmpi_ga_atomic_fetch_inc, shmpi_gac_atomic_fetch_inc, __VA_ARGS__)

#define shmpi_ga_atomic_inc(d, p) shmpi_ga_dp_(atomic_inc, SHMPI_AMO_STD_TYPES, d, p)
#define shmpi_gac_atomic_inc(c, d, p) shmpi_gac_dp_(atomic_inc, SHMPI_AMO_STD_TYPES, c, d, p)
#define shmem_atomic_inc(...)                                                                 \
    SHMPI_GA_OVERLOAD(2, shmpi_ga_atomic_inc, shmpi_gac_atomic_inc, __VA_ARGS__)

#define shmpi_ga_atomic_fetch_add(d, v, p)                                                    \
    shmpi_ga_dvp_(atomic_fetch_add, SHMPI_AMO_STD_TYPES, d, v, p)
#define shmpi_gac_atomic_fetch_add(c, d, v, p)                                                \
    shmpi_gac_dvp_(atomic_fetch_add, SHMPI_AMO_STD_TYPES, c, d, v, p)
#define shmem_atomic_fetch_add(...)                                                           \
    SHMPI_GA_OVERLOAD(3, shmpi_ga_atomic_fetch_add, shmpi_gac_atomic_fetch_add, __VA_ARGS__)

#define shmpi_ga_atomic_add(d, v, p) shmpi_ga_dvp_(atomic_add, SHMPI_AMO_STD_TYPES, d, v, p)
#define shmpi_gac_atomic_add(c, d, v, p) shmpi_gac_dvp_(atomic_add, SHMPI_AMO_STD_TYPES, c, d, v, p)
#define shmem_atomic_add(...)                                                                 \
    SHMPI_GA_OVERLOAD(3, shmpi_ga_atomic_add, shmpi_gac_atomic_add, __VA_ARGS__)

/* Bitwise: fetch_and, and, fetch_or, or, fetch_xor, xor. */
#define shmpi_ga_atomic_fetch_and(d, v, p)                                                    \
    shmpi_ga_dvp_(atomic_fetch_and, SHMPI_AMO_BIT_TYPES, d, v, p)
#define shmpi_gac_atomic_fetch_and(c, d, v, p)                                                \
    shmpi_gac_dvp_(atomic_fetch_and, SHMPI_AMO_BIT_TYPES, c, d, v, p)
#define shmem_atomic_fetch_and(...)                                                           \
    SHMPI_GA_OVERLOAD(3, shmpi_ga_atomic_fetch_and, shmpi_gac_atomic_fetch_and, __VA_ARGS__)
#define shmpi_ga_atomic_and(d, v, p) shmpi_ga_dvp_(atomic_and, SHMPI_AMO_BIT_TYPES, d, v, p)
#define shmpi_gac_atomic_and(c, d, v, p) shmpi_gac_dvp_(atomic_and, SHMPI_AMO_BIT_TYPES, c, d, v, p)
#define shmem_atomic_and(...)                                                                 \
    SHMPI_GA_OVERLOAD(3, shmpi_ga_atomic_and, shmpi_gac_atomic_and, __VA_ARGS__)

#define shmpi_ga_atomic_fetch_or(d, v, p)                                                     \
    shmpi_ga_dvp_(atomic_fetch_or, SHMPI_AMO_BIT_TYPES, d, v, p)
#define shmpi_gac_atomic_fetch_or(c, d, v, p)                                                 \
    shmpi_gac_dvp_(atomic_fetch_or, SHMPI_AMO_BIT_TYPES, c, d, v, p)
#define shmem_atomic_fetch_or(...)                                                            \
    SHMPI_GA_OVERLOAD(3, shmpi_ga_atomic_fetch_or, shmpi_gac_atomic_fetch_or, __VA_ARGS__)
#define shmpi_ga_atomic_or(d, v, p) shmpi_ga_dvp_(atomic_or, SHMPI_AMO_BIT_TYPES, d, v, p)
#define shmpi_gac_atomic_or(c, d, v, p) shmpi_gac_dvp_(atomic_or, SHMPI_AMO_BIT_TYPES, c, d, v, p)
#define shmem_atomic_or(...)                                                                  \
    SHMPI_GA_OVERLOAD(3, shmpi_ga_atomic_or, shmpi_gac_atomic_or, __VA_ARGS__)

#define shmpi_ga_atomic_fetch_xor(d, v, p)                                                    \
    shmpi_ga_dvp_(atomic_fetch_xor, SHMPI_AMO_BIT_TYPES, d, v, p)
#define shmpi_gac_atomic_fetch_xor(c, d, v, p)                                                \
    shmpi_gac_dvp_(atomic_fetch_xor, SHMPI_AMO_BIT_TYPES, c, d, v, p)
#define shmem_atomic_fetch_xor(...)                                                           \
    SHMPI_GA_OVERLOAD(3, shmpi_ga_atomic_fetch_xor, shmpi_gac_atomic_fetch_xor, __VA_ARGS__)
#define shmpi_ga_atomic_xor(d, v, p) shmpi_ga_dvp_(atomic_xor, SHMPI_AMO_BIT_TYPES, d, v, p)
#define shmpi_gac_atomic_xor(c, d, v, p) shmpi_gac_dvp_(atomic_xor, SHMPI_AMO_BIT_TYPES, c, d, v, p)
#define shmem_atomic_xor(...)                                                                 \
    SHMPI_GA_OVERLOAD(3, shmpi_ga_atomic_xor, shmpi_gac_atomic_xor, __VA_ARGS__)

/* ---- non-blocking AMOs: (fetch, dest, ...) ------------------------------------------------ */
#define shmpi_ga_fdp_(OP, TABLE, f, d, p) SHMPI_GA_SELECT(*(d), shmem_, OP, TABLE)(f, d, p)
#define shmpi_gac_fdp_(OP, TABLE, c, f, d, p)                                                 \
    SHMPI_GA_SELECT(*(d), shmem_ctx_, OP, TABLE)(c, f, d, p)
#define shmpi_ga_fdvp_(OP, TABLE, f, d, v, p)                                                 \
    SHMPI_GA_SELECT(*(d), shmem_, OP, TABLE)(f, d, v, p)
#define shmpi_gac_fdvp_(OP, TABLE, c, f, d, v, p)                                             \
    SHMPI_GA_SELECT(*(d), shmem_ctx_, OP, TABLE)(c, f, d, v, p)

#define shmpi_ga_atomic_fetch_nbi(f, s, p)                                                    \
    shmpi_ga_fdp_(atomic_fetch_nbi, SHMPI_AMO_EXT_TYPES, f, s, p)
#define shmpi_gac_atomic_fetch_nbi(c, f, s, p)                                                \
    shmpi_gac_fdp_(atomic_fetch_nbi, SHMPI_AMO_EXT_TYPES, c, f, s, p)
#define shmem_atomic_fetch_nbi(...)                                                           \
    SHMPI_GA_OVERLOAD(3, shmpi_ga_atomic_fetch_nbi, shmpi_gac_atomic_fetch_nbi, __VA_ARGS__)

#define shmpi_ga_atomic_compare_swap_nbi(f, d, c, v, p)                                       \
    SHMPI_GA_SELECT(*(d), shmem_, atomic_compare_swap_nbi, SHMPI_AMO_STD_TYPES)(f, d, c, v, p)
#define shmpi_gac_atomic_compare_swap_nbi(x, f, d, c, v, p)                                   \
    SHMPI_GA_SELECT(*(d), shmem_ctx_, atomic_compare_swap_nbi,                                \
                    SHMPI_AMO_STD_TYPES)(x, f, d, c, v, p)
#define shmem_atomic_compare_swap_nbi(...)                                                    \
    SHMPI_GA_OVERLOAD(5, shmpi_ga_atomic_compare_swap_nbi, shmpi_gac_atomic_compare_swap_nbi, \
                      __VA_ARGS__)

#define shmpi_ga_atomic_swap_nbi(f, d, v, p)                                                  \
    shmpi_ga_fdvp_(atomic_swap_nbi, SHMPI_AMO_EXT_TYPES, f, d, v, p)
#define shmpi_gac_atomic_swap_nbi(c, f, d, v, p)                                              \
    shmpi_gac_fdvp_(atomic_swap_nbi, SHMPI_AMO_EXT_TYPES, c, f, d, v, p)
#define shmem_atomic_swap_nbi(...)                                                            \
    SHMPI_GA_OVERLOAD(4, shmpi_ga_atomic_swap_nbi, shmpi_gac_atomic_swap_nbi, __VA_ARGS__)

#define shmpi_ga_atomic_fetch_inc_nbi(f, d, p)                                                \
    shmpi_ga_fdp_(atomic_fetch_inc_nbi, SHMPI_AMO_STD_TYPES, f, d, p)
#define shmpi_gac_atomic_fetch_inc_nbi(c, f, d, p)                                            \
    shmpi_gac_fdp_(atomic_fetch_inc_nbi, SHMPI_AMO_STD_TYPES, c, f, d, p)
#define shmem_atomic_fetch_inc_nbi(...)                                                       \
    SHMPI_GA_OVERLOAD(3, shmpi_ga_atomic_fetch_inc_nbi, shmpi_gac_atomic_fetch_inc_nbi,       \
                      __VA_ARGS__)

#define shmpi_ga_atomic_fetch_add_nbi(f, d, v, p)                                             \
    shmpi_ga_fdvp_(atomic_fetch_add_nbi, SHMPI_AMO_STD_TYPES, f, d, v, p)
#define shmpi_gac_atomic_fetch_add_nbi(c, f, d, v, p)                                         \
    shmpi_gac_fdvp_(atomic_fetch_add_nbi, SHMPI_AMO_STD_TYPES, c, f, d, v, p)
#define shmem_atomic_fetch_add_nbi(...)                                                       \
    SHMPI_GA_OVERLOAD(4, shmpi_ga_atomic_fetch_add_nbi, shmpi_gac_atomic_fetch_add_nbi,       \
                      __VA_ARGS__)

#define shmpi_ga_atomic_fetch_and_nbi(f, d, v, p)                                             \
    shmpi_ga_fdvp_(atomic_fetch_and_nbi, SHMPI_AMO_BIT_TYPES, f, d, v, p)
#define shmpi_gac_atomic_fetch_and_nbi(c, f, d, v, p)                                         \
    shmpi_gac_fdvp_(atomic_fetch_and_nbi, SHMPI_AMO_BIT_TYPES, c, f, d, v, p)
#define shmem_atomic_fetch_and_nbi(...)                                                       \
    SHMPI_GA_OVERLOAD(4, shmpi_ga_atomic_fetch_and_nbi, shmpi_gac_atomic_fetch_and_nbi,       \
                      __VA_ARGS__)

#define shmpi_ga_atomic_fetch_or_nbi(f, d, v, p)                                              \
    shmpi_ga_fdvp_(atomic_fetch_or_nbi, SHMPI_AMO_BIT_TYPES, f, d, v, p)
#define shmpi_gac_atomic_fetch_or_nbi(c, f, d, v, p)                                          \
    shmpi_gac_fdvp_(atomic_fetch_or_nbi, SHMPI_AMO_BIT_TYPES, c, f, d, v, p)
#define shmem_atomic_fetch_or_nbi(...)                                                        \
    SHMPI_GA_OVERLOAD(4, shmpi_ga_atomic_fetch_or_nbi, shmpi_gac_atomic_fetch_or_nbi,         \
                      __VA_ARGS__)

#define shmpi_ga_atomic_fetch_xor_nbi(f, d, v, p)                                             \
    shmpi_ga_fdvp_(atomic_fetch_xor_nbi, SHMPI_AMO_BIT_TYPES, f, d, v, p)
#define shmpi_gac_atomic_fetch_xor_nbi(c, f, d, v, p)                                         \
    shmpi_gac_fdvp_(atomic_fetch_xor_nbi, SHMPI_AMO_BIT_TYPES, c, f, d, v, p)
#define shmem_atomic_fetch_xor_nbi(...)                                                       \
    SHMPI_GA_OVERLOAD(4, shmpi_ga_atomic_fetch_xor_nbi, shmpi_gac_atomic_fetch_xor_nbi,       \
                      __VA_ARGS__)

/* ---- deprecated AMO names (no context forms), on every extended / standard AMO type ---- */
#define shmem_fetch(source, pe)                                                               \
    SHMPI_GA_SELECT(*(source), shmem_, fetch, SHMPI_AMO_EXT_TYPES)(source, pe)
#define shmem_set(dest, value, pe)                                                            \
    SHMPI_GA_SELECT(*(dest), shmem_, set, SHMPI_AMO_EXT_TYPES)(dest, value, pe)
#define shmem_swap(dest, value, pe)                                                           \
    SHMPI_GA_SELECT(*(dest), shmem_, swap, SHMPI_AMO_EXT_TYPES)(dest, value, pe)
#define shmem_cswap(dest, cond, value, pe)                                                    \
    SHMPI_GA_SELECT(*(dest), shmem_, cswap, SHMPI_AMO_STD_TYPES)(dest, cond, value, pe)
#define shmem_finc(dest, pe)                                                                  \
    SHMPI_GA_SELECT(*(dest), shmem_, finc, SHMPI_AMO_STD_TYPES)(dest, pe)
#define shmem_inc(dest, pe)                                                                   \
    SHMPI_GA_SELECT(*(dest), shmem_, inc, SHMPI_AMO_STD_TYPES)(dest, pe)
#define shmem_fadd(dest, value, pe)                                                           \
    SHMPI_GA_SELECT(*(dest), shmem_, fadd, SHMPI_AMO_STD_TYPES)(dest, value, pe)
#define shmem_add(dest, value, pe)                                                            \
    SHMPI_GA_SELECT(*(dest), shmem_, add, SHMPI_AMO_STD_TYPES)(dest, value, pe)

/* ---- put with signal ------------------------------------------------------------------------ */
#define shmpi_ga_put_signal(d, s, n, a, v, o, p)                                              \
    SHMPI_GA_SELECT(*(d), shmem_, put_signal, SHMPI_RMA_TYPES)(d, s, n, a, v, o, p)
#define shmpi_gac_put_signal(c, d, s, n, a, v, o, p)                                          \
    SHMPI_GA_SELECT(*(d), shmem_ctx_, put_signal, SHMPI_RMA_TYPES)(c, d, s, n, a, v, o, p)
#define shmem_put_signal(...)                                                                 \
    SHMPI_GA_OVERLOAD(7, shmpi_ga_put_signal, shmpi_gac_put_signal, __VA_ARGS__)
#define shmpi_ga_put_signal_nbi(d, s, n, a, v, o, p)                                          \
    SHMPI_GA_SELECT(*(d), shmem_, put_signal_nbi, SHMPI_RMA_TYPES)(d, s, n, a, v, o, p)
#define shmpi_gac_put_signal_nbi(c, d, s, n, a, v, o, p)                                      \
    SHMPI_GA_SELECT(*(d), shmem_ctx_, put_signal_nbi, SHMPI_RMA_TYPES)(c, d, s, n, a, v, o, p)
#define shmem_put_signal_nbi(...)                                                             \
    SHMPI_GA_OVERLOAD(7, shmpi_ga_put_signal_nbi, shmpi_gac_put_signal_nbi, __VA_ARGS__)
/* OpenSHMEM 1.6 signal updates: the untyped function, or its ctx form when
 * called with a leading context (the parentheses keep the name from
 * expanding again). */
#define shmpi_ga_signal_add(a, v, pe) (shmem_signal_add)(a, v, pe)
#define shmem_signal_add(...)                                                                 \
    SHMPI_GA_OVERLOAD(3, shmpi_ga_signal_add, shmem_ctx_signal_add, __VA_ARGS__)
#define shmpi_ga_signal_set(a, v, pe) (shmem_signal_set)(a, v, pe)
#define shmem_signal_set(...)                                                                 \
    SHMPI_GA_OVERLOAD(3, shmpi_ga_signal_set, shmem_ctx_signal_set, __VA_ARGS__)

/* ---- point-to-point synchronization (also on the deprecated short, unsigned short) ---------
 * shmem_wait_until is also a deprecated C function (on long); shmem.h
 * declares it as (shmem_wait_until) so this macro does not touch it. */
#define shmem_wait_until(ivar, cmp, value)                                                    \
    SHMPI_GA_SELECT(*(ivar), shmem_, wait_until, SHMPI_GA_P2P_ALL_TYPES)(ivar, cmp, value)
#define shmem_test(ivar, cmp, value)                                                          \
    SHMPI_GA_SELECT(*(ivar), shmem_, test, SHMPI_GA_P2P_ALL_TYPES)(ivar, cmp, value)
#define shmem_wait_until_all(ivars, nelems, status, cmp, value)                               \
    SHMPI_GA_SELECT(*(ivars), shmem_, wait_until_all, SHMPI_GA_P2P_ALL_TYPES)(ivars, nelems, status, \
                                                                        cmp, value)
#define shmem_wait_until_any(ivars, nelems, status, cmp, value)                               \
    SHMPI_GA_SELECT(*(ivars), shmem_, wait_until_any, SHMPI_GA_P2P_ALL_TYPES)(ivars, nelems, status, \
                                                                        cmp, value)
#define shmem_wait_until_some(ivars, nelems, indices, status, cmp, value)                     \
    SHMPI_GA_SELECT(*(ivars), shmem_, wait_until_some,                                        \
                    SHMPI_GA_P2P_ALL_TYPES)(ivars, nelems, indices, status, cmp, value)
#define shmem_wait_until_all_vector(ivars, nelems, status, cmp, values)                       \
    SHMPI_GA_SELECT(*(ivars), shmem_, wait_until_all_vector,                                  \
                    SHMPI_GA_P2P_ALL_TYPES)(ivars, nelems, status, cmp, values)
#define shmem_wait_until_any_vector(ivars, nelems, status, cmp, values)                       \
    SHMPI_GA_SELECT(*(ivars), shmem_, wait_until_any_vector,                                  \
                    SHMPI_GA_P2P_ALL_TYPES)(ivars, nelems, status, cmp, values)
#define shmem_wait_until_some_vector(ivars, nelems, indices, status, cmp, values)             \
    SHMPI_GA_SELECT(*(ivars), shmem_, wait_until_some_vector,                                 \
                    SHMPI_GA_P2P_ALL_TYPES)(ivars, nelems, indices, status, cmp, values)
#define shmem_test_all(ivars, nelems, status, cmp, value)                                     \
    SHMPI_GA_SELECT(*(ivars), shmem_, test_all, SHMPI_GA_P2P_ALL_TYPES)(ivars, nelems, status, cmp,  \
                                                                  value)
#define shmem_test_any(ivars, nelems, status, cmp, value)                                     \
    SHMPI_GA_SELECT(*(ivars), shmem_, test_any, SHMPI_GA_P2P_ALL_TYPES)(ivars, nelems, status, cmp,  \
                                                                  value)
#define shmem_test_some(ivars, nelems, indices, status, cmp, value)                           \
    SHMPI_GA_SELECT(*(ivars), shmem_, test_some, SHMPI_GA_P2P_ALL_TYPES)(ivars, nelems, indices,     \
                                                                   status, cmp, value)
#define shmem_test_all_vector(ivars, nelems, status, cmp, values)                             \
    SHMPI_GA_SELECT(*(ivars), shmem_, test_all_vector, SHMPI_GA_P2P_ALL_TYPES)(ivars, nelems,        \
                                                                         status, cmp, values)
#define shmem_test_any_vector(ivars, nelems, status, cmp, values)                             \
    SHMPI_GA_SELECT(*(ivars), shmem_, test_any_vector, SHMPI_GA_P2P_ALL_TYPES)(ivars, nelems,        \
                                                                         status, cmp, values)
#define shmem_test_some_vector(ivars, nelems, indices, status, cmp, values)                   \
    SHMPI_GA_SELECT(*(ivars), shmem_, test_some_vector,                                       \
                    SHMPI_GA_P2P_ALL_TYPES)(ivars, nelems, indices, status, cmp, values)

#endif /* SHMPI_GENERICS_AMO_H */
