/*
 * mpilib.c - what depends on which MPI library shmpi runs on, in one place.
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
 *    atomics (osc/rdma takes its accumulate lock) and stay in MPI.
 *  - Creating the window can fail (Open MPI without an osc component for
 *    dynamic windows: 1 process, or nodes joined only by btl/tcp); shmpi
 *    then ends the job with one line that says so, not MPI's error stack.
 */
#include "shmpi.h"

#include <stdio.h>
#include <string.h>

/* The self compare-and-swap of 8-byte words goes to the CPU (see above). */
static bool cas_self_by_cpu;

void shmpi_mpi_library(char *text, size_t len)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int n;
    MPI_Get_library_version(version, &n);
    size_t first_line = strcspn(version, "\n");
    while (first_line > 0 && (version[first_line - 1] == ',' || version[first_line - 1] == ' '))
        first_line--;
    snprintf(text, len, "%.*s", (int)first_line, version);
    for (char *c = text; *c; c++) /* MPICH: "MPICH Version:\t4.0.2" */
        if (*c == '\t')
            *c = ' ';
}

void shmpi_mpi_win_create(MPI_Info info)
{
    /* Errors of this one call are reported by shmpi (then fatal again). */
    MPI_Comm_set_errhandler(shmpi_g.comm, MPI_ERRORS_RETURN);
    int rc = MPI_Win_create_dynamic(info, shmpi_g.comm, &shmpi_g.win);
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
    MPI_Win_set_errhandler(shmpi_g.win, MPI_ERRORS_ARE_FATAL);
}

void shmpi_mpi_lib_init(void)
{
    cas_self_by_cpu = false;
#ifdef OPEN_MPI
    /* Open MPI names a window after its osc component ("rdma window 3"). */
    if (shmpi_g.win != MPI_WIN_NULL) {
        char name[MPI_MAX_OBJECT_NAME];
        int len;
        MPI_Win_get_name(shmpi_g.win, name, &len);
        cas_self_by_cpu = strncmp(name, "rdma", 4) == 0 && !shmpi_g.spans_nodes;
    }
#endif
}

void shmpi_mpi_compare_and_swap(const void *value, const void *compare, void *result,
                                MPI_Datatype type, size_t size, int pe, MPI_Aint disp)
{
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
    MPI_Compare_and_swap(value, compare, result, type, pe, disp, shmpi_g.win);
}

const char *shmpi_mpi_window_text(void)
{
    static char text[MPI_MAX_OBJECT_NAME + 96];
    if (shmpi_g.win == MPI_WIN_NULL)
        return "none (one PE: every access is local)";
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Win_get_name(shmpi_g.win, name, &len);
    snprintf(text, sizeof text, "dynamic (%s)%s", len > 0 ? name : "unnamed",
             cas_self_by_cpu ? ", 8-byte compare-and-swap on a PE's own word by its CPU" : "");
    return text;
}
