/*
 * progress.h - waiting: how waiting loops keep MPI moving (progress.c),
 * the server of other PEs' messages (serve.c), the record of a wait that
 * lasts (diagnose.c), departures (depart.c), barriers over a communicator
 * (meet.c) and the progress thread.  The layer of waiting, above the job's
 * shape and MPI: every layer above waits through it.
 */
#ifndef SHMPI_PROGRESS_H
#define SHMPI_PROGRESS_H

#include "shmpi.h"
#include "diagnose.h"
#include "serve.h"

/* Below the waiting loops: the server of other PEs' messages (serve.h), the
 * record of a wait that lasts (diagnose.h) and its struct shmpi_waiter
 * (waiter.h). */

/* ---- progress: how waiting loops keep MPI moving --------------------------------- */
/* Drives the MPI progress engine once (RMA aimed at this PE completes only
 * while it is inside MPI, see docs/design.md, "Progress and waiting");
 * returns whether it served AMOs other PEs sent (amo_message.c). */
bool shmpi_progress(void);
/* The same entry into MPI, testing *req in it (*done: whether it completed;
 * req NULL: a probe alone), so that a wait for a request serves AMO
 * messages and RMA at the cost of one MPI call a turn. */
bool shmpi_progress_test(MPI_Request *req, int *done);
/* What a wait does when AMOs wait in amo_deferred.c's queue
 * (shmpi_g.amo_deferred): `drain` completes them (set at start-up). */
void shmpi_progress_on_deferred(void (*drain)(void));
/* One entry into MPI from a thread of shmpi's own that the program's waits
 * do not see (the stream proxy, src/device/proxy.c): serves the messages of
 * other PEs (serve.c), or probes; never drains deferred AMOs.  Whether it
 * served any.  Needs MPI_THREAD_MULTIPLE. */
bool shmpi_progress_background(void);
/* Waits for a collective's request as MPI's blocking form would, spinning
 * (a CPU per PE), and serving AMO messages and RMA on every turn: the
 * collectives' wait where AMOs are messages (coll.c, barrier.c). */
void shmpi_wait_spinning(MPI_Request *req);
/* One iteration of a waiting loop: drives progress, after a few tries
 * yields the CPU so PEs of a crowded machine still move, and once the wait has
 * lasted shmpi_g.poll_ns sleeps between tries. */
static inline void shmpi_waiter_end(struct shmpi_waiter *w)
{
    if (__builtin_expect(w->published, 0))
        shmpi_diag_unpublish(w);
}
#define SHMPI_WAITER(name) struct shmpi_waiter name __attribute__((cleanup(shmpi_waiter_end)))
void shmpi_backoff(struct shmpi_waiter *w);
/* The same for a wait for *req: the turn's entry into MPI tests it; the
 * turn ends at once when *done. */
void shmpi_backoff_test(struct shmpi_waiter *w, MPI_Request *req, int *done);
/* ---- departures (depart.c) ---- */
/* Arms the exit paths, which call `finalize` (shmpi_finalize, runtime.c). */
void shmpi_depart_init(void (*finalize)(void));
/* Marks this PE's partners once a finalize phase lasts (backoff calls it). */
void shmpi_depart_finalizing(void);
/* Starts finalize phase 1 (its world barrier) or 2. */
void shmpi_depart_phase(int phase);
/* Phase 2: all PEs are in shmem_finalize. */
void shmpi_depart_finalize(void);
/* The name finalize's waits show: shmem_finalize, or how it was reached (at
 * exit, in the program's MPI_Finalize). */
const char *shmpi_depart_finalize_routine(void);
/* Waits for an MPI request like shmpi_wait_request, checking `w`'s needs. */
void shmpi_wait_request_needing(MPI_Request *req, const struct shmpi_waiter *w);
/* Receives a message of `tag` on comm from any PE, waiting as
 * shmpi_wait_request_needing does. */
void shmpi_wait_recv_from_any(void *buf, int count, MPI_Datatype type, int tag, MPI_Comm comm,
                              const struct shmpi_waiter *w);
/* Sets shmpi_g.poll_ns (init, after the job's shape is known). */
void shmpi_progress_init(void);
/* Waits for an MPI request the same way (progress + yield). */
void shmpi_wait_request(MPI_Request *req);
/* A duplicate of comm, made with MPI_Comm_idup and waited for like any
 * request (MPI_Comm_dup spins: docs/design.md, "Start-up"); the result is
 * only returned once it is usable. */
MPI_Comm shmpi_comm_dup(MPI_Comm comm);
/* Waits for a barrier's request: spins in MPI_Test for up to spin_ns (as
 * fast as a blocking MPI_Barrier for short waits), then waits like any
 * waiting loop (shmpi_backoff: yields, sleeps after SHMPI_POLL_US), so a
 * long wait does not hold a CPU. */
void shmpi_wait_barrier(MPI_Request *req, uint64_t spin_ns, const struct shmpi_waiter *needing);
/* A team's team-destroy: the watch thread no longer looks at it. */
void shmpi_depart_team_gone(const struct shmpi_team *team);
/* Whether every PE passed the same value (collective over shmpi_g.comm;
 * meet.c). */
bool shmpi_same_on_all_pes(unsigned long value);
/* The progress thread (SHMPI_PROGRESS_THREAD; shmpi_job_progress_thread):
 * started at the end of init, stopped before finalize frees the window.
 * Whether it may run, from the environment alone (before MPI_Init: it
 * needs MPI_THREAD_MULTIPLE). */
bool shmpi_own_threads_may_call_mpi(void);
void shmpi_progress_thread_start(void);
void shmpi_progress_thread_stop(void);

/* ---- PEs meet (meet.c): barriers over a communicator ---------------------------- */
/* Its communicator, where AMOs are messages (barrier.c's start-up, finalize). */
void shmpi_meet_init(void);
void shmpi_meet_fini(void);
/* Barrier over `comm` that drives RMA progress and yields while it waits. */
void shmpi_barrier_comm(MPI_Comm comm, const struct shmpi_waiter *needing);
/* The same, spinning in MPI_Test for up to spin_ns first where some
 * machine runs more PEs than CPUs (SHMPI_LEADERS_SPIN_NS when not crowded:
 * the node leaders' barrier, barrier.c). */
#define SHMPI_LEADERS_SPIN_NS (200 * 1000)
void shmpi_barrier_spin(MPI_Comm comm, uint64_t spin_ns, const struct shmpi_waiter *needing);
/* A request of a round of point-to-point messages, waited for while
 * serving AMO messages: spinning as a blocking MPI call would, or, where
 * `yielding` is given (crowded PEs), as that waiting loop. */
void shmpi_wait_turn(MPI_Request *req, const struct shmpi_waiter *yielding);
/* One such round on comm: `out` to rank `to`, `in` from rank `from`. */
void shmpi_exchange(MPI_Comm comm, const void *out, int out_bytes, int to, void *in,
                    int in_bytes, int from, int tag, const struct shmpi_waiter *yielding);
/* The PEs world_pe[0..n-1] (this one among them) meet, serving AMO
 * messages while they wait, before a blocking MPI call that has no
 * nonblocking form (MPI_Comm_create_group): its first members would
 * otherwise leave the AMOs aimed at them to the progress thread until the
 * last one came.  Only where AMOs are messages; elsewhere nothing. */
void shmpi_barrier_members(const int *world_pe, int n);

#endif /* SHMPI_PROGRESS_H */
