/*
 * team_init.c - teams whose members know only an id, their number and
 * their index (shmemx_team_get_uniqueid, shmemx_team_init: NVSHMEM's
 * nvshmemx_team_get_uniqueid and nvshmemx_team_init; coll.h).
 *
 * The members must first learn each other's world PEs.  They meet at the
 * PE that issued the id (its PE is in the id), in the slot of its reserved
 * block that the id names (struct shmpi_rendezvous, shmpi.h):
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
 * Only AMOs reach the issuer, so the meeting moves as any AMO aimed at it
 * does (while it waits in shmpi, or through the progress thread); the
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
#define TAG_FIRST 0x6000
#define TAG_IDS 4000

/* What a member tells index 0. */
struct join {
    uint64_t id;
    int32_t npes, index, pe;
};

static pthread_mutex_t issue_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t issued; /* ids this PE issued (the id's generation) */

/* Slot `slot` of this PE's rendezvous board (a symmetric address). */
static struct shmpi_rendezvous *board_slot(int slot)
{
    struct shmpi_reserved *r =
        (struct shmpi_reserved *)(shmpi_g.seg[SHMPI_SEG_HEAP].base + shmpi_g.heap_reserved_off);
    return &r->rendezvous[slot];
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

int shmpi_team_get_uniqueid(const char *routine, uint64_t *uniqueid)
{
    shmpi_check_ready(routine);
    if (!uniqueid) {
        if (shmpi_g.env.debug)
            shmpi_warn(routine, "uniqueid is NULL");
        return -1;
    }
    pthread_mutex_lock(&issue_lock);
    int slot = -1;
    for (int i = 0; i < SHMPI_RENDEZVOUS_SLOTS && slot < 0; i++) {
        int s = (int)((issued + (uint64_t)i) % SHMPI_RENDEZVOUS_SLOTS);
        if (word_fetch(routine, &board_slot(s)->id, shmpi_g.my_pe) == 0)
            slot = s;
    }
    if (slot < 0) {
        pthread_mutex_unlock(&issue_lock);
        if (shmpi_g.env.debug)
            shmpi_warn(routine, "the %d uniqueids this PE issued last all wait for their "
                       "shmemx_team_init", SHMPI_RENDEZVOUS_SLOTS);
        return -1;
    }
    uint64_t generation = ++issued & ((UINT64_C(1) << (32 - SLOT_BITS)) - 1);
    uint64_t id = (uint64_t)(shmpi_g.my_pe + 1) << 32 | generation << SLOT_BITS | (uint64_t)slot;
    /* The root word first: a member that sees the id sees it clear. */
    word_set(routine, &board_slot(slot)->root, 0, shmpi_g.my_pe);
    word_set(routine, &board_slot(slot)->id, id, shmpi_g.my_pe);
    pthread_mutex_unlock(&issue_lock);
    *uniqueid = id;
    return 0;
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
        MPI_Request req;
        MPI_Irecv(&j, (int)sizeof j, MPI_BYTE, MPI_ANY_SOURCE, tag, shmpi_g.comm, &req);
        shmpi_wait_request_needing(&req, &waiting);
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
        MPI_Request req;
        MPI_Irecv(list, npes + 2, MPI_INT, MPI_ANY_SOURCE, tag, shmpi_g.comm, &req);
        shmpi_wait_request_needing(&req, &waiting);
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
    shmpi_check_ready(routine);
    if (!new_team)
        shmpi_abort(routine, "new_team is NULL");
    *new_team = SHMEM_TEAM_INVALID;
    int host = (int)(id >> 32) - 1;
    if (npes < 1 || npes > shmpi_g.n_pes)
        return refuse(routine, "npes is not from 1 to the number of PEs", id, npes, member);
    if (member < 0 || member >= npes)
        return refuse(routine, "pe_idx_in_team is not from 0 to npes - 1", id, npes, member);
    if (!shmpi_team_config_ok(config, config_mask))
        return refuse(routine, "config_mask has bits other than SHMEM_TEAM_NUM_CONTEXTS, or "
                      "config is NULL or asks for a negative num_contexts", id, npes, member);
    if (host < 0 || host >= shmpi_g.n_pes)
        return refuse(routine, "uniqueid is not one shmemx_team_get_uniqueid gave", id, npes,
                      member);
    struct shmpi_rendezvous *slot = board_slot((int)(id & (SHMPI_RENDEZVOUS_SLOTS - 1)));
    if (word_fetch(routine, &slot->id, host) != id)
        return refuse(routine, "uniqueid is not one shmemx_team_get_uniqueid gave, or its "
                      "team was made", id, npes, member);
    shmpi_depart_routine = routine;
    uint64_t mixed = id * UINT64_C(0x9e3779b97f4a7c15);
    int tag = TAG_FIRST + 2 * (int)((mixed ^ mixed >> 29) % TAG_IDS);
    int *list = shmpi_xmalloc(routine, ((size_t)npes + 2) * sizeof(int));
    list[0] = (int)(uint32_t)(id >> 32);
    list[1] = (int)(uint32_t)id;
    int *world = list + 2;
    if (member == 0) {
        uint64_t mine = (uint64_t)npes << 32 | (uint64_t)(shmpi_g.my_pe + 1), none = 0, was;
        shmpi_amo(routine, SHMEM_CTX_DEFAULT, SHMPI_AMO_CSWAP, SHMPI_AMO_UINT64, &slot->root,
                  &mine, &none, &was, host);
        if (was != 0)
            shmpi_abort(routine, "PE %d and PE %d both give pe_idx_in_team 0 for uniqueid %#llx",
                        (int)(uint32_t)was - 1, shmpi_g.my_pe, (unsigned long long)id);
        world[0] = shmpi_g.my_pe;
        gather_joins(routine, id, npes, tag, world);
        word_set(routine, &slot->id, 0, host); /* every member read the root word */
    } else {
        SHMPI_WAITER(w) = {.waits_in = SHMPI_WAITS_ON_MEMORY, .routine = routine,
                           .addr = &slot->root};
        uint64_t root;
        while ((root = word_fetch(routine, &slot->root, host)) == 0)
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
