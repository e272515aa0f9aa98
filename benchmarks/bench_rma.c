/*
 * bench_rma.c - latency, bandwidth and message rate of shmpi's RMA, each
 * next to the references it is judged by, measured in the same run:
 *
 *   memcpy  the same copy done by the CPU between the two processes: into
 *           or out of the peer's heap buffer mapped here (shmem_ptr).  This
 *           is exactly what an on-node put/get can at best cost.  Only when
 *           the peer's heap is mapped (not under SHMPI_MPI_ONLY).
 *   MPI     the same operation in raw MPI on a window of this program's
 *           own (MPI_Win_create_dynamic + attach + lock_all): MPI_Put +
 *           MPI_Win_flush_local (blocking put), MPI_Get + MPI_Win_flush
 *           (blocking get), 64 x MPI_Put/MPI_Get + MPI_Win_flush_all
 *           (nbi window + quiet).
 *
 * PEs form pairs (i, i + npes/2); the first PE of each pair is the
 * initiator, all pairs run at once (a run's time is the slowest pair's).
 * Tables: put, get (blocking), put_nbi and get_nbi (64 per shmem_quiet;
 * per-op numbers are per transfer), sizes 8 B .. 4 MiB (x4 steps plus
 * 1 MiB and 4 MiB); shmem_long_p / shmem_long_g; and the 8-byte
 * put+quiet ping-pong (half round trip) against a cache-line ping-pong
 * (C11 atomics through shmem_ptr) and an MPI_Put+MPI_Win_flush ping-pong.
 */
#include "bench.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define NBI_WINDOW 64

struct xfer {
    char *sym;         /* symmetric buffer (this PE's address: the target's copy is used) */
    char *peer_sym;    /* the peer's copy mapped here (shmem_ptr), or NULL */
    char *loc;         /* private buffer: source of puts, destination of gets */
    size_t size;
    int peer;
    struct bench_win *w;
};

static volatile long sink;

/* ---- blocking put/get ------------------------------------------------------------------ */
static void put_shmpi(void *arg, long n)
{
    struct xfer *x = arg;
    for (long i = 0; i < n; i++)
        shmem_putmem(x->sym, x->loc, x->size, x->peer);
}

static void put_memcpy(void *arg, long n)
{
    struct xfer *x = arg;
    for (long i = 0; i < n; i++) {
        memcpy(x->peer_sym, x->loc, x->size);
        BENCH_CLOBBER();
    }
}

static void put_mpi(void *arg, long n)
{
    struct xfer *x = arg;
    for (long i = 0; i < n; i++) {
        MPI_Put(x->loc, (int)x->size, MPI_BYTE, x->peer, x->w->disp[x->peer], (int)x->size,
                MPI_BYTE, x->w->win);
        MPI_Win_flush_local(x->peer, x->w->win);
    }
}

static void get_shmpi(void *arg, long n)
{
    struct xfer *x = arg;
    for (long i = 0; i < n; i++)
        shmem_getmem(x->loc, x->sym, x->size, x->peer);
}

static void get_memcpy(void *arg, long n)
{
    struct xfer *x = arg;
    for (long i = 0; i < n; i++) {
        memcpy(x->loc, x->peer_sym, x->size);
        BENCH_CLOBBER();
    }
}

static void get_mpi(void *arg, long n)
{
    struct xfer *x = arg;
    for (long i = 0; i < n; i++) {
        MPI_Get(x->loc, (int)x->size, MPI_BYTE, x->peer, x->w->disp[x->peer], (int)x->size,
                MPI_BYTE, x->w->win);
        MPI_Win_flush(x->peer, x->w->win);
    }
}

/* Diagnostic: the blocking transfer as request-based RMA, waited for with
 * MPI_Test, and sched_yield after 16 tries when PEs outnumber CPUs
 * (bench_wait_yield), instead of MPI_Win_flush*, which spins inside MPI
 * without yielding.  With more PEs than cores the target of an MPI
 * operation needs the CPU to progress it, so how the origin waits decides
 * the latency. */
static void put_mpi_req(void *arg, long n)
{
    struct xfer *x = arg;
    for (long i = 0; i < n; i++) {
        MPI_Request req;
        MPI_Rput(x->loc, (int)x->size, MPI_BYTE, x->peer, x->w->disp[x->peer], (int)x->size,
                 MPI_BYTE, x->w->win, &req);
        bench_wait_yield(&req);
    }
}

static void get_mpi_req(void *arg, long n)
{
    struct xfer *x = arg;
    for (long i = 0; i < n; i++) {
        MPI_Request req;
        MPI_Rget(x->loc, (int)x->size, MPI_BYTE, x->peer, x->w->disp[x->peer], (int)x->size,
                 MPI_BYTE, x->w->win, &req);
        bench_wait_yield(&req);
    }
}

/* ---- non-blocking: NBI_WINDOW transfers, then completion -------------------------------- */
static void put_nbi_shmpi(void *arg, long n)
{
    struct xfer *x = arg;
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < NBI_WINDOW; k++)
            shmem_putmem_nbi(x->sym, x->loc, x->size, x->peer);
        shmem_quiet();
    }
}

static void put_nbi_memcpy(void *arg, long n)
{
    struct xfer *x = arg;
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < NBI_WINDOW; k++) {
            memcpy(x->peer_sym, x->loc, x->size);
            BENCH_CLOBBER();
        }
        atomic_thread_fence(memory_order_seq_cst);
    }
}

static void put_nbi_mpi(void *arg, long n)
{
    struct xfer *x = arg;
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < NBI_WINDOW; k++)
            MPI_Put(x->loc, (int)x->size, MPI_BYTE, x->peer, x->w->disp[x->peer],
                    (int)x->size, MPI_BYTE, x->w->win);
        MPI_Win_flush_all(x->w->win);
    }
}

static void get_nbi_shmpi(void *arg, long n)
{
    struct xfer *x = arg;
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < NBI_WINDOW; k++)
            shmem_getmem_nbi(x->loc, x->sym, x->size, x->peer);
        shmem_quiet();
    }
}

static void get_nbi_memcpy(void *arg, long n)
{
    struct xfer *x = arg;
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < NBI_WINDOW; k++) {
            memcpy(x->loc, x->peer_sym, x->size);
            BENCH_CLOBBER();
        }
        atomic_thread_fence(memory_order_seq_cst);
    }
}

static void get_nbi_mpi(void *arg, long n)
{
    struct xfer *x = arg;
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < NBI_WINDOW; k++)
            MPI_Get(x->loc, (int)x->size, MPI_BYTE, x->peer, x->w->disp[x->peer],
                    (int)x->size, MPI_BYTE, x->w->win);
        MPI_Win_flush_all(x->w->win);
    }
}

/* ---- single elements: p and g ----------------------------------------------------------- */
static void p_shmpi(void *arg, long n)
{
    struct xfer *x = arg;
    for (long i = 0; i < n; i++)
        shmem_long_p((long *)x->sym, i, x->peer);
}

static void p_store(void *arg, long n)
{
    struct xfer *x = arg;
    volatile long *p = (volatile long *)x->peer_sym;
    for (long i = 0; i < n; i++)
        *p = i;
}

static void p_mpi(void *arg, long n)
{
    struct xfer *x = arg;
    for (long i = 0; i < n; i++) {
        long v = i;
        MPI_Put(&v, 1, MPI_LONG, x->peer, x->w->disp[x->peer], 1, MPI_LONG, x->w->win);
        MPI_Win_flush_local(x->peer, x->w->win);
    }
}

static void g_shmpi(void *arg, long n)
{
    struct xfer *x = arg;
    long s = 0;
    for (long i = 0; i < n; i++)
        s += shmem_long_g((long *)x->sym, x->peer);
    sink = s;
}

static void g_load(void *arg, long n)
{
    struct xfer *x = arg;
    volatile long *p = (volatile long *)x->peer_sym;
    long s = 0;
    for (long i = 0; i < n; i++)
        s += *p;
    sink = s;
}

static void g_mpi(void *arg, long n)
{
    struct xfer *x = arg;
    long s = 0;
    for (long i = 0; i < n; i++) {
        long v;
        MPI_Get(&v, 1, MPI_LONG, x->peer, x->w->disp[x->peer], 1, MPI_LONG, x->w->win);
        MPI_Win_flush(x->peer, x->w->win);
        s += v;
    }
    sink = s;
}

/* ---- ping-pong: one call = one round trip, reported per one-way trip ----------------------
 * The initiator sends seq, the responder waits for it and sends it back.
 * Each variant has its own flag word (one per PE, on its own cache line)
 * and sequence counter, kept across calls. */
struct pingpong {
    bool initiator;
    int peer;
    long seq;
    long *flag;               /* shmpi: symmetric, this PE's copy */
    _Atomic long *my_line;    /* cache line: this PE's flag (symmetric heap) */
    _Atomic long *peer_line;  /* the peer's flag, mapped here (shmem_ptr) */
    struct bench_win *w;      /* MPI: flag at offset flag_off of each PE's region */
    MPI_Aint flag_off;
};

static void pp_shmpi(void *arg, long n)
{
    struct pingpong *p = arg;
    for (long i = 0; i < n; i++) {
        long seq = ++p->seq;
        if (p->initiator) {
            shmem_long_put(p->flag, &seq, 1, p->peer);
            shmem_quiet();
            shmem_long_wait_until(p->flag, SHMEM_CMP_GE, seq);
        } else {
            shmem_long_wait_until(p->flag, SHMEM_CMP_GE, seq);
            shmem_long_put(p->flag, &seq, 1, p->peer);
            shmem_quiet();
        }
    }
}

static void pp_cacheline(void *arg, long n)
{
    struct pingpong *p = arg;
    for (long i = 0; i < n; i++) {
        long seq = ++p->seq;
        if (p->initiator) {
            atomic_store_explicit(p->peer_line, seq, memory_order_release);
            bench_line_wait(p->my_line, seq, BENCH_SPINS_BEFORE_YIELD);
        } else {
            bench_line_wait(p->my_line, seq, BENCH_SPINS_BEFORE_YIELD);
            atomic_store_explicit(p->peer_line, seq, memory_order_release);
        }
    }
}

/* The raw MPI version waits like shmpi does: look at the local word, drive
 * progress (MPI_Iprobe), yield after 16 tries. */
static void mpi_flag_wait(struct pingpong *p, long seq)
{
    _Atomic long *flag = (_Atomic long *)(p->w->base + p->flag_off);
    unsigned spins = 0;
    while (atomic_load_explicit(flag, memory_order_acquire) < seq) {
        int msg;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, bench_job.comm, &msg, MPI_STATUS_IGNORE);
        if (++spins >= 16)
            sched_yield();
    }
}

static void mpi_flag_put(struct pingpong *p, long seq)
{
    MPI_Put(&seq, 1, MPI_LONG, p->peer, p->w->disp[p->peer] + p->flag_off, 1, MPI_LONG,
            p->w->win);
    MPI_Win_flush(p->peer, p->w->win);
}

static void pp_mpi(void *arg, long n)
{
    struct pingpong *p = arg;
    for (long i = 0; i < n; i++) {
        long seq = ++p->seq;
        if (p->initiator) {
            mpi_flag_put(p, seq);
            mpi_flag_wait(p, seq);
        } else {
            mpi_flag_wait(p, seq);
            mpi_flag_put(p, seq);
        }
    }
}

/* Diagnostics: the cache-line ping-pong waiting the way shmpi waits
 * (src/wait/progress.c: MPI_Iprobe on every try, sched_yield after 16), and
 * the MPI ping-pong with shmpi's MPI sequence for put + quiet
 * (MPI_Put + MPI_Win_flush_local + MPI_Win_flush_all).  When shmpi matches
 * one of them, that is where its time goes. */
static void line_wait_probe(_Atomic long *flag, long seq)
{
    unsigned spins = 0;
    while (atomic_load_explicit(flag, memory_order_acquire) < seq) {
        int msg;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, bench_job.comm, &msg, MPI_STATUS_IGNORE);
        if (++spins >= 16)
            sched_yield();
    }
}

static void pp_line_probe(void *arg, long n)
{
    struct pingpong *p = arg;
    for (long i = 0; i < n; i++) {
        long seq = ++p->seq;
        if (p->initiator) {
            atomic_store_explicit(p->peer_line, seq, memory_order_release);
            line_wait_probe(p->my_line, seq);
        } else {
            line_wait_probe(p->my_line, seq);
            atomic_store_explicit(p->peer_line, seq, memory_order_release);
        }
    }
}

static void mpi_flag_put_twice(struct pingpong *p, long seq)
{
    MPI_Put(&seq, 1, MPI_LONG, p->peer, p->w->disp[p->peer] + p->flag_off, 1, MPI_LONG,
            p->w->win);
    MPI_Win_flush_local(p->peer, p->w->win);
    MPI_Win_flush_all(p->w->win);
}

static void pp_mpi_shmpi_seq(void *arg, long n)
{
    struct pingpong *p = arg;
    for (long i = 0; i < n; i++) {
        long seq = ++p->seq;
        if (p->initiator) {
            mpi_flag_put_twice(p, seq);
            mpi_flag_wait(p, seq);
        } else {
            mpi_flag_wait(p, seq);
            mpi_flag_put_twice(p, seq);
        }
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ---- tables -------------------------------------------------------------------------------- */
struct op {
    const char *name, *title;
    bench_fn shmpi, memcpy, mpi;
    int per_call;
    const char *memcpy_name;
};

static const struct op ops[] = {
    {"put", "put: shmem_putmem (blocking) | memcpy into the peer's heap (shmem_ptr) | "
            "MPI_Put + MPI_Win_flush_local",
     put_shmpi, put_memcpy, put_mpi, 1, "memcpy"},
    {"get", "get: shmem_getmem (blocking) | memcpy from the peer's heap (shmem_ptr) | "
            "MPI_Get + MPI_Win_flush",
     get_shmpi, get_memcpy, get_mpi, 1, "memcpy"},
    {"put_nbi", "put_nbi: 64 x shmem_putmem_nbi + shmem_quiet, per transfer | 64 x memcpy + "
                "fence | 64 x MPI_Put + MPI_Win_flush_all",
     put_nbi_shmpi, put_nbi_memcpy, put_nbi_mpi, NBI_WINDOW, "memcpy"},
    {"get_nbi", "get_nbi: 64 x shmem_getmem_nbi + shmem_quiet, per transfer | 64 x memcpy + "
                "fence | 64 x MPI_Get + MPI_Win_flush_all",
     get_nbi_shmpi, get_nbi_memcpy, get_nbi_mpi, NBI_WINDOW, "memcpy"},
};
#define N_OPS ((int)(sizeof ops / sizeof ops[0]))
#define MAX_SIZES 32

int main(int argc, char **argv)
{
    bench_init(argc, argv, "bench_rma",
               "put/get/put_nbi/get_nbi/p/g and 8-byte put+quiet ping-pong vs memcpy and "
               "cache-line ping-pong through shmem_ptr and vs raw MPI RMA on a window of its "
               "own");
    int me = bench_job.me, npes = bench_job.npes;
    if (npes < 2) {
        bench_printf("# bench_rma needs at least 2 PEs\n");
        bench_finalize();
        return 0;
    }
    int half = npes / 2;
    bool initiator = me < half;
    bool active = me < 2 * half; /* the last PE of an odd job only synchronizes */
    int peer = !active ? me : initiator ? me + half : me - half;
    bench_printf("# pairs: PE i -> PE i+%d for i < %d (%d pair%s at once)%s\n", half, half,
                 half, half > 1 ? "s" : "", npes % 2 ? "; the last PE idles" : "");

    size_t sizes[MAX_SIZES];
    int n_sizes = 0;
    for (size_t s = 8; s <= bench_cfg.max_size && n_sizes < MAX_SIZES - 2; s *= 4) {
        sizes[n_sizes++] = s;
        /* 1 MiB and 4 MiB (targets, plot) fall between the x4 steps from 8 B. */
        size_t extra = s * 2;
        if ((extra == ((size_t)1 << 20) || extra == ((size_t)4 << 20)) &&
            extra <= bench_cfg.max_size)
            sizes[n_sizes++] = extra;
    }
    size_t max = sizes[n_sizes - 1];

    char *sym = shmem_malloc(max);
    long *flags = shmem_calloc(64, sizeof(long)); /* [0]: p/g word, [8]: ping-pong, [16]: line */
    char *loc = aligned_alloc(4096, (max + 4095) / 4096 * 4096);
    if (!sym || !flags || !loc) {
        fprintf(stderr, "bench_rma: PE %d: cannot allocate %zu-byte buffers\n", me, max);
        shmem_global_exit(1);
    }
    memset(sym, 1, max);
    memset(loc, 2, max);
    struct bench_win w;
    bench_win_create(&w, max + 4096, NULL);
    shmem_barrier_all();

    char *peer_sym = active && peer != me ? shmem_ptr(sym, peer) : NULL;
    bool have_memcpy = bench_all(!initiator || peer_sym != NULL);
    bench_printf("# peer heap mapped (shmem_ptr): %s\n",
                 have_memcpy ? "yes: memcpy/C11 references measured"
                             : "no: memcpy/C11 references not available");
    int judge = have_memcpy ? 1 : 2;

    struct xfer x = {sym, peer_sym, loc, 0, peer, &w};
    struct bench_stat st[N_OPS][MAX_SIZES][3];
    for (int o = 0; o < N_OPS; o++) {
        const struct op *op = &ops[o];
        struct bench_variant v[3] = {
            {"shmpi", initiator ? op->shmpi : NULL, &x, op->per_call, 0, true},
            {op->memcpy_name, initiator ? op->memcpy : NULL, &x, op->per_call, 0, have_memcpy},
            {"MPI", initiator ? op->mpi : NULL, &x, op->per_call, 0, true},
        };
        bench_table_head(op->title, v, 3, judge, true);
        FILE *dat = bench_dat_open(op->name);
        if (dat)
            fprintf(dat, "# bytes shmpi_GBps memcpy_GBps mpi_GBps shmpi_us memcpy_us mpi_us "
                         "(medians; - = not measured)\n");
        for (int s = 0; s < n_sizes; s++) {
            x.size = sizes[s];
            for (int i = 0; i < 3; i++)
                v[i].bytes = sizes[s];
            bench_run(v, 3, st[o][s]);
            bench_table_row(sizes[s], v, st[o][s], 3, true);
            if (dat) {
                fprintf(dat, "%zu", sizes[s]);
                for (int i = 0; i < 3; i++)
                    if (st[o][s][i].valid)
                        fprintf(dat, " %.4f", (double)sizes[s] / st[o][s][i].med / 1e9);
                    else
                        fprintf(dat, " -");
                for (int i = 0; i < 3; i++)
                    if (st[o][s][i].valid)
                        fprintf(dat, " %.4f", st[o][s][i].med * 1e6);
                    else
                        fprintf(dat, " -");
                fprintf(dat, "\n");
            }
        }
        if (dat)
            fclose(dat);
    }

    /* p and g */
    struct xfer xe = {(char *)&flags[0], peer_sym ? shmem_ptr(&flags[0], peer) : NULL, loc, 8,
                      peer, &w};
    struct bench_stat pst[3], gst[3];
    {
        struct bench_variant v[3] = {
            {"shmpi", initiator ? p_shmpi : NULL, &xe, 1, 8, true},
            {"store", initiator ? p_store : NULL, &xe, 1, 8, have_memcpy},
            {"MPI", initiator ? p_mpi : NULL, &xe, 1, 8, true},
        };
        bench_table_head("p: shmem_long_p | volatile store into the peer's heap (shmem_ptr) | "
                         "MPI_Put(1 long) + MPI_Win_flush_local",
                         v, 3, judge, false);
        bench_run(v, 3, pst);
        bench_table_row(8, v, pst, 3, false);
        struct bench_variant g[3] = {
            {"shmpi", initiator ? g_shmpi : NULL, &xe, 1, 8, true},
            {"load", initiator ? g_load : NULL, &xe, 1, 8, have_memcpy},
            {"MPI", initiator ? g_mpi : NULL, &xe, 1, 8, true},
        };
        bench_table_head("g: shmem_long_g | volatile load from the peer's heap (shmem_ptr) | "
                         "MPI_Get(1 long) + MPI_Win_flush",
                         g, 3, judge, false);
        bench_run(g, 3, gst);
        bench_table_row(8, g, gst, 3, false);
    }

    /* how the origin waits for MPI (diagnostic) */
    {
        struct xfer xd = x;
        xd.size = 8;
        struct bench_stat dst[3];
        struct bench_variant v[3] = {
            {"shmpi", initiator ? put_shmpi : NULL, &xd, 1, 8, true},
            {"MPI", initiator ? put_mpi : NULL, &xd, 1, 8, true},
            {"MPI-req", initiator ? put_mpi_req : NULL, &xd, 1, 8, true},
        };
        bench_table_head("diagnostic, 8 B blocking put: shmem_putmem | MPI_Put + "
                         "MPI_Win_flush_local (spins in MPI) | MPI_Rput + MPI_Test, "
                         "sched_yield after 16 tries",
                         v, 3, 1, false);
        bench_run(v, 3, dst);
        bench_table_row(8, v, dst, 3, false);
        struct bench_variant g[3] = {
            {"shmpi", initiator ? get_shmpi : NULL, &xd, 1, 8, true},
            {"MPI", initiator ? get_mpi : NULL, &xd, 1, 8, true},
            {"MPI-req", initiator ? get_mpi_req : NULL, &xd, 1, 8, true},
        };
        bench_table_head("diagnostic, 8 B blocking get: shmem_getmem | MPI_Get + "
                         "MPI_Win_flush (spins in MPI) | MPI_Rget + MPI_Test, "
                         "sched_yield after 16 tries",
                         g, 3, 1, false);
        bench_run(g, 3, dst);
        bench_table_row(8, g, dst, 3, false);
    }

    /* ping-pong */
    struct bench_stat ppst[5];
    {
        struct pingpong pp = {initiator, peer, 0, &flags[8], NULL, NULL, &w, (MPI_Aint)max};
        struct pingpong pl = pp, pq = pp, pm = pp, pm2 = pp;
        pl.my_line = (_Atomic long *)&flags[16];
        pl.peer_line = peer_sym ? shmem_ptr(&flags[16], peer) : NULL;
        pq.my_line = (_Atomic long *)&flags[24];
        pq.peer_line = peer_sym ? shmem_ptr(&flags[24], peer) : NULL;
        pm2.flag_off = (MPI_Aint)max + 64;
        struct bench_variant v[5] = {
            {"shmpi", active ? pp_shmpi : NULL, &pp, 2, 8, true},
            {"cacheline", active ? pp_cacheline : NULL, &pl, 2, 8, have_memcpy},
            {"MPI", active ? pp_mpi : NULL, &pm, 2, 8, true},
            {"line+probe", active ? pp_line_probe : NULL, &pq, 2, 8, have_memcpy},
            {"MPI+fl_loc", active ? pp_mpi_shmpi_seq : NULL, &pm2, 2, 8, true},
        };
        bench_table_head("ping-pong, half round trip: shmem_long_put(8 B) + shmem_quiet, "
                         "shmem_long_wait_until | C11 atomic store/load of a flag through "
                         "shmem_ptr | MPI_Put + MPI_Win_flush, poll + MPI_Iprobe | diagnostics: "
                         "line+probe = cacheline waiting like shmpi (MPI_Iprobe per poll, yield "
                         "after 16); MPI+fl_loc = MPI with shmpi's sequence (MPI_Put + "
                         "MPI_Win_flush_local + MPI_Win_flush_all)",
                         v, 5, judge, false);
        bench_run(v, 5, ppst);
        bench_table_row(8, v, ppst, 5, false);
    }

    /* targets and the known facts */
    int i1m = -1;
    for (int s = 0; s < n_sizes; s++)
        if (sizes[s] == ((size_t)1 << 20))
            i1m = s;
    if (have_memcpy) {
        bench_target("8 B put+quiet ping-pong / cache-line ping-pong", bench_ratio(&ppst[0], &ppst[1]),
                     2.0, "x");
        if (i1m >= 0) {
            bench_target("1 MiB put / memcpy", bench_ratio(&st[0][i1m][0], &st[0][i1m][1]), 1.25,
                         "x");
            bench_target("1 MiB get / memcpy", bench_ratio(&st[1][i1m][0], &st[1][i1m][1]), 1.25,
                         "x");
        }
        bench_printf("\n## known facts (issue) vs this run\n");
        bench_printf("# cache-line flag one-way: %.0f ns (issue: 60-160 ns)\n",
                     ppst[1].med * 1e9);
        if (i1m >= 0)
            bench_printf("# 1 MiB memcpy between processes: put %.1f GB/s, get %.1f GB/s "
                         "(issue: 13-16 GB/s)\n",
                         (double)(1 << 20) / st[0][i1m][1].med / 1e9,
                         (double)(1 << 20) / st[1][i1m][1].med / 1e9);
        bench_printf("# raw MPI 8 B MPI_Put+flush_local: %.2f us (issue: 1.3 us)\n",
                     st[0][0][2].med * 1e6);
    } else {
        /* MPI path: every operation within 1.1x of the same thing in raw MPI. */
        for (int o = 0; o < N_OPS; o++) {
            double worst = -1, r[MAX_SIZES];
            int n = 0;
            size_t at = 0;
            for (int s = 0; s < n_sizes; s++) {
                r[n] = bench_ratio(&st[o][s][0], &st[o][s][2]);
                if (r[n] < 0)
                    continue;
                if (r[n] > worst) {
                    worst = r[n];
                    at = sizes[s];
                }
                n++;
            }
            /* The median over the sizes says how the path compares; the
             * worst size also catches a run disturbed by the scheduler. */
            qsort(r, (size_t)n, sizeof r[0], cmp_double);
            double med = n == 0 ? -1 : n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
            char what[128], sz[16];
            snprintf(what, sizeof what, "%s / raw MPI, median over %d sizes", ops[o].name, n);
            bench_target(what, med, 1.1, "x");
            snprintf(what, sizeof what, "%s / raw MPI, worst size (%s B)", ops[o].name,
                     bench_size_str(at, sz, sizeof sz));
            bench_target(what, worst, 1.1, "x");
        }
        bench_target("p / raw MPI", bench_ratio(&pst[0], &pst[2]), 1.1, "x");
        bench_target("g / raw MPI", bench_ratio(&gst[0], &gst[2]), 1.1, "x");
        bench_target("8 B put+quiet ping-pong / raw MPI ping-pong",
                     bench_ratio(&ppst[0], &ppst[2]), 1.1, "x");
        bench_printf("\n## known facts (issue) vs this run\n");
        bench_printf("# raw MPI 8 B MPI_Put+flush_local: %.2f us (issue: 1.3 us)\n",
                     st[0][0][2].med * 1e6);
    }

    shmem_barrier_all();
    bench_win_free(&w);
    free(loc);
    shmem_free(flags);
    shmem_free(sym);
    bench_finalize();
    return 0;
}
