/*
 * rma.c - remote memory access routines (spec: RMA Routines, and the
 * non-blocking ones).  Each routine is one call into src/ops/rma.c with a
 * byte count or element size; the type tables generate them all.
 */
#define SHMPI_DEFINES_rma SHMPI_HERE /* weak shmem_ names of this chapter here */
#include "shmpi.h"
#include "rma.h"

#define DEFINE_RMA_TYPED(N, T)                                                                \
    void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,        \
                             int pe)                                                          \
    {                                                                                         \
        shmpi_put(__func__, ctx, dest, source, shmpi_bytes(__func__, nelems, sizeof(T)), pe,  \
                  SHMPI_BLOCKING);                                                            \
    }                                                                                         \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe)                     \
    {                                                                                         \
        shmpi_put(__func__, SHMEM_CTX_DEFAULT, dest, source,                                  \
                  shmpi_bytes(__func__, nelems, sizeof(T)), pe, SHMPI_BLOCKING);              \
    }                                                                                         \
    void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,    \
                                 int pe)                                                      \
    {                                                                                         \
        shmpi_put(__func__, ctx, dest, source, shmpi_bytes(__func__, nelems, sizeof(T)), pe,  \
                  SHMPI_NBI);                                                                 \
    }                                                                                         \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe)                 \
    {                                                                                         \
        shmpi_put(__func__, SHMEM_CTX_DEFAULT, dest, source,                                  \
                  shmpi_bytes(__func__, nelems, sizeof(T)), pe, SHMPI_NBI);                   \
    }                                                                                         \
    void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,        \
                             int pe)                                                          \
    {                                                                                         \
        shmpi_get(__func__, ctx, dest, source, shmpi_bytes(__func__, nelems, sizeof(T)), pe,  \
                  SHMPI_BLOCKING);                                                            \
    }                                                                                         \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe)                     \
    {                                                                                         \
        shmpi_get(__func__, SHMEM_CTX_DEFAULT, dest, source,                                  \
                  shmpi_bytes(__func__, nelems, sizeof(T)), pe, SHMPI_BLOCKING);              \
    }                                                                                         \
    void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,    \
                                 int pe)                                                      \
    {                                                                                         \
        shmpi_get(__func__, ctx, dest, source, shmpi_bytes(__func__, nelems, sizeof(T)), pe,  \
                  SHMPI_NBI);                                                                 \
    }                                                                                         \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe)                 \
    {                                                                                         \
        shmpi_get(__func__, SHMEM_CTX_DEFAULT, dest, source,                                  \
                  shmpi_bytes(__func__, nelems, sizeof(T)), pe, SHMPI_NBI);                   \
    }                                                                                         \
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
    }                                                                                         \
    void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,       \
                              ptrdiff_t sst, size_t nelems, int pe)                           \
    {                                                                                         \
        shmpi_iput(__func__, ctx, dest, source, dst, sst, 1, nelems, sizeof(T), pe);             \
    }                                                                                         \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,             \
                          size_t nelems, int pe)                                              \
    {                                                                                         \
        shmpi_iput(__func__, SHMEM_CTX_DEFAULT, dest, source, dst, sst, 1, nelems, sizeof(T), \
                   pe);                                                                       \
    }                                                                                         \
    void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,       \
                              ptrdiff_t sst, size_t nelems, int pe)                           \
    {                                                                                         \
        shmpi_iget(__func__, ctx, dest, source, dst, sst, 1, nelems, sizeof(T), pe);             \
    }                                                                                         \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,             \
                          size_t nelems, int pe)                                              \
    {                                                                                         \
        shmpi_iget(__func__, SHMEM_CTX_DEFAULT, dest, source, dst, sst, 1, nelems, sizeof(T), \
                   pe);                                                                       \
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
#define DEFINE_RMA_CONTIG(NAME, ELEM, CORE, COMPLETION)                                       \
    void shmem_ctx_##NAME(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,     \
                          int pe)                                                             \
    {                                                                                         \
        CORE(__func__, ctx, dest, source, shmpi_bytes(__func__, nelems, ELEM), pe,            \
             COMPLETION);                                                                     \
    }                                                                                         \
    void shmem_##NAME(void *dest, const void *source, size_t nelems, int pe)                  \
    {                                                                                         \
        CORE(__func__, SHMEM_CTX_DEFAULT, dest, source, shmpi_bytes(__func__, nelems, ELEM),  \
             pe, COMPLETION);                                                                 \
    }
#define DEFINE_RMA_STRIDED(NAME, ELEM, CORE)                                                  \
    void shmem_ctx_##NAME(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,     \
                          ptrdiff_t sst, size_t nelems, int pe)                               \
    {                                                                                         \
        CORE(__func__, ctx, dest, source, dst, sst, 1, nelems, ELEM, pe);                     \
    }                                                                                         \
    void shmem_##NAME(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,           \
                      size_t nelems, int pe)                                                  \
    {                                                                                         \
        CORE(__func__, SHMEM_CTX_DEFAULT, dest, source, dst, sst, 1, nelems, ELEM, pe);       \
    }
#define DEFINE_RMA_SIZED(BITS)                                                                \
    DEFINE_RMA_CONTIG(put##BITS, BITS / 8, shmpi_put, SHMPI_BLOCKING)                         \
    DEFINE_RMA_CONTIG(get##BITS, BITS / 8, shmpi_get, SHMPI_BLOCKING)                         \
    DEFINE_RMA_CONTIG(put##BITS##_nbi, BITS / 8, shmpi_put, SHMPI_NBI)                        \
    DEFINE_RMA_CONTIG(get##BITS##_nbi, BITS / 8, shmpi_get, SHMPI_NBI)                        \
    DEFINE_RMA_STRIDED(iput##BITS, BITS / 8, shmpi_iput)                                      \
    DEFINE_RMA_STRIDED(iget##BITS, BITS / 8, shmpi_iget)
SHMPI_RMA_SIZES(DEFINE_RMA_SIZED)
#define DEFINE_RMA_BLOCKED_SIZED(BITS)                                                        \
    DEFINE_RMA_BLOCKED(ibput##BITS, void, BITS / 8, shmpi_iput)                               \
    DEFINE_RMA_BLOCKED(ibget##BITS, void, BITS / 8, shmpi_iget)
SHMPI_RMA_SIZES(DEFINE_RMA_BLOCKED_SIZED)
DEFINE_RMA_CONTIG(putmem, 1, shmpi_put, SHMPI_BLOCKING)
DEFINE_RMA_CONTIG(getmem, 1, shmpi_get, SHMPI_BLOCKING)
DEFINE_RMA_CONTIG(putmem_nbi, 1, shmpi_put, SHMPI_NBI)
DEFINE_RMA_CONTIG(getmem_nbi, 1, shmpi_get, SHMPI_NBI)
