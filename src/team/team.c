/*
 * team.c - teams (team.h): the predefined teams (world and shared), user
 * teams made by splitting, translation and configuration queries, the
 * internal teams of active sets, and destruction.
 *
 * Every team owns an MPI communicator whose rank is the team PE; team
 * collectives run on it or in shared memory (coll.c, coll_shm.c).  A split
 * computes the members from its arguments on every PE of the parent, so the
 * members alone make the new communicator (team_comm.c) and the others just
 * get SHMEM_TEAM_INVALID.  Each team keeps its team PE <-> world PE tables
 * (pe_index.c).
 *
 * User teams are kept on a list so that shmem_finalize frees whatever the
 * program did not destroy; creating and destroying teams in a loop leaks
 * nothing (communicator, tables, struct).  Their structs come from a handle
 * slab (handle.h), so a destroyed or made-up handle is reported, never
 * dereferenced.
 */
#include "shmpi.h"
#include "shape.h"
#include "ctx.h"
#include "handle.h"
#include "pe_index.h"
#include "team.h"
#include "team_comm.h"
#include "progress.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Guards the list of user teams (teams may be destroyed by several
 * threads at once). */
static pthread_mutex_t lists_lock = PTHREAD_MUTEX_INITIALIZER;
/* coll_shm.c's slot of a team, registered at start-up (shmpi_team_on_shm). */
static void (*team_shm_init)(const char *routine, struct shmpi_team *team, int lowest_slot);
static void (*team_shm_fini)(struct shmpi_team *team, bool members_meet);

void shmpi_team_on_shm(void (*init)(const char *routine, struct shmpi_team *team,
                                    int lowest_slot),
                       void (*fini)(struct shmpi_team *team, bool members_meet))
{
    team_shm_init = init;
    team_shm_fini = fini;
}
static struct shmpi_team *user_teams;
static struct shmpi_handle_pool team_pool = SHMPI_HANDLE_POOL(struct shmpi_team, next);

uint64_t shmpi_team_members_id(const int *world_pe, int n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)n;
    for (int i = 0; i < n; i++) {
        h ^= (uint64_t)(world_pe ? world_pe[i] : i) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdull;
    }
    return h;
}

/* ---- predefined teams -------------------------------------------------------------- */
/* lowest_slot: SHMPI_TEAM_SLOTS for a team that never shares memory (no slot). */
static void team_from_comm(struct shmpi_team *team, MPI_Comm comm, int *world_pe,
                           int lowest_slot)
{
    team->magic = SHMPI_TEAM_MAGIC;
    team->comm = comm;
    MPI_Comm_rank(comm, &team->my_pe);
    MPI_Comm_size(comm, &team->n_pes);
    team->world_pe = world_pe;
    team->config.num_contexts = 0;
    team->config_mask = 0;
    team->n_contexts = 0;
    team->contexts = NULL;
    team->next = team->prev = NULL;
    team->predefined = true;
    team->crowded = shmpi_shape_team_crowded(team);
    team->members_id = shmpi_team_members_id(world_pe, team->n_pes);
    team->calls = 0;
    shmpi_pe_index_build("shmem_init", team);
    team_shm_init("shmem_init", team, lowest_slot);
}

/* SHMEMX_TEAM_SAME_MYPE_NODE: the PEs of the shape's same_index_pe, known
 * to every member from the start-up cards, so only they make its
 * communicator (MPI_Comm_create_group: messages over the members, about
 * log2 of their number per PE, no exchange over all PEs).  The world team
 * where every machine has one PE; `self` (an MPI_COMM_SELF duplicate) where
 * it is this PE alone.  Members are on different machines: no shared-memory
 * slot, and every member knows that alone (no agreement). */
static void same_index_team_init(MPI_Comm self)
{
    const struct shmpi_shape *sh = &shmpi_shape;
    int n = sh->same_index_size;
    shmpi_g.team_same_mype_node = &shmpi_g.team_same_index;
    if (n == shmpi_g.n_pes) {
        shmpi_g.team_same_mype_node = &shmpi_g.team_world;
        return;
    }
    int *world_pe = shmpi_xmalloc("shmem_init", (size_t)n * sizeof(int));
    memcpy(world_pe, sh->same_index_pe, (size_t)n * sizeof(int));
    MPI_Comm comm = self;
    if (n > 1) {
        /* Not through team_comm.c: nobody sends AMOs during start-up (no
         * meeting first), and a template would cost a reduction more. */
        MPI_Group world_group, group;
        MPI_Comm_group(shmpi_g.comm, &world_group);
        MPI_Group_incl(world_group, n, world_pe, &group);
        MPI_Comm_create_group(shmpi_g.comm, group, 0, &comm);
        MPI_Group_free(&group);
        MPI_Group_free(&world_group);
    }
    team_from_comm(&shmpi_g.team_same_index, comm, world_pe, SHMPI_TEAM_SLOTS);
}

void shmpi_teams_init(void)
{
    /* The world's duplicates made nonblocking (MPI_Comm_dup spins), both at
     * once; nothing else outstanding beside them: Open MPI 4.1 hung in 3
     * starts of 6 at 4 PEs on 2 pseudo-nodes with the world's idup
     * outstanding while a blocking split chose its context id, and in 4 of 8
     * with an idup of MPI_COMM_SELF beside it.  So the split and the dups of
     * MPI_COMM_SELF (local: nothing to wait for) come first. */
    const struct shmpi_shape *sh = &shmpi_shape;
    MPI_Comm world, shared, same_index = MPI_COMM_NULL;
    MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    /* SHMEM_TEAM_SHARED: the PEs whose heaps this PE maps (shmem_ptr works
     * for all of them), its (pseudo-)node; just this PE when the
     * shared-memory path is off. */
    bool shared_is_world = false;
    if (!shmpi_job_shares_memory())
        MPI_Comm_dup(MPI_COMM_SELF, &shared);
    else if (sh->node_size != shmpi_g.n_pes)
        MPI_Comm_split(shmpi_g.comm, sh->node_pe[0], sh->node_rank, &shared);
    else
        shared_is_world = true;
    /* SHMEMX_TEAM_SAME_MYPE_NODE on one machine: this PE alone. */
    if (sh->same_index_size == 1 && shmpi_g.n_pes > 1)
        MPI_Comm_dup(MPI_COMM_SELF, &same_index);
    MPI_Comm_idup(shmpi_g.comm, &world, &req[0]);
    if (shared_is_world)
        MPI_Comm_idup(shmpi_g.comm, &shared, &req[1]);
    for (int r = 0; r < 2; r++)
        shmpi_wait_request(&req[r]);
    team_from_comm(&shmpi_g.team_world, world, NULL, 0);
    team_from_comm(&shmpi_g.team_shared, shared, shmpi_comm_world_pes(shared), 0);
    /* SHMEMX_TEAM_NODE: the machine's PEs.  On one machine that is the world
     * team, with shared memory and no pseudo-nodes SHMEM_TEAM_SHARED; only a
     * job across nodes under SHMPI_MPI_ONLY or pseudo-nodes makes a team. */
    shmpi_g.team_node = &shmpi_g.team_shared;
    if (!shmpi_job_spans_nodes()) {
        shmpi_g.team_node = &shmpi_g.team_world;
    } else if (!shmpi_job_shares_memory() || sh->pseudo_nodes) {
        /* The node of the shape (kernel, host name, /dev/shm), as the
         * shared team is without SHMPI_MPI_ONLY and pseudo-nodes. */
        MPI_Comm machine;
        MPI_Comm_split(shmpi_g.comm, sh->machine_leader, shmpi_g.my_pe, &machine);
        team_from_comm(&shmpi_g.team_machine, machine, shmpi_comm_world_pes(machine), 0);
        shmpi_g.team_node = &shmpi_g.team_machine;
    }
    same_index_team_init(same_index);
}

/* ---- handles ------------------------------------------------------------------------ */
struct shmpi_team *shmpi_team_lookup(const char *routine, shmem_team_t team)
{
    if (team == SHMEM_TEAM_SHARED)
        return &shmpi_g.team_shared;
    if (team == SHMEMX_TEAM_NODE)
        return shmpi_g.team_node;
    if (team == SHMEMX_TEAM_SAME_MYPE_NODE)
        return shmpi_g.team_same_mype_node;
    if (team == SHMEM_TEAM_INVALID)
        shmpi_abort(routine, "team is SHMEM_TEAM_INVALID");
    if (SHMPI_UNLIKELY(!shmpi_handle_known(&team_pool, team)))
        shmpi_abort(routine, "team handle %p is not a team (no shmem_team_split_strided or "
                    "shmem_team_split_2d returned it)", (void *)team);
    if (SHMPI_UNLIKELY(team->magic != SHMPI_TEAM_MAGIC))
        shmpi_abort(routine, "team handle %p refers to a team that was destroyed", (void *)team);
    return team;
}

shmem_team_t shmpi_team_handle(struct shmpi_team *team)
{
    if (team == &shmpi_g.team_world)
        return SHMEM_TEAM_WORLD;
    if (team == &shmpi_g.team_shared)
        return SHMEM_TEAM_SHARED;
    if (team == &shmpi_g.team_machine)
        return SHMEMX_TEAM_NODE;
    if (team == &shmpi_g.team_same_index)
        return SHMEMX_TEAM_SAME_MYPE_NODE;
    return team;
}

/* ---- queries ------------------------------------------------------------------------ */
int shmpi_team_translate(const char *routine, shmem_team_t src_team, int src_pe,
                         shmem_team_t dest_team)
{
    if (src_team == SHMEM_TEAM_INVALID || dest_team == SHMEM_TEAM_INVALID)
        return -1;
    struct shmpi_team *src = shmpi_team_get(routine, src_team);
    struct shmpi_team *dest = shmpi_team_get(routine, dest_team);
    if (src_pe < 0 || src_pe >= src->n_pes)
        return -1;
    int world_pe = src->world_pe ? src->world_pe[src_pe] : src_pe;
    return shmpi_team_pe_of_world(dest, world_pe);
}

int shmpi_team_get_config(const char *routine, shmem_team_t handle, long config_mask,
                          shmem_team_config_t *config)
{
    if (handle == SHMEM_TEAM_INVALID)
        return -1; /* the spec: no operation, nonzero */
    struct shmpi_team *team = shmpi_team_get(routine, handle);
    if (config_mask & ~SHMEM_TEAM_NUM_CONTEXTS)
        shmpi_abort(routine, "config_mask %#lx has bits other than SHMEM_TEAM_NUM_CONTEXTS (%#lx)",
                    config_mask, (long)SHMEM_TEAM_NUM_CONTEXTS);
    if (config_mask && !config)
        shmpi_abort(routine, "config is NULL but config_mask is %#lx", config_mask);
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS)
        config->num_contexts = team->config.num_contexts;
    return 0;
}

/* ---- splits -------------------------------------------------------------------------- */
bool shmpi_team_config_ok(const shmem_team_config_t *config, long mask)
{
    if (mask & ~SHMEM_TEAM_NUM_CONTEXTS)
        return false;
    if (mask & SHMEM_TEAM_NUM_CONTEXTS)
        return config && config->num_contexts >= 0;
    return true;
}

/* Collective over `parent` (non-members return at once): the new team
 * holds parent PEs members[0..n-1] in that order (team PE i is parent PE
 * members[i]); my_pe is the caller's team PE, -1 if it is not a member.
 * Returns the handle, SHMEM_TEAM_INVALID for non-members. */
static shmem_team_t team_split(const char *routine, struct shmpi_team *parent,
                               const int *members, int n, int my_pe,
                               const shmem_team_config_t *config, long mask)
{
    if (my_pe < 0)
        return SHMEM_TEAM_INVALID;
    struct shmpi_team *team = shmpi_handle_new(&team_pool);
    if (!team)
        shmpi_abort(routine, "out of memory (a team)");
    team->magic = SHMPI_TEAM_MAGIC;
    team->world_pe = shmpi_xmalloc(routine, (size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        team->world_pe[i] =
            parent->world_pe ? parent->world_pe[members[i]] : members[i];
    team->comm = shmpi_team_comm(routine, parent, members, team->world_pe, n);
    MPI_Comm_rank(team->comm, &team->my_pe);
    MPI_Comm_size(team->comm, &team->n_pes);
    if (team->n_pes != n || team->my_pe != my_pe)
        shmpi_abort(routine, "internal error: new team rank %d of %d, expected %d of %d",
                    team->my_pe, team->n_pes, my_pe, n);
    shmpi_pe_index_build(routine, team);
    team->config.num_contexts =
        (mask & SHMEM_TEAM_NUM_CONTEXTS) ? config->num_contexts : 0;
    team->config_mask = mask;
    team->n_contexts = 0;
    team->contexts = NULL;
    team->predefined = false;
    /* Members that fit their CPUs use blocking MPI collectives even when the
     * job does not (a strided team on a crowded machine whose other PEs wait). */
    team->crowded = shmpi_shape_team_crowded(team);
    team->members_id = shmpi_team_members_id(team->world_pe, n);
    team->calls = 0;
    team_shm_init(routine, team, 0);
    pthread_mutex_lock(&lists_lock);
    team->prev = NULL;
    team->next = user_teams;
    if (user_teams)
        user_teams->prev = team;
    user_teams = team;
    pthread_mutex_unlock(&lists_lock);
    return team;
}

shmem_team_t shmpi_team_of_world_pes(const char *routine, const int *world_pe, int n, int my_pe,
                                     const shmem_team_config_t *config, long config_mask)
{
    return team_split(routine, &shmpi_g.team_world, world_pe, n, my_pe, config, config_mask);
}

int shmpi_team_split_strided(const char *routine, shmem_team_t parent_team, int start,
                             int stride, int size, const shmem_team_config_t *config,
                             long config_mask, shmem_team_t *new_team)
{
    shmpi_check_ready_out(routine, new_team, "new_team");
    *new_team = SHMEM_TEAM_INVALID;
    if (parent_team == SHMEM_TEAM_INVALID)
        return -1;
    struct shmpi_team *parent = shmpi_team_get(routine, parent_team);
    /* Team PE i is parent PE start + i * stride: every one must be in the
     * parent team, and distinct (stride 0 only for a team of one). */
    if (size < 1 || size > parent->n_pes || start < 0 || start >= parent->n_pes ||
        (stride == 0 && size > 1) || !shmpi_team_config_ok(config, config_mask))
        return -1;
    long last = (long)start + (long)stride * (size - 1);
    if (last < 0 || last >= parent->n_pes)
        return -1;

    int *members = shmpi_xmalloc(routine, (size_t)size * sizeof(int));
    for (int i = 0; i < size; i++)
        members[i] = start + stride * i;
    int my_pe = -1;
    long d = (long)parent->my_pe - start;
    if (stride == 0) {
        if (d == 0)
            my_pe = 0;
    } else if (d % stride == 0 && d / stride >= 0 && d / stride < size) {
        my_pe = (int)(d / stride);
    }
    *new_team = team_split(routine, parent, members, size, my_pe, config, config_mask);
    free(members);
    return 0;
}

int shmpi_team_split_2d(const char *routine, shmem_team_t parent_team, int xrange,
                        const shmem_team_config_t *xaxis_config, long xaxis_mask,
                        shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team)
{
    shmpi_check_ready(routine);
    if (!xaxis_team || !yaxis_team)
        shmpi_abort(routine, "%s is NULL", !xaxis_team ? "xaxis_team" : "yaxis_team");
    *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    if (parent_team == SHMEM_TEAM_INVALID)
        return -1;
    struct shmpi_team *parent = shmpi_team_get(routine, parent_team);
    if (xrange < 1 || !shmpi_team_config_ok(xaxis_config, xaxis_mask) ||
        !shmpi_team_config_ok(yaxis_config, yaxis_mask))
        return -1;
    int n = parent->n_pes, me = parent->my_pe;
    if (xrange > n)
        xrange = n; /* one row: the x-axis team is the whole parent */
    /* Parent PE p sits at x = p % xrange, y = p / xrange; the x-axis team
     * is its row (team PE = x), the y-axis team its column (team PE = y). */
    int x = me % xrange, y = me / xrange;
    int yrange = (n + xrange - 1) / xrange;
    int *members =
        shmpi_xmalloc(routine, (size_t)(xrange > yrange ? xrange : yrange) * sizeof(int));
    int nx = 0;
    for (int i = y * xrange; i < n && i < (y + 1) * xrange; i++)
        members[nx++] = i;
    *xaxis_team = team_split(routine, parent, members, nx, x, xaxis_config, xaxis_mask);
    int ny = 0;
    for (int i = x; i < n; i += xrange)
        members[ny++] = i;
    *yaxis_team = team_split(routine, parent, members, ny, y, yaxis_config, yaxis_mask);
    free(members);
    return 0;
}

/* ---- active sets ------------------------------------------------------------------
 * The active set of a deprecated collective (PE_start, 2^logPE_stride,
 * PE_size) is a team, so every collective form runs on the same engine
 * (coll.c, coll_shm.c).  The set of all PEs is the world team.  Any other
 * set is an internal team, made by its members when they first call a
 * collective on it (as a split: a communicator from team_comm.c, a
 * shared-memory slot if every member maps the others' heaps) and kept,
 * found by its triplet, until finalize.  Never freeing one per call is
 * what makes the pSync rules hold whatever the program does: sets that
 * overlap, different sets back to back, a PE in several sets each use
 * their own team, whose events order their calls.  Active-set teams take
 * only slots from SHMPI_TEAM_SLOTS / 2 up, so however many sets a program
 * uses, half the slots stay for shmem_team_split_*; a set that finds none
 * free runs its collectives on MPI.  The table only grows: readers walk
 * it without a lock; a new entry is published by one release store. */
struct aset {
    int start, log_stride, size;
    struct shmpi_team team;
    struct aset *next;
};
#define ASET_BUCKETS 64
static struct aset *_Atomic aset_table[ASET_BUCKETS];
static pthread_mutex_t aset_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned aset_hash(int start, int log_stride, int size)
{
    unsigned h = (unsigned)start * 2654435761u;
    h ^= (unsigned)log_stride * 40503u + (unsigned)size * 97u;
    return (h ^ (h >> 16)) % ASET_BUCKETS;
}

static struct aset *aset_find(unsigned h, int start, int log_stride, int size)
{
    struct aset *a = atomic_load_explicit(&aset_table[h], memory_order_acquire);
    while (a && (a->start != start || a->log_stride != log_stride || a->size != size))
        a = a->next;
    return a;
}

/* Made by the members only, the caller being one (team PE my_pe). */
static struct aset *aset_make(const char *routine, int start, int log_stride, int size,
                              int my_pe)
{
    struct aset *a = shmpi_xmalloc(routine, sizeof(*a));
    *a = (struct aset){.start = start, .log_stride = log_stride, .size = size};
    struct shmpi_team *t = &a->team;
    int *members = shmpi_xmalloc(routine, (size_t)size * sizeof(int));
    t->world_pe = shmpi_xmalloc(routine, (size_t)size * sizeof(int));
    for (int i = 0; i < size; i++)
        members[i] = t->world_pe[i] = start + (i << log_stride);
    t->comm = shmpi_team_comm(routine, &shmpi_g.team_world, members, t->world_pe, size);
    free(members);
    MPI_Comm_rank(t->comm, &t->my_pe);
    MPI_Comm_size(t->comm, &t->n_pes);
    if (t->n_pes != size || t->my_pe != my_pe)
        shmpi_abort(routine, "internal error: active-set rank %d of %d, expected %d of %d",
                    t->my_pe, t->n_pes, my_pe, size);
    t->magic = SHMPI_TEAM_MAGIC;
    t->predefined = true; /* no handle ever leaves the library */
    t->crowded = shmpi_shape_team_crowded(t);
    t->members_id = shmpi_team_members_id(t->world_pe, size);
    t->calls = 0;
    shmpi_pe_index_build(routine, t);
    team_shm_init(routine, t, SHMPI_TEAM_SLOTS / 2);
    return a;
}

struct shmpi_group shmpi_aset_group(const char *routine, int start, int log_stride, int size)
{
    shmpi_check_ready(routine);
    int n = shmpi_g.n_pes, me = shmpi_g.my_pe;
    if (start < 0 || start >= n || log_stride < 0 || log_stride > 30 || size < 1)
        shmpi_abort_together(routine, me == (start >= 0 && start < n ? start : 0),
                             "active set PE_start %d, logPE_stride %d, PE_size %d is not "
                             "valid (%d PEs; PE_start from 0 to %d, logPE_stride from 0 to "
                             "30, PE_size at least 1)",
                             start, log_stride, size, n, n - 1);
    long stride = 1L << log_stride;
    long last = start + stride * (size - 1);
    if (last >= n)
        shmpi_abort_together(routine, me == start,
                             "active set PE_start %d, logPE_stride %d, PE_size %d reaches PE "
                             "%ld, but there are %d PEs",
                             start, log_stride, size, last, n);
    long d = (long)me - start;
    if (d < 0 || d % stride != 0 || d / stride >= size)
        shmpi_abort(routine,
                    "this PE is not in the active set PE_start %d, logPE_stride %d, "
                    "PE_size %d",
                    start, log_stride, size);
    shmpi_depart_routine = routine;
    if (size == n) { /* start 0 and stride 1 (or a world of one) */
        shmpi_g.team_world.calls++;
        return (struct shmpi_group){shmpi_g.team_world.comm, me, n, &shmpi_g.team_world};
    }
    if (size == 1) /* no partner: MPI on this PE alone, no slot */
        return (struct shmpi_group){MPI_COMM_SELF, 0, 1, NULL};
    unsigned h = aset_hash(start, log_stride, size);
    struct aset *a = aset_find(h, start, log_stride, size);
    if (!a) {
        /* One thread at a time makes sets (a set's members make it in the
         * order they call it, as for any collective). */
        pthread_mutex_lock(&aset_lock);
        a = aset_find(h, start, log_stride, size);
        if (!a) {
            a = aset_make(routine, start, log_stride, size, (int)(d / stride));
            a->next = atomic_load_explicit(&aset_table[h], memory_order_relaxed);
            atomic_store_explicit(&aset_table[h], a, memory_order_release);
        }
        pthread_mutex_unlock(&aset_lock);
    }
    a->team.calls++;
    return (struct shmpi_group){a->team.comm, a->team.my_pe, a->team.n_pes, &a->team};
}

static void asets_fini(void)
{
    for (int h = 0; h < ASET_BUCKETS; h++) {
        struct aset *a = atomic_exchange(&aset_table[h], NULL);
        while (a) {
            struct aset *next = a->next;
            team_shm_fini(&a->team, false);
            MPI_Comm_free(&a->team.comm);
            free(a->team.world_pe);
            free(a->team.by_world);
            free(a);
            a = next;
        }
    }
}

/* ---- destruction ------------------------------------------------------------------- */
/* Frees a user team and the contexts still open on it (after a quiet);
 * `members_meet` as for shmpi_team_shm_fini. */
static void team_free(struct shmpi_team *team, bool members_meet)
{
    shmpi_depart_team_gone(team);
    team_shm_fini(team, members_meet);
    shmpi_ctx_destroy_all(team);
    MPI_Comm_free(&team->comm);
    free(team->world_pe);
    free(team->by_world);
    team->magic = 0;
    shmpi_handle_free(&team_pool, team);
}

void shmpi_team_destroy(const char *routine, shmem_team_t handle)
{
    shmpi_check_ready(routine);
    if (handle == SHMEM_TEAM_INVALID)
        return;
    static const struct {
        shmem_team_t handle;
        const char *name;
    } predefined[] = {{SHMEM_TEAM_WORLD, "SHMEM_TEAM_WORLD"},
                      {SHMEM_TEAM_SHARED, "SHMEM_TEAM_SHARED"},
                      {SHMEMX_TEAM_NODE, "SHMEMX_TEAM_NODE"},
                      {SHMEMX_TEAM_SAME_MYPE_NODE, "SHMEMX_TEAM_SAME_MYPE_NODE"}};
    for (size_t i = 0; i < sizeof predefined / sizeof predefined[0]; i++)
        if (handle == predefined[i].handle)
            shmpi_abort(routine, "%s is predefined and cannot be destroyed",
                        predefined[i].name);
    struct shmpi_team *team = shmpi_team_get(routine, handle);
    pthread_mutex_lock(&lists_lock);
    if (team->n_contexts > 0 && shmpi_g.env.debug)
        shmpi_warn(routine, "destroying a team with %d context(s) not destroyed; "
                   "they are destroyed with it", team->n_contexts);
    if (team->prev)
        team->prev->next = team->next;
    else
        user_teams = team->next;
    if (team->next)
        team->next->prev = team->prev;
    pthread_mutex_unlock(&lists_lock);
    team_free(team, true);
}

void shmpi_teams_fini(void)
{
    /* What the program left: user teams (with their contexts), contexts
     * on the predefined teams, the active-set communicators. */
    while (user_teams) {
        struct shmpi_team *team = user_teams;
        user_teams = team->next;
        team_free(team, false); /* in whatever order each PE has them */
    }
    struct shmpi_team *predefined[] = {&shmpi_g.team_world, &shmpi_g.team_shared,
                                       &shmpi_g.team_machine, &shmpi_g.team_same_index};
    for (size_t t = 0; t < sizeof(predefined) / sizeof(predefined[0]); t++)
        if (predefined[t]->magic == SHMPI_TEAM_MAGIC)
            shmpi_ctx_destroy_all(predefined[t]);
    asets_fini();
    shmpi_team_comm_fini();
    for (size_t t = 0; t < sizeof(predefined) / sizeof(predefined[0]); t++) {
        struct shmpi_team *team = predefined[t];
        if (team->magic != SHMPI_TEAM_MAGIC)
            continue; /* the machine's (same index's) team where it is another team */
        team_shm_fini(team, false);
        MPI_Comm_free(&team->comm);
        free(team->world_pe);
        free(team->by_world);
        team->world_pe = NULL;
        team->by_world = NULL;
    }
    /* made again, or not, by the next shmem_init */
    shmpi_g.team_machine.magic = shmpi_g.team_same_index.magic = 0;
    shmpi_g.team_node = shmpi_g.team_same_mype_node = NULL;
}
