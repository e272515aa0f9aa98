/*
 * team_comm.c - the communicators of new teams (team_comm.h).
 *
 * A new team's communicator is made by its members only: nobody else
 * takes part, and every way MPI has to make a communicator over a subset
 * of PEs (MPI_Comm_split, MPI_Comm_create_group) blocks spinning inside
 * MPI, which with more PEs than cores costs far more than a team's other
 * set-up (benchmarks/RESULTS.md, "Measurements behind design constants").
 * MPI_Comm_idup does not block, so the first communicator made for a list
 * of PEs (world PEs in team order) is kept as a template, and every later
 * team of the same PEs is an MPI_Comm_idup of it.  A template exists on all
 * members of its list or on none: it is added only when all of them agree
 * (they all have room), and dropped only at finalize.
 */
#include "shmpi.h"
#include "team_comm.h"
#include "progress.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define TEMPLATE_MAX 64
#define TEMPLATE_BUCKETS 64
struct team_template {
    uint64_t hash;
    int n;
    int *world;               /* [n] world PEs in team order */
    MPI_Comm comm;
    struct team_template *next;
};
static struct team_template *templates[TEMPLATE_BUCKETS];
static int n_templates;
static pthread_mutex_t templates_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t pes_hash(const int *world, int n)
{
    uint64_t h = 14695981039346656037ull ^ (uint64_t)n;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint32_t)world[i]) * 1099511628211ull;
    return h;
}

static MPI_Comm template_find(uint64_t h, const int *world, int n)
{
    MPI_Comm comm = MPI_COMM_NULL;
    pthread_mutex_lock(&templates_lock);
    for (struct team_template *t = templates[h % TEMPLATE_BUCKETS]; t; t = t->next)
        if (t->hash == h && t->n == n && memcmp(t->world, world, (size_t)n * sizeof(int)) == 0) {
            comm = t->comm;
            break;
        }
    pthread_mutex_unlock(&templates_lock);
    return comm;
}

void shmpi_team_comm_fini(void)
{
    for (int b = 0; b < TEMPLATE_BUCKETS; b++) {
        while (templates[b]) {
            struct team_template *t = templates[b];
            templates[b] = t->next;
            MPI_Comm_free(&t->comm);
            free(t->world);
            free(t);
        }
    }
    n_templates = 0;
}

MPI_Comm shmpi_team_comm(const char *routine, struct shmpi_team *parent, const int *members,
                         const int *world, int n)
{
    bool whole_parent = n == parent->n_pes;
    for (int i = 0; whole_parent && i < n; i++)
        whole_parent = members[i] == i;
    if (whole_parent)
        return shmpi_comm_dup(parent->comm);
    uint64_t h = pes_hash(world, n);
    MPI_Comm template = template_find(h, world, n);
    if (template != MPI_COMM_NULL)
        return shmpi_comm_dup(template);

    MPI_Group parent_group, group;
    MPI_Comm comm;
    MPI_Comm_group(parent->comm, &parent_group);
    MPI_Group_incl(parent_group, n, members, &group);
    shmpi_barrier_members(world, n);
    MPI_Comm_create_group(parent->comm, group, (int)(h % 32000), &comm);
    MPI_Group_free(&group);
    MPI_Group_free(&parent_group);

    /* Keep it as the template if every member has room. */
    pthread_mutex_lock(&templates_lock);
    int room = n_templates < TEMPLATE_MAX, all_room = 0;
    pthread_mutex_unlock(&templates_lock);
    MPI_Request req;
    MPI_Iallreduce(&room, &all_room, 1, MPI_INT, MPI_MIN, comm, &req);
    shmpi_wait_request(&req);
    if (!all_room)
        return comm;
    struct team_template *t = shmpi_xmalloc(routine, sizeof(*t));
    t->hash = h;
    t->n = n;
    t->world = shmpi_xmalloc(routine, (size_t)n * sizeof(int));
    memcpy(t->world, world, (size_t)n * sizeof(int));
    t->comm = comm;
    pthread_mutex_lock(&templates_lock);
    t->next = templates[h % TEMPLATE_BUCKETS];
    templates[h % TEMPLATE_BUCKETS] = t;
    n_templates++;
    pthread_mutex_unlock(&templates_lock);
    return shmpi_comm_dup(comm);
}
