/*
 * meet.c - PEs meet: barriers over a communicator, waited for as every wait
 * of shmpi waits (progress.c), below the teams and the collectives that use
 * them: shmpi_barrier_comm (the device heap, the barrier over all PEs
 * without shared memory, the node leaders), shmpi_barrier_members (a team's
 * members before MPI_Comm_create_group, team_comm.c), and
 * shmpi_same_on_all_pes (the checks of SHMEM_DEBUG).
 *
 * Where AMOs are messages (shmpi_amo_by_message), a barrier is the same
 * dissemination as MPI_Barrier's in point-to-point messages, waited for
 * while serving them (dissemination_messages): MPI_Barrier would leave
 * them to the progress thread.
 */
#include "shmpi.h"
#include "progress.h"
#include "shape.h"

/* shmpi_barrier_members' messages (world ranks), where AMOs are messages. */
static MPI_Comm members_comm = MPI_COMM_NULL;

void shmpi_meet_init(void)
{
    if (shmpi_amo_by_message())
        members_comm = shmpi_comm_dup(shmpi_g.comm);
}

void shmpi_meet_fini(void)
{
    if (members_comm != MPI_COMM_NULL)
        MPI_Comm_free(&members_comm);
}

static void dissemination_messages(MPI_Comm comm, const int *ranks, int n, int me);

/* A barrier over comm: MPI_Barrier with a CPU for every PE, else
 * MPI_Ibarrier, spun on for up to spin_ns, then waited for while yielding. */
void shmpi_barrier_spin(MPI_Comm comm, uint64_t spin_ns, const struct shmpi_waiter *needing)
{
    /* shmem_finalize's barrier polls in any case: a PE that waits there
     * notices PEs that left (depart.c) and tells the others if it lasts. */
    /* Where only device transfers are served (device_net.c), MPI_Barrier
     * would not serve them: the nonblocking barrier below does. */
    bool blocking_serves = shmpi_amo_by_message() || !shmpi_serve_active();
    if (!shmpi_job_crowded() && !shmpi_g.finalize_phase && blocking_serves) {
        /* Never met by shmem_finalize's barrier, which is nonblocking. */
        shmpi_blocking_begin(shmpi_depart_routine, needing ? needing->team : NULL, false);
        if (shmpi_amo_by_message()) {
            /* MPI_Barrier would leave AMO messages to the progress thread. */
            int rank, size;
            MPI_Comm_rank(comm, &rank);
            MPI_Comm_size(comm, &size);
            dissemination_messages(comm, NULL, size, rank);
        } else {
            MPI_Barrier(comm);
        }
        shmpi_blocking_end();
        return;
    }
    MPI_Request req;
    MPI_Ibarrier(comm, &req);
    shmpi_wait_barrier(&req, shmpi_job_crowded() ? spin_ns : SHMPI_LEADERS_SPIN_NS, needing);
}

void shmpi_barrier_comm(MPI_Comm comm, const struct shmpi_waiter *needing)
{
    shmpi_barrier_spin(comm, 0, needing);
}

void shmpi_wait_turn(MPI_Request *req, const struct shmpi_waiter *yielding)
{
    if (yielding)
        shmpi_wait_request_needing(req, yielding);
    else
        shmpi_wait_spinning(req);
}

void shmpi_exchange(MPI_Comm comm, const void *out, int out_bytes, int to, void *in,
                    int in_bytes, int from, int tag, const struct shmpi_waiter *yielding)
{
    MPI_Request req[2];
    MPI_Irecv(in, in_bytes, MPI_BYTE, from, tag, comm, &req[0]);
    MPI_Isend(out, out_bytes, MPI_BYTE, to, tag, comm, &req[1]);
    shmpi_wait_turn(&req[0], yielding);
    shmpi_wait_turn(&req[1], yielding);
}

/* A dissemination barrier of point-to-point messages among n members of
 * comm (member i is rank ranks[i], or rank i when ranks is NULL; this PE
 * is member me): in round k a message to the member 2^k after this one and
 * one from the member 2^k before, ceil(log2 n) rounds, the tag telling them
 * apart.  Waited for while serving AMO messages, one entry into MPI a turn:
 * as fast as MPI_Barrier, which sends the same messages, where MPICH's
 * MPI_Ibarrier was slower (benchmarks/RESULTS.md, "Between nodes");
 * yielding where PEs are crowded. */
static void dissemination_messages(MPI_Comm comm, const int *ranks, int n, int me)
{
    static const struct shmpi_waiter crowded_wait = {.mpi_request = true};
    const struct shmpi_waiter *yielding = shmpi_job_crowded() ? &crowded_wait : NULL;
    char none;
    for (int k = 0, d = 1; d < n; k++, d *= 2) {
        int from = (me + n - d) % n, to = (me + d) % n;
        shmpi_exchange(comm, &none, 0, ranks ? ranks[to] : to, &none, 0,
                       ranks ? ranks[from] : from, k, yielding);
    }
}

void shmpi_barrier_members(const int *world_pe, int n)
{
    if (members_comm == MPI_COMM_NULL)
        return;
    int me = 0;
    while (me < n && world_pe[me] != shmpi_g.my_pe)
        me++;
    dissemination_messages(members_comm, world_pe, n, me);
}


bool shmpi_same_on_all_pes(unsigned long value)
{
    /* One MPI_MAX over (value, ~value): both maxima are ours only if no PE
     * has a larger value or a smaller one. */
    unsigned long mine[2] = {value, ~value}, max[2];
    MPI_Request req; /* waited for while serving, as every wait of shmpi */
    MPI_Iallreduce(mine, max, 2, MPI_UNSIGNED_LONG, MPI_MAX, shmpi_g.comm, &req);
    shmpi_wait_request(&req);
    return max[0] == value && max[1] == ~value;
}
