/*
 * status_text.c - the status pages of a job's PEs on one node (status_page.h)
 * in words: one line per PE and a summary of who waits for whom.  Shared by
 * the library (the snapshot signal, status.c) and shmpi_info's helper
 * (tools/shmpi_status.c), so both say the same; it calls nothing of shmpi.
 */
#include "status_page.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LISTED 4096

struct text {
    char *at;
    size_t left;
};

static void __attribute__((format(printf, 2, 3))) put(struct text *t, const char *fmt, ...)
{
    if (t->left <= 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->at, t->left, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    size_t used = (size_t)n < t->left ? (size_t)n : t->left - 1;
    t->at += used;
    t->left -= used;
}

/* "PE 3" or "PEs 0-1, 4" of the sorted world PEs pe[0..n). */
static void put_pes(struct text *t, const int *pe, int n)
{
    put(t, "%s", n == 1 ? "PE " : "PEs ");
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && pe[j + 1] == pe[j] + 1)
            j++;
        put(t, "%s%d", i ? ", " : "", pe[i]);
        if (j > i)
            put(t, "-%d", pe[j]);
        i = j + 1;
    }
}

static int find(const struct shmpi_status_page *page, int n, int pe)
{
    for (int i = 0; i < n; i++)
        if (page[i].pe == pe)
            return i;
    return -1;
}

static bool same_collective(const struct shmpi_status_wait *a, const struct shmpi_status_wait *b)
{
    return a->waits_in == SHMPI_STATUS_COLLECTIVE && b->waits_in == SHMPI_STATUS_COLLECTIVE &&
           a->team_id == b->team_id && a->team_call == b->team_call;
}

static int cmp_int(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* A collective's members: those of this node not in it (arrived: false), or
 * those of other nodes (remote: true), sorted. */
static int members(const struct shmpi_status_page *page, int n, int i, bool remote, int *pe,
                   int max)
{
    const struct shmpi_status_wait *w = &page[i].wait;
    int count = 0;
    if (w->team_stride == 0)
        return 0; /* not strided: its members are not in the page */
    for (int k = 0; k < w->team_size && count < max; k++) {
        int member = w->team_start + k * w->team_stride;
        if (member == page[i].pe)
            continue;
        int j = find(page, n, member);
        if (remote ? j < 0 : j >= 0 && !same_collective(&page[j].wait, w))
            pe[count++] = member;
    }
    return count;
}

static int lock_holder(const struct shmpi_status_page *page, int n, int i)
{
    const struct shmpi_status_wait *w = &page[i].wait;
    /* Only a PE of the same job (pages that disagree on the job's size are
     * another job's, whatever they say) holds the lock awaited. */
    for (int j = 0; j < n; j++)
        if (j != i && page[j].held_segment == w->segment && page[j].held_offset == w->offset &&
            page[j].n_pes == page[i].n_pes && page[j].pe < page[i].n_pes &&
            strcmp(page[j].job, page[i].job) == 0)
            return page[j].pe;
    return -1;
}

int shmpi_status_awaited(const struct shmpi_status_page *page, int n, int i, int *pe, int max)
{
    const struct shmpi_status_wait *w = &page[i].wait;
    int count = 0;
    switch (w->waits_in) {
    case SHMPI_STATUS_COLLECTIVE:
        count = members(page, n, i, false, pe, max);
        break;
    case SHMPI_STATUS_LOCK: {
        int holder = lock_holder(page, n, i);
        if (holder >= 0 && max > 0)
            pe[count++] = holder;
        break;
    }
    default:
        break;
    }
    if (w->pe >= 0 && w->waits_in != SHMPI_STATUS_LOCK && w->waits_in != SHMPI_STATUS_COLLECTIVE &&
        count < max) {
        bool listed = false;
        for (int k = 0; k < count; k++)
            listed |= pe[k] == w->pe;
        if (!listed)
            pe[count++] = w->pe;
    }
    qsort(pe, (size_t)count, sizeof *pe, cmp_int);
    return count;
}

static void put_where(struct text *t, const struct shmpi_status_wait *w)
{
    static const char *const segment_name[] = {"heap", "static data"};
    if (w->segment == 0 || w->segment == 1)
        put(t, "%s+0x%llx", segment_name[w->segment], (unsigned long long)w->offset);
    else
        put(t, "%#llx", (unsigned long long)w->offset);
}

static void put_value(struct text *t, uint64_t bits, const struct shmpi_status_wait *w)
{
    int shift = 64 - 8 * (w->value_size > 0 && w->value_size < 8 ? w->value_size : 8);
    if (w->value_signed)
        put(t, "%lld", (long long)((int64_t)(bits << shift) >> shift));
    else
        put(t, "%llu", (unsigned long long)((bits << shift) >> shift));
}

void shmpi_status_line(const struct shmpi_status_page *page, int n, int i, uint64_t now_ms,
                       char *text, size_t len)
{
    static const char *const cmp_name[] = {"==", "!=", ">", ">=", "<", "<="};
    const struct shmpi_status_page *p = &page[i];
    const struct shmpi_status_wait *w = &p->wait;
    struct text t = {text, len};
    put(&t, "PE %d: ", p->pe);
    if (w->waits_in == SHMPI_STATUS_COMPUTING) {
        put(&t, "computing (in no wait of shmpi)");
        return;
    }
    double waited = now_ms > w->since_ms ? (double)(now_ms - w->since_ms) / 1000 : 0;
    put(&t, "in %s for %.1f s: ", w->routine[0] ? w->routine : "shmpi", waited);
    int pe[MAX_LISTED];
    int count;
    switch (w->waits_in) {
    case SHMPI_STATUS_COLLECTIVE:
        if (w->team_stride == 1 && w->team_start == 0 && w->team_size == p->n_pes)
            put(&t, "collective %llu of the team of all %d PEs", (unsigned long long)w->team_call,
                w->team_size);
        else
            put(&t, "collective %llu of a team of %d PEs", (unsigned long long)w->team_call,
                w->team_size);
        if (w->team_stride == 0) {
            put(&t, " (members not strided: not listed)");
            break;
        }
        count = members(page, n, i, false, pe, MAX_LISTED);
        if (count) {
            put(&t, "; not arrived: ");
            put_pes(&t, pe, count);
        } else {
            put(&t, "; every member on this node arrived");
        }
        count = members(page, n, i, true, pe, MAX_LISTED);
        if (count) {
            put(&t, "; on other nodes: ");
            put_pes(&t, pe, count);
        }
        break;
    case SHMPI_STATUS_MEMORY:
        put(&t, "the word at ");
        put_where(&t, w);
        if (w->value_size > 0) {
            put(&t, " is ");
            put_value(&t, w->now, w);
        }
        if (w->cmp >= 0 && w->cmp <= 5) {
            put(&t, ", waits until %s ", cmp_name[w->cmp]);
            put_value(&t, w->awaited, w);
        }
        break;
    case SHMPI_STATUS_LOCK: {
        put(&t, "the lock at ");
        put_where(&t, w);
        int holder = lock_holder(page, n, i);
        if (holder >= 0)
            put(&t, ", held by PE %d", holder);
        else
            put(&t, ", held by no PE of this node");
        break;
    }
    default:
        if (w->pe >= 0)
            put(&t, "its MPI operation on PE %d%s to complete", w->pe,
                find(page, n, w->pe) < 0 ? " (another node)" : "");
        else
            put(&t, "the completion of its own MPI operations");
        break;
    }
    /* (a collective's own step names a member: its not-arrived list says more) */
    if (w->pe >= 0 && w->waits_in == SHMPI_STATUS_MEMORY) {
        put(&t, "; awaits PE %d", w->pe);
        if (find(page, n, w->pe) < 0)
            put(&t, " (another node)");
    }
    if (w->mpi_pending)
        put(&t, "; puts or gets through MPI in flight");
}

/* What PE pe does, for "which ..." */
static const char *doing(const struct shmpi_status_page *page, int n, int pe, char *buf,
                         size_t len)
{
    int j = find(page, n, pe);
    if (j < 0)
        return "is on another node";
    const struct shmpi_status_wait *w = &page[j].wait;
    switch (w->waits_in) {
    case SHMPI_STATUS_COMPUTING:
        return "computes";
    case SHMPI_STATUS_MEMORY:
        snprintf(buf, len, "waits in %s for a word", w->routine);
        return buf;
    default:
        snprintf(buf, len, "waits in %s", w->routine);
        return buf;
    }
}

void shmpi_status_summary(const struct shmpi_status_page *page, int n, char *text, size_t len)
{
    struct text t = {text, len};
    int *group = calloc((size_t)n + 1, sizeof *group);
    int *awaited = malloc(MAX_LISTED * sizeof *awaited);
    int *other = malloc(MAX_LISTED * sizeof *other);
    bool *told = calloc((size_t)n + 1, sizeof *told);
    if (!group || !awaited || !other || !told) {
        free(group), free(awaited), free(other), free(told);
        put(&t, "(no memory for the summary)\n");
        return;
    }
    bool any = false;
    for (int i = 0; i < n; i++) {
        if (told[i] || page[i].wait.waits_in == SHMPI_STATUS_COMPUTING)
            continue;
        int count = shmpi_status_awaited(page, n, i, awaited, MAX_LISTED);
        /* PEs that wait in the same routine for the same PEs share a line. */
        int members = 0;
        for (int j = i; j < n; j++) {
            if (told[j] || page[j].wait.waits_in != page[i].wait.waits_in ||
                strcmp(page[j].wait.routine, page[i].wait.routine) != 0)
                continue;
            int c = shmpi_status_awaited(page, n, j, other, MAX_LISTED);
            if (c != count || memcmp(other, awaited, (size_t)count * sizeof *other) != 0)
                continue;
            told[j] = true;
            group[members++] = page[j].pe;
        }
        any = true;
        put_pes(&t, group, members);
        put(&t, " %s in %s", members == 1 ? "waits" : "wait", page[i].wait.routine);
        if (count == 0) {
            put(&t, page[i].wait.waits_in == SHMPI_STATUS_MEMORY
                        ? " for a word that no PE of this node is seen to write\n"
                        : " for no PE of this node\n");
            continue;
        }
        put(&t, " for ");
        put_pes(&t, awaited, count);
        /* what the awaited do: the distinct phrases, in PE order */
        char seen[4][96], buf[96];
        int n_seen = 0;
        for (int k = 0; k < count && n_seen < 4; k++) {
            const char *what = doing(page, n, awaited[k], buf, sizeof buf);
            bool again = false;
            for (int s = 0; s < n_seen; s++)
                again |= strcmp(seen[s], what) == 0;
            if (!again)
                snprintf(seen[n_seen++], sizeof seen[0], "%s", what);
        }
        put(&t, ", %s ", count == 1 ? "which" : "which each");
        for (int s = 0; s < n_seen; s++)
            put(&t, "%s%s", s ? " or " : "", seen[s]);
        put(&t, "\n");
    }
    if (!any)
        put(&t, "no PE of this node waits in shmpi\n");
    free(group), free(awaited), free(other), free(told);
}

/* ---- reading the pages ------------------------------------------------------------------
 * /dev/shm is writable by every user: what lies there under a page's name may
 * be anyone's, and anything (a FIFO, a link, a file of another size), so a
 * page is read only from a regular file of the caller's (root: anyone's),
 * opened without following links or blocking, read with pread (not mapped: a
 * file that shrinks meanwhile cannot raise SIGBUS), and checked field by
 * field before any text routine looks at it. */
#define MOST_PES (1 << 24)

static bool terminated(const char *text, size_t size)
{
    return memchr(text, '\0', size) != NULL;
}

/* Control characters (a terminal's escape sequences) shown as '?'. */
static void printable(char *text)
{
    for (; *text; text++)
        if ((unsigned char)*text < 0x20 || *text == 0x7f)
            *text = '?';
}

static bool world_pe(int64_t pe, int64_t n_pes)
{
    return pe >= 0 && pe < n_pes;
}

bool shmpi_status_valid(const struct shmpi_status_page *p)
{
    const struct shmpi_status_wait *w = &p->wait;
    if (p->magic != SHMPI_STATUS_MAGIC || p->n_pes < 1 || p->n_pes > MOST_PES ||
        !world_pe(p->pe, p->n_pes) || p->nodes < 1 || p->nodes > p->n_pes ||
        p->pes_here < 1 || p->pes_here > p->n_pes || p->pid <= 0 ||
        p->held_segment < -1 || p->held_segment > 1)
        return false;
    if (!terminated(p->job, sizeof p->job) || !p->job[0] || !terminated(p->host, sizeof p->host) ||
        !terminated(p->command, sizeof p->command) ||
        !terminated(w->routine, sizeof w->routine))
        return false;
    for (const char *c = p->job; *c; c++)
        if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z')))
            return false; /* the id names files: no '/', no '.' */
    if (w->waits_in < SHMPI_STATUS_COMPUTING || w->waits_in > SHMPI_STATUS_MPI ||
        (w->pe != -1 && !world_pe(w->pe, p->n_pes)) || w->segment < -1 || w->segment > 1 ||
        w->cmp < SHMPI_STATUS_NO_CMP || w->cmp > 5 || w->value_size < 0 || w->value_size > 8 ||
        w->team_size < 0 || w->team_size > p->n_pes)
        return false;
    if (w->team_stride != 0 && w->team_size > 0) {
        int64_t last = (int64_t)w->team_start + (int64_t)(w->team_size - 1) * w->team_stride;
        if (!world_pe(w->team_start, p->n_pes) || !world_pe(last, p->n_pes))
            return false;
    }
    return true;
}

/* One consistent copy (not taken while its owner wrote the wait part). */
static bool copy_page(int fd, struct shmpi_status_page *copy)
{
    const off_t seq_at = (off_t)offsetof(struct shmpi_status_page, wait.seq);
    for (int tries = 0; tries < 1000; tries++) {
        uint64_t seq_after;
        if (pread(fd, copy, sizeof *copy, 0) != (ssize_t)sizeof *copy ||
            copy->magic != SHMPI_STATUS_MAGIC)
            return false;
        if (!(copy->wait.seq & 1) &&
            pread(fd, &seq_after, sizeof seq_after, seq_at) == (ssize_t)sizeof seq_after &&
            seq_after == copy->wait.seq)
            return true;
        sched_yield();
    }
    return false;
}

/* The page at path (as shmpi_status_read_owned), with its file's stat. */
static bool read_page(const char *path, struct shmpi_status_page *copy, struct stat *st)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return false;
    long page_size = sysconf(_SC_PAGESIZE);
    uid_t me = geteuid();
    bool ok = fstat(fd, st) == 0 && S_ISREG(st->st_mode) && st->st_nlink == 1 &&
              (me == 0 || st->st_uid == me) &&
              page_size > 0 && (size_t)st->st_size == SHMPI_STATUS_FILE_BYTES(page_size) &&
              copy_page(fd, copy) && shmpi_status_valid(copy);
    close(fd);
    if (!ok)
        return false;
    printable(copy->host);
    printable(copy->command);
    printable(copy->wait.routine);
    return true;
}

bool shmpi_status_read(const char *path, struct shmpi_status_page *copy)
{
    struct stat st;
    return read_page(path, copy, &st);
}

/* A killed PE whose launcher exited unreaped stays a zombie wherever PID 1
 * does not reap (containers): kill(pid, 0) still succeeds, yet it is gone. */
static bool is_zombie(pid_t pid)
{
    char path[64], stat_line[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *file = fopen(path, "re");
    if (!file)
        return false;
    size_t len = fread(stat_line, 1, sizeof stat_line - 1, file);
    fclose(file);
    stat_line[len] = '\0';
    const char *after_name = strrchr(stat_line, ')');  /* the name may hold ')' */
    return after_name && after_name[1] == ' ' && (after_name[2] == 'Z' || after_name[2] == 'X');
}

bool shmpi_status_alive(const struct shmpi_status_page *page)
{
    /* (pid 0 or below would name a process group: shmpi_status_valid refuses those) */
    return page->pid > 0 && (kill(page->pid, 0) == 0 || errno == EPERM) && !is_zombie(page->pid);
}

void shmpi_status_each(const char *job_prefix, shmpi_status_visitor visit, void *arg)
{
    DIR *dir = opendir(SHMPI_STATUS_DIR);
    if (!dir)
        return;
    char prefix[64], path[512];
    snprintf(prefix, sizeof prefix, SHMPI_STATUS_PREFIX "%s", job_prefix);
    struct shmpi_status_page page;
    struct stat st;
    for (struct dirent *e; (e = readdir(dir));) {
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
            continue;
        snprintf(path, sizeof path, SHMPI_STATUS_DIR "/%s", e->d_name);
        if (read_page(path, &page, &st) && !visit(path, &page, &st, arg))
            break;
    }
    closedir(dir);
}

/* Removes only the caller's own pages (root: only root's), and only the file
 * that was read (not one put under its name since). */
static bool remove_if_dead(const char *path, const struct shmpi_status_page *page,
                           const struct stat *read_st, void *arg)
{
    (void)arg;
    struct stat now_st;
    if (read_st->st_uid == geteuid() && !shmpi_status_alive(page) && lstat(path, &now_st) == 0 &&
        now_st.st_dev == read_st->st_dev && now_st.st_ino == read_st->st_ino)
        unlink(path);
    return true;
}

void shmpi_status_sweep(void)
{
    shmpi_status_each("", remove_if_dead, NULL);
}

static int by_pe(const void *a, const void *b)
{
    const struct shmpi_status_page *x = a, *y = b;
    return (x->pe > y->pe) - (x->pe < y->pe);
}

struct live_pages {
    struct shmpi_status_page *page;
    int n, room;
};
static bool add_if_alive(const char *path, const struct shmpi_status_page *page,
                         const struct stat *st, void *arg)
{
    (void)path, (void)st;
    struct live_pages *live = arg;
    if (!shmpi_status_alive(page))
        return true;
    if (live->n == live->room) {
        int room = live->room ? 2 * live->room : 64;
        struct shmpi_status_page *more = realloc(live->page, (size_t)room * sizeof *more);
        if (!more)
            return false;
        live->page = more;
        live->room = room;
    }
    live->page[live->n++] = *page;
    return true;
}

int shmpi_status_load(const char *job, struct shmpi_status_page **page)
{
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s.", job);
    struct live_pages live = {NULL, 0, 0};
    shmpi_status_each(prefix, add_if_alive, &live);
    *page = live.page;
    int n = live.n;
    qsort(*page, (size_t)n, sizeof **page, by_pe);
    return n;
}
