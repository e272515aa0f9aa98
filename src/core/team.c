/*
 * team.c - team and context bookkeeping: the predefined teams (world and
 * shared), the default context, and handle resolution.
 */
#include "shmpi.h"

#include <stdlib.h>

MPI_Comm shmpi_node_comm(void);

static void team_from_comm(struct shmpi_team *team, MPI_Comm comm, int *world_pe)
{
    team->comm = comm;
    MPI_Comm_rank(comm, &team->my_pe);
    MPI_Comm_size(comm, &team->n_pes);
    team->world_pe = world_pe;
    team->config.num_contexts = 0;
    team->config_mask = 0;
    team->n_contexts = 0;
    team->predefined = true;
}

/* Team PE -> world PE for every member of `comm`. */
int *shmpi_comm_world_pes(MPI_Comm comm)
{
    int n;
    MPI_Comm_size(comm, &n);
    int *ranks = malloc((size_t)n * sizeof(int));
    int *world = malloc((size_t)n * sizeof(int));
    if (!ranks || !world)
        shmpi_abort("shmem_team", "out of memory for a team of %d PEs", n);
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

    shmpi_g.ctx_default.team = &shmpi_g.team_world;
    shmpi_g.ctx_default.options = 0;
    atomic_store(&shmpi_g.ctx_default.mpi_pending, 0);
}

void shmpi_teams_fini(void)
{
    MPI_Comm_free(&shmpi_g.team_world.comm);
    MPI_Comm_free(&shmpi_g.team_shared.comm);
    free(shmpi_g.team_shared.world_pe);
    shmpi_g.team_shared.world_pe = NULL;
}

struct shmpi_team *shmpi_team_get(const char *routine, shmem_team_t team)
{
    if (team == SHMEM_TEAM_WORLD)
        return &shmpi_g.team_world;
    if (team == SHMEM_TEAM_SHARED)
        return &shmpi_g.team_shared;
    if (team == SHMEM_TEAM_INVALID)
        shmpi_abort(routine, "team is SHMEM_TEAM_INVALID");
    return (struct shmpi_team *)team;
}

struct shmpi_ctx *shmpi_ctx_get(const char *routine, shmem_ctx_t ctx)
{
    if (ctx == SHMEM_CTX_DEFAULT)
        return &shmpi_g.ctx_default;
    if (ctx == SHMEM_CTX_INVALID)
        shmpi_abort(routine, "context is SHMEM_CTX_INVALID");
    return (struct shmpi_ctx *)ctx;
}
