/*
 * team.c - team management routines (spec: Team Management Routines) and
 * the extensions shmemx_team_get_mpi_comm, shmemx_team_get_uniqueid and
 * shmemx_team_init.  The work is in src/team/team.c (and src/coll/team_init.c).
 */
#define SHMPI_DEFINES_team SHMPI_HERE /* weak shmem_ names of this chapter here */
#include "shmpi.h"
#include "coll.h"
#include "heap_alloc.h"
#include "team.h"

int shmem_team_my_pe(shmem_team_t team)
{
    shmpi_check_ready(__func__);
    if (team == SHMEM_TEAM_INVALID)
        return -1;
    return shmpi_team_get(__func__, team)->my_pe;
}

int shmem_team_n_pes(shmem_team_t team)
{
    shmpi_check_ready(__func__);
    if (team == SHMEM_TEAM_INVALID)
        return -1;
    return shmpi_team_get(__func__, team)->n_pes;
}

int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config)
{
    shmpi_check_ready(__func__);
    return shmpi_team_get_config(__func__, team, config_mask, config);
}

int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team)
{
    shmpi_check_ready(__func__);
    return shmpi_team_translate(__func__, src_team, src_pe, dest_team);
}

int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team)
{
    return shmpi_team_split_strided(__func__, parent_team, start, stride, size, config,
                                    config_mask, new_team);
}

int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
                        const shmem_team_config_t *xaxis_config, long xaxis_mask,
                        shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team)
{
    return shmpi_team_split_2d(__func__, parent_team, xrange, xaxis_config, xaxis_mask,
                               xaxis_team, yaxis_config, yaxis_mask, yaxis_team);
}

void shmem_team_destroy(shmem_team_t team)
{
    shmpi_team_destroy(__func__, team);
}

int shmemx_team_get_uniqueid(uint64_t *uniqueid)
{
    return shmpi_team_get_uniqueid(__func__, uniqueid);
}

int shmemx_team_init(uint64_t uniqueid, int npes, int pe_idx_in_team,
                     const shmem_team_config_t *config, long config_mask, shmem_team_t *new_team)
{
    return shmpi_team_init(__func__, uniqueid, npes, pe_idx_in_team, config, config_mask,
                           new_team);
}

int shmemx_team_get_mpi_comm(shmem_team_t team, MPI_Comm *comm)
{
    shmpi_check_ready_out(__func__, comm, "comm");
    if (team == SHMEM_TEAM_INVALID) {
        *comm = MPI_COMM_NULL;
        return -1;
    }
    *comm = shmpi_team_get(__func__, team)->comm;
    return 0;
}
