/*
 * shmpi_typetables.h - the OpenSHMEM type tables, written once as X-macros.
 *
 * Every typed routine of shmpi (declarations in shmem.h, definitions in
 * src/api, C11 generic selections, C++ overloads, tests) is expanded from
 * these lists, so a type is added or removed in exactly one place.  This
 * header is installed because shmem.h needs it; programs should not use it
 * directly.
 *
 * Each table is a list of rows R(X, TYPENAME, TYPE, MPI_DATATYPE), one per
 * row of the corresponding table of the OpenSHMEM specification, written
 * SHMPI_..._TYPE_ROWS(R, X).  MPI_DATATYPE is the MPI datatype of TYPE.
 * SHMPI_..._TYPES(X) calls X(TYPENAME, TYPE) per row (R = SHMPI_ROW); the
 * family entries of shmpi_routines.h read all four fields (shmpi_families.h).
 * The MPI column is only ever expanded inside the library, which includes
 * mpi.h (and limits.h, stddef.h): shmem.h passes it over unexpanded and
 * does not need mpi.h.  The reduction tables are also read one operator
 * group at a time (SHMPI_TO_ALL_REDUCTIONS, below).
 */
#ifndef SHMPI_TYPETABLES_H
#define SHMPI_TYPETABLES_H

#ifdef __cplusplus
/* extern "C++": old programs include shmem.h inside extern "C" { }. */
extern "C++" {
#include <complex>
}
typedef std::complex<double> shmpi_complexd_t;
typedef std::complex<float> shmpi_complexf_t;
#else
typedef double _Complex shmpi_complexd_t;
typedef float _Complex shmpi_complexf_t;
#endif

/* The plain reading of a row. */
#define SHMPI_ROW(X, N, T, M) X(N, T)

/* MPI datatypes of the C types MPI has no name for. */
#define SHMPI_MPI_CHAR (CHAR_MIN < 0 ? MPI_SIGNED_CHAR : MPI_UNSIGNED_CHAR)
#define SHMPI_MPI_SIZE (sizeof(size_t) == 8 ? MPI_UINT64_T : MPI_UINT32_T)
#define SHMPI_MPI_PTRDIFF (sizeof(ptrdiff_t) == 8 ? MPI_INT64_T : MPI_INT32_T)

/* Groups of rows that several tables share. */
#define SHMPI_FLOAT_TYPE_ROWS(R, X)                                                           \
    R(X, float, float, MPI_FLOAT)                                                             \
    R(X, double, double, MPI_DOUBLE)                                                          \
    R(X, longdouble, long double, MPI_LONG_DOUBLE)
#define SHMPI_CHAR_INT_TYPE_ROWS(R, X)                                                        \
    R(X, char, char, SHMPI_MPI_CHAR)                                                          \
    R(X, schar, signed char, MPI_SIGNED_CHAR)                                                 \
    R(X, short, short, MPI_SHORT)                                                             \
    R(X, int, int, MPI_INT)                                                                   \
    R(X, long, long, MPI_LONG)                                                                \
    R(X, longlong, long long, MPI_LONG_LONG)
/* The unsigned and fixed-width integer types (and size_t). */
#define SHMPI_UNSIGNED_FIXED_TYPE_ROWS(R, X)                                                  \
    R(X, uchar, unsigned char, MPI_UNSIGNED_CHAR)                                             \
    R(X, ushort, unsigned short, MPI_UNSIGNED_SHORT)                                          \
    R(X, uint, unsigned int, MPI_UNSIGNED)                                                    \
    R(X, ulong, unsigned long, MPI_UNSIGNED_LONG)                                             \
    R(X, ulonglong, unsigned long long, MPI_UNSIGNED_LONG_LONG)                               \
    R(X, int8, int8_t, MPI_INT8_T)                                                            \
    R(X, int16, int16_t, MPI_INT16_T)                                                         \
    R(X, int32, int32_t, MPI_INT32_T)                                                         \
    R(X, int64, int64_t, MPI_INT64_T)                                                         \
    R(X, uint8, uint8_t, MPI_UINT8_T)                                                         \
    R(X, uint16, uint16_t, MPI_UINT16_T)                                                      \
    R(X, uint32, uint32_t, MPI_UINT32_T)                                                      \
    R(X, uint64, uint64_t, MPI_UINT64_T)                                                      \
    R(X, size, size_t, SHMPI_MPI_SIZE)
#define SHMPI_COMPLEX_TYPE_ROWS(R, X)                                                         \
    R(X, complexd, shmpi_complexd_t, MPI_C_DOUBLE_COMPLEX)                                    \
    R(X, complexf, shmpi_complexf_t, MPI_C_FLOAT_COMPLEX)

/* Standard RMA types (spec table "stdrmatypes"). */
#define SHMPI_RMA_TYPE_ROWS(R, X)                                                             \
    SHMPI_FLOAT_TYPE_ROWS(R, X)                                                               \
    SHMPI_CHAR_INT_TYPE_ROWS(R, X)                                                            \
    SHMPI_UNSIGNED_FIXED_TYPE_ROWS(R, X)                                                      \
    R(X, ptrdiff, ptrdiff_t, SHMPI_MPI_PTRDIFF)
#define SHMPI_RMA_TYPES(X) SHMPI_RMA_TYPE_ROWS(SHMPI_ROW, X)

/* Sized RMA routines: X(BITS) for shmem_putBITS etc. */
#define SHMPI_RMA_SIZES(X) X(8) X(16) X(32) X(64) X(128)

/* Bitwise AMO types (and, or, xor). */
#define SHMPI_AMO_BIT_TYPE_ROWS(R, X)                                                         \
    R(X, uint, unsigned int, MPI_UNSIGNED)                                                    \
    R(X, ulong, unsigned long, MPI_UNSIGNED_LONG)                                             \
    R(X, ulonglong, unsigned long long, MPI_UNSIGNED_LONG_LONG)                               \
    R(X, int32, int32_t, MPI_INT32_T)                                                         \
    R(X, int64, int64_t, MPI_INT64_T)                                                         \
    R(X, uint32, uint32_t, MPI_UINT32_T)                                                      \
    R(X, uint64, uint64_t, MPI_UINT64_T)
#define SHMPI_AMO_BIT_TYPES(X) SHMPI_AMO_BIT_TYPE_ROWS(SHMPI_ROW, X)

/* Standard AMO types (compare_swap, fetch_inc, inc, fetch_add, add): the
 * ones with deprecated library names (shmem_TYPENAME_cswap, ...), then the
 * others, whose deprecated names are inline forwarders in shmem.h (as in
 * Sandia OpenSHMEM: shmem_int32_add, shmem_uint64_fetch, ...). */
#define SHMPI_AMO_DEPRECATED_STD_TYPE_ROWS(R, X)                                              \
    R(X, int, int, MPI_INT)                                                                   \
    R(X, long, long, MPI_LONG)                                                                \
    R(X, longlong, long long, MPI_LONG_LONG)
#define SHMPI_AMO_DEPRECATED_INLINE_TYPE_ROWS(R, X)                                           \
    SHMPI_AMO_BIT_TYPE_ROWS(R, X)                                                             \
    R(X, size, size_t, SHMPI_MPI_SIZE)                                                        \
    R(X, ptrdiff, ptrdiff_t, SHMPI_MPI_PTRDIFF)
#define SHMPI_AMO_STD_TYPE_ROWS(R, X)                                                         \
    SHMPI_AMO_DEPRECATED_STD_TYPE_ROWS(R, X) SHMPI_AMO_DEPRECATED_INLINE_TYPE_ROWS(R, X)
#define SHMPI_AMO_STD_TYPES(X) SHMPI_AMO_STD_TYPE_ROWS(SHMPI_ROW, X)
#define SHMPI_AMO_DEPRECATED_STD_TYPES(X) SHMPI_AMO_DEPRECATED_STD_TYPE_ROWS(SHMPI_ROW, X)
#define SHMPI_AMO_DEPRECATED_INLINE_TYPES(X)                                                  \
    SHMPI_AMO_DEPRECATED_INLINE_TYPE_ROWS(SHMPI_ROW, X)

/* Extended AMO types (fetch, set, swap): the standard ones plus floats;
 * the same split for the deprecated names (shmem_TYPENAME_fetch/set/swap). */
#define SHMPI_AMO_EXT_TYPE_ROWS(R, X)                                                         \
    R(X, float, float, MPI_FLOAT)                                                             \
    R(X, double, double, MPI_DOUBLE)                                                          \
    SHMPI_AMO_STD_TYPE_ROWS(R, X)
#define SHMPI_AMO_EXT_TYPES(X) SHMPI_AMO_EXT_TYPE_ROWS(SHMPI_ROW, X)
#define SHMPI_AMO_DEPRECATED_EXT_TYPE_ROWS(R, X)                                              \
    R(X, float, float, MPI_FLOAT)                                                             \
    R(X, double, double, MPI_DOUBLE)                                                          \
    SHMPI_AMO_DEPRECATED_STD_TYPE_ROWS(R, X)
#define SHMPI_AMO_DEPRECATED_EXT_TYPES(X) SHMPI_AMO_DEPRECATED_EXT_TYPE_ROWS(SHMPI_ROW, X)

/* Point-to-point synchronization types (wait_until, test and friends). */
#define SHMPI_P2P_TYPE_ROWS(R, X) SHMPI_AMO_STD_TYPE_ROWS(R, X)
#define SHMPI_P2P_TYPES(X) SHMPI_P2P_TYPE_ROWS(SHMPI_ROW, X)
/* Deprecated p2p types: shmem_short/ushort_wait_until, _test and the
 * _all/_any/_some forms (Sandia OpenSHMEM and Open MPI have them too). */
#define SHMPI_P2P_DEPRECATED_TYPE_ROWS(R, X)                                                  \
    R(X, short, short, MPI_SHORT)                                                             \
    R(X, ushort, unsigned short, MPI_UNSIGNED_SHORT)
#define SHMPI_P2P_DEPRECATED_TYPES(X) SHMPI_P2P_DEPRECATED_TYPE_ROWS(SHMPI_ROW, X)
/* Both: the rows of the point-to-point routine families. */
#define SHMPI_P2P_ALL_TYPE_ROWS(R, X) SHMPI_P2P_TYPE_ROWS(R, X) SHMPI_P2P_DEPRECATED_TYPE_ROWS(R, X)
/* Deprecated shmem_TYPENAME_wait(ivar, value). */
#define SHMPI_WAIT_DEPRECATED_TYPE_ROWS(R, X)                                                 \
    R(X, short, short, MPI_SHORT) SHMPI_AMO_DEPRECATED_STD_TYPE_ROWS(R, X)
#define SHMPI_WAIT_DEPRECATED_TYPES(X) SHMPI_WAIT_DEPRECATED_TYPE_ROWS(SHMPI_ROW, X)

/* Team reductions (spec table "teamreducetypes"), split by operator group. */
#define SHMPI_REDUCE_BITWISE_TYPE_ROWS(R, X) SHMPI_UNSIGNED_FIXED_TYPE_ROWS(R, X)
#define SHMPI_REDUCE_BITWISE_TYPES(X) SHMPI_REDUCE_BITWISE_TYPE_ROWS(SHMPI_ROW, X)
/* Spec 1.5 also prints a table that adds these to and/or/xor. */
#define SHMPI_REDUCE_BITWISE_EXTRA_TYPE_ROWS(R, X)                                            \
    R(X, short, short, MPI_SHORT) SHMPI_AMO_DEPRECATED_STD_TYPE_ROWS(R, X)
#define SHMPI_REDUCE_BITWISE_EXTRA_TYPES(X) SHMPI_REDUCE_BITWISE_EXTRA_TYPE_ROWS(SHMPI_ROW, X)
/* Both: the rows of the and/or/xor reduction families. */
#define SHMPI_REDUCE_BITWISE_ALL_TYPE_ROWS(R, X)                                              \
    SHMPI_REDUCE_BITWISE_TYPE_ROWS(R, X) SHMPI_REDUCE_BITWISE_EXTRA_TYPE_ROWS(R, X)
#define SHMPI_REDUCE_MINMAX_TYPE_ROWS(R, X)                                                   \
    SHMPI_CHAR_INT_TYPE_ROWS(R, X)                                                            \
    R(X, ptrdiff, ptrdiff_t, SHMPI_MPI_PTRDIFF)                                               \
    SHMPI_UNSIGNED_FIXED_TYPE_ROWS(R, X)                                                      \
    SHMPI_FLOAT_TYPE_ROWS(R, X)
#define SHMPI_REDUCE_MINMAX_TYPES(X) SHMPI_REDUCE_MINMAX_TYPE_ROWS(SHMPI_ROW, X)
#define SHMPI_REDUCE_ARITH_TYPE_ROWS(R, X)                                                    \
    SHMPI_REDUCE_MINMAX_TYPE_ROWS(R, X) SHMPI_COMPLEX_TYPE_ROWS(R, X)
#define SHMPI_REDUCE_ARITH_TYPES(X) SHMPI_REDUCE_ARITH_TYPE_ROWS(SHMPI_ROW, X)

/* Deprecated active-set reductions (shmem_TYPENAME_OP_to_all): and/or/xor
 * on short, int, long, long long (the extra table above); min/max also on
 * the floating types; sum/prod also on the complex ones. */
#define SHMPI_TO_ALL_BITWISE_TYPE_ROWS(R, X) SHMPI_REDUCE_BITWISE_EXTRA_TYPE_ROWS(R, X)
#define SHMPI_TO_ALL_BITWISE_TYPES(X) SHMPI_TO_ALL_BITWISE_TYPE_ROWS(SHMPI_ROW, X)
#define SHMPI_TO_ALL_MINMAX_TYPE_ROWS(R, X)                                                   \
    SHMPI_TO_ALL_BITWISE_TYPE_ROWS(R, X) SHMPI_FLOAT_TYPE_ROWS(R, X)
#define SHMPI_TO_ALL_MINMAX_TYPES(X) SHMPI_TO_ALL_MINMAX_TYPE_ROWS(SHMPI_ROW, X)
#define SHMPI_TO_ALL_ARITH_TYPE_ROWS(R, X)                                                    \
    SHMPI_TO_ALL_MINMAX_TYPE_ROWS(R, X) SHMPI_COMPLEX_TYPE_ROWS(R, X)
#define SHMPI_TO_ALL_ARITH_TYPES(X) SHMPI_TO_ALL_ARITH_TYPE_ROWS(SHMPI_ROW, X)

/* Reduction operators by group, with their MPI operator.  Each is also a
 * row reading (the R of a table above): every operator of the group for
 * one type, D(TYPENAME, TYPE, MPI_DATATYPE, OPNAME, MPI_OP). */
#define SHMPI_REDUCE_BITWISE_OPS(D, N, T, M)                                                  \
    D(N, T, M, and, MPI_BAND) D(N, T, M, or, MPI_BOR) D(N, T, M, xor, MPI_BXOR)
#define SHMPI_REDUCE_MINMAX_OPS(D, N, T, M) D(N, T, M, max, MPI_MAX) D(N, T, M, min, MPI_MIN)
#define SHMPI_REDUCE_ARITH_OPS(D, N, T, M) D(N, T, M, sum, MPI_SUM) D(N, T, M, prod, MPI_PROD)

/* Every deprecated active-set reduction (shmem_TYPENAME_OPNAME_to_all):
 * each type of a group's table with each operator of the group,
 * D(TYPENAME, TYPE, MPI_DATATYPE, OPNAME, MPI_OP). */
#define SHMPI_TO_ALL_REDUCTIONS(D)                                                            \
    SHMPI_TO_ALL_BITWISE_TYPE_ROWS(SHMPI_REDUCE_BITWISE_OPS, D)                               \
    SHMPI_TO_ALL_MINMAX_TYPE_ROWS(SHMPI_REDUCE_MINMAX_OPS, D)                                 \
    SHMPI_TO_ALL_ARITH_TYPE_ROWS(SHMPI_REDUCE_ARITH_OPS, D)

#endif /* SHMPI_TYPETABLES_H */
