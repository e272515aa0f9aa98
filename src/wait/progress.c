/*
 * progress.c - how shmpi waits.
 *
 * With MPICH ch4 an RMA operation aimed at a PE completes only while that
 * PE is inside MPI, so every loop that waits for something (a flag, a lock,
 * a request) calls into MPI on each turn.  With more PEs than cores a
 * waiter that only spins steals the CPU from the PE it waits for, so after
 * a few turns the loop yields, and after SHMPI_POLL_US it sleeps briefly.
 */
#include "shmpi.h"
#include "progress.h"
#include "mpi_rma.h"
#include "shape.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

/* Turns of pure polling before yielding. */
#define SPINS_BEFORE_YIELD 16
/* The sleep between polls once a wait has lasted SHMPI_POLL_US: an eighth
 * of the time waited so far, so waking late adds at most ~1/8 to a wait,
 * from SLEEP_MIN_NS up to shmpi_g.sleep_max_ns.  Every wake-up costs CPU
 * that PEs beside the sleeper could use, so a crowded PE sleeps longer
 * (benchmarks/RESULTS.md, "Measurements behind design constants"). */
#define SLEEP_MIN_NS (50 * 1000)
/* The least a wait for an MPI request polls (the default SHMPI_POLL_US
 * of a machine with a CPU per PE): a nonblocking collective moves only
 * while its PEs are inside MPI, and sleeping early made a large one several
 * times slower (benchmarks/RESULTS.md, "Measurements behind design
 * constants"). */
#define MPI_REQUEST_POLL_NS (10000 * 1000)
#define SLEEP_DIVISOR 8

_Thread_local const char *shmpi_mpi_wait_routine;

/* Bumped by every shmpi_progress of the program's threads: the progress
 * thread stays out of MPI while it moves. */
static atomic_ulong progress_calls;

/* amo_deferred.c's drain, registered at start-up: called only while AMOs
 * wait in its queue (MPI AMOs; never on the paths of shared memory). */
static void (*drain_deferred)(void);

void shmpi_progress_on_deferred(void (*drain)(void))
{
    drain_deferred = drain;
}

bool shmpi_progress_test(MPI_Request *req, int *done)
{
    atomic_store_explicit(&progress_calls,
                          atomic_load_explicit(&progress_calls, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    /* One entry into MPI: the request of the wait (or a probe), together
     * with the AMOs other PEs sent this one (serve.c). */
    bool served = false;
    if (shmpi_serve_active()) {
        served = shmpi_serve_test(req, done);
    } else {
        /* MPI_Test alone serves RMA aimed at this PE far more slowly than a
         * probe does (benchmarks/RESULTS.md, "Measurements behind design
         * constants"). */
        if (req)
            MPI_Test(req, done, MPI_STATUS_IGNORE);
        if (!req || !*done)
            shmpi_progress_probe();
    }
    /* A PE that waits or polls completes its own deferred AMOs: what it
     * waits for may depend on them. */
    if (SHMPI_UNLIKELY(atomic_load_explicit(&shmpi_g.amo_deferred, memory_order_acquire)))
        drain_deferred();
    return served;
}

bool shmpi_progress_background(void)
{
    if (shmpi_serve_active())
        return shmpi_serve_test(NULL, NULL);
    shmpi_progress_probe();
    return false;
}

bool shmpi_progress(void)
{
    return shmpi_progress_test(NULL, NULL);
}

void shmpi_wait_spinning(MPI_Request *req)
{
    for (int done = 0; shmpi_progress_test(req, &done), !done;)
        ;
}

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void shmpi_progress_init(void)
{
    /* A yielding waiter still takes an equal share of a crowded CPU (Linux's
     * EEVDF scheduler runs it again as soon as it is owed time, so copying
     * PEs beside yielding waiters slow down: benchmarks/RESULTS.md,
     * "Measurements behind design constants").
     * Sleeping gives that share back.  So a crowded PE sleeps soon, longer
     * the longer it waits, if nothing needs its progress: every PE maps
     * every other's memory.  Otherwise waiters serve the MPI operations
     * aimed at them, which complete only while they are inside MPI: they
     * poll long and sleep briefly. */
    bool all_mapped = shmpi_job_all_mapped();
    bool sleep_soon = shmpi_job_crowded() && all_mapped;
    long us = shmpi_g.env.poll_us;
    if (us < 0)
        us = sleep_soon ? 100 : MPI_REQUEST_POLL_NS / 1000;
    shmpi_g.poll_ns = (uint64_t)us * 1000u;
    shmpi_g.sleep_max_ns = sleep_soon ? 1000 * 1000 : SLEEP_MIN_NS;
    shmpi_g.poll_quietly = all_mapped;
}

/* When every PE maps every other's memory, every put, get and AMO aimed at
 * this PE is a CPU access that needs nothing from it, so most turns of a
 * waiting loop only look at the awaited memory (an MPI probe on every turn
 * slowed a put+quiet ping-pong noticeably).  One turn in QUIET_LOOKS still
 * enters MPI, for the program's own MPI traffic, and counts towards
 * yielding.  With a CPU per PE that is after SPINS_BEFORE_YIELD of them
 * (128 looks): yielding sooner made short barriers slower, as waits of a
 * few cache-line transfers began to yield.  With more PEs than CPUs, after
 * QUIET_SPINS_CROWDED (16 looks): the PE waited for may need this CPU, and
 * waiting longer made a crowded ping-pong slower.  The numbers:
 * benchmarks/RESULTS.md, "Measurements behind design constants". */
#define QUIET_LOOKS 8
/* A wait that could not show (another thread's did) tries again this often. */
#define PUBLISH_RETRY_TURNS 256
#define QUIET_SPINS_CROWDED 2

static inline void cpu_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

void shmpi_backoff_test(struct shmpi_waiter *w, MPI_Request *req, int *done)
{
    if (!req && shmpi_g.poll_quietly && !w->calls_mpi && ++w->looks % QUIET_LOOKS) {
        cpu_pause();
        return;
    }
    if (shmpi_progress_test(req, done))
        w->spins = 0; /* AMOs arrive: keep polling, as a blocking MPI call would */
    if (req && *done)
        return;
    if (SHMPI_UNLIKELY(shmpi_g.finalize_phase))
        shmpi_depart_finalizing();
    unsigned n = ++w->spins;
    unsigned spin_turns =
        w->looks && shmpi_job_crowded() ? QUIET_SPINS_CROWDED : SPINS_BEFORE_YIELD;
    if (n < spin_turns)
        return;
    uint64_t now = now_ns();
    /* Serving AMO messages restarts the polling (spins), not the wait: its
     * record keeps its age, so a target that serves another PE's polls of a
     * lock it holds while it waits still shows in a hang report. */
    if (n == spin_turns)
        w->since_ns = now;
    if (SHMPI_UNLIKELY(!w->published) &&
        (n == spin_turns || n % PUBLISH_RETRY_TURNS == 0)) {
        w->shown_ns = now;
        shmpi_diag_publish(w); /* a wait that lasts says what it waits in (again, when
                                  another thread's wait showed meanwhile) */
    }
    uint64_t waited = now - w->since_ns;
    if (SHMPI_UNLIKELY(w->published))
        shmpi_diag_tick(w, now - w->shown_ns);
    /* A pending MPI request of this PE's own (a nonblocking collective, a
     * probe) advances only while this PE is inside MPI: poll it longer. */
    uint64_t poll_ns = shmpi_g.poll_ns;
    if (w->mpi_request && poll_ns < MPI_REQUEST_POLL_NS)
        poll_ns = MPI_REQUEST_POLL_NS;
    if (waited < poll_ns) {
        sched_yield();
        return;
    }
    uint64_t ns = waited / SLEEP_DIVISOR;
    if (ns > shmpi_g.sleep_max_ns)
        ns = shmpi_g.sleep_max_ns;
    if (ns < SLEEP_MIN_NS)
        ns = SLEEP_MIN_NS;
    struct timespec pause = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
    nanosleep(&pause, NULL);
}

void shmpi_backoff(struct shmpi_waiter *w)
{
    shmpi_backoff_test(w, NULL, NULL);
}

/* A receive from any PE that wait_request posts once a probe matched its
 * message (shmpi_wait_recv_from_any). */
struct probed_recv {
    void *buf;
    int count, tag;
    MPI_Datatype type;
    MPI_Comm comm;
};

/* MPI_Test until done: spinning for up to spin_ns, then a waiting loop
 * (`steady`: the request moves data through this PE, poll it longer).
 * With `probed`, *req is posted by the loop: the receive of the message its
 * probe matched. */
static void wait_request(MPI_Request *req, uint64_t spin_ns, bool steady,
                         const struct shmpi_waiter *needing, const struct probed_recv *probed)
{
    int done = 0;
    if (spin_ns) {
        uint64_t start = now_ns();
        do {
            /* (MPI_Test alone, as MPI's blocking form spins, where no AMO
             * messages need serving) */
            if (shmpi_serve_active())
                shmpi_progress_test(req, &done);
            else
                MPI_Test(req, &done, MPI_STATUS_IGNORE);
            if (done)
                return;
        } while (now_ns() - start < spin_ns);
    }
    SHMPI_WAITER(waiter) = {.mpi_request = steady, .calls_mpi = true};
    if (needing) {
        waiter.needs = needing->needs;
        waiter.team = needing->team;
        waiter.pe = needing->pe;
        waiter.finalize_may_meet = needing->finalize_may_meet;
        waiter.waits_in = needing->waits_in;
        waiter.routine = needing->routine;
        waiter.addr = needing->addr;
    }
    for (;;) {
        if (probed) {
            MPI_Message message;
            int matched;
            MPI_Improbe(MPI_ANY_SOURCE, probed->tag, probed->comm, &matched, &message,
                        MPI_STATUS_IGNORE);
            if (!matched) {
                shmpi_backoff(&waiter);
                continue;
            }
            MPI_Imrecv(probed->buf, probed->count, probed->type, &message, req);
            probed = NULL;
        }
        /* The request is tested in the turn's one entry into MPI, with the
         * AMO messages where there are any. */
        shmpi_backoff_test(&waiter, req, &done);
        if (done)
            return;
    }
}

void shmpi_wait_request(MPI_Request *req)
{
    wait_request(req, 0, true, NULL, NULL);
}

MPI_Comm shmpi_comm_dup(MPI_Comm comm)
{
    MPI_Comm dup;
    MPI_Request req;
    MPI_Comm_idup(comm, &dup, &req);
    shmpi_wait_request(&req);
    return dup;
}

void shmpi_wait_request_needing(MPI_Request *req, const struct shmpi_waiter *w)
{
    wait_request(req, 0, true, w, NULL);
}

void shmpi_wait_recv_from_any(void *buf, int count, MPI_Datatype type, int tag, MPI_Comm comm,
                              const struct shmpi_waiter *w)
{
    MPI_Request req = MPI_REQUEST_NULL;
    /* Where a receive from any PE misses a message that arrived before it
     * (MPICH 5's ucx netmod: mpi_rma.h), MPI_Improbe finds it. */
    if (shmpi_mpi_any_source_misses_arrived()) {
        const struct probed_recv probed = {buf, count, tag, type, comm};
        wait_request(&req, 0, true, w, &probed);
        return;
    }
    MPI_Irecv(buf, count, type, MPI_ANY_SOURCE, tag, comm, &req);
    wait_request(&req, 0, true, w, NULL);
}

void shmpi_wait_barrier(MPI_Request *req, uint64_t spin_ns, const struct shmpi_waiter *w)
{
    /* Only small messages pass through this PE: it may sleep as any wait. */
    wait_request(req, spin_ns, false, w, NULL);
}

/* ---- the progress thread ---------------------------------------------------------------
 * With MPICH ch4 a PE that computes outside MPI delays every MPI operation
 * aimed at it, and AMOs sent as messages (amo_message.c) wait for their
 * owner to serve them.  The progress thread wakes every N microseconds
 * (SHMPI_PROGRESS_THREAD=N; by default where the job spans nodes and every
 * PE has a CPU, shmpi_job_progress_thread) and, unless the program's threads
 * entered shmpi_progress since its last turn, enters MPI: it serves those
 * AMOs, or probes its own communicator.  So a PE that waits in shmpi never
 * meets the thread inside MPI, and a PE that computes, or blocks in an MPI
 * call of the program's own, is served within about N us.  A PE that issues
 * MPI operations meets it once per turn, and the two contend for MPI's lock:
 * across nodes a turn every 100 us made puts, gets and AMOs half as slow
 * again, one every 1000 us (the default) 1-6 % (benchmarks/RESULTS.md,
 * "Between nodes").  It needs MPI_THREAD_MULTIPLE, which shmpi asks MPI for
 * wherever the thread may run (shmpi_own_threads_may_call_mpi). */
#define PROGRESS_AUTO_US 1000
static pthread_t progress_thread;
static atomic_bool progress_stop;
static bool progress_running;
static MPI_Comm progress_comm = MPI_COMM_NULL;

static void *progress_loop(void *arg)
{
    (void)arg;
    long us = shmpi_g.env.progress_interval_us > 0 ? shmpi_g.env.progress_interval_us
                                                   : PROGRESS_AUTO_US;
    struct timespec pause = {us / 1000000, us % 1000000 * 1000};
    /* Linux lets a sleep overrun by the thread's timer slack (50 us by
     * default), which would stretch a short interval several times over;
     * a slack of 1 us keeps the interval. */
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    unsigned long seen = atomic_load_explicit(&progress_calls, memory_order_relaxed);
    while (!atomic_load_explicit(&progress_stop, memory_order_relaxed)) {
        nanosleep(&pause, NULL);
        unsigned long calls = atomic_load_explicit(&progress_calls, memory_order_relaxed);
        if (calls != seen) {
            seen = calls;
            continue;
        }
        if (shmpi_serve_active()) {
            shmpi_serve_test(NULL, NULL);
        } else {
            int flag;
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, progress_comm, &flag, MPI_STATUS_IGNORE);
        }
    }
    return NULL;
}

/* Whether the launcher says that every rank of the job runs on this node
 * (MPICH's Hydra and Open MPI tell each rank). */
static bool launcher_says_one_node(void)
{
    const char *pairs[][2] = {{"MPI_LOCALNRANKS", "PMI_SIZE"},
                              {"OMPI_COMM_WORLD_LOCAL_SIZE", "OMPI_COMM_WORLD_SIZE"}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const char *local = getenv(pairs[i][0]), *all = getenv(pairs[i][1]);
        if (local && all && *local)
            return strcmp(local, all) == 0;
    }
    return false;
}

/* Whether the environment variable is set, not empty, and not `value`. */
static bool set_to_other_than(const char *name, const char *value)
{
    const char *set = getenv(name);
    return set && *set && strcmp(set, value) != 0;
}

bool shmpi_own_threads_may_call_mpi(void)
{
    /* Read before MPI_Init (the environment table is read after it); a
     * malformed value is reported then. */
    const char *value = getenv("SHMPI_PROGRESS_THREAD");
    if (value && strcmp(value, "auto") != 0 && strcmp(value, "0") != 0)
        return true;
    /* With SHMPI_DEVICE_IPC=0 a device heap's peers (at shmem_init, or later
     * with shmemx_device_init) are reached as across nodes: the stream
     * proxy's thread calls MPI (src/device/proxy.c). */
    const char *ipc = getenv("SHMPI_DEVICE_IPC");
    if (ipc && strcmp(ipc, "0") == 0)
        return true;
    /* Open MPI 5's one-sided operations wait for their target to enter MPI
     * (src/shape/mpi_rma.c): where they carry traffic on one node
     * (SHMPI_MPI_ONLY, pseudo-nodes, static data not shared), the progress
     * thread runs there too (shape.c). */
    if (shmpi_mpi_needs_target_progress() && (set_to_other_than("SHMPI_MPI_ONLY", "0") ||
                                              set_to_other_than("SHMPI_PSEUDO_NODE_SIZE", "0") ||
                                              set_to_other_than("SHMPI_SHARE_STATIC", "1")))
        return true;
    /* Otherwise on one node neither thread calls MPI: the progress thread runs only
     * across nodes, and the diagnosis of a wait inside a blocking MPI
     * collective reads the other PEs' records in shared memory (the heaps,
     * or window.c's wait board).  MPI_THREAD_MULTIPLE costs every MPI call
     * a lock, so such a job does not ask for it. */
    return !launcher_says_one_node();
}

void shmpi_progress_thread_start(void)
{
    if (!shmpi_job_progress_thread()) {
        int level;
        MPI_Query_thread(&level);
        if (shmpi_g.env.progress_interval_us > 0 && level != MPI_THREAD_MULTIPLE &&
            shmpi_g.my_pe == 0)
            shmpi_warn("shmem_init",
                       "SHMPI_PROGRESS_THREAD ignored: MPI was initialized without "
                       "MPI_THREAD_MULTIPLE (call MPI_Init_thread with it, or let shmem_init "
                       "start MPI)");
        return;
    }
    MPI_Comm_dup(shmpi_g.comm, &progress_comm);
    atomic_store(&progress_stop, false);
    if (pthread_create(&progress_thread, NULL, progress_loop, NULL) != 0)
        shmpi_abort("shmem_init", "cannot start the progress thread");
    progress_running = true;
}

void shmpi_progress_thread_stop(void)
{
    if (!progress_running)
        return;
    atomic_store(&progress_stop, true);
    pthread_join(progress_thread, NULL);
    progress_running = false;
    MPI_Comm_free(&progress_comm);
}
