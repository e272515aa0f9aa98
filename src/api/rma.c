/*
 * rma.c - remote memory access routines (spec: RMA Routines, and the
 * non-blocking ones).  Each routine is one call into src/ops/rma.c with a
 * byte count or element size; the type tables generate them all.
 */
#define SHMPI_DEFINES_rma SHMPI_HERE /* weak shmem_ names of this chapter here */
#include "shmpi.h"
#include "rma.h"

/* Contiguous and strided transfers of elements of ELEM bytes (a type T,
 * putBITS, putmem), with and without a context. */
#define DEFINE_RMA_CONTIG(NAME, T, ELEM, CORE, COMPLETION)                                    \
    void shmem_ctx_##NAME(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe)   \
    {                                                                                         \
        CORE(__func__, ctx, dest, source, shmpi_bytes(__func__, nelems, ELEM), pe,            \
             COMPLETION);                                                                     \
    }                                                                                         \
    void shmem_##NAME(T *dest, const T *source, size_t nelems, int pe)                        \
    {                                                                                         \
        CORE(__func__, SHMEM_CTX_DEFAULT, dest, source, shmpi_bytes(__func__, nelems, ELEM),  \
             pe, COMPLETION);                                                                 \
    }
#define DEFINE_RMA_STRIDED(NAME, T, ELEM, CORE)                                               \
    void shmem_ctx_##NAME(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,           \
                          ptrdiff_t sst, size_t nelems, int pe)                               \
    {                                                                                         \
        CORE(__func__, ctx, dest, source, dst, sst, 1, nelems, ELEM, pe);                     \
    }                                                                                         \
    void shmem_##NAME(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,  \
                      int pe)                                                                 \
    {                                                                                         \
        CORE(__func__, SHMEM_CTX_DEFAULT, dest, source, dst, sst, 1, nelems, ELEM, pe);       \
    }
/* The typed routines. */
#define DEFINE_RMA_TYPED(N, T)                                                                \
    DEFINE_RMA_CONTIG(N##_put, T, sizeof(T), shmpi_put, SHMPI_BLOCKING)                       \
    DEFINE_RMA_CONTIG(N##_put_nbi, T, sizeof(T), shmpi_put, SHMPI_NBI)                        \
    DEFINE_RMA_CONTIG(N##_get, T, sizeof(T), shmpi_get, SHMPI_BLOCKING)                       \
    DEFINE_RMA_CONTIG(N##_get_nbi, T, sizeof(T), shmpi_get, SHMPI_NBI)                        \
    DEFINE_RMA_STRIDED(N##_iput, T, sizeof(T), shmpi_iput)                                    \
    DEFINE_RMA_STRIDED(N##_iget, T, sizeof(T), shmpi_iget)                                    \
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe)                         \
    {                                                                                         \
        shmpi_put(__func__, ctx, dest, &value, sizeof(T), pe, SHMPI_BLOCKING);                \
    }                                                                                         \
    void shmem_##N##_p(T *dest, T value, int pe)                                              \
    {                                                                                         \
        shmpi_put(__func__, SHMEM_CTX_DEFAULT, dest, &value, sizeof(T), pe, SHMPI_BLOCKING);  \
    }                                                                                         \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe)                             \
    {                                                                                         \
        T value;                                                                              \
        shmpi_get(__func__, ctx, &value, source, sizeof(T), pe, SHMPI_BLOCKING);              \
        return value;                                                                         \
    }                                                                                         \
    T shmem_##N##_g(const T *source, int pe)                                                  \
    {                                                                                         \
        T value;                                                                              \
        shmpi_get(__func__, SHMEM_CTX_DEFAULT, &value, source, sizeof(T), pe, SHMPI_BLOCKING); \
        return value;                                                                         \
    }
SHMPI_RMA_TYPES(DEFINE_RMA_TYPED)

/* OpenSHMEM 1.6 blocked strided transfers: nblocks blocks of bsize elements. */
#define DEFINE_RMA_BLOCKED(NAME, T, ELEM, CORE)                                               \
    void shmem_ctx_##NAME(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,           \
                          ptrdiff_t sst, size_t bsize, size_t nblocks, int pe)                \
    {                                                                                         \
        CORE(__func__, ctx, dest, source, dst, sst, bsize, nblocks, ELEM, pe);                \
    }                                                                                         \
    void shmem_##NAME(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,   \
                      size_t nblocks, int pe)                                                 \
    {                                                                                         \
        CORE(__func__, SHMEM_CTX_DEFAULT, dest, source, dst, sst, bsize, nblocks, ELEM, pe);  \
    }
#define DEFINE_RMA_BLOCKED_TYPED(N, T)                                                        \
    DEFINE_RMA_BLOCKED(N##_ibput, T, sizeof(T), shmpi_iput)                                   \
    DEFINE_RMA_BLOCKED(N##_ibget, T, sizeof(T), shmpi_iget)
SHMPI_RMA_TYPES(DEFINE_RMA_BLOCKED_TYPED)

/* Sized and mem forms: putBITS moves elements of BITS/8 bytes, putmem bytes. */
#define DEFINE_RMA_SIZED(BITS)                                                                \
    DEFINE_RMA_CONTIG(put##BITS, void, BITS / 8, shmpi_put, SHMPI_BLOCKING)                   \
    DEFINE_RMA_CONTIG(get##BITS, void, BITS / 8, shmpi_get, SHMPI_BLOCKING)                   \
    DEFINE_RMA_CONTIG(put##BITS##_nbi, void, BITS / 8, shmpi_put, SHMPI_NBI)                  \
    DEFINE_RMA_CONTIG(get##BITS##_nbi, void, BITS / 8, shmpi_get, SHMPI_NBI)                  \
    DEFINE_RMA_STRIDED(iput##BITS, void, BITS / 8, shmpi_iput)                                \
    DEFINE_RMA_STRIDED(iget##BITS, void, BITS / 8, shmpi_iget)
SHMPI_RMA_SIZES(DEFINE_RMA_SIZED)
#define DEFINE_RMA_BLOCKED_SIZED(BITS)                                                        \
    DEFINE_RMA_BLOCKED(ibput##BITS, void, BITS / 8, shmpi_iput)                               \
    DEFINE_RMA_BLOCKED(ibget##BITS, void, BITS / 8, shmpi_iget)
SHMPI_RMA_SIZES(DEFINE_RMA_BLOCKED_SIZED)
DEFINE_RMA_CONTIG(putmem, void, 1, shmpi_put, SHMPI_BLOCKING)
DEFINE_RMA_CONTIG(getmem, void, 1, shmpi_get, SHMPI_BLOCKING)
DEFINE_RMA_CONTIG(putmem_nbi, void, 1, shmpi_put, SHMPI_NBI)
DEFINE_RMA_CONTIG(getmem_nbi, void, 1, shmpi_get, SHMPI_NBI)
