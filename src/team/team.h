/*
 * team.h - teams (team.c): the predefined teams, splits, translation,
 * configuration, destruction, and the internal teams of active sets.
 *
 * shmpi.h includes this header (struct shmpi_global holds the predefined
 * teams), so every file of src/ sees it; a file that uses teams includes it
 * anyway to say so.  Related modules: the handle slabs (handle.h), world PE
 * <-> team PE (pe_index.h), team communicators (team_comm.h), contexts
 * (ctx.h), a team's shared-memory collectives (coll_shm.c).
 */
#include "shmpi.h"

#ifndef SHMPI_TEAM_H
#define SHMPI_TEAM_H

struct shmpi_ctx;
struct shmpi_team_slot;

/* How a team's collectives use shared memory (coll_shm.c). */
struct shmpi_team_shm {
    int slot;                /* its slot in every member's reserved block, or -1:
                                MPI only (not all mapped, SHMPI_MPI_ONLY, no slot free) */
    unsigned mapped_segs;    /* bit s: every member maps every member's segment s */
    uint64_t seq;            /* the last event this member arrived at */
    uint64_t all_arrived;    /* every member was seen at this event or later */
    struct shmpi_team_slot **member_slot; /* [n_pes]: each member's slot, mapped here */
    bool tree_barrier;       /* barriers by dissemination, not by reading every counter */
    bool tree_bcast;         /* small broadcasts down a binomial tree */
    bool tree_reduce;        /* small reductions up and down a binomial tree */
};

struct shmpi_team {
    unsigned magic;          /* SHMPI_TEAM_MAGIC while the team exists */
    MPI_Comm comm;           /* the team's communicator (rank == team PE) */
    int my_pe;               /* caller's PE in the team */
    int n_pes;
    int *world_pe;           /* [n_pes]: team PE -> world PE, NULL for the world team */
    /* World PE -> team PE (pe_index.c): when the members are an arithmetic
     * progression of world PEs (world_pe[i] == world_start + i * world_stride)
     * it is computed; otherwise by_world holds the world PEs in ascending
     * order followed by their team PEs (2 * n_pes ints, binary search). */
    int world_start, world_stride;
    int *by_world;
    shmem_team_config_t config;
    long config_mask;
    int n_contexts;          /* contexts created on this team and not destroyed */
    struct shmpi_ctx *contexts; /* those contexts (list through ctx->next; ctx.c) */
    struct shmpi_team *next, *prev; /* user teams not yet destroyed */
    bool predefined;         /* WORLD and SHARED are never destroyed by users */
    bool crowded;            /* the members on some machine outnumber its CPUs: MPI
                                collectives take their nonblocking form (coll.c) */
    struct shmpi_team_shm shm;
    /* For the wait records (diagnose.c): the same on every member. */
    uint64_t members_id;     /* from its members' world PEs: teams of the same PEs share it */
    uint64_t calls;          /* collectives called on it so far (the current one included) */
};
#define SHMPI_TEAM_MAGIC 0x7ea3c0deu

/* The members_id of a team of n PEs (world_pe NULL: world PEs 0 to n - 1). */
uint64_t shmpi_team_members_id(const int *world_pe, int n);

/* Makes the predefined teams (init, once the segments are mapped: the
 * shared team is the PEs this one maps), and frees every team at finalize,
 * with the contexts still open on them. */
void shmpi_teams_init(void);
void shmpi_teams_fini(void);

/* Resolves a team handle (predefined ones included); NULL or a destroyed
 * handle is an error naming `routine`.  Defined in shmpi.h (it reads
 * shmpi_g): SHMEM_TEAM_WORLD, the team of most collectives, is resolved
 * inline and every other handle by shmpi_team_lookup. */
static inline struct shmpi_team *shmpi_team_get(const char *routine, shmem_team_t team);
struct shmpi_team *shmpi_team_lookup(const char *routine, shmem_team_t team);
/* The handle of a team object (SHMEM_TEAM_WORLD/SHARED for the predefined). */
shmem_team_t shmpi_team_handle(struct shmpi_team *team);

/* The routines of the Teams chapter; `routine` names the caller in error
 * messages.  Each returns what the spec says. */
int shmpi_team_translate(const char *routine, shmem_team_t src_team, int src_pe,
                         shmem_team_t dest_team);
int shmpi_team_get_config(const char *routine, shmem_team_t team, long config_mask,
                          shmem_team_config_t *config);
int shmpi_team_split_strided(const char *routine, shmem_team_t parent_team, int start,
                             int stride, int size, const shmem_team_config_t *config,
                             long config_mask, shmem_team_t *new_team);
int shmpi_team_split_2d(const char *routine, shmem_team_t parent_team, int xrange,
                        const shmem_team_config_t *xaxis_config, long xaxis_mask,
                        shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team);
void shmpi_team_destroy(const char *routine, shmem_team_t team);


/* The PEs a collective runs over. */
struct shmpi_group {
    MPI_Comm comm;  /* rank == PE number in the team or active set */
    int my_pe;
    int n_pes;
    struct shmpi_team *team; /* NULL for an active set of one PE */
};

/* The group of an active set (PE_start, 2^logPE_stride, PE_size), which
 * the caller must be a member of (else, or if the set is not valid, the
 * job ends with `routine` named): the world team for the set of all PEs,
 * else an internal team made by the members on first use and cached by
 * the triplet until finalize (team.c). */
struct shmpi_group shmpi_aset_group(const char *routine, int PE_start, int logPE_stride,
                                    int PE_size);

/* A team's shared-memory slot (coll_shm.c: shmpi_team_shm_init, _fini, a
 * layer above the teams), made and freed with the team: set at start-up
 * before shmpi_teams_init. */
void shmpi_team_on_shm(void (*init)(const char *routine, struct shmpi_team *team,
                                    int lowest_slot),
                       void (*fini)(struct shmpi_team *team, bool members_meet));

/* World PE of `pe` taken relative to `team`; aborts if out of range. */
static inline int shmpi_team_world_pe(const char *routine, const struct shmpi_team *team, int pe)
{
    if (SHMPI_UNLIKELY(pe < 0 || pe >= team->n_pes))
        shmpi_pe_fail(routine, pe, team->n_pes);
    return team->world_pe ? team->world_pe[pe] : pe;
}

#endif /* SHMPI_TEAM_H */
