/*
 * cuda_driver.c - loads the CUDA driver at run time (cuda_driver.h).
 * Nothing here runs unless a device heap is asked for.
 */
#include "shmpi.h"
#include "cuda_driver.h"

#include <dlfcn.h>
#include <stdio.h>

struct shmpi_cuda shmpi_cuda;

void shmpi_cuda_load(const char *routine)
{
    if (shmpi_cuda.library)
        return;
    const char *name = shmpi_g.env.cuda_library;
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    char problem[512];
    if (!library)
        snprintf(problem, sizeof problem,
                 "SHMPI_DEVICE_HEAP_SIZE asks for a device heap but the CUDA driver "
                 "\"%s\" cannot be loaded (%s); install the NVIDIA driver, set "
                 "SHMPI_CUDA_LIBRARY to its libcuda.so.1, or unset SHMPI_DEVICE_HEAP_SIZE",
                 name, dlerror());
    /* every PE loads it at start-up: a driver missing everywhere is said once */
    shmpi_end_if_any(routine, library ? NULL : problem);
#define SHMPI_CUDA_LOOKUP(MEMBER, SYMBOL, PARAMS)                                             \
    *(void **)&shmpi_cuda.MEMBER = dlsym(library, SYMBOL);                                    \
    if (!shmpi_cuda.MEMBER)                                                                   \
        shmpi_abort(routine,                                                                  \
                    "the CUDA driver \"%s\" has no %s (a driver older than CUDA 11.7?); "     \
                    "set SHMPI_CUDA_LIBRARY to a newer libcuda.so.1",                         \
                    name, SYMBOL);
    SHMPI_CUDA_ENTRIES(SHMPI_CUDA_LOOKUP)
#undef SHMPI_CUDA_LOOKUP
    shmpi_cuda.vmm_missing = NULL;
#define SHMPI_CUDA_LOOKUP_VMM(MEMBER, SYMBOL, PARAMS)                                         \
    *(void **)&shmpi_cuda.MEMBER = dlsym(library, SYMBOL);                                    \
    if (!shmpi_cuda.MEMBER && !shmpi_cuda.vmm_missing)                                        \
        shmpi_cuda.vmm_missing = SYMBOL;
    SHMPI_CUDA_VMM_ENTRIES(SHMPI_CUDA_LOOKUP_VMM)
#undef SHMPI_CUDA_LOOKUP_VMM
    shmpi_cuda.library = library;
    shmpi_cuda_check(routine, "cuInit", shmpi_cuda.init(0));
}

const char *shmpi_cuda_error_text(CUresult result)
{
    const char *text = NULL;
    if (shmpi_cuda.get_error_string)
        shmpi_cuda.get_error_string(result, &text);
    return text ? text : "unknown error";
}

void shmpi_cuda_check(const char *routine, const char *call, CUresult result)
{
    if (SHMPI_LIKELY(result == SHMPI_CUDA_SUCCESS))
        return;
    shmpi_abort(routine, "%s failed: %s (CUDA error %d)", call, shmpi_cuda_error_text(result),
                result);
}
