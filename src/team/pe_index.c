/*
 * pe_index.c - world PE <-> team PE (pe_index.h).
 */
#include "shmpi.h"
#include "pe_index.h"

#include <stdlib.h>

struct pe_pair {
    int world, team;
};

static int pair_cmp(const void *a, const void *b)
{
    const struct pe_pair *x = a, *y = b;
    return (x->world > y->world) - (x->world < y->world);
}

void shmpi_pe_index_build(const char *routine, struct shmpi_team *team)
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
    struct pe_pair *pairs = shmpi_xmalloc(routine, (size_t)n * sizeof(*pairs));
    for (int i = 0; i < n; i++)
        pairs[i] = (struct pe_pair){w[i], i};
    qsort(pairs, (size_t)n, sizeof(*pairs), pair_cmp);
    team->by_world = shmpi_xmalloc(routine, 2 * (size_t)n * sizeof(int));
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

int *shmpi_comm_world_pes(MPI_Comm comm)
{
    int n;
    MPI_Comm_size(comm, &n);
    int *ranks = shmpi_xmalloc("shmem_team", (size_t)n * sizeof(int));
    int *world = shmpi_xmalloc("shmem_team", (size_t)n * sizeof(int));
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
