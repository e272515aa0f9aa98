/*
 * setup.c - library setup, exit and query routines (spec: Library Setup,
 * Exit, and Query Routines; Thread Support).
 */
#define SHMPI_DEFINES_setup SHMPI_HERE /* weak shmem_ names of this chapter here */
#include "shmpi.h"
#include "device_heap.h"
#include "runtime.h"
#include "coll.h"
#include "window.h"

#include <string.h>

void shmem_init(void)
{
    shmpi_init(__func__, SHMEM_THREAD_SINGLE);
}

int shmem_init_thread(int requested, int *provided)
{
    int level = shmpi_init(__func__, requested);
    if (provided)
        *provided = level;
    return 0;
}

void start_pes(int npes)
{
    (void)npes; /* ignored since OpenSHMEM 1.2: the launcher decides */
    /* Legacy programs call start_pes again once initialized and finalize
     * once or never: a repeated start_pes opens no nested init (which would
     * leave the program's one shmem_finalize without effect). */
    if (atomic_load(&shmpi_g.init_state) == SHMPI_STATE_READY)
        return;
    shmpi_init(__func__, SHMEM_THREAD_SINGLE);
}

void shmem_query_thread(int *provided)
{
    shmpi_check_ready(__func__);
    if (provided)
        *provided = shmpi_g.thread_level;
}

void shmem_finalize(void)
{
    shmpi_finalize();
}

void shmem_global_exit(int status)
{
    shmpi_global_exit(status);
}

/* The PE queries, under the current names and the pre-1.2 ones (each names
 * itself if shmpi is not initialized). */
#define DEFINE_PE_QUERY(NAME, FIELD)                                                          \
    int NAME(void)                                                                            \
    {                                                                                         \
        shmpi_check_ready(__func__);                                                          \
        return shmpi_g.FIELD;                                                                 \
    }
DEFINE_PE_QUERY(shmem_my_pe, my_pe)
DEFINE_PE_QUERY(shmem_n_pes, n_pes)
DEFINE_PE_QUERY(_my_pe, my_pe)
DEFINE_PE_QUERY(_num_pes, n_pes)

int shmem_pe_accessible(int pe)
{
    shmpi_check_ready(__func__);
    return pe >= 0 && pe < shmpi_g.n_pes;
}

int shmem_addr_accessible(const void *addr, int pe)
{
    shmpi_check_ready(__func__);
    return pe >= 0 && pe < shmpi_g.n_pes &&
           /* this PE's device memory: every PE's is reached, mapped or not */
           (shmpi_symm_segment(addr, 1) >= 0 ||
            shmpi_device_ptr(addr, shmpi_g.my_pe) != NULL);
}

void *shmem_ptr(const void *dest, int pe)
{
    shmpi_check_ready(__func__);
    if (pe < 0 || pe >= shmpi_g.n_pes)
        return NULL;
    if (shmpi_symm_segment(dest, 1) < 0) /* the peer's device address, or NULL: */
        return shmpi_device_ptr(dest, pe);   /* not symmetric is no error here */
    return shmpi_symm_target(__func__, dest, 1, pe).mapped;
}

void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe)
{
    shmpi_check_ready(__func__);
    if (team == SHMEM_TEAM_INVALID) /* 1.6: a null pointer */
        return NULL;
    struct shmpi_team *t = shmpi_team_get(__func__, team);
    if (pe < 0 || pe >= t->n_pes)
        return NULL;
    return shmem_ptr(dest, t->world_pe ? t->world_pe[pe] : pe);
}

void shmem_query_initialized(int *initialized)
{
    if (initialized)
        *initialized = atomic_load(&shmpi_g.init_state) == SHMPI_STATE_READY;
}

void shmem_info_get_version(int *major, int *minor)
{
    if (major)
        *major = SHMEM_MAJOR_VERSION;
    if (minor)
        *minor = SHMEM_MINOR_VERSION;
}

void shmem_info_get_name(char *name)
{
    if (name) {
        strncpy(name, SHMEM_VENDOR_STRING, SHMEM_MAX_NAME_LEN - 1);
        name[SHMEM_MAX_NAME_LEN - 1] = '\0';
    }
}

/* The levels are for profiling tools, which intercept this routine (see
 * docs/profiling.md): 0 or less disables profiling, 1 (the level at start)
 * profiles at the tool's default detail, 2 also flushes its buffers, and
 * greater levels are the tool's own, with arguments of its choosing.  The
 * library itself has nothing to profile, so its version does nothing. */
void shmem_pcontrol(int level, ...)
{
    (void)level;
}
