/*
 * fold.h - the reductions on a stream, element by element, written once for
 * three readers: shmpi's reduction kernel (src/device/reduce_kernel.cu,
 * compiled by nvcc into the PTX of reduce_kernel_ptx.h), the host fold that
 * stands in where the driver cannot load it (src/coll/stream_coll.c), and
 * the fake driver (tests/fake_cuda.c), which runs the kernel by name with
 * these very functions.  So every PE, the GPU and the host fold give the
 * same bits: members folded in team order, acc = acc OP next, integers
 * wrapping, 16-bit floats folded in float and rounded to nearest even, no
 * fused multiply-add (nvcc --fmad=false), complex products as
 * (ac - bd, ad + bc).
 *
 * C and CUDA C; no library headers beyond <stdint.h> and <stddef.h>.
 */
#ifndef SHMPI_FOLD_H
#define SHMPI_FOLD_H

#ifdef __CUDACC__
#define SHMPI_FOLD_FN static __device__ __forceinline__
#else
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#define SHMPI_FOLD_FN static inline
#endif

/* The element types, by representation: X(CODE, C type).  long double has
 * no GPU form: the host folds it (SHMPI_FOLD_LONGDOUBLE, after these). */
#define SHMPI_FOLD_INT_TYPES(X)                                                               \
    X(I8, int8_t) X(I16, int16_t) X(I32, int32_t) X(I64, int64_t)                             \
    X(U8, uint8_t) X(U16, uint16_t) X(U32, uint32_t) X(U64, uint64_t)
#define SHMPI_FOLD_FLOAT_TYPES(X) X(F32, float) X(F64, double)
enum shmpi_fold_type {
#define SHMPI_FOLD_ENUM(CODE, T) SHMPI_FOLD_##CODE,
    SHMPI_FOLD_INT_TYPES(SHMPI_FOLD_ENUM) SHMPI_FOLD_FLOAT_TYPES(SHMPI_FOLD_ENUM)
#undef SHMPI_FOLD_ENUM
    SHMPI_FOLD_C32,  /* float complex: {re, im} */
    SHMPI_FOLD_C64,  /* double complex */
    SHMPI_FOLD_F16,  /* IEEE binary16 bits */
    SHMPI_FOLD_BF16, /* bfloat16 bits */
    SHMPI_FOLD_LONGDOUBLE,
    SHMPI_FOLD_N_TYPES
};
enum shmpi_fold_op {
    SHMPI_FOLD_sum,
    SHMPI_FOLD_prod,
    SHMPI_FOLD_min,
    SHMPI_FOLD_max,
    SHMPI_FOLD_and,
    SHMPI_FOLD_or,
    SHMPI_FOLD_xor
};

/* The kernel's one parameter: out[i] = in[0][i] OP in[1][i] OP ... (or
 * out[i] OP in[0][i] OP ... with `accumulate`), for i < count.  Each
 * element is read from every input before out[i] is written, so out may be
 * one of the inputs.  More members than SHMPI_FOLD_MAX_IN: launches in
 * turn, the later ones accumulating. */
#define SHMPI_FOLD_MAX_IN 128
struct shmpi_fold_args {
    const void *in[SHMPI_FOLD_MAX_IN];
    void *out;
    unsigned long long count;
    int n_in, accumulate, type, op;
};

/* ---- one pair of elements ----------------------------------------------------------- */
#define SHMPI_FOLD_MINMAX(op, a, b)                                                           \
    ((op) == SHMPI_FOLD_min ? ((a) < (b) ? (a) : (b)) : ((a) > (b) ? (a) : (b)))
#define SHMPI_FOLD_DEFINE_INT(CODE, T)                                                        \
    SHMPI_FOLD_FN T shmpi_fold_##CODE(int op, T a, T b)                                       \
    {                                                                                         \
        unsigned long long x = (unsigned long long)a, y = (unsigned long long)b;              \
        switch (op) {                                                                         \
        case SHMPI_FOLD_sum: return (T)(x + y);                                               \
        case SHMPI_FOLD_prod: return (T)(x * y);                                              \
        case SHMPI_FOLD_and: return (T)(x & y);                                               \
        case SHMPI_FOLD_or: return (T)(x | y);                                                \
        case SHMPI_FOLD_xor: return (T)(x ^ y);                                               \
        default: return SHMPI_FOLD_MINMAX(op, a, b);                                          \
        }                                                                                     \
    }
SHMPI_FOLD_INT_TYPES(SHMPI_FOLD_DEFINE_INT)
#undef SHMPI_FOLD_DEFINE_INT
#define SHMPI_FOLD_DEFINE_FLOAT(CODE, T)                                                      \
    SHMPI_FOLD_FN T shmpi_fold_##CODE(int op, T a, T b)                                       \
    {                                                                                         \
        return op == SHMPI_FOLD_sum ? a + b : op == SHMPI_FOLD_prod ? a * b                   \
                                                                    : SHMPI_FOLD_MINMAX(op, a, b); \
    }
SHMPI_FOLD_FLOAT_TYPES(SHMPI_FOLD_DEFINE_FLOAT)
#undef SHMPI_FOLD_DEFINE_FLOAT

/* Complex: sum and prod only. */
#define SHMPI_FOLD_DEFINE_COMPLEX(CODE, R)                                                    \
    struct shmpi_fold_##CODE {                                                                \
        R re, im;                                                                             \
    };                                                                                        \
    SHMPI_FOLD_FN struct shmpi_fold_##CODE shmpi_fold_##CODE(int op, struct shmpi_fold_##CODE a, \
                                                             struct shmpi_fold_##CODE b)      \
    {                                                                                         \
        struct shmpi_fold_##CODE r;                                                           \
        if (op == SHMPI_FOLD_sum) {                                                           \
            r.re = a.re + b.re;                                                               \
            r.im = a.im + b.im;                                                               \
        } else {                                                                              \
            r.re = a.re * b.re - a.im * b.im;                                                 \
            r.im = a.re * b.im + a.im * b.re;                                                 \
        }                                                                                     \
        return r;                                                                             \
    }
SHMPI_FOLD_DEFINE_COMPLEX(C32, float)
SHMPI_FOLD_DEFINE_COMPLEX(C64, double)
#undef SHMPI_FOLD_DEFINE_COMPLEX

/* The 16-bit floating types: their bits to float and back (nearest even). */
SHMPI_FOLD_FN float shmpi_fold_bits_float(uint32_t bits)
{
#ifdef __CUDACC__
    return __uint_as_float(bits);
#else
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
#endif
}

SHMPI_FOLD_FN uint32_t shmpi_fold_float_bits(float f)
{
#ifdef __CUDACC__
    return __float_as_uint(f);
#else
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
#endif
}

SHMPI_FOLD_FN float shmpi_fold_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff, bits;
    if (exp == 0x1f) { /* infinity, NaN */
        bits = sign | 0x7f800000u | man << 13;
    } else if (exp) {
        bits = sign | (exp + 112) << 23 | man << 13;
    } else if (man) { /* subnormal: normalize */
        uint32_t shift = 0;
        while (!(man & 0x400)) {
            man <<= 1;
            shift++;
        }
        bits = sign | (113 - shift) << 23 | (man & 0x3ff) << 13;
    } else {
        bits = sign;
    }
    return shmpi_fold_bits_float(bits);
}

SHMPI_FOLD_FN uint16_t shmpi_fold_float_to_half(float f)
{
    uint32_t bits = shmpi_fold_float_bits(f);
    uint16_t sign = (uint16_t)(bits >> 16 & 0x8000);
    uint32_t abs = bits & 0x7fffffffu;
    if (abs >= 0x7f800000u) /* infinity, NaN (kept quiet) */
        return (uint16_t)(sign | 0x7c00 | (abs > 0x7f800000u ? 0x200 : 0));
    if (abs >= 0x477ff000u) /* rounds to 65520 or more: infinity */
        return (uint16_t)(sign | 0x7c00);
    if (abs < 0x38800000u) { /* subnormal or zero in half */
        if (abs < 0x33000000u)
            return sign;
        uint32_t man = (abs & 0x7fffff) | 0x800000, shift = 126 - (abs >> 23);
        uint32_t half = man >> shift, rest = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
        half += rest > mid || (rest == mid && (half & 1));
        return (uint16_t)(sign | half);
    }
    uint32_t half = ((abs >> 13) - (112u << 10)), rest = abs & 0x1fff;
    half += rest > 0x1000 || (rest == 0x1000 && (half & 1));
    return (uint16_t)(sign | half);
}

SHMPI_FOLD_FN float shmpi_fold_bfloat16_to_float(uint16_t b)
{
    return shmpi_fold_bits_float((uint32_t)b << 16);
}

SHMPI_FOLD_FN uint16_t shmpi_fold_float_to_bfloat16(float f)
{
    uint32_t bits = shmpi_fold_float_bits(f);
    if ((bits & 0x7fffffffu) > 0x7f800000u) /* NaN stays NaN */
        return (uint16_t)(bits >> 16 | 0x40);
    bits += 0x7fff + (bits >> 16 & 1);
    return (uint16_t)(bits >> 16);
}

SHMPI_FOLD_FN uint16_t shmpi_fold_F16(int op, uint16_t a, uint16_t b)
{
    return shmpi_fold_float_to_half(
        shmpi_fold_F32(op, shmpi_fold_half_to_float(a), shmpi_fold_half_to_float(b)));
}

SHMPI_FOLD_FN uint16_t shmpi_fold_BF16(int op, uint16_t a, uint16_t b)
{
    return shmpi_fold_float_to_bfloat16(
        shmpi_fold_F32(op, shmpi_fold_bfloat16_to_float(a), shmpi_fold_bfloat16_to_float(b)));
}

/* Every type the GPU folds: X(CODE, element type). */
#define SHMPI_FOLD_GPU_TYPES(X)                                                               \
    SHMPI_FOLD_INT_TYPES(X) SHMPI_FOLD_FLOAT_TYPES(X)                                         \
    X(C32, struct shmpi_fold_C32) X(C64, struct shmpi_fold_C64)                               \
    X(F16, uint16_t) X(BF16, uint16_t)

#ifndef __CUDACC__
SHMPI_FOLD_FN long double shmpi_fold_LONGDOUBLE(int op, long double a, long double b)
{
    return op == SHMPI_FOLD_sum ? a + b : op == SHMPI_FOLD_prod ? a * b
                                                                : SHMPI_FOLD_MINMAX(op, a, b);
}

/* The bytes of one element of `type`. */
SHMPI_FOLD_FN size_t shmpi_fold_size(int type)
{
    switch (type) {
#define SHMPI_FOLD_SIZE(CODE, T)                                                              \
    case SHMPI_FOLD_##CODE: return sizeof(T);
        SHMPI_FOLD_GPU_TYPES(SHMPI_FOLD_SIZE)
        SHMPI_FOLD_SIZE(LONGDOUBLE, long double)
#undef SHMPI_FOLD_SIZE
    }
    return 0;
}

/* What the kernel does, on the host (the host fold and the fake driver):
 * element by element, every input read before the output is written. */
SHMPI_FOLD_FN void shmpi_fold_run(const struct shmpi_fold_args *a)
{
    int first = a->accumulate ? 0 : 1;
    switch (a->type) {
#define SHMPI_FOLD_CASE(CODE, T)                                                              \
    case SHMPI_FOLD_##CODE:                                                                   \
        for (unsigned long long i = 0; i < a->count; i++) {                                   \
            T acc = a->accumulate ? ((const T *)a->out)[i] : ((const T *)a->in[0])[i];        \
            for (int k = first; k < a->n_in; k++)                                             \
                acc = shmpi_fold_##CODE(a->op, acc, ((const T *)a->in[k])[i]);                \
            ((T *)a->out)[i] = acc;                                                           \
        }                                                                                     \
        break;
        SHMPI_FOLD_GPU_TYPES(SHMPI_FOLD_CASE)
        SHMPI_FOLD_CASE(LONGDOUBLE, long double)
#undef SHMPI_FOLD_CASE
    }
}
#endif

#endif /* SHMPI_FOLD_H */
