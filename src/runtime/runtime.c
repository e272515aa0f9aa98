/*
 * runtime.c - start and end of the library (runtime.h): MPI ownership, the
 * thread level, the job's shape, and every start-up and finalize step of
 * the other modules, called here one by one in their order.
 */
#include "shmpi.h"
#include "amo.h"
#include "barrier.h"
#include "coll.h"
#include "ctx.h"
#include "device_heap.h"
#include "device_life.h"
#include "diagnose.h"
#include "heap.h"
#include "mpi_rma.h"
#include "runtime.h"
#include "team.h"
#include "window.h"
#include "env.h"

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct shmpi_global shmpi_g = {.my_pe = -1, .n_pes = 0};

static int shmem_level_of(int mpi_level)
{
    if (mpi_level == MPI_THREAD_SINGLE) return SHMEM_THREAD_SINGLE;
    if (mpi_level == MPI_THREAD_FUNNELED) return SHMEM_THREAD_FUNNELED;
    if (mpi_level == MPI_THREAD_SERIALIZED) return SHMEM_THREAD_SERIALIZED;
    return SHMEM_THREAD_MULTIPLE;
}

static int mpi_level_of(int shmem_level)
{
    if (shmem_level == SHMEM_THREAD_SINGLE) return MPI_THREAD_SINGLE;
    if (shmem_level == SHMEM_THREAD_FUNNELED) return MPI_THREAD_FUNNELED;
    if (shmem_level == SHMEM_THREAD_SERIALIZED) return MPI_THREAD_SERIALIZED;
    return MPI_THREAD_MULTIPLE;
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

struct init_step {
    const char *name;
    void (*run)(void);
};

/* SHMEM_INFO: each start-up step's time, the slowest PE's (a reduction,
 * only then), so that a slow start names its step. */
static void print_init_times(const struct init_step *steps, int n, const double *seconds)
{
    double slowest[n + 1];
    MPI_Reduce(seconds, slowest, n + 1, MPI_DOUBLE, MPI_MAX, 0, shmpi_g.comm);
    if (shmpi_g.my_pe != 0)
        return;
    printf("start-up, slowest PE's ms per step: MPI_Init %.2f", slowest[0] * 1e3);
    for (int i = 0; i < n; i++)
        printf(", %s %.2f", steps[i].name, slowest[i + 1] * 1e3);
    printf("\n");
}

static void print_banner(const struct init_step *steps, int n, const double *seconds)
{
    if (shmpi_g.env.info)
        print_init_times(steps, n, seconds);
    if (shmpi_g.my_pe != 0)
        return;
    if (shmpi_g.env.version) {
        char library[MPI_MAX_LIBRARY_VERSION_STRING];
        shmpi_mpi_library(library, sizeof library);
        printf("shmpi %d.%d.%d: OpenSHMEM %d.%d over MPI (%s)\n", SHMPI_VERSION_MAJOR,
               SHMPI_VERSION_MINOR, SHMPI_VERSION_PATCH, SHMEM_MAJOR_VERSION,
               SHMEM_MINOR_VERSION, library);
    }
    if (shmpi_g.env.info)
        shmpi_env_print_info();
    fflush(stdout);
}

static void arm_grace_at_mpi_finalize(void);

/* depart.c's exit paths finalize (at exit, in the program's MPI_Finalize):
 * the waiting layer is told which routine that is. */
static void depart_init(void)
{
    shmpi_depart_init(shmpi_finalize);
}

/* diagnose.c's hang report makes its communicator as the waits make theirs
 * (shmpi_comm_dup, of the waiting loops, a floor above diagnose.c). */
static void diag_init(void)
{
    shmpi_diag_init(shmpi_comm_dup);
}

/* Every PE's card to every PE, waited for as every wait of shmpi, then
 * what shape.c learns from them. */
static void shape_exchange(void)
{
    MPI_Request req;
    shmpi_shape_exchange_start(&req);
    shmpi_wait_request(&req);
    shmpi_shape_exchange();
}

/* The teams make and free their shared-memory slots (coll_shm.c) with them. */
static void teams_init(void)
{
    shmpi_team_on_shm(shmpi_team_shm_init, shmpi_team_shm_fini);
    shmpi_teams_init();
}

/* A context is quiet (rma.c) before it is freed. */
static void ctx_init(void)
{
    shmpi_ctx_on_free(shmpi_quiet);
    shmpi_ctx_init();
}

/* A job of one PE whose launcher announced several processes: the launcher is
 * another MPI's (Debian's Open MPI owns /usr/bin/mpirun and oshrun), and every
 * process it started runs alone as PE 0 of 1.  The first of them says so; all
 * end with status 1. */
static void check_launcher(const char *routine)
{
    static const struct {
        const char *size, *rank, *launcher;
    } announced[] = {
        {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "Open MPI's mpirun (or its oshrun)"},
        {"PMI_SIZE", "PMI_RANK", "a PMI launcher (such as MPICH's mpiexec)"},
        {"SLURM_STEP_NUM_TASKS", "SLURM_PROCID", "srun"},
    };
    if (shmpi_g.n_pes != 1)
        return;
    for (size_t i = 0; i < sizeof announced / sizeof *announced; i++) {
        const char *size = getenv(announced[i].size), *rank = getenv(announced[i].rank);
        long processes = size ? strtol(size, NULL, 10) : 0;
        if (processes <= 1 || !rank)
            continue;
        char library[MPI_MAX_LIBRARY_VERSION_STRING];
        shmpi_mpi_library(library, sizeof library);
        const char *family = strncmp(library, "Open MPI", 8) == 0 ? "Open MPI"
                             : strncmp(library, "MPICH", 5) == 0  ? "MPICH"
                                                                  : "that MPI";
        shmpi_fail_alone(strtol(rank, NULL, 10) == 0, routine,
                         "this process is one of %ld that %s started (%s=%s), but this "
                         "program's MPI (%s) sees a job of 1 PE, so each process would run "
                         "alone; start it with this shmpi's oshrun or %s's mpiexec",
                         processes, announced[i].launcher, announced[i].size, size, library,
                         family);
    }
}

/* Returns the provided thread level. */
int shmpi_init(const char *routine, int requested)
{
    int state = atomic_load(&shmpi_g.init_state);
    if (state == SHMPI_STATE_READY) {
        /* OpenSHMEM 1.6: every init is matched by a finalize; only the last
         * finalize ends the library. */
        shmpi_g.init_count++;
        return shmpi_g.thread_level;
    }
    if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE)
        shmpi_abort(routine,
                    "requested thread level %d is not one of SHMEM_THREAD_SINGLE (%d) to "
                    "SHMEM_THREAD_MULTIPLE (%d)",
                    requested, SHMEM_THREAD_SINGLE, SHMEM_THREAD_MULTIPLE);

    int mpi_up = 0, mpi_down = 0, mpi_provided;
    double mpi_init_s = 0; /* 0: the program initialized MPI */
    MPI_Initialized(&mpi_up);
    MPI_Finalized(&mpi_down);
    if (mpi_down)
        shmpi_abort(routine,
                    state == SHMPI_STATE_FINALIZED && shmpi_g.mpi_started_here
                        ? "cannot initialize again: the last shmem_finalize also finalized MPI, "
                          "which shmem_init had started (initialize MPI in the program to "
                          "re-initialize OpenSHMEM)"
                        : "MPI was already finalized; call shmem_init before MPI_Finalize");
    shmpi_g.mpi_started_here = false;
    shmpi_g.init_count = 1;
    if (!mpi_up) {
        /* MPI_THREAD_MULTIPLE wherever shmpi's own threads may call MPI while
         * the program's thread is inside it: the progress thread (across
         * nodes) and the watch that diagnoses a blocking MPI collective
         * (diagnose.c).  A job whose PEs the launcher places on one node and
         * that shares memory needs neither and keeps the level it asked for:
         * the lock costs MPI-path calls up to 10 % (benchmarks/RESULTS.md,
         * "Waits that explain themselves").  The program still gets the level
         * it asked for. */
        int level = shmpi_own_threads_may_call_mpi() ? SHMEM_THREAD_MULTIPLE : requested;
        double t = seconds_now();
        MPI_Init_thread(NULL, NULL, mpi_level_of(level), &mpi_provided);
        mpi_init_s = seconds_now() - t;
        shmpi_g.mpi_started_here = true;
    } else {
        MPI_Query_thread(&mpi_provided);
    }
    int provided = shmem_level_of(mpi_provided);
    shmpi_g.thread_level = provided < requested ? provided : requested;

    /* Nonblocking, waited for while yielding: MPI_Comm_dup spins, which with
     * more PEs than CPUs took tens of milliseconds. */
    MPI_Request req;
    MPI_Comm_idup(MPI_COMM_WORLD, &shmpi_g.comm, &req);
    for (int done = 0; MPI_Test(&req, &done, MPI_STATUS_IGNORE), !done;)
        sched_yield();
    /* Errors inside MPI calls of shmpi end the job with MPI's message. */
    MPI_Comm_set_errhandler(shmpi_g.comm, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_rank(shmpi_g.comm, &shmpi_g.my_pe);
    MPI_Comm_size(shmpi_g.comm, &shmpi_g.n_pes);
    check_launcher(routine);
    shmpi_g.page_size = sysconf(_SC_PAGESIZE);

    /* The start-up steps, in the order their inputs exist (most are
     * collective over all PEs); each one's time is kept for SHMEM_INFO. */
    const struct init_step steps[] = {
        {"env", shmpi_env_read},               /* first: every later step reads a setting */
        {"shape", shmpi_shape_init},           /* this PE's machine, before its segments */
        {"segments", shmpi_segments_create},   /* this PE's heap and static data */
        {"exchange", shape_exchange},          /* every PE's card: nodes, crowding, room */
        {"mapping", shmpi_segments_map},       /* the node peers' segments */
        {"mapped", shmpi_shape_mapped_init},   /* once every segment is mapped: who maps what */
        {"window", shmpi_rma_init},            /* only where some memory is not mapped */
        {"heap", shmpi_heap_setup},            /* before any allocation: reserved block */
        {"barrier", shmpi_barrier_init},       /* its node barrier is in the leader's block */
        {"amo", shmpi_amo_init},               /* after the mapping: CPU atomics where all is mapped */
        {"grace", arm_grace_at_mpi_finalize},  /* after the node shape: only across nodes */
        {"flush", shmpi_flush_init},           /* after the node shape: waits yield when crowded */
        {"progress", shmpi_progress_init},     /* polling follows crowding and mapping */
        {"teams", teams_init},                 /* collectives wait as set above; slots reserved */
        {"ctx", ctx_init},                     /* after the world team: the default context */
        {"depart", depart_init},               /* its communicator; exit paths armed once */
        {"diagnose", diag_init},               /* wait records in the reserved block */
        {"device heap", shmpi_device_heap_init}, /* SHMPI_DEVICE_HEAP_SIZE only */
    };
    enum { N_STEPS = sizeof steps / sizeof *steps };
    double seconds[N_STEPS + 1];
    seconds[0] = mpi_init_s;
    for (int i = 0; i < N_STEPS; i++) {
        double t = seconds_now();
        steps[i].run();
        seconds[i + 1] = seconds_now() - t;
    }
    print_banner(steps, N_STEPS, seconds); /* once every setting SHMEM_INFO prints is decided */
    shmpi_shape_cards_free();
    shmpi_progress_thread_start(); /* last: it calls MPI on everything made above */
    atomic_store(&shmpi_g.init_state, SHMPI_STATE_READY);
    shmpi_sync_world(routine);     /* no PE returns before every PE can be a target */
    shmpi_segments_unlink();       /* every PE has mapped its peers' objects by now */
    return shmpi_g.thread_level;
}

/* Finalize grace for jobs that span nodes (MPICH 4.0 ch4:ucx over TCP).
 * MPI_Finalize closes every UCX endpoint, waits until all closes are done, then
 * blocks in a PMI barrier without driving UCX.  Closing a TCP endpoint that
 * carried traffic is a round trip: UCX sends a zero-length put and waits for the
 * peer's acknowledgement, which the peer sends only while it drives UCX.  If
 * rank B is still inside an earlier MPI call when rank A's close request
 * arrives, B answers it, A finishes its closes and blocks in the PMI barrier,
 * and B's own close requests later never get an answer: both hang.  (MPICH
 * removed that PMI barrier upstream.)  So after the last synchronization every
 * rank waits, without calling MPI, until all have surely left it; then no rank
 * answers a close request before it has sent its own.  Only when the job spans
 * more than one node; SHMPI_FINALIZE_GRACE_MS (default 300) sets the wait, 0
 * turns it off.  See docs/design.md, "MPI_Finalize across nodes". */
static long finalize_grace_ms(void)
{
    return shmpi_job_spans_nodes() ? shmpi_g.env.finalize_grace_ms : 0;
}

static void sleep_ms(long ms)
{
    struct timespec wait = {ms / 1000, ms % 1000 * 1000000L};
    while (nanosleep(&wait, &wait) != 0 && errno == EINTR)
        ;
}

/* Finalize's handshake: the last communication before MPI_Finalize.  Each
 * connection that carried traffic must close by a round trip (a TCP endpoint
 * that sent nothing since its last flush closes at once, and its peer may then
 * wait forever for an answer), so every PE exchanges one message each way with
 * every PE it may be connected to: its partners at distance 2^k either way
 * (MPI's collectives, shmpi's included, talk along those lines) and the PEs its
 * MPI RMA reached (shmpi_rma_reached), which answer.  A PE cannot know who
 * reached it, so it answers every hello until all PEs know all their hellos
 * arrived: each hello is a synchronous send, and a PE whose hellos all
 * completed enters an MPI_Ibarrier; when that completes, no hello is left in
 * flight.  Then a barrier.  What a PE sends is 2 log2 N messages, and one per
 * PE it reached or that reached it; no PE talks to every other. */
#define TAG_HELLO 0x5e01
#define TAG_ANSWER 0x5e02

static int handshake_peers(int *peer)
{
    int n = shmpi_g.n_pes, me = shmpi_g.my_pe;
    int count = shmpi_ring_partners(me, n, peer);
    for (int pe = 0; shmpi_rma_reached.bits && pe < n; pe++) {
        if (pe == me || !shmpi_pe_set_has(&shmpi_rma_reached, pe))
            continue;
        bool listed = false;
        for (int i = 0; i < count && !listed; i++)
            listed = peer[i] == pe;
        if (!listed)
            peer[count++] = pe;
    }
    return count;
}

static void finalize_handshake(MPI_Comm comm)
{
    int n = shmpi_g.n_pes;
    int *peer = shmpi_xmalloc("shmem_finalize", (size_t)n * sizeof(int));
    int count = handshake_peers(peer);
    /* hellos and answers to them, then the answers this PE sends */
    MPI_Request *mine = shmpi_xmalloc("shmem_finalize", 2 * (size_t)count * sizeof(MPI_Request));
    char *in = shmpi_xmalloc("shmem_finalize", (size_t)count + 1), out = 1;
    for (int i = 0; i < count; i++) {
        MPI_Irecv(&in[i], 1, MPI_CHAR, peer[i], TAG_ANSWER, comm, &mine[2 * i]);
        MPI_Issend(&out, 1, MPI_CHAR, peer[i], TAG_HELLO, comm, &mine[2 * i + 1]);
    }
    size_t n_answers = 0, room = 16;
    MPI_Request *answers = shmpi_xmalloc("shmem_finalize", room * sizeof(MPI_Request));
    MPI_Request all_sent = MPI_REQUEST_NULL;
    for (int done = 0; !done;) {
        MPI_Message msg;
        MPI_Status st;
        int hello = 0;
        MPI_Improbe(MPI_ANY_SOURCE, TAG_HELLO, comm, &hello, &msg, &st);
        if (hello) {
            char got;
            MPI_Mrecv(&got, 1, MPI_CHAR, &msg, MPI_STATUS_IGNORE);
            if (n_answers == room) {
                MPI_Request *more = realloc(answers, 2 * room * sizeof(MPI_Request));
                if (!more)
                    shmpi_abort("shmem_finalize", "out of memory");
                answers = more;
                room *= 2;
            }
            MPI_Isend(&out, 1, MPI_CHAR, st.MPI_SOURCE, TAG_ANSWER, comm, &answers[n_answers++]);
            continue;
        }
        if (all_sent == MPI_REQUEST_NULL) {
            int sent = 1;
            for (int i = 0; i < count && sent; i++)
                MPI_Test(&mine[2 * i + 1], &sent, MPI_STATUS_IGNORE);
            if (sent)
                MPI_Ibarrier(comm, &all_sent);
        } else {
            MPI_Test(&all_sent, &done, MPI_STATUS_IGNORE);
        }
        if (!done)
            sched_yield();
    }
    for (int i = 0; i < 2 * count; i++)
        MPI_Wait(&mine[i], MPI_STATUS_IGNORE);
    for (size_t i = 0; i < n_answers; i++)
        MPI_Wait(&answers[i], MPI_STATUS_IGNORE);
    free(answers);
    free(in);
    free(mine);
    free(peer);
    shmpi_rma_reached_free();
    MPI_Barrier(comm);
}

/* A program that initialized MPI itself also finalizes it, after
 * shmem_finalize, so the handshake and the grace wait run inside its
 * MPI_Finalize: MPI calls the delete callbacks of MPI_COMM_SELF's attributes
 * first thing there, while every communicator still works (MPI 4.0, 11.2.4).
 * The communicator is shmpi's own, kept from shmem_init for this. */
static MPI_Comm grace_comm = MPI_COMM_NULL;

static int grace_at_mpi_finalize(MPI_Comm self, int keyval, void *value, void *extra)
{
    (void)self, (void)value, (void)extra;
    finalize_handshake(grace_comm);
    MPI_Comm_free(&grace_comm);
    MPI_Comm_free_keyval(&keyval);
    sleep_ms(shmpi_g.env.finalize_grace_ms);
    return MPI_SUCCESS;
}

/* Collective; once per job (a program may initialize OpenSHMEM again). */
static void arm_grace_at_mpi_finalize(void)
{
    if (shmpi_g.mpi_started_here || finalize_grace_ms() == 0 || grace_comm != MPI_COMM_NULL)
        return;
    int keyval;
    MPI_Comm_dup(MPI_COMM_WORLD, &grace_comm);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, grace_at_mpi_finalize, &keyval, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, keyval, NULL);
}

void shmpi_finalize(void)
{
    int state = atomic_load(&shmpi_g.init_state);
    if (state != SHMPI_STATE_READY)
        return; /* finalize without init, or twice: nothing to do */
    if (--shmpi_g.init_count > 0)
        return; /* an earlier init is still open */
    /* Each step undoes init's while what it needs still exists. */
    shmpi_depart_phase(1);          /* its waits tell the others if they last (depart.c) */
    /* All operations complete before anything goes. */
    shmpi_barrier_all(shmpi_depart_finalize_routine());
    shmpi_depart_finalize();        /* every PE is in finalize: none waits in a collective */
    shmpi_diag_fini();              /* with every PE there: the hang rounds complete */
    shmpi_device_heap_fini();       /* after the last copy, while peers still map it */
    shmpi_progress_thread_stop();   /* before the window and teams it calls MPI on go */
    shmpi_amo_message_fini();       /* after the thread, the last to serve AMOs */
    shmpi_teams_fini();             /* while the window exists: it quiets open contexts */
    shmpi_barrier_fini();           /* before the segments its node barrier lives in */
    shmpi_segments_fini();          /* after the last RMA and shared-memory access */
    shmpi_shape_fini();             /* after the segments: their peer addresses go */
    shmpi_flush_fini();             /* after the window: no flush reads its marks again */
    shmpi_heap_destroy(&shmpi_g.heap); /* last: nothing allocates any more */
    /* Where the program owns MPI, its MPI_Finalize runs the grace instead. */
    long grace_ms = shmpi_g.mpi_started_here ? finalize_grace_ms() : 0;
    if (grace_ms > 0)
        finalize_handshake(shmpi_g.comm);
    else if (shmpi_g.mpi_started_here || finalize_grace_ms() == 0)
        shmpi_rma_reached_free(); /* no handshake will read it */
    MPI_Comm_free(&shmpi_g.comm);
    atomic_store(&shmpi_g.init_state, SHMPI_STATE_FINALIZED);
    if (grace_ms > 0)
        sleep_ms(grace_ms);
    if (shmpi_g.mpi_started_here)
        MPI_Finalize();
}

void shmpi_global_exit(int status)
{
    fflush(stdout);
    fflush(stderr);
    int mpi_up = 0, mpi_down = 0;
    MPI_Initialized(&mpi_up);
    MPI_Finalized(&mpi_down);
    if (mpi_up && !mpi_down) {
        /* The launcher forwards each PE's output through pipes and stops doing so when
         * the abort kills the job: lines other PEs wrote just before were lost in 1 run
         * of 20 (Hydra, 4 PEs).  A job that ends can spare 100 ms for them. */
        sleep_ms(100);
        MPI_Abort(MPI_COMM_WORLD, status);
    }
    exit(status);
}
