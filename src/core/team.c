/*
 * team.c - teams and contexts: the predefined teams (world and shared), the
 * default context, user teams made by splitting, user contexts, and handle
 * resolution.
 *
 * Every team owns an MPI communicator whose rank is the team PE; team
 * collectives are MPI collectives on it (coll.c).  A split computes the
 * members from its arguments on every PE of the parent, so the members
 * alone make the new communicator (see "team communicators" below) and
 * the others just get SHMEM_TEAM_INVALID.  Each team keeps its team PE ->
 * world PE table and a world PE -> team PE index (computed for arithmetic
 * progressions, binary search otherwise), so shmem_team_translate_pe is
 * O(1) or O(log n) and RMA on a team context needs no MPI call.
 *
 * User teams and contexts are kept on lists so that shmem_finalize frees
 * whatever the program did not destroy; creating and destroying teams in a
 * loop leaks nothing (communicator, tables, struct).  Their structs come
 * from slabs that are never returned to the system (see "handle storage"),
 * so a destroyed or made-up handle is reported, never dereferenced.
 */
#include "shmpi.h"
#include "coll.h"
#include "shape.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

MPI_Comm shmpi_node_comm(void);

/* Guards the lists of teams and contexts (contexts may be created and
 * destroyed by several threads at once). */
static pthread_mutex_t lists_lock = PTHREAD_MUTEX_INITIALIZER;
static struct shmpi_team *user_teams;

static void *xmalloc(const char *routine, size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        shmpi_abort(routine, "out of memory (%zu bytes)", size);
    return p;
}

/* ---- handle storage ------------------------------------------------------------------
 * A team or context handle is the address of its struct, and a program may
 * pass one it destroyed, or any other value.  To check a handle without
 * reading freed or unmapped memory, the structs live in slabs that stay
 * allocated until the process ends: a handle is accepted only if it points
 * at the start of a slot of one of those slabs (checked without a lock, in
 * a few instructions) and the slot holds a live struct (its magic; a freed
 * slot has magic 0).  Freed slots are reused oldest first, so a destroyed
 * handle keeps being recognized as such for as long as possible.  Slab i
 * holds SLAB_FIRST << i slots; slabs and free lists change under lists_lock. */
#define SLAB_FIRST 16
#define SLAB_MAX 24
#define SLOT_SIZE(type) \
    ((sizeof(type) + _Alignof(max_align_t) - 1) / _Alignof(max_align_t) * _Alignof(max_align_t))

struct pool {
    size_t slot;              /* bytes per slot */
    size_t link;              /* offset of the pointer field that links free slots */
    atomic_int n_slabs;
    char *slab[SLAB_MAX];     /* each written once, before n_slabs counts it */
    char *free_head, *free_tail;
};
static struct pool team_pool = {.slot = SLOT_SIZE(struct shmpi_team),
                                .link = offsetof(struct shmpi_team, next)};
static struct pool ctx_pool = {.slot = SLOT_SIZE(struct shmpi_ctx),
                               .link = offsetof(struct shmpi_ctx, next)};

/* A free slot's `next` field (a struct pointer, unused while it is free)
 * links it to the next free slot. */
static char *free_next(const struct pool *p, const char *obj)
{
    char *next;
    memcpy(&next, obj + p->link, sizeof(next));
    return next;
}

static void set_free_next(const struct pool *p, char *obj, char *next)
{
    memcpy(obj + p->link, &next, sizeof(next));
}

/* Appends a slot (its magic already 0) to the free list; lists_lock held. */
static void pool_put(struct pool *p, void *obj)
{
    set_free_next(p, obj, NULL);
    if (p->free_tail)
        set_free_next(p, p->free_tail, obj);
    else
        p->free_head = obj;
    p->free_tail = obj;
}

/* A zeroed slot, NULL if memory is exhausted; lists_lock held. */
static void *pool_get(struct pool *p)
{
    if (!p->free_head) {
        int n = atomic_load_explicit(&p->n_slabs, memory_order_relaxed);
        size_t count = (size_t)SLAB_FIRST << n;
        char *slab = n < SLAB_MAX ? calloc(count, p->slot) : NULL;
        if (!slab)
            return NULL;
        for (size_t i = 0; i < count; i++)
            pool_put(p, slab + i * p->slot);
        p->slab[n] = slab;
        atomic_store_explicit(&p->n_slabs, n + 1, memory_order_release);
    }
    char *obj = p->free_head;
    p->free_head = free_next(p, obj);
    if (!p->free_head)
        p->free_tail = NULL;
    memset(obj, 0, p->slot);
    return obj;
}

/* Whether `handle` is the address of a slot of `p` (live or freed). */
static bool pool_slot(const struct pool *p, const void *handle)
{
    uintptr_t a = (uintptr_t)handle;
    int n = atomic_load_explicit(&p->n_slabs, memory_order_acquire);
    for (int i = 0; i < n; i++) {
        uintptr_t off = a - (uintptr_t)p->slab[i]; /* wraps if below the slab */
        if (off < ((size_t)SLAB_FIRST << i) * p->slot)
            return off % p->slot == 0;
    }
    return false;
}

/* ---- world PE <-> team PE ---------------------------------------------------------- */
struct pe_pair {
    int world, team;
};

static int pair_cmp(const void *a, const void *b)
{
    const struct pe_pair *x = a, *y = b;
    return (x->world > y->world) - (x->world < y->world);
}

/* Builds the world PE -> team PE index from team->world_pe. */
static void team_index(const char *routine, struct shmpi_team *team)
{
    int n = team->n_pes;
    const int *w = team->world_pe;
    team->by_world = NULL;
    if (!w) {
        team->world_start = 0;
        team->world_stride = 1;
        return;
    }
    int stride = n > 1 ? w[1] - w[0] : 1;
    bool arithmetic = stride != 0;
    for (int i = 2; arithmetic && i < n; i++)
        arithmetic = w[i] - w[i - 1] == stride;
    team->world_start = w[0];
    team->world_stride = stride;
    if (arithmetic)
        return;
    struct pe_pair *pairs = xmalloc(routine, (size_t)n * sizeof(*pairs));
    for (int i = 0; i < n; i++)
        pairs[i] = (struct pe_pair){w[i], i};
    qsort(pairs, (size_t)n, sizeof(*pairs), pair_cmp);
    team->by_world = xmalloc(routine, 2 * (size_t)n * sizeof(int));
    for (int i = 0; i < n; i++) {
        team->by_world[i] = pairs[i].world;
        team->by_world[n + i] = pairs[i].team;
    }
    free(pairs);
}

int shmpi_team_pe_of_world(const struct shmpi_team *team, int world_pe)
{
    int n = team->n_pes;
    if (!team->by_world) {
        long d = (long)world_pe - team->world_start;
        long stride = team->world_stride;
        if (d % stride != 0)
            return -1;
        long i = d / stride;
        return i >= 0 && i < n ? (int)i : -1;
    }
    const int *sorted = team->by_world;
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (sorted[mid] == world_pe)
            return sorted[n + mid];
        if (sorted[mid] < world_pe)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* ---- predefined teams -------------------------------------------------------------- */
static void team_from_comm(struct shmpi_team *team, MPI_Comm comm, int *world_pe)
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
    team_index("shmem_init", team);
    shmpi_team_shm_init("shmem_init", team, 0);
}

/* Team PE -> world PE for every member of `comm`. */
int *shmpi_comm_world_pes(MPI_Comm comm)
{
    int n;
    MPI_Comm_size(comm, &n);
    int *ranks = xmalloc("shmem_team", (size_t)n * sizeof(int));
    int *world = xmalloc("shmem_team", (size_t)n * sizeof(int));
    MPI_Group group, world_group;
    MPI_Comm_group(comm, &group);
    MPI_Comm_group(shmpi_g.comm, &world_group);
    for (int i = 0; i < n; i++)
        ranks[i] = i;
    MPI_Group_translate_ranks(group, n, ranks, world_group, world);
    MPI_Group_free(&group);
    MPI_Group_free(&world_group);
    free(ranks);
    return world;
}

void shmpi_teams_init(void)
{
    MPI_Comm world, shared;
    MPI_Comm_dup(shmpi_g.comm, &world);
    team_from_comm(&shmpi_g.team_world, world, NULL);
    /* SHMEM_TEAM_SHARED: the PEs whose heaps this PE maps (shmem_ptr works
     * for all of them); just this PE when the shared-memory path is off. */
    MPI_Comm node = shmpi_node_comm();
    if (node != MPI_COMM_NULL)
        MPI_Comm_dup(node, &shared);
    else
        MPI_Comm_dup(MPI_COMM_SELF, &shared);
    team_from_comm(&shmpi_g.team_shared, shared, shmpi_comm_world_pes(shared));

    shmpi_g.ctx_default.magic = SHMPI_CTX_MAGIC;
    shmpi_g.ctx_default.team = &shmpi_g.team_world;
    shmpi_g.ctx_default.options = 0;
    shmpi_g.ctx_default.next = shmpi_g.ctx_default.prev = NULL;
    atomic_store(&shmpi_g.ctx_default.mpi_pending, 0);
}

/* ---- handles ------------------------------------------------------------------------ */
struct shmpi_team *shmpi_team_lookup(const char *routine, shmem_team_t team)
{
    if (team == SHMEM_TEAM_SHARED)
        return &shmpi_g.team_shared;
    if (team == SHMEM_TEAM_INVALID)
        shmpi_abort(routine, "team is SHMEM_TEAM_INVALID");
    if (SHMPI_UNLIKELY(!pool_slot(&team_pool, team)))
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
    return team;
}

struct shmpi_ctx *shmpi_ctx_get(const char *routine, shmem_ctx_t ctx)
{
    if (ctx == SHMEM_CTX_DEFAULT)
        return &shmpi_g.ctx_default;
    if (ctx == SHMEM_CTX_INVALID)
        shmpi_abort(routine, "context is SHMEM_CTX_INVALID");
    if (SHMPI_UNLIKELY(!pool_slot(&ctx_pool, ctx)))
        shmpi_abort(routine, "context handle %p is not a context (no shmem_ctx_create or "
                    "shmem_team_create_ctx returned it)", (void *)ctx);
    if (SHMPI_UNLIKELY(ctx->magic != SHMPI_CTX_MAGIC))
        shmpi_abort(routine, "context handle %p refers to a context that was destroyed "
                    "(by shmem_ctx_destroy, or with its team)", (void *)ctx);
    return ctx;
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
/* A valid configuration request: only the known bit, a non-negative count. */
static bool config_ok(const shmem_team_config_t *config, long mask)
{
    if (mask & ~SHMEM_TEAM_NUM_CONTEXTS)
        return false;
    if (mask & SHMEM_TEAM_NUM_CONTEXTS)
        return config && config->num_contexts >= 0;
    return true;
}

/* ---- team communicators ------------------------------------------------------------
 * A new team's communicator is made by its members only: nobody else
 * takes part, and every way MPI has to make a communicator over a subset
 * of PEs (MPI_Comm_split, MPI_Comm_create_group) blocks spinning inside
 * MPI, which with more PEs than cores costs tens of milliseconds per
 * team.  MPI_Comm_idup does not block, so the first communicator made for
 * a list of PEs (world PEs in team order) is kept as a template, and
 * every later team of the same PEs is an MPI_Comm_idup of it.  A template
 * exists on all members of its list or on none: it is added only when
 * all of them agree (they all have room), and dropped only at finalize. */
#define TEMPLATE_MAX 64
#define TEMPLATE_BUCKETS 64
struct team_template {
    uint64_t hash;
    int n;
    int *world;               /* [n] world PEs in team order */
    MPI_Comm comm;
    struct team_template *next;
};
static struct team_template *templates[TEMPLATE_BUCKETS];
static int n_templates;
static pthread_mutex_t templates_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t pes_hash(const int *world, int n)
{
    uint64_t h = 14695981039346656037ull ^ (uint64_t)n;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint32_t)world[i]) * 1099511628211ull;
    return h;
}

static MPI_Comm template_find(uint64_t h, const int *world, int n)
{
    MPI_Comm comm = MPI_COMM_NULL;
    pthread_mutex_lock(&templates_lock);
    for (struct team_template *t = templates[h % TEMPLATE_BUCKETS]; t; t = t->next)
        if (t->hash == h && t->n == n && memcmp(t->world, world, (size_t)n * sizeof(int)) == 0) {
            comm = t->comm;
            break;
        }
    pthread_mutex_unlock(&templates_lock);
    return comm;
}

static void templates_fini(void)
{
    for (int b = 0; b < TEMPLATE_BUCKETS; b++) {
        while (templates[b]) {
            struct team_template *t = templates[b];
            templates[b] = t->next;
            MPI_Comm_free(&t->comm);
            free(t->world);
            free(t);
        }
    }
    n_templates = 0;
}

static MPI_Comm comm_idup(MPI_Comm comm)
{
    MPI_Comm dup;
    MPI_Request req;
    MPI_Comm_idup(comm, &dup, &req);
    shmpi_wait_request(&req);
    return dup;
}

/* Called by the members only: a communicator whose rank i is parent PE
 * members[i] (world PE world[i]). */
static MPI_Comm team_comm(const char *routine, struct shmpi_team *parent, const int *members,
                          const int *world, int n)
{
    bool whole_parent = n == parent->n_pes;
    for (int i = 0; whole_parent && i < n; i++)
        whole_parent = members[i] == i;
    if (whole_parent)
        return comm_idup(parent->comm);
    uint64_t h = pes_hash(world, n);
    MPI_Comm template = template_find(h, world, n);
    if (template != MPI_COMM_NULL)
        return comm_idup(template);

    MPI_Group parent_group, group;
    MPI_Comm comm;
    MPI_Comm_group(parent->comm, &parent_group);
    MPI_Group_incl(parent_group, n, members, &group);
    MPI_Comm_create_group(parent->comm, group, (int)(h % 32000), &comm);
    MPI_Group_free(&group);
    MPI_Group_free(&parent_group);

    /* Keep it as the template if every member has room. */
    pthread_mutex_lock(&templates_lock);
    int room = n_templates < TEMPLATE_MAX, all_room = 0;
    pthread_mutex_unlock(&templates_lock);
    MPI_Request req;
    MPI_Iallreduce(&room, &all_room, 1, MPI_INT, MPI_MIN, comm, &req);
    shmpi_wait_request(&req);
    if (!all_room)
        return comm;
    struct team_template *t = xmalloc(routine, sizeof(*t));
    t->hash = h;
    t->n = n;
    t->world = xmalloc(routine, (size_t)n * sizeof(int));
    memcpy(t->world, world, (size_t)n * sizeof(int));
    t->comm = comm;
    pthread_mutex_lock(&templates_lock);
    t->next = templates[h % TEMPLATE_BUCKETS];
    templates[h % TEMPLATE_BUCKETS] = t;
    n_templates++;
    pthread_mutex_unlock(&templates_lock);
    return comm_idup(comm);
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
    pthread_mutex_lock(&lists_lock);
    struct shmpi_team *team = pool_get(&team_pool);
    pthread_mutex_unlock(&lists_lock);
    if (!team)
        shmpi_abort(routine, "out of memory (a team)");
    team->magic = SHMPI_TEAM_MAGIC;
    team->world_pe = xmalloc(routine, (size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        team->world_pe[i] =
            parent->world_pe ? parent->world_pe[members[i]] : members[i];
    team->comm = team_comm(routine, parent, members, team->world_pe, n);
    MPI_Comm_rank(team->comm, &team->my_pe);
    MPI_Comm_size(team->comm, &team->n_pes);
    if (team->n_pes != n || team->my_pe != my_pe)
        shmpi_abort(routine, "internal error: new team rank %d of %d, expected %d of %d",
                    team->my_pe, team->n_pes, my_pe, n);
    team_index(routine, team);
    team->config.num_contexts =
        (mask & SHMEM_TEAM_NUM_CONTEXTS) ? config->num_contexts : 0;
    team->config_mask = mask;
    team->n_contexts = 0;
    team->contexts = NULL;
    team->predefined = false;
    /* Members that fit their CPUs use blocking MPI collectives even when the
     * job does not (a strided team on a crowded machine whose other PEs wait). */
    team->crowded = shmpi_shape_team_crowded(team);
    shmpi_team_shm_init(routine, team, 0);
    pthread_mutex_lock(&lists_lock);
    team->prev = NULL;
    team->next = user_teams;
    if (user_teams)
        user_teams->prev = team;
    user_teams = team;
    pthread_mutex_unlock(&lists_lock);
    return team;
}

int shmpi_team_split_strided(const char *routine, shmem_team_t parent_team, int start,
                             int stride, int size, const shmem_team_config_t *config,
                             long config_mask, shmem_team_t *new_team)
{
    shmpi_check_ready(routine);
    if (!new_team)
        shmpi_abort(routine, "new_team is NULL");
    *new_team = SHMEM_TEAM_INVALID;
    if (parent_team == SHMEM_TEAM_INVALID)
        return -1;
    struct shmpi_team *parent = shmpi_team_get(routine, parent_team);
    /* Team PE i is parent PE start + i * stride: every one must be in the
     * parent team, and distinct (stride 0 only for a team of one). */
    if (size < 1 || size > parent->n_pes || start < 0 || start >= parent->n_pes ||
        (stride == 0 && size > 1) || !config_ok(config, config_mask))
        return -1;
    long last = (long)start + (long)stride * (size - 1);
    if (last < 0 || last >= parent->n_pes)
        return -1;

    int *members = xmalloc(routine, (size_t)size * sizeof(int));
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
    if (xrange < 1 || !config_ok(xaxis_config, xaxis_mask) ||
        !config_ok(yaxis_config, yaxis_mask))
        return -1;
    int n = parent->n_pes, me = parent->my_pe;
    if (xrange > n)
        xrange = n; /* one row: the x-axis team is the whole parent */
    /* Parent PE p sits at x = p % xrange, y = p / xrange; the x-axis team
     * is its row (team PE = x), the y-axis team its column (team PE = y). */
    int x = me % xrange, y = me / xrange;
    int yrange = (n + xrange - 1) / xrange;
    int *members = xmalloc(routine, (size_t)(xrange > yrange ? xrange : yrange) * sizeof(int));
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
 * collective on it (as a split: a communicator from the templates, a
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
    struct aset *a = xmalloc(routine, sizeof(*a));
    *a = (struct aset){.start = start, .log_stride = log_stride, .size = size};
    struct shmpi_team *t = &a->team;
    int *members = xmalloc(routine, (size_t)size * sizeof(int));
    t->world_pe = xmalloc(routine, (size_t)size * sizeof(int));
    for (int i = 0; i < size; i++)
        members[i] = t->world_pe[i] = start + (i << log_stride);
    t->comm = team_comm(routine, &shmpi_g.team_world, members, t->world_pe, size);
    free(members);
    MPI_Comm_rank(t->comm, &t->my_pe);
    MPI_Comm_size(t->comm, &t->n_pes);
    if (t->n_pes != size || t->my_pe != my_pe)
        shmpi_abort(routine, "internal error: active-set rank %d of %d, expected %d of %d",
                    t->my_pe, t->n_pes, my_pe, size);
    t->magic = SHMPI_TEAM_MAGIC;
    t->predefined = true; /* no handle ever leaves the library */
    t->crowded = shmpi_shape_team_crowded(t);
    team_index(routine, t);
    shmpi_team_shm_init(routine, t, SHMPI_TEAM_SLOTS / 2);
    return a;
}

struct shmpi_group shmpi_aset_group(const char *routine, int start, int log_stride, int size)
{
    shmpi_check_ready(routine);
    int n = shmpi_g.n_pes, me = shmpi_g.my_pe;
    if (start < 0 || start >= n || log_stride < 0 || log_stride > 30 || size < 1)
        shmpi_abort(routine,
                    "active set PE_start %d, logPE_stride %d, PE_size %d is not valid "
                    "(%d PEs; PE_start from 0 to %d, logPE_stride from 0 to 30, PE_size "
                    "at least 1)",
                    start, log_stride, size, n, n - 1);
    long stride = 1L << log_stride;
    long last = start + stride * (size - 1);
    if (last >= n)
        shmpi_abort(routine,
                    "active set PE_start %d, logPE_stride %d, PE_size %d reaches PE %ld, "
                    "but there are %d PEs",
                    start, log_stride, size, last, n);
    long d = (long)me - start;
    if (d < 0 || d % stride != 0 || d / stride >= size)
        shmpi_abort(routine,
                    "this PE is not in the active set PE_start %d, logPE_stride %d, "
                    "PE_size %d",
                    start, log_stride, size);
    if (size == n) /* start 0 and stride 1 (or a world of one) */
        return (struct shmpi_group){shmpi_g.team_world.comm, me, n, &shmpi_g.team_world};
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
    return (struct shmpi_group){a->team.comm, a->team.my_pe, a->team.n_pes, &a->team};
}

static void asets_fini(void)
{
    for (int h = 0; h < ASET_BUCKETS; h++) {
        struct aset *a = atomic_exchange(&aset_table[h], NULL);
        while (a) {
            struct aset *next = a->next;
            shmpi_team_shm_fini(&a->team, false);
            MPI_Comm_free(&a->team.comm);
            free(a->team.world_pe);
            free(a->team.by_world);
            free(a);
            a = next;
        }
    }
}

/* ---- contexts ---------------------------------------------------------------------- */
/* Quiets and frees a context already unlinked from its team (lists_lock
 * not held). */
static void ctx_free(struct shmpi_ctx *ctx)
{
    shmpi_quiet(ctx);
    pthread_mutex_lock(&lists_lock);
    ctx->magic = 0;
    pool_put(&ctx_pool, ctx);
    pthread_mutex_unlock(&lists_lock);
}

int shmpi_ctx_create(const char *routine, shmem_team_t team_handle, long options,
                     shmem_ctx_t *ctx_out)
{
    shmpi_check_ready(routine);
    if (!ctx_out)
        shmpi_abort(routine, "ctx is NULL");
    *ctx_out = SHMEM_CTX_INVALID;
    if (team_handle == SHMEM_TEAM_INVALID)
        return -1;
    struct shmpi_team *team = shmpi_team_get(routine, team_handle);
    if (options & ~(SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE))
        return -1;
    pthread_mutex_lock(&lists_lock);
    /* A team configured with num_contexts offers that many, no more. */
    struct shmpi_ctx *ctx = NULL;
    if (!(team->config_mask & SHMEM_TEAM_NUM_CONTEXTS) ||
        team->n_contexts < team->config.num_contexts)
        ctx = pool_get(&ctx_pool);
    if (!ctx) {
        pthread_mutex_unlock(&lists_lock);
        return -1;
    }
    ctx->magic = SHMPI_CTX_MAGIC;
    ctx->team = team;
    ctx->options = options;
    atomic_init(&ctx->mpi_pending, 0);
    team->n_contexts++;
    ctx->prev = NULL;
    ctx->next = team->contexts;
    if (team->contexts)
        team->contexts->prev = ctx;
    team->contexts = ctx;
    pthread_mutex_unlock(&lists_lock);
    *ctx_out = ctx;
    return 0;
}

static void ctx_unlink(struct shmpi_ctx *ctx)
{
    struct shmpi_team *team = ctx->team;
    if (ctx->prev)
        ctx->prev->next = ctx->next;
    else
        team->contexts = ctx->next;
    if (ctx->next)
        ctx->next->prev = ctx->prev;
    team->n_contexts--;
}

void shmpi_ctx_destroy(const char *routine, shmem_ctx_t handle)
{
    shmpi_check_ready(routine);
    /* SHMEM_CTX_INVALID: no operation (the spec); the default context is
     * not the program's to destroy. */
    if (handle == SHMEM_CTX_INVALID)
        return;
    if (handle == SHMEM_CTX_DEFAULT)
        shmpi_abort(routine, "SHMEM_CTX_DEFAULT is predefined and cannot be destroyed");
    struct shmpi_ctx *ctx = shmpi_ctx_get(routine, handle);
    pthread_mutex_lock(&lists_lock);
    ctx_unlink(ctx);
    pthread_mutex_unlock(&lists_lock);
    ctx_free(ctx);
}

int shmpi_ctx_team(const char *routine, shmem_ctx_t handle, shmem_team_t *team)
{
    shmpi_check_ready(routine);
    if (!team)
        shmpi_abort(routine, "team is NULL");
    if (handle == SHMEM_CTX_INVALID) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    *team = shmpi_team_handle(shmpi_ctx_get(routine, handle)->team);
    return 0;
}

/* ---- destruction ------------------------------------------------------------------- */
/* Frees a user team and the contexts still open on it (after a quiet);
 * `members_meet` as for shmpi_team_shm_fini. */
static void team_free(struct shmpi_team *team, bool members_meet)
{
    shmpi_team_shm_fini(team, members_meet);
    while (team->contexts) {
        struct shmpi_ctx *ctx = team->contexts;
        ctx_unlink(ctx);
        ctx_free(ctx);
    }
    MPI_Comm_free(&team->comm);
    free(team->world_pe);
    free(team->by_world);
    pthread_mutex_lock(&lists_lock);
    team->magic = 0;
    pool_put(&team_pool, team);
    pthread_mutex_unlock(&lists_lock);
}

void shmpi_team_destroy(const char *routine, shmem_team_t handle)
{
    shmpi_check_ready(routine);
    if (handle == SHMEM_TEAM_INVALID)
        return;
    if (handle == SHMEM_TEAM_WORLD || handle == SHMEM_TEAM_SHARED)
        shmpi_abort(routine, "%s is predefined and cannot be destroyed",
                    handle == SHMEM_TEAM_WORLD ? "SHMEM_TEAM_WORLD" : "SHMEM_TEAM_SHARED");
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
    struct shmpi_team *predefined[] = {&shmpi_g.team_world, &shmpi_g.team_shared};
    for (size_t t = 0; t < sizeof(predefined) / sizeof(predefined[0]); t++) {
        while (predefined[t]->contexts) {
            struct shmpi_ctx *ctx = predefined[t]->contexts;
            ctx_unlink(ctx);
            ctx_free(ctx);
        }
    }
    asets_fini();
    templates_fini();
    shmpi_team_shm_fini(&shmpi_g.team_world, false);
    shmpi_team_shm_fini(&shmpi_g.team_shared, false);
    MPI_Comm_free(&shmpi_g.team_world.comm);
    MPI_Comm_free(&shmpi_g.team_shared.comm);
    free(shmpi_g.team_shared.world_pe);
    free(shmpi_g.team_shared.by_world);
    shmpi_g.team_shared.world_pe = NULL;
    shmpi_g.team_shared.by_world = NULL;
}
