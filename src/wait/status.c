/*
 * status.c - this PE's status page, which shmpi_info --jobs and --waits read
 * while the job runs (the layout and who writes what: status_page.h), and
 * the snapshot signal.
 *
 * The page is one file of /dev/shm per PE, /dev/shm/shmpi-status.JOB.PE,
 * created at shmem_init (unless SHMPI_STATUS=0), exclusively and mode 0600
 * (/dev/shm is every user's: docs/security.md), and removed by
 * shmem_finalize; those of processes that died (an abort) are removed by
 * shmpi_info --jobs and by the first PE of a node at the next start-up.
 * JOB is the same on every PE (from PE 0's start-up card), so every node
 * lists its own PEs of the job.  Only the slow turns of waits that already
 * yield write the wait part (diagnose.c calls in here where it writes the
 * record the order check and the hang report read), at most every
 * TICK_MS: no operation's fast path changes.
 *
 * The snapshot signal (SHMPI_SNAPSHOT_SIGNAL, SIGUSR2 by default: MPICH
 * takes SIGUSR1; only where that signal still has its default action) makes the PE print, to
 * stderr, the line of every PE of the job on its node, in PE order, and the
 * summary: what shmpi_info --waits prints.  The handler only writes a byte
 * to a pipe (async-signal-safe); a thread of this module, asleep in read()
 * otherwise, does the printing.
 */
#include "shmpi.h"
#include "status.h"
#include "shape.h"
#include "status_page.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* How often a wait's slow turns refresh the page (its heartbeat, the value now). */
#define TICK_MS 50

static struct shmpi_status_page *page;
static size_t page_bytes;
static char page_path[128];
static uint64_t next_tick_ms;

static int snapshot_signal;                 /* armed: its number, else 0 */
static struct sigaction old_action;
static int wake_pipe[2] = {-1, -1};
static pthread_t snapshot_thread;

static uint64_t realtime_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

/* ---- the wait part, under its sequence count ----------------------------------------- */
static _Atomic uint64_t *wait_seq(void)
{
    return (_Atomic uint64_t *)&page->wait.seq;
}

static void write_begin(void)
{
    uint64_t seq = atomic_load_explicit(wait_seq(), memory_order_relaxed);
    atomic_store_explicit(wait_seq(), seq + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
}

static void write_end(void)
{
    uint64_t seq = atomic_load_explicit(wait_seq(), memory_order_relaxed);
    atomic_store_explicit(wait_seq(), seq + 1, memory_order_release);
}

/* The awaited word's value now (a host word of this PE: wait_until's). */
static uint64_t word_now(const void *addr, int size)
{
    switch (size) {
    case 1: return __atomic_load_n((const uint8_t *)addr, __ATOMIC_RELAXED);
    case 2: return __atomic_load_n((const uint16_t *)addr, __ATOMIC_RELAXED);
    case 4: return __atomic_load_n((const uint32_t *)addr, __ATOMIC_RELAXED);
    default: return __atomic_load_n((const uint64_t *)addr, __ATOMIC_RELAXED);
    }
}

static void where(const void *addr, int32_t *segment, uint64_t *offset)
{
    int s = addr ? shmpi_symm_segment(addr, 1) : -1;
    *segment = s;
    *offset = s >= 0 ? (uint64_t)((const char *)addr - shmpi_g.seg[s].base)
                     : (uint64_t)(uintptr_t)addr;
}

static void refresh(const struct shmpi_waiter *w, uint64_t now_ms)
{
    struct shmpi_status_wait *s = &page->wait;
    s->seen_ms = now_ms;
    if (s->value_size)
        s->now = word_now(w->addr, s->value_size);
    s->mpi_pending = atomic_load_explicit(&shmpi_g.mpi_pending_any, memory_order_relaxed);
}

void shmpi_status_wait_begin(const struct shmpi_waiter *w, unsigned waits_in,
                             const struct shmpi_team *team, const char *routine)
{
    if (!page)
        return;
    uint64_t now_ms = realtime_ms();
    write_begin();
    struct shmpi_status_wait *s = &page->wait;
    s->waits_in = (int32_t)waits_in;
    s->pe = w->needs == SHMPI_NEEDS_PE ? w->pe : -1;
    s->since_ms = now_ms;
    s->team_id = team->members_id;
    s->team_call = __atomic_load_n(&team->calls, __ATOMIC_RELAXED);
    s->team_size = team->n_pes;
    if (!team->world_pe)
        s->team_start = 0, s->team_stride = 1;
    else if (!team->by_world)
        s->team_start = team->world_start, s->team_stride = team->world_stride;
    else
        s->team_start = 0, s->team_stride = 0;
    where(w->addr, &s->segment, &s->offset);
    const struct shmpi_wait_cmp *cmp = w->cmp;
    s->cmp = cmp ? cmp->cmp : SHMPI_STATUS_NO_CMP;
    s->value_size = cmp ? cmp->size : 0;
    s->value_signed = cmp ? cmp->is_signed : 0;
    s->awaited = cmp ? cmp->value : 0;
    snprintf(s->routine, sizeof s->routine, "%s", routine);
    refresh(w, now_ms);
    write_end();
    next_tick_ms = now_ms + TICK_MS;
}

void shmpi_status_wait_tick(const struct shmpi_waiter *w)
{
    if (!page)
        return;
    uint64_t now_ms = realtime_ms();
    if (now_ms < next_tick_ms)
        return;
    next_tick_ms = now_ms + TICK_MS;
    write_begin();
    refresh(w, now_ms);
    write_end();
}

void shmpi_status_wait_end(void)
{
    if (!page)
        return;
    write_begin();
    page->wait.waits_in = SHMPI_STATUS_COMPUTING;
    write_end();
}

void shmpi_status_lock(const void *lock, bool held)
{
    if (!page)
        return;
    int32_t segment = -1;
    uint64_t offset = 0;
    if (held)
        where(lock, &segment, &offset);
    page->held_offset = offset;
    __atomic_store_n(&page->held_segment, segment, __ATOMIC_RELEASE);
}

static uint64_t heap_used(void)
{
    size_t used = shmpi_g.heap.used_bytes;
    return used > SHMPI_HEAP_RESERVED ? used - SHMPI_HEAP_RESERVED : 0;
}

void shmpi_status_heap_changed(void)
{
    if (page)
        __atomic_store_n(&page->heap_used, heap_used(), __ATOMIC_RELAXED);
}

/* ---- the snapshot signal -------------------------------------------------------------- */
static void on_snapshot_signal(int signo)
{
    (void)signo;
    int saved = errno;
    char wake = 's';
    if (write(wake_pipe[1], &wake, 1) < 0) {
        /* a full pipe: a snapshot is coming anyway */
    }
    errno = saved;
}

static void print_snapshot(void)
{
    struct shmpi_status_page *all = NULL;
    int n = shmpi_status_load(page->job, &all);
    size_t len = (size_t)(n + 4) * 512 + 4096;
    char *out = malloc(len), *text = malloc(len);
    if (!out || !text || n <= 0) {
        free(out), free(text), free(all);
        return;
    }
    uint64_t now_ms = realtime_ms();
    size_t used = (size_t)snprintf(out, len,
                                   "shmpi: PE %d: snapshot (signal %d) of job %s: its %d PEs "
                                   "on %s, of %d in all:\n",
                                   shmpi_g.my_pe, snapshot_signal, page->job, n, page->host,
                                   shmpi_g.n_pes);
    for (int i = 0; i < n && used < len; i++) {
        shmpi_status_line(all, n, i, now_ms, text, 512);
        used += (size_t)snprintf(out + used, len - used, "shmpi:   %s\n", text);
    }
    shmpi_status_summary(all, n, text, len);
    for (char *line = text; *line && used < len;) {
        char *end = strchr(line, '\n');
        int length = end ? (int)(end - line) : (int)strlen(line);
        used += (size_t)snprintf(out + used, len - used, "shmpi: summary: %.*s\n", length, line);
        line += length + (end ? 1 : 0);
    }
    if (used >= len)
        used = len - 1;
    for (size_t off = 0; off < used;) { /* one write: the lines stay together */
        ssize_t wrote = write(STDERR_FILENO, out + off, used - off);
        if (wrote <= 0)
            break;
        off += (size_t)wrote;
    }
    free(out), free(text), free(all);
}

static void *snapshot_main(void *unused)
{
    (void)unused;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* the program's threads take the signals */
    for (;;) {
        char wake;
        ssize_t got = read(wake_pipe[0], &wake, 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0 || wake == 'q')
            return NULL;
        print_snapshot();
    }
}

static void arm_snapshot(void)
{
    int signo = (int)shmpi_g.env.snapshot_signal;
    struct sigaction now;
    if (signo <= 0 || sigaction(signo, NULL, &now) != 0 || now.sa_handler != SIG_DFL)
        return; /* off, or the program's own signal */
    if (pipe2(wake_pipe, O_CLOEXEC) != 0)
        return;
    fcntl(wake_pipe[1], F_SETFL, O_NONBLOCK);
    if (pthread_create(&snapshot_thread, NULL, snapshot_main, NULL) != 0) {
        close(wake_pipe[0]), close(wake_pipe[1]);
        wake_pipe[0] = wake_pipe[1] = -1;
        return;
    }
    struct sigaction action = {.sa_handler = on_snapshot_signal, .sa_flags = SA_RESTART};
    sigemptyset(&action.sa_mask);
    sigaction(signo, &action, &old_action);
    snapshot_signal = signo;
}

static void disarm_snapshot(void)
{
    if (!snapshot_signal)
        return;
    sigaction(snapshot_signal, &old_action, NULL);
    snapshot_signal = 0;
    char quit = 'q';
    while (write(wake_pipe[1], &quit, 1) < 0 && errno == EINTR)
        ;
    pthread_join(snapshot_thread, NULL);
    close(wake_pipe[0]), close(wake_pipe[1]);
    wake_pipe[0] = wake_pipe[1] = -1;
}

/* ---- start and end ----------------------------------------------------------------- */
static void read_command(char *command, size_t len)
{
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    ssize_t got = fd >= 0 ? read(fd, command, len - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (got <= 0)
        got = 0;
    for (ssize_t i = 0; i < got; i++)
        if (command[i] == '\0')
            command[i] = ' ';
    while (got > 0 && command[got - 1] == ' ')
        got--;
    command[got] = '\0';
}

/* A new page file of page_bytes, mapped, under page_path; NULL and errno if
 * none.  Exclusive and not through links: what another user put under the
 * name (/dev/shm is everyone's) is never opened, truncated or written. */
static struct shmpi_status_page *create_page(void)
{
    int fd = open(page_path, O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0)
        return NULL;
    void *map = ftruncate(fd, (off_t)page_bytes) == 0
                    ? mmap(NULL, page_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                    : MAP_FAILED;
    int saved = errno;
    close(fd);
    if (map == MAP_FAILED) {
        unlink(page_path);
        errno = saved;
        return NULL;
    }
    return map;
}

/* The page under its name, /dev/shm/shmpi-status.JOB.PE, or where something
 * else holds that name (a stranger's file, or a page of a job whose id and
 * PE are the same), under JOB.PE.RANDOM: readers find a job's pages by the
 * JOB. prefix and the id inside.  None after a few tries: the job runs
 * without one (said under SHMEM_DEBUG). */
static void open_page(const char *job)
{
    int n = snprintf(page_path, sizeof page_path, SHMPI_STATUS_DIR "/" SHMPI_STATUS_PREFIX "%s.%d",
                     job, shmpi_g.my_pe);
    for (int tries = 0; tries < 4 && !page; tries++) {
        if (tries) {
            uint32_t random = 0;
            if (getrandom(&random, sizeof random, GRND_NONBLOCK) != (ssize_t)sizeof random)
                random = (uint32_t)(realtime_ms() * 2654435761u) ^ (uint32_t)getpid();
            snprintf(page_path + n, sizeof page_path - (size_t)n, ".%08x", random);
        }
        page = create_page();
        if (!page && errno != EEXIST)
            break;
    }
    if (!page && shmpi_g.env.debug)
        shmpi_warn("shmem_init", "no status page (%s: %s): the job runs, shmpi_info --jobs "
                   "does not list this PE; remove the file if it is yours, or set SHMPI_STATUS=0",
                   page_path, strerror(errno));
}

void shmpi_status_init(void)
{
    page = NULL;
    if (!shmpi_g.env.status)
        return;
    if (shmpi_shape.node_rank == 0)
        shmpi_status_sweep(); /* pages of jobs that aborted */
    /* The job's id: PE 0's tag (its pid and start time), mixed down to 32 bits. */
    uint64_t tag = shmpi_shape.cards[0].tag * 0x9e3779b97f4a7c15ull;
    char job[24];
    snprintf(job, sizeof job, "%08x", (unsigned)(tag >> 32));
    page_bytes = SHMPI_STATUS_FILE_BYTES(shmpi_g.page_size);
    open_page(job);
    if (!page)
        return;
    snprintf(page->job, sizeof page->job, "%s", job);
    page->pe = shmpi_g.my_pe;
    page->n_pes = shmpi_g.n_pes;
    page->nodes = shmpi_shape.nodes;
    int here = 0;
    for (int pe = 0; pe < shmpi_g.n_pes; pe++)
        here += shmpi_shape.cards[pe].node == shmpi_shape.mine.node;
    page->pes_here = here;
    page->pid = (int32_t)getpid();
    page->start_ms = realtime_ms();
    page->heap_size = shmpi_g.env.symmetric_size;
    page->heap_used = heap_used();
    page->held_segment = -1;
    gethostname(page->host, sizeof page->host - 1);
    read_command(page->command, sizeof page->command);
    __atomic_store_n(&page->magic, SHMPI_STATUS_MAGIC, __ATOMIC_RELEASE);
    arm_snapshot();
}

void shmpi_status_fini(void)
{
    disarm_snapshot();
    if (!page)
        return;
    munmap(page, page_bytes);
    page = NULL;
    unlink(page_path);
}
