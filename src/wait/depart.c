/*
 * depart.c - noticing that a PE went into shmem_finalize (or exit) while
 * others still need it, and ending a program that never called
 * shmem_finalize cleanly.
 *
 * A PE that leaves runs shmem_finalize (called by the program, at exit, or
 * inside the program's MPI_Finalize).  Its finalize has two steps that wait
 * for the others: phase 1, the world barrier (a program's barrier may pair
 * with it), and phase 2, a barrier on a communicator of finalize's own that
 * no other routine uses.  Both are waiting loops, so the PE's wait record
 * says shmem_finalize (diagnose.c), and a PE that waits for it in a
 * collective finalize cannot meet ends the job by the order check, naming
 * it: nothing is sent for that.
 *
 * A PE inside a blocking MPI collective (the MPI path with a CPU per PE,
 * where it is several times faster than the nonblocking form) runs no loop
 * of ours.  So once a finalize step has waited DEPART_NOTICE_MS, the PE
 * writes a departure mark into the reserved heap blocks of its partners,
 * the world PEs at distance 2^k either way (2 log2 N at most, whatever N:
 * one of them is in any collective that waits for it): a store where it
 * maps that heap, else an MPI_Put, which completes because the PE that waits
 * is inside MPI.  A watch thread (started where some PE is reached only
 * through MPI) looks at its own PE's mark every WATCH_MS; if the program is
 * inside a blocking call (struct shmpi_blocking) that needs the marked PE,
 * and still in the same call DEPART_GRACE_MS later, it ends the job with
 * the line of the order check (the lowest PE marked by the departed one;
 * the others DEPART_DEFER_MS later, should that one not, so one PE says
 * it).  While nobody leaves, it costs each blocking call a few plain
 * stores.  See docs/design.md, "Waits that explain themselves".
 */
#include "shmpi.h"
#include "mpi_rma.h"
#include "diagnose.h"
#include "progress.h"
#include "shape.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define DEPART_NOTICE_MS 500
#define DEPART_GRACE_MS 1000
/* How much longer the other partners of a departed PE wait before they say it. */
#define DEPART_DEFER_MS 2000
#define WATCH_MS 100

_Thread_local const char *shmpi_depart_routine;

static int marks_sent;            /* phases this PE marked its partners for (0 to 2) */
/* The routine a leaving PE waits in, by the mark's "where" bits. */
static const char *const finalize_routine[] = {"shmem_finalize", "exit (shmem_finalize)",
                                               "MPI_Finalize (shmem_finalize)"};
static int finalize_where; /* index into finalize_routine of this PE's finalize */
/* shmpi_finalize (runtime.c), which the exit paths call: passed in at start-up. */
static void (*finalize_call)(void);
static MPI_Comm finalize_comm = MPI_COMM_NULL;
static uint64_t phase_since_ns;

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* ---- exit without shmem_finalize ----------------------------------------------------- */
static bool armed;

/* Returning from main or calling exit with the library up finalizes it,
 * and MPI too if nobody else will: a PE that leaves MPI unfinalized makes
 * the launcher kill the job's other PEs (MPICH's Hydra: signal 9), while
 * those may still flush output or finalize. */
static void finalize_at_exit(int status, void *unused)
{
    (void)unused;
    /* A failing exit leaves MPI as it is: the launcher then ends the whole
     * job with that status, which no collective finalize could reach when
     * the others wait for something only this PE would have done. */
    if (status != 0)
        return;
    if (atomic_load(&shmpi_g.init_state) == SHMPI_STATE_READY) {
        shmpi_g.init_count = 1; /* nested inits left open end here too */
        finalize_where = 1;
        finalize_call();
    }
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (up && !down) {
        fflush(NULL);
        MPI_Finalize();
    }
}

#ifndef __GLIBC__
static void finalize_at_exit_any(void)
{
    finalize_at_exit(0, NULL);
}
#endif

/* The program's MPI_Finalize without shmem_finalize first: MPI calls this
 * delete callback at the start of MPI_Finalize, while communicators work
 * (MPI 4.0, 11.2.4). */
static int finalize_in_mpi_finalize(MPI_Comm self, int keyval, void *value, void *extra)
{
    (void)self, (void)value, (void)extra;
    if (atomic_load(&shmpi_g.init_state) == SHMPI_STATE_READY) {
        shmpi_g.init_count = 1;
        finalize_where = 2;
        finalize_call();
    }
    MPI_Comm_free_keyval(&keyval);
    return MPI_SUCCESS;
}

static void arm_exit_paths(void)
{
    if (armed)
        return;
    armed = true;
#ifdef __GLIBC__
    on_exit(finalize_at_exit, NULL); /* knows the exit status */
#else
    atexit(finalize_at_exit_any);
#endif
    int keyval;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, finalize_in_mpi_finalize, &keyval, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, keyval, NULL);
}

/* ---- departure marks and the watch thread ------------------------------------------- */
struct shmpi_blocking shmpi_blocking;

static pthread_t watch_thread;
static bool watching;
static bool watch_stop;
static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t watch_wake;
static uint64_t mark_value[3]; /* the origins of the marks' puts, by phase */


/* This PE's mark in its partners' reserved blocks (world PEs at distance
 * 2^k either way).  The puts complete by finalize's end at the latest
 * (shmpi_rma_fini), when every PE is in MPI. */
static void mark_partners(int phase)
{
    mark_value[phase] = (uint64_t)finalize_where << 40 | (uint64_t)phase << 32 |
                        (uint64_t)(shmpi_g.my_pe + 1);
    size_t off = shmpi_g.heap_reserved_off + offsetof(struct shmpi_reserved, departed);
    int partner[SHMPI_RING_PARTNERS_MAX];
    int n = shmpi_ring_partners(shmpi_g.my_pe, shmpi_g.n_pes, partner);
    for (int i = 0; i < n; i++) {
        int pe = partner[i];
        struct shmpi_reserved *reserved = shmpi_reserved_of(pe);
        if (reserved)
            atomic_store_explicit(&reserved->departed, mark_value[phase], memory_order_release);
        else if (shmpi_rma_active())
            shmpi_rma_put(&mark_value[phase], 1, MPI_UINT64_T, pe,
                          shmpi_rma_disp(SHMPI_SEG_HEAP, pe, off), 1, MPI_UINT64_T);
    }
}

static bool needs(const struct shmpi_waiter *w, int pe);

/* The lowest of the PEs that PE pe marks (mark_partners). */
static int lowest_partner(int pe)
{
    int partner[SHMPI_RING_PARTNERS_MAX], lowest = shmpi_g.n_pes;
    int n = shmpi_ring_partners(pe, shmpi_g.n_pes, partner);
    for (int i = 0; i < n; i++)
        if (partner[i] < lowest)
            lowest = partner[i];
    return lowest;
}

/* Whether the program has been in the same blocking call, which needs the
 * PE the mark names, for DEPART_GRACE_MS: then it never returns. */
static void watch_once(uint64_t *episode, uint64_t *since_ns)
{
    uint64_t mark =
        atomic_load_explicit(&shmpi_reserved_of(shmpi_g.my_pe)->departed, memory_order_acquire);
    unsigned long begun = atomic_load_explicit(&shmpi_blocking.begun, memory_order_acquire);
    unsigned long ended = atomic_load_explicit(&shmpi_blocking.ended, memory_order_acquire);
    int pe = (int)(mark & 0xffffffffu) - 1, phase = (int)(mark >> 32 & 0xff);
    unsigned where = (unsigned)(mark >> 40) % 3;
    struct shmpi_waiter w = {
        .needs = SHMPI_NEEDS_TEAM,
        .team = atomic_load_explicit(&shmpi_blocking.team, memory_order_relaxed),
        .finalize_may_meet =
            atomic_load_explicit(&shmpi_blocking.finalize_may_meet, memory_order_relaxed)};
    if (!mark || begun == ended || pe < 0 || pe >= shmpi_g.n_pes ||
        phase < (w.finalize_may_meet ? 2 : 1) || !needs(&w, pe)) {
        *episode = 0;
        return;
    }
    uint64_t now = now_ns();
    if (*episode != begun) {
        *episode = begun;
        *since_ns = now;
        return;
    }
    /* Every partner of the departed PE that waits for it sees a mark: the
     * lowest says it, the others give it DEPART_DEFER_MS more to end the
     * job, so the job ends with one line. */
    uint64_t grace_ms = DEPART_GRACE_MS + (shmpi_g.my_pe == lowest_partner(pe) ? 0 : DEPART_DEFER_MS);
    /* The departed PE's order check, which sees this PE's collective, leaves
     * the line to this watch (said again at each turn: a record published
     * later clears it). */
    shmpi_diag_blame_departed(pe);
    if (now - *since_ns < grace_ms * 1000000ull)
        return;
    const char *routine = atomic_load_explicit(&shmpi_blocking.routine, memory_order_relaxed);
    shmpi_fail_from_thread(routine ? routine : "shmem_finalize",
                           "PE %d waits in %s: collectives called in different orders", pe,
                           finalize_routine[where]);
}

static void *watch(void *unused)
{
    (void)unused;
    uint64_t episode = 0, since_ns = 0;
    pthread_mutex_lock(&watch_lock);
    while (!watch_stop) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += WATCH_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&watch_wake, &watch_lock, &until);
        if (!watch_stop) {
            watch_once(&episode, &since_ns); /* under the lock: teams stay */
            shmpi_diag_watch();              /* what a blocking call waits in */
        }
    }
    pthread_mutex_unlock(&watch_lock);
    return NULL;
}

/* Where every PE maps all memory no collective blocks in MPI: no thread. */
static void watch_start(void)
{
    if (watching || shmpi_job_all_mapped())
        return;
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&watch_wake, &attr);
    pthread_condattr_destroy(&attr);
    watch_stop = false;
    if (pthread_create(&watch_thread, NULL, watch, NULL) != 0) {
        shmpi_warn("shmem_init", "no thread to watch for PEs that leave early: a PE that "
                                 "waits for one in a blocking MPI collective will hang");
        pthread_cond_destroy(&watch_wake);
        return;
    }
    watching = true;
}

static void watch_stop_join(void)
{
    if (!watching)
        return;
    pthread_mutex_lock(&watch_lock);
    watch_stop = true;
    pthread_cond_signal(&watch_wake);
    pthread_mutex_unlock(&watch_lock);
    pthread_join(watch_thread, NULL);
    pthread_cond_destroy(&watch_wake);
    watching = false;
}

void shmpi_depart_team_gone(const struct shmpi_team *team)
{
    if (!watching)
        return;
    pthread_mutex_lock(&watch_lock); /* waits out a look at it */
    const struct shmpi_team *expected = team;
    atomic_compare_exchange_strong(&shmpi_blocking.team, &expected, NULL);
    pthread_mutex_unlock(&watch_lock);
}

/* ---- phases and marks -------------------------------------------------------------- */
void shmpi_depart_init(void (*finalize)(void))
{
    finalize_call = finalize;
    arm_exit_paths();
    marks_sent = 0;
    finalize_where = 0;
    shmpi_g.finalize_phase = 0;
    finalize_comm = shmpi_comm_dup(shmpi_g.comm);
    watch_start();
}

void shmpi_depart_phase(int phase)
{
    shmpi_g.finalize_phase = phase;
    phase_since_ns = now_ns();
}

void shmpi_depart_finalizing(void)
{
    int phase = shmpi_g.finalize_phase;
    if (phase < 1 || phase > 2 || marks_sent >= phase)
        return;
    if (now_ns() - phase_since_ns >= DEPART_NOTICE_MS * 1000000ull) {
        mark_partners(phase);
        marks_sent = phase;
    }
}

/* Whether the wait needs PE `pe` (a world PE). */
static bool needs(const struct shmpi_waiter *w, int pe)
{
    if (w->needs == SHMPI_NEEDS_PE)
        return w->pe == pe;
    const struct shmpi_team *t = w->team;
    if (!t || !t->world_pe)
        return true; /* the world team */
    for (int i = 0; i < t->n_pes; i++)
        if (t->world_pe[i] == pe)
            return true;
    return false;
}

const char *shmpi_depart_finalize_routine(void)
{
    return finalize_routine[finalize_where];
}

/* Phase 2: every PE is in finalize. */
void shmpi_depart_finalize(void)
{
    shmpi_depart_phase(2);
    MPI_Request req;
    MPI_Ibarrier(finalize_comm, &req);
    /* Marks the partners if it lasts; its record shows shmem_finalize. */
    const struct shmpi_waiter in_finalize = {.waits_in = SHMPI_WAITS_IN_COLLECTIVE,
                                             .routine = finalize_routine[finalize_where]};
    shmpi_wait_request_needing(&req, &in_finalize);
    shmpi_g.finalize_phase = 3;
    watch_stop_join(); /* every PE is here: no blocking call needs anyone */
    MPI_Comm_free(&finalize_comm);
    shmpi_g.finalize_phase = 0;
}
