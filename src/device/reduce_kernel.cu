/*
 * reduce_kernel.cu - shmpi's reduction kernel for the reductions and
 * reduce-scatters on a stream (src/coll/stream_coll.c): one entry,
 * shmpi_fold, whose one parameter (struct shmpi_fold_args, fold.h) names
 * the members' blocks (the peers' IPC mappings), the output, the type and
 * the operator.  Each thread folds its elements in team order with the
 * functions of fold.h, which the host fold and the fake driver share.
 *
 * The build never compiles this file: the PTX is committed as a C string
 * in reduce_kernel_ptx.h, loaded with cuModuleLoadData and compiled by the
 * driver for the GPU at first use.  After a change, regenerate it (needs
 * nvcc; not part of `make`):
 *     make -C _build regen-reduce-kernel
 * which runs src/device/reduce_kernel.sh (the nvcc command and the PTX
 * version it writes are there).
 */
#include <stdint.h>

#include "fold.h"

/* One type: its element and its fold (fold.h). */
#define TYPE_TRAITS(CODE, T)                                                                  \
    struct traits_##CODE {                                                                    \
        typedef T type;                                                                       \
        static __device__ __forceinline__ T combine(int op, T a, T b)                         \
        {                                                                                     \
            return shmpi_fold_##CODE(op, a, b);                                               \
        }                                                                                     \
    };
SHMPI_FOLD_GPU_TYPES(TYPE_TRAITS)

/* Grid-stride: each thread folds elements i, i + step, ...; the operator
 * is the same for every thread (a uniform branch, cheaper than the JIT
 * time of a copy of the loop per operator). */
template <class Traits>
__device__ void fold(const shmpi_fold_args &a)
{
    typedef typename Traits::type T;
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    unsigned long long step = (unsigned long long)gridDim.x * blockDim.x;
    int first = a.accumulate ? 0 : 1, op = a.op;
#pragma unroll 1
    for (; i < a.count; i += step) {
        T acc = a.accumulate ? ((const T *)a.out)[i] : ((const T *)a.in[0])[i];
#pragma unroll 1
        for (int k = first; k < a.n_in; k++)
            acc = Traits::combine(op, acc, ((const T *)a.in[k])[i]);
        ((T *)a.out)[i] = acc;
    }
}

extern "C" __global__ void shmpi_fold(const shmpi_fold_args a)
{
    switch (a.type) {
#define TYPE_CASE(CODE, T)                                                                    \
    case SHMPI_FOLD_##CODE: fold<traits_##CODE>(a); break;
        SHMPI_FOLD_GPU_TYPES(TYPE_CASE)
    }
}
