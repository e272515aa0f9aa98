/*
 * shmpi_cxx.h - the OpenSHMEM generic names as C++ overloads (C++11 and
 * later), included by shmem.h when compiled as C++.  The names and type sets
 * are those of the C11 generic names (openshmem-1.6-c11-generics.txt):
 * shmem_put(dest, source, nelems, pe), shmem_put(ctx, dest, ...), ...
 *
 * One source of truth: the element types come only from the X-macro tables
 * of shmpi_typetables.h.  Each table is expanded twice inside a namespace
 * per routine group:
 *   - once into one struct per row, row_TYPENAME, holding the row's type
 *     and static forwarders to the typed C routines of the group
 *     (row_int::put(...) calls shmem_int_put(...), row_int::ctx_put(...)
 *     calls shmem_ctx_int_put(...));
 *   - once into a type list rows<row_float, row_double, ..., type_not_in_table>.
 * A generic name is a function template on the element type T (deduced from
 * the argument the C11 selection uses, normally dest); it looks T up in the
 * list, first row whose type is T wins, so rows that repeat a type through
 * a typedef (int32_t is int, size_t is unsigned long, ... on some platforms,
 * not on others) are harmless.  A type outside the table fails a
 * static_assert naming the routine and the table.  Value arguments (value,
 * cond, source, fetch, ...) are not deduced: they convert to the element
 * type the way they do for the typed C routine.
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
/* ROW::OP(args) calls shmem_TYPENAME_OP(args); ROW::ctx_OP(ctx, args) calls
 * shmem_ctx_TYPENAME_OP(ctx, args). */
#define SHMPI_CXX_FWD(N, OP)                                                                  \
    template <typename... A>                                                                  \
    static auto OP(A... a)->decltype(shmem_##N##_##OP(a...))                                  \
    {                                                                                         \
        return shmem_##N##_##OP(a...);                                                       \
    }
#define SHMPI_CXX_FWD_CTX(N, OP)                                                              \
    SHMPI_CXX_FWD(N, OP)                                                                      \
    template <typename... A>                                                                  \
    static auto ctx_##OP(shmem_ctx_t c, A... a)->decltype(shmem_ctx_##N##_##OP(c, a...))      \
    {                                                                                         \
        return shmem_ctx_##N##_##OP(c, a...);                                                 \
    }
#define SHMPI_CXX_ROW_BEGIN(N, T)                                                             \
    struct row_##N {                                                                          \
        typedef T type;
#define SHMPI_CXX_ROW_END }; /* end of a row struct */
/* A row's name, as an element of a rows<...> list that ends with type_not_in_table. */
#define SHMPI_CXX_ROW_REF(N, T) row_##N,

/* stdrmatypes: RMA, blocked RMA, put-with-signal, collectives. */
#define SHMPI_CXX_ROW_RMA(N, T)                                                               \
    SHMPI_CXX_ROW_BEGIN(N, T)                                                                 \
    SHMPI_CXX_FWD_CTX(N, put) SHMPI_CXX_FWD_CTX(N, get) SHMPI_CXX_FWD_CTX(N, p)               \
    SHMPI_CXX_FWD_CTX(N, g) SHMPI_CXX_FWD_CTX(N, iput) SHMPI_CXX_FWD_CTX(N, iget)             \
    SHMPI_CXX_FWD_CTX(N, ibput) SHMPI_CXX_FWD_CTX(N, ibget) SHMPI_CXX_FWD_CTX(N, put_nbi)     \
    SHMPI_CXX_FWD_CTX(N, get_nbi) SHMPI_CXX_FWD_CTX(N, put_signal)                            \
    SHMPI_CXX_FWD_CTX(N, put_signal_nbi) SHMPI_CXX_FWD(N, broadcast)                          \
    SHMPI_CXX_FWD(N, collect) SHMPI_CXX_FWD(N, fcollect) SHMPI_CXX_FWD(N, alltoall)           \
    SHMPI_CXX_FWD(N, alltoalls)                                                               \
    SHMPI_CXX_ROW_END
/* extamotypes: fetch, set, swap. */
#define SHMPI_CXX_ROW_AMO_EXT(N, T)                                                           \
    SHMPI_CXX_ROW_BEGIN(N, T)                                                                 \
    SHMPI_CXX_FWD_CTX(N, atomic_fetch) SHMPI_CXX_FWD_CTX(N, atomic_set)                       \
    SHMPI_CXX_FWD_CTX(N, atomic_swap) SHMPI_CXX_FWD_CTX(N, atomic_fetch_nbi)                  \
    SHMPI_CXX_FWD_CTX(N, atomic_swap_nbi)                                                     \
    SHMPI_CXX_ROW_END
/* stdamotypes: compare_swap, fetch_inc, inc, fetch_add, add. */
#define SHMPI_CXX_ROW_AMO_STD(N, T)                                                           \
    SHMPI_CXX_ROW_BEGIN(N, T)                                                                 \
    SHMPI_CXX_FWD_CTX(N, atomic_compare_swap) SHMPI_CXX_FWD_CTX(N, atomic_fetch_inc)          \
    SHMPI_CXX_FWD_CTX(N, atomic_inc) SHMPI_CXX_FWD_CTX(N, atomic_fetch_add)                   \
    SHMPI_CXX_FWD_CTX(N, atomic_add) SHMPI_CXX_FWD_CTX(N, atomic_compare_swap_nbi)            \
    SHMPI_CXX_FWD_CTX(N, atomic_fetch_inc_nbi) SHMPI_CXX_FWD_CTX(N, atomic_fetch_add_nbi)     \
    SHMPI_CXX_ROW_END
/* bitamotypes: and, or, xor. */
#define SHMPI_CXX_ROW_AMO_BIT(N, T)                                                           \
    SHMPI_CXX_ROW_BEGIN(N, T)                                                                 \
    SHMPI_CXX_FWD_CTX(N, atomic_fetch_and) SHMPI_CXX_FWD_CTX(N, atomic_and)                   \
    SHMPI_CXX_FWD_CTX(N, atomic_fetch_or) SHMPI_CXX_FWD_CTX(N, atomic_or)                     \
    SHMPI_CXX_FWD_CTX(N, atomic_fetch_xor) SHMPI_CXX_FWD_CTX(N, atomic_xor)                   \
    SHMPI_CXX_FWD_CTX(N, atomic_fetch_and_nbi) SHMPI_CXX_FWD_CTX(N, atomic_fetch_or_nbi)      \
    SHMPI_CXX_FWD_CTX(N, atomic_fetch_xor_nbi)                                                \
    SHMPI_CXX_ROW_END
/* Deprecated AMO names (no context forms). */
#define SHMPI_CXX_ROW_DEP_EXT(N, T)                                                           \
    SHMPI_CXX_ROW_BEGIN(N, T)                                                                 \
    SHMPI_CXX_FWD(N, fetch) SHMPI_CXX_FWD(N, set) SHMPI_CXX_FWD(N, swap)                      \
    SHMPI_CXX_ROW_END
#define SHMPI_CXX_ROW_DEP_STD(N, T)                                                           \
    SHMPI_CXX_ROW_BEGIN(N, T)                                                                 \
    SHMPI_CXX_FWD(N, cswap) SHMPI_CXX_FWD(N, finc) SHMPI_CXX_FWD(N, inc)                      \
    SHMPI_CXX_FWD(N, fadd) SHMPI_CXX_FWD(N, add)                                              \
    SHMPI_CXX_ROW_END
/* Point-to-point synchronization. */
#define SHMPI_CXX_ROW_P2P(N, T)                                                               \
    SHMPI_CXX_ROW_BEGIN(N, T)                                                                 \
    SHMPI_CXX_FWD(N, wait_until) SHMPI_CXX_FWD(N, test) SHMPI_CXX_FWD(N, wait_until_all)      \
    SHMPI_CXX_FWD(N, wait_until_any) SHMPI_CXX_FWD(N, wait_until_some)                        \
    SHMPI_CXX_FWD(N, wait_until_all_vector) SHMPI_CXX_FWD(N, wait_until_any_vector)           \
    SHMPI_CXX_FWD(N, wait_until_some_vector) SHMPI_CXX_FWD(N, test_all)                       \
    SHMPI_CXX_FWD(N, test_any) SHMPI_CXX_FWD(N, test_some) SHMPI_CXX_FWD(N, test_all_vector)  \
    SHMPI_CXX_FWD(N, test_any_vector) SHMPI_CXX_FWD(N, test_some_vector)                      \
    SHMPI_CXX_ROW_END
/* teamreducetypes by operator group. */
#define SHMPI_CXX_ROW_RED_BIT(N, T)                                                           \
    SHMPI_CXX_ROW_BEGIN(N, T)                                                                 \
    SHMPI_CXX_FWD(N, and_reduce) SHMPI_CXX_FWD(N, or_reduce) SHMPI_CXX_FWD(N, xor_reduce)     \
    SHMPI_CXX_ROW_END
#define SHMPI_CXX_ROW_RED_MINMAX(N, T)                                                        \
    SHMPI_CXX_ROW_BEGIN(N, T)                                                                 \
    SHMPI_CXX_FWD(N, max_reduce) SHMPI_CXX_FWD(N, min_reduce)                                 \
    SHMPI_CXX_ROW_END
/* (and the 1.6 scans, shmem_TYPENAME_sum_inscan/_sum_exscan, on the same types) */
#define SHMPI_CXX_ROW_RED_ARITH(N, T)                                                         \
    SHMPI_CXX_ROW_BEGIN(N, T)                                                                 \
    SHMPI_CXX_FWD(N, sum_reduce) SHMPI_CXX_FWD(N, prod_reduce) SHMPI_CXX_FWD(N, sum_inscan)   \
    SHMPI_CXX_FWD(N, sum_exscan)                                                              \
    SHMPI_CXX_ROW_END

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

namespace shmpi_cxx {
namespace rma {
SHMPI_RMA_TYPES(SHMPI_CXX_ROW_RMA)
typedef rows<SHMPI_RMA_TYPES(SHMPI_CXX_ROW_REF) type_not_in_table> list;
}
namespace amo_ext {
SHMPI_AMO_EXT_TYPES(SHMPI_CXX_ROW_AMO_EXT)
typedef rows<SHMPI_AMO_EXT_TYPES(SHMPI_CXX_ROW_REF) type_not_in_table> list;
}
namespace amo_std {
SHMPI_AMO_STD_TYPES(SHMPI_CXX_ROW_AMO_STD)
typedef rows<SHMPI_AMO_STD_TYPES(SHMPI_CXX_ROW_REF) type_not_in_table> list;
}
namespace amo_bit {
SHMPI_AMO_BIT_TYPES(SHMPI_CXX_ROW_AMO_BIT)
typedef rows<SHMPI_AMO_BIT_TYPES(SHMPI_CXX_ROW_REF) type_not_in_table> list;
}
/* The deprecated names on every extended / standard AMO type. */
namespace dep_ext {
SHMPI_AMO_EXT_TYPES(SHMPI_CXX_ROW_DEP_EXT)
typedef rows<SHMPI_AMO_EXT_TYPES(SHMPI_CXX_ROW_REF) type_not_in_table> list;
}
namespace dep_std {
SHMPI_AMO_STD_TYPES(SHMPI_CXX_ROW_DEP_STD)
typedef rows<SHMPI_AMO_STD_TYPES(SHMPI_CXX_ROW_REF) type_not_in_table> list;
}
/* Point-to-point synchronization: also on the deprecated short types. */
namespace p2p {
SHMPI_P2P_TYPES(SHMPI_CXX_ROW_P2P)
SHMPI_P2P_DEPRECATED_TYPES(SHMPI_CXX_ROW_P2P)
typedef rows<SHMPI_P2P_TYPES(SHMPI_CXX_ROW_REF) SHMPI_P2P_DEPRECATED_TYPES(SHMPI_CXX_ROW_REF)
                 type_not_in_table>
    list;
}
namespace red_bit {
SHMPI_REDUCE_BITWISE_TYPES(SHMPI_CXX_ROW_RED_BIT)
SHMPI_REDUCE_BITWISE_EXTRA_TYPES(SHMPI_CXX_ROW_RED_BIT)
/* As the C11 names: the spec's rows, then those of the extra 1.5 table. */
typedef rows<SHMPI_REDUCE_BITWISE_TYPES(SHMPI_CXX_ROW_REF)
                 SHMPI_REDUCE_BITWISE_EXTRA_TYPES(SHMPI_CXX_ROW_REF) type_not_in_table>
    list;
}
namespace red_minmax {
SHMPI_REDUCE_MINMAX_TYPES(SHMPI_CXX_ROW_RED_MINMAX)
typedef rows<SHMPI_REDUCE_MINMAX_TYPES(SHMPI_CXX_ROW_REF) type_not_in_table> list;
}
namespace red_arith {
SHMPI_REDUCE_ARITH_TYPES(SHMPI_CXX_ROW_RED_ARITH)
#ifdef SHMPI_CXX_GNU_COMPLEX
namespace gnu { /* T _Complex: the typed overloads above */
SHMPI_CXX_ROW_RED_ARITH(complexd, shmpi_gnu_complexd_t)
SHMPI_CXX_ROW_RED_ARITH(complexf, shmpi_gnu_complexf_t)
}
typedef rows<SHMPI_REDUCE_ARITH_TYPES(SHMPI_CXX_ROW_REF) gnu::row_complexd, gnu::row_complexf,
             type_not_in_table>
    list;
#else
typedef rows<SHMPI_REDUCE_ARITH_TYPES(SHMPI_CXX_ROW_REF) type_not_in_table> list;
#endif
}
} /* namespace shmpi_cxx */

/* ---- the generic names ------------------------------------------------------------------ */
/* In a generic name's body: row_ is the row of T in GROUP's list, or the
 * compilation stops with a message naming the routine and the table. */
#define SHMPI_CXX_PICK(LIST, NAME, TABLE)                                                     \
    static_assert(shmpi_cxx::find<T, shmpi_cxx::LIST>::found,                                 \
                  NAME ": the element type is not in the OpenSHMEM type table " TABLE);       \
    typedef typename shmpi_cxx::find<T, shmpi_cxx::LIST>::type row_
#define SHMPI_CXX_UNPAREN(...) __VA_ARGS__
/* S: a value of the element type, not used to deduce it. */
#define SHMPI_CXX_S shmpi_cxx::same_t<T>
/* shmem_NAME(PARAMS) returning RET, which calls row_::NAME(ARGS). */
#define SHMPI_CXX_GENERIC(RET, NAME, LIST, TABLE, PARAMS, ARGS)                               \
    template <typename T> inline RET shmem_##NAME(SHMPI_CXX_UNPAREN PARAMS)                   \
    {                                                                                         \
        SHMPI_CXX_PICK(LIST, "shmem_" #NAME, TABLE);                                          \
        return row_::NAME(SHMPI_CXX_UNPAREN ARGS);                                            \
    }
/* The same and shmem_NAME(shmem_ctx_t ctx, PARAMS), which calls the
 * shmem_ctx_ routine. */
#define SHMPI_CXX_GENERIC_CTX(RET, NAME, LIST, TABLE, PARAMS, ARGS)                           \
    SHMPI_CXX_GENERIC(RET, NAME, LIST, TABLE, PARAMS, ARGS)                                   \
    template <typename T> inline RET shmem_##NAME(shmem_ctx_t ctx, SHMPI_CXX_UNPAREN PARAMS)  \
    {                                                                                         \
        SHMPI_CXX_PICK(LIST, "shmem_" #NAME, TABLE);                                          \
        return row_::ctx_##NAME(ctx, SHMPI_CXX_UNPAREN ARGS);                                 \
    }

/* -- rma, rma-nbi: stdrmatypes, with or without a context -- */
#define SHMPI_CXX_RMA_CONTIG(NAME)                                                            \
    SHMPI_CXX_GENERIC_CTX(void, NAME, rma::list, "stdrmatypes",                               \
                          (T * dest, const SHMPI_CXX_S *source, size_t nelems, int pe),       \
                          (dest, source, nelems, pe))
SHMPI_CXX_RMA_CONTIG(put)
SHMPI_CXX_RMA_CONTIG(get)
SHMPI_CXX_RMA_CONTIG(put_nbi)
SHMPI_CXX_RMA_CONTIG(get_nbi)
#define SHMPI_CXX_RMA_STRIDED(NAME)                                                           \
    SHMPI_CXX_GENERIC_CTX(void, NAME, rma::list, "stdrmatypes",                               \
                          (T * dest, const SHMPI_CXX_S *source, ptrdiff_t dst, ptrdiff_t sst, \
                           size_t nelems, int pe),                                            \
                          (dest, source, dst, sst, nelems, pe))
SHMPI_CXX_RMA_STRIDED(iput)
SHMPI_CXX_RMA_STRIDED(iget)
#define SHMPI_CXX_RMA_BLOCKED(NAME)                                                           \
    SHMPI_CXX_GENERIC_CTX(void, NAME, rma::list, "stdrmatypes",                               \
                          (T * dest, const SHMPI_CXX_S *source, ptrdiff_t dst, ptrdiff_t sst, \
                           size_t bsize, size_t nblocks, int pe),                             \
                          (dest, source, dst, sst, bsize, nblocks, pe))
SHMPI_CXX_RMA_BLOCKED(ibput)
SHMPI_CXX_RMA_BLOCKED(ibget)
SHMPI_CXX_GENERIC_CTX(void, p, rma::list, "stdrmatypes", (T * dest, SHMPI_CXX_S value, int pe),
                      (dest, value, pe))
SHMPI_CXX_GENERIC_CTX(T, g, rma::list, "stdrmatypes", (const T *source, int pe), (source, pe))

/* -- signal: put with signal, stdrmatypes, with or without a context -- */
#define SHMPI_CXX_SIGNAL(NAME)                                                                \
    SHMPI_CXX_GENERIC_CTX(void, NAME, rma::list, "stdrmatypes",                               \
                          (T * dest, const SHMPI_CXX_S *source, size_t nelems,                \
                           uint64_t *sig_addr, uint64_t signal, int sig_op, int pe),          \
                          (dest, source, nelems, sig_addr, signal, sig_op, pe))
SHMPI_CXX_SIGNAL(put_signal)
SHMPI_CXX_SIGNAL(put_signal_nbi)
/* -- signal_add / signal_set (1.6): the C function plus a ctx overload -- */
inline void shmem_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    shmem_ctx_signal_add(ctx, sig_addr, signal, pe);
}
inline void shmem_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    shmem_ctx_signal_set(ctx, sig_addr, signal, pe);
}

/* -- amo: extamotypes, stdamotypes, bitamotypes, with or without a context -- */
SHMPI_CXX_GENERIC_CTX(T, atomic_fetch, amo_ext::list, "extamotypes", (const T *source, int pe),
                      (source, pe))
SHMPI_CXX_GENERIC_CTX(void, atomic_set, amo_ext::list, "extamotypes",
                      (T * dest, SHMPI_CXX_S value, int pe), (dest, value, pe))
SHMPI_CXX_GENERIC_CTX(T, atomic_swap, amo_ext::list, "extamotypes",
                      (T * dest, SHMPI_CXX_S value, int pe), (dest, value, pe))
SHMPI_CXX_GENERIC_CTX(T, atomic_compare_swap, amo_std::list, "stdamotypes",
                      (T * dest, SHMPI_CXX_S cond, SHMPI_CXX_S value, int pe),
                      (dest, cond, value, pe))
SHMPI_CXX_GENERIC_CTX(T, atomic_fetch_inc, amo_std::list, "stdamotypes", (T * dest, int pe),
                      (dest, pe))
SHMPI_CXX_GENERIC_CTX(void, atomic_inc, amo_std::list, "stdamotypes", (T * dest, int pe),
                      (dest, pe))
SHMPI_CXX_GENERIC_CTX(T, atomic_fetch_add, amo_std::list, "stdamotypes",
                      (T * dest, SHMPI_CXX_S value, int pe), (dest, value, pe))
SHMPI_CXX_GENERIC_CTX(void, atomic_add, amo_std::list, "stdamotypes",
                      (T * dest, SHMPI_CXX_S value, int pe), (dest, value, pe))
#define SHMPI_CXX_AMO_BIT(OP)                                                                 \
    SHMPI_CXX_GENERIC_CTX(T, atomic_fetch_##OP, amo_bit::list, "bitamotypes",                 \
                          (T * dest, SHMPI_CXX_S value, int pe), (dest, value, pe))           \
    SHMPI_CXX_GENERIC_CTX(void, atomic_##OP, amo_bit::list, "bitamotypes",                    \
                          (T * dest, SHMPI_CXX_S value, int pe), (dest, value, pe))           \
    SHMPI_CXX_GENERIC_CTX(void, atomic_fetch_##OP##_nbi, amo_bit::list, "bitamotypes",        \
                          (SHMPI_CXX_S * fetch, T * dest, SHMPI_CXX_S value, int pe),         \
                          (fetch, dest, value, pe))
SHMPI_CXX_AMO_BIT(and)
SHMPI_CXX_AMO_BIT(or)
SHMPI_CXX_AMO_BIT(xor)

/* -- amo-nbi -- */
SHMPI_CXX_GENERIC_CTX(void, atomic_fetch_nbi, amo_ext::list, "extamotypes",
                      (SHMPI_CXX_S * fetch, const T *source, int pe), (fetch, source, pe))
SHMPI_CXX_GENERIC_CTX(void, atomic_swap_nbi, amo_ext::list, "extamotypes",
                      (SHMPI_CXX_S * fetch, T *dest, SHMPI_CXX_S value, int pe),
                      (fetch, dest, value, pe))
SHMPI_CXX_GENERIC_CTX(void, atomic_compare_swap_nbi, amo_std::list, "stdamotypes",
                      (SHMPI_CXX_S * fetch, T *dest, SHMPI_CXX_S cond, SHMPI_CXX_S value,
                       int pe),
                      (fetch, dest, cond, value, pe))
SHMPI_CXX_GENERIC_CTX(void, atomic_fetch_inc_nbi, amo_std::list, "stdamotypes",
                      (SHMPI_CXX_S * fetch, T *dest, int pe), (fetch, dest, pe))
SHMPI_CXX_GENERIC_CTX(void, atomic_fetch_add_nbi, amo_std::list, "stdamotypes",
                      (SHMPI_CXX_S * fetch, T *dest, SHMPI_CXX_S value, int pe),
                      (fetch, dest, value, pe))

/* -- deprecated-amo: no context forms -- */
SHMPI_CXX_GENERIC(T, fetch, dep_ext::list, "extamotypes (deprecated names)",
                  (const T *source, int pe), (source, pe))
SHMPI_CXX_GENERIC(void, set, dep_ext::list, "extamotypes (deprecated names)",
                  (T * dest, SHMPI_CXX_S value, int pe), (dest, value, pe))
SHMPI_CXX_GENERIC(T, swap, dep_ext::list, "extamotypes (deprecated names)",
                  (T * dest, SHMPI_CXX_S value, int pe), (dest, value, pe))
SHMPI_CXX_GENERIC(T, cswap, dep_std::list, "stdamotypes (deprecated names)",
                  (T * dest, SHMPI_CXX_S cond, SHMPI_CXX_S value, int pe),
                  (dest, cond, value, pe))
SHMPI_CXX_GENERIC(T, finc, dep_std::list, "stdamotypes (deprecated names)", (T * dest, int pe),
                  (dest, pe))
SHMPI_CXX_GENERIC(void, inc, dep_std::list, "stdamotypes (deprecated names)",
                  (T * dest, int pe), (dest, pe))
SHMPI_CXX_GENERIC(T, fadd, dep_std::list, "stdamotypes (deprecated names)",
                  (T * dest, SHMPI_CXX_S value, int pe), (dest, value, pe))
SHMPI_CXX_GENERIC(void, add, dep_std::list, "stdamotypes (deprecated names)",
                  (T * dest, SHMPI_CXX_S value, int pe), (dest, value, pe))

/* -- coll: stdrmatypes, team first, no context forms -- */
SHMPI_CXX_GENERIC(int, broadcast, rma::list, "stdrmatypes",
                  (shmem_team_t team, T *dest, const SHMPI_CXX_S *source, size_t nelems,
                   int PE_root),
                  (team, dest, source, nelems, PE_root))
#define SHMPI_CXX_COLL(NAME)                                                                  \
    SHMPI_CXX_GENERIC(int, NAME, rma::list, "stdrmatypes",                                    \
                      (shmem_team_t team, T * dest, const SHMPI_CXX_S *source, size_t nelems), \
                      (team, dest, source, nelems))
SHMPI_CXX_COLL(collect)
SHMPI_CXX_COLL(fcollect)
SHMPI_CXX_COLL(alltoall)
SHMPI_CXX_GENERIC(int, alltoalls, rma::list, "stdrmatypes",
                  (shmem_team_t team, T *dest, const SHMPI_CXX_S *source, ptrdiff_t dst,
                   ptrdiff_t sst, size_t nelems),
                  (team, dest, source, dst, sst, nelems))

/* shmem_sync(team) is shmem_team_sync; shmem_sync(PE_start, logPE_stride,
 * PE_size, pSync) stays the deprecated C function declared by shmem.h. */
inline int shmem_sync(shmem_team_t team)
{
    return shmem_team_sync(team);
}

/* -- reduce: teamreducetypes by operator, team first -- */
#define SHMPI_CXX_REDUCE(OP, GROUP, TABLE)                                                    \
    SHMPI_CXX_GENERIC(int, OP##_reduce, GROUP::list, TABLE,                                   \
                      (shmem_team_t team, T * dest, const SHMPI_CXX_S *source,                \
                       size_t nreduce),                                                       \
                      (team, dest, source, nreduce))
SHMPI_CXX_REDUCE(and, red_bit, "teamreducetypes[AND]")
SHMPI_CXX_REDUCE(or, red_bit, "teamreducetypes[OR]")
SHMPI_CXX_REDUCE(xor, red_bit, "teamreducetypes[XOR]")
SHMPI_CXX_REDUCE(max, red_minmax, "teamreducetypes[MAX]")
SHMPI_CXX_REDUCE(min, red_minmax, "teamreducetypes[MIN]")
SHMPI_CXX_REDUCE(sum, red_arith, "teamreducetypes[SUM]")
SHMPI_CXX_REDUCE(prod, red_arith, "teamreducetypes[PROD]")

/* -- scan (1.6): teamreducetypes[SUM], team first -- */
#define SHMPI_CXX_SCAN(NAME)                                                                  \
    SHMPI_CXX_GENERIC(int, NAME, red_arith::list, "teamreducetypes[SUM]",                     \
                      (shmem_team_t team, T * dest, const SHMPI_CXX_S *source, size_t nelems), \
                      (team, dest, source, nelems))
SHMPI_CXX_SCAN(sum_inscan)
SHMPI_CXX_SCAN(sum_exscan)

/* -- p2p-sync: stdamotypes and the deprecated short, unsigned short;
 * shmem_wait_until(long *, int, long) stays the deprecated C function, which
 * overload resolution prefers for long, to the same effect.  The vector
 * forms take const cmp_values (OpenSHMEM 1.6). -- */
#define SHMPI_CXX_P2P_TABLE "stdamotypes (and deprecated short, unsigned short)"
SHMPI_CXX_GENERIC(void, wait_until, p2p::list, SHMPI_CXX_P2P_TABLE,
                  (T * ivar, int cmp, SHMPI_CXX_S cmp_value), (ivar, cmp, cmp_value))
SHMPI_CXX_GENERIC(int, test, p2p::list, SHMPI_CXX_P2P_TABLE,
                  (T * ivar, int cmp, SHMPI_CXX_S cmp_value), (ivar, cmp, cmp_value))
#define SHMPI_CXX_P2P_SET(RET, NAME)                                                          \
    SHMPI_CXX_GENERIC(RET, NAME, p2p::list, SHMPI_CXX_P2P_TABLE,                              \
                      (T * ivars, size_t nelems, const int *status, int cmp,                  \
                       SHMPI_CXX_S cmp_value),                                                \
                      (ivars, nelems, status, cmp, cmp_value))                                \
    SHMPI_CXX_GENERIC(RET, NAME##_vector, p2p::list, SHMPI_CXX_P2P_TABLE,                     \
                      (T * ivars, size_t nelems, const int *status, int cmp,                  \
                       const SHMPI_CXX_S *cmp_values),                                        \
                      (ivars, nelems, status, cmp, cmp_values))
#define SHMPI_CXX_P2P_SOME(NAME)                                                              \
    SHMPI_CXX_GENERIC(size_t, NAME, p2p::list, SHMPI_CXX_P2P_TABLE,                           \
                      (T * ivars, size_t nelems, size_t *indices, const int *status, int cmp, \
                       SHMPI_CXX_S cmp_value),                                                \
                      (ivars, nelems, indices, status, cmp, cmp_value))                       \
    SHMPI_CXX_GENERIC(size_t, NAME##_vector, p2p::list, SHMPI_CXX_P2P_TABLE,                  \
                      (T * ivars, size_t nelems, size_t *indices, const int *status, int cmp, \
                       const SHMPI_CXX_S *cmp_values),                                        \
                      (ivars, nelems, indices, status, cmp, cmp_values))
SHMPI_CXX_P2P_SET(void, wait_until_all)
SHMPI_CXX_P2P_SET(size_t, wait_until_any)
SHMPI_CXX_P2P_SOME(wait_until_some)
SHMPI_CXX_P2P_SET(int, test_all)
SHMPI_CXX_P2P_SET(size_t, test_any)
SHMPI_CXX_P2P_SOME(test_some)

} /* extern "C++" */

#undef SHMPI_CXX_FWD
#undef SHMPI_CXX_FWD_CTX
#undef SHMPI_CXX_ROW_BEGIN
#undef SHMPI_CXX_ROW_END
#undef SHMPI_CXX_ROW_REF
#undef SHMPI_CXX_ROW_RMA
#undef SHMPI_CXX_ROW_AMO_EXT
#undef SHMPI_CXX_ROW_AMO_STD
#undef SHMPI_CXX_ROW_AMO_BIT
#undef SHMPI_CXX_ROW_DEP_EXT
#undef SHMPI_CXX_ROW_DEP_STD
#undef SHMPI_CXX_ROW_P2P
#undef SHMPI_CXX_ROW_RED_BIT
#undef SHMPI_CXX_ROW_RED_MINMAX
#undef SHMPI_CXX_ROW_RED_ARITH
#undef SHMPI_CXX_PICK
#undef SHMPI_CXX_UNPAREN
#undef SHMPI_CXX_S
#undef SHMPI_CXX_GENERIC
#undef SHMPI_CXX_GENERIC_CTX
#undef SHMPI_CXX_RMA_CONTIG
#undef SHMPI_CXX_RMA_STRIDED
#undef SHMPI_CXX_RMA_BLOCKED
#undef SHMPI_CXX_SIGNAL
#undef SHMPI_CXX_AMO_BIT
#undef SHMPI_CXX_COLL
#undef SHMPI_CXX_REDUCE
#undef SHMPI_CXX_P2P_TABLE
#undef SHMPI_CXX_SCAN
#undef SHMPI_CXX_P2P_SET
#undef SHMPI_CXX_P2P_SOME

#endif /* SHMPI_CXX_H */
