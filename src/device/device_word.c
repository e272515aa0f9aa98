/*
 * device_word.c - the memory floor's operations on single words and copies
 * of symmetric device memory (device_word.h): the lookup that ends the job
 * on a non-symmetric address, one copy or signal on a given stream, and the
 * host routines that read, wait on, or signal a word mapped here.
 */
#include "shmpi.h"
#include "cuda_driver.h"
#include "device_heap.h"
#include "device_word.h"
#include "wait.h"

#include <pthread.h>

/* ---- checks -------------------------------------------------------------------------- */
/* The device heap's context made current, after checking that the job has
 * a device heap and, for `signals`, 64-bit stream memory operations. */
CUcontext shmpi_device_enter_heap(const char *routine, bool signals)
{
    shmpi_device_need_heap(routine);
    if (SHMPI_UNLIKELY(signals && !shmpi_device.stream_memops))
        shmpi_abort(routine,
                    "the CUDA driver offers no 64-bit stream memory operations on GPU %d "
                    "(cuDeviceGetAttribute 122, CAN_USE_64_BIT_STREAM_MEM_OPS, is 0), which "
                    "signals, waits and barriers on a stream need",
                    shmpi_device.ordinal);
    return shmpi_device_enter(routine);
}

char *shmpi_stream_peer(const char *routine, const char *what, const void *addr, size_t len,
                        int pe)
{
    if ((unsigned)pe >= (unsigned)shmpi_g.n_pes)
        shmpi_pe_fail(routine, pe, shmpi_g.n_pes);
    char *peer = shmpi_device_peer(addr, len ? len : 1, pe);
    if (SHMPI_UNLIKELY(!peer && shmpi_device_peer(addr, len ? len : 1, shmpi_g.my_pe)))
        shmpi_abort(routine,
                    "internal error: %s %p (%zu bytes) is PE %d's device memory, which is not "
                    "mapped here, and the operation did not go through the stream proxy",
                    what, addr, len, pe);
    if (SHMPI_UNLIKELY(!peer))
        shmpi_abort(routine,
                    "%s %p (%zu bytes) is not in the device heap (shmemx_device_malloc) or a "
                    "range registered with shmemx_device_register: operations on a stream "
                    "reach symmetric device memory only",
                    what, addr, len);
    return peer;
}

void shmpi_stream_copy(const char *routine, void *to, const void *from, size_t len,
                       CUstream stream)
{
    if (len)
        shmpi_cuda_check(routine, "cuMemcpyAsync",
                         shmpi_cuda.memcpy_async((CUdeviceptr)(uintptr_t)to,
                                                 (CUdeviceptr)(uintptr_t)from, len, stream));
}

/* ---- signals ------------------------------------------------------------------------ */
/* shmpi's kernel for SHMEM_SIGNAL_ADD, in PTX that the driver compiles for
 * the GPU at first use: one thread adds `value` to the 64-bit word at `addr`
 * (a peer's mapping) after a system-wide fence. */
static const char signal_add_ptx[] =
    ".version 6.0\n"
    ".target sm_60\n"
    ".address_size 64\n"
    ".visible .entry shmpi_signal_add(.param .u64 addr, .param .u64 value)\n"
    "{\n"
    "    .reg .b64 %rd<3>;\n"
    "    ld.param.u64 %rd1, [addr];\n"
    "    ld.param.u64 %rd2, [value];\n"
    "    membar.sys;\n"
    "    red.add.u64 [%rd1], %rd2;\n"
    "    membar.sys;\n"
    "    ret;\n"
    "}\n";
static pthread_mutex_t kernel_lock = PTHREAD_MUTEX_INITIALIZER;
static CUmodule signal_add_module; /* unloaded at finalize */
static CUfunction signal_add;

static CUfunction signal_add_kernel(const char *routine)
{
    pthread_mutex_lock(&kernel_lock);
    CUresult result = SHMPI_CUDA_SUCCESS;
    if (!signal_add) {
        result = shmpi_cuda.module_load_data(&signal_add_module, signal_add_ptx);
        if (result == SHMPI_CUDA_SUCCESS)
            result = shmpi_cuda.module_get_function(&signal_add, signal_add_module,
                                                    "shmpi_signal_add");
    }
    pthread_mutex_unlock(&kernel_lock);
    if (result != SHMPI_CUDA_SUCCESS) {
        shmpi_abort(routine,
                    "SHMEM_SIGNAL_ADD on a stream needs shmpi's atomic-add kernel, which the "
                    "CUDA driver cannot load: %s (CUDA error %d); use SHMEM_SIGNAL_SET",
                    shmpi_cuda_error_text(result), result);
    }
    return signal_add;
}

void shmpi_device_signal_word(const char *routine, char *word, uint64_t signal, int sig_op,
                        CUstream stream)
{
    CUdeviceptr addr = (CUdeviceptr)(uintptr_t)word;
    if (sig_op == SHMEM_SIGNAL_SET) {
        shmpi_cuda_check(routine, "cuStreamWriteValue64",
                         shmpi_cuda.stream_write_value64(stream, addr, signal, 0));
    } else {
        CUfunction add = signal_add_kernel(routine);
        unsigned long long value = signal;
        void *params[] = {&addr, &value};
        shmpi_cuda_check(routine, "cuLaunchKernel",
                         shmpi_cuda.launch_kernel(add, 1, 1, 1, 1, 1, 1, 0, stream, params,
                                                  NULL));
    }
}

void shmpi_device_check_signal(const char *routine, uint64_t *sig_addr, int sig_op)
{
    if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
        shmpi_abort(routine, "sig_op %d is neither SHMEM_SIGNAL_SET (%d) nor SHMEM_SIGNAL_ADD "
                    "(%d)", sig_op, SHMEM_SIGNAL_SET, SHMEM_SIGNAL_ADD);
    if ((uintptr_t)sig_addr % sizeof(uint64_t))
        shmpi_abort(routine, "sig_addr %p is not 8-byte aligned", (void *)sig_addr);
}

char *shmpi_device_signal_peer(const char *routine, uint64_t *sig_addr, int sig_op, int pe)
{
    shmpi_device_check_signal(routine, sig_addr, sig_op);
    return shmpi_stream_peer(routine, "sig_addr", sig_addr, sizeof(uint64_t), pe);
}

/* ---- host routines on device words (shmpi's own stream, of the heap's context) ------------- */
bool shmpi_device_word_signal_mapped(const char *routine, uint64_t *sig_addr, uint64_t signal,
                                     int sig_op, int pe)
{
    shmpi_device_enter_heap(routine, true);
    shmpi_device_signal_peer(routine, sig_addr, sig_op, shmpi_g.my_pe); /* checks it all */
    char *word = shmpi_device_peer(sig_addr, sizeof(uint64_t), pe);
    if (!word)
        return false;
    shmpi_device_signal_word(routine, word, signal, sig_op, shmpi_device_stream());
    shmpi_device_sync();
    return true;
}

void shmpi_device_word_read(const char *routine, void *to, const void *addr, size_t len, int pe)
{
    shmpi_device_enter_heap(routine, false);
    shmpi_stream_copy(routine, to, shmpi_stream_peer(routine, "variable", addr, len, pe), len,
                      shmpi_device_stream());
    shmpi_device_sync();
}

uint64_t shmpi_device_word_fetch(const char *routine, const uint64_t *addr, int pe)
{
    uint64_t value = 0;
    shmpi_device_word_read(routine, &value, addr, sizeof value, pe);
    return value;
}

struct word_wait {
    const char *routine;
    const uint64_t *addr;
    int cmp;
    uint64_t value, seen;
};

static bool word_compares(const void *state)
{
    struct word_wait *w = (struct word_wait *)state;
    w->seen = shmpi_device_word_fetch(w->routine, w->addr, shmpi_g.my_pe);
    return shmpi_compare_u64(w->seen, w->cmp, w->value);
}

uint64_t shmpi_device_word_wait(const char *routine, const uint64_t *addr, int cmp,
                                uint64_t cmp_value)
{
    /* The host waits as every wait does (serving, yielding), fetching the
     * word through the driver at each look. */
    struct word_wait w = {routine, addr, cmp, cmp_value, 0};
    shmpi_wait_until(routine, addr, NULL, word_compares, &w);
    return w.seen;
}

void shmpi_device_word_fini(void)
{
    if (signal_add_module) /* the context is current and idle (shmpi_device_heap_fini) */
        shmpi_cuda.module_unload(signal_add_module);
    signal_add_module = NULL;
    signal_add = NULL;
}
