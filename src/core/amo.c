/*
 * amo.c - the one atomic memory operation of shmpi, and put-with-signal.
 *
 * Every AMO routine of the API (all types, ctx and deprecated forms, nbi
 * forms, signal updates, lock words) is a call to shmpi_amo() on a 4- or
 * 8-byte word.  Atomicity has to hold among all AMOs any PE issues on one
 * word (OpenSHMEM 1.5 section 9.8: AMOs are atomic with respect to other
 * AMOs on the same object), so all PEs must update a given word by the
 * same mechanism.  Two mechanisms exist, and the choice depends only on the
 * word and the job, never on which PE asks:
 *
 * 1. CPU atomics (C11 <stdatomic.h>), when the word's segment (heap or
 *    static data) of every PE is mapped into every process
 *    (shmpi_g.seg_all_local[segment]: the job is one shared-memory node,
 *    neither SHMPI_MPI_ONLY nor SHMPI_PSEUDO_NODE_SIZE is set, and for
 *    static data SHMPI_SHARE_STATIC is not 0).  Then every PE, the owner
 *    included, reaches the word with the same lock-free instructions on
 *    the same physical memory.  Float arithmetic uses a compare-exchange
 *    loop.
 *
 * 2. MPI, for everything else: a segment that some PE reaches only through
 *    MPI (so a CPU atomic of its owner would not be atomic with theirs),
 *    heaps of other nodes, and any job where some segment is not mapped
 *    everywhere.  MPI guarantees atomicity only between concurrent
 *    accumulate operations that use the same operation or MPI_NO_OP and
 *    the same basic datatype (MPI-3.1 section 11.7.1 "Atomicity", and the
 *    info key accumulate_ops=same_op_no_op, section 11.2.1; MPI_Fetch_and_op
 *    and MPI_Compare_and_swap are accumulate operations, 11.3.4).  So an
 *    MPI AMO uses exactly two calls, always on the unsigned integer type of
 *    the word's size (floats travel as their bit patterns):
 *      - read:   MPI_Fetch_and_op(MPI_NO_OP),
 *      - update: MPI_Compare_and_swap; fetch_add, and/or/xor, swap and set
 *        compute the new value locally with the C type from the value the
 *        word had when this PE last saw it (read first if it never did),
 *        and retry the compare-and-swap from the value it returns until
 *        the word had not changed.
 *    The target PE itself goes through MPI too.  Each call is followed by
 *    MPI_Win_flush to the target, so every AMO (nbi ones included, which
 *    the spec allows) is complete when it returns.  (When waits must yield,
 *    flush.c: the read is MPI_Rget_accumulate(MPI_NO_OP), waited on, and
 *    the flush after a compare-and-swap is preceded by such a read of the
 *    same word; MPI_NO_OP keeps both within same_op_no_op.)  Non-fetching
 *    and _nbi AMOs may instead wait in a queue until the next quiet
 *    ("deferred AMOs" below), with the same two calls.  The window is created
 *    with which_accumulate_ops=cswap,no_op (src/core/window.c).
 *
 *    A program that declares with SHMPI_AMO_OPS that its AMO routines make
 *    one kind of update only (add, and, or, xor, or set/swap), besides
 *    fetches, gets MPI's own op for it instead ("direct" below): no word
 *    then sees two kinds of update, so same_op_no_op still holds.
 */
#include "amo.h"

#include <pthread.h>
#include <string.h>

_Static_assert(ATOMIC_INT_LOCK_FREE == 2 && ATOMIC_LLONG_LOCK_FREE == 2,
               "shmpi needs lock-free 4- and 8-byte atomics");
_Static_assert(sizeof(float) == 4 && sizeof(double) == 8, "float/double sizes");

static size_t type_size(enum shmpi_amo_type type)
{
    return type == SHMPI_AMO_INT32 || type == SHMPI_AMO_UINT32 || type == SHMPI_AMO_FLOAT ? 4
                                                                                         : 8;
}

/* Values travel inside the core as the bits of the word, zero-extended. */
static uint64_t load_bits(const void *p, size_t size)
{
    if (size == 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static void store_bits(void *p, uint64_t bits, size_t size)
{
    if (size == 4) {
        uint32_t v = (uint32_t)bits;
        memcpy(p, &v, 4);
    } else {
        memcpy(p, &bits, 8);
    }
}

/* The new value of a word holding `old` after op(operand), computed with
 * the C type.  Integer sums are taken modulo 2^bits, which for the signed
 * types is the two's complement result a CPU atomic add gives. */
static uint64_t apply(enum shmpi_amo_op op, enum shmpi_amo_type type, uint64_t old,
                      uint64_t operand)
{
    switch (op) {
    case SHMPI_AMO_SET:
    case SHMPI_AMO_SWAP: return operand;
    case SHMPI_AMO_AND: return old & operand;
    case SHMPI_AMO_OR: return old | operand;
    case SHMPI_AMO_XOR: return old ^ operand;
    case SHMPI_AMO_ADD:
        switch (type) {
        case SHMPI_AMO_FLOAT: {
            float a, b;
            uint32_t a_bits = (uint32_t)old, b_bits = (uint32_t)operand;
            memcpy(&a, &a_bits, 4);
            memcpy(&b, &b_bits, 4);
            a += b;
            memcpy(&a_bits, &a, 4);
            return a_bits;
        }
        case SHMPI_AMO_DOUBLE: {
            double a, b;
            memcpy(&a, &old, 8);
            memcpy(&b, &operand, 8);
            a += b;
            memcpy(&old, &a, 8);
            return old;
        }
        case SHMPI_AMO_INT32:
        case SHMPI_AMO_UINT32: return (uint32_t)((uint32_t)old + (uint32_t)operand);
        default: return old + operand;
        }
    default: return old; /* FETCH and CSWAP never compute */
    }
}

/* ---- CPU atomics on a mapped heap word ---------------------------------------------- */
#define DEFINE_CPU_AMO(BITS)                                                                  \
    static uint64_t cpu_amo##BITS(enum shmpi_amo_op op, enum shmpi_amo_type type, void *word, \
                                  uint64_t operand, uint64_t compare)                         \
    {                                                                                         \
        _Atomic uint##BITS##_t *p = word;                                                     \
        uint##BITS##_t v = (uint##BITS##_t)operand;                                           \
        bool is_float = type == SHMPI_AMO_FLOAT || type == SHMPI_AMO_DOUBLE;                  \
        switch (op) {                                                                         \
        case SHMPI_AMO_FETCH: return atomic_load(p);                                          \
        case SHMPI_AMO_SET: atomic_store(p, v); return 0;                                     \
        case SHMPI_AMO_SWAP: return atomic_exchange(p, v);                                    \
        case SHMPI_AMO_CSWAP: {                                                               \
            uint##BITS##_t expected = (uint##BITS##_t)compare;                                \
            atomic_compare_exchange_strong(p, &expected, v);                                  \
            return expected;                                                                  \
        }                                                                                     \
        case SHMPI_AMO_AND: return atomic_fetch_and(p, v);                                    \
        case SHMPI_AMO_OR: return atomic_fetch_or(p, v);                                      \
        case SHMPI_AMO_XOR: return atomic_fetch_xor(p, v);                                    \
        case SHMPI_AMO_ADD:                                                                   \
            if (!is_float)                                                                    \
                return atomic_fetch_add(p, v);                                                \
            break;                                                                            \
        }                                                                                     \
        /* Float arithmetic: compare-exchange until no one came between. */                   \
        uint##BITS##_t old = atomic_load(p);                                                  \
        while (!atomic_compare_exchange_weak(p, &old,                                         \
                                             (uint##BITS##_t)apply(op, type, old, operand)))  \
            ;                                                                                 \
        return old;                                                                           \
    }
DEFINE_CPU_AMO(32)
DEFINE_CPU_AMO(64)

/* ---- MPI: fetch (NO_OP) and compare-and-swap, nothing else -------------------------- */
struct mpi_word {
    MPI_Datatype type; /* MPI_UINT32_T or MPI_UINT64_T */
    size_t size;
    int pe;            /* world PE */
    MPI_Aint disp;
};

static uint64_t mpi_read(const struct mpi_word *w)
{
    uint64_t result = 0;
    shmpi_fetch_word(w->pe, w->disp, w->type, &result);
    /* result holds w->size bytes at its start. */
    return load_bits(&result, w->size);
}

/* Returns the value the word held (the swap happened iff it equals compare). */
static uint64_t mpi_cas(const struct mpi_word *w, uint64_t value, uint64_t compare)
{
    uint64_t value_buf, compare_buf, result = 0;
    store_bits(&value_buf, value, w->size);
    store_bits(&compare_buf, compare, w->size);
    shmpi_mpi_compare_and_swap(&value_buf, &compare_buf, &result, w->type, w->size, w->pe,
                               w->disp);
    shmpi_flush_word(w->pe, w->disp, w->type);
    return load_bits(&result, w->size);
}

/* The last value this PE saw in a word, kept as the guess for its next
 * update: a compare-and-swap with a right guess is one round trip, where
 * reading first would be two; a wrong one fails and returns the value to
 * retry with, which is the read it replaced.  Entries are only guesses,
 * so collisions and races between threads cost a retry, never a result. */
#define HINT_SLOTS 256
static struct {
    _Atomic uint64_t key;
    _Atomic uint64_t value;
} hints[HINT_SLOTS];

static uint64_t hint_key(const struct mpi_word *w)
{
    return (uint64_t)w->disp * 0x9e3779b97f4a7c15u ^ (uint64_t)w->pe;
}

static bool hint_get(const struct mpi_word *w, uint64_t *value)
{
    uint64_t key = hint_key(w);
    unsigned slot = (unsigned)(key >> 56) % HINT_SLOTS;
    if (atomic_load_explicit(&hints[slot].key, memory_order_relaxed) != key)
        return false;
    *value = atomic_load_explicit(&hints[slot].value, memory_order_relaxed);
    return true;
}

static void hint_set(const struct mpi_word *w, uint64_t value)
{
    uint64_t key = hint_key(w);
    unsigned slot = (unsigned)(key >> 56) % HINT_SLOTS;
    atomic_store_explicit(&hints[slot].value, value, memory_order_relaxed);
    atomic_store_explicit(&hints[slot].key, key, memory_order_relaxed);
}

#define CAS_RETRIES_BEFORE_BACKOFF 8
static uint64_t mpi_amo(enum shmpi_amo_op op, enum shmpi_amo_type type,
                        const struct mpi_word *w, uint64_t operand, uint64_t compare)
{
    if (op == SHMPI_AMO_CSWAP) {
        uint64_t seen = mpi_cas(w, operand, compare);
        hint_set(w, seen == compare ? operand : seen);
        return seen;
    }
    uint64_t old;
    if (op == SHMPI_AMO_FETCH || !hint_get(w, &old)) {
        old = mpi_read(w);
        if (op == SHMPI_AMO_FETCH) {
            hint_set(w, old);
            return old;
        }
    }
    /* A retry goes at once: the failed compare-and-swap's round trip was the
     * wait, and anything more between tries, even one MPI_Iprobe, made a
     * 2-PE contended fetch_add slower and bimodal (0.80-1.21 us per op
     * against 0.91-0.93).  Only a long losing streak backs off (yields). */
    struct shmpi_waiter waiter = {0};
    for (unsigned failures = 0;; failures++) {
        uint64_t new_value = apply(op, type, old, operand);
        uint64_t seen = mpi_cas(w, new_value, old);
        if (seen == old) {
            hint_set(w, new_value);
            return old;
        }
        old = seen; /* someone updated it in between: retry from what they left */
        if (failures >= CAS_RETRIES_BEFORE_BACKOFF)
            shmpi_backoff(&waiter);
    }
}

/* ---- SHMPI_AMO_OPS: MPI's own op for a program with one kind of update -----------------
 * The compare-and-swap loop keeps any mix of AMOs on a word atomic, but
 * under contention it retries: a contended fetch_add takes 1.1-1.7x
 * MPI_Fetch_and_op(MPI_SUM).  A program whose AMO routines make one kind of
 * update says so in SHMPI_AMO_OPS, and the MPI path then uses that op
 * directly (MPI_SUM on the unsigned type: the same bits as a signed two's
 * complement sum; the spec has no float add).  Locks and signals, which mix kinds on
 * their own words, call shmpi_amo and keep the loop.  An AMO routine of a
 * kind the variable does not list ends the job: it could share a word with
 * the direct op.  The CPU-atomic path needs none of this. */
static const struct {
    const char *name;
    enum shmpi_amo_op op;
} op_names[] = {{"fetch", SHMPI_AMO_FETCH}, {"set", SHMPI_AMO_SET},
                {"swap", SHMPI_AMO_SWAP},   {"compare_swap", SHMPI_AMO_CSWAP},
                {"add", SHMPI_AMO_ADD},     {"and", SHMPI_AMO_AND},
                {"or", SHMPI_AMO_OR},       {"xor", SHMPI_AMO_XOR}};
#define OP_BIT(OP) (1u << SHMPI_AMO_##OP)

unsigned shmpi_amo_parse_ops(const char *text)
{
    if (strcmp(text, "any") == 0)
        return ~0u;
    unsigned ops = OP_BIT(FETCH); /* a read is atomic with every kind */
    for (const char *item = text;; item++) {
        size_t len = strcspn(item, ",");
        unsigned found = 0;
        for (size_t i = 0; i < sizeof op_names / sizeof op_names[0]; i++)
            if (strlen(op_names[i].name) == len && strncmp(item, op_names[i].name, len) == 0)
                found = 1u << op_names[i].op;
        if (!found)
            return 0;
        ops |= found;
        item += len;
        if (*item == '\0')
            return ops;
    }
}

struct direct_op {
    MPI_Op op;               /* MPI_OP_NULL: none, every update is a compare-and-swap */
    const char *name;
    const char *window_ops;  /* the which_accumulate_ops hint */
};

static struct direct_op direct_op_of(unsigned ops)
{
    unsigned updates = ops & ~OP_BIT(FETCH);
    if (updates == OP_BIT(ADD))
        return (struct direct_op){MPI_SUM, "sum", "sum,cswap,no_op"};
    if (updates == OP_BIT(AND))
        return (struct direct_op){MPI_BAND, "band", "band,cswap,no_op"};
    if (updates == OP_BIT(OR))
        return (struct direct_op){MPI_BOR, "bor", "bor,cswap,no_op"};
    if (updates == OP_BIT(XOR))
        return (struct direct_op){MPI_BXOR, "bxor", "bxor,cswap,no_op"};
    if (updates != 0 && (updates & ~(OP_BIT(SET) | OP_BIT(SWAP))) == 0)
        return (struct direct_op){MPI_REPLACE, "replace", "replace,cswap,no_op"};
    return (struct direct_op){MPI_OP_NULL, "none (compare-and-swap loop)", "cswap,no_op"};
}

const char *shmpi_amo_window_ops(unsigned amo_ops)
{
    return direct_op_of(amo_ops).window_ops;
}

const char *shmpi_amo_direct_op_name(unsigned amo_ops)
{
    return direct_op_of(amo_ops).name;
}

static MPI_Op direct_mpi_op;  /* set by shmpi_amo_init */
static unsigned direct_ops;   /* the update kinds that use it */

static _Noreturn void undeclared(const char *routine, enum shmpi_amo_op op)
{
    const char *name = "?";
    for (size_t i = 0; i < sizeof op_names / sizeof op_names[0]; i++)
        if (op_names[i].op == op)
            name = op_names[i].name;
    shmpi_abort(routine,
                "SHMPI_AMO_OPS=\"%s\" does not list %s: the program said its AMO routines "
                "make only those kinds of update",
                shmpi_g.env.amo_ops_text, name);
}

/* One update with MPI's own op, complete at the target. */
static uint64_t mpi_direct(const struct mpi_word *w, uint64_t operand)
{
    uint64_t operand_buf, result = 0;
    store_bits(&operand_buf, operand, w->size);
    MPI_Fetch_and_op(&operand_buf, &result, w->type, w->pe, w->disp, direct_mpi_op,
                     shmpi_g.win);
    shmpi_flush_word(w->pe, w->disp, w->type);
    return load_bits(&result, w->size);
}

/* ---- deferred AMOs ----------------------------------------------------------------------
 * A non-fetching AMO, or a fetching one with _nbi, need only be complete at
 * the next quiet (OpenSHMEM 1.5 sections 9.8 and 9.9.1), and raw MPI issues
 * such accumulates back to back.  On the MPI path a deferrable add (integer),
 * and, or, xor or fetch is issued without a flush and queued:
 *   - add/and/or/xor as a compare-and-swap from the guessed value (the
 *     hint, chained: each queued update moves the hint on).  Whenever it
 *     succeeded it was exactly op(operand) applied atomically, whatever
 *     happened to the word before; one that failed changed nothing and is
 *     redone, blocking, when the queue drains.  These ops commute with
 *     themselves, and a word's queued ops are all of one kind (an op of
 *     another kind drains the queue first), so redoing a failed one after
 *     later ones succeeded gives the same result;
 *   - fetch as MPI_Get_accumulate(MPI_NO_OP).
 * The queue drains (flush, then the results: the fetched values written,
 * the failed updates redone) at quiet, fence and barriers, in every
 * waiting loop (so a PE that waits still completes its own updates), before
 * any blocking AMO, and when full.  One queue per process (locked only
 * under SHMEM_THREAD_MULTIPLE, see queue_lock).
 * The window asks for no accumulate ordering, and none is needed: a
 * compare-and-swap of the chain that reaches the word out of order finds
 * another value, fails and is redone. */
#define DEFERRED_MAX 64

struct deferred {
    struct mpi_word w;
    enum shmpi_amo_op op;
    enum shmpi_amo_type type;
    uint64_t operand;
    uint64_t guess;       /* the value the compare-and-swap expects */
    /* MPI's buffers, untouched until the flush: */
    uint64_t compare_buf, value_buf, result_buf;
    void *fetched;        /* where the old value goes, or NULL */
    bool direct;          /* MPI's own op (SHMPI_AMO_OPS): final, never redone */
};

static struct deferred deferred[DEFERRED_MAX];
static int n_deferred;
static unsigned deferred_ops; /* bit 1 << op of each op queued: one bit set, no conflict */
static int deferred_pe;       /* the PE of every queued op, or -1 if they differ */

/* The queue's lock.  Only SHMEM_THREAD_MULTIPLE needs the mutex (measured:
 * 5% of a queued add on the MPI path); below it one thread at a time calls
 * shmpi, and the flag only stops a waiting loop inside a drain from
 * draining again (the progress thread never touches the queue). */
static pthread_mutex_t deferred_mutex = PTHREAD_MUTEX_INITIALIZER;
static bool deferred_held;

static bool queue_lock(bool wait)
{
    if (shmpi_g.thread_level == SHMEM_THREAD_MULTIPLE)
        return wait ? pthread_mutex_lock(&deferred_mutex) == 0
                    : pthread_mutex_trylock(&deferred_mutex) == 0;
    if (deferred_held)
        return false;
    deferred_held = true;
    return true;
}

static void queue_unlock(void)
{
    if (shmpi_g.thread_level == SHMEM_THREAD_MULTIPLE)
        pthread_mutex_unlock(&deferred_mutex);
    else
        deferred_held = false;
}

static bool deferrable(enum shmpi_amo_op op, enum shmpi_amo_type type, bool direct)
{
    if (direct) /* queued direct updates must commute: a set or swap is not queued */
        return op != SHMPI_AMO_SET && op != SHMPI_AMO_SWAP;
    bool is_float = type == SHMPI_AMO_FLOAT || type == SHMPI_AMO_DOUBLE;
    return op == SHMPI_AMO_FETCH || op == SHMPI_AMO_AND || op == SHMPI_AMO_OR ||
           op == SHMPI_AMO_XOR || (op == SHMPI_AMO_ADD && !is_float);
}

static bool same_word(const struct mpi_word *a, const struct mpi_word *b)
{
    return a->pe == b->pe && a->disp == b->disp;
}

/* Completes the queue; deferred_lock is held. */
static void drain_locked(void)
{
    if (n_deferred == 0)
        return;
    if (deferred_pe >= 0) {
        shmpi_flush(deferred_pe);
    } else {
        for (int i = 0; i < n_deferred; i++) {
            bool flushed = false;
            for (int j = 0; j < i && !flushed; j++)
                flushed = deferred[j].w.pe == deferred[i].w.pe;
            if (!flushed)
                shmpi_flush(deferred[i].w.pe);
        }
    }
    for (int i = 0; i < n_deferred; i++) {
        struct deferred *d = &deferred[i];
        uint64_t old = load_bits(&d->result_buf, d->w.size);
        if (!d->direct && d->op != SHMPI_AMO_FETCH && old != d->guess)
            old = mpi_amo(d->op, d->type, &d->w, d->operand, 0); /* it failed: redo */
        if (d->fetched)
            store_bits(d->fetched, old, d->w.size);
    }
    n_deferred = 0;
    deferred_ops = 0;
    atomic_store_explicit(&shmpi_g.amo_deferred, 0, memory_order_release);
}

void shmpi_amo_drain(bool wait_for_lock)
{
    if (!atomic_load_explicit(&shmpi_g.amo_deferred, memory_order_acquire))
        return;
    /* From a waiting loop inside a drain (this thread holds the lock), or
     * while another thread drains, the trylock fails and the caller goes on. */
    if (!queue_lock(wait_for_lock))
        return;
    drain_locked();
    queue_unlock();
}

static void defer(enum shmpi_amo_op op, enum shmpi_amo_type type, const struct mpi_word *w,
                  uint64_t operand, void *fetched, bool direct)
{
    queue_lock(true);
    bool conflict = n_deferred == DEFERRED_MAX;
    if (deferred_ops & ~(1u << op)) /* only another kind of op can conflict */
        for (int i = 0; i < n_deferred && !conflict; i++)
            conflict = same_word(&deferred[i].w, w) && deferred[i].op != op;
    if (conflict)
        drain_locked();
    if (n_deferred == 0)
        deferred_pe = w->pe;
    else if (deferred_pe != w->pe)
        deferred_pe = -1;
    deferred_ops |= 1u << op;
    struct deferred *d = &deferred[n_deferred++];
    /* Field by field: *w was just stored field by field, and one 16-byte
     * load of it stalls (measured: half of this function's time). */
    d->w.type = w->type;
    d->w.size = w->size;
    d->w.pe = w->pe;
    d->w.disp = w->disp;
    d->op = op;
    d->type = type;
    d->operand = operand;
    d->fetched = fetched;
    d->direct = direct;
    d->result_buf = 0;
    uint64_t unused = 0;
    if (direct) {
        store_bits(&d->value_buf, operand, w->size);
        if (fetched)
            MPI_Fetch_and_op(&d->value_buf, &d->result_buf, w->type, w->pe, w->disp,
                             direct_mpi_op, shmpi_g.win);
        else
            MPI_Accumulate(&d->value_buf, 1, w->type, w->pe, w->disp, 1, w->type,
                           direct_mpi_op, shmpi_g.win);
    } else if (op == SHMPI_AMO_FETCH) {
        MPI_Get_accumulate(&unused, 1, w->type, &d->result_buf, 1, w->type, w->pe, w->disp, 1,
                           w->type, MPI_NO_OP, shmpi_g.win);
    } else {
        if (!hint_get(w, &d->guess))
            d->guess = 0; /* never seen: a fresh word is likely 0 */
        uint64_t new_value = apply(op, type, d->guess, operand);
        store_bits(&d->compare_buf, d->guess, w->size);
        store_bits(&d->value_buf, new_value, w->size);
        shmpi_mpi_compare_and_swap(&d->value_buf, &d->compare_buf, &d->result_buf, w->type,
                                   w->size, w->pe, w->disp);
        hint_set(w, new_value);
    }
    /* No shmpi_flush_mark: the drain flushes the queued PEs itself. */
    atomic_store_explicit(&shmpi_g.amo_deferred, 1, memory_order_release);
    queue_unlock();
}

/* ---- the entry points ------------------------------------------------------------------- */
/* from_api: called by an AMO routine of the program, which SHMPI_AMO_OPS
 * governs (not by a lock or signal routine). */
static void amo(const char *routine, shmem_ctx_t handle, enum shmpi_amo_op op,
                enum shmpi_amo_type type, void *dest, const void *operand, const void *compare,
                void *fetched, int pe, bool may_defer, bool from_api)
{
    shmpi_check_ready(routine);
    if (SHMPI_UNLIKELY(from_api && !(shmpi_g.env.amo_ops & (1u << op))))
        undeclared(routine, op);
    struct shmpi_ctx *ctx = shmpi_ctx_of(routine, handle);
    int world_pe = shmpi_team_world_pe(routine, ctx->team, pe);
    size_t size = type_size(type);
    struct shmpi_target t = shmpi_symm_target(routine, dest, size, world_pe);
    if (SHMPI_UNLIKELY((uintptr_t)dest & (size - 1)))
        shmpi_abort(routine, "address %p is not aligned to the %zu-byte size of its type",
                    dest, size);
    uint64_t operand_bits = operand ? load_bits(operand, size) : 0;
    uint64_t compare_bits = compare ? load_bits(compare, size) : 0;

    uint64_t old;
    if (t.local && shmpi_g.seg_all_local[shmpi_symm_segment(dest, size)]) {
        old = size == 4 ? cpu_amo32(op, type, t.local, operand_bits, compare_bits)
                        : cpu_amo64(op, type, t.local, operand_bits, compare_bits);
    } else {
        struct mpi_word w = {size == 4 ? MPI_UINT32_T : MPI_UINT64_T, size, world_pe, t.disp};
        bool direct = from_api && (direct_ops & (1u << op));
        if (may_defer && deferrable(op, type, direct)) {
            defer(op, type, &w, operand_bits, fetched, direct);
            return;
        }
        shmpi_amo_drain(true); /* this thread's earlier AMOs come first */
        old = direct ? mpi_direct(&w, operand_bits)
                     : mpi_amo(op, type, &w, operand_bits, compare_bits);
    }
    if (fetched)
        store_bits(fetched, old, size);
}

void shmpi_amo(const char *routine, shmem_ctx_t ctx, enum shmpi_amo_op op,
               enum shmpi_amo_type type, void *dest, const void *operand, const void *compare,
               void *fetched, int pe)
{
    amo(routine, ctx, op, type, dest, operand, compare, fetched, pe, false, false);
}

void shmpi_amo_nbi(const char *routine, shmem_ctx_t ctx, enum shmpi_amo_op op,
                   enum shmpi_amo_type type, void *dest, const void *operand,
                   const void *compare, void *fetched, int pe)
{
    amo(routine, ctx, op, type, dest, operand, compare, fetched, pe, true, false);
}

void shmpi_amo_routine(const char *routine, shmem_ctx_t ctx, enum shmpi_amo_op op,
                       enum shmpi_amo_type type, void *dest, const void *operand,
                       const void *compare, void *fetched, int pe)
{
    amo(routine, ctx, op, type, dest, operand, compare, fetched, pe, false, true);
}

void shmpi_amo_routine_nbi(const char *routine, shmem_ctx_t ctx, enum shmpi_amo_op op,
                           enum shmpi_amo_type type, void *dest, const void *operand,
                           const void *compare, void *fetched, int pe)
{
    amo(routine, ctx, op, type, dest, operand, compare, fetched, pe, true, true);
}

void shmpi_amo_init(void)
{
    for (int s = 0; s < SHMPI_NSEGS; s++) {
        /* One PE: its own memory is all there is (and there is no window). */
        int all_local = shmpi_g.n_pes == 1 ||
                        (!shmpi_g.env.mpi_only && shmpi_g.env.pseudo_node_size == 0);
        for (int pe = 0; all_local && pe < shmpi_g.n_pes; pe++)
            if (!shmpi_g.seg[s].peer_ptr[pe])
                all_local = 0;
        /* Every PE must choose the same mechanism for a word: agree. */
        MPI_Allreduce(MPI_IN_PLACE, &all_local, 1, MPI_INT, MPI_LAND, shmpi_g.comm);
        shmpi_g.seg_all_local[s] = all_local != 0;
    }
    /* The mechanism of a word must be the same on every PE. */
    if (!shmpi_same_on_all_pes(shmpi_g.env.amo_ops))
        shmpi_abort("shmem_init", "SHMPI_AMO_OPS=\"%s\" here differs on another PE",
                    shmpi_g.env.amo_ops_text);
    struct direct_op direct = direct_op_of(shmpi_g.env.amo_ops);
    direct_mpi_op = direct.op;
    direct_ops = direct.op == MPI_OP_NULL ? 0 : shmpi_g.env.amo_ops & ~OP_BIT(FETCH);
}

/* ---- put with signal ------------------------------------------------------------------- */
void shmpi_put_signal(const char *routine, shmem_ctx_t handle, void *dest, const void *source,
                      size_t nbytes, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
    shmpi_check_ready(routine);
    if (SHMPI_UNLIKELY(sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD))
        shmpi_abort(routine,
                    "sig_op %d is not SHMEM_SIGNAL_SET (%d) nor SHMEM_SIGNAL_ADD (%d)", sig_op,
                    SHMEM_SIGNAL_SET, SHMEM_SIGNAL_ADD);
    struct shmpi_ctx *ctx = shmpi_ctx_of(routine, handle);
    int world_pe = shmpi_team_world_pe(routine, ctx->team, pe);
    /* Check the signal address before any data moves. */
    (void)shmpi_symm_target(routine, sig_addr, sizeof(uint64_t), world_pe);

    shmpi_put(routine, handle, dest, source, nbytes, pe, SHMPI_NBI);
    /* The data must be complete at the target before the signal changes:
     * an MPI put is flushed, a CPU copy is ordered by the fence. */
    if (nbytes > 0 && !shmpi_symm_target(routine, dest, nbytes, world_pe).local)
        shmpi_flush(world_pe);
    atomic_thread_fence(memory_order_release);
    shmpi_amo(routine, handle, sig_op == SHMEM_SIGNAL_SET ? SHMPI_AMO_SET : SHMPI_AMO_ADD,
              SHMPI_AMO_UINT64, sig_addr, &signal, NULL, NULL, pe);
}
