/*
 * shmpi_generics.h - the machinery of the C11 type-generic OpenSHMEM names,
 * included by shmem.h when compiled as C11 or later.  The names themselves
 * are lines of shmpi_routines.h, one per typed family:
 *     #define shmem_put(...) SHMPI_C11_GENERIC(CTX, put, RMA, CONTIG, __VA_ARGS__)
 *
 * Each name selects on the type of the object its selecting pointer
 * argument points to, over the rows of a type table of shmpi_typetables.h.
 * The fixed-width types of the tables are typedefs of the basic ones
 * (int32_t is int, ...), and one _Generic may not list a type twice, so the
 * selection is a chain:
 *     _Generic(E, T1: f1, default: _Generic(E, T2: f2, default: ...))
 * in table order, where a row repeating an earlier type is never reached.
 * A type outside the table is a compile-time error (the call names
 * shmpi_generic_argument_type_not_supported).
 *
 * Names that take an optional leading shmem_ctx_t (ctx-overload in the
 * spec) choose the shmem_ctx_ routine when called with one argument more.
 *
 * Because the selections expand the type tables, a generic name cannot be
 * used inside an expansion of the same table macro (the C preprocessor
 * does not expand a macro within itself); programs have no reason to use
 * those internal tables anyway.
 */
#ifndef SHMPI_GENERICS_H
#define SHMPI_GENERICS_H

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
 * the row of SHMPI_<TABLE>_TYPE_ROWS whose type is the type of E.  (The
 * indirection through SHMPI_GA_SELECT_ lets the table expand into rows
 * before they are counted.) */
#define SHMPI_GA_SELECT(E, P, OP, TABLE)                                                      \
    SHMPI_GA_SELECT_(E, P, OP SHMPI_##TABLE##_TYPE_ROWS(SHMPI_ROW, SHMPI_GA_ROW))
#define SHMPI_GA_SELECT_(...) SHMPI_GA_SELECT__(__VA_ARGS__)
#define SHMPI_GA_SELECT__(E, P, OP, ...)                                                      \
    SHMPI_GA_CAT(SHMPI_GA_, SHMPI_GA_NROWS(__VA_ARGS__))(E, P, OP, __VA_ARGS__)

/* SHMPI_GA_PICKn(args..., CTX, PLAIN, ~): CTX when called with n + 1
 * arguments, PLAIN with n. */
#define SHMPI_GA_PICK2(_1, _2, _3, NAME, ...) NAME
#define SHMPI_GA_PICK3(_1, _2, _3, _4, NAME, ...) NAME
#define SHMPI_GA_PICK4(_1, _2, _3, _4, _5, NAME, ...) NAME
#define SHMPI_GA_PICK5(_1, _2, _3, _4, _5, _6, NAME, ...) NAME
#define SHMPI_GA_PICK6(_1, _2, _3, _4, _5, _6, _7, NAME, ...) NAME
#define SHMPI_GA_PICK7(_1, _2, _3, _4, _5, _6, _7, _8, NAME, ...) NAME

/* ---- the generic names -------------------------------------------------------------------
 * SHMPI_C11_GENERIC(FORMS, OP, TABLE, SIG, args...) is the call of the
 * family entry SHMPI_TYPED(RET, OP, TABLE, FORMS, SIG): the routine of the
 * row whose type the selecting argument points to (SHMPI_SEL_<SIG>), its
 * shmem_ctx_ form when FORMS is CTX and the call has a leading context. */
#define SHMPI_C11_GENERIC(FORMS, OP, TABLE, SIG, ...)                                         \
    SHMPI_C11_##FORMS(OP, TABLE, SHMPI_NARGS_##SIG, SHMPI_SEL_##SIG, __VA_ARGS__)
#define SHMPI_C11_PLAIN(OP, TABLE, NARGS, SEL, ...) SHMPI_C11_PLAIN_(OP, TABLE, SEL, __VA_ARGS__)
#define SHMPI_C11_CTX(OP, TABLE, NARGS, SEL, ...)                                             \
    SHMPI_GA_CAT(SHMPI_GA_PICK, NARGS)(__VA_ARGS__, SHMPI_C11_WITH_CTX_, SHMPI_C11_PLAIN_, ~)  \
    (OP, TABLE, SEL, __VA_ARGS__)
#define SHMPI_C11_PLAIN_(OP, TABLE, SEL, ...)                                                 \
    SHMPI_GA_SELECT(*(SEL(__VA_ARGS__)), shmem_, OP, TABLE)(__VA_ARGS__)
#define SHMPI_C11_WITH_CTX_(OP, TABLE, SEL, CTX, ...)                                         \
    SHMPI_GA_SELECT(*(SEL(__VA_ARGS__)), shmem_ctx_, OP, TABLE)(CTX, __VA_ARGS__)
/* An untyped routine with a ctx form: (shmem_OP)(args) or shmem_ctx_OP(ctx,
 * args); the parentheses keep the name from expanding again. */
#define SHMPI_C11_UNTYPED(NARGS, OP, ...)                                                     \
    SHMPI_GA_CAT(SHMPI_GA_PICK, NARGS)(__VA_ARGS__, shmem_ctx_##OP, (shmem_##OP), ~)(__VA_ARGS__)

#endif /* SHMPI_GENERICS_H */
