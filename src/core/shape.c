/*
 * shape.c - the job's shape, worked out once at start-up (see shape.h).
 */
#include "shmpi.h"

#include <stdlib.h>
#include <string.h>

struct shmpi_shape shmpi_shape = {.node_comm = MPI_COMM_NULL};

static int by_kernel(const void *a, const void *b)
{
    uint64_t x = shmpi_shape.kernel_of[*(const int *)a], y = shmpi_shape.kernel_of[*(const int *)b];
    return x < y ? -1 : x > y;
}

/* Whether some kernel runs more of the world PEs pe[0..n) than its CPUs
 * (sorts pe by kernel: a run longer than its kernel's CPUs); the same
 * answer on every PE, since every PE has the same kernel table. */
static bool crowded_among(int *pe, int n)
{
    qsort(pe, (size_t)n, sizeof(int), by_kernel);
    bool crowded = false;
    for (int i = 0, run = 0; i < n && !crowded; i++) {
        run = i > 0 && shmpi_shape.kernel_of[pe[i]] == shmpi_shape.kernel_of[pe[i - 1]] ? run + 1 : 1;
        crowded = run > shmpi_shape.kernel_cpus[pe[i]];
    }
    return crowded;
}

void shmpi_shape_init(void)
{
    struct shmpi_shape *sh = &shmpi_shape;
    int n = shmpi_g.n_pes;
    for (int s = 0; s < SHMPI_NSEGS; s++) {
        sh->peer_ptr[s] = calloc((size_t)n, sizeof(char *));
        if (!sh->peer_ptr[s])
            shmpi_abort("shmem_init", "out of memory for %d PEs' segment tables", n);
        sh->all_mapped[s] = false;
    }
    sh->shares_memory = !shmpi_g.env.mpi_only;
    sh->pseudo_nodes = shmpi_g.env.pseudo_node_size > 0;

    /* Real nodes (not pseudo-nodes): one node with fewer PEs than the job
     * means several nodes, on every PE. */
    MPI_Comm node;
    int node_pes, node_rank;
    MPI_Comm_split_type(shmpi_g.comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &node_pes);
    MPI_Comm_rank(node, &node_rank);
    int leader = node_rank == 0;
    MPI_Allreduce(&leader, &sh->nodes, 1, MPI_INT, MPI_SUM, shmpi_g.comm);
    sh->spans_nodes = node_pes < n;
    sh->kernel_of = malloc((size_t)n * sizeof(uint64_t));
    sh->kernel_cpus = malloc((size_t)n * sizeof(int));
    int *all = malloc((size_t)n * sizeof(int));
    if (!sh->kernel_of || !sh->kernel_cpus || !all)
        shmpi_abort("shmem_init", "out of memory for %d PEs' kernel table", n);
    shmpi_kernel_table(sh->kernel_of, sh->kernel_cpus);
    for (int pe = 0; pe < n; pe++)
        all[pe] = pe;
    sh->crowded = crowded_among(all, n);
    free(all);

    /* Pseudo-nodes: groups of SHMPI_PSEUDO_NODE_SIZE PEs of a node. */
    if (sh->pseudo_nodes) {
        int group_size = shmpi_g.env.pseudo_node_size;
        MPI_Comm pseudo;
        MPI_Comm_split(node, node_rank / group_size, node_rank, &pseudo);
        MPI_Comm_free(&node);
        node = pseudo;
    }
    sh->node_comm = node;
}

void shmpi_shape_no_shared_memory(void)
{
    shmpi_shape.shares_memory = false;
}

void shmpi_shape_mapped_init(void)
{
    struct shmpi_shape *sh = &shmpi_shape;
    for (int s = 0; s < SHMPI_NSEGS; s++) {
        /* One PE: its own memory is all there is (and there is no window).
         * Pseudo-nodes emulate separate nodes, whose words MPI updates. */
        int all_mapped = shmpi_g.n_pes == 1 || (sh->shares_memory && !sh->pseudo_nodes);
        for (int pe = 0; all_mapped && pe < shmpi_g.n_pes; pe++)
            if (!sh->peer_ptr[s][pe])
                all_mapped = 0;
        /* Every PE must choose the same mechanism for a word: agree. */
        MPI_Allreduce(MPI_IN_PLACE, &all_mapped, 1, MPI_INT, MPI_LAND, shmpi_g.comm);
        sh->all_mapped[s] = all_mapped != 0;
    }
}

MPI_Comm shmpi_node_comm(void)
{
    return shmpi_shape.shares_memory ? shmpi_shape.node_comm : MPI_COMM_NULL;
}

void shmpi_shape_fini(void)
{
    struct shmpi_shape *sh = &shmpi_shape;
    for (int s = 0; s < SHMPI_NSEGS; s++) {
        free(sh->peer_ptr[s]);
        sh->peer_ptr[s] = NULL;
        sh->all_mapped[s] = false;
    }
    if (sh->node_comm != MPI_COMM_NULL)
        MPI_Comm_free(&sh->node_comm);
    free(sh->kernel_of);
    free(sh->kernel_cpus);
    sh->kernel_of = NULL;
    sh->kernel_cpus = NULL;
}

bool shmpi_comm_crowded(MPI_Comm comm)
{
    return shmpi_kernel_crowded(comm) != 0;
}

bool shmpi_shape_team_crowded(const struct shmpi_team *t)
{
    if (t == &shmpi_g.team_world || !t->world_pe)
        return shmpi_shape.crowded;
    int n = t->n_pes, *pe = shmpi_xmalloc("shmem_team", (size_t)n * sizeof(int));
    memcpy(pe, t->world_pe, (size_t)n * sizeof(int));
    bool crowded = crowded_among(pe, n);
    free(pe);
    return crowded;
}
