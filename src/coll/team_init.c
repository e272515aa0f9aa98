/*
 * team_init.c - teams whose members know only an id, their number and
 * their index (shmemx_team_get_uniqueid, shmemx_team_init: NVSHMEM's
 * nvshmemx_team_get_uniqueid and nvshmemx_team_init; coll.h).
 *
 * The members must first learn each other's world PEs.  They meet in a
 * slot of one PE's rendezvous board (struct shmpi_rendezvous, shmpi.h): an
 * issued id names its issuer and the slot it claimed; a hand-chosen id (any
 * other uint64: "hand-chosen ids" below) a PE from its hash, and the
 * first member claims a slot there for it.  Then
 *   - index 0 puts (npes, its PE) in the slot's root word by a
 *     compare-and-swap, so a second index 0 finds the word taken;
 *   - every other member polls the root word with AMOs, waiting as every
 *     wait of shmpi does (progress, yield, a record of what it waits in),
 *     then sends (id, npes, index, PE) to index 0;
 *   - index 0 receives the npes - 1 messages, checks them, frees the slot
 *     (every member has read the root word by then) and sends the list of
 *     PEs down a binomial tree over the indices: each member receives it
 *     once and forwards it to at most log2(npes) others.
 * Then the members make the team as a split does, alone (team_comm.c).
 * Only AMOs reach the board's PE, so the meeting moves as any AMO aimed at
 * it does (while it waits in shmpi, or through the progress thread); the
 * messages are between members, all waiting inside shmpi.  No PE but the
 * members sends or receives anything.
 *
 * The messages go on shmpi_g.comm, whose only other point-to-point traffic
 * is shmem_finalize's handshake (tags 0x5e01 and 0x5e02), with tags from
 * the id (TAG_FIRST on, below 32767, the least MPI_TAG_UB MPI allows) so
 * that calls of different ids on one PE's threads do not take each
 * other's messages; each message carries its id, which is checked.
 */
#include "shmpi.h"
#include "amo.h"
#include "coll.h"

#include <pthread.h>
#include <stdlib.h>

#define SLOT_BITS 7 /* 1 << SLOT_BITS == SHMPI_RENDEZVOUS_SLOTS */
_Static_assert((1 << SLOT_BITS) == SHMPI_RENDEZVOUS_SLOTS, "slot bits");
#define SLOTS SHMPI_RENDEZVOUS_SLOTS
/* An issued id: (PE + 1) << 32 | generation << SLOT_BITS | slot, the
 * generation from 1 to GENERATIONS. */
#define GENERATIONS ((UINT64_C(1) << (32 - SLOT_BITS)) - 1)
/* Keys of generation 0, which no issued id has: hand-chosen id 0's key,
 * and the tombstone of a slot freed inside a probe sequence. */
#define KEY_OF_ZERO (UINT64_C(1) << 32)
#define TOMBSTONE (UINT64_C(1) << 32 | 1)
#define TAG_FIRST 0x6000
#define TAG_IDS 4000

/* What a member tells index 0. */
struct join {
    uint64_t id;
    int32_t npes, index, pe;
};

static pthread_mutex_t issue_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t issued; /* ids this PE issued */

static struct shmpi_reserved *board(void)
{
    return (struct shmpi_reserved *)(shmpi_g.seg[SHMPI_SEG_HEAP].base +
                                     shmpi_g.heap_reserved_off);
}

/* Slot `slot` of this PE's rendezvous board (a symmetric address). */
static struct shmpi_rendezvous *board_slot(int slot)
{
    return &board()->rendezvous[slot];
}

static uint64_t word_fetch(const char *routine, uint64_t *word, int pe)
{
    uint64_t value;
    shmpi_amo(routine, SHMEM_CTX_DEFAULT, SHMPI_AMO_FETCH, SHMPI_AMO_UINT64, word, NULL, NULL,
              &value, pe);
    return value;
}

static void word_set(const char *routine, uint64_t *word, uint64_t value, int pe)
{
    shmpi_amo(routine, SHMEM_CTX_DEFAULT, SHMPI_AMO_SET, SHMPI_AMO_UINT64, word, &value, NULL,
              NULL, pe);
}

/* The word's old value; `value` is in it where that was `expect`. */
static uint64_t word_cswap(const char *routine, uint64_t *word, uint64_t expect,
                           uint64_t value, int pe)
{
    uint64_t was;
    shmpi_amo(routine, SHMEM_CTX_DEFAULT, SHMPI_AMO_CSWAP, SHMPI_AMO_UINT64, word, &value,
              &expect, &was, pe);
    return was;
}

/* Claims a free slot (0 or a tombstone) for `key`. */
static bool slot_claim(const char *routine, int slot, uint64_t key, int pe)
{
    uint64_t was = word_cswap(routine, &board_slot(slot)->id, 0, key, pe);
    return was == 0 || (was == TOMBSTONE &&
                        word_cswap(routine, &board_slot(slot)->id, TOMBSTONE, key, pe) ==
                            TOMBSTONE);
}

int shmpi_team_get_uniqueid(const char *routine, uint64_t *uniqueid)
{
    shmpi_check_ready(routine);
    if (!uniqueid) {
        if (shmpi_g.env.debug)
            shmpi_warn(routine, "uniqueid is NULL");
        return -1;
    }
    pthread_mutex_lock(&issue_lock);
    uint64_t generation = issued % GENERATIONS + 1, id = 0;
    for (int i = 0; i < SLOTS && id == 0; i++) {
        int s = (int)((issued + (uint64_t)i) % SLOTS);
        uint64_t candidate = (uint64_t)(shmpi_g.my_pe + 1) << 32 | generation << SLOT_BITS |
                             (uint64_t)s;
        /* A free slot's root word is 0 (slot_free): the claim publishes it. */
        if (slot_claim(routine, s, candidate, shmpi_g.my_pe))
            id = candidate;
    }
    if (id == 0) {
        pthread_mutex_unlock(&issue_lock);
        if (shmpi_g.env.debug)
            shmpi_warn(routine, "all %d rendezvous slots of this PE wait for their "
                       "shmemx_team_init", SLOTS);
        return -1;
    }
    issued++;
    pthread_mutex_unlock(&issue_lock);
    *uniqueid = id;
    return 0;
}

/* ---- hand-chosen ids -------------------------------------------------------------- */
/* An id whose upper 32 bits are from 1 to the number of PEs is issued (its
 * PE and slot are in it); any other is chosen by hand.  A hand-chosen id's
 * members meet at PE h % n_pes, in the first slot from h >> 57 on (open
 * addressing, wrapping) that holds its key, h = splitmix64(id).  A key is
 * in one slot at a time: claims and frees hold the board's lock, and a
 * slot freed inside a probe sequence becomes a tombstone, so the slots
 * from a live key's first slot up to its own are never 0 and a probe that
 * meets a 0 knows the key is not there. */
static bool issued_form(uint64_t id)
{
    uint64_t pe = id >> 32;
    return pe >= 1 && pe <= (uint64_t)shmpi_g.n_pes;
}

static uint64_t splitmix64(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ x >> 30) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ x >> 27) * UINT64_C(0x94d049bb133111eb);
    return x ^ x >> 31;
}

static bool board_try_lock(const char *routine, int pe)
{
    return word_cswap(routine, &board()->rendezvous_lock, 0, (uint64_t)shmpi_g.my_pe + 1, pe) ==
           0;
}

static void board_lock(const char *routine, int pe)
{
    SHMPI_WAITER(w) = {.waits_in = SHMPI_WAITS_ON_LOCK, .routine = routine,
                       .addr = &board()->rendezvous_lock};
    while (!board_try_lock(routine, pe))
        shmpi_backoff(&w);
}

/* The slot of `key` from `first` on, or -1; *vacant: the first free slot
 * met (-1: none, every slot held). */
static int probe(const char *routine, uint64_t key, int first, int *vacant, int pe)
{
    *vacant = -1;
    for (int i = 0; i < SLOTS; i++) {
        int s = (first + i) % SLOTS;
        uint64_t held = word_fetch(routine, &board_slot(s)->id, pe);
        if (held == key)
            return s;
        if ((held == 0 || held == TOMBSTONE) && *vacant < 0)
            *vacant = s;
        if (held == 0)
            break;
    }
    return -1;
}

/* The slot of hand-chosen id `id` at PE `pe` (its PE), claimed by the
 * first member that comes; where all are held it waits for one. */
static int hand_slot(const char *routine, uint64_t id, int pe)
{
    uint64_t key = id ? id : KEY_OF_ZERO;
    int first = (int)(splitmix64(id) >> 57), vacant;
    int s = probe(routine, key, first, &vacant, pe); /* no lock: a member claimed it */
    if (s >= 0)
        return s;
    uint64_t *lock = &board()->rendezvous_lock;
    SHMPI_WAITER(w) = {.waits_in = SHMPI_WAITS_ON_LOCK, .routine = routine, .addr = lock};
    for (;;) {
        if (board_try_lock(routine, pe)) {
            s = probe(routine, key, first, &vacant, pe);
            if (s < 0 && vacant >= 0 && slot_claim(routine, vacant, key, pe))
                s = vacant;
            word_set(routine, lock, 0, pe);
            if (s >= 0)
                return s;
        }
        /* The lock is held, every slot is, or an issuer took the vacant one. */
        shmpi_backoff(&w);
    }
}

/* Index 0, once every member read the root word: the slot free for another
 * id, its root word 0 first.  A slot whose next is 0 ends no probe
 * sequence of a live key: it becomes 0, with the tombstones before it;
 * another, a tombstone. */
static void slot_free(const char *routine, int slot, int pe)
{
    word_set(routine, &board_slot(slot)->root, 0, pe);
    board_lock(routine, pe);
    if (word_fetch(routine, &board_slot((slot + 1) % SLOTS)->id, pe) != 0) {
        word_set(routine, &board_slot(slot)->id, TOMBSTONE, pe);
    } else {
        word_set(routine, &board_slot(slot)->id, 0, pe);
        for (int i = 1; i < SLOTS; i++) {
            int s = (slot + SLOTS - i) % SLOTS;
            if (word_cswap(routine, &board_slot(s)->id, TOMBSTONE, 0, pe) != TOMBSTONE)
                break;
        }
    }
    word_set(routine, &board()->rendezvous_lock, 0, pe);
}

/* Not a team: the line under SHMEM_DEBUG, nonzero. */
static int refuse(const char *routine, const char *what, uint64_t id, int npes, int member)
{
    if (shmpi_g.env.debug)
        shmpi_warn(routine, "%s (uniqueid %#llx, npes %d, pe_idx_in_team %d)", what,
                   (unsigned long long)id, npes, member);
    return -1;
}

/* Index 0: the others' PEs, into world[] (world[0] is this PE). */
static void gather_joins(const char *routine, uint64_t id, int npes, int tag, int *world)
{
    bool *seen = calloc((size_t)npes, sizeof(bool));
    if (!seen)
        shmpi_abort(routine, "out of memory (%d PEs' indices)", npes);
    seen[0] = true;
    const struct shmpi_waiter waiting = {.waits_in = SHMPI_WAITS_FOR_MPI, .routine = routine};
    for (int got = 1; got < npes; got++) {
        struct join j;
        shmpi_wait_recv_from_any(&j, (int)sizeof j, MPI_BYTE, tag, shmpi_g.comm, &waiting);
        if (j.id != id)
            shmpi_abort(routine, "uniqueid %#llx from PE %d, expected %#llx: two calls at once "
                        "on this PE whose ids share a tag; call them one after the other",
                        (unsigned long long)j.id, j.pe, (unsigned long long)id);
        if (j.npes != npes)
            shmpi_abort(routine, "PE %d gives npes %d, PE %d (pe_idx_in_team 0) npes %d for "
                        "uniqueid %#llx", j.pe, j.npes, shmpi_g.my_pe, npes,
                        (unsigned long long)id);
        if (j.index < 1 || j.index >= npes)
            shmpi_abort(routine, "PE %d gives pe_idx_in_team %d of npes %d for uniqueid %#llx",
                        j.pe, j.index, npes, (unsigned long long)id);
        if (seen[j.index])
            shmpi_abort(routine, "PE %d and PE %d both give pe_idx_in_team %d for uniqueid "
                        "%#llx", j.pe, world[j.index], j.index, (unsigned long long)id);
        seen[j.index] = true;
        world[j.index] = j.pe;
    }
    free(seen);
}

/* The list (id, then the npes world PEs) from index 0 down a binomial
 * tree: member i's children are i + 2^k for every 2^k > i. */
static void spread_list(const char *routine, uint64_t id, int npes, int member, int tag,
                        int *list)
{
    const struct shmpi_waiter waiting = {.waits_in = SHMPI_WAITS_FOR_MPI, .routine = routine};
    if (member > 0) {
        shmpi_wait_recv_from_any(list, npes + 2, MPI_INT, tag, shmpi_g.comm, &waiting);
        uint64_t got = (uint64_t)(uint32_t)list[0] << 32 | (uint32_t)list[1];
        if (got != id)
            shmpi_abort(routine, "the members' list of uniqueid %#llx came for %#llx: two "
                        "calls at once on this PE whose ids share a tag; call them one "
                        "after the other", (unsigned long long)got, (unsigned long long)id);
    }
    for (long step = 1; step < npes; step *= 2) {
        if (step <= member || member + step >= npes)
            continue;
        MPI_Request req;
        MPI_Isend(list, npes + 2, MPI_INT, list[2 + member + step], tag, shmpi_g.comm, &req);
        shmpi_wait_request_needing(&req, &waiting);
    }
}

int shmpi_team_init(const char *routine, uint64_t id, int npes, int member,
                    const shmem_team_config_t *config, long config_mask,
                    shmem_team_t *new_team)
{
    shmpi_check_ready_out(routine, new_team, "new_team");
    *new_team = SHMEM_TEAM_INVALID;
    if (npes < 1 || npes > shmpi_g.n_pes)
        return refuse(routine, "npes is not from 1 to the number of PEs", id, npes, member);
    if (member < 0 || member >= npes)
        return refuse(routine, "pe_idx_in_team is not from 0 to npes - 1", id, npes, member);
    if (!shmpi_team_config_ok(config, config_mask))
        return refuse(routine, "config_mask has bits other than SHMEM_TEAM_NUM_CONTEXTS, or "
                      "config is NULL or asks for a negative num_contexts", id, npes, member);
    int host, slot = -1;
    if (issued_form(id)) {
        host = (int)(id >> 32) - 1;
        slot = (int)(id & (SLOTS - 1));
        if ((id >> SLOT_BITS & GENERATIONS) == 0)
            return refuse(routine, "uniqueid has the form of shmemx_team_get_uniqueid's "
                          "(upper 32 bits from 1 to the number of PEs) but none gave it",
                          id, npes, member);
        if (word_fetch(routine, &board_slot(slot)->id, host) != id)
            return refuse(routine, "uniqueid has the form of shmemx_team_get_uniqueid's "
                          "(upper 32 bits from 1 to the number of PEs) but none gave it, "
                          "or its team was made", id, npes, member);
    } else {
        host = (int)(splitmix64(id) % (uint64_t)shmpi_g.n_pes);
    }
    shmpi_depart_routine = routine;
    if (slot < 0)
        slot = hand_slot(routine, id, host);
    struct shmpi_rendezvous *meeting = board_slot(slot);
    uint64_t mixed = id * UINT64_C(0x9e3779b97f4a7c15);
    int tag = TAG_FIRST + 2 * (int)((mixed ^ mixed >> 29) % TAG_IDS);
    int *list = shmpi_xmalloc(routine, ((size_t)npes + 2) * sizeof(int));
    list[0] = (int)(uint32_t)(id >> 32);
    list[1] = (int)(uint32_t)id;
    int *world = list + 2;
    if (member == 0) {
        uint64_t mine = (uint64_t)npes << 32 | (uint64_t)(shmpi_g.my_pe + 1);
        uint64_t was = word_cswap(routine, &meeting->root, 0, mine, host);
        if (was != 0)
            shmpi_abort(routine, "PE %d and PE %d both give pe_idx_in_team 0 for uniqueid %#llx",
                        (int)(uint32_t)was - 1, shmpi_g.my_pe, (unsigned long long)id);
        world[0] = shmpi_g.my_pe;
        gather_joins(routine, id, npes, tag, world);
        slot_free(routine, slot, host); /* every member read the root word */
    } else {
        SHMPI_WAITER(w) = {.waits_in = SHMPI_WAITS_ON_MEMORY, .routine = routine,
                           .addr = &meeting->root};
        uint64_t root;
        while ((root = word_fetch(routine, &meeting->root, host)) == 0)
            shmpi_backoff(&w);
        if ((int)(root >> 32) != npes)
            shmpi_abort(routine, "npes is %d here, %d at PE %d (pe_idx_in_team 0) for "
                        "uniqueid %#llx", npes, (int)(root >> 32), (int)(uint32_t)root - 1,
                        (unsigned long long)id);
        struct join j = {.id = id, .npes = npes, .index = member, .pe = shmpi_g.my_pe};
        MPI_Request req;
        MPI_Isend(&j, (int)sizeof j, MPI_BYTE, (int)(uint32_t)root - 1, tag, shmpi_g.comm, &req);
        const struct shmpi_waiter waiting = {.waits_in = SHMPI_WAITS_FOR_MPI, .routine = routine};
        shmpi_wait_request_needing(&req, &waiting);
    }
    spread_list(routine, id, npes, member, tag + 1, list);
    *new_team = shmpi_team_of_world_pes(routine, world, npes, member, config, config_mask);
    free(list);
    return 0;
}
