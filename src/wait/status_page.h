/*
 * status_page.h - a PE's status page: one page of shared memory per PE,
 * /dev/shm/shmpi-status.JOB.PE, that shmpi_info --jobs and --waits read
 * while the job runs (status.c writes it; tools/shmpi_status.c reads it).
 * Plain C and fixed sizes only: the tool includes it without the library.
 * The job part is written once at start-up, before `magic`; the wait part
 * by the slow turns of waits that already yield (diagnose.c), under a
 * sequence count (odd while its owner writes).
 */
#ifndef SHMPI_STATUS_PAGE_H
#define SHMPI_STATUS_PAGE_H

#include <stdint.h>

#define SHMPI_STATUS_MAGIC 0x3170747369706d73ull /* "smpistp1" */
#define SHMPI_STATUS_PREFIX "shmpi-status."
#define SHMPI_STATUS_DIR "/dev/shm"
#define SHMPI_STATUS_ROUTINE 64
#define SHMPI_STATUS_COMMAND 1024

/* What a wait waits in: progress.h's enum shmpi_waits_in. */
enum { SHMPI_STATUS_COMPUTING, SHMPI_STATUS_COLLECTIVE, SHMPI_STATUS_MEMORY,
       SHMPI_STATUS_LOCK, SHMPI_STATUS_MPI };
/* Comparison of a wait_until: SHMEM_CMP_EQ ... (shmem.h's values). */
#define SHMPI_STATUS_NO_CMP (-1)

struct shmpi_status_wait {
    uint64_t seq;        /* odd while the owner writes (atomic on both sides) */
    int32_t waits_in;    /* SHMPI_STATUS_*; COMPUTING: no wait shows */
    int32_t pe;          /* the world PE awaited, or -1 */
    uint64_t since_ms;   /* CLOCK_REALTIME ms when the wait began to yield */
    uint64_t seen_ms;    /* ... and of its last slow turn */
    uint64_t team_id;    /* a collective's team (its members' id) */
    uint64_t team_call;  /* which collective of that team */
    int32_t team_size;   /* members */
    int32_t team_start;  /* world PE of member i: start + i * stride; stride 0: not strided */
    int32_t team_stride;
    int32_t segment;     /* the awaited word or lock: 0 heap, 1 static data, -1 none */
    uint64_t offset;     /* in that segment (or the address, segment -1) */
    int32_t cmp;         /* wait_until: the comparison, or SHMPI_STATUS_NO_CMP */
    int32_t value_size;  /* bytes of the word, 0: value unknown */
    int32_t value_signed;
    int32_t mpi_pending; /* puts/gets of this PE through MPI not yet completed by quiet */
    uint64_t awaited;    /* the value compared with (bits) */
    uint64_t now;        /* the word's value at the last slow turn (bits) */
    char routine[SHMPI_STATUS_ROUTINE];
};

struct shmpi_status_page {
    uint64_t magic;      /* set last at start-up */
    char job[24];        /* the job's id: the same on every PE and node */
    int32_t pe, n_pes;
    int32_t nodes, pes_here; /* nodes of the job, PEs on this PE's node */
    int32_t pid, finalizing;
    uint64_t start_ms;   /* CLOCK_REALTIME ms of shmem_init */
    uint64_t heap_size, heap_used;
    int32_t held_segment; /* a lock this PE holds (the last it took): segment, -1 none */
    int32_t pad;
    uint64_t held_offset;
    char host[64];
    char command[SHMPI_STATUS_COMMAND]; /* the program's command line, spaces between */
    struct shmpi_status_wait wait;
};

/* ---- in words (status_text.c, shared by the library and the tool) ----------------------
 * `page`: copies of the pages of one job's PEs on this node, in PE order; `now_ms`:
 * CLOCK_REALTIME.  Each writes at most `len` bytes of text into `text`. */
#include <stddef.h>
/* A page's file is exactly this long: the page rounded up to whole pages
 * of memory (page_size: sysconf(_SC_PAGESIZE)). */
#define SHMPI_STATUS_FILE_BYTES(page_size)                                                     \
    ((sizeof(struct shmpi_status_page) + (size_t)(page_size) - 1) / (size_t)(page_size) *     \
     (size_t)(page_size))
/* A copy of the page at `path`, consistent (not taken while its owner
 * wrote); false if it is not a status page: anything but a regular file of
 * the caller's uid (root: of any uid) of SHMPI_STATUS_FILE_BYTES, opened
 * without following links or blocking, or a page whose fields do not hold
 * together (shmpi_status_valid).  Strings come back NUL-terminated and
 * printable. */
#include <stdbool.h>
#include <sys/stat.h>
bool shmpi_status_read(const char *path, struct shmpi_status_page *copy);
/* Whether the fields of a copied page hold together: counts, PE numbers,
 * the wait's kind, team, segment, comparison and size, NUL-terminated
 * strings.  The text routines below rely on it. */
bool shmpi_status_valid(const struct shmpi_status_page *page);
/* Copies of the pages of job `job` in SHMPI_STATUS_DIR whose process lives,
 * in PE order, in *page (malloc'd: free it); returns how many. */
int shmpi_status_load(const char *job, struct shmpi_status_page **page);
/* Whether the process of a page lives (on this machine's PID namespace). */
bool shmpi_status_alive(const struct shmpi_status_page *page);
/* Calls visit(path, page, st, arg) for each status page of SHMPI_STATUS_DIR
 * (as shmpi_status_read finds them; st: its file's) whose job id starts with
 * job_prefix ("": every page), until it returns false. */
typedef bool (*shmpi_status_visitor)(const char *path, const struct shmpi_status_page *page,
                                     const struct stat *st, void *arg);
void shmpi_status_each(const char *job_prefix, shmpi_status_visitor visit, void *arg);
/* Removes the pages of processes that died without shmem_finalize (an
 * abort, a signal), the caller's own only: shmpi_info --jobs, and each
 * node's first PE at start-up. */
void shmpi_status_sweep(void);
/* One PE's line: "PE 3: in shmem_barrier_all for 2.1 s: ...". */
void shmpi_status_line(const struct shmpi_status_page *page, int n, int i, uint64_t now_ms,
                       char *text, size_t len);
/* The summary, a line per group of PEs that wait for the same PEs (each ends in
 * a newline): "PEs 2-7 wait in shmem_barrier_all for PEs 0-1, which ...". */
void shmpi_status_summary(const struct shmpi_status_page *page, int n, char *text, size_t len);
/* The world PEs PE page[i] waits for (at most max; those of other nodes
 * included where it names them); returns how many. */
int shmpi_status_awaited(const struct shmpi_status_page *page, int n, int i, int *pe, int max);

#endif /* SHMPI_STATUS_PAGE_H */
