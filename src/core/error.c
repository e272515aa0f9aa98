/*
 * error.c - the one way shmpi reports misuse: "shmpi: PE n: ROUTINE: ...",
 * then the whole job ends (MPI_Abort), so no PE is left waiting.
 */
#include "shmpi.h"
#include "device_heap.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void vreport(const char *kind, const char *routine, const char *fmt, va_list ap)
{
    char message[1024];
    vsnprintf(message, sizeof(message), fmt, ap);
    if (shmpi_g.n_pes > 0)
        fprintf(stderr, "shmpi: PE %d: %s%s: %s\n", shmpi_g.my_pe, kind, routine, message);
    else
        fprintf(stderr, "shmpi: %s%s: %s\n", kind, routine, message);
    fflush(stderr);
}

/* The launcher forwards our stderr asynchronously and stops reading it
 * once MPI_Abort tears the job down: give the message time to get out. */
static void let_message_out(void)
{
    struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
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

void shmpi_pe_fail(const char *routine, int pe, int n_pes)
{
    shmpi_abort(routine, "PE %d is out of range (valid PEs are 0 to %d)", pe, n_pes - 1);
}

void shmpi_symm_fail(const char *routine, const void *addr, size_t len, int pe)
{
    if (shmpi_device_holds(addr, len)) /* AMOs, signals: only RMA reaches GPU memory */
        shmpi_device_refuse(routine, addr, "address");
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
