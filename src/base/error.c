/*
 * error.c - the one way shmpi reports misuse: "shmpi: PE n: ROUTINE: ...",
 * then the whole job ends (MPI_Abort), so no PE is left waiting.  A problem
 * every PE finds alike (a malformed setting) is said once, by PE 0, and the
 * job ends without MPI_Abort (shmpi_end_if_any).
 */
#include "shmpi.h"

#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Warnings longer than this are written as sentences, one a line (a line
 * that is still longer wraps between words), the lines after the first
 * indented: read on a terminal, not scrolled.  Errors stay one line each,
 * one per PE, for grep. */
enum { WARNING_WIDTH = 80, WARNING_INDENT = 2 };

/* Appends `text` to out[*len] as lines of at most WARNING_WIDTH, breaking at
 * sentence ends (". " before a capital letter) and, within a long sentence,
 * between words.  `column` is where the first line starts. */
static void wrap_sentences(char *out, size_t cap, size_t *len, const char *text, size_t column)
{
    const char *p = text;
    while (*p && *len + 1 < cap) {
        size_t room = WARNING_WIDTH > column + 20 ? WARNING_WIDTH - column : 20;
        size_t end = strlen(p), last_space = 0;
        for (size_t i = 0; p[i]; i++) {
            if (p[i] != ' ')
                continue;
            if (i > room && last_space) { /* too long: break at the last space that fits */
                end = last_space;
                break;
            }
            if (i > 0 && p[i - 1] == '.' && (i < 3 || p[i - 3] != '.') && p[i + 1] >= 'A' &&
                p[i + 1] <= 'Z') { /* a sentence ends (not "e.g. X") */
                end = i;
                break;
            }
            last_space = i;
        }
        if (end > room && last_space && !p[end]) /* the last piece is too long */
            end = last_space;
        while (end > 0 && p[end - 1] == ' ')
            end--;
        const char *next = p + end;
        while (*next == ' ')
            next++;
        int n = snprintf(out + *len, cap - *len, "%.*s\n%*s", (int)end, p,
                         *next ? WARNING_INDENT : 0, "");
        *len += n > 0 ? (size_t)n : 0;
        if (*len >= cap)
            *len = cap - 1;
        p = next;
        column = WARNING_INDENT;
    }
}

/* Writes the whole report with one write(2): the lines of PEs that report
 * at once do not interleave. */
static void vreport(const char *kind, const char *routine, const char *fmt, va_list ap)
{
    char message[1024], line[1536];
    vsnprintf(message, sizeof(message), fmt, ap);
    int n = shmpi_g.n_pes > 0
                ? snprintf(line, sizeof line, "shmpi: PE %d: %s%s: ", shmpi_g.my_pe, kind, routine)
                : snprintf(line, sizeof line, "shmpi: %s%s: ", kind, routine);
    size_t len = n > 0 && (size_t)n < sizeof line ? (size_t)n : 0;
    if (*kind && len + strlen(message) > WARNING_WIDTH) {
        wrap_sentences(line, sizeof line, &len, message, len);
    } else {
        n = snprintf(line + len, sizeof line - len, "%s\n", message);
        len += n > 0 ? (size_t)n : 0;
        if (len >= sizeof line)
            len = sizeof line - 1;
    }
    fflush(stderr);
    for (size_t done = 0; done < len;) {
        ssize_t w = write(STDERR_FILENO, line + done, len - done);
        if (w <= 0)
            break;
        done += (size_t)w;
    }
}

/* The launcher forwards our stderr asynchronously and stops reading it
 * once MPI_Abort tears the job down: give the message time to get out. */
static void let_message_out(void)
{
    struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
}

static void report(const char *kind, const char *routine, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void report(const char *kind, const char *routine, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(kind, routine, fmt, ap);
    va_end(ap);
}

void shmpi_abort(const char *routine, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport("", routine, fmt, ap);
    va_end(ap);
    int mpi_up = 0, mpi_down = 0;
    MPI_Initialized(&mpi_up);
    MPI_Finalized(&mpi_down);
    if (mpi_up && !mpi_down) {
        let_message_out();
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    exit(1);
}

void shmpi_abort_together(const char *routine, bool speaker, const char *fmt, ...)
{
    /* The others give the speaker's MPI_Abort time to end them; one that
     * still runs after it (the speaker found nothing) says its own line. */
    if (!speaker) {
        struct timespec pause = {2, 0};
        while (nanosleep(&pause, &pause) != 0)
            ;
    }
    va_list ap;
    va_start(ap, fmt);
    vreport("", routine, fmt, ap);
    va_end(ap);
    let_message_out();
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

/* From the departure watch thread, while the program's thread is inside a
 * blocking MPI call.  MPI_Abort is what tears down a job that spans nodes
 * (Hydra does not kill the others when a PE there merely exits); at a
 * thread level below MPI_THREAD_MULTIPLE it is called from the wrong thread,
 * so an alarm ends this process should it not return. */
void shmpi_fail_from_thread(const char *routine, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport("", routine, fmt, ap);
    va_end(ap);
    fflush(stdout);
    let_message_out();
    signal(SIGALRM, SIG_DFL);
    alarm(3);
    MPI_Abort(MPI_COMM_WORLD, 1);
    _exit(1);
}

void shmpi_fail_alone(bool say, const char *routine, const char *fmt, ...)
{
    if (say) {
        va_list ap;
        va_start(ap, fmt);
        vreport("", routine, fmt, ap);
        va_end(ap);
    }
    if (shmpi_g.mpi_started_here)
        MPI_Finalize();
    exit(1);
}

/* FNV-1a: the same message gives the same number on every PE. */
static unsigned long message_hash(const char *text)
{
    uint64_t h = 1469598103934665603ull;
    for (; *text; text++)
        h = (h ^ (unsigned char)*text) * 1099511628211ull;
    return h ? (unsigned long)h : 1;
}

/* This machine: its host name and its kernel's boot id (the emulated nodes
 * of tests/launch-nodes.sh share a kernel, not a host name). */
static unsigned long machine_hash(void)
{
    char text[320] = "";
    gethostname(text, 256);
    size_t len = strlen(text);
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(text + len, (int)(sizeof text - len), f))
            text[len] = 0;
        fclose(f);
    }
    return message_hash(text);
}

void shmpi_end_if_any(const char *routine, const char *problem)
{
    /* Whether every PE has the same hash, and every PE the same machine:
     * one MPI_MAX over (hash, ~hash, machine, ~machine), nonblocking and
     * waited for while yielding (at start-up PEs arrive apart, and a
     * blocking collective spins when PEs outnumber CPUs). */
    unsigned long mine = problem ? message_hash(problem) : 0, machine = machine_hash();
    unsigned long both[4] = {mine, ~mine, machine, ~machine}, max[4];
    MPI_Request req;
    MPI_Iallreduce(both, max, 4, MPI_UNSIGNED_LONG, MPI_MAX, shmpi_g.comm, &req);
    for (int done = 0; MPI_Test(&req, &done, MPI_STATUS_IGNORE), !done;)
        sched_yield();
    if (max[0] == mine && max[1] == ~mine) {
        if (!problem)
            return;
        /* Every PE found it: PE 0 says it, the others wait until it has,
         * and all exit with status 1.  Not MPI_Abort: MPICH adds a line per
         * PE, Open MPI a banner per PE.  On one machine every PE leaves
         * MPI_Finalize first: exiting without it, Hydra kills the PEs still
         * running and prints its "BAD TERMINATION" banner when it finds one
         * (1 run in 4 at 8 PEs; after MPI_Finalize 0 of 15, and mpirun
         * prints one notice that a PE returned a non-zero status).  Across
         * machines MPI_Finalize can hang (MPICH 4.0 over TCP, 5 runs of 6
         * on 2 emulated nodes: see SHMPI_FINALIZE_GRACE_MS), so there the
         * PEs exit at once and the launcher ends the job. */
        if (shmpi_g.my_pe == 0) {
            if (shmpi_g.n_pes > 1)
                report("", routine, "%s; all %d PEs found this", problem, shmpi_g.n_pes);
            else
                report("", routine, "%s", problem);
        }
        MPI_Barrier(shmpi_g.comm);
        if (max[2] == machine && max[3] == ~machine)
            MPI_Finalize();
        fflush(NULL);
        _exit(1); /* not exit: the program's atexit handlers would find no library */
    }
    if (problem)
        shmpi_abort(routine, "%s", problem);
    /* Another PE found a problem and ends the job through MPI_Abort; this
     * one waits for that rather than go on alone. */
    MPI_Barrier(shmpi_g.comm);
    shmpi_abort(routine, "another PE found a problem at start-up");
}

void shmpi_warn(const char *routine, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport("warning: ", routine, fmt, ap);
    va_end(ap);
}

void *shmpi_xmalloc(const char *routine, size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        shmpi_abort(routine, "out of memory (%zu bytes)", size);
    return p;
}

void shmpi_not_ready(const char *routine)
{
    int state = atomic_load(&shmpi_g.init_state);
    shmpi_abort(routine, "called %s", state == SHMPI_STATE_FINALIZED
                                          ? "after shmem_finalize"
                                          : "before shmem_init (or shmem_init_thread)");
}

void shmpi_bytes_fail(const char *routine, size_t nelems, size_t elem_size)
{
    shmpi_abort(routine, "nelems %zu times element size %zu overflows size_t", nelems,
                elem_size);
}

void shmpi_pe_fail(const char *routine, int pe, int n_pes)
{
    shmpi_abort(routine, "PE %d is out of range (valid PEs are 0 to %d)", pe, n_pes - 1);
}

/* What a layer above says first of an address outside the symmetric
 * segments (the device heap's refusal, device_heap.c), or NULL. */
static void (*not_symmetric_hook)(const char *routine, const void *addr, size_t len);

void shmpi_on_not_symmetric(void (*hook)(const char *routine, const void *addr, size_t len))
{
    not_symmetric_hook = hook;
}

void shmpi_symm_fail(const char *routine, const void *addr, size_t len, int pe)
{
    if (not_symmetric_hook)
        not_symmetric_hook(routine, addr, len);
    const struct shmpi_segment *heap = &shmpi_g.seg[SHMPI_SEG_HEAP];
    const struct shmpi_segment *data = &shmpi_g.seg[SHMPI_SEG_DATA];
    shmpi_abort(routine,
                "address %p (%zu bytes, target PE %d) is not symmetric: it is not inside "
                "the symmetric heap [%p, %p) nor the static data [%p, %p)",
                addr, len, pe, (void *)heap->base, (void *)(heap->base + heap->size),
                (void *)data->base, (void *)(data->base + data->size));
}

void shmpi_check_cmp(const char *routine, int cmp)
{
    if (SHMPI_UNLIKELY(cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE))
        shmpi_abort(routine,
                    "comparison operator %d is not one of SHMEM_CMP_EQ, _NE, _GT, _GE, _LT, "
                    "_LE",
                    cmp);
}
