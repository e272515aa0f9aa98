/* shmpi_generics_coll.h - C11 generic names, coll chapter (see shmpi_generics.h).
 *
 * _Generic cannot list two compatible types, and the fixed-width and
 * size/ptrdiff types of the spec's tables are typedefs of the basic
 * integer types, so each selection lists every distinct type once; a
 * fixed-width argument selects the routine of the basic type it is (same
 * size and representation). */
#ifndef SHMPI_GENERICS_COLL_H
#define SHMPI_GENERICS_COLL_H

/* stdrmatypes: broadcast, collect, fcollect, alltoall, alltoalls. */
#define SHMPI_GENERIC_COLL(ROUTINE, dest)                                                  \
    _Generic(*(dest),                                                                      \
        float: shmem_float_##ROUTINE,                                                      \
        double: shmem_double_##ROUTINE,                                                    \
        long double: shmem_longdouble_##ROUTINE,                                           \
        char: shmem_char_##ROUTINE,                                                        \
        signed char: shmem_schar_##ROUTINE,                                                \
        short: shmem_short_##ROUTINE,                                                      \
        int: shmem_int_##ROUTINE,                                                          \
        long: shmem_long_##ROUTINE,                                                        \
        long long: shmem_longlong_##ROUTINE,                                               \
        unsigned char: shmem_uchar_##ROUTINE,                                              \
        unsigned short: shmem_ushort_##ROUTINE,                                            \
        unsigned int: shmem_uint_##ROUTINE,                                                \
        unsigned long: shmem_ulong_##ROUTINE,                                              \
        unsigned long long: shmem_ulonglong_##ROUTINE)

#define shmem_broadcast(team, dest, ...)                                                   \
    SHMPI_GENERIC_COLL(broadcast, dest)(team, dest, __VA_ARGS__)
#define shmem_collect(team, dest, ...) SHMPI_GENERIC_COLL(collect, dest)(team, dest, __VA_ARGS__)
#define shmem_fcollect(team, dest, ...)                                                    \
    SHMPI_GENERIC_COLL(fcollect, dest)(team, dest, __VA_ARGS__)
#define shmem_alltoall(team, dest, ...)                                                    \
    SHMPI_GENERIC_COLL(alltoall, dest)(team, dest, __VA_ARGS__)
#define shmem_alltoalls(team, dest, ...)                                                   \
    SHMPI_GENERIC_COLL(alltoalls, dest)(team, dest, __VA_ARGS__)

/* teamreducetypes by operator.  and/or/xor: the unsigned types, the
 * fixed-width signed ones (int8_t, int16_t, int32_t, int64_t) and the
 * signed basic types of the extra table. */
#define SHMPI_GENERIC_REDUCE_BITWISE(OP, dest)                                             \
    _Generic(*(dest),                                                                      \
        unsigned char: shmem_uchar_##OP##_reduce,                                          \
        unsigned short: shmem_ushort_##OP##_reduce,                                        \
        unsigned int: shmem_uint_##OP##_reduce,                                            \
        unsigned long: shmem_ulong_##OP##_reduce,                                          \
        unsigned long long: shmem_ulonglong_##OP##_reduce,                                 \
        signed char: shmem_int8_##OP##_reduce,                                             \
        short: shmem_short_##OP##_reduce,                                                  \
        int: shmem_int_##OP##_reduce,                                                      \
        long: shmem_long_##OP##_reduce,                                                    \
        long long: shmem_longlong_##OP##_reduce)
#define SHMPI_GENERIC_REDUCE_MINMAX_ASSOC(OP)                                              \
        char: shmem_char_##OP##_reduce,                                                    \
        signed char: shmem_schar_##OP##_reduce,                                            \
        short: shmem_short_##OP##_reduce,                                                  \
        int: shmem_int_##OP##_reduce,                                                      \
        long: shmem_long_##OP##_reduce,                                                    \
        long long: shmem_longlong_##OP##_reduce,                                           \
        unsigned char: shmem_uchar_##OP##_reduce,                                          \
        unsigned short: shmem_ushort_##OP##_reduce,                                        \
        unsigned int: shmem_uint_##OP##_reduce,                                            \
        unsigned long: shmem_ulong_##OP##_reduce,                                          \
        unsigned long long: shmem_ulonglong_##OP##_reduce,                                 \
        float: shmem_float_##OP##_reduce,                                                  \
        double: shmem_double_##OP##_reduce,                                                \
        long double: shmem_longdouble_##OP##_reduce
#define SHMPI_GENERIC_REDUCE_MINMAX(OP, dest)                                              \
    _Generic(*(dest), SHMPI_GENERIC_REDUCE_MINMAX_ASSOC(OP))
#ifndef __STDC_NO_COMPLEX__
#define SHMPI_GENERIC_REDUCE_ARITH(OP, dest)                                               \
    _Generic(*(dest), SHMPI_GENERIC_REDUCE_MINMAX_ASSOC(OP),                               \
        double _Complex: shmem_complexd_##OP##_reduce,                                     \
        float _Complex: shmem_complexf_##OP##_reduce)
#else
#define SHMPI_GENERIC_REDUCE_ARITH(OP, dest)                                               \
    _Generic(*(dest), SHMPI_GENERIC_REDUCE_MINMAX_ASSOC(OP))
#endif

#define shmem_and_reduce(team, dest, ...)                                                  \
    SHMPI_GENERIC_REDUCE_BITWISE(and, dest)(team, dest, __VA_ARGS__)
#define shmem_or_reduce(team, dest, ...)                                                   \
    SHMPI_GENERIC_REDUCE_BITWISE(or, dest)(team, dest, __VA_ARGS__)
#define shmem_xor_reduce(team, dest, ...)                                                  \
    SHMPI_GENERIC_REDUCE_BITWISE(xor, dest)(team, dest, __VA_ARGS__)
#define shmem_max_reduce(team, dest, ...)                                                  \
    SHMPI_GENERIC_REDUCE_MINMAX(max, dest)(team, dest, __VA_ARGS__)
#define shmem_min_reduce(team, dest, ...)                                                  \
    SHMPI_GENERIC_REDUCE_MINMAX(min, dest)(team, dest, __VA_ARGS__)
#define shmem_sum_reduce(team, dest, ...)                                                  \
    SHMPI_GENERIC_REDUCE_ARITH(sum, dest)(team, dest, __VA_ARGS__)
#define shmem_prod_reduce(team, dest, ...)                                                 \
    SHMPI_GENERIC_REDUCE_ARITH(prod, dest)(team, dest, __VA_ARGS__)

/* 1.6 scans (prefix sums): the types of sum_reduce, routine
 * shmem_TYPENAME_sum_KIND with KIND inscan or exscan. */
#define SHMPI_GENERIC_SCAN_ASSOC(KIND)                                                     \
        char: shmem_char_sum_##KIND,                                                       \
        signed char: shmem_schar_sum_##KIND,                                               \
        short: shmem_short_sum_##KIND,                                                     \
        int: shmem_int_sum_##KIND,                                                         \
        long: shmem_long_sum_##KIND,                                                       \
        long long: shmem_longlong_sum_##KIND,                                              \
        unsigned char: shmem_uchar_sum_##KIND,                                             \
        unsigned short: shmem_ushort_sum_##KIND,                                           \
        unsigned int: shmem_uint_sum_##KIND,                                               \
        unsigned long: shmem_ulong_sum_##KIND,                                             \
        unsigned long long: shmem_ulonglong_sum_##KIND,                                    \
        float: shmem_float_sum_##KIND,                                                     \
        double: shmem_double_sum_##KIND,                                                   \
        long double: shmem_longdouble_sum_##KIND
#ifndef __STDC_NO_COMPLEX__
#define SHMPI_GENERIC_SCAN(KIND, dest)                                                     \
    _Generic(*(dest), SHMPI_GENERIC_SCAN_ASSOC(KIND),                                      \
        double _Complex: shmem_complexd_sum_##KIND,                                        \
        float _Complex: shmem_complexf_sum_##KIND)
#else
#define SHMPI_GENERIC_SCAN(KIND, dest) _Generic(*(dest), SHMPI_GENERIC_SCAN_ASSOC(KIND))
#endif

#define shmem_sum_inscan(team, dest, ...)                                                  \
    SHMPI_GENERIC_SCAN(inscan, dest)(team, dest, __VA_ARGS__)
#define shmem_sum_exscan(team, dest, ...)                                                  \
    SHMPI_GENERIC_SCAN(exscan, dest)(team, dest, __VA_ARGS__)

/* shmem_sync(team) is shmem_team_sync; shmem_sync(PE_start, logPE_stride,
 * PE_size, pSync) the deprecated active-set function (its declaration
 * wraps the name in parentheses, so it stays callable as a function). */
#define SHMPI_COLL_FIRST_ARG(first, ...) first
#define shmem_sync(...)                                                                    \
    _Generic((SHMPI_COLL_FIRST_ARG(__VA_ARGS__, 0)),                                            \
        shmem_team_t: shmem_team_sync,                                                     \
        default: (shmem_sync))(__VA_ARGS__)

#endif
