/*
 * shmpi.h - the bottom of shmpi's internal API (src/base): the profiling
 * names, errors, the environment's values, the segments, sets of PEs, the
 * reserved block, the global state and the checks every routine makes.
 *
 * Every internal symbol starts with shmpi_ and is hidden by
 * -fvisibility=hidden; the public names of shmem.h get default visibility
 * because shmem.h is included below inside "visibility push(default)".
 * Every other header of src/ includes this one and declares what its
 * room exports (X.c and X.h); this one includes only headers of src/base
 * (parse.h, heap_alloc.h, team_types.h: the data of the teams and contexts
 * the global state holds), as no layer includes one above it (src/LAYERS,
 * docs/contributing.md, "Layers").
 */
#ifndef SHMPI_INTERNAL_H
#define SHMPI_INTERNAL_H

#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- profiling interface (docs/profiling.md) --------------------------------------
 * Each routine entry of shmpi_routines.h declares NAME with the assembler
 * name pNAME, so the definitions in src/api emit pshmem_X and every call
 * inside the library goes to pshmem_X (a tool does not see internal calls).
 * The file of src/api that defines chapter C of that list says so with
 * `#define SHMPI_DEFINES_C SHMPI_HERE` before including this header; there
 * each entry of chapter C also gets the weak alias NAME of pNAME (GCC checks
 * that pNAME is defined in that file). */
#define SHMPI_STR_(x) #x
#define SHMPI_STR(x) SHMPI_STR_(x)
#define SHMPI_SECOND_(a, b, ...) b
#define SHMPI_SECOND(...) SHMPI_SECOND_(__VA_ARGS__)
#define SHMPI_HERE ~, SHMPI_WEAK_ALIAS
#define SHMPI_NO_ALIAS(NAME)
#define SHMPI_WEAK_ALIAS(NAME)                                                                \
    extern __typeof__(NAME) shmpi_weak_##NAME __asm__(SHMPI_STR(__USER_LABEL_PREFIX__) #NAME) \
        __attribute__((weak, alias("p" #NAME)));
#define SHMPI_ALIAS_IF_(CHAPTER, NAME)                                                        \
    SHMPI_SECOND(SHMPI_DEFINES_##CHAPTER, SHMPI_NO_ALIAS, ~)(NAME)
#define SHMPI_ALIAS_IF(CHAPTER, NAME) SHMPI_ALIAS_IF_(CHAPTER, NAME)
#define SHMPI_FN_P(RET, NAME, PARAMS)                                                         \
    RET(NAME) PARAMS __asm__(SHMPI_STR(__USER_LABEL_PREFIX__) "p" #NAME);
#define SHMPI_FN(RET, NAME, PARAMS)                                                           \
    SHMPI_FN_P(RET, NAME, PARAMS) SHMPI_ALIAS_IF(SHMPI_CHAPTER, NAME)
/* Entries that carry their call (SHMPI_FN_CALL, SHMPI_FN_DO): src/api/listed.c
 * defines them and their weak aliases. */
#define SHMPI_FN_CALL(RET, NAME, PARAMS, CALL) SHMPI_FN_P(RET, NAME, PARAMS)
#define SHMPI_FN_DO(NAME, PARAMS, CALL) SHMPI_FN_P(void, NAME, PARAMS)

#pragma GCC visibility push(default)
#include "shmem.h"
#include "shmemx.h"
#pragma GCC visibility pop

#define SHMPI_LIKELY(x) __builtin_expect(!!(x), 1)
#define SHMPI_UNLIKELY(x) __builtin_expect(!!(x), 0)
/* For the few hot paths whose point is to be inline in the API routine. */
#define SHMPI_ALWAYS_INLINE inline __attribute__((always_inline))

/* ---- error: one way to report misuse ---------------------------------------------
 * Messages read "shmpi: PE n: ROUTINE: what is wrong", then the whole job
 * ends through MPI_Abort with status 1. */
_Noreturn void shmpi_abort(const char *routine, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A collective's argument that every member passes alike and is wrong (a
 * PE_root out of range): the `speaker` (the team's first PE) says it and
 * ends the job at once; the others wait 2 s for that and say their own
 * line only if they still run.  Not collective: no PE waits for another. */
_Noreturn void shmpi_abort_together(const char *routine, bool speaker, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Collective over shmpi_g.comm, at a point every PE reaches (start-up):
 * `problem` is what this PE found wrong, or NULL.  When every PE found the
 * same problem, PE 0 prints it once and every PE exits with status 1
 * without MPI_Abort; when only some did, each of those reports its own
 * through shmpi_abort.  Returns when no PE found any. */
void shmpi_end_if_any(const char *routine, const char *problem);
/* Prints a warning with the same prefix ("warning: " before the routine);
 * a long one is written as sentences, one a line. */
void shmpi_warn(const char *routine, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same line from a thread other than the program's, which may be inside
 * a blocking MPI call (depart.c's watch thread); then MPI_Abort. */
_Noreturn void shmpi_fail_from_thread(const char *routine, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* For a PE that is a job of its own (a singleton MPI): the line, if `say`, then
 * MPI_Finalize where shmpi started MPI and exit(1): no MPI_Abort banner. */
_Noreturn void shmpi_fail_alone(bool say, const char *routine, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The errors the inline checks below report (out of line: they are cold). */
void shmpi_not_ready(const char *routine);
void shmpi_pe_fail(const char *routine, int pe, int n_pes);
/* An address that no symmetric segment holds (shmpi_symm_fail): `hook`,
 * registered by a layer above (the device heap), may end the job with its
 * own message before the common one. */
void shmpi_on_not_symmetric(void (*hook)(const char *routine, const void *addr, size_t len));
/* malloc that ends the job naming `routine` when memory is exhausted. */
void *shmpi_xmalloc(const char *routine, size_t size);

/* ---- env: every environment variable shmpi reads ------------------------------------ */
/* How registration hands a VMM allocation's descriptor to the PEs of the
 * machine (SHMPI_FD_PASSING, src/device/vmm.c). */
enum shmpi_fd_passing { SHMPI_FD_AUTO, SHMPI_FD_PIDFD, SHMPI_FD_SOCKET };

struct shmpi_env {
    size_t symmetric_size; /* SHMEM_SYMMETRIC_SIZE */
    bool debug;            /* SHMEM_DEBUG */
    bool version;          /* SHMEM_VERSION */
    bool info;             /* SHMEM_INFO */
    bool mpi_only;         /* SHMPI_MPI_ONLY: no node-local shared-memory path */
    bool share_static;     /* SHMPI_SHARE_STATIC: static data in shared memory too */
    int pseudo_node_size;  /* SHMPI_PSEUDO_NODE_SIZE: split nodes into groups of N PEs */
    long progress_interval_us; /* SHMPI_PROGRESS_THREAD: -1 auto, 0 = off, else the
                                  polling interval of shmpi's progress thread */
    int yield_waits;       /* SHMPI_YIELD_WAITS: -1 auto (when crowded), 0, 1 */
    long finalize_grace_ms; /* SHMPI_FINALIZE_GRACE_MS (src/runtime/runtime.c) */
    long poll_us;          /* SHMPI_POLL_US: -1 auto (src/wait/progress.c) */
    long tree_min_pes;     /* SHMPI_TREE_MIN_PES: -1 auto, 0 never (coll_shm.c) */
    unsigned amo_ops;      /* SHMPI_AMO_OPS: bit 1 << op for each enum shmpi_amo_op the
                              program's AMO routines may use (src/ops/amo_ops.c) */
    const char *amo_ops_text; /* its text, for messages */
    const char *amo_window_ops; /* the window's which_accumulate_ops hint for amo_ops
                                   (shmpi_amo_window_ops, read by mpi_rma.c) */
    size_t device_heap_size; /* SHMPI_DEVICE_HEAP_SIZE: 0 = no device heap */
    bool device_ipc;       /* SHMPI_DEVICE_IPC: map the machine's device heaps (device_heap.c) */
    size_t device_chunk;   /* SHMPI_DEVICE_CHUNK: bytes a piece (device_net.c) */
    const char *cuda_library; /* SHMPI_CUDA_LIBRARY (cuda_driver.c) */
    int fd_passing;        /* SHMPI_FD_PASSING: enum shmpi_fd_passing (vmm.c) */
    int stream_queue;      /* SHMPI_STREAM_QUEUE: the stream proxy's slots (proxy.c) */
    bool stream_proxy_all; /* SHMPI_STREAM_PROXY=all: every other PE through the proxy */
    size_t stream_push_max; /* SHMPI_STREAM_PUSH_MAX: small collectives on a stream
                               (stream_coll.c) */
    bool order_check;      /* SHMPI_ORDER_CHECK (diagnose.c) */
    long hang_report_s;    /* SHMPI_HANG_REPORT: 0 = no report (diagnose.c) */
    bool status;           /* SHMPI_STATUS: the status page shmpi_info reads (status.c) */
    long snapshot_signal;  /* SHMPI_SNAPSHOT_SIGNAL: its number, 0 = none (status.c) */
};
#include "parse.h"

/* ---- segments and address translation ---------------------------------------------
 * Symmetric memory is two segments per PE: the symmetric heap and the
 * program's static data (.data+.bss).  A symmetric address is translated by
 * its offset within the caller's own segment, which is the same on every
 * PE: the target's mapped segment (shape.h) plus that offset, and the MPI
 * displacement of that offset (mpi_rma.h). */
enum shmpi_segment_id { SHMPI_SEG_HEAP, SHMPI_SEG_DATA, SHMPI_NSEGS };

struct shmpi_segment {
    char *base;              /* this PE's segment */
    size_t size;             /* same on every PE (checked at init) */
};

/* Where a symmetric object lives on a target PE. */
struct shmpi_target {
    MPI_Aint disp;   /* its displacement in the MPI window (mpi_rma.h) */
    char *mapped;    /* where this PE can load and store it directly, or NULL */
};

/* Returns the segment holding [addr, addr+len), or -1 if none. */
static inline int shmpi_symm_segment(const void *addr, size_t len);

/* A set of PEs, one atomic bit each (pe_set.c): the PEs a flush or a fence
 * must reach. */
struct shmpi_pe_set {
    _Atomic uint64_t *bits;
    size_t words;
};
void shmpi_pe_set_init(struct shmpi_pe_set *set, const char *what); /* empty, all PEs */
void shmpi_pe_set_fini(struct shmpi_pe_set *set);
static inline void shmpi_pe_set_add(struct shmpi_pe_set *set, int pe)
{
    _Atomic uint64_t *word = &set->bits[pe / 64];
    uint64_t bit = (uint64_t)1 << (pe % 64);
    if (!(atomic_load_explicit(word, memory_order_relaxed) & bit))
        atomic_fetch_or_explicit(word, bit, memory_order_relaxed);
}
static inline bool shmpi_pe_set_has(const struct shmpi_pe_set *set, int pe)
{
    return atomic_load_explicit(&set->bits[pe / 64], memory_order_relaxed) >> (pe % 64) & 1;
}
/* The PEs at distance 2^k either way from `me` in a ring of n (k = 0, 1,
 * ...; each once, never `me`), nearest first: through them shmpi's own
 * messages reach every PE in O(log n) steps (finalize's handshake, the
 * departure marks, the order check).  Writes them to partner[], which holds
 * SHMPI_RING_PARTNERS_MAX; returns how many. */
#define SHMPI_RING_PARTNERS_MAX 62
static inline int shmpi_ring_partners(int me, int n, int *partner)
{
    int count = 0;
    for (int step = 1; step < n; step *= 2)
        for (int side = -1; side <= 1; side += 2) {
            int pe = ((me + side * step) % n + n) % n;
            bool listed = pe == me;
            for (int i = count - 1; i >= 0 && !listed; i--)
                listed = partner[i] == pe; /* both ways at once, or wrapped round */
            if (!listed)
                partner[count++] = pe;
        }
    return count;
}

/* ---- the data of teams and contexts (the global state holds the predefined ones) ---- */
#include "team_types.h"

/* ---- RMA core: every typed put/get routine lands here ------------------------------ */
enum shmpi_completion {
    SHMPI_BLOCKING,   /* returns when the source (put) or destination (get) is usable */
    SHMPI_NBI         /* completes at the next quiet */
};
/* nelems * elem_size, aborting naming `routine` if it overflows (inline:
 * every typed transfer calls it). */
_Noreturn void shmpi_bytes_fail(const char *routine, size_t nelems, size_t elem_size);
static inline size_t shmpi_bytes(const char *routine, size_t nelems, size_t elem_size)
{
    size_t bytes;
    if (SHMPI_UNLIKELY(__builtin_mul_overflow(nelems, elem_size, &bytes)))
        shmpi_bytes_fail(routine, nelems, elem_size);
    return bytes;
}

/* ---- point-to-point comparison ------------------------------------------------------- */
/* Aborts naming `routine` unless cmp is one of SHMEM_CMP_*. */
void shmpi_check_cmp(const char *routine, int cmp);
/* Whether `now` compares with `value` as `cmp` (a checked SHMEM_CMP_*) asks,
 * for the uint64_t words of the signal routines. */
static inline bool shmpi_compare_u64(uint64_t now, int cmp, uint64_t value)
{
    switch (cmp) {
    case SHMEM_CMP_EQ: return now == value;
    case SHMEM_CMP_NE: return now != value;
    case SHMEM_CMP_GT: return now > value;
    case SHMEM_CMP_GE: return now >= value;
    case SHMEM_CMP_LT: return now < value;
    default: return now <= value;
    }
}

/* ---- heap ------------------------------------------------------------------------------------ */
#include "heap_alloc.h"
/* The first block of every heap belongs to shmpi: the node barrier
 * (barrier.c) and the teams' slots (coll_shm.c).  It is allocated first,
 * so it sits at the same offset (shmpi_g.heap_reserved_off) on every PE,
 * and the heap is this much larger than SHMEM_SYMMETRIC_SIZE. */
#define SHMPI_TEAM_SLOTS 32        /* teams with shared-memory collectives per PE */
#define SHMPI_SLOT_RING 32          /* scratch areas per slot, used in turn (coll_shm.c) */
/* Bytes per scratch area: the most a PE contributes to a one-event
 * collective; beyond, copies go straight between the symmetric buffers
 * (two events), which from about this size on beat both scratch and MPI
 * (benchmarks/RESULTS.md, "Measurements behind design constants").  32
 * areas of 2 KiB in 32 slots: 2 MiB per PE, of which only the pages of
 * slots in use are ever touched. */
#define SHMPI_SLOT_SCRATCH 2048
/* Dissemination barriers (coll_shm.c): in round k a PE stores the event
 * number in its flag k, which the PE 2^k after it polls; a flag per cache
 * line, so a PE's next round does not disturb a reader of the last.
 * 16 rounds serve up to 65536 PEs. */
#define SHMPI_BARRIER_ROUNDS 16
struct shmpi_round_flag {
    _Alignas(64) atomic_uint_least64_t event;
};
struct shmpi_node_barrier {         /* barrier.c */
    _Alignas(64) atomic_uint arrived; /* flat: the leader's only; own cache lines, so */
    _Alignas(64) atomic_uint generation; /* arrivals do not disturb the waiters' polling */
    struct shmpi_round_flag round[SHMPI_BARRIER_ROUNDS]; /* dissemination: every PE's */
};
#define SHMPI_LINE_DATA 56
struct shmpi_slot_line {            /* up to SHMPI_LINE_DATA bytes of an event and its */
    _Alignas(64) char data[SHMPI_LINE_DATA]; /* number, in one cache line (coll_shm.c) */
    atomic_uint_least64_t stamp;
};
struct shmpi_team_slot {
    _Alignas(64) atomic_uint_least64_t seq; /* the last event its owner arrived at */
    struct shmpi_round_flag round[SHMPI_BARRIER_ROUNDS]; /* tree barrier */
    struct shmpi_slot_line line[SHMPI_SLOT_RING];
    _Alignas(64) char scratch[SHMPI_SLOT_RING][SHMPI_SLOT_SCRATCH];
};
/* A wait's record (diagnose.c): words, so that other PEs read it with plain
 * loads (or one MPI_Get) under a sequence count. */
#define SHMPI_WAIT_RECORD_WORDS 16
struct shmpi_wait_record {
    _Alignas(64) _Atomic uint64_t word[SHMPI_WAIT_RECORD_WORDS];
};
/* shmemx_team_init's rendezvous (coll/team_init.c): a slot per id whose
 * team is not made yet, issued by this PE or hand-chosen and hashed here;
 * updated by AMOs only. */
#define SHMPI_RENDEZVOUS_SLOTS 128
struct shmpi_rendezvous {
    uint64_t id;   /* the id's key; 0 or a tombstone: free (claimed by CAS, freed by index 0) */
    uint64_t root; /* (npes << 32) | (world PE + 1) of the caller with index 0 */
};
struct shmpi_reserved {
    struct shmpi_node_barrier node_barrier;
    struct shmpi_team_slot team[SHMPI_TEAM_SLOTS];
    /* A PE that left the job while this one may wait for it, written by
     * that PE (depart.c): (its finalize phase << 32) | (its PE + 1). */
    _Alignas(64) _Atomic uint64_t departed;
    /* What this PE waits in, while a wait lasts (diagnose.c). */
    struct shmpi_wait_record wait_record;
    /* World PE + 1 of the caller that claims or frees a slot, 0: none. */
    _Alignas(64) uint64_t rendezvous_lock;
    struct shmpi_rendezvous rendezvous[SHMPI_RENDEZVOUS_SLOTS];
};
#define SHMPI_HEAP_RESERVED sizeof(struct shmpi_reserved)
/* The alignment of shmem_malloc: any (the allocator's own minimum); shmem_align's
 * must be a power of two, and 0 is not one. */
#define SHMPI_ANY_ALIGN 1

/* ---- global state ----------------------------------------------------------------------------- */
struct shmpi_global {
    atomic_int init_state;       /* SHMPI_STATE_* */
    bool mpi_started_here;       /* we called MPI_Init_thread, so we finalize */
    int init_count;              /* inits not yet matched by a finalize */
    int thread_level;            /* SHMEM_THREAD_* provided */
    int my_pe, n_pes;
    MPI_Comm comm;               /* duplicate of MPI_COMM_WORLD */
    struct shmpi_segment seg[SHMPI_NSEGS];
    struct shmpi_heap heap;      /* allocator state for the heap segment */
    struct shmpi_env env;
    struct shmpi_team team_world, team_shared;
    /* SHMEMX_TEAM_NODE, the PEs of this machine: team_world or team_shared
     * where that is the machine, else team_machine (team.c). */
    struct shmpi_team *team_node, team_machine;
    /* SHMEMX_TEAM_SAME_MYPE_NODE, the PEs whose index on their machine is
     * this PE's: team_world where every machine has one PE, else
     * team_same_index (team.c). */
    struct shmpi_team *team_same_mype_node, team_same_index;
    struct shmpi_ctx ctx_default;
    atomic_int mpi_pending_any;  /* some context has MPI operations to flush */
    atomic_int amo_deferred;     /* AMOs wait in the deferred queue (amo_deferred.c) */
    long page_size;
    size_t heap_align;           /* largest alignment of the heap base on every PE */
    size_t heap_reserved_off;    /* offset of the struct shmpi_reserved in each heap */
    bool yield_waits;            /* completion waits yield (flush.c) */
    uint64_t poll_ns;            /* waits sleep between polls after this long (progress.c) */
    uint64_t sleep_max_ns;       /* the longest of those sleeps */
    bool poll_quietly;           /* no PE needs this one inside MPI (progress.c) */
    int finalize_phase;          /* shmem_finalize's step now (depart.c), 0: none */
};
enum { SHMPI_STATE_UNINIT = 0, SHMPI_STATE_READY = 1, SHMPI_STATE_FINALIZED = 2 };
extern struct shmpi_global shmpi_g;

/* A blocking MPI call, which looks for no departure while it waits (a
 * blocking collective on the MPI path): depart.c's watch thread reads this
 * record and ends the job if the call still waits, a grace period on, for a
 * PE whose departure mark (struct shmpi_reserved's `departed`) it finds.
 * Plain stores on the call's path; atomic increments only under
 * SHMEM_THREAD_MULTIPLE, where threads may block at once. */
struct shmpi_blocking {
    atomic_ulong begun, ended;             /* inside a blocking call while they differ */
    const struct shmpi_team *_Atomic team; /* whom the call needs (NULL: all PEs) */
    atomic_bool finalize_may_meet;         /* a barrier over all PEs (see shmpi_waiter) */
    const char *_Atomic routine;
};
extern struct shmpi_blocking shmpi_blocking;
/* A mutex taken only where the program's threads may call shmpi at once
 * (SHMEM_THREAD_MULTIPLE); below that level one thread at a time calls it,
 * and the lock would cost the single-threaded paths time for nothing. */
static inline bool shmpi_threads_concurrent(void)
{
    return SHMPI_UNLIKELY(shmpi_g.thread_level == SHMEM_THREAD_MULTIPLE);
}
static inline void shmpi_mt_lock(pthread_mutex_t *m)
{
    if (shmpi_threads_concurrent())
        pthread_mutex_lock(m);
}
static inline void shmpi_mt_unlock(pthread_mutex_t *m)
{
    if (shmpi_threads_concurrent())
        pthread_mutex_unlock(m);
}
static inline void shmpi_blocking_count(atomic_ulong *counter)
{
    if (shmpi_threads_concurrent())
        atomic_fetch_add_explicit(counter, 1, memory_order_release);
    else
        atomic_store_explicit(counter, atomic_load_explicit(counter, memory_order_relaxed) + 1,
                              memory_order_release);
}
static inline void shmpi_blocking_begin(const char *routine, const struct shmpi_team *team,
                                        bool finalize_may_meet)
{
    atomic_store_explicit(&shmpi_blocking.team, team, memory_order_relaxed);
    atomic_store_explicit(&shmpi_blocking.finalize_may_meet, finalize_may_meet,
                          memory_order_relaxed);
    atomic_store_explicit(&shmpi_blocking.routine, routine, memory_order_relaxed);
    shmpi_blocking_count(&shmpi_blocking.begun);
}
static inline void shmpi_blocking_end(void)
{
    shmpi_blocking_count(&shmpi_blocking.ended);
}
/* Aborts unless the library is initialized (every routine but init calls it). */
static inline void shmpi_check_ready(const char *routine)
{
    if (SHMPI_UNLIKELY(atomic_load_explicit(&shmpi_g.init_state, memory_order_relaxed) !=
                       SHMPI_STATE_READY)) {
        shmpi_not_ready(routine);
    }
}
/* The same, for a routine that writes its result through `out`, which
 * must not be NULL (`name`: the parameter, for the error). */
static inline void shmpi_check_ready_out(const char *routine, const void *out, const char *name)
{
    shmpi_check_ready(routine);
    if (!out)
        shmpi_abort(routine, "%s is NULL", name);
}

static inline int shmpi_symm_segment(const void *addr, size_t len)
{
    for (int s = 0; s < SHMPI_NSEGS; s++) {
        const struct shmpi_segment *seg = &shmpi_g.seg[s];
        uintptr_t off = (uintptr_t)addr - (uintptr_t)seg->base;
        if (off < seg->size && len <= seg->size - off)
            return s;
    }
    return -1;
}

void shmpi_symm_fail(const char *routine, const void *addr, size_t len, int pe);

#endif /* SHMPI_INTERNAL_H */
