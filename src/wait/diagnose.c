/*
 * diagnose.c - waits that explain themselves.
 *
 * A wait that lasts (it reached its first slow turn in shmpi_backoff, i.e.
 * it already yields the CPU) writes what it waits in into a record in this
 * PE's reserved heap block: the routine; for a collective its team (by its
 * members) and which of the team's collectives it is; the awaited address or
 * lock; how long it has waited.  Other PEs read the record directly where
 * they map this heap, else with one MPI_Rget, and only once they have waited
 * a second themselves, so waits that end soon pay a few stores and nothing
 * is sent while nobody waits long.  Two checks read the records:
 *
 * - Order of collectives (SHMPI_ORDER_CHECK).  A PE that has waited about a
 *   second in a collective looks at the records of the PE it waits for, if
 *   it names one, and of its team's partners at distance 2^k either way (if
 *   the members split into two groups in different collectives, some partner
 *   pair crosses the split).  A partner waiting in the same collective of the
 *   same team (same members, same index) as another kind of collective (or
 *   in a later one, where this one needs every member before any leaves),
 *   or in shmem_finalize where this wait cannot meet it, means the program
 *   called collectives in different orders; seen at two looks a second
 *   apart (a partner that just moved on is not mistaken for one), it ends
 *   the job with one line naming both: the lowest PE that sees it among the
 *   partners (the others two looks later, should it not do it).
 *
 * - Hang report (SHMPI_HANG_REPORT).  A PE whose wait has lasted that long
 *   joins rounds of MPI_Iallreduce(MIN) on a communicator of its own: it
 *   contributes 2 if it has been in the same wait since its previous
 *   contribution, else 1.  A round completes only when every PE has joined,
 *   so a minimum of 2 means that at the moment the previous round completed
 *   every PE was waiting, and still is: nothing any PE runs can end a wait
 *   (operations in flight complete meanwhile, as every waiter drives MPI
 *   progress).  Then every PE sends its record to PE 0 (MPI_Igather), which
 *   prints what each waits in, once.  The job keeps waiting: a thread outside
 *   shmpi could still write what a PE waits for (docs/design.md, "Waits that
 *   explain themselves").  A PE that is not waiting long joins no round, so
 *   a computing PE costs the others one pending request each.  shmem_finalize
 *   completes the rounds some PE began (shmpi_diag_fini).
 */
#include "shmpi.h"
#include "diagnose.h"
#include "mpi_rma.h"
#include "shape.h"
#include "status.h"
#include "window.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Waits this long before looking at the PEs it waits for, then between looks. */
#define FIRST_LOOK_NS 1000000000ull
#define LOOK_INTERVAL_NS 1000000000ull
/* A partner counts as stuck in its collective once its record says it has
 * waited this long (shorter: it may just not have noticed that it is done). */
#define PARTNER_STUCK_MS 500
/* How often a long wait tests its hang round. */
#define HANG_TICK_NS 250000000ull

/* ---- the record ------------------------------------------------------------------------ */
enum {
    W_SEQ,       /* odd while the owner writes */
    W_WAITS_IN,  /* enum shmpi_waits_in, 0: not waiting */
    W_WAITED_MS, /* the owner's heartbeat */
    W_PE,        /* the world PE waited for, or -1 */
    W_TEAM_ID,   /* a collective's team: members_id */
    W_TEAM_CALL, /* ... and which of its collectives */
    W_TEAM_SIZE,
    W_FLAGS,     /* FLAG_* */
    W_SEGMENT,   /* the awaited address: segment + offset (symmetric), or -1 */
    W_OFFSET,
    W_BLAMES,    /* PE + 1 of a PE its order check blames, | BLAME_DEPARTED (written alone) */
    W_ROUTINE,   /* the routine's name, to the end */
};
#define ROUTINE_BYTES ((SHMPI_WAIT_RECORD_WORDS - W_ROUTINE) * 8)
/* In W_BLAMES: the departure watch (depart.c) of this PE ends the job for the
 * departed PE named within a second; every PE that sees it leaves it the line. */
#define BLAME_DEPARTED (1ull << 32)
#define FLAG_FINALIZE_MAY_MEET 1u
#define FLAG_WORLD 2u

struct wait_view {
    unsigned waits_in, flags;
    uint64_t waited_ms, team_id, team_call;
    int pe, team_size, segment;
    uint64_t offset;
    char routine[ROUTINE_BYTES + 1];
};

/* Only one wait at a time shows (threads of a SHMEM_THREAD_MULTIPLE program
 * may wait at once: the first to publish does). */
static atomic_bool record_taken;
static bool records_on;
/* Whether the watch thread may call MPI while the program's thread is inside
 * a blocking MPI call (MPI gave MPI_THREAD_MULTIPLE). */
static bool threads_may_call_mpi;
static unsigned long wait_serial; /* under record_taken */

/* PE pe's record where this PE reads it with loads (the wait board, else
 * pe's heap where this PE maps it), or NULL: then through MPI. */
static struct shmpi_wait_record *record_of(int pe)
{
    struct shmpi_wait_record *board = shmpi_wait_board_of(pe);
    if (board)
        return board;
    struct shmpi_reserved *r = shmpi_reserved_of(pe);
    return r ? &r->wait_record : NULL;
}

static struct shmpi_wait_record *own_record(void)
{
    return record_of(shmpi_g.my_pe);
}

static void decode(const uint64_t *word, struct wait_view *v)
{
    v->waits_in = (unsigned)word[W_WAITS_IN];
    v->waited_ms = word[W_WAITED_MS];
    v->pe = (int)(int64_t)word[W_PE];
    v->team_id = word[W_TEAM_ID];
    v->team_call = word[W_TEAM_CALL];
    v->team_size = (int)word[W_TEAM_SIZE];
    v->flags = (unsigned)word[W_FLAGS];
    v->segment = (int)(int64_t)word[W_SEGMENT];
    v->offset = word[W_OFFSET];
    memcpy(v->routine, &word[W_ROUTINE], ROUTINE_BYTES);
    v->routine[ROUTINE_BYTES] = '\0';
}

/* A copy of a record in memory this PE maps; false while its owner writes. */
static bool read_mapped(struct shmpi_wait_record *r, uint64_t *word)
{
    uint64_t seq = atomic_load_explicit(&r->word[W_SEQ], memory_order_acquire);
    for (int i = 0; i < SHMPI_WAIT_RECORD_WORDS; i++)
        word[i] = atomic_load_explicit(&r->word[i], memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    return !(seq & 1) && atomic_load_explicit(&r->word[W_SEQ], memory_order_relaxed) == seq;
}

static const char *wait_routine(const struct shmpi_waiter *w, unsigned waits_in)
{
    if (w->routine)
        return w->routine;
    if (waits_in == SHMPI_WAITS_IN_COLLECTIVE && shmpi_depart_routine)
        return shmpi_depart_routine;
    if (waits_in == SHMPI_WAITS_FOR_MPI && shmpi_mpi_wait_routine)
        return shmpi_mpi_wait_routine;
    return "";
}

static unsigned waits_in_of(const struct shmpi_waiter *w)
{
    if (w->waits_in)
        return w->waits_in;
    return w->needs != SHMPI_NEEDS_NOBODY ? SHMPI_WAITS_IN_COLLECTIVE : SHMPI_WAITS_FOR_MPI;
}

void shmpi_diag_publish(struct shmpi_waiter *w)
{
    if (!records_on || atomic_exchange_explicit(&record_taken, true, memory_order_acquire))
        return;
    unsigned waits_in = waits_in_of(w);
    const struct shmpi_team *team = w->team ? w->team : &shmpi_g.team_world;
    uint64_t word[SHMPI_WAIT_RECORD_WORDS] = {0};
    word[W_WAITS_IN] = waits_in;
    word[W_PE] = (uint64_t)(int64_t)(w->needs == SHMPI_NEEDS_PE ? w->pe : -1);
    if (waits_in == SHMPI_WAITS_IN_COLLECTIVE) {
        word[W_TEAM_ID] = team->members_id;
        word[W_TEAM_CALL] = __atomic_load_n(&team->calls, __ATOMIC_RELAXED);
        word[W_TEAM_SIZE] = (uint64_t)team->n_pes;
        word[W_FLAGS] = (w->finalize_may_meet ? FLAG_FINALIZE_MAY_MEET : 0) |
                        (team == &shmpi_g.team_world ? FLAG_WORLD : 0);
    }
    int s = w->addr ? shmpi_symm_segment(w->addr, 1) : -1;
    word[W_SEGMENT] = (uint64_t)(int64_t)s;
    word[W_OFFSET] = s >= 0 ? (uint64_t)((const char *)w->addr - shmpi_g.seg[s].base)
                            : (uint64_t)(uintptr_t)w->addr;
    strncpy((char *)&word[W_ROUTINE], wait_routine(w, waits_in), ROUTINE_BYTES - 1);
    struct shmpi_wait_record *r = own_record();
    uint64_t seq = atomic_load_explicit(&r->word[W_SEQ], memory_order_relaxed);
    atomic_store_explicit(&r->word[W_SEQ], seq + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    for (int i = 1; i < SHMPI_WAIT_RECORD_WORDS; i++)
        atomic_store_explicit(&r->word[i], word[i], memory_order_relaxed);
    atomic_store_explicit(&r->word[W_SEQ], seq + 2, memory_order_release);
    shmpi_status_wait_begin(w, waits_in, team, wait_routine(w, waits_in));
    w->published = true;
    w->serial = ++wait_serial;
    w->next_look_ns = FIRST_LOOK_NS;
    w->suspect = 0;
}

void shmpi_diag_unpublish(struct shmpi_waiter *w)
{
    struct shmpi_wait_record *r = own_record();
    uint64_t seq = atomic_load_explicit(&r->word[W_SEQ], memory_order_relaxed);
    atomic_store_explicit(&r->word[W_SEQ], seq + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&r->word[W_WAITS_IN], 0, memory_order_relaxed);
    atomic_store_explicit(&r->word[W_SEQ], seq + 2, memory_order_release);
    shmpi_status_wait_end();
    w->published = false;
    atomic_store_explicit(&record_taken, false, memory_order_release);
}

/* ---- order of collectives ------------------------------------------------------------------ */
/* The kind of collective a routine is, from its name: what has to be the
 * same on every member for the members to meet.  Barriers and syncs, and
 * the allocation routines (which end in one), meet each other. */
enum coll_kind { KIND_OTHER, KIND_SYNC, KIND_BROADCAST, KIND_COLLECT, KIND_FCOLLECT,
                 KIND_ALLTOALL, KIND_ALLTOALLS, KIND_REDUCE, KIND_SCAN, KIND_FINALIZE };

static enum coll_kind kind_of(const char *routine)
{
    static const struct {
        const char *part;
        enum coll_kind kind;
    } by_name[] = {
        {"finalize", KIND_FINALIZE}, {"barrier", KIND_SYNC},     {"sync", KIND_SYNC},
        {"malloc", KIND_SYNC},       {"calloc", KIND_SYNC},      {"align", KIND_SYNC},
        {"free", KIND_SYNC},         {"realloc", KIND_SYNC},     {"broadcast", KIND_BROADCAST},
        {"fcollect", KIND_FCOLLECT}, {"collect", KIND_COLLECT},  {"alltoalls", KIND_ALLTOALLS},
        {"alltoall", KIND_ALLTOALL}, {"scan", KIND_SCAN},        {"reduce", KIND_REDUCE},
        {"_to_all", KIND_REDUCE},
    };
    for (size_t i = 0; i < sizeof by_name / sizeof *by_name; i++)
        if (strstr(routine, by_name[i].part))
            return by_name[i].kind;
    return KIND_OTHER;
}

/* Whether partner p, waiting as `theirs`, can never meet this wait. */
static bool cannot_meet(const struct wait_view *mine, const struct wait_view *theirs)
{
    if (theirs->waits_in != SHMPI_WAITS_IN_COLLECTIVE || theirs->waited_ms < PARTNER_STUCK_MS)
        return false;
    enum coll_kind my_kind = kind_of(mine->routine), their_kind = kind_of(theirs->routine);
    if (their_kind == KIND_FINALIZE) {
        /* It calls no collective any more: it cannot meet this one unless
         * this is a barrier over all PEs its own barrier meets (the same
         * collective of all PEs), or it finished this one on its way. */
        if (my_kind == KIND_FINALIZE || !(mine->flags & FLAG_WORLD))
            return my_kind != KIND_FINALIZE;
        if (theirs->team_call == mine->team_call)
            return !(mine->flags & FLAG_FINALIZE_MAY_MEET);
        return theirs->team_call < mine->team_call;
    }
    if (my_kind == KIND_OTHER || their_kind == KIND_OTHER || my_kind == their_kind ||
        theirs->team_id != mine->team_id)
        return false;
    /* The same collective of the team, or a later one where this one needs
     * every member before any can leave it: the partner cannot have left it
     * for good, yet this PE still waits (the members' arrivals were taken for
     * each other's, as shared-memory events and MPI matching both can). */
    return theirs->team_call == mine->team_call ||
           (theirs->team_call > mine->team_call && my_kind != KIND_BROADCAST &&
            my_kind != KIND_SCAN);
}

/* The world PEs a wait looks at: its team's partners at distance 2^k either
 * way (at most 2 log2 N), and the one PE it waits for, if it names one. */
#define MAX_PARTNERS (2 * SHMPI_BARRIER_ROUNDS + 1)
static int add_partner(int *pe, int count, int world)
{
    if (world == shmpi_g.my_pe)
        return count;
    for (int i = 0; i < count; i++)
        if (pe[i] == world)
            return count;
    pe[count] = world;
    return count + 1;
}

static int partners_of(const struct shmpi_waiter *w, int *pe)
{
    int count = 0;
    if (w->needs == SHMPI_NEEDS_PE)
        count = add_partner(pe, count, w->pe);
    const struct shmpi_team *t = w->team ? w->team : &shmpi_g.team_world;
    int member[SHMPI_RING_PARTNERS_MAX];
    int n = shmpi_ring_partners(t->my_pe, t->n_pes, member);
    for (int i = 0; i < n && count < MAX_PARTNERS; i++)
        count = add_partner(pe, count, t->world_pe ? t->world_pe[member[i]] : member[i]);
    return count;
}

/* Partners reached through MPI: their records arrive by MPI_Rget, and a
 * look is complete when all have (tested at each turn, never waited for:
 * a partner that computes delays only this check). */
static struct {
    pthread_mutex_t lock;
    int n, pe[MAX_PARTNERS];
    MPI_Request req[MAX_PARTNERS];
    uint64_t word[MAX_PARTNERS][SHMPI_WAIT_RECORD_WORDS];
    int local_n, local_pe[MAX_PARTNERS]; /* the mapped ones, read at once */
    uint64_t local_word[MAX_PARTNERS][SHMPI_WAIT_RECORD_WORDS];
    unsigned long serial; /* the wait that asked */
} fetch = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* What one look found in the partners' records. */
struct look {
    int suspect;             /* PE + 1 of a partner that cannot meet this wait */
    struct wait_view theirs; /* its record */
    bool other_says;         /* a partner will end the job with the line (see look_at) */
};

static void look_at(const struct shmpi_waiter *w, const struct wait_view *mine,
                    const uint64_t *word, int pe, struct look *l)
{
    if (word[W_SEQ] & 1)
        return; /* its owner was writing it */
    struct wait_view theirs;
    decode(word, &theirs);
    if (!l->suspect && cannot_meet(mine, &theirs)) {
        l->suspect = pe + 1;
        l->theirs = theirs;
    }
    /* A lower partner that blames any PE says the line (or leaves it to a
     * lower one in turn); so does a partner whose departure watch blames
     * this PE or the one it blames, lower or higher. */
    int blames = (int)(word[W_BLAMES] & 0xffffffffu);
    bool departed = word[W_BLAMES] & BLAME_DEPARTED;
    if (blames && (pe < shmpi_g.my_pe ||
                   (departed && (blames == w->suspect || blames == shmpi_g.my_pe + 1))))
        l->other_says = true;
}

static void set_blame(uint64_t blame)
{
    atomic_store_explicit(&own_record()->word[W_BLAMES], blame, memory_order_relaxed);
}

void shmpi_diag_blame_departed(int pe)
{
    if (records_on)
        set_blame((uint64_t)(pe + 1) | BLAME_DEPARTED);
}

/* A partner seen at two looks in a collective that cannot meet this one
 * ends the job.  Every PE that sees it says whom it blames in its record,
 * and leaves the line to a lower partner that blames some PE, or to a
 * departure watch (two looks more, should that one not end the job), so
 * one PE prints it. */
static void conclude(struct shmpi_waiter *w, const struct wait_view *mine, const struct look *l)
{
    if (!l->suspect) {
        if (w->suspect)
            set_blame(0);
        w->suspect = 0;
        return;
    }
    if (w->suspect != l->suspect) {
        w->suspect = l->suspect;
        w->suspect_looks = 1;
        set_blame((uint64_t)l->suspect);
        return;
    }
    if (++w->suspect_looks < 2 || (l->other_says && w->suspect_looks < 4))
        return;
    const char *routine = mine->routine[0] ? mine->routine : "shmpi";
    if (w->for_blocked_call)
        shmpi_fail_from_thread(routine, "PE %d waits in %s: collectives called in different orders",
                               l->suspect - 1, l->theirs.routine);
    shmpi_abort(routine, "PE %d waits in %s: collectives called in different orders",
                l->suspect - 1, l->theirs.routine);
}

static void check_order(struct shmpi_waiter *w)
{
    if (pthread_mutex_trylock(&fetch.lock) != 0)
        return;
    uint64_t own[SHMPI_WAIT_RECORD_WORDS];
    struct wait_view mine;
    if (!read_mapped(own_record(), own)) {
        pthread_mutex_unlock(&fetch.lock);
        return;
    }
    decode(own, &mine);
    struct look l = {0};
    if (fetch.n > 0) { /* a look through MPI under way: done when all arrived */
        for (int i = 0; i < fetch.n; i++) {
            int arrived = 0;
            MPI_Test(&fetch.req[i], &arrived, MPI_STATUS_IGNORE);
            if (!arrived) {
                pthread_mutex_unlock(&fetch.lock);
                return;
            }
        }
        for (int i = 0; i < fetch.n; i++)
            look_at(w, &mine, fetch.word[i], fetch.pe[i], &l);
        for (int i = 0; i < fetch.local_n; i++)
            look_at(w, &mine, fetch.local_word[i], fetch.local_pe[i], &l);
        bool mine_asked = fetch.serial == w->serial;
        fetch.n = fetch.local_n = 0;
        pthread_mutex_unlock(&fetch.lock);
        if (mine_asked)
            conclude(w, &mine, &l);
        return;
    }
    int pe[MAX_PARTNERS], n = partners_of(w, pe);
    size_t off = shmpi_g.heap_reserved_off + offsetof(struct shmpi_reserved, wait_record);
    for (int i = 0; i < n; i++) {
        struct shmpi_wait_record *r = record_of(pe[i]);
        if (r) {
            if (read_mapped(r, fetch.local_word[fetch.local_n]))
                fetch.local_pe[fetch.local_n++] = pe[i];
        } else if (shmpi_rma_active() && (!w->for_blocked_call || threads_may_call_mpi)) {
            fetch.pe[fetch.n] = pe[i];
            shmpi_rma_rget(fetch.word[fetch.n], SHMPI_WAIT_RECORD_WORDS, MPI_UINT64_T, pe[i],
                           shmpi_rma_disp(SHMPI_SEG_HEAP, pe[i], off), SHMPI_WAIT_RECORD_WORDS,
                           MPI_UINT64_T, &fetch.req[fetch.n]);
            fetch.n++;
        }
    }
    fetch.serial = w->serial;
    if (fetch.n > 0) { /* concluded when the rest arrives */
        pthread_mutex_unlock(&fetch.lock);
        return;
    }
    for (int i = 0; i < fetch.local_n; i++)
        look_at(w, &mine, fetch.local_word[i], fetch.local_pe[i], &l);
    fetch.local_n = 0;
    pthread_mutex_unlock(&fetch.lock);
    conclude(w, &mine, &l);
}

/* ---- hang report ------------------------------------------------------------------------- */
static struct {
    pthread_mutex_t lock;
    MPI_Comm comm;
    MPI_Request req;
    int in, out;          /* this PE's contribution to the round, the round's minimum */
    unsigned long rounds; /* rounds this PE joined */
    unsigned long serial; /* the wait it last contributed from */
    uint64_t next_tick_ns;
    bool reported, draining;
} hang = {.lock = PTHREAD_MUTEX_INITIALIZER, .comm = MPI_COMM_NULL, .req = MPI_REQUEST_NULL};

/* A request of the diagnosis, waited for without shmpi_backoff (which
 * would come back here). */
static void wait_plain(MPI_Request *req)
{
    for (int done = 0; MPI_Test(req, &done, MPI_STATUS_IGNORE), !done;)
        sched_yield();
}

static void describe(const struct wait_view *v, char *text, size_t len)
{
    static const char *const segment_name[SHMPI_NSEGS] = {[SHMPI_SEG_HEAP] = "heap",
                                                          [SHMPI_SEG_DATA] = "static data"};
    char where[64] = "";
    if (v->segment >= 0 && v->segment < SHMPI_NSEGS)
        snprintf(where, sizeof where, " at %s+0x%llx", segment_name[v->segment],
                 (unsigned long long)v->offset);
    else if (v->offset)
        snprintf(where, sizeof where, " at %#llx", (unsigned long long)v->offset);
    switch (v->waits_in) {
    case SHMPI_WAITS_IN_COLLECTIVE:
        snprintf(text, len, "%s, collective %llu of %s %d PEs", v->routine,
                 (unsigned long long)v->team_call,
                 v->flags & FLAG_WORLD ? "the team of all" : "a team of", v->team_size);
        break;
    case SHMPI_WAITS_ON_MEMORY:
        snprintf(text, len, "%s, for the word%s", v->routine, where);
        break;
    case SHMPI_WAITS_ON_LOCK:
        snprintf(text, len, "%s, for the lock%s", v->routine, where);
        break;
    case SHMPI_WAITS_FOR_MPI:
        snprintf(text, len, "the completion of its own MPI operations%s%s",
                 v->routine[0] ? " in " : "", v->routine);
        break;
    default:
        snprintf(text, len, "nothing of shmpi (its wait just ended)");
    }
}

/* Every PE's record to PE 0, which prints them, PEs with the same wait on one line. */
static void report_hang(void)
{
    hang.reported = true;
    uint64_t own[SHMPI_WAIT_RECORD_WORDS];
    while (!read_mapped(own_record(), own))
        ;
    int n = shmpi_g.n_pes, me = shmpi_g.my_pe;
    uint64_t *all = me == 0 ? shmpi_xmalloc("shmpi", (size_t)n * sizeof own) : NULL;
    MPI_Request req;
    MPI_Igather(own, SHMPI_WAIT_RECORD_WORDS, MPI_UINT64_T, all, SHMPI_WAIT_RECORD_WORDS,
                MPI_UINT64_T, 0, hang.comm, &req);
    wait_plain(&req);
    if (me != 0)
        return;
    fprintf(stderr,
            "shmpi: PE 0: every PE has waited %ld s or more and no PE can end another's wait "
            "(a deadlock, unless a thread outside shmpi ends one); what each waits in:\n",
            shmpi_g.env.hang_report_s);
    char text[256], next[256];
    for (int first = 0; first < n;) {
        struct wait_view v;
        decode(all + (size_t)first * SHMPI_WAIT_RECORD_WORDS, &v);
        describe(&v, text, sizeof text);
        int last = first;
        while (last + 1 < n) {
            struct wait_view u;
            decode(all + (size_t)(last + 1) * SHMPI_WAIT_RECORD_WORDS, &u);
            describe(&u, next, sizeof next);
            if (strcmp(next, text) != 0)
                break;
            last++;
        }
        if (last == first)
            fprintf(stderr, "shmpi:   PE %d: %s, for %.1f s\n", first, text,
                    (double)v.waited_ms / 1000);
        else
            fprintf(stderr, "shmpi:   PEs %d-%d: %s, for %.1f s\n", first, last, text,
                    (double)v.waited_ms / 1000);
        first = last + 1;
    }
    fprintf(stderr, "shmpi: PE 0: the job keeps waiting; stop it with the launcher "
                    "(SHMPI_HANG_REPORT=0 turns this report off)\n");
    fflush(stderr);
    free(all);
}

static void hang_tick(const struct shmpi_waiter *w, uint64_t waited_ns)
{
    if (hang.reported || hang.draining || (w->for_blocked_call && !threads_may_call_mpi) ||
        pthread_mutex_trylock(&hang.lock) != 0)
        return;
    if (hang.req != MPI_REQUEST_NULL) {
        int done = 0;
        MPI_Test(&hang.req, &done, MPI_STATUS_IGNORE);
        if (done && hang.out == 2)
            report_hang();
        if (!done || hang.reported) {
            pthread_mutex_unlock(&hang.lock);
            return;
        }
    }
    if (waited_ns >= (uint64_t)shmpi_g.env.hang_report_s * 1000000000ull) {
        hang.in = hang.in >= 1 && hang.serial == w->serial ? 2 : 1;
        hang.serial = w->serial;
        MPI_Iallreduce(&hang.in, &hang.out, 1, MPI_INT, MPI_MIN, hang.comm, &hang.req);
        hang.rounds++;
    }
    pthread_mutex_unlock(&hang.lock);
}

void shmpi_diag_tick(struct shmpi_waiter *w, uint64_t waited_ns)
{
    if (!w->published)
        return;
    atomic_store_explicit(&own_record()->word[W_WAITED_MS], waited_ns / 1000000,
                          memory_order_relaxed);
    shmpi_status_wait_tick(w);
    if (shmpi_g.env.order_check && waits_in_of(w) == SHMPI_WAITS_IN_COLLECTIVE &&
        w->needs != SHMPI_NEEDS_NOBODY) {
        if (waited_ns >= w->next_look_ns) {
            w->next_look_ns = waited_ns + LOOK_INTERVAL_NS;
            check_order(w);
        } else if (fetch.n > 0) {
            check_order(w); /* records arriving through MPI */
        }
    }
    if (hang.comm != MPI_COMM_NULL && waited_ns >= hang.next_tick_ns) {
        hang.next_tick_ns = waited_ns + HANG_TICK_NS;
        hang_tick(w, waited_ns);
    }
}

/* ---- blocking MPI calls ---------------------------------------------------------------- */
/* The program's thread is inside a blocking MPI collective (shmpi_blocking);
 * it shows after PUBLISH_BLOCKED_NS, with the watch thread's ticks. */
#define PUBLISH_BLOCKED_NS 100000000ull
static struct shmpi_waiter blocked;
static unsigned long blocked_episode;
static uint64_t blocked_since_ns;

static uint64_t clock_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void shmpi_diag_watch(void)
{
    if (!records_on)
        return;
    unsigned long begun = atomic_load_explicit(&shmpi_blocking.begun, memory_order_acquire);
    unsigned long ended = atomic_load_explicit(&shmpi_blocking.ended, memory_order_acquire);
    uint64_t now = clock_ns();
    if (begun == ended || begun != blocked_episode) {
        if (blocked.published)
            shmpi_diag_unpublish(&blocked);
        blocked_episode = begun == ended ? 0 : begun;
        blocked_since_ns = now;
        const struct shmpi_team *team =
            atomic_load_explicit(&shmpi_blocking.team, memory_order_relaxed);
        blocked = (struct shmpi_waiter){
            .needs = SHMPI_NEEDS_TEAM,
            .team = team,
            .finalize_may_meet =
                atomic_load_explicit(&shmpi_blocking.finalize_may_meet, memory_order_relaxed),
            .waits_in = SHMPI_WAITS_IN_COLLECTIVE,
            .routine = atomic_load_explicit(&shmpi_blocking.routine, memory_order_relaxed),
            .for_blocked_call = true};
        return;
    }
    uint64_t waited = now - blocked_since_ns;
    if (!blocked.published && waited >= PUBLISH_BLOCKED_NS)
        shmpi_diag_publish(&blocked);
    if (blocked.published)
        shmpi_diag_tick(&blocked, waited);
}

/* ---- start and end --------------------------------------------------------------------- */
void shmpi_diag_init(MPI_Comm (*comm_dup)(MPI_Comm comm))
{
    int level;
    MPI_Query_thread(&level);
    threads_may_call_mpi = level == MPI_THREAD_MULTIPLE;
    blocked = (struct shmpi_waiter){0};
    blocked_episode = 0;
    struct shmpi_wait_record *r = own_record();
    for (int i = 0; i < SHMPI_WAIT_RECORD_WORDS; i++)
        atomic_store(&r->word[i], 0);
    atomic_store(&record_taken, false);
    records_on = true;
    hang.rounds = 0;
    hang.in = 0;
    hang.reported = hang.draining = false;
    hang.next_tick_ns = 0;
    if (shmpi_g.env.hang_report_s > 0)
        hang.comm = comm_dup(shmpi_g.comm);
    shmpi_status_init(); /* while every PE's start-up card is at hand: the job's id */
}

void shmpi_diag_fini(void)
{
    records_on = false;
    if (blocked.published) /* the watch thread has stopped */
        shmpi_diag_unpublish(&blocked);
    shmpi_status_fini();
    for (int i = 0; i < fetch.n; i++)
        wait_plain(&fetch.req[i]);
    fetch.n = 0;
    if (hang.comm == MPI_COMM_NULL)
        return;
    /* Every PE is in shmem_finalize: join the rounds some PE began (their
     * number agreed on another communicator), contributing 0. */
    pthread_mutex_lock(&hang.lock);
    hang.draining = true;
    unsigned long most = hang.rounds;
    MPI_Request req;
    MPI_Iallreduce(MPI_IN_PLACE, &most, 1, MPI_UNSIGNED_LONG, MPI_MAX, shmpi_g.comm, &req);
    wait_plain(&req);
    if (hang.req != MPI_REQUEST_NULL)
        wait_plain(&hang.req);
    for (; hang.rounds < most; hang.rounds++) {
        hang.in = 0;
        MPI_Iallreduce(&hang.in, &hang.out, 1, MPI_INT, MPI_MIN, hang.comm, &req);
        wait_plain(&req);
    }
    MPI_Comm_free(&hang.comm);
    pthread_mutex_unlock(&hang.lock);
}
