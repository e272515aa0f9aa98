/*
 * team.h - teams (team.c): the predefined teams, splits, translation,
 * configuration, destruction, and the internal teams of active sets.
 *
 * The team's data (struct shmpi_team) is in team_types.h, a layer below
 * (the global state holds the predefined teams; the waits read them).  Related modules: the handle slabs (handle.h), world PE
 * <-> team PE (pe_index.h), team communicators (team_comm.h), contexts
 * (ctx.h), a team's shared-memory collectives (coll_shm.c).
 */
#include "shmpi.h"

#ifndef SHMPI_TEAM_H
#define SHMPI_TEAM_H


/* The members_id of a team of n PEs (world_pe NULL: world PEs 0 to n - 1). */
uint64_t shmpi_team_members_id(const int *world_pe, int n);

/* Makes the predefined teams (init, once the segments are mapped: the
 * shared team is the PEs this one maps), and frees every team at finalize,
 * with the contexts still open on them. */
void shmpi_teams_init(void);
void shmpi_teams_fini(void);

/* Resolves a team handle (predefined ones included); NULL or a destroyed
 * handle is an error naming `routine`.  Defined below (it reads
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
/* A valid configuration request: only SHMEM_TEAM_NUM_CONTEXTS, a count >= 0. */
bool shmpi_team_config_ok(const shmem_team_config_t *config, long config_mask);
/* A user team of world PEs world_pe[0..n-1] (team PE i is world_pe[i]),
 * made by those PEs alone, the caller being team PE my_pe (shmemx_team_init,
 * once the members know each other; config checked). */
shmem_team_t shmpi_team_of_world_pes(const char *routine, const int *world_pe, int n, int my_pe,
                                     const shmem_team_config_t *config, long config_mask);


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

/* The team behind a handle; the world team without a call. */
static inline struct shmpi_team *shmpi_team_get(const char *routine, shmem_team_t team)
{
    return team == SHMEM_TEAM_WORLD ? &shmpi_g.team_world : shmpi_team_lookup(routine, team);
}

#endif /* SHMPI_TEAM_H */
