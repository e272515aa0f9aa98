/*
 * cuda_driver.h - the few CUDA driver API entry points shmpi uses, declared
 * here (no CUDA headers at build time) and reached through dlopen of
 * SHMPI_CUDA_LIBRARY (default libcuda.so.1) at shmem_init, only when a
 * device heap is asked for (SHMPI_DEVICE_HEAP_SIZE).  The driver API is
 * ABI-versioned: each pointer is looked up by its versioned symbol name
 * (cuMemAlloc_v2, cuIpcOpenMemHandle_v2, ...), whose signature does not
 * change.  tests/fake_cuda.c implements the same symbols over host memory.
 */
#ifndef SHMPI_CUDA_DRIVER_H
#define SHMPI_CUDA_DRIVER_H

#include <stddef.h>

typedef int CUresult;                 /* CUDA_SUCCESS is 0 */
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef void (*CUhostFn)(void *data);
#define SHMPI_CU_IPC_HANDLE_SIZE 64
typedef struct {
    char reserved[SHMPI_CU_IPC_HANDLE_SIZE];
} CUipcMemHandle;

#define SHMPI_CUDA_SUCCESS 0
#define SHMPI_CU_POINTER_ATTRIBUTE_MEMORY_TYPE 2 /* CUpointer_attribute */
#define SHMPI_CU_MEMORYTYPE_DEVICE 2             /* CUmemorytype */
#define SHMPI_CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS 1
#define SHMPI_CU_STREAM_NON_BLOCKING 1
#define SHMPI_CU_EVENT_DISABLE_TIMING 2
/* CUdevice_attribute: 64-bit stream memory operations (CUDA 12 numbering),
 * remote-write flush, stream atomic reduction (CUDA 13.1). */
#define SHMPI_CU_ATTRIBUTE_STREAM_MEMOPS_64 122
#define SHMPI_CU_ATTRIBUTE_FLUSH_REMOTE_WRITES 98
#define SHMPI_CU_ATTRIBUTE_ATOMIC_REDUCTION 148
/* Where the GPU sits on PCI: which PEs of a machine share one GPU. */
#define SHMPI_CU_ATTRIBUTE_PCI_BUS_ID 33
#define SHMPI_CU_ATTRIBUTE_PCI_DEVICE_ID 34
#define SHMPI_CU_ATTRIBUTE_PCI_DOMAIN_ID 50
/* Whether the device's contexts are shared through MPS (CUDA 12 drivers; an
 * older one answers CUDA_ERROR_INVALID_VALUE). */
#define SHMPI_CU_ATTRIBUTE_MPS_ENABLED 133
/* Whether the device can map pinned host memory (cuMemHostAlloc with
 * CU_MEMHOSTALLOC_DEVICEMAP), where the stream proxy's queue lives. */
#define SHMPI_CU_ATTRIBUTE_CAN_MAP_HOST_MEMORY 19
#define SHMPI_CU_MEMHOSTALLOC_PORTABLE 1
#define SHMPI_CU_MEMHOSTALLOC_DEVICEMAP 2
/* cuStreamWaitValue64 flags (CUstreamWaitValue_flags). */
#define SHMPI_CU_STREAM_WAIT_VALUE_GEQ 0
#define SHMPI_CU_STREAM_WAIT_VALUE_EQ 1

/* One member per entry point: X(member, "symbol", return, parameters). */
#define SHMPI_CUDA_ENTRIES(X)                                                                 \
    X(init, "cuInit", (unsigned flags))                                                       \
    X(get_error_string, "cuGetErrorString", (CUresult error, const char **text))              \
    X(device_get_count, "cuDeviceGetCount", (int *count))                                     \
    X(device_get, "cuDeviceGet", (CUdevice * device, int ordinal))                            \
    X(primary_ctx_retain, "cuDevicePrimaryCtxRetain", (CUcontext * ctx, CUdevice device))     \
    X(ctx_set_current, "cuCtxSetCurrent", (CUcontext ctx))                                    \
    X(ctx_get_current, "cuCtxGetCurrent", (CUcontext * ctx))                                  \
    X(mem_alloc, "cuMemAlloc_v2", (CUdeviceptr * dptr, size_t bytes))                         \
    X(mem_free, "cuMemFree_v2", (CUdeviceptr dptr))                                           \
    X(memset_d8_async, "cuMemsetD8Async",                                                     \
      (CUdeviceptr dptr, unsigned char value, size_t n, CUstream stream))                     \
    X(ipc_get_mem_handle, "cuIpcGetMemHandle", (CUipcMemHandle * handle, CUdeviceptr dptr))   \
    X(ipc_open_mem_handle, "cuIpcOpenMemHandle_v2",                                           \
      (CUdeviceptr * dptr, CUipcMemHandle handle, unsigned flags))                            \
    X(ipc_close_mem_handle, "cuIpcCloseMemHandle", (CUdeviceptr dptr))                        \
    X(memcpy, "cuMemcpy", (CUdeviceptr dst, CUdeviceptr src, size_t bytes))                   \
    X(memcpy_async, "cuMemcpyAsync",                                                          \
      (CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream))                      \
    X(stream_create, "cuStreamCreate", (CUstream * stream, unsigned flags))                   \
    X(stream_destroy, "cuStreamDestroy_v2", (CUstream stream))                                \
    X(stream_synchronize, "cuStreamSynchronize", (CUstream stream))                           \
    X(stream_query, "cuStreamQuery", (CUstream stream))                                       \
    X(ctx_synchronize, "cuCtxSynchronize", (void))                                            \
    X(pointer_get_attribute, "cuPointerGetAttribute",                                         \
      (void *data, int attribute, CUdeviceptr ptr))                                           \
    X(device_get_attribute, "cuDeviceGetAttribute", (int *value, int attribute, CUdevice dev)) \
    X(ctx_get_device, "cuCtxGetDevice", (CUdevice * device))                                  \
    X(stream_get_ctx, "cuStreamGetCtx", (CUstream stream, CUcontext * ctx))                   \
    X(stream_write_value64, "cuStreamWriteValue64_v2",                                        \
      (CUstream stream, CUdeviceptr addr, unsigned long long value, unsigned flags))          \
    X(stream_wait_value64, "cuStreamWaitValue64_v2",                                          \
      (CUstream stream, CUdeviceptr addr, unsigned long long value, unsigned flags))          \
    X(launch_host_func, "cuLaunchHostFunc", (CUstream stream, CUhostFn fn, void *data))       \
    X(event_create, "cuEventCreate", (CUevent * event, unsigned flags))                       \
    X(event_destroy, "cuEventDestroy_v2", (CUevent event))                                    \
    X(event_record, "cuEventRecord", (CUevent event, CUstream stream))                        \
    X(stream_wait_event, "cuStreamWaitEvent", (CUstream stream, CUevent event, unsigned flags)) \
    X(mem_alloc_host, "cuMemAllocHost_v2", (void **ptr, size_t bytes))                        \
    X(mem_free_host, "cuMemFreeHost", (void *ptr))                                            \
    X(mem_host_alloc, "cuMemHostAlloc", (void **ptr, size_t bytes, unsigned flags))           \
    X(mem_host_get_device_pointer, "cuMemHostGetDevicePointer_v2",                            \
      (CUdeviceptr * dptr, void *ptr, unsigned flags))                                        \
    X(mem_get_address_range, "cuMemGetAddressRange_v2",                                       \
      (CUdeviceptr * base, size_t *size, CUdeviceptr ptr))                                    \
    X(module_load_data, "cuModuleLoadData", (CUmodule * module, const void *image))           \
    X(module_unload, "cuModuleUnload", (CUmodule module))                                     \
    X(module_get_function, "cuModuleGetFunction",                                             \
      (CUfunction * function, CUmodule module, const char *name))                             \
    X(launch_kernel, "cuLaunchKernel",                                                        \
      (CUfunction f, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,     \
       unsigned block_y, unsigned block_z, unsigned shared_bytes, CUstream stream,            \
       void **params, void **extra))

/* The virtual memory management API (cuMemCreate and its kin, CUDA 10.2;
 * cuMemRetainAllocationHandle, CUDA 11.0): only shmemx_device_register of
 * such memory needs it, so a driver without it loads (vmm.c says what is
 * missing when a registration needs it).  CUmemGenericAllocationHandle is
 * an unsigned long long; the structures are those of cuda.h. */
typedef unsigned long long CUmemGenericAllocationHandle;
typedef struct {
    int type; /* CUmemLocationType: 1 = device */
    int id;   /* the device ordinal */
} CUmemLocation;
typedef struct {
    int type;                   /* CUmemAllocationType: 1 = pinned */
    int requestedHandleTypes;   /* CUmemAllocationHandleType bits */
    CUmemLocation location;
    void *win32HandleMetaData;
    struct {
        unsigned char compressionType;
        unsigned char gpuDirectRDMACapable;
        unsigned short usage;
        unsigned char reserved[4];
    } allocFlags;
} CUmemAllocationProp;
typedef struct {
    CUmemLocation location;
    int flags; /* CUmemAccess_flags */
} CUmemAccessDesc;
#define SHMPI_CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR 1
#define SHMPI_CU_MEM_LOCATION_TYPE_DEVICE 1
#define SHMPI_CU_MEM_ACCESS_FLAGS_PROT_READWRITE 3
#define SHMPI_CU_MEM_ALLOC_GRANULARITY_MINIMUM 0

#define SHMPI_CUDA_VMM_ENTRIES(X)                                                             \
    X(mem_retain_allocation_handle, "cuMemRetainAllocationHandle",                            \
      (CUmemGenericAllocationHandle * handle, void *addr))                                    \
    X(mem_get_allocation_properties, "cuMemGetAllocationPropertiesFromHandle",                \
      (CUmemAllocationProp * prop, CUmemGenericAllocationHandle handle))                      \
    X(mem_export_to_shareable_handle, "cuMemExportToShareableHandle",                         \
      (void *shareable, CUmemGenericAllocationHandle handle, int type, unsigned long long flags)) \
    X(mem_import_from_shareable_handle, "cuMemImportFromShareableHandle",                     \
      (CUmemGenericAllocationHandle * handle, void *shareable, int type))                     \
    X(mem_get_allocation_granularity, "cuMemGetAllocationGranularity",                        \
      (size_t *granularity, const CUmemAllocationProp *prop, int option))                     \
    X(mem_address_reserve, "cuMemAddressReserve",                                             \
      (CUdeviceptr * ptr, size_t size, size_t alignment, CUdeviceptr addr,                    \
       unsigned long long flags))                                                             \
    X(mem_address_free, "cuMemAddressFree", (CUdeviceptr ptr, size_t size))                   \
    X(mem_map, "cuMemMap",                                                                    \
      (CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,      \
       unsigned long long flags))                                                             \
    X(mem_unmap, "cuMemUnmap", (CUdeviceptr ptr, size_t size))                                \
    X(mem_set_access, "cuMemSetAccess",                                                       \
      (CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count))              \
    X(mem_release, "cuMemRelease", (CUmemGenericAllocationHandle handle))

struct shmpi_cuda {
#define SHMPI_CUDA_MEMBER(MEMBER, SYMBOL, PARAMS) CUresult(*MEMBER) PARAMS;
    SHMPI_CUDA_ENTRIES(SHMPI_CUDA_MEMBER)
    SHMPI_CUDA_VMM_ENTRIES(SHMPI_CUDA_MEMBER)
#undef SHMPI_CUDA_MEMBER
    const char *vmm_missing; /* the first VMM entry point the driver lacks, or NULL */
    void *library;           /* the dlopen handle, or NULL */
};
extern struct shmpi_cuda shmpi_cuda;

/* Loads SHMPI_CUDA_LIBRARY and every entry point, and calls cuInit; a
 * missing library or symbol, or a failing cuInit, ends the job with one
 * line naming the library and the variable to set.  Collective (every PE
 * calls it in shmem_init): a library no PE can load is said once, by PE 0.  The library stays
 * loaded until the process ends (a later shmem_init finds it). */
void shmpi_cuda_load(const char *routine);
/* Ends the job if `result` is not CUDA_SUCCESS: "ROUTINE: CALL failed:
 * the driver's text (code)". */
void shmpi_cuda_check(const char *routine, const char *call, CUresult result);
/* The driver's words for `result`, or "unknown error". */
const char *shmpi_cuda_error_text(CUresult result);

#endif /* SHMPI_CUDA_DRIVER_H */
