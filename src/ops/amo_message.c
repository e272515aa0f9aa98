/*
 * amo_message.c - AMOs as messages to the word's owner, where every PE
 * runs the progress thread (shmpi_amo_by_message, shape.h).
 *
 * An AMO on a word this PE does not map is one message to the PE that owns
 * the word, which applies it with a CPU atomic and, if the origin waits,
 * answers with the old value: one round trip for every kind of AMO, where
 * the compare-and-swap of amo_word.c takes two on a word it has not seen.  The
 * PEs that map the word (the owner, its node) use the same CPU atomics on
 * the same memory, so every kind of AMO a program mixes on a word stays
 * atomic, on any MPI: only point-to-point messages are used.
 *
 * The owner serves the messages whenever it is inside shmpi: every wait of
 * shmpi (waiting loops, collectives, barriers) enters MPI through
 * shmpi_progress_test, which tests the receive posted for the next message
 * together with what the wait waits for (one entry into MPI a turn), and
 * the progress thread serves when the program has not (progress.c), so a
 * PE that computes or blocks in an MPI call of its own still answers
 * within the thread's interval.  Without the thread on every PE, AMOs stay
 * MPI's compare-and-swaps (amo.c).
 *
 * Completion: a fetching AMO (or one whose caller waits, as locks and
 * signals do) waits for its answer; an _nbi one posts the receive of its
 * answer, which the next quiet waits for.  A non-fetching one returns once sent;
 * its target is marked, and quiet sends each marked target a fence, which
 * the target answers after every earlier message of this PE: MPI does not
 * let messages of one sender overtake each other on a communicator, and one
 * server at a time (a flag) applies them in the order received.  Every
 * REQUESTS_BEFORE_FENCE unanswered requests the origin fences, so a flood
 * of adds to a PE that computes queues a bounded number of messages.
 */
#include "amo_message.h"
#include "flush.h"
#include "mpi_rma.h"
#include "progress.h"
#include "shape.h"

#include <pthread.h>
#include <string.h>

/* Beyond the spec's ops: answer once every earlier message is applied. */
#define OP_FENCE 0xff
#define REQUESTS_BEFORE_FENCE 4096

struct request {
    uint8_t op;       /* enum shmpi_amo_op, or OP_FENCE */
    uint8_t type;     /* enum shmpi_amo_type */
    uint8_t segment;  /* enum shmpi_segment_id */
    uint8_t answer;   /* the origin waits for the old value */
    int32_t tag;      /* of the answer, on answer_comm */
    uint64_t offset;  /* of the word in the owner's segment */
    uint64_t operand, compare;
};

static MPI_Comm request_comm = MPI_COMM_NULL, answer_comm = MPI_COMM_NULL;
static int channel = -1; /* serve.c's */
/* The receive of the next request and its test in every wait are
 * serve.c's, which calls answer() for each request that arrived. */
_Static_assert(sizeof(struct request) <= SHMPI_SERVE_MAX_BYTES, "a request fits serve.c's buffer");
static atomic_uint next_tag;
static int tag_limit;
/* Targets of non-fetching AMOs not yet fenced, and how many requests went
 * out since the last fence.  A sender adds its target after the send, so
 * a quiet that takes the target fences that message.  Under
 * SHMEM_THREAD_MULTIPLE one quiet at a time takes and fences them
 * (fence_mutex, held until the fences are answered): a thread whose
 * targets another thread's quiet took waits for that quiet to end, instead
 * of finding the set empty and returning before its AMOs were applied. */
static struct shmpi_pe_set unfenced;
static atomic_uint unfenced_requests;
static pthread_mutex_t fence_mutex = PTHREAD_MUTEX_INITIALIZER;
static atomic_int later_waiting; /* answers wait in `later` (below) */

static void answer(const void *message, int origin);

void shmpi_amo_message_init(void)
{
    if (!shmpi_amo_by_message())
        return;
    /* Everything answer() uses is set up before serve.c starts: the waits
     * (and the progress thread) serve requests as soon as it has. */
    MPI_Comm answers = shmpi_comm_dup(shmpi_g.comm), requests = shmpi_comm_dup(shmpi_g.comm);
    int *ub, flag;
    MPI_Comm_get_attr(answers, MPI_TAG_UB, &ub, &flag);
    tag_limit = flag && *ub < (1 << 30) ? *ub : 1 << 30;
    shmpi_pe_set_init(&unfenced, "AMO state");
    answer_comm = answers;
    request_comm = requests;
    channel = shmpi_serve_start(requests, (int)sizeof(struct request), answer);
}

void shmpi_amo_message_fini(void)
{
    if (request_comm == MPI_COMM_NULL)
        return;
    /* Every PE passed finalize's barrier, whose quiet fenced every message:
     * nothing is on its way. */
    shmpi_serve_stop(channel); /* frees request_comm */
    channel = -1;
    request_comm = MPI_COMM_NULL;
    MPI_Comm_free(&answer_comm);
    shmpi_pe_set_fini(&unfenced);
}

/* ---- the owner ----------------------------------------------------------------------- */
static uint64_t apply(const struct request *r, int origin)
{
    size_t size = shmpi_amo_type_size((enum shmpi_amo_type)r->type);
    const struct shmpi_segment *seg =
        r->segment < SHMPI_NSEGS ? &shmpi_g.seg[r->segment] : NULL;
    if (SHMPI_UNLIKELY(!seg || r->type > SHMPI_AMO_DOUBLE || r->op > SHMPI_AMO_XOR ||
                       r->offset % size || r->offset > seg->size - size))
        shmpi_fail_from_thread("shmem_atomic", "a malformed AMO message from PE %d (op %d, "
                               "type %d, segment %d, offset %llu)", origin, r->op, r->type,
                               r->segment, (unsigned long long)r->offset);
    return shmpi_amo_cpu((enum shmpi_amo_op)r->op, (enum shmpi_amo_type)r->type, size,
                         seg->base + r->offset, r->operand, r->compare);
}

/* A request that arrived from `origin` (serve.c has posted the receive of
 * the next one): applied and answered. */
static void answer(const void *message, int origin)
{
    struct request r;
    memcpy(&r, message, sizeof r);
    uint64_t old = r.op == OP_FENCE ? 0 : apply(&r, origin);
    if (r.answer)
        MPI_Send(&old, (int)sizeof old, MPI_BYTE, origin, r.tag, answer_comm);
}

/* ---- the origin ---------------------------------------------------------------------- */
/* Sends r to pe; with an answer expected, first posts its receive. */
static void send_request(struct request *r, int pe, uint64_t *answer, MPI_Request *req)
{
    if (answer) {
        r->answer = 1;
        r->tag = (int32_t)(atomic_fetch_add_explicit(&next_tag, 1, memory_order_relaxed) %
                           (unsigned)tag_limit);
        MPI_Irecv(answer, (int)sizeof *answer, MPI_BYTE, pe, r->tag, answer_comm, req);
    }
    shmpi_rma_reach(pe); /* finalize's handshake closes the connection (runtime.c) */
    MPI_Send(r, (int)sizeof *r, MPI_BYTE, pe, 0, request_comm);
}

/* Fetching AMOs whose answer the next quiet collects (_nbi forms).  The
 * lock is needed only under SHMEM_THREAD_MULTIPLE (the progress thread never
 * touches the list). */
#define LATER_MAX 64
static struct later {
    MPI_Request req;
    uint64_t answer;
    void *fetched;
    size_t size;
} later[LATER_MAX];
static int n_later;
static pthread_mutex_t later_mutex = PTHREAD_MUTEX_INITIALIZER;

/* Waits for every answer of the list and stores it; the lock is held. */
static void collect_later(void)
{
    for (int i = 0; i < n_later; i++) {
        shmpi_wait_request(&later[i].req);
        shmpi_amo_store_bits(later[i].fetched, later[i].answer, later[i].size);
    }
    n_later = 0;
}

const char *const shmpi_amo_wait_name[] = {
    [SHMPI_AMO_FETCH] = "an atomic fetch",        [SHMPI_AMO_SET] = "an atomic set",
    [SHMPI_AMO_SWAP] = "an atomic swap",          [SHMPI_AMO_CSWAP] = "an atomic compare_swap",
    [SHMPI_AMO_ADD] = "an atomic (fetch_)add",    [SHMPI_AMO_AND] = "an atomic (fetch_)and",
    [SHMPI_AMO_OR] = "an atomic (fetch_)or",      [SHMPI_AMO_XOR] = "an atomic (fetch_)xor",
};

uint64_t shmpi_amo_message(enum shmpi_amo_op op, enum shmpi_amo_type type, int segment,
                           size_t offset, int pe, uint64_t operand, uint64_t compare,
                           enum shmpi_answer answer, void *fetched)
{
    struct request r = {(uint8_t)op, (uint8_t)type, (uint8_t)segment, 0, 0, offset, operand,
                        compare};
    size_t size = shmpi_amo_type_size(type);
    if (answer == SHMPI_ANSWER_NOW) {
        uint64_t old = 0;
        MPI_Request req;
        send_request(&r, pe, &old, &req);
        /* serves this PE's own requests meanwhile; a wait that lasts names pe */
        const struct shmpi_waiter awaiting = {.needs = SHMPI_NEEDS_PE, .pe = pe,
                                              .waits_in = SHMPI_WAITS_FOR_MPI,
                                              .routine = shmpi_amo_wait_name[op]};
        shmpi_wait_request_needing(&req, &awaiting);
        return shmpi_amo_load_bits(&old, size);
    }
    if (fetched) {
        shmpi_mt_lock(&later_mutex);
        if (n_later == LATER_MAX)
            collect_later();
        struct later *l = &later[n_later++];
        l->fetched = fetched;
        l->size = size;
        send_request(&r, pe, &l->answer, &l->req);
        atomic_store_explicit(&later_waiting, 1, memory_order_release);
        shmpi_mt_unlock(&later_mutex);
        return 0;
    }
    send_request(&r, pe, NULL, NULL);
    shmpi_pe_set_add(&unfenced, pe);
    if (atomic_fetch_add_explicit(&unfenced_requests, 1, memory_order_relaxed) + 1 >=
        REQUESTS_BEFORE_FENCE)
        shmpi_amo_message_quiet();
    return 0;
}

static void send_fence(int pe, uint64_t *answer, MPI_Request *req)
{
    struct request r = {OP_FENCE, 0, 0, 0, 0, 0, 0, 0};
    send_request(&r, pe, answer, req);
}

void shmpi_amo_message_quiet(void)
{
    if (atomic_load_explicit(&later_waiting, memory_order_acquire)) {
        shmpi_mt_lock(&later_mutex);
        collect_later();
        atomic_store_explicit(&later_waiting, 0, memory_order_relaxed);
        shmpi_mt_unlock(&later_mutex);
    }
    if (!unfenced.bits)
        return;
    shmpi_mt_lock(&fence_mutex);
    if (atomic_load_explicit(&unfenced_requests, memory_order_acquire)) {
        atomic_store_explicit(&unfenced_requests, 0, memory_order_relaxed);
        shmpi_pe_set_wait_each(&unfenced, send_fence);
    }
    shmpi_mt_unlock(&fence_mutex);
}
