/*
 * barrier.c - barriers that keep RMA moving while they wait.
 *
 * Over all PEs (barrier_all, sync_all) on one node whose heaps are all
 * mapped it is the world team's event barrier (coll_shm.c).  Otherwise
 * the PEs of a node meet in shared memory, in one of two ways chosen from
 * the node's size as the teams' barriers are (shmpi_tree_min_pes):
 * - flat: a counter and a generation number in the node leader's reserved
 *   heap block; the leader waits for the N - 1 others' increments of the
 *   counter, meets the other nodes' leaders with an MPI barrier (only if
 *   there are several nodes), and releases its node by bumping the
 *   generation;
 * - dissemination, with round flags in each PE's reserved block:
 *   ceil(log2 N) rounds of one cache line each; with several nodes the
 *   leaders then meet with an MPI barrier and a second dissemination
 *   tells the node.
 * Waiters poll with shmpi_backoff, which drives MPI progress and yields, so
 * a PE waiting here still completes MPI operations aimed at it and more
 * PEs than cores move.
 *
 * Any other barrier is MPI_Barrier, which is several times faster than
 * MPICH's MPI_Ibarrier and serves RMA while it spins, unless some machine
 * runs more PEs than it has CPUs (shmpi_job_crowded(), the same on every
 * PE, so all pick the same form): then MPI_Ibarrier plus
 * shmpi_wait_barrier, since MPI_Barrier would spin without yielding and
 * starve the PEs it waits for (benchmarks/RESULTS.md, "Measurements
 * behind design constants").  Where AMOs are messages it is the same
 * dissemination as MPI_Barrier's in point-to-point messages, waited for
 * while serving them (meet.c).
 */
#include "shmpi.h"
#include "amo.h"
#include "coll_shm.h"
#include "barrier.h"

#include <stdlib.h>

/* The node leader's barrier block, or NULL: MPI only. */
static struct shmpi_node_barrier *node_barrier;
static int node_rank, node_size;
/* Dissemination (node_rounds > 0): this PE's round flags and those it
 * polls, of the node's PE 2^k before it (node ranks, cyclic). */
static struct shmpi_round_flag *node_flags;
static struct shmpi_round_flag *node_from[SHMPI_BARRIER_ROUNDS];
static int node_rounds;
static uint64_t node_event; /* the last event of the dissemination */
static bool several_nodes;
static MPI_Comm leaders = MPI_COMM_NULL;  /* node leaders, if more than one node */
/* The leaders meet in shmpi_barrier_spin (meet.c): with a CPU for every PE in
 * MPI_Barrier, which spins, takes nobody's CPU and serves MPI RMA aimed at
 * them at once (a sleeping leader serves it several times later).  With
 * more PEs than CPUs they first spin in MPI_Test for SHMPI_LEADERS_SPIN_NS unless
 * they alone outnumber some machine's CPUs: the other PEs wait in shared
 * memory, yielding, so a briefly spinning leader starves nobody and the
 * barrier is as fast as MPI_Barrier instead of far slower when yielding
 * from the start (benchmarks/RESULTS.md, "Measurements behind design
 * constants").  Then they wait the yielding, sleeping way, so a
 * long wait does not hold a CPU the PE everybody waits for needs
 * (MPI_Barrier spun to the end: tests/spmd/wait_sleep). */
static uint64_t leaders_spin_ns;

/* Without shared memory, the barrier over all PEs runs on a communicator of
 * its own: on the world team's, where the data collectives run, MPI would
 * match a PE's barrier with another's reduction (collectives called in
 * different orders), and the job would go on with wrong values instead of
 * stopping where diagnose.c can see it. */
static MPI_Comm world_barrier_comm = MPI_COMM_NULL;

void shmpi_barrier_init(void)
{
    shmpi_meet_init();
    if (!shmpi_job_shares_memory()) {
        world_barrier_comm = shmpi_comm_dup(shmpi_g.comm);
        return;
    }
    const struct shmpi_shape *sh = &shmpi_shape;
    node_rank = sh->node_rank;
    node_size = sh->node_size;
    /* The blocks are in the PEs' new heap objects, zero until used. */
    node_barrier = &shmpi_reserved_of(sh->node_pe[0])->node_barrier;
    node_rounds = 0;
    if (node_size >= shmpi_tree_min_pes(SHMPI_TREE_BARRIER, shmpi_job_crowded())) {
        node_rounds = shmpi_barrier_rounds(node_size);
        node_flags = shmpi_reserved_of(shmpi_g.my_pe)->node_barrier.round;
        for (int k = 0; k < node_rounds; k++) /* 2^k < node_size */
            node_from[k] =
                &shmpi_reserved_of(sh->node_pe[(node_rank + node_size - (1 << k)) % node_size])
                     ->node_barrier.round[k];
    }
    node_event = 0;
    several_nodes = node_size < shmpi_g.n_pes;
    if (node_rank != 0 || sh->n_leaders < 2)
        return;
    /* Only the leaders make their communicator. */
    MPI_Group world_group, group;
    MPI_Comm_group(shmpi_g.comm, &world_group);
    MPI_Group_incl(world_group, sh->n_leaders, sh->leader_pe, &group);
    MPI_Comm_create_group(shmpi_g.comm, group, 0, &leaders);
    MPI_Group_free(&group);
    MPI_Group_free(&world_group);
    leaders_spin_ns = shmpi_shape_crowded_among(sh->leader_pe, sh->n_leaders) ? 0 : SHMPI_LEADERS_SPIN_NS;
}

void shmpi_barrier_fini(void)
{
    if (leaders != MPI_COMM_NULL)
        MPI_Comm_free(&leaders);
    if (world_barrier_comm != MPI_COMM_NULL)
        MPI_Comm_free(&world_barrier_comm);
    shmpi_meet_fini();
    node_barrier = NULL;
    node_flags = NULL;
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
        shmpi_barrier_comm(world_barrier_comm, &world_barrier_waiter);
        return;
    }
    if (node_rounds > 0) {
        /* All of the node arrived; the leaders meet; all of the node learns. */
        shmpi_dissemination(node_flags, node_from, node_rounds, ++node_event,
                            &world_barrier_waiter);
        if (!several_nodes)
            return;
        if (leaders != MPI_COMM_NULL)
            shmpi_barrier_spin(leaders, leaders_spin_ns, &world_barrier_waiter);
        shmpi_dissemination(node_flags, node_from, node_rounds, ++node_event,
                            &world_barrier_waiter);
        return;
    }
    SHMPI_WAITER(waiter) = world_barrier_waiter;
    unsigned generation = atomic_load_explicit(&node_barrier->generation, memory_order_acquire);
    if (node_rank == 0) {
        while (atomic_load_explicit(&node_barrier->arrived, memory_order_acquire) !=
               (unsigned)node_size - 1)
            shmpi_backoff(&waiter);
        if (leaders != MPI_COMM_NULL)
            shmpi_barrier_spin(leaders, leaders_spin_ns, &world_barrier_waiter);
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
    shmpi_g.team_world.calls++; /* a collective of all PEs (diagnose.c) */
    shmpi_sync_world(routine);
}
