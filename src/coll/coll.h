/*
 * coll.h - the collective core (coll.c): every team collective, every
 * deprecated active-set collective and every scan of the API is one call
 * here (docs/collectives.md).
 *
 * A collective runs over a group: a team, or the team an active set
 * resolves to (team.c).  One predicate, shmpi_team_has_shm(), picks the
 * path: the shared-memory engine (coll_shm.c) when every member maps the
 * others' heaps (decided at team creation with shmpi_shm_reaches, shape.h),
 * else MPI collectives on the team's communicator (coll.c): the blocking
 * forms, or when the members are crowded (shmpi_team_crowded) the
 * nonblocking ones completed by shmpi_wait_request (polls and yields, so
 * the PEs it waits for are not starved).  Either way RMA aimed at this PE
 * progresses while it waits.  On the MPI path buffers are the caller's
 * local addresses (MPI needs no symmetric ones).
 */
#ifndef SHMPI_COLL_H
#define SHMPI_COLL_H

#include "shmpi.h"
#include "device_heap.h"
#include "team.h"
#include "progress.h"
#include "shape.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

/* A collective on device-heap buffers, staged through host memory and run
 * as the plain MPI collective (device_coll.c).  nbytes is this PE's
 * contribution (one block for fcollect and alltoall; the whole vector of a
 * reduction or scan, whose elements are of `type`, reduced with `op`). */
enum shmpi_device_coll {
    SHMPI_DEVICE_BROADCAST,
    SHMPI_DEVICE_COLLECT,
    SHMPI_DEVICE_FCOLLECT,
    SHMPI_DEVICE_ALLTOALL,
    SHMPI_DEVICE_REDUCE,
    SHMPI_DEVICE_SCAN,
    SHMPI_DEVICE_EXSCAN,
};
int shmpi_device_coll(const char *routine, const struct shmpi_group *g,
                      enum shmpi_device_coll kind, void *dest, const void *source,
                      size_t nbytes, int root, bool root_dest, MPI_Datatype type, MPI_Op op);

/* Whether a team's collectives can run in shared memory (coll_shm.c);
 * checked inline so that MPI-path collectives call nothing else first.
 * (member_slot, not slot: a predefined team is all zero before init.) */
static inline bool shmpi_team_has_shm(const struct shmpi_team *t)
{
    return t && t->shm.member_slot;
}

/* The group of a team handle; SHMEM_TEAM_INVALID is an error. */
static inline struct shmpi_group shmpi_team_group(const char *routine, shmem_team_t handle)
{
    shmpi_check_ready(routine);
    shmpi_depart_routine = routine;
    struct shmpi_team *team = shmpi_team_get(routine, handle);
    team->calls++; /* numbers the team's collectives alike on every member (diagnose.c) */
    return (struct shmpi_group){team->comm, team->my_pe, team->n_pes, team};
}
/* The collectives take the group by address: passed by value (24 bytes,
 * through memory) GCC copied it with a 16-byte load of two fresh smaller
 * stores, which stalls (no store forwarding).  These build it in an
 * unnamed object of the caller. */
#define SHMPI_TEAM_GROUP(routine, team) \
    ((const struct shmpi_group[]){shmpi_team_group(routine, team)})
/* The set of all PEs (what most programs pass) inline, any other set
 * through shmpi_aset_group: a call in between is a measurable share of a
 * small MPI_Bcast (benchmarks/RESULTS.md, "Measurements behind design
 * constants"). */
static SHMPI_ALWAYS_INLINE struct shmpi_group shmpi_aset_group_inline(const char *routine,
                                                                     int start, int log_stride,
                                                                     int size)
{
    if (SHMPI_LIKELY(start == 0 && log_stride == 0 && size == shmpi_g.n_pes && size > 0)) {
        shmpi_check_ready(routine);
        shmpi_depart_routine = routine;
        shmpi_g.team_world.calls++;
        return (struct shmpi_group){shmpi_g.team_world.comm, shmpi_g.my_pe, size,
                                    &shmpi_g.team_world};
    }
    return shmpi_aset_group(routine, start, log_stride, size);
}
#define SHMPI_ASET_GROUP(routine, start, log_stride, size) \
    ((const struct shmpi_group[]){shmpi_aset_group_inline(routine, start, log_stride, size)})

/* shmemx_team_get_uniqueid and shmemx_team_init (team_init.c): what the
 * routines return (include/shmemx.h). */
int shmpi_team_get_uniqueid(const char *routine, uint64_t *uniqueid);
int shmpi_team_init(const char *routine, uint64_t uniqueid, int npes, int pe_idx_in_team,
                    const shmem_team_config_t *config, long config_mask,
                    shmem_team_t *new_team);

/* Barrier without quiet (team_sync, sync); returns 0. */
int shmpi_coll_sync(const struct shmpi_group *g);

/* Whether [a, a+a_len) and [b, b+b_len) share a byte. */
static inline bool shmpi_overlap(const void *a, size_t a_len, const void *b, size_t b_len)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return a_len > 0 && b_len > 0 && x < y + b_len && y < x + a_len;
}
/* memcpy for buffers that do not overlap, in a few moves up to 16 bytes:
 * a broadcast root's short copy through the memcpy call was a measurable
 * share of a small MPI_Bcast (benchmarks/RESULTS.md, "Measurements behind
 * design constants"). */
static inline void shmpi_copy_short(void *dest, const void *source, size_t n)
{
    char *d = dest;
    const char *s = source;
    if (n >= 8 && n <= 16) { /* two moves that overlap in the middle */
        uint64_t head, tail;
        memcpy(&head, s, 8);
        memcpy(&tail, s + n - 8, 8);
        memcpy(d, &head, 8);
        memcpy(d + n - 8, &tail, 8);
    } else if (n >= 4 && n < 8) {
        uint32_t head, tail;
        memcpy(&head, s, 4);
        memcpy(&tail, s + n - 4, 4);
        memcpy(d, &head, 4);
        memcpy(d + n - 4, &tail, 4);
    } else if (n > 0 && n < 4) {
        char first = s[0], middle = s[n / 2], last = s[n - 1];
        d[0] = first;
        d[n / 2] = middle;
        d[n - 1] = last;
    } else {
        memcpy(d, s, n);
    }
}
/* Whether the team's MPI collectives are the nonblocking forms, waited for
 * in shmpi: for crowded members (a blocking one spins and starves the PEs
 * it waits for), and where AMOs are messages (a blocking one would leave
 * them to the progress thread's next turn: every wait serves, see
 * docs/design.md).  The same on every member, so all pick the same form. */
static inline bool shmpi_coll_nonblocking(const struct shmpi_team *t)
{
    return shmpi_team_crowded(t) || shmpi_amo_by_message();
}
/* Whether a collective may go straight to its blocking MPI form: not for
 * crowded members (the nonblocking forms, waited for with yields, are
 * needed there) and not under SHMEM_DEBUG or with a device heap (their
 * checks are needed: no device buffer may reach MPI). */
static inline bool shmpi_mpi_short_path(const struct shmpi_group *g)
{
    return !shmpi_coll_nonblocking(g->team) && !shmpi_g.env.debug && !shmpi_device.size;
}
/* From this size up a broadcast with a root copy (the team routines) is
 * nonblocking even when blocking ones are chosen, so the root's copy of
 * source to dest overlaps the transfer; below it the blocking form with
 * the copy was faster (benchmarks/RESULTS.md, "Measurements behind
 * design constants"). */
#define SHMPI_BCAST_OVERLAP_MIN ((size_t)256 * 1024)

/* Broadcast nbytes from source on `root` to dest on the others; on the
 * root too when `root_dest` (1.5 team routines), not for the deprecated
 * active-set ones.  Every case but the common small MPI-path one,
 * errors included. */
int shmpi_coll_broadcast_any(const char *routine, const struct shmpi_group *g, void *dest,
                             const void *source, size_t nbytes, int root, bool root_dest);
/* The same, with that common case inline in the API routine, so that it
 * reaches MPI_Bcast in a few instructions: a call in between and the
 * root's memcpy call cost several times what this form costs over a raw
 * MPI_Bcast (benchmarks/RESULTS.md, "Measurements behind design constants"). */
static SHMPI_ALWAYS_INLINE int shmpi_coll_broadcast(const char *routine,
                                                    const struct shmpi_group *g, void *dest,
                                                    const void *source, size_t nbytes,
                                                    int root, bool root_dest)
{
    /* (nbytes - 1 wraps for 0: the test is 0 < nbytes < OVERLAP_MIN) */
    bool plain = (unsigned)root < (unsigned)g->n_pes &&
                 nbytes - 1 < SHMPI_BCAST_OVERLAP_MIN - 1 && shmpi_mpi_short_path(g) &&
                 !shmpi_team_has_shm(g->team);
    if (SHMPI_LIKELY(plain && g->my_pe != root)) {
        shmpi_blocking_begin(routine, g->team, false);
        int rc = MPI_Bcast(dest, (int)nbytes, MPI_BYTE, root, g->comm);
        shmpi_blocking_end();
        return rc;
    }
    bool copy = root_dest && dest != source;
    if (plain && !(copy && shmpi_overlap(source, nbytes, dest, nbytes))) {
        shmpi_blocking_begin(routine, g->team, false);
        int rc = MPI_Bcast((void *)source, (int)nbytes, MPI_BYTE, root, g->comm);
        shmpi_blocking_end();
        if (copy)
            shmpi_copy_short(dest, source, nbytes);
        return rc;
    }
    return shmpi_coll_broadcast_any(routine, g, dest, source, nbytes, root, root_dest);
}
/* Concatenation of every PE's source in PE order; nbytes may differ. */
int shmpi_coll_collect(const char *routine, const struct shmpi_group *g, void *dest,
                       const void *source, size_t nbytes);
/* The same with nbytes equal everywhere. */
int shmpi_coll_fcollect(const char *routine, const struct shmpi_group *g, void *dest,
                        const void *source, size_t nbytes);
/* Block j of source (nbytes each) goes to PE j, into block `my_pe` of dest. */
int shmpi_coll_alltoall(const char *routine, const struct shmpi_group *g, void *dest,
                        const void *source, size_t nbytes);
/* Strided: element k of the block for PE j is source[(j*nelems + k)*sst],
 * landing in dest[(i*nelems + k)*dst] on PE j (strides in elements). */
int shmpi_coll_alltoalls(const char *routine, const struct shmpi_group *g, void *dest,
                         const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                         size_t elem_size);
/* Element-wise reduction of nelems elements into dest on every PE;
 * dest == source is in place, any other overlap is handled too. */
int shmpi_coll_reduce(const char *routine, const struct shmpi_group *g, void *dest,
                      const void *source, size_t nelems, size_t elem_size, MPI_Datatype type,
                      MPI_Op op);
/* Element-wise prefix reduction (scan) of nelems elements: dest on team PE
 * i gets the reduction over team PEs 0 to i (inclusive), or over 0 to
 * i - 1 when `exclusive`, which is all zero bytes on team PE 0.  Overlaps
 * as for shmpi_coll_reduce. */
int shmpi_coll_scan(const char *routine, const struct shmpi_group *g, void *dest,
                    const void *source, size_t nelems, size_t elem_size, MPI_Datatype type,
                    MPI_Op op, bool exclusive);

/* ---- small collectives as point-to-point rounds (coll_p2p.c) ---------------------
 * Where AMOs are messages: each round waited for while serving them, on the
 * group's communicator (whose ranks are its PEs). */
void shmpi_p2p_bcast(const struct shmpi_group *g, void *buf, int nbytes, int root);
/* send may be MPI_IN_PLACE (the value is in recv). */
void shmpi_p2p_allreduce(const char *routine, const struct shmpi_group *g, const void *send,
                         void *recv, int count, MPI_Datatype type, MPI_Op op);
/* nbytes from every PE into recv in PE order; send may be MPI_IN_PLACE
 * (this PE's block already in recv). */
void shmpi_p2p_allgather(const char *routine, const struct shmpi_group *g, const void *send,
                         int nbytes, void *recv);
/* Block j of send (nbytes) to PE j, into block my_pe of its recv. */
void shmpi_p2p_alltoall(const char *routine, const struct shmpi_group *g, const void *send,
                        int nbytes, void *recv);

/* `src` itself, or a private copy if [src, src+src_len) overlaps
 * [dst, dst+dst_len); *copy is what to free (NULL if none). */
const void *shmpi_unaliased(const char *routine, const void *src, size_t src_len,
                            const void *dst, size_t dst_len, void **copy);

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

#endif /* SHMPI_COLL_H */
