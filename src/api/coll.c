/*
 * coll.c - collective routines (spec: Collective Routines).
 */
#include "../core/shmpi.h"

void shmem_barrier_all(void)
{
    shmpi_check_ready(__func__);
    shmpi_barrier_all();
}

void shmem_sync_all(void)
{
    shmpi_check_ready(__func__);
    shmpi_barrier_comm(shmpi_g.team_world.comm);
}
