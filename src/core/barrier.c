/*
 * barrier.c - barriers that keep RMA moving while they wait.
 *
 * Over all PEs (barrier_all, sync_all) on one node whose heaps are all
 * mapped it is the world team's event barrier (coll_shm.c).  Otherwise
 * the PEs of a node meet in shared memory: a counter and a generation
 * number in the node leader's reserved heap block.  The leader waits for
 * the others, meets the other nodes' leaders with an MPI barrier (only if
 * there are several nodes), and releases its node by bumping the
 * generation.  Waiters poll with
 * shmpi_backoff, which drives MPI progress and yields, so a PE waiting here
 * still completes MPI operations aimed at it and more PEs than cores move.
 *
 * Any other barrier is MPI_Barrier, which is several times faster than
 * MPICH's MPI_Ibarrier and serves RMA while it spins, unless some machine
 * runs more PEs than it has CPUs (shmpi_job_crowded(), the same on every
 * PE, so all pick the same form): then MPI_Ibarrier plus
 * shmpi_wait_barrier, since MPI_Barrier would spin without yielding and
 * starve the PEs it waits for (benchmarks/RESULTS.md, "Measurements
 * behind design constants").
 */
#include "shmpi.h"
#include "coll.h"
#include "barrier.h"

/* The node leader's (struct shmpi_reserved), or NULL: MPI only. */
static struct shmpi_node_barrier *node_barrier;
static int node_rank, node_size;
static MPI_Comm leaders = MPI_COMM_NULL;  /* node leaders, if more than one node */
/* The leaders meet in barrier_spin: with a CPU for every PE in
 * MPI_Barrier, which spins, takes nobody's CPU and serves MPI RMA aimed at
 * them at once (a sleeping leader serves it several times later).  With
 * more PEs than CPUs they first spin in MPI_Test for LEADERS_SPIN_NS unless
 * they alone outnumber some machine's CPUs: the other PEs wait in shared
 * memory, yielding, so a briefly spinning leader starves nobody and the
 * barrier is as fast as MPI_Barrier instead of far slower when yielding
 * from the start (benchmarks/RESULTS.md, "Measurements behind design
 * constants").  Then they wait the yielding, sleeping way, so a
 * long wait does not hold a CPU the PE everybody waits for needs
 * (MPI_Barrier spun to the end: tests/spmd/wait_sleep). */
#define LEADERS_SPIN_NS (200 * 1000)
static uint64_t leaders_spin_ns;

void shmpi_barrier_init(void)
{
    MPI_Comm node = shmpi_node_comm();
    if (node == MPI_COMM_NULL)
        return;
    MPI_Comm_rank(node, &node_rank);
    MPI_Comm_size(node, &node_size);
    int leader_world = node_rank == 0 ? shmpi_g.my_pe : -1;
    MPI_Bcast(&leader_world, 1, MPI_INT, 0, node);
    char *leader_heap = shmpi_peer_mapped(SHMPI_SEG_HEAP, leader_world);
    node_barrier =
        &((struct shmpi_reserved *)(leader_heap + shmpi_g.heap_reserved_off))->node_barrier;
    if (node_rank == 0) {
        atomic_init(&node_barrier->arrived, 0);
        atomic_init(&node_barrier->generation, 0);
    }
    MPI_Comm split;
    MPI_Comm_split(shmpi_g.comm, node_rank == 0 ? 0 : MPI_UNDEFINED, shmpi_g.my_pe, &split);
    if (split != MPI_COMM_NULL) {
        int n_leaders;
        MPI_Comm_size(split, &n_leaders);
        if (n_leaders > 1) {
            leaders = split;
            leaders_spin_ns = shmpi_comm_crowded(leaders) ? 0 : LEADERS_SPIN_NS;
        } else
            MPI_Comm_free(&split);
    }
    MPI_Barrier(shmpi_g.comm); /* the leader initialized its block before use */
}

void shmpi_barrier_fini(void)
{
    if (leaders != MPI_COMM_NULL)
        MPI_Comm_free(&leaders);
    node_barrier = NULL;
}

/* A barrier over comm: MPI_Barrier with a CPU for every PE, else
 * MPI_Ibarrier, spun on for up to spin_ns, then waited for while yielding. */
static void barrier_spin(MPI_Comm comm, uint64_t spin_ns, const struct shmpi_waiter *needing)
{
    /* shmem_finalize's barrier polls in any case: a PE that waits there
     * notices PEs that left (depart.c) and tells the others if it lasts. */
    if (!shmpi_job_crowded() && !shmpi_g.finalize_phase) {
        MPI_Barrier(comm);
        return;
    }
    MPI_Request req;
    MPI_Ibarrier(comm, &req);
    shmpi_wait_barrier(&req, shmpi_job_crowded() ? spin_ns : LEADERS_SPIN_NS, needing);
}

void shmpi_barrier_comm(MPI_Comm comm, const struct shmpi_waiter *needing)
{
    barrier_spin(comm, 0, needing);
}

/* A wait of the barrier over all PEs: it needs them all, and shmem_finalize's
 * own barrier may be what completes it. */
static const struct shmpi_waiter world_barrier_waiter = {
    .needs = SHMPI_NEEDS_TEAM, .finalize_may_meet = true};

void shmpi_sync_world(const char *routine)
{
    shmpi_depart_routine = routine;
    /* One node, all mapped: the world team's event barrier (coll_shm.c),
     * which needs no leader to release the others, and is faster for it
     * (benchmarks/RESULTS.md, "Measurements behind design constants"). */
    if (shmpi_shm_sync(&shmpi_g.team_world))
        return;
    if (!node_barrier) {
        shmpi_barrier_comm(shmpi_g.team_world.comm, &world_barrier_waiter);
        return;
    }
    struct shmpi_waiter waiter = world_barrier_waiter;
    unsigned generation = atomic_load_explicit(&node_barrier->generation, memory_order_acquire);
    if (node_rank == 0) {
        while (atomic_load_explicit(&node_barrier->arrived, memory_order_acquire) !=
               (unsigned)node_size - 1)
            shmpi_backoff(&waiter);
        if (leaders != MPI_COMM_NULL)
            barrier_spin(leaders, leaders_spin_ns, &world_barrier_waiter);
        atomic_store_explicit(&node_barrier->arrived, 0, memory_order_relaxed);
        atomic_store_explicit(&node_barrier->generation, generation + 1, memory_order_release);
    } else {
        atomic_fetch_add_explicit(&node_barrier->arrived, 1, memory_order_acq_rel);
        while (atomic_load_explicit(&node_barrier->generation, memory_order_acquire) ==
               generation)
            shmpi_backoff(&waiter);
    }
}

void shmpi_barrier_all(const char *routine)
{
    shmpi_quiet_all();
    shmpi_sync_world(routine);
}
