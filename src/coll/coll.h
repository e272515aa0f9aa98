/*
 * coll.h - the collective core (coll.c): every team collective, every
 * deprecated active-set collective and every scan of the API is one call
 * here (docs/collectives.md).
 *
 * A collective runs over a group: a team, or the team an active set
 * resolves to (team.c).  Below coll.c, which calls them: the barriers
 * (barrier.h), the point-to-point rounds (coll_p2p.h), the device-heap
 * collectives (device_coll.h) and, lowest, the shared-memory engine
 * (coll_shm.h).  One predicate, shmpi_team_has_shm(), picks the
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
#include "coll_p2p.h"
#include "coll_shm.h"
#include "device_coll.h"
#include "device_heap.h"
#include "team.h"
#include "progress.h"
#include "shape.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

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

#endif /* SHMPI_COLL_H */
