/*
 * shmpi_cxx.h - the OpenSHMEM generic names as C++ overloads (C++11 and
 * later), included by shmem.h when compiled as C++.  The names and type sets
 * are those of the C11 generic names (openshmem-1.6-c11-generics.txt):
 * shmem_put(dest, source, nelems, pe), shmem_put(ctx, dest, ...), ...
 *
 * One source of truth: this header includes the routine list
 * (shmpi_routines.h) once more, and each typed family entry there,
 * SHMPI_TYPED(RET, OP, TABLE, FORMS, SIG), becomes here
 *   - a namespace shmpi_cxx::fam_OP with one struct per row of TABLE,
 *     row_TYPENAME, holding the row's type and a static forwarder to the
 *     typed C routine (row_int::call(...) calls shmem_int_OP(...),
 *     row_int::ctx_call(...) calls shmem_ctx_int_OP(...)), and the type list
 *     rows<row_float, row_double, ..., type_not_in_table>;
 *   - the function template shmem_OP on the element type T (deduced from the
 *     argument the C11 selection uses), with the family's signature, and its
 *     overload with a leading shmem_ctx_t when FORMS is CTX.
 * The template looks T up in the list, first row whose type is T wins, so
 * rows that repeat a type through a typedef (int32_t is int, size_t is
 * unsigned long, ... on some platforms, not on others) are harmless.  A type
 * outside the table fails a static_assert naming the routine and the table.
 * Value arguments (value, cond, source, fetch, ...) are not deduced: they
 * convert to the element type the way they do for the typed C routine.
 *
 * Names that are also deprecated C functions keep those: shmem_wait_until
 * (long *, int, long) and shmem_sync(int, int, int, long *) are declared by
 * shmem.h; the templates and the shmem_sync(shmem_team_t) overload join
 * them in one overload set.
 */
#ifndef SHMPI_CXX_H
#define SHMPI_CXX_H

#ifndef __cplusplus
#error "shmpi_cxx.h is the C++ part of shmem.h; include <shmem.h>"
#endif
#if __cplusplus < 201103L
#error "the OpenSHMEM C++ overloads of shmpi need C++11 or later"
#endif

extern "C++" { /* also when shmem.h is included inside extern "C" */

#include <cstddef>
#include <stdint.h>
#include <type_traits>

namespace shmpi_cxx {

/* A non-deduced parameter of type T. */
template <typename T> struct identity {
    typedef T type;
};
template <typename T> using same_t = typename identity<T>::type;

/* The end of every row list; its type is no element type. */
struct type_not_in_table {
    typedef type_not_in_table type;
};
template <typename... Rows> struct rows {};

/* find<T, rows<...>>::type: the first row whose type is T, or type_not_in_table. */
template <typename T, typename List> struct find;
template <typename T> struct find<T, rows<type_not_in_table> > {
    typedef type_not_in_table type;
    static const bool found = false;
};
template <typename T, typename R, typename... Rs> struct find<T, rows<R, Rs...> > {
    typedef typename std::conditional<std::is_same<T, typename R::type>::value, R,
                                      typename find<T, rows<Rs...> >::type>::type type;
    static const bool found = !std::is_same<type, type_not_in_table>::value;
};

} /* namespace shmpi_cxx */

/* ---- rows: forwarders to the typed C routines ------------------------------------------ */
/* ROW::call(args) calls shmem_TYPENAME_OP(args); ROW::ctx_call(ctx, args)
 * calls shmem_ctx_TYPENAME_OP(ctx, args). */
#define SHMPI_CXX_FWD(N, OP)                                                                  \
    template <typename... A>                                                                  \
    static auto call(A... a)->decltype(shmem_##N##_##OP(a...))                               \
    {                                                                                         \
        return shmem_##N##_##OP(a...);                                                       \
    }
#define SHMPI_CXX_FWD_CTX_PLAIN(N, OP)
#define SHMPI_CXX_FWD_CTX_CTX(N, OP)                                                          \
    template <typename... A>                                                                  \
    static auto ctx_call(shmem_ctx_t c, A... a)->decltype(shmem_ctx_##N##_##OP(c, a...))      \
    {                                                                                         \
        return shmem_ctx_##N##_##OP(c, a...);                                                 \
    }
#define SHMPI_CXX_ROW_(N, T, OP, FORMS)                                                       \
    struct row_##N {                                                                          \
        typedef T type;                                                                       \
        SHMPI_CXX_FWD(N, OP)                                                                  \
        SHMPI_CXX_FWD_CTX_##FORMS(N, OP)                                                      \
    };
/* Table readings: X = (OP, FORMS). */
#define SHMPI_CXX_ROW(X, N, T, M) SHMPI_TYPED_APPLY(SHMPI_CXX_ROW_, (N, T, SHMPI_TYPED_UNPAREN X))
#define SHMPI_CXX_ROW_REF(X, N, T, M) row_##N,

/* ---- GCC's C complex types -------------------------------------------------------------
 * shmem.h declares the complex routines on std::complex<T> in C++; programs
 * written for C (and Sandia OpenSHMEM's C++ tests) pass T _Complex
 * (__complex__ T), which GCC and Clang accept in C++ and which does not
 * convert.  The typed names get overloads on it and the generic names a row
 * for it; the layouts are the same (checked here), so the overloads pass the
 * pointers on. */
#if defined(__GNUC__)
#define SHMPI_CXX_GNU_COMPLEX 1
__extension__ typedef __complex__ double shmpi_gnu_complexd_t;
__extension__ typedef __complex__ float shmpi_gnu_complexf_t;
static_assert(sizeof(shmpi_gnu_complexd_t) == sizeof(shmpi_complexd_t) &&
                  alignof(shmpi_gnu_complexd_t) == alignof(shmpi_complexd_t) &&
                  sizeof(shmpi_gnu_complexf_t) == sizeof(shmpi_complexf_t) &&
                  alignof(shmpi_gnu_complexf_t) == alignof(shmpi_complexf_t),
              "T _Complex and std::complex<T> differ in layout");
#define SHMPI_CXX_GNU_REDUCE(N, OP)                                                           \
    inline int shmem_##N##_##OP(shmem_team_t team, shmpi_gnu_##N##_t *dest,                   \
                                const shmpi_gnu_##N##_t *source, size_t nelems)               \
    {                                                                                         \
        return shmem_##N##_##OP(team, reinterpret_cast<shmpi_##N##_t *>(dest),                \
                                reinterpret_cast<const shmpi_##N##_t *>(source), nelems);     \
    }
#define SHMPI_CXX_GNU_TO_ALL(N, OP)                                                           \
    inline void shmem_##N##_##OP##_to_all(shmpi_gnu_##N##_t *dest,                            \
                                          const shmpi_gnu_##N##_t *source, int nreduce,       \
                                          int PE_start, int logPE_stride, int PE_size,        \
                                          shmpi_gnu_##N##_t *pWrk, long *pSync)               \
    {                                                                                         \
        shmem_##N##_##OP##_to_all(reinterpret_cast<shmpi_##N##_t *>(dest),                    \
                                  reinterpret_cast<const shmpi_##N##_t *>(source), nreduce,   \
                                  PE_start, logPE_stride, PE_size,                            \
                                  reinterpret_cast<shmpi_##N##_t *>(pWrk), pSync);            \
    }
#define SHMPI_CXX_GNU_COMPLEX_ROUTINES(N)                                                     \
    SHMPI_CXX_GNU_REDUCE(N, sum_reduce) SHMPI_CXX_GNU_REDUCE(N, prod_reduce)                  \
    SHMPI_CXX_GNU_REDUCE(N, sum_inscan) SHMPI_CXX_GNU_REDUCE(N, sum_exscan)                   \
    SHMPI_CXX_GNU_TO_ALL(N, sum) SHMPI_CXX_GNU_TO_ALL(N, prod)
SHMPI_CXX_GNU_COMPLEX_ROUTINES(complexd)
SHMPI_CXX_GNU_COMPLEX_ROUTINES(complexf)
#undef SHMPI_CXX_GNU_REDUCE
#undef SHMPI_CXX_GNU_TO_ALL
#undef SHMPI_CXX_GNU_COMPLEX_ROUTINES
#endif

/* The rows of T _Complex: only the tables with complex rows have them
 * (SHMPI_CXX_GNU_<TABLE> says so). */
#define SHMPI_CXX_SECOND(...) SHMPI_CXX_SECOND_(__VA_ARGS__)
#define SHMPI_CXX_SECOND_(A, B, ...) B
#ifdef SHMPI_CXX_GNU_COMPLEX
#define SHMPI_CXX_GNU_REDUCE_ARITH ~, SHMPI_CXX_GNU_YES
#endif
#define SHMPI_CXX_CAT(A, B) SHMPI_CXX_CAT_(A, B)
#define SHMPI_CXX_CAT_(A, B) A##B
#define SHMPI_CXX_GNU_KIND(TABLE) SHMPI_CXX_SECOND(SHMPI_CXX_GNU_##TABLE, SHMPI_CXX_GNU_NO, ~)
#define SHMPI_CXX_GNU_ROWS(TABLE, OP, FORMS)                                                  \
    SHMPI_CXX_CAT(SHMPI_CXX_GNU_KIND(TABLE), _ROWS)(OP, FORMS)
#define SHMPI_CXX_GNU_REFS(TABLE) SHMPI_CXX_CAT(SHMPI_CXX_GNU_KIND(TABLE), _REFS)
#define SHMPI_CXX_GNU_NO_ROWS(OP, FORMS)
#define SHMPI_CXX_GNU_NO_REFS
#define SHMPI_CXX_GNU_YES_ROWS(OP, FORMS)                                                     \
    namespace gnu {                                                                           \
    SHMPI_CXX_ROW_(complexd, shmpi_gnu_complexd_t, OP, FORMS)                                 \
    SHMPI_CXX_ROW_(complexf, shmpi_gnu_complexf_t, OP, FORMS)                                 \
    }
#define SHMPI_CXX_GNU_YES_REFS gnu::row_complexd, gnu::row_complexf,

/* ---- the generic names ------------------------------------------------------------------ */
/* In a generic name's body: row_ is the row of T in the family's list, or
 * the compilation stops with a message naming the routine and the table. */
#define SHMPI_CXX_PICK(OP, TABLE)                                                             \
    static_assert(shmpi_cxx::find<T, shmpi_cxx::fam_##OP::list>::found,                       \
                  "shmem_" #OP ": the element type is not in the OpenSHMEM type table " #TABLE); \
    typedef typename shmpi_cxx::find<T, shmpi_cxx::fam_##OP::list>::type row_
#define SHMPI_CXX_TEMPLATE_CTX_PLAIN(RET, OP, TABLE, SIG)
#define SHMPI_CXX_TEMPLATE_CTX_CTX(RET, OP, TABLE, SIG)                                       \
    template <typename T>                                                                     \
    inline SHMPI_RET_##RET(T) shmem_##OP(shmem_ctx_t ctx,                                     \
                                         SHMPI_SIG_##SIG(T, shmpi_cxx::same_t<T>))            \
    {                                                                                         \
        SHMPI_CXX_PICK(OP, TABLE);                                                            \
        return row_::ctx_call(ctx, SHMPI_ARGS_##SIG);                                         \
    }
/* A family entry of the routine list: its rows, their list, the template
 * shmem_OP and, FORMS CTX, its ctx overload. */
#define SHMPI_CXX_FAMILY(RET, OP, TABLE, FORMS, SIG)                                          \
    namespace shmpi_cxx {                                                                     \
    namespace fam_##OP {                                                                      \
    SHMPI_##TABLE##_TYPE_ROWS(SHMPI_CXX_ROW, (OP, FORMS))                                     \
    SHMPI_CXX_GNU_ROWS(TABLE, OP, FORMS)                                                      \
    typedef rows<SHMPI_##TABLE##_TYPE_ROWS(SHMPI_CXX_ROW_REF, ~)                              \
                     SHMPI_CXX_GNU_REFS(TABLE) type_not_in_table>                             \
        list;                                                                                 \
    }                                                                                         \
    }                                                                                         \
    template <typename T>                                                                     \
    inline SHMPI_RET_##RET(T) shmem_##OP(SHMPI_SIG_##SIG(T, shmpi_cxx::same_t<T>))            \
    {                                                                                         \
        SHMPI_CXX_PICK(OP, TABLE);                                                            \
        return row_::call(SHMPI_ARGS_##SIG);                                                  \
    }                                                                                         \
    SHMPI_CXX_TEMPLATE_CTX_##FORMS(RET, OP, TABLE, SIG)

/* The list once more: no declarations this time, a template per family
 * (the list's default SHMPI_GENERIC_NAME, nothing, returns after it). */
#define SHMPI_FN(RET, NAME, PARAMS)
#undef SHMPI_GENERIC_NAME
#define SHMPI_GENERIC_NAME SHMPI_CXX_FAMILY
#include "shmpi_routines.h"
#undef SHMPI_GENERIC_NAME
#undef SHMPI_FN

/* -- signal_add / signal_set (1.6): the C function plus a ctx overload -- */
inline void shmem_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    shmem_ctx_signal_add(ctx, sig_addr, signal, pe);
}
inline void shmem_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    shmem_ctx_signal_set(ctx, sig_addr, signal, pe);
}

/* shmem_sync(team) is shmem_team_sync; shmem_sync(PE_start, logPE_stride,
 * PE_size, pSync) stays the deprecated C function declared by shmem.h. */
inline int shmem_sync(shmem_team_t team)
{
    return shmem_team_sync(team);
}

} /* extern "C++" */

#undef SHMPI_CXX_FWD
#undef SHMPI_CXX_FWD_CTX_PLAIN
#undef SHMPI_CXX_FWD_CTX_CTX
#undef SHMPI_CXX_ROW_
#undef SHMPI_CXX_ROW
#undef SHMPI_CXX_ROW_REF
#undef SHMPI_CXX_SECOND
#undef SHMPI_CXX_SECOND_
#undef SHMPI_CXX_CAT
#undef SHMPI_CXX_CAT_
#undef SHMPI_CXX_GNU_KIND
#undef SHMPI_CXX_GNU_REDUCE_ARITH
#undef SHMPI_CXX_GNU_ROWS
#undef SHMPI_CXX_GNU_REFS
#undef SHMPI_CXX_GNU_NO_ROWS
#undef SHMPI_CXX_GNU_NO_REFS
#undef SHMPI_CXX_GNU_YES_ROWS
#undef SHMPI_CXX_GNU_YES_REFS
#undef SHMPI_CXX_PICK
#undef SHMPI_CXX_TEMPLATE_CTX_PLAIN
#undef SHMPI_CXX_TEMPLATE_CTX_CTX
#undef SHMPI_CXX_FAMILY

#endif /* SHMPI_CXX_H */
