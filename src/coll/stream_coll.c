/*
 * stream_coll.c - barriers and collectives on CUDA streams (stream_coll.h):
 * a barrier is a dissemination of stream writes and waits (stream.c); a
 * collective pulls what this PE needs through the peers' IPC mappings (the
 * stream proxy's gets for PEs not mapped here) between an entry and an exit
 * barrier; a reduction pulls every member's
 * block into pinned host memory, where a host function folds them in team
 * order (the same bits on every PE) before the copy back.
 */
#include "stream_coll.h"
#include "coll.h"
#include "stream.h"

#include <complex.h>
#include <string.h>

/* World PE of team PE pe. */
static int world(const char *routine, const struct shmpi_group *g, int pe)
{
    return shmpi_team_world_pe(routine, g->team, pe);
}

static void dissemination(const char *routine, const struct shmpi_group *g, CUstream stream)
{
    for (int dist = 1; dist < g->n_pes; dist *= 2) {
        shmpi_stream_notify(routine, world(routine, g, (g->my_pe + dist) % g->n_pes), stream);
        shmpi_stream_await(routine, world(routine, g, (g->my_pe - dist + g->n_pes) % g->n_pes),
                           stream);
    }
}

int shmpi_stream_barrier(const char *routine, shmem_team_t team, bool quiet, CUstream stream)
{
    const struct shmpi_group *g = SHMPI_TEAM_GROUP(routine, team);
    if (quiet)
        shmpi_stream_quiet(routine, stream);
    shmpi_stream_enter(routine, stream, true);
    dissemination(routine, g, stream);
    return 0;
}

int shmpi_stream_coll(const char *routine, shmem_team_t team, enum shmpi_stream_coll kind,
                      void *dest, const void *source, size_t nelems, size_t elem_size,
                      int root, CUstream stream)
{
    const struct shmpi_group *g = SHMPI_TEAM_GROUP(routine, team);
    size_t len = shmpi_bytes(routine, nelems, elem_size);
    size_t all = shmpi_bytes(routine, len, (size_t)g->n_pes);
    if (kind == SHMPI_STREAM_BROADCAST && (root < 0 || root >= g->n_pes))
        shmpi_abort_together(routine, g->my_pe == 0,
                             "PE_root %d is not a PE of the team (0 to %d)", root,
                             g->n_pes - 1);
    shmpi_stream_enter(routine, stream, true);
    char *to = dest;
    const char *from = source;
    /* Both buffers must be symmetric: checked on this PE's own mapping. */
    shmpi_stream_peer(routine, "dest", dest, kind == SHMPI_STREAM_BROADCAST ? len : all,
                      shmpi_g.my_pe);
    shmpi_stream_peer(routine, "source", source, kind == SHMPI_STREAM_ALLTOALL ? all : len,
                      shmpi_g.my_pe);
    dissemination(routine, g, stream); /* every source is ready */
    switch (kind) {
    case SHMPI_STREAM_BROADCAST:
        if (to != from || g->my_pe != root)
            shmpi_stream_pull(routine, to, from, len, world(routine, g, root), stream);
        break;
    case SHMPI_STREAM_FCOLLECT:
        for (int pe = 0; pe < g->n_pes; pe++)
            shmpi_stream_pull(routine, to + (size_t)pe * len, from, len,
                              world(routine, g, pe), stream);
        break;
    case SHMPI_STREAM_ALLTOALL:
        for (int pe = 0; pe < g->n_pes; pe++)
            shmpi_stream_pull(routine, to + (size_t)pe * len, from + (size_t)g->my_pe * len,
                              len, world(routine, g, pe), stream);
        break;
    }
    dissemination(routine, g, stream); /* no source is overwritten while read */
    return 0;
}

/* ---- reductions --------------------------------------------------------------------------- */
/* The job of the host function, at the start of the staging memory: the
 * members' blocks follow it, and the result is folded into the first. */
struct fold {
    shmpi_reducer *reducer;
    size_t n_blocks, nreduce, block; /* block: bytes, a multiple of 16 */
};
/* Where the first block starts: after the job, 16-byte aligned. */
#define FOLD_HEAD ((sizeof(struct fold) + 15) / 16 * 16)

static void fold(void *data)
{
    struct fold *job = data;
    char *first = (char *)data + FOLD_HEAD;
    for (size_t k = 1; k < job->n_blocks; k++)
        job->reducer(first, first + k * job->block, job->nreduce);
}

int shmpi_stream_reduce(const char *routine, shmem_team_t team, void *dest, const void *source,
                        size_t nreduce, size_t elem_size, shmpi_reducer *reducer, bool scatter,
                        CUstream stream)
{
    const struct shmpi_group *g = SHMPI_TEAM_GROUP(routine, team);
    size_t len = shmpi_bytes(routine, nreduce, elem_size);
    size_t all = shmpi_bytes(routine, len, (size_t)g->n_pes);
    shmpi_stream_enter(routine, stream, true);
    shmpi_stream_peer(routine, "dest", dest, len, shmpi_g.my_pe);
    shmpi_stream_peer(routine, "source", source, scatter ? all : len, shmpi_g.my_pe);
    size_t block = (len + 15) / 16 * 16, head = FOLD_HEAD;
    char *staging = shmpi_stream_staging(routine, head + shmpi_bytes(routine, block, (size_t)g->n_pes));
    struct fold *job = (struct fold *)(void *)staging;
    *job = (struct fold){reducer, (size_t)g->n_pes, nreduce, block};
    const char *from = (const char *)source + (scatter ? (size_t)g->my_pe * len : 0);
    dissemination(routine, g, stream); /* every source is ready */
    for (int pe = 0; pe < g->n_pes; pe++)
        shmpi_stream_pull(routine, staging + head + (size_t)pe * block, from, len,
                          world(routine, g, pe), stream);
    dissemination(routine, g, stream); /* every block is read: sources may change */
    shmpi_stream_host_func(routine, fold, job, stream);
    shmpi_stream_copy(routine, dest, staging + head, len, stream);
    shmpi_stream_release(routine, staging, stream);
    return 0;
}

/* The reducers: each operator on each type, in the element type. */
#define SHMPI_STREAM_OP_sum(a, b) ((a) + (b))
#define SHMPI_STREAM_OP_prod(a, b) ((a) * (b))
#define SHMPI_STREAM_OP_max(a, b) ((a) > (b) ? (a) : (b))
#define SHMPI_STREAM_OP_min(a, b) ((a) < (b) ? (a) : (b))
#define SHMPI_STREAM_OP_and(a, b) ((a) & (b))
#define SHMPI_STREAM_OP_or(a, b) ((a) | (b))
#define SHMPI_STREAM_OP_xor(a, b) ((a) ^ (b))
#define SHMPI_STREAM_DEFINE_REDUCER(N, T, M, OP, MPI_OP)                                      \
    void shmpi_reducer_##N##_##OP(void *acc, const void *in, size_t n)                        \
    {                                                                                         \
        T *a = acc;                                                                           \
        const T *b = in;                                                                      \
        for (size_t i = 0; i < n; i++)                                                        \
            a[i] = SHMPI_STREAM_OP_##OP(a[i], b[i]);                                          \
    }
SHMPI_STREAM_NATIVE_REDUCTIONS(SHMPI_STREAM_DEFINE_REDUCER)

/* The 16-bit floating types, folded in float and rounded to nearest even. */
static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff, bits;
    if (exp == 0x1f) { /* infinity, NaN */
        bits = sign | 0x7f800000u | man << 13;
    } else if (exp) {
        bits = sign | (exp + 112) << 23 | man << 13;
    } else if (man) { /* subnormal: normalize */
        int shift = 0;
        while (!(man & 0x400)) {
            man <<= 1;
            shift++;
        }
        bits = sign | (uint32_t)(113 - shift) << 23 | (man & 0x3ff) << 13;
    } else {
        bits = sign;
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static uint16_t float_to_half(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    uint16_t sign = (uint16_t)(bits >> 16 & 0x8000);
    uint32_t abs = bits & 0x7fffffffu;
    if (abs >= 0x7f800000u) /* infinity, NaN (kept quiet) */
        return sign | 0x7c00 | (abs > 0x7f800000u ? 0x200 : 0);
    if (abs >= 0x477ff000u) /* rounds to 65520 or more: infinity */
        return sign | 0x7c00;
    if (abs < 0x38800000u) { /* subnormal or zero in half */
        if (abs < 0x33000000u)
            return sign;
        uint32_t man = (abs & 0x7fffff) | 0x800000, shift = 126 - (abs >> 23);
        uint32_t half = man >> shift, rest = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
        half += rest > mid || (rest == mid && (half & 1));
        return sign | (uint16_t)half;
    }
    uint32_t half = ((abs >> 13) - (112u << 10)), rest = abs & 0x1fff;
    half += rest > 0x1000 || (rest == 0x1000 && (half & 1));
    return sign | (uint16_t)half;
}

static float bfloat16_to_float(uint16_t b)
{
    uint32_t bits = (uint32_t)b << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static uint16_t float_to_bfloat16(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    if ((bits & 0x7fffffffu) > 0x7f800000u) /* NaN stays NaN */
        return (uint16_t)(bits >> 16 | 0x40);
    bits += 0x7fff + (bits >> 16 & 1);
    return (uint16_t)(bits >> 16);
}

#define SHMPI_STREAM_DEFINE_HALF_REDUCER(N, T, M, OP, MPI_OP)                                 \
    void shmpi_reducer_##N##_##OP(void *acc, const void *in, size_t n)                        \
    {                                                                                         \
        uint16_t *a = acc;                                                                    \
        const uint16_t *b = in;                                                               \
        for (size_t i = 0; i < n; i++)                                                        \
            a[i] = float_to_##N(SHMPI_STREAM_OP_##OP(N##_to_float(a[i]), N##_to_float(b[i]))); \
    }
SHMPI_STREAM_HALF_REDUCTIONS(SHMPI_STREAM_DEFINE_HALF_REDUCER)
