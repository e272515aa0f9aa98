/*
 * coll_shm.c - collectives in shared memory, for teams (active sets are
 * teams too) whose members all map each other's heaps (one node or
 * pseudo-node; never under SHMPI_MPI_ONLY): sync, broadcast (with or
 * without the root's own dest), collect, fcollect, alltoall(s),
 * reductions and scans.  Everything else stays an MPI collective (coll.c).
 *
 * Such a team owns a slot (struct shmpi_team_slot) at the same index in
 * every member's reserved heap block: an event counter, a ring of
 * SHMPI_SLOT_RING lines and a ring of as many scratch areas.  The members
 * synchronize by events, numbered alike on all of them: a member arrives
 * at event s by storing s in its counter, after everything it wrote for s; a member waits for s by polling the counters
 * of the members it needs (all of them, or just a broadcast's root), with
 * shmpi_backoff.  Nobody releases anybody, so a broadcast's root does not
 * wait for the others, and no central counter is passed around.
 *
 * Data of event s goes into the writer's scratch area s % R (R =
 * SHMPI_SLOT_RING) and is read only after waiting for s and before
 * arriving at s + 1.  So before writing area s % R a member waits until
 * all have arrived at s - R + 1: then nobody still reads what it wrote
 * there for s - R.  A broadcast's root can thus run R - 1 events ahead of
 * the others, who catch up in one go when they get a CPU; on a crowded
 * machine a longer ring made small broadcasts much faster
 * (benchmarks/RESULTS.md, "Measurements behind design constants").
 *
 * Small collectives are one event: each PE copies its contribution into
 * its scratch, arrives, waits, and reads the others' scratch into its own
 * dest (a reduction: combines them, in pieces of one area up to
 * REDUCE_SCRATCH_MAX).  Up to SHMPI_LINE_DATA bytes go into a line of
 * their own instead, with the event's number in the same cache line (a
 * stamp); readers wait for the stamp instead of the writer's counter: one
 * line to fetch, not two.  Only scratch and lines are shared, so the
 * caller's buffers may overlap in any way.  Larger reductions are sliced
 * (reduce_sliced).  Larger broadcasts, fcollects and alltoalls copy
 * straight between the members' symmetric buffers in two events: each
 * publishes where its data lies and arrives; after waiting, each pulls into its own dest and
 * arrives again; a PE whose buffer others read returns only when they all
 * arrived (nobody still reads it).
 *
 * Teams from SHMPI_TREE_MIN_PES members on (by default only when every
 * PE has a CPU) use log-depth forms instead of the flat ones, in which
 * every member (or every reader of a broadcast's root) waits for N lines:
 * the barrier is a dissemination over round flags beside the counter,
 * small broadcasts go down a binomial tree, and small reductions up a
 * binomial tree to member 0 and down again.
 *
 * Every choice depends only on what all members agree on: the team's slot
 * and mapped segments (agreed when it is made), the sizes, and the
 * symmetric offsets of the buffers, so all members take the same path and
 * count the same events.
 */
#include "coll_shm.h"
#include "mpi_rma.h"
#include "progress.h"
#include "shape.h"
#include "shmpi.h"
#include "window.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- slots ------------------------------------------------------------------------------ */
_Static_assert(SHMPI_TEAM_SLOTS <= 64, "slots are bits of a uint64_t");

static uint64_t slots_in_use; /* bit i: slot i belongs to a team of this PE */
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t slots_snapshot(void)
{
    pthread_mutex_lock(&slots_lock);
    uint64_t in_use = slots_in_use;
    pthread_mutex_unlock(&slots_lock);
    return in_use;
}

/* Takes slot i unless another thread's team took it since the snapshot. */
static bool slot_claim(int i)
{
    pthread_mutex_lock(&slots_lock);
    bool free_here = !(slots_in_use >> i & 1);
    if (free_here)
        slots_in_use |= (uint64_t)1 << i;
    pthread_mutex_unlock(&slots_lock);
    return free_here;
}

static void slot_release(int i)
{
    pthread_mutex_lock(&slots_lock);
    slots_in_use &= ~((uint64_t)1 << i);
    pthread_mutex_unlock(&slots_lock);
}

static int world_of(const struct shmpi_team *t, int pe)
{
    return t->world_pe ? t->world_pe[pe] : pe;
}

/* Bit s: some member's segment s is not mapped here. */
static uint64_t unmapped_segments(const struct shmpi_team *t)
{
    uint64_t unmapped = 0;
    for (int s = 0; s < SHMPI_NSEGS; s++)
        for (int pe = 0; pe < t->n_pes; pe++)
            if (!shmpi_shm_reaches(s, world_of(t, pe)))
                unmapped |= (uint64_t)1 << s;
    return unmapped;
}

/* Element-wise `op` (MPI_BOR, MPI_MAX) over the members. */
static void all_reduce(uint64_t *values, int n, MPI_Op op, MPI_Comm comm)
{
    MPI_Request req; /* nonblocking: team creation must not spin (see team_comm.c) */
    MPI_Iallreduce(MPI_IN_PLACE, values, n, MPI_UINT64_T, op, comm, &req);
    shmpi_wait_request(&req);
}

static struct shmpi_team_slot *slot_of(int world_pe, int slot)
{
    return &shmpi_reserved_of(world_pe)->team[slot];
}

/* Flat forms cost one wait per member on the critical path, trees one per
 * level; but a tree level waits for a PE that may not run, so with more
 * PEs than CPUs the flat forms were as fast or faster at every size
 * measured (4 and 8 PEs on 2 CPUs; benchmarks/RESULTS.md, "Flat and tree
 * collectives"). */
int shmpi_tree_min_pes(enum shmpi_tree_form form, bool crowded)
{
    long min = shmpi_g.env.tree_min_pes;
    if (min >= 0)
        return min == 0 || min > INT_MAX ? INT_MAX : (int)min;
    if (crowded)
        return INT_MAX;
    return form == SHMPI_TREE_BARRIER ? 4 : 8;
}

void shmpi_team_shm_init(const char *routine, struct shmpi_team *t, int lowest_slot)
{
    const uint64_t below = lowest_slot > 0 ? ((uint64_t)1 << lowest_slot) - 1 : 0;
    t->shm = (struct shmpi_team_shm){.slot = -1};
    int slot;
    uint64_t lost_last[2];
    /* SHMEM_TEAM_WORLD and SHARED are made at start-up, where every member's slots
     * are free, its heap is new (counters at zero) and the mapped segments
     * come from the same start-up cards: every member finds the same values
     * alone, and the two reductions (most of start-up's time with more PEs
     * than CPUs) are not needed.  So with SHMEMX_TEAM_SAME_MYPE_NODE's, one
     * PE per machine, which takes no slot (lowest_slot SHMPI_TEAM_SLOTS). */
    const bool agree = t != &shmpi_g.team_world && t != &shmpi_g.team_shared &&
                       t != &shmpi_g.team_same_index;
    for (;;) {
        /* The lowest slot free on every member, if every heap is mapped. */
        uint64_t agreed[2] = {slots_snapshot() | below, unmapped_segments(t)};
        if (agree)
            all_reduce(agreed, 2, MPI_BOR, t->comm);
        t->shm.mapped_segs = (unsigned)~agreed[1] & ((1u << SHMPI_NSEGS) - 1);
        slot = agreed[0] == UINT64_MAX || (agreed[1] >> SHMPI_SEG_HEAP & 1)
                   ? -1
                   : __builtin_ctzll(~agreed[0]);
        if (slot >= SHMPI_TEAM_SLOTS)
            slot = -1;
        if (slot < 0)
            return;
        /* Counters only grow (a former team's member may still poll one):
         * the team starts at the largest of its members'. */
        bool claimed = slot_claim(slot);
        lost_last[0] = !claimed;
        lost_last[1] = atomic_load(&slot_of(shmpi_g.my_pe, slot)->seq);
        if (agree)
            all_reduce(lost_last, 2, MPI_MAX, t->comm);
        if (!lost_last[0])
            break;
        if (claimed) /* another thread's team took it on some member: again */
            slot_release(slot);
    }
    t->shm.slot = slot;
    t->shm.seq = lost_last[1];
    t->shm.member_slot = malloc((size_t)t->n_pes * sizeof(*t->shm.member_slot));
    if (!t->shm.member_slot)
        shmpi_abort(routine, "out of memory (a team's slot table)");
    for (int pe = 0; pe < t->n_pes; pe++)
        t->shm.member_slot[pe] = slot_of(world_of(t, pe), slot);
    const bool crowded = shmpi_team_crowded(t);
    t->shm.tree_barrier = t->n_pes >= shmpi_tree_min_pes(SHMPI_TREE_BARRIER, crowded);
    t->shm.tree_bcast = t->n_pes >= shmpi_tree_min_pes(SHMPI_TREE_BCAST, crowded);
    t->shm.tree_reduce = t->n_pes >= shmpi_tree_min_pes(SHMPI_TREE_REDUCE, crowded);
    atomic_store_explicit(&t->shm.member_slot[t->my_pe]->seq, t->shm.seq,
                          memory_order_release);
}

/* ---- events ------------------------------------------------------------------------- */
/* Arrives at the next event; returns its number. */
static uint64_t arrive(struct shmpi_team *t)
{
    uint64_t s = ++t->shm.seq;
    atomic_store_explicit(&t->shm.member_slot[t->my_pe]->seq, s, memory_order_release);
    return s;
}

/* Waits until member pe has arrived at event s; returns the event it is at. */
/* Set while the world team's barrier runs: shmem_finalize's barrier is
 * that one too, so only a PE past it counts as left (depart.c). */
static _Thread_local bool world_syncing;

/* A wait for member pe of t. */
static struct shmpi_waiter waiter_for(const struct shmpi_team *t, int pe)
{
    return (struct shmpi_waiter){.needs = SHMPI_NEEDS_PE,
                                 .pe = world_of(t, pe),
                                 .team = t,
                                 .finalize_may_meet = world_syncing};
}

static uint64_t wait_for(const struct shmpi_team *t, int pe, uint64_t s)
{
    SHMPI_WAITER(waiter) = waiter_for(t, pe);
    uint64_t at;
    while ((at = atomic_load_explicit(&t->shm.member_slot[pe]->seq, memory_order_acquire)) < s)
        shmpi_backoff(&waiter);
    return at;
}

/* Waits until all members have arrived at event s.  Remembers the least
 * event they were seen at, so that waiting again for an event up to that
 * one reads no counter: a broadcast's root checks the ring once every few
 * events instead of taking every member's counter line at each. */
static void wait_all(struct shmpi_team *t, uint64_t s)
{
    if (t->shm.all_arrived >= s)
        return;
    uint64_t least = UINT64_MAX;
    for (int pe = 0; pe < t->n_pes; pe++) {
        uint64_t at = wait_for(t, pe, s);
        if (at < least)
            least = at;
    }
    t->shm.all_arrived = least;
}

int shmpi_barrier_rounds(int n)
{
    int rounds = 0;
    while (rounds < SHMPI_BARRIER_ROUNDS && (1 << rounds) < n)
        rounds++;
    return rounds;
}

void shmpi_dissemination(struct shmpi_round_flag *mine, struct shmpi_round_flag *const from[],
                         int rounds, uint64_t event, const struct shmpi_waiter *needing)
{
    for (int k = 0; k < rounds; k++) {
        atomic_store_explicit(&mine[k].event, event, memory_order_release);
        SHMPI_WAITER(waiter) = *needing;
        while (atomic_load_explicit(&from[k]->event, memory_order_acquire) < event)
            shmpi_backoff(&waiter);
    }
}

/* Flat, every member reads every counter: N lines on the critical path.
 * From TREE_BARRIER_MIN members on, dissemination: ceil(log2 N) rounds of
 * one line each; the counter is still stored first, and once the last
 * round is done every member is known to have arrived. */
static void team_barrier(struct shmpi_team *t)
{
    uint64_t s = arrive(t);
    if (!t->shm.tree_barrier) {
        wait_all(t, s);
        return;
    }
    const int n = t->n_pes, me = t->my_pe, rounds = shmpi_barrier_rounds(n);
    struct shmpi_round_flag *from[SHMPI_BARRIER_ROUNDS];
    for (int k = 0; k < rounds; k++) /* 2^k < n */
        from[k] = &t->shm.member_slot[(me + n - (1 << k)) % n]->round[k];
    const struct shmpi_waiter needing = {.needs = SHMPI_NEEDS_TEAM, .team = t,
                                         .finalize_may_meet = world_syncing};
    shmpi_dissemination(t->shm.member_slot[me]->round, from, rounds, s, &needing);
    if (t->shm.all_arrived < s)
        t->shm.all_arrived = s;
}

/* Member pe's scratch area of event s. */
static char *scratch(const struct shmpi_team *t, int pe, uint64_t s)
{
    return t->shm.member_slot[pe]->scratch[s % SHMPI_SLOT_RING];
}

/* Returns the next event once nobody reads what this PE wrote for it
 * SHMPI_SLOT_RING events ago (its scratch area and line of the ring). */
static uint64_t next_free_event(struct shmpi_team *t)
{
    uint64_t next = t->shm.seq + 1;
    if (next > SHMPI_SLOT_RING)
        wait_all(t, next - SHMPI_SLOT_RING + 1);
    return next;
}

/* This PE's scratch area for the next event, once nobody reads it. */
static char *own_scratch(struct shmpi_team *t)
{
    return scratch(t, t->my_pe, next_free_event(t));
}

/* Data of up to SHMPI_LINE_DATA bytes travels in a line of its own with
 * the number of its event stamped beside it, so a reader fetches one cache
 * line instead of the writer's counter and then the data: each cache line
 * moved between CPUs is a wait.  The lines follow the ring of
 * the scratch areas; only this path writes them, so a stamp only grows,
 * as events do (a team that takes over a slot starts above every member's
 * counter). */
static struct shmpi_slot_line *line_of(const struct shmpi_team *t, int pe, uint64_t s)
{
    return &t->shm.member_slot[pe]->line[s % SHMPI_SLOT_RING];
}

/* This PE's line for the next event, once nobody reads it. */
static struct shmpi_slot_line *own_line(struct shmpi_team *t)
{
    return line_of(t, t->my_pe, next_free_event(t));
}

/* Arrives at the next event with `line` written; returns the event. */
static uint64_t arrive_stamped(struct shmpi_team *t, struct shmpi_slot_line *line)
{
    uint64_t s = arrive(t);
    atomic_store_explicit(&line->stamp, s, memory_order_release);
    return s;
}

/* Member pe's line of event s, once it is written. */
static const char *stamped_data(const struct shmpi_team *t, int pe, uint64_t s)
{
    struct shmpi_slot_line *line = line_of(t, pe, s);
    SHMPI_WAITER(waiter) = waiter_for(t, pe);
    while (atomic_load_explicit(&line->stamp, memory_order_acquire) < s)
        shmpi_backoff(&waiter);
    return line->data;
}

/* ---- binomial trees -----------------------------------------------------------------------
 * Over ranks r = 0..n-1 relative to the tree's root (r = 0): the parent of
 * r > 0 is r with its lowest set bit cleared, its children are r + b for
 * each power of two b below that bit (any b for the root) with r + b < n.
 * So r's subtree is the ranks [r, r + lowest bit) and the depth is
 * ceil(log2 n).  Data for a child travels in the parent's line or scratch
 * area of the event, as flat forms use them, so the ring rules hold. */
static int tree_parent(int r)
{
    return r & (r - 1);
}

/* The first power of two that is not a child's offset from r. */
static int tree_child_limit(int r, int n)
{
    return r ? r & -r : n;
}

static bool tree_has_children(int r, int n)
{
    return r + 1 < n && tree_child_limit(r, n) > 1;
}

/* This PE's line or scratch area for the next event, once nobody reads it. */
static char *own_area(struct shmpi_team *t, bool in_line, struct shmpi_slot_line **line)
{
    *line = in_line ? own_line(t) : NULL;
    return in_line ? (*line)->data : own_scratch(t);
}

/* Arrives at the next event with this PE's area (line or scratch) written. */
static uint64_t arrive_with(struct shmpi_team *t, struct shmpi_slot_line *line)
{
    return line ? arrive_stamped(t, line) : arrive(t);
}

/* Member pe's area (line or scratch) of event s, once it is written. */
static const char *area_of(const struct shmpi_team *t, int pe, uint64_t s, bool in_line)
{
    if (in_line)
        return stamped_data(t, pe, s);
    wait_for(t, pe, s);
    return scratch(t, pe, s);
}

/* Broadcast of up to a scratch area down the binomial tree from `root`
 * (one event): the root writes its area; every other member that has
 * children copies its parent's area into its own, then arrives; a leaf
 * arrives and reads its parent's.  Data here is in `data` on the root. */
static void tree_broadcast(struct shmpi_team *t, void *dest, const void *data, size_t nbytes,
                           int root, bool want_dest)
{
    const int n = t->n_pes, r = (t->my_pe - root + n) % n;
    const bool in_line = nbytes <= SHMPI_LINE_DATA;
    if (r != 0 && !tree_has_children(r, n)) {
        uint64_t s = arrive(t);
        memcpy(dest, area_of(t, (tree_parent(r) + root) % n, s, in_line), nbytes);
        return;
    }
    struct shmpi_slot_line *line;
    char *area = own_area(t, in_line, &line);
    if (r == 0)
        memcpy(area, data, nbytes);
    else
        memcpy(area, area_of(t, (tree_parent(r) + root) % n, t->shm.seq + 1, in_line), nbytes);
    arrive_with(t, line);
    if (want_dest)
        memcpy(dest, area, nbytes);
}

void shmpi_team_shm_fini(struct shmpi_team *t, bool members_meet)
{
    if (t->shm.slot < 0)
        return;
    /* A new team may take the slot at once: no member of this one may
     * still read this PE's scratch. */
    if (members_meet)
        team_barrier(t);
    slot_release(t->shm.slot);
    free(t->shm.member_slot);
    t->shm = (struct shmpi_team_shm){.slot = -1};
}

/* ---- helpers ------------------------------------------------------------------------- */
/* The segment of a buffer that direct copies read or write: it must be
 * symmetric, as the spec asks, since a PE cannot tell the others to use
 * MPI instead. */
static int symm_segment(const char *routine, const void *addr, size_t len)
{
    int s = shmpi_symm_segment(addr, len);
    if (s < 0)
        shmpi_symm_fail(routine, addr, len, shmpi_g.my_pe);
    return s;
}

static bool segment_mapped(const struct shmpi_team *t, int s)
{
    return s >= 0 && (t->shm.mapped_segs >> s & 1);
}

/* ---- the collectives ------------------------------------------------------------- */
bool shmpi_shm_sync(struct shmpi_team *t)
{
    if (!shmpi_team_has_shm(t))
        return false;
    world_syncing = t == &shmpi_g.team_world;
    team_barrier(t);
    world_syncing = false;
    return true;
}

/* Large forms: where a member's data lies, which it publishes in its
 * scratch before arriving (its source, or a copy of it in its dest when
 * peers could not read the source itself), so the others find it
 * whatever address each PE passed. */
struct origin {
    int segment;
    size_t offset;
};

static void publish(struct shmpi_team *t, const char *data)
{
    int s = shmpi_symm_segment(data, 1);
    *(struct origin *)own_scratch(t) =
        (struct origin){s, (size_t)(data - shmpi_g.seg[s].base)};
}

/* After waiting for event s: what member pe published for it, mapped
 * here; NULL if it published nothing readable (segment -1). */
static const char *published(const struct shmpi_team *t, int pe, uint64_t s)
{
    const struct origin *o = (const struct origin *)scratch(t, pe, s);
    if (o->segment < 0)
        return NULL;
    return shmpi_peer_mapped(o->segment, world_of(t, pe)) + o->offset;
}

/* Whether peers can read [data, data + len) directly. */
static bool readable(const struct shmpi_team *t, const void *data, size_t len)
{
    return segment_mapped(t, shmpi_symm_segment(data, len));
}

bool shmpi_shm_broadcast(const char *routine, struct shmpi_team *t, void *dest,
                         const void *source, size_t nbytes, int root, bool root_dest)
{
    if (!shmpi_team_has_shm(t))
        return false;
    bool is_root = t->my_pe == root;
    if (nbytes <= SHMPI_SLOT_SCRATCH && t->shm.tree_bcast) {
        tree_broadcast(t, dest, source, nbytes, root, root_dest || !is_root);
        return true;
    }
    if (nbytes <= SHMPI_LINE_DATA) {
        if (is_root) {
            struct shmpi_slot_line *line = own_line(t);
            memcpy(line->data, source, nbytes);
            arrive_stamped(t, line);
            if (root_dest)
                memcpy(dest, line->data, nbytes);
        } else {
            uint64_t s = arrive(t);
            memcpy(dest, stamped_data(t, root, s), nbytes);
        }
        return true;
    }
    if (nbytes <= SHMPI_SLOT_SCRATCH) {
        if (is_root) {
            memcpy(own_scratch(t), source, nbytes);
            uint64_t s = arrive(t);
            if (root_dest)
                memcpy(dest, scratch(t, root, s), nbytes);
        } else {
            uint64_t s = arrive(t);
            wait_for(t, root, s);
            memcpy(dest, scratch(t, root, s), nbytes);
        }
        return true;
    }
    if (!segment_mapped(t, symm_segment(routine, dest, nbytes)))
        return false;
    if (!is_root) {
        uint64_t s = arrive(t);
        wait_for(t, root, s);
        const char *from = published(t, root, s);
        if (!from)
            return false; /* the root's source is not readable: MPI, on all */
        memcpy(dest, from, nbytes);
        arrive(t);
        return true;
    }
    const char *from = source;
    bool copy_now = false, copy_after = false;
    if (!readable(t, source, nbytes)) {
        if (!root_dest) { /* nowhere to put it: tell the others, then MPI */
            *(struct origin *)own_scratch(t) = (struct origin){-1, 0};
            arrive(t);
            return false;
        }
        memmove(dest, source, nbytes);
        from = dest;
    } else if (root_dest && dest != source) {
        /* The others read source meanwhile: an overlapping dest waits. */
        copy_after = shmpi_overlap(dest, nbytes, source, nbytes);
        copy_now = !copy_after;
    }
    publish(t, from);
    arrive(t);
    if (copy_now)
        memcpy(dest, source, nbytes); /* while the others copy */
    wait_all(t, arrive(t)); /* the root alone: nobody reads `from` any more */
    if (copy_after)
        memmove(dest, source, nbytes);
    return true;
}

bool shmpi_shm_blocks(const char *routine, struct shmpi_team *t, void *dest, const void *source,
                      size_t nbytes, bool alltoall)
{
    if (!shmpi_team_has_shm(t))
        return false;
    int n = t->n_pes, me = t->my_pe;
    size_t total = nbytes * (size_t)n; /* checked by the caller */
    size_t src_len = alltoall ? total : nbytes;
    size_t pick = alltoall ? nbytes * (size_t)me : 0; /* my block in each source */
    char *to = dest, *own_block = to + nbytes * (size_t)me;
    if (src_len <= SHMPI_LINE_DATA) {
        struct shmpi_slot_line *line = own_line(t);
        memcpy(line->data, source, src_len);
        uint64_t s = arrive_stamped(t, line);
        for (int k = 0; k < n; k++) {
            int pe = (me + k) % n;
            memcpy(to + nbytes * (size_t)pe, stamped_data(t, pe, s) + pick, nbytes);
        }
        return true;
    }
    if (src_len <= SHMPI_SLOT_SCRATCH) {
        memcpy(own_scratch(t), source, src_len);
        uint64_t s = arrive(t);
        wait_all(t, s);
        for (int pe = 0; pe < n; pe++)
            memcpy(to + nbytes * (size_t)pe, scratch(t, pe, s) + pick, nbytes);
        return true;
    }
    if (!segment_mapped(t, symm_segment(routine, dest, total)))
        return false;
    /* Peers read my source while I write my dest.  An fcollect source they
     * cannot read, or that shares bytes with dest other than as my own
     * block (the in-place form), goes to my block first; an alltoall one
     * (symmetric, so this is the same on every PE) leaves it to MPI. */
    const char *from = source;
    bool unreadable = (alltoall ? !segment_mapped(t, symm_segment(routine, source, src_len))
                                : !readable(t, source, src_len)) ||
                      (source != own_block && shmpi_overlap(dest, total, source, src_len));
    if (unreadable && alltoall)
        return false;
    if (unreadable) {
        memmove(own_block, source, nbytes);
        from = own_block;
    }
    publish(t, from);
    uint64_t s = arrive(t);
    wait_all(t, s);
    /* Start at the next PE, so members do not all read the same one. */
    for (int k = 1; k < n; k++) {
        int pe = (me + k) % n;
        memcpy(to + nbytes * (size_t)pe, published(t, pe, s) + pick, nbytes);
    }
    if (from != own_block)
        memcpy(own_block, from + pick, nbytes);
    team_barrier(t); /* nobody reads `from` any more */
    return true;
}

/* ---- collect: members' sizes differ ---------------------------------------------------
 * One event carries every member's header in its line: its size and how
 * to find its data.  Each reader takes the exclusive prefix sum of the
 * sizes (the offset of each block in dest) from the headers, so all
 * members agree on every later choice without another exchange:
 *   INLINE  up to COLLECT_INLINE_MAX bytes in the line after the header;
 *   SCRATCH up to a scratch area, in the writer's area of the event;
 *   DIRECT  in the writer's symmetric source, read in place;
 *   OWN     the source is not readable by peers: the writer copies it to
 *           its own block of dest (then arrives at a second event), where
 *           the others read it; so is a DIRECT source that shares bytes
 *           with the writer's dest other than as its own block;
 *   NONE    neither is possible (dest not mapped): every member leaves the
 *           collective to MPI.
 * If any block is read in place, a last event tells each writer that
 * nobody reads it any more. */
enum collect_how { COLLECT_INLINE, COLLECT_SCRATCH, COLLECT_DIRECT, COLLECT_OWN, COLLECT_NONE };
struct collect_head {
    uint32_t how;
    int32_t segment; /* DIRECT: of the source, its offset in `at` */
    uint64_t nbytes;
    uint64_t at;
};
#define COLLECT_INLINE_MAX (SHMPI_LINE_DATA - offsetof(struct collect_head, at))
_Static_assert(sizeof(struct collect_head) <= SHMPI_LINE_DATA, "a header fits a line");

static const char *inline_data_of(const struct collect_head *h)
{
    return (const char *)h + offsetof(struct collect_head, at);
}

/* Whether the block of a member (header h, at `off` in dest) is read from
 * its dest, dest being at offset doff of segment dseg on every member. */
static bool collect_own(const struct collect_head *h, size_t off, size_t total, int dseg,
                        size_t doff)
{
    if (h->how == COLLECT_OWN)
        return true;
    if (h->how != COLLECT_DIRECT || h->segment != dseg || h->at == doff + off)
        return false; /* not in dest, or exactly its own block (in place) */
    return h->at < doff + total && doff < h->at + h->nbytes;
}

/* Where dest lies: its segment (-1 if none) and offset, the same on every
 * member for a symmetric dest. */
static int dest_place(const void *dest, size_t *offset)
{
    int seg = shmpi_symm_segment(dest, 1);
    *offset = seg < 0 ? 0 : (size_t)((const char *)dest - shmpi_g.seg[seg].base);
    return seg;
}

bool shmpi_shm_collect(const char *routine, struct shmpi_team *t, void *dest,
                       const void *source, size_t nbytes)
{
    if (!shmpi_team_has_shm(t))
        return false;
    const int n = t->n_pes, me = t->my_pe;
    struct shmpi_slot_line *line = own_line(t);
    struct collect_head *head = (struct collect_head *)line->data;
    *head = (struct collect_head){.how = COLLECT_INLINE, .segment = -1, .nbytes = nbytes};
    char *inline_data = line->data + offsetof(struct collect_head, at);
    if (nbytes <= COLLECT_INLINE_MAX) {
        memcpy(inline_data, source, nbytes);
    } else if (nbytes <= SHMPI_SLOT_SCRATCH) {
        head->how = COLLECT_SCRATCH;
        memcpy(own_scratch(t), source, nbytes);
    } else {
        int seg = shmpi_symm_segment(source, nbytes);
        size_t doff;
        if (segment_mapped(t, seg)) {
            head->how = COLLECT_DIRECT;
            head->segment = seg;
            head->at = (uint64_t)((const char *)source - shmpi_g.seg[seg].base);
        } else {
            head->how = segment_mapped(t, dest_place(dest, &doff)) ? COLLECT_OWN : COLLECT_NONE;
        }
    }
    uint64_t s = arrive_stamped(t, line);
    /* The headers; blocks in lines and scratch go straight to dest when
     * this PE's own data is there too (nobody reads its source or dest). */
    const bool mine_copied = head->how <= COLLECT_SCRATCH;
    char *to = dest;
    size_t total = 0;
    bool large = false, none = false;
    for (int pe = 0; pe < n; pe++) {
        const struct collect_head *h = (const struct collect_head *)stamped_data(t, pe, s);
        size_t len = h->nbytes;
        if (h->how > COLLECT_SCRATCH)
            large = true;
        else if (mine_copied && len > 0)
            memcpy(to + total, h->how == COLLECT_INLINE ? inline_data_of(h) : scratch(t, pe, s),
                   len);
        none |= h->how == COLLECT_NONE;
        if (__builtin_add_overflow(total, len, &total))
            shmpi_abort(routine, "the collected data is larger than the address space");
    }
    if (none)
        return false;
    if (!large)
        return true;
    size_t doff;
    const int dseg = dest_place(dest, &doff);
    size_t off = 0;
    bool any_own = false;
    for (int pe = 0; pe < n; pe++) {
        const struct collect_head *h = (const struct collect_head *)line_of(t, pe, s)->data;
        if (collect_own(h, off, total, dseg, doff)) {
            any_own = true;
            if (pe == me)
                memmove(to + off, source, nbytes);
        }
        off += h->nbytes;
    }
    if (any_own)
        team_barrier(t);
    off = 0;
    for (int pe = 0; pe < n; pe++) {
        const struct collect_head *h = (const struct collect_head *)line_of(t, pe, s)->data;
        size_t len = h->nbytes;
        const char *from;
        if (collect_own(h, off, total, dseg, doff))
            from = shmpi_peer_mapped(dseg, world_of(t, pe)) + doff + off;
        else if (h->how == COLLECT_DIRECT)
            from = shmpi_peer_mapped(h->segment, world_of(t, pe)) + h->at;
        else if (mine_copied)
            from = NULL; /* copied above */
        else if (h->how == COLLECT_SCRATCH)
            from = scratch(t, pe, s);
        else
            from = inline_data_of(h);
        if (from && len > 0 && from != to + off)
            memcpy(to + off, from, len);
        off += len;
    }
    team_barrier(t); /* nobody reads this PE's source or dest any more */
    return true;
}

static const char *peer_copy(const char *routine, const struct shmpi_team *t, int pe,
                             const void *mine, size_t len);

/* ---- strided alltoall -------------------------------------------------------------------
 * Element k of the block for member j is source[(j * nelems + k) * sst];
 * it lands in dest[(i * nelems + k) * dst] on member j, i being the
 * sender.  Up to a scratch area in all, each member packs its source
 * there, block after block, and every member unpacks its block from each
 * one's area; beyond, each reads the others' symmetric sources in place
 * (then a last event, as for the other direct forms). */
static void copy_strided(char *to, size_t to_step, const char *from, size_t from_step, size_t n,
                         size_t elem_size)
{
    switch (elem_size) { /* constant sizes: one move each */
    case 4:
        for (size_t k = 0; k < n; k++)
            memcpy(to + k * to_step, from + k * from_step, 4);
        break;
    case 8:
        for (size_t k = 0; k < n; k++)
            memcpy(to + k * to_step, from + k * from_step, 8);
        break;
    default:
        for (size_t k = 0; k < n; k++)
            memcpy(to + k * to_step, from + k * from_step, elem_size);
        break;
    }
}

bool shmpi_shm_alltoalls(const char *routine, struct shmpi_team *t, void *dest,
                         const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                         size_t elem_size)
{
    if (!shmpi_team_has_shm(t))
        return false;
    const int n = t->n_pes, me = t->my_pe;
    /* Sizes checked by the caller (the extents fit a size_t). */
    const size_t block = nelems * elem_size, all = nelems * (size_t)n;
    const size_t dstep = (size_t)dst * elem_size, sstep = (size_t)sst * elem_size;
    char *to = dest;
    if (block * (size_t)n <= SHMPI_SLOT_SCRATCH) {
        char *area = own_scratch(t);
        copy_strided(area, elem_size, source, sstep, all, elem_size);
        uint64_t s = arrive(t);
        wait_all(t, s);
        for (int pe = 0; pe < n; pe++)
            copy_strided(to + (size_t)pe * nelems * dstep, dstep,
                         scratch(t, pe, s) + (size_t)me * block, elem_size, nelems, elem_size);
        return true;
    }
    size_t src_len = ((all - 1) * (size_t)sst + 1) * elem_size;
    size_t dst_len = ((all - 1) * (size_t)dst + 1) * elem_size;
    /* Symmetric buffers (the same on every member), mapped and apart. */
    if (!segment_mapped(t, symm_segment(routine, source, src_len)) ||
        shmpi_overlap(source, src_len, dest, dst_len))
        return false;
    team_barrier(t);
    for (int k = 0; k < n; k++) {
        int pe = (me + k) % n; /* members start at different senders */
        const char *from = peer_copy(routine, t, pe, source, src_len);
        copy_strided(to + (size_t)pe * nelems * dstep, dstep, from + (size_t)me * nelems * sstep,
                     sstep, nelems, elem_size);
    }
    team_barrier(t); /* nobody reads this PE's source any more */
    return true;
}

/* ---- reductions ------------------------------------------------------------------------
 * Most reductions combine inline: an MPI_Reduce_local call costs as much
 * as the rest of a small reduction (benchmarks/RESULTS.md, "Measurements
 * behind design constants").
 * Integers add and multiply as unsigned (wrapping, as MPI does, without
 * signed overflow); other types (long double, complex) go to MPI. */
enum elem_kind { ELEM_OTHER, ELEM_SIGNED, ELEM_UNSIGNED, ELEM_FLOAT };

static enum elem_kind elem_kind(MPI_Datatype type)
{
    static const struct {
        MPI_Datatype type;
        enum elem_kind kind;
    } kinds[] = {
        {MPI_LONG, ELEM_SIGNED},          {MPI_INT, ELEM_SIGNED},
        {MPI_DOUBLE, ELEM_FLOAT},         {MPI_FLOAT, ELEM_FLOAT},
        {MPI_LONG_LONG, ELEM_SIGNED},     {MPI_SHORT, ELEM_SIGNED},
        {MPI_SIGNED_CHAR, ELEM_SIGNED},   {MPI_INT8_T, ELEM_SIGNED},
        {MPI_INT16_T, ELEM_SIGNED},       {MPI_INT32_T, ELEM_SIGNED},
        {MPI_INT64_T, ELEM_SIGNED},       {MPI_UNSIGNED_LONG, ELEM_UNSIGNED},
        {MPI_UNSIGNED, ELEM_UNSIGNED},    {MPI_UNSIGNED_LONG_LONG, ELEM_UNSIGNED},
        {MPI_UNSIGNED_SHORT, ELEM_UNSIGNED}, {MPI_UNSIGNED_CHAR, ELEM_UNSIGNED},
        {MPI_UINT8_T, ELEM_UNSIGNED},     {MPI_UINT16_T, ELEM_UNSIGNED},
        {MPI_UINT32_T, ELEM_UNSIGNED},    {MPI_UINT64_T, ELEM_UNSIGNED},
    };
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (kinds[i].type == type)
            return kinds[i].kind;
    return ELEM_OTHER;
}

/* io[i] = in[i] OP io[i] for i < n, as MPI_Reduce_local; false (nothing
 * done) for an operator it does not know. */
typedef bool combine_fn(void *io, const void *in, size_t n, MPI_Op op, bool is_signed);

/* io[i] = EXPR of a = in[i] and b = io[i]: one loop per operator, which
 * the compiler vectorizes (a test of op per element kept it scalar, several
 * times slower). */
#define COMBINE_LOOP(T, EXPR)                                                                 \
    for (size_t i = 0; i < n; i++) {                                                          \
        T a = in[i], b = io[i];                                                               \
        io[i] = (EXPR);                                                                       \
    }

#define DEFINE_COMBINE_INT(BITS)                                                              \
    static bool combine_int##BITS(void *io_, const void *in_, size_t n, MPI_Op op,            \
                                  bool is_signed)                                             \
    {                                                                                         \
        typedef uint##BITS##_t U;                                                             \
        typedef int##BITS##_t S;                                                              \
        U *io = io_;                                                                          \
        const U *in = in_;                                                                    \
        if (op == MPI_SUM)                                                                    \
            COMBINE_LOOP(U, (U)(a + b))                                                       \
        else if (op == MPI_PROD)                                                              \
            COMBINE_LOOP(U, (U)((uint64_t)a * b))                                             \
        else if (op == MPI_BAND)                                                              \
            COMBINE_LOOP(U, a & b)                                                            \
        else if (op == MPI_BOR)                                                               \
            COMBINE_LOOP(U, a | b)                                                            \
        else if (op == MPI_BXOR)                                                              \
            COMBINE_LOOP(U, a ^ b)                                                            \
        else if (op == MPI_MIN && is_signed)                                                  \
            COMBINE_LOOP(U, (S)a < (S)b ? a : b)                                              \
        else if (op == MPI_MIN)                                                               \
            COMBINE_LOOP(U, a < b ? a : b)                                                    \
        else if (op == MPI_MAX && is_signed)                                                  \
            COMBINE_LOOP(U, (S)a < (S)b ? b : a)                                              \
        else if (op == MPI_MAX)                                                               \
            COMBINE_LOOP(U, a < b ? b : a)                                                    \
        else                                                                                  \
            return false;                                                                     \
        return true;                                                                          \
    }
DEFINE_COMBINE_INT(8)
DEFINE_COMBINE_INT(16)
DEFINE_COMBINE_INT(32)
DEFINE_COMBINE_INT(64)

#define DEFINE_COMBINE_FLOAT(T)                                                               \
    static bool combine_##T(void *io_, const void *in_, size_t n, MPI_Op op, bool is_signed)  \
    {                                                                                         \
        (void)is_signed;                                                                      \
        T *io = io_;                                                                          \
        const T *in = in_;                                                                    \
        if (op == MPI_SUM)                                                                    \
            COMBINE_LOOP(T, a + b)                                                            \
        else if (op == MPI_PROD)                                                              \
            COMBINE_LOOP(T, a * b)                                                            \
        else if (op == MPI_MIN)                                                               \
            COMBINE_LOOP(T, a < b ? a : b)                                                    \
        else if (op == MPI_MAX)                                                               \
            COMBINE_LOOP(T, a > b ? a : b)                                                    \
        else                                                                                  \
            return false;                                                                     \
        return true;                                                                          \
    }
DEFINE_COMBINE_FLOAT(float)
DEFINE_COMBINE_FLOAT(double)

/* io = in OP io element-wise. */
static void combine(void *io, const void *in, size_t n, size_t elem_size, MPI_Datatype type,
                    MPI_Op op)
{
    enum elem_kind kind = elem_kind(type);
    combine_fn *fn = NULL;
    if (kind == ELEM_FLOAT)
        fn = elem_size == sizeof(double) ? combine_double
             : elem_size == sizeof(float) ? combine_float
                                          : NULL;
    else if (kind != ELEM_OTHER)
        fn = elem_size == 8   ? combine_int64
             : elem_size == 4 ? combine_int32
             : elem_size == 2 ? combine_int16
             : elem_size == 1 ? combine_int8
                              : NULL;
    if (!fn || !fn(io, in, n, op, kind == ELEM_SIGNED))
        MPI_Reduce_local(in, io, (int)n, type, op);
}

/* Reductions up to this size go through scratch, in pieces of one area
 * (one event each); larger ones are sliced (reduce_sliced).  Beyond it
 * scratch no longer beat MPI (benchmarks/RESULTS.md, "Measurements behind
 * design constants"). */
#define REDUCE_SCRATCH_MAX ((size_t)4 * 1024)

/* Member pe's copy of the symmetric buffer at `mine` (mapped segment). */
static const char *peer_copy(const char *routine, const struct shmpi_team *t, int pe,
                             const void *mine, size_t len)
{
    return shmpi_symm_target(routine, mine, len, world_of(t, pe)).mapped;
}

/* Where member pe's slice of nelems elements starts (elements). */
static size_t slice_start(size_t nelems, int pe, int n_pes)
{
    return nelems * (size_t)pe / (size_t)n_pes;
}

/* chunk = the combination of `count` elements at byte `off` of the
 * symmetric source of members 0 to upto - 1 (upto >= 1), in member order. */
static void combine_sources(const char *routine, const struct shmpi_team *t, char *chunk,
                            const void *source, size_t nbytes, size_t off, size_t count,
                            size_t elem_size, MPI_Datatype type, MPI_Op op, int upto)
{
    memcpy(chunk, peer_copy(routine, t, 0, source, nbytes) + off, count * elem_size);
    for (int pe = 1; pe < upto; pe++)
        combine(chunk, peer_copy(routine, t, pe, source, nbytes) + off, count, elem_size, type,
                op);
}

/* Large reductions: member p owns slice p of the vector (nelems * p / n_pes
 * up to the next one's start).  Once all sources are ready (event 1) each
 * combines its slice from every member's source, in member order, into its
 * own dest; once all slices are done (event 2) each copies the others'
 * slices from their owners' dests; it returns once nobody reads its dest
 * any more (event 3).  Each element is combined once, so all members get
 * the same bits.  In place (dest == source), a member overwrites parts of
 * its source that others read only after event 2, and its own slice
 * chunk by chunk after reading it. */
static void reduce_sliced(const char *routine, struct shmpi_team *t, void *dest,
                          const void *source, size_t nelems, size_t elem_size, MPI_Datatype type,
                          MPI_Op op)
{
    _Alignas(64) char chunk[SHMPI_SLOT_SCRATCH];
    const size_t chunk_elems = sizeof chunk / elem_size, nbytes = nelems * elem_size;
    const int n = t->n_pes, me = t->my_pe;
    team_barrier(t);
    size_t lo = slice_start(nelems, me, n), hi = slice_start(nelems, me + 1, n);
    for (size_t at = lo; at < hi; at += chunk_elems) {
        size_t count = hi - at < chunk_elems ? hi - at : chunk_elems;
        size_t off = at * elem_size, len = count * elem_size;
        combine_sources(routine, t, chunk, source, nbytes, off, count, elem_size, type, op, n);
        memcpy((char *)dest + off, chunk, len);
    }
    team_barrier(t);
    for (int k = 1; k < n; k++) {
        int pe = (me + k) % n; /* members start at different owners */
        size_t start = slice_start(nelems, pe, n), off = start * elem_size;
        memcpy((char *)dest + off, peer_copy(routine, t, pe, dest, nbytes) + off,
               (slice_start(nelems, pe + 1, n) - start) * elem_size);
    }
    team_barrier(t);
}

/* One piece (up to a scratch area) of a small reduction up the binomial
 * tree rooted at member 0, then down it (two events): each member combines
 * its contribution with its children's partial results, child after child,
 * and publishes the result; the root's is the answer, broadcast down the
 * same tree.  Each partial result is computed once, so every member gets
 * the same bits. */
static void tree_reduce_piece(struct shmpi_team *t, char *out, const char *in, size_t count,
                              size_t elem_size, MPI_Datatype type, MPI_Op op)
{
    const int n = t->n_pes, r = t->my_pe;
    const size_t len = count * elem_size;
    const bool in_line = len <= SHMPI_LINE_DATA;
    struct shmpi_slot_line *line;
    char *area = own_area(t, in_line, &line);
    memcpy(area, in, len);
    const uint64_t s = t->shm.seq + 1;
    for (int b = 1; b < tree_child_limit(r, n) && r + b < n; b <<= 1)
        combine(area, area_of(t, r + b, s, in_line), count, elem_size, type, op);
    arrive_with(t, line);
    tree_broadcast(t, out, area, len, 0, true);
}

/* Small reductions and scans, through lines and scratch in pieces of one
 * area (one event each): every member contributes, and member i's dest
 * gets the combination of members 0 to upto - 1 (all of them for a
 * reduction; zero bytes when upto is 0); a reduction (upto = N) with
 * `tree` goes up and down the binomial tree instead (two events a piece). */
static void reduce_pieces(const char *routine, struct shmpi_team *t, void *dest,
                          const void *source, size_t nelems, size_t elem_size, MPI_Datatype type,
                          MPI_Op op, int upto, bool tree)
{
    size_t nbytes = nelems * elem_size;
    /* A piece of dest must not overwrite source not yet copied: only
     * dest == source (in place) or disjoint buffers go piece by piece. */
    void *copy = NULL;
    if (dest != source)
        source = shmpi_unaliased(routine, source, nbytes, dest, nbytes, &copy);
    size_t piece = SHMPI_SLOT_SCRATCH / elem_size;
    for (size_t done = 0; done < nelems; done += piece) {
        size_t n = nelems - done < piece ? nelems - done : piece;
        char *out = (char *)dest + done * elem_size;
        size_t len = n * elem_size;
        if (tree) {
            tree_reduce_piece(t, out, (const char *)source + done * elem_size, n, elem_size,
                              type, op);
            continue;
        }
        bool in_line = len <= SHMPI_LINE_DATA;
        struct shmpi_slot_line *line = in_line ? own_line(t) : NULL;
        char *area = in_line ? line->data : own_scratch(t);
        memcpy(area, (const char *)source + done * elem_size, len);
        uint64_t s = in_line ? arrive_stamped(t, line) : arrive(t);
        if (!in_line && upto == t->n_pes)
            wait_all(t, s);
        if (upto == 0)
            memset(out, 0, len);
        /* Every PE combines in the same order, so all get the same result
         * (floating point included). */
        for (int pe = 0; pe < upto; pe++) {
            if (!in_line && upto < t->n_pes)
                wait_for(t, pe, s);
            const char *in = in_line ? stamped_data(t, pe, s) : scratch(t, pe, s);
            if (pe == 0)
                memcpy(out, in, len);
            else
                combine(out, in, n, elem_size, type, op);
        }
    }
    free(copy);
}

bool shmpi_shm_reduce(const char *routine, struct shmpi_team *t, void *dest, const void *source,
                      size_t nelems, size_t elem_size, MPI_Datatype type, MPI_Op op)
{
    size_t nbytes = nelems * elem_size; /* checked by the caller */
    if (!shmpi_team_has_shm(t))
        return false;
    if (nbytes > REDUCE_SCRATCH_MAX) {
        /* Buffers that are symmetric (as the spec asks), mapped, and either
         * the same or disjoint: the same on every member. */
        if (!segment_mapped(t, symm_segment(routine, dest, nbytes)) ||
            !segment_mapped(t, symm_segment(routine, source, nbytes)) ||
            elem_size > SHMPI_SLOT_SCRATCH ||
            (dest != source && shmpi_overlap(dest, nbytes, source, nbytes)))
            return false;
        reduce_sliced(routine, t, dest, source, nelems, elem_size, type, op);
        return true;
    }
    reduce_pieces(routine, t, dest, source, nelems, elem_size, type, op, t->n_pes,
                  t->shm.tree_reduce);
    return true;
}

/* ---- scans ---------------------------------------------------------------------------------
 * A scan is a reduction that keeps partial results: member i combines the
 * contributions of members 0 to i (inclusive) or 0 to i - 1 (exclusive;
 * all zero bytes on member 0), in member order as reductions do.  Up to
 * REDUCE_SCRATCH_MAX bytes go through lines and scratch in pieces, one
 * event each, as a reduction's; beyond, each member reads the sources of
 * the members before it in place (symmetric, mapped, apart from dest),
 * then a last event. */
bool shmpi_shm_scan(const char *routine, struct shmpi_team *t, void *dest, const void *source,
                    size_t nelems, size_t elem_size, MPI_Datatype type, MPI_Op op,
                    bool exclusive)
{
    size_t nbytes = nelems * elem_size; /* checked by the caller */
    if (!shmpi_team_has_shm(t))
        return false;
    const int me = t->my_pe, upto = exclusive ? me : me + 1; /* members combined */
    if (nbytes > REDUCE_SCRATCH_MAX) {
        if (!segment_mapped(t, symm_segment(routine, source, nbytes)) ||
            elem_size > SHMPI_SLOT_SCRATCH || shmpi_overlap(dest, nbytes, source, nbytes))
            return false;
        _Alignas(64) char chunk[SHMPI_SLOT_SCRATCH];
        const size_t chunk_elems = sizeof chunk / elem_size;
        team_barrier(t);
        if (upto == 0)
            memset(dest, 0, nbytes);
        for (size_t at = 0; upto > 0 && at < nelems; at += chunk_elems) {
            size_t count = nelems - at < chunk_elems ? nelems - at : chunk_elems;
            size_t off = at * elem_size, len = count * elem_size;
            combine_sources(routine, t, chunk, source, nbytes, off, count, elem_size, type, op,
                            upto);
            memcpy((char *)dest + off, chunk, len);
        }
        team_barrier(t); /* nobody reads this PE's source any more */
        return true;
    }
    reduce_pieces(routine, t, dest, source, nelems, elem_size, type, op, upto, false);
    return true;
}
