/*
 * mpi_rma.c - the MPI window and everything that names it (mpi_rma.h),
 * including what depends on which MPI library shmpi runs on.
 *
 * The window is one dynamic window: both segments of every PE are attached
 * to it, displacements are absolute addresses, and one passive-target
 * epoch (MPI_Win_lock_all) lasts from start-up to finalize.  A job whose
 * every PE maps every PE's segments has no window: it reaches all memory
 * with the CPU (so does a job of one PE; Open MPI 4.1 has no one-sided
 * component for a 1-process dynamic window).
 *
 * shmpi needs MPI-3 RMA and no more, but libraries differ in what their
 * one-sided components do (docs/mpi-implementations.md):
 *
 *  - Open MPI 4.1 with osc/rdma on one node (btl/vader) performs an 8-byte
 *    MPI_Compare_and_swap through the btl's atomics, and one aimed at the
 *    calling process itself dereferences a missing vader endpoint and
 *    crashes (open-mpi/ompi issue 7027).  There every PE's 8-byte atomics
 *    on a word are executed as CPU atomic instructions on that word (vader
 *    emulates them on the owner, or performs them through a mapping), so a
 *    compare-and-swap of a PE on its own word is done by its CPU instead:
 *    it is atomic with the others' MPI ones.  4-byte ones do not use btl
 *    atomics (osc/rdma takes its accumulate lock) and stay in MPI.  Only
 *    before Open MPI 5: 5.0's osc/rdma does a compare-and-swap without btl
 *    atomics as lock, get, compare, put, which a CPU atomic bypasses (lost
 *    updates), and its self compare-and-swap works.
 *  - Open MPI 5.0's osc/rdma loses a remote MPI_Fetch_and_op with MPI_BAND,
 *    MPI_BOR or MPI_BXOR (tests/mpi-bugs/fetch_op_bitwise.c): SHMPI_AMO_OPS
 *    then keeps the compare-and-swap loop for those (src/ops/amo_ops.c).
 *  - Open MPI 5's osc/rdma over btls without hardware atomics (the PyPI
 *    build: no UCX) performs every put, get and AMO as a message the target
 *    must progress, on one node too: the progress thread then runs wherever
 *    the window carries traffic (shmpi_mpi_needs_target_progress).
 *  - Creating the window can fail (Open MPI without an osc component for
 *    dynamic windows: 1 process, or nodes joined only by btl/tcp); shmpi
 *    then ends the job with one line that says so, not MPI's error stack.
 */
#include "shmpi.h"
#include "mpi_rma.h"
#include "heap_alloc.h"
#include "shape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

MPI_Win shmpi_rma_win = MPI_WIN_NULL;
MPI_Aint *shmpi_rma_base[SHMPI_NSEGS];
struct shmpi_pe_set shmpi_rma_reached;

/* The self compare-and-swap of 8-byte words goes to the CPU (see above). */
static bool cas_self_by_cpu;
/* Remote MPI_Fetch_and_op with a bitwise op is lost (see above). */
static bool bitwise_fetch_op_lost;

/* Open MPI's version as major * 100 + minor, from MPI_Get_library_version
 * ("Open MPI v5.0.11, package: ..."; callable before MPI_Init); 0 for
 * another library. */
static int open_mpi_version(void)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int n, major, minor;
    MPI_Get_library_version(version, &n);
    if (sscanf(version, "Open MPI v%d.%d", &major, &minor) == 2)
        return major * 100 + minor;
    return 0;
}

bool shmpi_mpi_needs_target_progress(void)
{
    return open_mpi_version() >= 500;
}

bool shmpi_rma_bitwise_fetch_op_lost(void)
{
    return bitwise_fetch_op_lost;
}

bool shmpi_mpi_any_source_misses_arrived(void)
{
    /* MPICH 5.0.2's ucx netmod never completes an MPI_ANY_SOURCE receive
     * whose message arrived before it was posted, while specific-source
     * receives and MPI_Improbe(MPI_ANY_SOURCE) find it; MPICH 4.0 and the
     * ofi netmod complete it (tests/mpi-bugs/anysource_unexpected.c,
     * docs/mpi-implementations.md).  The netmod in use is the one the
     * environment names under any of MPICH's three spellings of
     * MPIR_CVAR_CH4_NETMOD (case aside), else the first of the build's
     * ("MPICH Device:  ch4:ucx ofi").  (MPI_T reads that variable as ""
     * on 5.0.2 whatever the environment says.) */
    static atomic_int misses = -1; /* (the same answer from every thread) */
    if (misses >= 0)
        return misses;
    char version[MPI_MAX_LIBRARY_VERSION_STRING], netmod[64] = "";
    int n, major;
    MPI_Get_library_version(version, &n);
    const char *device = strstr(version, "MPICH Device:");
    if (sscanf(version, "MPICH Version: %d", &major) != 1 || major < 5 || !device)
        return misses = 0;
    const char *names[] = {"MPIR_CVAR_CH4_NETMOD", "MPIR_PARAM_CH4_NETMOD", "MPICH_CH4_NETMOD"};
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !netmod[0]; i++) {
        const char *set = getenv(names[i]);
        if (set)
            snprintf(netmod, sizeof netmod, "%s", set);
    }
    const char *first = strstr(device, "ch4:");
    if (!netmod[0] && first && sscanf(first + 4, "%63[a-z]", netmod) != 1)
        netmod[0] = '\0';
    return misses = strcasecmp(netmod, "ucx") == 0;
}

void shmpi_mpi_library(char *text, size_t len)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int n;
    MPI_Get_library_version(version, &n);
    size_t first_line = strcspn(version, "\n");
    while (first_line > 0 && (version[first_line - 1] == ',' || version[first_line - 1] == ' '))
        first_line--;
    /* One space for each run of blanks (MPICH 5: "MPICH Version:  \t5.0.2"). */
    size_t out = 0;
    for (size_t i = 0; i < first_line && out + 1 < len; i++) {
        bool blank = version[i] == ' ' || version[i] == '\t';
        if (!blank || (out > 0 && text[out - 1] != ' '))
            text[out++] = blank ? ' ' : version[i];
    }
    if (len > 0)
        text[out] = '\0';
}

static void win_create(MPI_Info info)
{
    /* Errors of this one call are reported by shmpi (then fatal again). */
    MPI_Comm_set_errhandler(shmpi_g.comm, MPI_ERRORS_RETURN);
    int rc = MPI_Win_create_dynamic(info, shmpi_g.comm, &shmpi_rma_win);
    MPI_Comm_set_errhandler(shmpi_g.comm, MPI_ERRORS_ARE_FATAL);
    if (rc != MPI_SUCCESS) {
        char library[160], error[MPI_MAX_ERROR_STRING];
        int len;
        shmpi_mpi_library(library, sizeof library);
        MPI_Error_string(rc, error, &len);
        shmpi_abort("shmem_init",
                    "%s cannot create an MPI dynamic window over these %d PEs (%s)%s",
                    library, shmpi_g.n_pes, error,
#ifdef OPEN_MPI
                    ": no one-sided component (osc) takes it; Open MPI needs osc/rdma, "
                    "which needs a btl with RDMA between every pair of PEs (vader on one "
                    "node); see OMPI_MCA_osc and OMPI_MCA_btl"
#else
                    ""
#endif
        );
    }
    MPI_Win_set_errhandler(shmpi_rma_win, MPI_ERRORS_ARE_FATAL);
}

static void create_window(void)
{
    MPI_Info info;
    MPI_Info_create(&info);
    /* shmpi never relies on the order of accumulates: blocking AMOs complete
     * before returning and fence/quiet flush (MPI-3 11.7.2). */
    MPI_Info_set(info, "accumulate_ordering", "none");
    /* AMOs use MPI_Compare_and_swap and MPI_Fetch_and_op(MPI_NO_OP), and at
     * most one other op on words no compare-and-swap touches (SHMPI_AMO_OPS),
     * so the default same_op_no_op holds (src/ops/amo.c). */
    MPI_Info_set(info, "accumulate_ops", "same_op_no_op");
    MPI_Info_set(info, "which_accumulate_ops", shmpi_g.env.amo_window_ops);
    /* Attach happens at the same point on every PE (MPICH may use this to
     * exchange memory keys once). */
    MPI_Info_set(info, "coll_attach", "true");
    win_create(info);
    MPI_Info_free(&info);
}

/* Chooses the library-specific paths (after the window and the job's shape). */
static void library_init(void)
{
    cas_self_by_cpu = bitwise_fetch_op_lost = false;
#ifdef OPEN_MPI
    /* Open MPI names a window after its osc component ("rdma window 3"). */
    if (shmpi_rma_win != MPI_WIN_NULL) {
        char name[MPI_MAX_OBJECT_NAME];
        int len;
        MPI_Win_get_name(shmpi_rma_win, name, &len);
        bool rdma = strncmp(name, "rdma", 4) == 0;
        int version = open_mpi_version();
        cas_self_by_cpu = rdma && version < 500 && !shmpi_job_spans_nodes();
        bitwise_fetch_op_lost = rdma && version >= 500;
    }
#endif
}

void shmpi_rma_init(void)
{
    int n = shmpi_g.n_pes;
    shmpi_rma_win = MPI_WIN_NULL;
    /* Where every PE maps every segment of every PE, nothing goes through
     * MPI: no window (creating one is a collective that took longer than
     * the rest of start-up with more PEs than CPUs). */
    if (n > 1 && !shmpi_job_all_mapped()) {
        if (!shmpi_rma_reached.bits)
            shmpi_pe_set_init(&shmpi_rma_reached, "the PEs reached");
        create_window();
        for (int s = 0; s < SHMPI_NSEGS; s++)
            MPI_Win_attach(shmpi_rma_win, shmpi_g.seg[s].base, (MPI_Aint)shmpi_g.seg[s].size);
    }
    /* Where every PE's segments are: from the start-up cards. */
    for (int s = 0; s < SHMPI_NSEGS; s++) {
        shmpi_rma_base[s] = calloc((size_t)n, sizeof(MPI_Aint));
        if (!shmpi_rma_base[s])
            shmpi_abort("shmem_init", "out of memory for %d PEs' segment tables", n);
        for (int pe = 0; pe < n; pe++)
            shmpi_rma_base[s][pe] = (MPI_Aint)shmpi_shape.cards[pe].seg_base[s];
    }
    if (shmpi_rma_win != MPI_WIN_NULL)
        MPI_Win_lock_all(MPI_MODE_NOCHECK, shmpi_rma_win);
    library_init();
}

void shmpi_rma_reached_free(void)
{
    shmpi_pe_set_fini(&shmpi_rma_reached);
}

void shmpi_rma_fini(void)
{
    if (shmpi_rma_win != MPI_WIN_NULL) {
        MPI_Win_unlock_all(shmpi_rma_win);
        for (int s = 0; s < SHMPI_NSEGS; s++)
            MPI_Win_detach(shmpi_rma_win, shmpi_g.seg[s].base);
        MPI_Win_free(&shmpi_rma_win);
    }
    for (int s = 0; s < SHMPI_NSEGS; s++) {
        free(shmpi_rma_base[s]);
        shmpi_rma_base[s] = NULL;
    }
}

void shmpi_rma_compare_and_swap(const void *value, const void *compare, void *result,
                                MPI_Datatype type, size_t size, int pe, MPI_Aint disp)
{
    shmpi_rma_reach(pe);
    if (SHMPI_UNLIKELY(cas_self_by_cpu) && size == 8 && pe == shmpi_g.my_pe) {
        /* A dynamic window's displacement is the address. */
        _Atomic uint64_t *word = (_Atomic uint64_t *)(uintptr_t)disp;
        uint64_t expected, desired;
        memcpy(&expected, compare, 8);
        memcpy(&desired, value, 8);
        atomic_compare_exchange_strong(word, &expected, desired);
        memcpy(result, &expected, 8);
        return;
    }
    MPI_Compare_and_swap(value, compare, result, type, pe, disp, shmpi_rma_win);
}

const char *shmpi_rma_window_text(void)
{
    static char text[MPI_MAX_OBJECT_NAME + 96];
    if (shmpi_rma_win == MPI_WIN_NULL)
        return "none (every PE maps all memory: every access is a CPU access)";
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Win_get_name(shmpi_rma_win, name, &len);
    snprintf(text, sizeof text, "dynamic (%s)%s", len > 0 ? name : "unnamed",
             cas_self_by_cpu ? ", 8-byte compare-and-swap on a PE's own word by its CPU" : "");
    return text;
}
