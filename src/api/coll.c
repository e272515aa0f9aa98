/*
 * coll.c - collective routines (spec: Collective Routines): barriers and
 * syncs, broadcast, collect, fcollect, alltoall(s) on teams, and the
 * deprecated active-set forms.  Each routine resolves its team or active
 * set and makes one call into src/coll/coll.c; the type tables generate
 * the typed ones.  Reductions are in reduce.c.
 */
#define SHMPI_DEFINES_coll SHMPI_HERE /* weak shmem_ names of this chapter here */
#include "coll.h"
#include "barrier.h"
#include "rma.h"

void shmem_barrier_all(void)
{
    shmpi_check_ready(__func__);
    shmpi_barrier_all(__func__);
}

void shmem_sync_all(void)
{
    shmpi_coll_sync(SHMPI_TEAM_GROUP(__func__, SHMEM_TEAM_WORLD));
}

int shmem_team_sync(shmem_team_t team)
{
    return shmpi_coll_sync(SHMPI_TEAM_GROUP(__func__, team));
}

/* ---- team collectives --------------------------------------------------------------- */
/* collect, fcollect and alltoall over a team: nelems elements of ELEM bytes
 * (of type T) from each PE. */
#define DEFINE_TEAM_BLOCKS(NAME, T, CORE, ELEM)                                               \
    int shmem_##NAME(shmem_team_t team, T *dest, const T *source, size_t nelems)              \
    {                                                                                         \
        return CORE(__func__, SHMPI_TEAM_GROUP(__func__, team), dest, source,                 \
                    shmpi_bytes(__func__, nelems, ELEM));                                     \
    }
#define DEFINE_COLL_TYPED(N, T)                                                               \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems,     \
                              int PE_root)                                                    \
    {                                                                                         \
        return shmpi_coll_broadcast(__func__, SHMPI_TEAM_GROUP(__func__, team), dest, source, \
                                    shmpi_bytes(__func__, nelems, sizeof(T)), PE_root, true); \
    }                                                                                         \
    DEFINE_TEAM_BLOCKS(N##_collect, T, shmpi_coll_collect, sizeof(T))                         \
    DEFINE_TEAM_BLOCKS(N##_fcollect, T, shmpi_coll_fcollect, sizeof(T))                       \
    DEFINE_TEAM_BLOCKS(N##_alltoall, T, shmpi_coll_alltoall, sizeof(T))                       \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst,     \
                              ptrdiff_t sst, size_t nelems)                                   \
    {                                                                                         \
        return shmpi_coll_alltoalls(__func__, SHMPI_TEAM_GROUP(__func__, team), dest, source, \
                                    dst, sst, nelems, sizeof(T));                             \
    }
SHMPI_RMA_TYPES(DEFINE_COLL_TYPED)

int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       int PE_root)
{
    return shmpi_coll_broadcast(__func__, SHMPI_TEAM_GROUP(__func__, team), dest, source,
                                nelems, PE_root, true);
}

DEFINE_TEAM_BLOCKS(collectmem, void, shmpi_coll_collect, 1)
DEFINE_TEAM_BLOCKS(fcollectmem, void, shmpi_coll_fcollect, 1)
DEFINE_TEAM_BLOCKS(alltoallmem, void, shmpi_coll_alltoall, 1)

int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems)
{
    return shmpi_coll_alltoalls(__func__, SHMPI_TEAM_GROUP(__func__, team), dest, source, dst,
                                sst, nelems, 1);
}

/* ---- deprecated active-set forms ------------------------------------------------------
 * The active set is PE_start, PE_start + 2^logPE_stride, ... (PE_size PEs),
 * which resolves to a team (coll.h): each routine is the team routine's
 * core call.  pSync and pWrk are not needed (the team's own events or MPI
 * synchronize) and are not touched. */
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    (void)pSync;
    struct shmpi_group g = shmpi_aset_group_inline(__func__, PE_start, logPE_stride, PE_size);
    shmpi_quiet_all();
    shmpi_coll_sync(&g);
}

void(shmem_sync)(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    (void)pSync;
    shmpi_coll_sync(SHMPI_ASET_GROUP(__func__, PE_start, logPE_stride, PE_size));
}

/* collect, fcollect and alltoall over an active set: nelems elements of
 * ELEM bytes from each PE. */
#define DEFINE_ASET_BLOCKS(NAME, CORE, ELEM)                                                  \
    void shmem_##NAME(void *dest, const void *source, size_t nelems, int PE_start,            \
                      int logPE_stride, int PE_size, long *pSync)                             \
    {                                                                                         \
        (void)pSync;                                                                          \
        CORE(__func__, SHMPI_ASET_GROUP(__func__, PE_start, logPE_stride, PE_size), dest,     \
             source, shmpi_bytes(__func__, nelems, ELEM));                                    \
    }
#define DEFINE_ASET_COLL(BITS)                                                                \
    void shmem_broadcast##BITS(void *dest, const void *source, size_t nelems, int PE_root,    \
                               int PE_start, int logPE_stride, int PE_size, long *pSync)      \
    {                                                                                         \
        (void)pSync;                                                                          \
        shmpi_coll_broadcast(__func__,                                                        \
                             SHMPI_ASET_GROUP(__func__, PE_start, logPE_stride, PE_size),     \
                             dest, source, shmpi_bytes(__func__, nelems, BITS / 8), PE_root, \
                             false);                                                          \
    }                                                                                         \
    DEFINE_ASET_BLOCKS(collect##BITS, shmpi_coll_collect, BITS / 8)                           \
    DEFINE_ASET_BLOCKS(fcollect##BITS, shmpi_coll_fcollect, BITS / 8)                         \
    DEFINE_ASET_BLOCKS(alltoall##BITS, shmpi_coll_alltoall, BITS / 8)                         \
    void shmem_alltoalls##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,  \
                               size_t nelems, int PE_start, int logPE_stride, int PE_size,    \
                               long *pSync)                                                   \
    {                                                                                         \
        (void)pSync;                                                                          \
        shmpi_coll_alltoalls(__func__,                                                        \
                             SHMPI_ASET_GROUP(__func__, PE_start, logPE_stride, PE_size),     \
                             dest, source, dst, sst, nelems, BITS / 8);                       \
    }
DEFINE_ASET_COLL(32)
DEFINE_ASET_COLL(64)
