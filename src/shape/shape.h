/*
 * shape.h - the job's shape, and the predicates that choose every path.
 *
 * shape.c works out once, at start-up, what the job looks like: how many
 * nodes, whether some machine runs more PEs than it has CPUs, whether PEs of
 * a node share memory at all (not under SHMPI_MPI_ONLY, and only if
 * /dev/shm has room), the pseudo-nodes of SHMPI_PSEUDO_NODE_SIZE, and which
 * peer segments this PE maps.  Every operation that has a shared-memory and
 * an MPI way (RMA, AMOs, collectives, barriers, waiting, flushing) asks one
 * of the predicates below and tests nothing of the job itself, so a new kind
 * of memory or transport changes this module, not the operations.  All of
 * it comes from one exchange of a card per PE at start-up.  Every
 * predicate but shmpi_peer_mapped and shmpi_shm_reaches gives the same
 * answer on every PE, which collectives rely on to pick matching forms.
 */
#ifndef SHMPI_SHAPE_H
#define SHMPI_SHAPE_H

#include "shmpi.h"

/* What each PE tells the others at start-up, in the one exchange
 * (shmpi_shape_exchange): its machine, the settings that must agree, and
 * where its segments are. */
struct shmpi_pe_card {
    uint64_t kernel;          /* the kernel it runs on (PEs on one share its CPUs) */
    uint64_t node;            /* its node: the kernel, host name and /dev/shm */
    uint32_t cpu_first, cpu_last; /* the range of CPUs it may run on */
    uint64_t shm_free;        /* bytes free in /dev/shm */
    uint64_t data_size;       /* static data segment: the same executable everywhere */
    uint64_t amo_ops;         /* SHMPI_AMO_OPS, which must agree */
    uint64_t seg_base[SHMPI_NSEGS]; /* where its segments are (MPI_Get_address) */
    uint64_t tag;             /* names its shared-memory objects (window.c) */
    uint32_t flags;           /* SHMPI_CARD_* */
};
/* Its static data is in a shared-memory object its node peers may map. */
#define SHMPI_CARD_DATA_SHARED 1u
/* Its heap is in a shared-memory object its node peers may map. */
#define SHMPI_CARD_HEAP_SHARED 2u
/* Its MPI provides MPI_THREAD_MULTIPLE, and SHMPI_PROGRESS_THREAD asks for the
 * progress thread (N > 0) or leaves it to the job's shape (auto). */
#define SHMPI_CARD_THREAD_MULTIPLE 4u
#define SHMPI_CARD_PROGRESS_ASKED 8u
#define SHMPI_CARD_PROGRESS_AUTO 16u
/* Its wait record is in a shared-memory page of its own (window.c, "the wait board"). */
#define SHMPI_CARD_WAIT_BOARD 32u

struct shmpi_shape {
    int nodes;              /* physical nodes (one kernel each) */
    bool spans_nodes;       /* nodes > 1 */
    bool crowded;           /* some machine runs more PEs than its CPUs (the kernel table) */
    bool shares_memory;     /* PEs of a node share memory: not SHMPI_MPI_ONLY, /dev/shm fits */
    bool pseudo_nodes;      /* SHMPI_PSEUDO_NODE_SIZE splits nodes */
    bool all_mapped[SHMPI_NSEGS]; /* every PE maps every PE's segment s */
    bool progress_thread;   /* this PE runs the progress thread (progress.c) */
    bool amo_by_message;    /* every PE does: AMOs go to the word's owner (amo_message.c) */
    char **peer_ptr[SHMPI_NSEGS]; /* [n_pes]: where this PE loads and stores
                                     PE pe's segment s directly, or NULL */
    int machine_leader;     /* the lowest world PE of this PE's node, pseudo-nodes aside */
    int *node_pe;           /* [node_size]: the world PEs of this (pseudo-)node, in order */
    int node_size, node_rank; /* their number, and this PE's index among them */
    int *leader_pe;         /* [n_leaders]: the lowest PE of each (pseudo-)node, in order */
    int n_leaders;
    int *same_index_pe;     /* [same_index_size]: the world PEs whose index on their node
                               (pseudo-nodes aside) is this PE's, in world order */
    int same_index_size;
    struct shmpi_pe_card mine;   /* this PE's card */
    struct shmpi_pe_card *cards; /* [n_pes]: every PE's, during start-up only */
    uint64_t *kernel_of;    /* [n_pes]: the kernel each PE runs on */
    int *kernel_cpus;       /* [n_pes]: the CPUs of that kernel's PEs together */
};
extern struct shmpi_shape shmpi_shape;

/* ---- start-up (in this order; src/runtime/runtime.c) ---------------------------------- */
/* Local: the tables, and this PE's card as far as the machine goes. */
void shmpi_shape_init(void);
/* Collective (after window.c filled in the segments): every card to every
 * PE (_start: the request, which the caller waits for with
 * shmpi_wait_request, a layer above), then the nodes, crowding, /dev/shm
 * room and the (pseudo-)node. */
void shmpi_shape_exchange_start(MPI_Request *req);
void shmpi_shape_exchange(void);
/* Some PE's heap is not in shared memory (window.c): PEs of a node stay
 * apart, on every PE. */
void shmpi_shape_no_shared_memory(void);
/* Records that this PE maps PE pe's segment s at `base` (window.c). */
static inline void shmpi_shape_map(int s, int pe, char *base)
{
    shmpi_shape.peer_ptr[s][pe] = base;
}
/* Once the segments are mapped: which segments every PE maps everywhere
 * (from the cards: no communication). */
void shmpi_shape_mapped_init(void);
/* The cards are not needed after start-up. */
void shmpi_shape_cards_free(void);
void shmpi_shape_fini(void);

/* ---- predicates -------------------------------------------------------------------- */
/* Where this PE can load and store PE pe's (world) segment s, or NULL: the
 * RMA fast path copies with the CPU exactly when this is not NULL. */
static inline char *shmpi_peer_mapped(int s, int pe)
{
    return shmpi_shape.peer_ptr[s][pe];
}

/* PE pe's reserved block at the start of its heap (struct shmpi_reserved)
 * where this PE maps that heap, or NULL. */
static inline struct shmpi_reserved *shmpi_reserved_of(int pe)
{
    char *heap = shmpi_peer_mapped(SHMPI_SEG_HEAP, pe);
    return heap ? (struct shmpi_reserved *)(heap + shmpi_g.heap_reserved_off) : NULL;
}

/* Whether shared-memory algorithms (team collectives) may reach PE pe's
 * segment s: mapped, and the job shares memory (under SHMPI_MPI_ONLY a PE
 * still maps its own segments, but its teams stay on MPI). */
static inline bool shmpi_shm_reaches(int s, int pe)
{
    return shmpi_shape.shares_memory && shmpi_shape.peer_ptr[s][pe];
}

/* Whether AMOs on words of segment s use CPU atomics: only when every PE
 * maps every PE's segment s, so that all PEs update a word the same way
 * (src/ops/amo.c). */
static inline bool shmpi_amo_by_cpu(int s)
{
    return shmpi_shape.all_mapped[s];
}

/* Whether AMOs on words this PE does not map are messages to the word's
 * owner, which applies them with CPU atomics (src/ops/amo_message.c), as
 * do the PEs that map the word: every PE runs the progress thread, so every
 * PE serves those messages even while it computes.  The same on every PE. */
static inline bool shmpi_amo_by_message(void)
{
    return shmpi_shape.amo_by_message;
}

/* Whether this PE runs the progress thread: SHMPI_PROGRESS_THREAD=N, or
 * by default where the job spans nodes and every PE has a CPU; always with
 * MPI_THREAD_MULTIPLE. */
static inline bool shmpi_job_progress_thread(void)
{
    return shmpi_shape.progress_thread;
}

/* Whether every PE maps every segment of every PE: nothing aimed at this
 * PE needs it inside MPI (progress.c waits quietly). */
static inline bool shmpi_job_all_mapped(void)
{
    for (int s = 0; s < SHMPI_NSEGS; s++)
        if (!shmpi_shape.all_mapped[s])
            return false;
    return true;
}

/* Whether some machine runs more PEs than it has CPUs: then waits yield,
 * and collectives and barriers take their nonblocking MPI forms. */
static inline bool shmpi_job_crowded(void)
{
    return shmpi_shape.crowded;
}

/* Whether a team's MPI collectives take their nonblocking forms: its
 * members on some machine outnumber that machine's CPUs.  A team is judged
 * by its own members (PEs 0 and 2 of 4 on 2 CPUs are not crowded while 1
 * and 3 wait), decided when it is made; the same on every member. */
static inline bool shmpi_team_crowded(const struct shmpi_team *t)
{
    return t && t->crowded;
}
/* The value of `crowded` for a team being made, from the kernel table of
 * start-up: no communication (teams are made often; a blocking collective
 * per team would cost what team_comm.c avoids). */
bool shmpi_shape_team_crowded(const struct shmpi_team *t);
/* Whether the world PEs pe[0..n) on some machine outnumber its CPUs (from
 * the kernel table; the same on every PE). */
bool shmpi_shape_crowded_among(const int *pe, int n);

/* Whether the PEs are on more than one (physical) node. */
static inline bool shmpi_job_spans_nodes(void)
{
    return shmpi_shape.spans_nodes;
}

/* Whether PEs of a node put their segments in shared memory. */
static inline bool shmpi_job_shares_memory(void)
{
    return shmpi_shape.shares_memory;
}

#endif /* SHMPI_SHAPE_H */
