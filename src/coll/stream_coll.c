/*
 * stream_coll.c - barriers and collectives on CUDA streams (stream_coll.h,
 * docs/device-heap.md, "Streams"), made of the stream messages of stream.c
 * (a count written into a peer's word, a wait on one's own), copies through
 * the peers' IPC mappings and shmpi's reduction kernel (fold.h).
 *
 * Small collectives (the result on a PE at most SHMPI_STREAM_PUSH_MAX
 * bytes) take one round of flags: each PE tells the PEs that write into it
 * that its buffer is free, and broadcast, fcollect and alltoall push each
 * block into its target's dest followed by a message (put_signal style);
 * the target waits for its messages only.  Larger ones run between
 * dissemination barriers: broadcast, fcollect and alltoall pull, each PE
 * in parallel; reductions split, each PE folding 1/n of the elements of
 * every member, then gathering the other parts.  Without the kernel (a
 * driver that cannot load it, long double) reductions fold on the host.
 * Members whose device memory is not mapped here (another machine,
 * SHMPI_DEVICE_IPC=0) are reached through the stream proxy (stream.c).
 */
#include "stream_coll.h"
#include "coll.h"
#include "device_life.h"
#include "stream.h"
#include "proxy.h"
#include "reduce_kernel_ptx.h"

#include <pthread.h>
#include <stdlib.h>

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

/* One round: a message to every other member, then a wait for each. */
static void all_to_all(const char *routine, const struct shmpi_group *g, CUstream stream)
{
    for (int i = 1; i < g->n_pes; i++)
        shmpi_stream_notify(routine, world(routine, g, (g->my_pe + i) % g->n_pes), stream);
    for (int i = 1; i < g->n_pes; i++)
        shmpi_stream_await(routine, world(routine, g, (g->my_pe - i + g->n_pes) % g->n_pes),
                           stream);
}

/* Whether a collective whose result on this PE is `bytes` takes the one
 * round of flags. */
static bool small(size_t bytes)
{
    return bytes <= shmpi_g.env.stream_push_max;
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

/* Whether every member's copy of [addr, addr+len) is mapped here: the push,
 * the kernel and the split reach the members through the mappings; where
 * one is not (another machine, SHMPI_DEVICE_IPC=0, SHMPI_STREAM_PROXY=all),
 * the pulls between barriers, which the stream proxy serves for it. */
static bool all_mapped(const char *routine, const struct shmpi_group *g, const void *addr,
                       size_t len)
{
    for (int pe = 0; pe < g->n_pes; pe++)
        if (shmpi_proxy_needed(addr, len, world(routine, g, pe)))
            return false;
    return true;
}

/* Block `block` of the collective's source on this PE, and where it goes on
 * team PE pe. */
static const char *block_of(enum shmpi_stream_coll kind, const char *from, size_t len, int pe)
{
    return kind == SHMPI_STREAM_ALLTOALL ? from + (size_t)pe * len : from;
}

/* The one round of flags: messages pair up by order (stream.h), so each
 * pair of PEs exchanges the same number in the same order on both sides:
 * an arrival (its dest is free) from each target to each pusher, then the
 * data's message from the pusher after its copy. */
static void push(const char *routine, const struct shmpi_group *g, enum shmpi_stream_coll kind,
                 char *to, const char *from, size_t len, int root, CUstream stream)
{
    int n = g->n_pes, me = g->my_pe;
    bool all = kind != SHMPI_STREAM_BROADCAST; /* everyone pushes to everyone */
    if (all || me != root) { /* arrivals, to every PE that pushes here */
        for (int i = 1; i < n; i++)
            if (all || (me + i) % n == root)
                shmpi_stream_notify(routine, world(routine, g, (me + i) % n), stream);
    }
    if (all || me == root) {
        size_t at = all ? (size_t)me * len : 0; /* where this PE's block goes */
        for (int i = 1; i < n; i++) {
            int pe = (me + i) % n, w = world(routine, g, pe);
            shmpi_stream_await(routine, w, stream); /* its dest is free */
            shmpi_stream_copy(routine, shmpi_stream_peer(routine, "dest", to + at, len, w),
                              block_of(kind, from, len, pe), len, stream);
            shmpi_stream_notify(routine, w, stream);
        }
        if (to + at != block_of(kind, from, len, me))
            shmpi_stream_copy(routine, to + at, block_of(kind, from, len, me), len, stream);
    }
    if (all) {
        for (int i = 1; i < n; i++)
            shmpi_stream_await(routine, world(routine, g, (me - i + n) % n), stream);
    } else if (me != root) {
        shmpi_stream_await(routine, world(routine, g, root), stream);
    }
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
    size_t received = kind == SHMPI_STREAM_BROADCAST ? len : all;
    /* Both buffers must be symmetric: checked on this PE's own mapping. */
    shmpi_stream_peer(routine, "dest", dest, received, shmpi_g.my_pe);
    shmpi_stream_peer(routine, "source", source, kind == SHMPI_STREAM_ALLTOALL ? all : len,
                      shmpi_g.my_pe);
    if (small(received) && all_mapped(routine, g, dest, received)) {
        push(routine, g, kind, to, from, len, root, stream);
        return 0;
    }
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
/* shmpi's reduction kernel (reduce_kernel.cu), loaded once per context;
 * NULL where the driver cannot load it (said once under SHMEM_DEBUG). */
static pthread_mutex_t fold_lock = PTHREAD_MUTEX_INITIALIZER;
static CUcontext fold_context;
static CUmodule fold_module;
static CUfunction fold_function;

/* At finalize (shmpi_device_at_fini: the heap's context current and idle). */
static void unload_fold_kernel(void)
{
    pthread_mutex_lock(&fold_lock);
    if (fold_module)
        shmpi_cuda.module_unload(fold_module);
    fold_module = NULL;
    fold_function = NULL;
    fold_context = NULL;
    pthread_mutex_unlock(&fold_lock);
}

static CUfunction fold_kernel(const char *routine)
{
    CUcontext ctx = NULL;
    shmpi_cuda.ctx_get_current(&ctx);
    pthread_mutex_lock(&fold_lock);
    if (ctx != fold_context) {
        /* Streams are the heap's context's (stream.c refuses others), so the
         * context changes only from one device heap to the next, and finalize
         * unloaded the last one's module. */
        static bool said;
        fold_module = NULL;
        CUresult result = shmpi_cuda.module_load_data(&fold_module, reduce_kernel_ptx);
        fold_function = NULL;
        if (result == SHMPI_CUDA_SUCCESS) {
            shmpi_device_at_fini(unload_fold_kernel);
            result = shmpi_cuda.module_get_function(&fold_function, fold_module, "shmpi_fold");
        }
        if (result != SHMPI_CUDA_SUCCESS && shmpi_g.env.debug && !said) {
            shmpi_warn(routine,
                       "reductions on a stream fold on the host: the CUDA driver cannot load "
                       "shmpi's reduction kernel: %s (CUDA error %d)",
                       shmpi_cuda_error_text(result), result);
            said = true;
        }
        if (result != SHMPI_CUDA_SUCCESS)
            fold_function = NULL;
        fold_context = ctx;
    }
    CUfunction f = fold_function;
    pthread_mutex_unlock(&fold_lock);
    return f;
}

/* A launch of the kernel: out = the fold of in[0..n_in) (count elements),
 * in launches of SHMPI_FOLD_MAX_IN inputs, the later ones accumulating. */
static void launch_fold(const char *routine, CUfunction f, int fold, char *out,
                        char *const *in, int n_in, size_t count, CUstream stream)
{
    if (!count)
        return;
    size_t blocks = (count + 255) / 256;
    for (int k = 0; k < n_in; k += SHMPI_FOLD_MAX_IN) {
        struct shmpi_fold_args args = {.out = out, .count = count, .accumulate = k > 0,
                                       .type = fold >> 3, .op = fold & 7};
        args.n_in = n_in - k < SHMPI_FOLD_MAX_IN ? n_in - k : SHMPI_FOLD_MAX_IN;
        for (int i = 0; i < args.n_in; i++)
            args.in[i] = in[k + i];
        void *params[] = {&args};
        shmpi_cuda_check(routine, "cuLaunchKernel",
                         shmpi_cuda.launch_kernel(f, blocks < 1024 ? (unsigned)blocks : 1024, 1,
                                                  1, 256, 1, 1, 0, stream, params, NULL));
    }
}

/* The host fold, where the kernel is not: the job at the start of pinned
 * staging memory, the members' blocks after it, the result folded into the
 * first. */
struct host_fold {
    int fold;
    size_t n_blocks, nreduce, block; /* block: bytes, a multiple of 16 */
};
/* Where the first block starts: after the job, 16-byte aligned. */
#define FOLD_HEAD ((sizeof(struct host_fold) + 15) / 16 * 16)

static void host_fold(void *data)
{
    struct host_fold *job = data;
    char *first = (char *)data + FOLD_HEAD;
    struct shmpi_fold_args args = {.out = first, .count = job->nreduce, .accumulate = 1,
                                   .type = job->fold >> 3, .op = job->fold & 7};
    for (size_t k = 1; k < job->n_blocks; k += (size_t)args.n_in) {
        args.n_in = 0;
        while (args.n_in < SHMPI_FOLD_MAX_IN && k + (size_t)args.n_in < job->n_blocks) {
            args.in[args.n_in] = first + (k + (size_t)args.n_in) * job->block;
            args.n_in++;
        }
        shmpi_fold_run(&args);
    }
}

static void reduce_on_host(const char *routine, const struct shmpi_group *g, void *dest,
                           const char *from, size_t nreduce, size_t len, int fold,
                           CUstream stream)
{
    size_t block = (len + 15) / 16 * 16, head = FOLD_HEAD;
    char *staging = shmpi_stream_staging(routine, head + shmpi_bytes(routine, block, (size_t)g->n_pes));
    struct host_fold *job = (struct host_fold *)(void *)staging;
    *job = (struct host_fold){fold, (size_t)g->n_pes, nreduce, block};
    dissemination(routine, g, stream); /* every source is ready */
    for (int pe = 0; pe < g->n_pes; pe++)
        shmpi_stream_pull(routine, staging + head + (size_t)pe * block, from, len,
                          world(routine, g, pe), stream);
    dissemination(routine, g, stream); /* every block is read: sources may change */
    shmpi_stream_host_func(routine, host_fold, job, stream);
    shmpi_stream_copy(routine, dest, staging + head, len, stream);
    shmpi_stream_release(routine, staging, stream);
}

/* The members' blocks at `from` (this PE's address) plus `offset`, each
 * through its IPC mapping, in team order. */
static char **members(const char *routine, const struct shmpi_group *g, const char *from,
                      size_t offset, size_t len)
{
    char **in = shmpi_xmalloc(routine, (size_t)g->n_pes * sizeof *in);
    for (int pe = 0; pe < g->n_pes; pe++)
        in[pe] = shmpi_stream_peer(routine, "source", from + offset, len,
                                   world(routine, g, pe));
    return in;
}

int shmpi_stream_reduce(const char *routine, shmem_team_t team, void *dest, const void *source,
                        size_t nreduce, size_t elem_size, int fold, bool scatter,
                        CUstream stream)
{
    const struct shmpi_group *g = SHMPI_TEAM_GROUP(routine, team);
    int n = g->n_pes, me = g->my_pe;
    size_t len = shmpi_bytes(routine, nreduce, elem_size);
    size_t all = shmpi_bytes(routine, len, (size_t)n);
    shmpi_stream_enter(routine, stream, true);
    shmpi_stream_peer(routine, "dest", dest, len, shmpi_g.my_pe);
    shmpi_stream_peer(routine, "source", source, scatter ? all : len, shmpi_g.my_pe);
    const char *from = (const char *)source + (scatter ? (size_t)me * len : 0);
    char *to = dest;
    size_t read = scatter ? all : len; /* of this PE's source, what the members read */
    bool overlaps = to < (const char *)source + read && (const char *)source < to + len;
    CUfunction f = (fold >> 3) != SHMPI_FOLD_LONGDOUBLE ? fold_kernel(routine) : NULL;
    /* The kernel writes dest while the peers read this PE's source: where they
     * overlap, only the split (each PE writing the part only it reads) is safe,
     * and a reduce-scatter has no split. */
    bool split = !scatter && n > 1 && (overlaps || !small(len));
    if (!f || (overlaps && (scatter || n > SHMPI_FOLD_MAX_IN)) ||
        !all_mapped(routine, g, source, read) || !all_mapped(routine, g, dest, len)) {
        reduce_on_host(routine, g, dest, from, nreduce, len, fold, stream);
        return 0;
    }
    if (!split) { /* every PE folds all: one round of flags, or barriers when large */
        char **in = members(routine, g, from, 0, len);
        small(len) ? all_to_all(routine, g, stream) : dissemination(routine, g, stream);
        launch_fold(routine, f, fold, to, in, n, nreduce, stream);
        small(len) ? all_to_all(routine, g, stream) : dissemination(routine, g, stream);
        free(in);
        return 0;
    }
    /* Split: PE p folds elements [p * part, (p + 1) * part) of every member
     * into its dest, then each PE gathers the others' parts. */
    size_t part = (nreduce + (size_t)n - 1) / (size_t)n;
    dissemination(routine, g, stream); /* every source is ready */
    size_t first = part * (size_t)me < nreduce ? part * (size_t)me : nreduce;
    size_t count = nreduce - first < part ? nreduce - first : part;
    if (count) { /* none when nreduce < n: the last PEs have no part */
        char **in = members(routine, g, from, first * elem_size, count * elem_size);
        launch_fold(routine, f, fold, to + first * elem_size, in, n, count, stream);
        free(in);
    }
    dissemination(routine, g, stream); /* every part is folded */
    for (int i = 1; i < n; i++) {
        int pe = (me + i) % n;
        size_t at = part * (size_t)pe < nreduce ? part * (size_t)pe : nreduce;
        size_t bytes = (nreduce - at < part ? nreduce - at : part) * elem_size;
        if (bytes)
            shmpi_stream_copy(routine, to + at * elem_size,
                              shmpi_stream_peer(routine, "dest", to + at * elem_size, bytes,
                                                world(routine, g, pe)),
                              bytes, stream);
    }
    dissemination(routine, g, stream); /* no dest is overwritten while read */
    return 0;
}
