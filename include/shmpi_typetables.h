/*
 * shmpi_typetables.h - the OpenSHMEM type tables, written once as X-macros.
 *
 * Every typed routine of shmpi (declarations in shmem.h, definitions in
 * src/api, C11 generic selections, tests) is expanded from these lists, so a
 * type is added or removed in exactly one place.  Each list calls
 * X(TYPENAME, TYPE) once per row of the corresponding table of the
 * OpenSHMEM specification.  This header is installed because shmem.h needs
 * it; programs should not use it directly.
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

/* Standard RMA types (spec table "stdrmatypes"). */
#define SHMPI_RMA_TYPES(X)                                                    \
    X(float, float) X(double, double) X(longdouble, long double)             \
    X(char, char) X(schar, signed char) X(short, short) X(int, int)          \
    X(long, long) X(longlong, long long) X(uchar, unsigned char)             \
    X(ushort, unsigned short) X(uint, unsigned int) X(ulong, unsigned long)  \
    X(ulonglong, unsigned long long) X(int8, int8_t) X(int16, int16_t)       \
    X(int32, int32_t) X(int64, int64_t) X(uint8, uint8_t)                    \
    X(uint16, uint16_t) X(uint32, uint32_t) X(uint64, uint64_t)              \
    X(size, size_t) X(ptrdiff, ptrdiff_t)

/* Sized RMA routines: X(BITS) for shmem_putBITS etc. */
#define SHMPI_RMA_SIZES(X) X(8) X(16) X(32) X(64) X(128)

/* Standard AMO types (compare_swap, fetch_inc, inc, fetch_add, add). */
#define SHMPI_AMO_STD_TYPES(X)                                                \
    X(int, int) X(long, long) X(longlong, long long) X(uint, unsigned int)    \
    X(ulong, unsigned long) X(ulonglong, unsigned long long)                 \
    X(int32, int32_t) X(int64, int64_t) X(uint32, uint32_t)                   \
    X(uint64, uint64_t) X(size, size_t) X(ptrdiff, ptrdiff_t)

/* Extended AMO types (fetch, set, swap): the standard ones plus floats. */
#define SHMPI_AMO_EXT_TYPES(X)                                                \
    X(float, float) X(double, double) SHMPI_AMO_STD_TYPES(X)

/* Bitwise AMO types (and, or, xor). */
#define SHMPI_AMO_BIT_TYPES(X)                                                \
    X(uint, unsigned int) X(ulong, unsigned long)                             \
    X(ulonglong, unsigned long long) X(int32, int32_t) X(int64, int64_t)      \
    X(uint32, uint32_t) X(uint64, uint64_t)

/* Deprecated AMO names (shmem_TYPENAME_fetch/set/swap, cswap/finc/...). */
#define SHMPI_AMO_DEPRECATED_EXT_TYPES(X)                                     \
    X(float, float) X(double, double) SHMPI_AMO_DEPRECATED_STD_TYPES(X)
#define SHMPI_AMO_DEPRECATED_STD_TYPES(X)                                     \
    X(int, int) X(long, long) X(longlong, long long)
/* The other standard AMO types also get the deprecated names (as in Sandia
 * OpenSHMEM: shmem_int32_add, shmem_uint64_fetch, ...), as inline
 * forwarders in shmem.h, not library symbols. */
#define SHMPI_AMO_DEPRECATED_INLINE_TYPES(X)                                  \
    X(uint, unsigned int) X(ulong, unsigned long)                             \
    X(ulonglong, unsigned long long) X(int32, int32_t) X(int64, int64_t)      \
    X(uint32, uint32_t) X(uint64, uint64_t) X(size, size_t)                   \
    X(ptrdiff, ptrdiff_t)

/* Point-to-point synchronization types (wait_until, test and friends). */
#define SHMPI_P2P_TYPES(X) SHMPI_AMO_STD_TYPES(X)
/* Deprecated p2p types: shmem_short/ushort_wait_until, _test and the
 * _all/_any/_some forms (Sandia OpenSHMEM and Open MPI have them too). */
#define SHMPI_P2P_DEPRECATED_TYPES(X) X(short, short) X(ushort, unsigned short)
/* Deprecated shmem_TYPENAME_wait(ivar, value). */
#define SHMPI_WAIT_DEPRECATED_TYPES(X)                                        \
    X(short, short) X(int, int) X(long, long) X(longlong, long long)

/* Team reductions (spec table "teamreducetypes"), split by operator group. */
#define SHMPI_REDUCE_BITWISE_TYPES(X)                                         \
    X(uchar, unsigned char) X(ushort, unsigned short) X(uint, unsigned int)   \
    X(ulong, unsigned long) X(ulonglong, unsigned long long)                 \
    X(int8, int8_t) X(int16, int16_t) X(int32, int32_t) X(int64, int64_t)     \
    X(uint8, uint8_t) X(uint16, uint16_t) X(uint32, uint32_t)                 \
    X(uint64, uint64_t) X(size, size_t)
/* Spec 1.5 also prints a table that adds these to and/or/xor. */
#define SHMPI_REDUCE_BITWISE_EXTRA_TYPES(X)                                   \
    X(short, short) X(int, int) X(long, long) X(longlong, long long)
#define SHMPI_REDUCE_MINMAX_TYPES(X)                                          \
    X(char, char) X(schar, signed char) X(short, short) X(int, int)          \
    X(long, long) X(longlong, long long) X(ptrdiff, ptrdiff_t)               \
    SHMPI_REDUCE_BITWISE_TYPES(X)                                             \
    X(float, float) X(double, double) X(longdouble, long double)
#define SHMPI_REDUCE_ARITH_TYPES(X)                                           \
    SHMPI_REDUCE_MINMAX_TYPES(X)                                              \
    X(complexd, shmpi_complexd_t) X(complexf, shmpi_complexf_t)

/* Deprecated active-set reductions (shmem_TYPENAME_OP_to_all). */
#define SHMPI_TO_ALL_BITWISE_TYPES(X)                                         \
    X(short, short) X(int, int) X(long, long) X(longlong, long long)
#define SHMPI_TO_ALL_MINMAX_TYPES(X)                                          \
    SHMPI_TO_ALL_BITWISE_TYPES(X)                                             \
    X(float, float) X(double, double) X(longdouble, long double)
#define SHMPI_TO_ALL_ARITH_TYPES(X)                                           \
    SHMPI_TO_ALL_MINMAX_TYPES(X)                                              \
    X(complexd, shmpi_complexd_t) X(complexf, shmpi_complexf_t)

/* Reduction operators by group: X(OPNAME). */
#define SHMPI_REDUCE_BITWISE_OPS(X) X(and) X(or) X(xor)
#define SHMPI_REDUCE_MINMAX_OPS(X) X(max) X(min)
#define SHMPI_REDUCE_ARITH_OPS(X) X(sum) X(prod)

#endif /* SHMPI_TYPETABLES_H */
