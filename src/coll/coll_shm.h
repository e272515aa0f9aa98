/*
 * coll_shm.h - the shared-memory engine of the collectives (coll_shm.c),
 * the lowest room of src/coll: coll.c and barrier.c call it, and it calls
 * neither.  With it the buffer checks both use.
 */
#ifndef SHMPI_COLL_SHM_H
#define SHMPI_COLL_SHM_H

#include "shmpi.h"
#include "team.h"
#include "progress.h"
#include "shape.h"

#include <stdint.h>
#include <string.h>

/* Whether a team's collectives can run in shared memory (coll_shm.c);
 * checked inline so that MPI-path collectives call nothing else first.
 * (member_slot, not slot: a predefined team is all zero before init.) */
static inline bool shmpi_team_has_shm(const struct shmpi_team *t)
{
    return t && t->shm.member_slot;
}

/* Whether [a, a+a_len) and [b, b+b_len) share a byte. */
static inline bool shmpi_overlap(const void *a, size_t a_len, const void *b, size_t b_len)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return a_len > 0 && b_len > 0 && x < y + b_len && y < x + a_len;
}
/* `src` itself, or a private copy if [src, src+src_len) overlaps
 * [dst, dst+dst_len); *copy is what to free (NULL if none). */
static inline const void *shmpi_unaliased(const char *routine, const void *src,
                                          size_t src_len, const void *dst, size_t dst_len,
                                          void **copy)
{
    *copy = NULL;
    if (!shmpi_overlap(src, src_len, dst, dst_len))
        return src;
    *copy = shmpi_xmalloc(routine, src_len);
    memcpy(*copy, src, src_len);
    return *copy;
}

/* ---- on-node shared-memory forms (coll_shm.c) ------------------------------------
 * Each returns false, on every member alike, when the team or the buffers
 * do not allow it (the caller then runs the MPI collective), else does the
 * collective and returns true.  Arguments are as above, already checked. */
bool shmpi_shm_sync(struct shmpi_team *team);
/* Sets up team->shm (collective over the members, once the team has its
 * communicator and world_pe), and frees it; `members_meet`: the members
 * call it together (shmem_team_destroy), so the slot can be reused at once.
 * The team takes no slot below `lowest_slot` (active sets: the upper half).
 * (coll_shm.c; team.c calls them through shmpi_team_on_shm.) */
void shmpi_team_shm_init(const char *routine, struct shmpi_team *team, int lowest_slot);
void shmpi_team_shm_fini(struct shmpi_team *team, bool members_meet);
/* The log-depth forms of the shared-memory engine, and the team size
 * from which each replaces its flat form (SHMPI_TREE_MIN_PES; INT_MAX:
 * never), for a team (or node) that is crowded or not. */
enum shmpi_tree_form { SHMPI_TREE_BARRIER, SHMPI_TREE_BCAST, SHMPI_TREE_REDUCE };
int shmpi_tree_min_pes(enum shmpi_tree_form form, bool crowded);
/* Rounds of a dissemination barrier over n PEs: ceil(log2 n). */
int shmpi_barrier_rounds(int n);
/* A dissemination barrier at `event` (larger than at any earlier one):
 * in round k this PE stores event in mine[k], then waits until from[k]
 * (the flag k of the PE 2^k before it, cyclically) holds it or more.  Its
 * waits start as `needing` (whom they need, depart.c). */
void shmpi_dissemination(struct shmpi_round_flag *mine, struct shmpi_round_flag *const from[],
                         int rounds, uint64_t event, const struct shmpi_waiter *needing);
bool shmpi_shm_broadcast(const char *routine, struct shmpi_team *team, void *dest,
                         const void *source, size_t nbytes, int root, bool root_dest);
bool shmpi_shm_collect(const char *routine, struct shmpi_team *team, void *dest,
                       const void *source, size_t nbytes);
/* fcollect, or alltoall when `alltoall` (as blocks() in coll.c). */
bool shmpi_shm_blocks(const char *routine, struct shmpi_team *team, void *dest,
                      const void *source, size_t nbytes, bool alltoall);
bool shmpi_shm_reduce(const char *routine, struct shmpi_team *team, void *dest,
                      const void *source, size_t nelems, size_t elem_size, MPI_Datatype type,
                      MPI_Op op);
bool shmpi_shm_alltoalls(const char *routine, struct shmpi_team *team, void *dest,
                         const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                         size_t elem_size);
bool shmpi_shm_scan(const char *routine, struct shmpi_team *team, void *dest,
                    const void *source, size_t nelems, size_t elem_size, MPI_Datatype type,
                    MPI_Op op, bool exclusive);

#endif /* SHMPI_COLL_SHM_H */
