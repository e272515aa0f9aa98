/*
 * fake_cuda.c - a stand-in for the CUDA driver (libcuda.so.1) for the
 * device-heap tests: the entry points of src/device/cuda_driver.h over host
 * memory, loaded through SHMPI_CUDA_LIBRARY.
 *
 * "Device memory" is a POSIX shared-memory object, so its IPC handle (the
 * object's name) opens in another process.  The device address handed out
 * is a PROT_NONE reservation: like a real GPU pointer it cannot be loaded
 * or stored by the host, so a host-side memmove on it crashes at once.  The
 * driver's copies reach the bytes through a second, accessible mapping.
 * fake_cuda_count(WHAT) reads this process's counters ("copies", "syncs",
 * "ipc_opens", "allocs"), so tests can check that the device path ran.
 * SHMPI_FAKE_CUDA_DEVICES sets the number of devices (default 1).
 */
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef struct {
    char reserved[64];
} CUipcMemHandle;

enum {
    SUCCESS = 0,
    ERROR_INVALID_VALUE = 1,
    ERROR_OUT_OF_MEMORY = 2,
    ERROR_NOT_INITIALIZED = 3,
    ERROR_NO_DEVICE = 100,
    ERROR_INVALID_DEVICE = 101,
    ERROR_INVALID_CONTEXT = 201,
    ERROR_MAP_FAILED = 205,
};

struct region {
    char *device;   /* the PROT_NONE address handed out */
    char *host;     /* where the bytes are */
    size_t size;
    char name[48];  /* the shared-memory object */
    int owned;      /* allocated here (else opened from a handle) */
};
#define MAX_REGIONS 256
static struct region regions[MAX_REGIONS];
static int initialized;
static struct CUctx_st {
    int device;
} contexts[16];
static _Thread_local CUcontext current;
static atomic_ulong copies, syncs, ipc_opens, allocs;

EXPORT unsigned long fake_cuda_count(const char *what)
{
    if (!strcmp(what, "copies"))
        return copies;
    if (!strcmp(what, "syncs"))
        return syncs;
    if (!strcmp(what, "ipc_opens"))
        return ipc_opens;
    if (!strcmp(what, "allocs"))
        return allocs;
    return 0;
}

static int device_count(void)
{
    const char *value = getenv("SHMPI_FAKE_CUDA_DEVICES");
    int n = value ? atoi(value) : 1;
    return n < 0 ? 0 : n > 16 ? 16 : n;
}

static struct region *find(const void *ptr)
{
    for (int i = 0; i < MAX_REGIONS; i++) {
        struct region *r = &regions[i];
        if (r->size && (uintptr_t)ptr - (uintptr_t)r->device < r->size)
            return r;
    }
    return NULL;
}

/* Where the host reaches `ptr`: a device address's bytes, or itself. */
static char *reach(CUdeviceptr ptr)
{
    struct region *r = find((void *)(uintptr_t)ptr);
    return r ? r->host + ((uintptr_t)ptr - (uintptr_t)r->device) : (char *)(uintptr_t)ptr;
}

static CUresult ready(void)
{
    if (!initialized)
        return ERROR_NOT_INITIALIZED;
    return current ? SUCCESS : ERROR_INVALID_CONTEXT;
}

static CUresult map_region(struct region *r, int fd)
{
    r->host = mmap(NULL, r->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    r->device = mmap(NULL, r->size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    close(fd);
    if (r->host == MAP_FAILED || r->device == MAP_FAILED)
        return ERROR_MAP_FAILED;
    return SUCCESS;
}

static struct region *free_slot(void)
{
    for (int i = 0; i < MAX_REGIONS; i++)
        if (!regions[i].size)
            return &regions[i];
    return NULL;
}

EXPORT CUresult cuInit(unsigned flags)
{
    if (flags != 0)
        return ERROR_INVALID_VALUE;
    initialized = 1;
    return SUCCESS;
}

EXPORT CUresult cuGetErrorString(CUresult error, const char **text)
{
    switch (error) {
    case SUCCESS: *text = "no error"; break;
    case ERROR_INVALID_VALUE: *text = "invalid argument"; break;
    case ERROR_OUT_OF_MEMORY: *text = "out of memory"; break;
    case ERROR_NOT_INITIALIZED: *text = "initialization error"; break;
    case ERROR_NO_DEVICE: *text = "no CUDA-capable device is detected"; break;
    case ERROR_INVALID_DEVICE: *text = "invalid device ordinal"; break;
    case ERROR_INVALID_CONTEXT: *text = "invalid device context"; break;
    case ERROR_MAP_FAILED: *text = "mapping of buffer object failed"; break;
    default: *text = NULL; return ERROR_INVALID_VALUE;
    }
    return SUCCESS;
}

EXPORT CUresult cuDeviceGetCount(int *count)
{
    if (!initialized)
        return ERROR_NOT_INITIALIZED;
    *count = device_count();
    return SUCCESS;
}

EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    if (!initialized)
        return ERROR_NOT_INITIALIZED;
    if (ordinal < 0 || ordinal >= device_count())
        return ERROR_INVALID_DEVICE;
    *device = ordinal;
    return SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice device)
{
    if (!initialized)
        return ERROR_NOT_INITIALIZED;
    if (device < 0 || device >= device_count())
        return ERROR_INVALID_DEVICE;
    contexts[device].device = device;
    *ctx = &contexts[device];
    return SUCCESS;
}

EXPORT CUresult cuCtxSetCurrent(CUcontext ctx)
{
    current = ctx;
    return initialized ? SUCCESS : ERROR_NOT_INITIALIZED;
}

EXPORT CUresult cuCtxGetCurrent(CUcontext *ctx)
{
    *ctx = current;
    return initialized ? SUCCESS : ERROR_NOT_INITIALIZED;
}

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytes)
{
    static atomic_uint serial;
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    struct region *r = free_slot();
    if (!r || bytes == 0)
        return r ? ERROR_INVALID_VALUE : ERROR_OUT_OF_MEMORY;
    snprintf(r->name, sizeof r->name, "/fake-cuda-%d-%u", (int)getpid(), serial++);
    int fd = shm_open(r->name, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0 || ftruncate(fd, (off_t)bytes) != 0) {
        if (fd >= 0) {
            close(fd);
            shm_unlink(r->name);
        }
        return ERROR_OUT_OF_MEMORY;
    }
    r->size = bytes;
    r->owned = 1;
    if (map_region(r, fd) != SUCCESS)
        return ERROR_OUT_OF_MEMORY;
    allocs++;
    *dptr = (CUdeviceptr)(uintptr_t)r->device;
    return SUCCESS;
}

static void unmap_region(struct region *r)
{
    munmap(r->host, r->size);
    munmap(r->device, r->size);
    if (r->owned)
        shm_unlink(r->name);
    memset(r, 0, sizeof *r);
}

EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr)
{
    struct region *r = find((void *)(uintptr_t)dptr);
    if (!r || !r->owned || (uintptr_t)r->device != dptr)
        return ERROR_INVALID_VALUE;
    unmap_region(r);
    return SUCCESS;
}

EXPORT CUresult cuMemsetD8Async(CUdeviceptr dptr, unsigned char value, size_t n, CUstream s)
{
    (void)s;
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    struct region *r = find((void *)(uintptr_t)dptr);
    if (!r || dptr + n > (uintptr_t)r->device + r->size)
        return ERROR_INVALID_VALUE;
    memset(reach(dptr), value, n);
    return SUCCESS;
}

EXPORT CUresult cuIpcGetMemHandle(CUipcMemHandle *handle, CUdeviceptr dptr)
{
    struct region *r = find((void *)(uintptr_t)dptr);
    if (!r || !r->owned || (uintptr_t)r->device != dptr)
        return ERROR_INVALID_VALUE;
    memset(handle, 0, sizeof *handle);
    memcpy(handle->reserved, &r->size, sizeof r->size);
    memcpy(handle->reserved + sizeof r->size, r->name, strlen(r->name) + 1);
    return SUCCESS;
}

EXPORT CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *dptr, CUipcMemHandle handle, unsigned flags)
{
    (void)flags;
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    struct region *r = free_slot();
    if (!r)
        return ERROR_OUT_OF_MEMORY;
    size_t size;
    memcpy(&size, handle.reserved, sizeof size);
    char name[48];
    memcpy(name, handle.reserved + sizeof size, sizeof name);
    name[sizeof name - 1] = 0;
    for (int i = 0; i < MAX_REGIONS; i++) /* a real driver refuses its own handles */
        if (regions[i].size && regions[i].owned && !strcmp(regions[i].name, name))
            return ERROR_INVALID_CONTEXT;
    int fd = shm_open(name, O_RDWR, 0);
    if (fd < 0)
        return ERROR_MAP_FAILED;
    r->size = size;
    memcpy(r->name, name, sizeof name);
    r->owned = 0;
    if (map_region(r, fd) != SUCCESS)
        return ERROR_MAP_FAILED;
    ipc_opens++;
    *dptr = (CUdeviceptr)(uintptr_t)r->device;
    return SUCCESS;
}

EXPORT CUresult cuIpcCloseMemHandle(CUdeviceptr dptr)
{
    struct region *r = find((void *)(uintptr_t)dptr);
    if (!r || r->owned || (uintptr_t)r->device != dptr)
        return ERROR_INVALID_VALUE;
    unmap_region(r);
    return SUCCESS;
}

EXPORT CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    memmove(reach(dst), reach(src), bytes);
    copies++;
    return SUCCESS;
}

EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream s)
{
    return s ? cuMemcpy(dst, src, bytes) : ERROR_INVALID_VALUE;
}

EXPORT CUresult cuStreamCreate(CUstream *stream, unsigned flags)
{
    (void)flags;
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    *stream = malloc(1);
    return *stream ? SUCCESS : ERROR_OUT_OF_MEMORY;
}

EXPORT CUresult cuStreamDestroy_v2(CUstream stream)
{
    free(stream);
    return SUCCESS;
}

EXPORT CUresult cuStreamSynchronize(CUstream stream)
{
    CUresult status = ready();
    if (status != SUCCESS)
        return status;
    if (!stream)
        return ERROR_INVALID_VALUE;
    syncs++;
    return SUCCESS;
}

EXPORT CUresult cuCtxSynchronize(void)
{
    CUresult status = ready();
    if (status == SUCCESS)
        syncs++;
    return status;
}

EXPORT CUresult cuPointerGetAttribute(void *data, int attribute, CUdeviceptr ptr)
{
    if (attribute != 2) /* CU_POINTER_ATTRIBUTE_MEMORY_TYPE */
        return ERROR_INVALID_VALUE;
    if (!find((void *)(uintptr_t)ptr))
        return ERROR_INVALID_VALUE; /* host memory unknown to the driver */
    *(unsigned *)data = 2;          /* CU_MEMORYTYPE_DEVICE */
    return SUCCESS;
}
