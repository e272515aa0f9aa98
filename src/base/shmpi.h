/*
 * shmpi.h - the internal API of shmpi, shared by src/api (the spec's
 * routines, thin) and src/core (the machinery).
 *
 * Every internal symbol starts with shmpi_ and is hidden by
 * -fvisibility=hidden; the public names of shmem.h get default visibility
 * because shmem.h is included below inside "visibility push(default)".
 * A module with a header of its own (X.c and X.h: team, ctx, handle,
 * pe_index, team_comm, runtime, heap, barrier, window, amo, coll, ...)
 * declares there what it exports; this header includes team.h and ctx.h,
 * whose types the global state holds.
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
    long finalize_grace_ms; /* SHMPI_FINALIZE_GRACE_MS (src/core/runtime.c) */
    long poll_us;          /* SHMPI_POLL_US: -1 auto (src/core/progress.c) */
    long tree_min_pes;     /* SHMPI_TREE_MIN_PES: -1 auto, 0 never (coll_shm.c) */
    unsigned amo_ops;      /* SHMPI_AMO_OPS: bit 1 << op for each enum shmpi_amo_op the
                              program's AMO routines may use (src/core/amo_ops.c) */
    const char *amo_ops_text; /* its text, for messages */
    const char *amo_window_ops; /* the window's which_accumulate_ops hint for amo_ops
                                   (shmpi_amo_window_ops, read by mpi_rma.c) */
    size_t device_heap_size; /* SHMPI_DEVICE_HEAP_SIZE: 0 = no device heap */
    const char *cuda_library; /* SHMPI_CUDA_LIBRARY (cuda_driver.c) */
    bool order_check;      /* SHMPI_ORDER_CHECK (diagnose.c) */
    long hang_report_s;    /* SHMPI_HANG_REPORT: 0 = no report (diagnose.c) */
};
#include "parse.h"
/* Reads all variables into shmpi_g.env (collective at start-up); a bad
 * value ends the job with one clear message (shmpi_end_if_any). */
void shmpi_env_read(void);
/* This machine's memory in bytes (0 if unknown). */
size_t shmpi_machine_memory(void);
/* SHMEM_INFO text: every variable, its value and meaning, to stdout. */
void shmpi_env_print_info(void);

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

/* Translates [addr, addr+len) on PE `pe` (a world PE).  Aborts naming
 * `routine` if the range is not inside one symmetric segment. */
static inline struct shmpi_target shmpi_symm_target(const char *routine, const void *addr,
                                                    size_t len, int pe);
/* Returns the segment holding [addr, addr+len), or -1 if none. */
static inline int shmpi_symm_segment(const void *addr, size_t len);

/* ---- progress: how waiting loops keep MPI moving --------------------------------- */
/* Drives the MPI progress engine once (RMA aimed at this PE completes only
 * while it is inside MPI, see docs/design.md, "Progress and waiting");
 * returns whether it served AMOs other PEs sent (amo_message.c). */
bool shmpi_progress(void);
/* The same entry into MPI, testing *req in it (*done: whether it completed;
 * req NULL: a probe alone), so that a wait for a request serves AMO
 * messages and RMA at the cost of one MPI call a turn. */
bool shmpi_progress_test(MPI_Request *req, int *done);
/* What a wait does when AMOs wait in amo_deferred.c's queue
 * (shmpi_g.amo_deferred): `drain` completes them (set at start-up). */
void shmpi_progress_on_deferred(void (*drain)(void));
/* The server of messages from other PEs (serve.c), where AMOs are
 * messages: shmpi_serve_start posts the receive of the next message (at
 * most SHMPI_SERVE_MAX_BYTES) on `comm`, which it keeps; from then on every
 * wait tests it, and `handle` gets each message that arrived and the PE
 * that sent it.  shmpi_serve_test: shmpi_progress_test's entry into MPI
 * there (the wait's *req and the messages in one call); whether it served
 * any.  shmpi_serve_stop frees `comm`. */
#define SHMPI_SERVE_MAX_BYTES 64
void shmpi_serve_start(MPI_Comm comm, int bytes, void (*handle)(const void *message, int origin));
bool shmpi_serve_test(MPI_Request *req, int *done);
void shmpi_serve_stop(void);
/* Enters MPI's progress engine once (the entry of shmpi_progress when
 * there are no AMO messages to serve). */
void shmpi_progress_probe(void);
/* Waits for a collective's request as MPI's blocking form would, spinning
 * (a CPU per PE), and serving AMO messages and RMA on every turn: the
 * collectives' wait where AMOs are messages (coll.c, barrier.c). */
void shmpi_wait_spinning(MPI_Request *req);
/* What a wait waits in, for the other PEs to read (diagnose.c).  0: inferred
 * (in a collective when the wait needs a team or a PE, else for MPI). */
enum shmpi_waits_in {
    SHMPI_WAITS_IN_COLLECTIVE = 1, /* team (NULL: all PEs), routine */
    SHMPI_WAITS_ON_MEMORY,         /* wait_until, test, signal waits: addr */
    SHMPI_WAITS_ON_LOCK,           /* shmem_set_lock: addr */
    SHMPI_WAITS_FOR_MPI,           /* completion of this PE's own MPI operations */
};
/* One iteration of a waiting loop: drives progress, after a few tries
 * yields the CPU so PEs of a crowded machine still move, and once the wait has
 * lasted shmpi_g.poll_ns sleeps between tries.  `*w` starts zeroed, apart
 * from what the loop says about itself; declare it with SHMPI_WAITER, which
 * takes its record back when the loop ends. */
struct shmpi_waiter {
    unsigned spins;      /* turns so far */
    unsigned looks;      /* quiet turns (shmpi_g.poll_quietly) so far */
    uint64_t since_ns;   /* when the loop began to yield */
    bool mpi_request;    /* it waits for an MPI request of this PE's own */
    bool calls_mpi;      /* the loop enters MPI itself on every turn (MPI_Test) */
    /* Whom the wait needs (the order check of diagnose.c, the watch of
     * depart.c).  SHMPI_NEEDS_NOBODY: not checked. */
    enum { SHMPI_NEEDS_NOBODY, SHMPI_NEEDS_TEAM, SHMPI_NEEDS_PE } needs;
    const struct shmpi_team *team; /* the team of a collective (NULL: all PEs) */
    int pe;                        /* SHMPI_NEEDS_PE: this world PE */
    bool finalize_may_meet;        /* a barrier over all PEs: shmem_finalize's pairs with it */
    /* What it waits in (diagnose.c). */
    unsigned char waits_in;        /* enum shmpi_waits_in, 0: inferred */
    const char *routine;           /* NULL: shmpi_depart_routine */
    const void *addr;              /* SHMPI_WAITS_ON_MEMORY, _ON_LOCK */
    bool published;                /* its record is in this PE's reserved block */
    unsigned long serial;          /* which wait of this PE it is */
    uint64_t next_look_ns;         /* when it next looks at the PEs it needs */
    int suspect;                   /* PE + 1 of one seen waiting in another collective */
    unsigned suspect_looks;        /* looks that saw it there */
    bool for_blocked_call;         /* the watch thread's, for a blocking MPI call (depart.c) */
};
/* The record of a wait that lasts (its first slow turn), its heartbeat and
 * checks (later slow turns: order of collectives, every PE waiting), and
 * its end.  Only waits that already yield pay for any of it. */
void shmpi_diag_publish(struct shmpi_waiter *w);
void shmpi_diag_tick(struct shmpi_waiter *w, uint64_t waited_ns);
void shmpi_diag_unpublish(struct shmpi_waiter *w);
static inline void shmpi_waiter_end(struct shmpi_waiter *w)
{
    if (__builtin_expect(w->published, 0))
        shmpi_diag_unpublish(w);
}
#define SHMPI_WAITER(name) struct shmpi_waiter name __attribute__((cleanup(shmpi_waiter_end)))
void shmpi_backoff(struct shmpi_waiter *w);
/* The same for a wait for *req: the turn's entry into MPI tests it; the
 * turn ends at once when *done. */
void shmpi_backoff_test(struct shmpi_waiter *w, MPI_Request *req, int *done);
/* ---- departures (depart.c) ---- */
/* The routine named when a wait finds that a PE it needs left. */
extern _Thread_local const char *shmpi_depart_routine;
/* Arms the exit paths, which call `finalize` (shmpi_finalize, runtime.c). */
void shmpi_depart_init(void (*finalize)(void));
/* Marks this PE's partners once a finalize phase lasts (backoff calls it). */
void shmpi_depart_finalizing(void);
/* Starts finalize phase 1 (its world barrier) or 2. */
void shmpi_depart_phase(int phase);
/* Phase 2: all PEs are in shmem_finalize. */
void shmpi_depart_finalize(void);
/* The name finalize's waits show: shmem_finalize, or how it was reached (at
 * exit, in the program's MPI_Finalize). */
const char *shmpi_depart_finalize_routine(void);
/* Waits for an MPI request like shmpi_wait_request, checking `w`'s needs. */
void shmpi_wait_request_needing(MPI_Request *req, const struct shmpi_waiter *w);
/* Sets shmpi_g.poll_ns (init, after the job's shape is known). */
void shmpi_progress_init(void);
/* Waits for an MPI request the same way (progress + yield). */
void shmpi_wait_request(MPI_Request *req);
/* A duplicate of comm, made with MPI_Comm_idup and waited for like any
 * request (MPI_Comm_dup spins: docs/design.md, "Start-up"); the result is
 * only returned once it is usable. */
MPI_Comm shmpi_comm_dup(MPI_Comm comm);
/* Waits for a barrier's request: spins in MPI_Test for up to spin_ns (as
 * fast as a blocking MPI_Barrier for short waits), then waits like any
 * waiting loop (shmpi_backoff: yields, sleeps after SHMPI_POLL_US), so a
 * long wait does not hold a CPU. */
void shmpi_wait_barrier(MPI_Request *req, uint64_t spin_ns, const struct shmpi_waiter *needing);
/* Completion of MPI RMA (flush.c).  In yield mode (shmpi_g.yield_waits)
 * each first waits, yielding, for a probe to the target, so an origin does
 * not spin in MPI_Win_flush while the PE it waits for needs its core. */
void shmpi_flush(int pe);                   /* MPI_Win_flush */
/* Reads a word with MPI_NO_OP (atomic with the window's compare-and-swaps)
 * and waits for the value; `result` gets the word's bytes at its start. */
void shmpi_fetch_word(int pe, MPI_Aint disp, MPI_Datatype type, uint64_t *result);
/* MPI_Win_flush after an accumulate on the word at `disp`: the probe reads
 * that word (MPICH answers it after the operation; the flush completes the
 * operation either way). */
void shmpi_flush_word(int pe, MPI_Aint disp, MPI_Datatype type);
void shmpi_flush_all(void);                 /* MPI_Win_flush_all */
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
/* Empties the set: start(pe, result, req) makes one request for each PE it
 * held (result: 8 bytes it may receive), and each is waited for
 * (shmpi_wait_request), 64 PEs at a time. */
void shmpi_pe_set_wait_each(struct shmpi_pe_set *set,
                            void (*start)(int pe, uint64_t *result, MPI_Request *req));
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
/* Records a PE with MPI operations for shmpi_flush_all to wait for. */
void shmpi_flush_mark(int pe);
/* Whether every PE passed the same value (collective over shmpi_g.comm;
 * meet.c). */
bool shmpi_same_on_all_pes(unsigned long value);
/* Decides shmpi_g.yield_waits (init, after the job's shape). */
void shmpi_flush_init(void);
void shmpi_flush_fini(void);
/* The progress thread (SHMPI_PROGRESS_THREAD; shmpi_job_progress_thread):
 * started at the end of init, stopped before finalize frees the window.
 * Whether it may run, from the environment alone (before MPI_Init: it
 * needs MPI_THREAD_MULTIPLE). */
bool shmpi_own_threads_may_call_mpi(void);
void shmpi_progress_thread_start(void);
void shmpi_progress_thread_stop(void);

/* ---- teams and contexts: team.h, ctx.h (the global state holds the predefined ones) ---- */
#include "team.h"
#include "ctx.h"

/* ---- RMA core: every typed put/get routine lands here ------------------------------ */
enum shmpi_completion {
    SHMPI_BLOCKING,   /* returns when the source (put) or destination (get) is usable */
    SHMPI_NBI         /* completes at the next quiet */
};
void shmpi_put(const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
               size_t nbytes, int pe, enum shmpi_completion completion);
void shmpi_get(const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
               size_t nbytes, int pe, enum shmpi_completion completion);
/* Strided: nblocks blocks of bsize elements (elem_size bytes each); block
 * k goes from source + k*sst elements to dest + k*dst elements.  iput and
 * iget pass bsize 1. */
void shmpi_iput(const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
                ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, size_t elem_size,
                int pe);
void shmpi_iget(const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
                ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, size_t elem_size,
                int pe);
/* Completes every operation of the context (quiet); fence only orders
 * them, which shmpi does by completing them. */
void shmpi_quiet(struct shmpi_ctx *ctx);
/* Completes the context's operations to the listed PEs (team-relative). */
void shmpi_pe_quiet(const char *routine, struct shmpi_ctx *ctx, const int *target_pes,
                    size_t npes);
/* Completes the operations of every context (barrier_all, finalize). */
void shmpi_quiet_all(void);
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

/* ---- PEs meet (meet.c): barriers over a communicator ---------------------------- */
/* Its communicator, where AMOs are messages (barrier.c's start-up, finalize). */
void shmpi_meet_init(void);
void shmpi_meet_fini(void);
/* Barrier over `comm` that drives RMA progress and yields while it waits. */
void shmpi_barrier_comm(MPI_Comm comm, const struct shmpi_waiter *needing);
/* The same, spinning in MPI_Test for up to spin_ns first where some
 * machine runs more PEs than CPUs (SHMPI_LEADERS_SPIN_NS when not crowded:
 * the node leaders' barrier, barrier.c). */
#define SHMPI_LEADERS_SPIN_NS (200 * 1000)
void shmpi_barrier_spin(MPI_Comm comm, uint64_t spin_ns, const struct shmpi_waiter *needing);
/* Barrier over all PEs (shared memory within a node); no quiet. */
void shmpi_sync_world(const char *routine);
/* The PEs world_pe[0..n-1] (this one among them) meet, serving AMO
 * messages while they wait, before a blocking MPI call that has no
 * nonblocking form (MPI_Comm_create_group): its first members would
 * otherwise leave the AMOs aimed at them to the progress thread until the
 * last one came.  Only where AMOs are messages; elsewhere nothing. */
void shmpi_barrier_members(const int *world_pe, int n);
/* shmem_barrier_all: quiet, then shmpi_sync_world. */
void shmpi_barrier_all(const char *routine);

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
/* PE pe's record on the wait board (window.c), or NULL where the job has
 * none: then it is in pe's reserved block. */
struct shmpi_wait_record *shmpi_wait_board_of(int pe);
struct shmpi_reserved {
    struct shmpi_node_barrier node_barrier;
    struct shmpi_team_slot team[SHMPI_TEAM_SLOTS];
    /* A PE that left the job while this one may wait for it, written by
     * that PE (depart.c): (its finalize phase << 32) | (its PE + 1). */
    _Alignas(64) _Atomic uint64_t departed;
    /* What this PE waits in, while a wait lasts (diagnose.c). */
    struct shmpi_wait_record wait_record;
};
#define SHMPI_HEAP_RESERVED sizeof(struct shmpi_reserved)
/* The alignment of shmem_malloc: any (the allocator's own minimum); shmem_align's
 * must be a power of two, and 0 is not one. */
#define SHMPI_ANY_ALIGN 1
/* Collective allocation from the symmetric heap (barrier at the end);
 * NULL on every PE if it does not fit.  `zero` clears the block. */
void *shmpi_malloc(const char *routine, size_t size, size_t align, bool zero);
/* Collective free (barrier at the start); NULL does nothing. */
void shmpi_free(const char *routine, void *ptr);
void *shmpi_realloc(const char *routine, void *ptr, size_t size);

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
/* A team's team-destroy: the watch thread no longer looks at it. */
void shmpi_depart_team_gone(const struct shmpi_team *team);
/* Aborts unless the library is initialized (every routine but init calls it). */
static inline void shmpi_check_ready(const char *routine)
{
    if (SHMPI_UNLIKELY(atomic_load_explicit(&shmpi_g.init_state, memory_order_relaxed) !=
                       SHMPI_STATE_READY)) {
        shmpi_not_ready(routine);
    }
}

/* The path seam: the job's shape and its predicates, and the MPI window. */
#include "shape.h"
#include "mpi_rma.h"

/* ---- inline definitions ------------------------------------------------------------------ */
static inline struct shmpi_team *shmpi_team_get(const char *routine, shmem_team_t team)
{
    return team == SHMEM_TEAM_WORLD ? &shmpi_g.team_world : shmpi_team_lookup(routine, team);
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

/* shmpi_symm_target for an address known to lie in segment s. */
static inline struct shmpi_target shmpi_segment_target(int s, const void *addr, int pe)
{
    const struct shmpi_segment *seg = &shmpi_g.seg[s];
    size_t off = (size_t)((const char *)addr - seg->base);
    char *mapped = shmpi_peer_mapped(s, pe);
    struct shmpi_target t;
    t.disp = shmpi_rma_disp(s, pe, off);
    t.mapped = mapped ? mapped + off : NULL;
    return t;
}

static inline struct shmpi_target shmpi_symm_target(const char *routine, const void *addr,
                                                    size_t len, int pe)
{
    int s = shmpi_symm_segment(addr, len);
    if (SHMPI_UNLIKELY(s < 0))
        shmpi_symm_fail(routine, addr, len, pe);
    return shmpi_segment_target(s, addr, pe);
}

/* The context behind a handle; the default one without a call. */
static inline struct shmpi_ctx *shmpi_ctx_of(const char *routine, shmem_ctx_t handle)
{
    if (SHMPI_LIKELY(handle == SHMEM_CTX_DEFAULT))
        return &shmpi_g.ctx_default;
    return shmpi_ctx_get(routine, handle);
}

/* Records that `ctx` has MPI operations to world PE `pe` for quiet to
 * complete. */
static inline void shmpi_mark_pending(struct shmpi_ctx *ctx, int pe)
{
    if (shmpi_g.yield_waits)
        shmpi_flush_mark(pe);
    if (!atomic_load_explicit(&ctx->mpi_pending, memory_order_relaxed))
        atomic_store_explicit(&ctx->mpi_pending, 1, memory_order_relaxed);
    if (!atomic_load_explicit(&shmpi_g.mpi_pending_any, memory_order_relaxed))
        atomic_store_explicit(&shmpi_g.mpi_pending_any, 1, memory_order_relaxed);
}

#endif /* SHMPI_INTERNAL_H */
