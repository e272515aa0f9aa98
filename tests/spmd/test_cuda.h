/*
 * test_cuda.h - the CUDA driver calls the device tests make themselves
 * (device_stream, device_vmm, stream_reduce): the driver the library loads
 * (SHMPI_CUDA_LIBRARY, else libcuda.so.1; the fake of tests/fake_cuda.c in
 * the suite), opened once more, and the entry points every such test uses.
 * Include after testlib.h and shmemx.h.
 */
#ifndef SHMPI_TEST_CUDA_H
#define SHMPI_TEST_CUDA_H

#include <dlfcn.h>
#include <stdlib.h>

typedef int CUresult;
static CUresult (*cu_memcpy)(unsigned long long dst, unsigned long long src, size_t bytes);
static CUresult (*cu_ctx_synchronize)(void);
static CUresult (*cu_stream_create)(shmemx_stream_t *stream, unsigned flags);
static CUresult (*cu_stream_synchronize)(shmemx_stream_t stream);
static CUresult (*cu_stream_destroy)(shmemx_stream_t stream);

/* *(void **)&VAR = the driver's SYMBOL; the test fails without it. */
#define TEST_CUDA_LOAD(LIB, VAR, SYMBOL)                                                      \
    do {                                                                                      \
        *(void **)&(VAR) = dlsym(LIB, SYMBOL);                                                \
        CHECK(VAR, "no %s", SYMBOL);                                                          \
    } while (0)

/* Opens the driver and loads the entry points above; returns its handle
 * for the test's own TEST_CUDA_LOADs (and the fake's counters: dlsym,
 * NULL on a GPU). */
static void *test_cuda_open(void)
{
    const char *name = getenv("SHMPI_CUDA_LIBRARY");
    void *lib = dlopen(name && *name ? name : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    CHECK(lib, "dlopen: %s", dlerror());
    TEST_CUDA_LOAD(lib, cu_memcpy, "cuMemcpy");
    TEST_CUDA_LOAD(lib, cu_ctx_synchronize, "cuCtxSynchronize");
    TEST_CUDA_LOAD(lib, cu_stream_create, "cuStreamCreate");
    TEST_CUDA_LOAD(lib, cu_stream_synchronize, "cuStreamSynchronize");
    TEST_CUDA_LOAD(lib, cu_stream_destroy, "cuStreamDestroy_v2");
    return lib;
}

#endif /* SHMPI_TEST_CUDA_H */
