/*
 * shmpi_status - shmpi_info's helper for --jobs and --waits: reads the
 * status pages the PEs of running shmpi jobs keep in /dev/shm
 * (src/wait/status_page.h) and says what runs and what each PE waits for.
 * It only reads (and removes the pages of processes that died): the jobs
 * run on unchanged.  Installed in PKGLIBEXECDIR; shmpi_info runs it.
 *
 *   shmpi_status --jobs [--parsable]
 *   shmpi_status --waits [JOB | --pid PID] [--parsable] [--watch SECONDS]
 */
#include "status_page.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define LINE_BYTES 1024

static uint64_t realtime_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

struct job {
    char id[24];
    uid_t uid; /* whose: root's shmpi_info lists every user's jobs */
    int here, n_pes, nodes, lowest_pe;
    uint64_t start_ms, heap_size, heap_used;
    char command[SHMPI_STATUS_COMMAND];
};

struct jobs {
    struct job *job;
    int n, room;
};
static bool count_job(const char *path, const struct shmpi_status_page *page,
                      const struct stat *st, void *arg)
{
    (void)path;
    struct jobs *jobs = arg;
    if (!shmpi_status_alive(page))
        return true;
    int j = 0;
    while (j < jobs->n &&
           (strcmp(jobs->job[j].id, page->job) != 0 || jobs->job[j].uid != st->st_uid))
        j++;
    if (j == jobs->n) {
        if (jobs->n == jobs->room) {
            int room = jobs->room ? 2 * jobs->room : 8;
            struct job *more = realloc(jobs->job, (size_t)room * sizeof *more);
            if (!more)
                return false;
            jobs->job = more;
            jobs->room = room;
        }
        struct job *new_job = &jobs->job[jobs->n++];
        memset(new_job, 0, sizeof *new_job);
        snprintf(new_job->id, sizeof new_job->id, "%s", page->job);
        new_job->lowest_pe = -1;
        new_job->uid = st->st_uid;
        new_job->start_ms = page->start_ms;
    }
    struct job *job = &jobs->job[j];
    job->here++;
    job->n_pes = page->n_pes;
    job->nodes = page->nodes;
    job->heap_size = page->heap_size;
    if (page->heap_used > job->heap_used)
        job->heap_used = page->heap_used;
    if (page->start_ms < job->start_ms)
        job->start_ms = page->start_ms;
    if (job->lowest_pe < 0 || page->pe < job->lowest_pe) {
        job->lowest_pe = page->pe;
        snprintf(job->command, sizeof job->command, "%s", page->command);
    }
    return true;
}

/* Every job with a live page here (the pages of dead processes removed first). */
static int find_jobs(struct job **jobs)
{
    shmpi_status_sweep();
    struct jobs found = {NULL, 0, 0};
    shmpi_status_each("", count_job, &found);
    *jobs = found.job;
    return found.n;
}

static const char *bytes_text(uint64_t bytes, char *text, size_t len)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = (double)bytes;
    int u = 0;
    while (value >= 1024 && u < 4)
        value /= 1024, u++;
    snprintf(text, len, u ? "%.1f %s" : "%.0f %s", value, unit[u]);
    return text;
}

static const char *duration_text(uint64_t seconds, char *text, size_t len)
{
    if (seconds < 120)
        snprintf(text, len, "%llu s", (unsigned long long)seconds);
    else if (seconds < 7200)
        snprintf(text, len, "%llu min", (unsigned long long)seconds / 60);
    else
        snprintf(text, len, "%llu h", (unsigned long long)seconds / 3600);
    return text;
}

static int list_jobs(int parsable)
{
    struct job *job;
    int n = find_jobs(&job);
    uint64_t now_s = realtime_ms() / 1000;
    if (!parsable)
        printf("%-9s %-11s %-5s %-24s %-9s %s\n", "JOB", "PES HERE", "NODES",
               "HEAP USED / SIZE (PE)", "RUNNING", "COMMAND");
    for (int j = 0; j < n; j++) {
        uint64_t seconds = now_s > job[j].start_ms / 1000 ? now_s - job[j].start_ms / 1000 : 0;
        if (parsable) {
            const char *id = job[j].id;
            printf("job:%s:pes_here:%d\njob:%s:pes:%d\njob:%s:nodes:%d\n", id, job[j].here, id,
                   job[j].n_pes, id, job[j].nodes);
            printf("job:%s:heap_size:%llu\njob:%s:heap_used:%llu\njob:%s:seconds:%llu\n", id,
                   (unsigned long long)job[j].heap_size, id,
                   (unsigned long long)job[j].heap_used, id, (unsigned long long)seconds);
            printf("job:%s:uid:%u\njob:%s:command:%s\n", id, (unsigned)job[j].uid, id,
                   job[j].command);
            continue;
        }
        char used[32], size[32], heap[72], pes[32];
        snprintf(heap, sizeof heap, "%s / %s", bytes_text(job[j].heap_used, used, sizeof used),
                 bytes_text(job[j].heap_size, size, sizeof size));
        snprintf(pes, sizeof pes, "%d of %d", job[j].here, job[j].n_pes);
        char owner[32] = "";
        if (job[j].uid != geteuid())
            snprintf(owner, sizeof owner, "(uid %u) ", (unsigned)job[j].uid);
        printf("%-9s %-11s %-5d %-24s %-9s %s%s\n", job[j].id, pes, job[j].nodes, heap,
               duration_text(seconds, size, sizeof size), owner, job[j].command);
    }
    if (!parsable && n == 0)
        printf("(no shmpi job runs on this machine)\n");
    free(job);
    return 0;
}

struct pid_search {
    long pid;
    char *id;
    size_t len;
    bool found;
};
static bool match_pid(const char *path, const struct shmpi_status_page *page,
                      const struct stat *st, void *arg)
{
    (void)path, (void)st;
    struct pid_search *search = arg;
    if (page->pid != search->pid)
        return true;
    snprintf(search->id, search->len, "%s", page->job);
    search->found = true;
    return false;
}

/* The job of the PE whose process is pid: its id in id, else false. */
static int job_of_pid(long pid, char *id, size_t len)
{
    struct pid_search search = {pid, id, len, false};
    shmpi_status_each("", match_pid, &search);
    if (!search.found)
        fprintf(stderr, "shmpi_info: process %ld is no PE of a shmpi job running here\n", pid);
    return search.found;
}

/* The job JOB names (a prefix of its id), or the only one; false: said why. */
static int choose_job(const char *wanted, char *id, size_t len)
{
    struct job *job;
    int n = find_jobs(&job), found = -1, matches = 0;
    for (int j = 0; j < n; j++)
        if (!wanted || strncmp(job[j].id, wanted, strlen(wanted)) == 0)
            found = j, matches++;
    int ok = matches == 1;
    if (ok)
        snprintf(id, len, "%s", job[found].id);
    else if (matches == 0 && wanted)
        fprintf(stderr, "shmpi_info: no shmpi job %s runs on this machine (shmpi_info --jobs "
                        "lists those that do)\n", wanted);
    else if (matches == 0)
        fprintf(stderr, "shmpi_info: no shmpi job runs on this machine (a PE started with "
                        "SHMPI_STATUS=0 keeps no status page)\n");
    else
        fprintf(stderr, "shmpi_info: %d shmpi jobs run here%s: name one (shmpi_info --jobs "
                        "lists them)\n", matches, wanted ? " whose ids begin so" : "");
    free(job);
    return ok;
}

static int show_waits(const char *id, int parsable)
{
    struct shmpi_status_page *page;
    int n = shmpi_status_load(id, &page);
    if (n == 0) {
        free(page);
        return 0;
    }
    uint64_t now_ms = realtime_ms();
    char line[LINE_BYTES];
    if (!parsable)
        printf("job %s: %d of its %d PEs on %s, running %.1f s: %s\n", id, n, page[0].n_pes,
               page[0].host,
               now_ms > page[0].start_ms ? (double)(now_ms - page[0].start_ms) / 1000 : 0.0,
               page[0].command);
    static const char *const state[] = {"computing", "collective", "memory", "lock", "mpi"};
    for (int i = 0; i < n; i++) {
        shmpi_status_line(page, n, i, now_ms, line, sizeof line);
        if (!parsable) {
            printf("%s\n", line);
            continue;
        }
        const struct shmpi_status_wait *w = &page[i].wait;
        int pe = page[i].pe;
        int kind = w->waits_in >= 0 && w->waits_in <= 4 ? w->waits_in : 4;
        printf("pe:%d:pid:%d\npe:%d:state:%s\n", pe, page[i].pid, pe,
               kind ? "waiting" : "computing");
        if (kind) {
            printf("pe:%d:waits_in:%s\npe:%d:routine:%s\n", pe, state[kind], pe, w->routine);
            printf("pe:%d:seconds:%.1f\n", pe,
                   now_ms > w->since_ms ? (double)(now_ms - w->since_ms) / 1000 : 0.0);
            int awaited[64], count = shmpi_status_awaited(page, n, i, awaited, 64);
            printf("pe:%d:awaits:", pe);
            for (int k = 0; k < count; k++)
                printf("%s%d", k ? "," : "", awaited[k]);
            printf("\n");
        }
        printf("pe:%d:line:%s\n", pe, line);
    }
    size_t len = (size_t)n * 512 + 4096;
    char *summary = malloc(len);
    if (summary) {
        shmpi_status_summary(page, n, summary, len);
        for (char *at = summary; *at;) {
            char *end = strchr(at, '\n');
            int length = end ? (int)(end - at) : (int)strlen(at);
            printf("summary:%s%.*s\n", parsable ? "" : " ", length, at);
            at += length + (end ? 1 : 0);
        }
    }
    free(summary);
    free(page);
    fflush(stdout);
    return n;
}

static void usage(FILE *to)
{
    fprintf(to, "Usage: shmpi_info --jobs [--parsable]\n"
                "       shmpi_info --waits [JOB | --pid PID] [--parsable] [--watch SECONDS]\n");
}

struct options {
    int jobs, waits, parsable;
    double watch;
    long pid;
    const char *wanted;
};

/* The command line into *o; 0, or the exit status after a line on stderr. */
static int parse_options(int argc, char **argv, struct options *o)
{
    *o = (struct options){0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--jobs"))
            o->jobs = 1;
        else if (!strcmp(argv[i], "--waits"))
            o->waits = 1;
        else if (!strcmp(argv[i], "--parsable") || !strcmp(argv[i], "--parseable"))
            o->parsable = 1;
        else if (!strcmp(argv[i], "--watch") && i + 1 < argc) {
            char *end;
            o->watch = strtod(argv[++i], &end);
            /* (at most a day: a NaN or a huge value would make no pause) */
            if (end == argv[i] || *end || !(o->watch > 0 && o->watch <= 86400)) {
                fprintf(stderr, "shmpi_info: --watch %s: expected seconds > 0 (at most 86400)\n",
                        argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--pid") && i + 1 < argc) {
            char *end;
            errno = 0;
            o->pid = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end || errno || o->pid <= 0 || o->pid > INT32_MAX) {
                fprintf(stderr, "shmpi_info: --pid %s: expected a process id\n", argv[i]);
                return 2;
            }
        } else if (argv[i][0] != '-' && o->waits && !o->wanted)
            o->wanted = argv[i];
        else {
            fprintf(stderr, "shmpi_info: unknown option '%s' (try shmpi_info --help)\n",
                    argv[i]);
            return 2;
        }
    }
    if (o->jobs == o->waits) {
        usage(stderr);
        return 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct options o;
    int status = parse_options(argc, argv, &o);
    if (status)
        return status;
    if (o.jobs)
        return list_jobs(o.parsable);
    double watch = o.watch;
    int parsable = o.parsable;
    char id[24];
    if (o.pid ? !job_of_pid(o.pid, id, sizeof id) : !choose_job(o.wanted, id, sizeof id))
        return 1;
    if (!show_waits(id, parsable)) {
        fprintf(stderr, "shmpi_info: job %s has ended\n", id);
        return 1;
    }
    while (watch > 0) {
        struct timespec pause = {(time_t)watch, (long)((watch - (time_t)watch) * 1e9)};
        nanosleep(&pause, NULL);
        printf("\n");
        if (!show_waits(id, parsable)) {
            printf("job %s has ended\n", id);
            return 0;
        }
    }
    return 0;
}
