/*
 * shmpi_families.h - how the typed routine families of shmpi_routines.h
 * expand: the signatures, return types and the family entries.  Installed
 * because shmem.h needs it; programs include shmem.h, not this file.
 */
/*
 * Typed families.  One entry
 *     SHMPI_TYPED(RET, OP, TABLE, FORMS, SIG)
 * is the routine shmem_TYPENAME_OP for every row of the type table TABLE
 * (SHMPI_<TABLE>_TYPE_ROWS of shmpi_typetables.h), and with FORMS CTX also
 * shmem_ctx_TYPENAME_OP, whose first parameter is a shmem_ctx_t ctx; SIG
 * names the parameters (a signature below) and RET the return type (VOID,
 * ELEM for the element type, INT or SIZE).  The same entry is the generic
 * name shmem_OP: shmpi_cxx.h expands it into C++ templates, and the C11
 * name is the chapter's line
 *     #define shmem_OP(...) SHMPI_C11_GENERIC(FORMS, OP, TABLE, SIG, __VA_ARGS__)
 * (a macro cannot define a macro, so that one line is written out).
 * SHMPI_TYPED_CALL(RET, OP, TABLE, FORMS, SIG, CALL, EXTRA) is a family
 * whose routines are one call into the layers, CALL(CTX, T, MPI_DATATYPE,
 * EXTRA) with CTX the routine's context (ctx or SHMEM_CTX_DEFAULT);
 * src/api/listed.c defines them.  So a new family is its entry, its C11
 * line and its core function.  SHMPI_GENERIC_ONLY(...) is the generic name
 * of typed routines written out by hand (the deprecated AMO names).
 */
#ifndef SHMPI_ROUTINES_MACHINERY
#define SHMPI_ROUTINES_MACHINERY
/* Signatures: SHMPI_SIG_x(T, V) lists the parameters, with T the element
 * type that a generic name selects on and V that of the other element
 * parameters (T itself; in the C++ templates the type that is not
 * deduced); SHMPI_ARGS_x names them, SHMPI_NARGS_x counts them and
 * SHMPI_SEL_x picks the argument a C11 generic name selects on. */
#define SHMPI_SIG_CONTIG(T, V) T *dest, const V *source, size_t nelems, int pe
#define SHMPI_ARGS_CONTIG dest, source, nelems, pe
#define SHMPI_NARGS_CONTIG 4
#define SHMPI_SEL_CONTIG SHMPI_ARG1
#define SHMPI_SIG_STRIDED(T, V)                                                               \
    T *dest, const V *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe
#define SHMPI_ARGS_STRIDED dest, source, dst, sst, nelems, pe
#define SHMPI_NARGS_STRIDED 6
#define SHMPI_SEL_STRIDED SHMPI_ARG1
#define SHMPI_SIG_BLOCKED(T, V)                                                               \
    T *dest, const V *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe
#define SHMPI_ARGS_BLOCKED dest, source, dst, sst, bsize, nblocks, pe
#define SHMPI_NARGS_BLOCKED 7
#define SHMPI_SEL_BLOCKED SHMPI_ARG1
#define SHMPI_SIG_SIGNAL(T, V)                                                                \
    T *dest, const V *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, \
        int pe
#define SHMPI_ARGS_SIGNAL dest, source, nelems, sig_addr, signal, sig_op, pe
#define SHMPI_NARGS_SIGNAL 7
#define SHMPI_SEL_SIGNAL SHMPI_ARG1
/* (source, pe), (dest, pe), (dest, value, pe), (dest, cond, value, pe) */
#define SHMPI_SIG_SP(T, V) const T *source, int pe
#define SHMPI_ARGS_SP source, pe
#define SHMPI_NARGS_SP 2
#define SHMPI_SEL_SP SHMPI_ARG1
#define SHMPI_SIG_DP(T, V) T *dest, int pe
#define SHMPI_ARGS_DP dest, pe
#define SHMPI_NARGS_DP 2
#define SHMPI_SEL_DP SHMPI_ARG1
#define SHMPI_SIG_DVP(T, V) T *dest, V value, int pe
#define SHMPI_ARGS_DVP dest, value, pe
#define SHMPI_NARGS_DVP 3
#define SHMPI_SEL_DVP SHMPI_ARG1
#define SHMPI_SIG_DCVP(T, V) T *dest, V cond, V value, int pe
#define SHMPI_ARGS_DCVP dest, cond, value, pe
#define SHMPI_NARGS_DCVP 4
#define SHMPI_SEL_DCVP SHMPI_ARG1
/* The non-blocking fetching AMOs: a fetch pointer first, selected on dest/source. */
#define SHMPI_SIG_FSP(T, V) V *fetch, const T *source, int pe
#define SHMPI_ARGS_FSP fetch, source, pe
#define SHMPI_NARGS_FSP 3
#define SHMPI_SEL_FSP SHMPI_ARG2
#define SHMPI_SIG_FDP(T, V) V *fetch, T *dest, int pe
#define SHMPI_ARGS_FDP fetch, dest, pe
#define SHMPI_NARGS_FDP 3
#define SHMPI_SEL_FDP SHMPI_ARG2
#define SHMPI_SIG_FDVP(T, V) V *fetch, T *dest, V value, int pe
#define SHMPI_ARGS_FDVP fetch, dest, value, pe
#define SHMPI_NARGS_FDVP 4
#define SHMPI_SEL_FDVP SHMPI_ARG2
#define SHMPI_SIG_FDCVP(T, V) V *fetch, T *dest, V cond, V value, int pe
#define SHMPI_ARGS_FDCVP fetch, dest, cond, value, pe
#define SHMPI_NARGS_FDCVP 5
#define SHMPI_SEL_FDCVP SHMPI_ARG2
/* Point-to-point: one ivar, a set with one value, a set with a value each. */
#define SHMPI_SIG_WAIT(T, V) T *ivar, int cmp, V cmp_value
#define SHMPI_ARGS_WAIT ivar, cmp, cmp_value
#define SHMPI_NARGS_WAIT 3
#define SHMPI_SEL_WAIT SHMPI_ARG1
#define SHMPI_SIG_SET(T, V) T *ivars, size_t nelems, const int *status, int cmp, V cmp_value
#define SHMPI_ARGS_SET ivars, nelems, status, cmp, cmp_value
#define SHMPI_NARGS_SET 5
#define SHMPI_SEL_SET SHMPI_ARG1
#define SHMPI_SIG_SET_VECTOR(T, V)                                                            \
    T *ivars, size_t nelems, const int *status, int cmp, const V *cmp_values
#define SHMPI_ARGS_SET_VECTOR ivars, nelems, status, cmp, cmp_values
#define SHMPI_NARGS_SET_VECTOR 5
#define SHMPI_SEL_SET_VECTOR SHMPI_ARG1
#define SHMPI_SIG_SOME(T, V)                                                                  \
    T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, V cmp_value
#define SHMPI_ARGS_SOME ivars, nelems, indices, status, cmp, cmp_value
#define SHMPI_NARGS_SOME 6
#define SHMPI_SEL_SOME SHMPI_ARG1
#define SHMPI_SIG_SOME_VECTOR(T, V)                                                           \
    T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, const V *cmp_values
#define SHMPI_ARGS_SOME_VECTOR ivars, nelems, indices, status, cmp, cmp_values
#define SHMPI_NARGS_SOME_VECTOR 6
#define SHMPI_SEL_SOME_VECTOR SHMPI_ARG1
/* Team collectives: the team first, selected on dest. */
#define SHMPI_SIG_COLL(T, V) shmem_team_t team, T *dest, const V *source, size_t nelems
#define SHMPI_ARGS_COLL team, dest, source, nelems
#define SHMPI_NARGS_COLL 4
#define SHMPI_SEL_COLL SHMPI_ARG2
#define SHMPI_SIG_BROADCAST(T, V)                                                             \
    shmem_team_t team, T *dest, const V *source, size_t nelems, int PE_root
#define SHMPI_ARGS_BROADCAST team, dest, source, nelems, PE_root
#define SHMPI_NARGS_BROADCAST 5
#define SHMPI_SEL_BROADCAST SHMPI_ARG2
#define SHMPI_SIG_ALLTOALLS(T, V)                                                             \
    shmem_team_t team, T *dest, const V *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems
#define SHMPI_ARGS_ALLTOALLS team, dest, source, dst, sst, nelems
#define SHMPI_NARGS_ALLTOALLS 6
#define SHMPI_SEL_ALLTOALLS SHMPI_ARG2
#define SHMPI_SIG_REDUCE(T, V) shmem_team_t team, T *dest, const V *source, size_t nreduce
#define SHMPI_ARGS_REDUCE team, dest, source, nreduce
#define SHMPI_NARGS_REDUCE 4
#define SHMPI_SEL_REDUCE SHMPI_ARG2

#define SHMPI_ARG1(A, ...) A
#define SHMPI_ARG2(A, B, ...) B
#define SHMPI_RET_VOID(T) void
#define SHMPI_RET_ELEM(T) T
#define SHMPI_RET_INT(T) int
#define SHMPI_RET_SIZE(T) size_t

/* The expansion of a family: each row of its table, read with the family's
 * fields X = (RET, OP, FORMS, SIG, HOW, CALL, EXTRA), becomes HOW(...) for
 * shmem_TYPENAME_OP and, FORMS CTX, for shmem_ctx_TYPENAME_OP. */
#define SHMPI_TYPED(RET, OP, TABLE, FORMS, SIG)                                               \
    SHMPI_##TABLE##_TYPE_ROWS(SHMPI_TYPED_ROW, (RET, OP, FORMS, SIG, SHMPI_TYPED_DECL, ~, ~))  \
    SHMPI_GENERIC_NAME(RET, OP, TABLE, FORMS, SIG)
#define SHMPI_TYPED_CALL(RET, OP, TABLE, FORMS, SIG, CALL, EXTRA)                             \
    SHMPI_##TABLE##_TYPE_ROWS(SHMPI_TYPED_ROW,                                                \
                              (RET, OP, FORMS, SIG, SHMPI_TYPED_DEF, CALL, EXTRA))            \
    SHMPI_GENERIC_NAME(RET, OP, TABLE, FORMS, SIG)
#define SHMPI_GENERIC_ONLY(RET, OP, TABLE, FORMS, SIG) SHMPI_GENERIC_NAME(RET, OP, TABLE, FORMS, SIG)
#define SHMPI_TYPED_APPLY(F, ARGS) F ARGS
#define SHMPI_TYPED_UNPAREN(...) __VA_ARGS__
#define SHMPI_TYPED_ROW(X, N, T, M) SHMPI_TYPED_APPLY(SHMPI_TYPED_ROW_, (N, T, M, SHMPI_TYPED_UNPAREN X))
#define SHMPI_TYPED_ROW_(N, T, M, RET, OP, FORMS, SIG, HOW, CALL, EXTRA)                      \
    HOW(SHMPI_RET_##RET(T), RET, shmem_##N##_##OP, (SHMPI_SIG_##SIG(T, T)),                   \
        CALL(SHMEM_CTX_DEFAULT, T, M, EXTRA))                                                 \
    SHMPI_TYPED_CTX_##FORMS(HOW, SHMPI_RET_##RET(T), RET, shmem_ctx_##N##_##OP,               \
                            (shmem_ctx_t ctx, SHMPI_SIG_##SIG(T, T)), CALL(ctx, T, M, EXTRA))
#define SHMPI_TYPED_CTX_PLAIN(HOW, ...)
#define SHMPI_TYPED_CTX_CTX(HOW, ...) HOW(__VA_ARGS__)
#define SHMPI_TYPED_DECL(RET_TYPE, RET, NAME, PARAMS, CALL) SHMPI_FN(RET_TYPE, NAME, PARAMS)
#define SHMPI_TYPED_DEF(RET_TYPE, RET, NAME, PARAMS, CALL)                                    \
    SHMPI_TYPED_DEF_##RET(RET_TYPE, NAME, PARAMS, CALL)
#define SHMPI_TYPED_DEF_VOID(RET_TYPE, NAME, PARAMS, CALL) SHMPI_FN_DO(NAME, PARAMS, CALL)
#define SHMPI_TYPED_DEF_ELEM(RET_TYPE, NAME, PARAMS, CALL) SHMPI_FN_CALL(RET_TYPE, NAME, PARAMS, CALL)
#define SHMPI_TYPED_DEF_INT SHMPI_TYPED_DEF_ELEM
#define SHMPI_TYPED_DEF_SIZE SHMPI_TYPED_DEF_ELEM
#endif /* SHMPI_ROUTINES_MACHINERY */
