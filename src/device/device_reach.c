/*
 * device_reach.c - the reach floor of src/device (src/LAYERS): maps the
 * peers' device ranges (the heap, registered memory) through CUDA IPC or
 * vmm.c, and sends a transfer or a signal to a peer's device memory through
 * its mapping or, where there is none, the network path (device_net.c).
 */
#include "shmpi.h"
#include "cuda_driver.h"
#include "device_heap.h"
#include "device_net.h"
#include "device_reach.h"
#include "device_word.h"
#include "progress.h"
#include "vmm.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- mapping the peers' device ranges (the heap, registered memory) -------------------- */
/* What each PE says of a device range it shares: the IPC handle of the
 * allocation holding it (or, for CUDA VMM memory, what vmm.c needs to pass
 * it on), where the range starts in that allocation, and its size (0:
 * nothing to share). */
struct range_card {
    CUipcMemHandle handle;
    unsigned long long offset, size;
    struct shmpi_vmm_card vmm; /* vmm.alloc_size 0: cudaMalloc memory (the IPC handle) */
};

/* Every PE's card (collective); free() the result. */
static struct range_card *exchange_cards(const char *routine, const struct range_card *mine)
{
    struct range_card *all = shmpi_xmalloc(routine, (size_t)shmpi_g.n_pes * sizeof *all);
    MPI_Allgather(mine, (int)sizeof *mine, MPI_BYTE, all, (int)sizeof *mine, MPI_BYTE,
                  shmpi_g.comm);
    return all;
}

/* Where each PE's range is mapped here: this PE's own at `mine`, those of
 * the PEs of its machine (none under SHMPI_DEVICE_IPC=0) opened through CUDA IPC or, for VMM memory, mapped
 * by vmm.c (*vmm: the mappings, NULL if no PE's range is VMM memory), NULL
 * for the others.  Collective. */
static char **map_peers(const char *routine, char *mine, const struct range_card *all,
                        struct shmpi_vmm_map **vmm)
{
    int n = shmpi_g.n_pes, me = shmpi_g.my_pe;
    char **peer = shmpi_xmalloc(routine, (size_t)n * sizeof *peer);
    bool any_vmm = false;
    for (int pe = 0; pe < n; pe++) {
        peer[pe] = NULL;
        any_vmm |= all[pe].vmm.alloc_size != 0;
    }
    *vmm = NULL;
    if (any_vmm) { /* every PE sees the same cards: all of them come here */
        struct shmpi_vmm_card *cards = shmpi_xmalloc(routine, (size_t)n * sizeof *cards);
        unsigned long long *offsets = shmpi_xmalloc(routine, (size_t)n * sizeof *offsets);
        for (int pe = 0; pe < n; pe++) {
            cards[pe] = all[pe].vmm;
            offsets[pe] = all[pe].offset;
        }
        *vmm = shmpi_vmm_map_peers(routine, cards, offsets, peer);
        free(cards);
        free(offsets);
    }
    for (int pe = 0; pe < n; pe++) {
        if (pe == me) {
            peer[pe] = mine;
        } else if (all[pe].vmm.alloc_size) {
            continue; /* mapped above */
        } else if (shmpi_device_ipc_reaches(pe)) {
            CUdeviceptr mapped = 0;
            shmpi_cuda_check(routine, "cuIpcOpenMemHandle",
                             shmpi_cuda.ipc_open_mem_handle(
                                 &mapped, all[pe].handle,
                                 SHMPI_CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
            peer[pe] = (char *)(uintptr_t)mapped + all[pe].offset;
        }
    }
    return peer;
}

/* Closes what map_peers opened (each mapping is of a whole allocation), then
 * waits until every peer has closed its mappings of this PE's range, which
 * may be freed after this returns; frees `peer` and `vmm`. */
static void unmap_peers(const char *routine, char **peer, struct shmpi_vmm_map *vmm)
{
    for (int pe = 0; pe < shmpi_g.n_pes; pe++) {
        if (vmm && vmm[pe].size) {
            shmpi_vmm_unmap(routine, &vmm[pe]);
            continue;
        }
        if (pe == shmpi_g.my_pe || !peer[pe])
            continue;
        CUdeviceptr alloc_base = 0;
        shmpi_cuda_check(routine, "cuMemGetAddressRange",
                         shmpi_cuda.mem_get_address_range(&alloc_base, NULL,
                                                          (CUdeviceptr)(uintptr_t)peer[pe]));
        shmpi_cuda_check(routine, "cuIpcCloseMemHandle",
                         shmpi_cuda.ipc_close_mem_handle(alloc_base));
    }
    shmpi_barrier_comm(shmpi_g.comm, NULL);
    free(peer);
    free(vmm);
}

bool shmpi_device_map_heap(const char *routine, char *base, size_t size)
{
    struct range_card mine = {.offset = 0, .size = size};
    shmpi_cuda_check(routine, "cuIpcGetMemHandle",
                     shmpi_cuda.ipc_get_mem_handle(&mine.handle, (CUdeviceptr)(uintptr_t)base));
    struct range_card *all = exchange_cards(routine, &mine);
    struct shmpi_vmm_map *vmm;
    shmpi_device.peer = map_peers(routine, base, all, &vmm);
    free(all);
    bool unmapped = false; /* some PE reached through the network (device_net.c) */
    for (int pe = 0; pe < shmpi_g.n_pes; pe++)
        unmapped |= !shmpi_device.peer[pe];
    return unmapped;
}

void shmpi_device_unmap_heap(const char *routine)
{
    unmap_peers(routine, shmpi_device.peer, NULL);
}

/* ---- transfers and signals ---------------------------------------------------------- */
/* PE pe's copy of the device range at `addr` (this PE's address), NULL
 * where it is not mapped here and the network path reaches it (*region,
 * *offset); ends the job if `addr` is not symmetric device memory. */
static char *peer_address(const char *routine, const void *addr, size_t len, int pe,
                          int *region, uint64_t *offset)
{
    char *peer = shmpi_device_peer(addr, len, pe);
    if (!peer && !shmpi_device_locate(addr, len, region, offset))
        shmpi_symm_fail(routine, addr, len, pe);
    return peer;
}

void shmpi_device_contiguous(const char *routine, struct shmpi_ctx *ctx, bool is_put,
                             void *dest, const void *source, size_t nbytes, int world_pe,
                             enum shmpi_completion completion)
{
    (void)ctx; /* one stream for every context: quiet on any completes them all */
    int region;
    uint64_t offset;
    char *remote = peer_address(routine, is_put ? dest : source, nbytes, world_pe, &region,
                                &offset);
    if (!remote) { /* returns when the local buffer may be reused: as blocking */
        shmpi_device_net_transfer(routine, is_put, is_put ? (void *)source : dest, nbytes,
                                  region, offset, world_pe);
        return;
    }
    shmpi_device_enter(routine);
    if (is_put)
        shmpi_device_copy_async(routine, remote, source, nbytes);
    else
        shmpi_device_copy_async(routine, dest, remote, nbytes);
    shmpi_device_complete(routine, completion);
}

void shmpi_device_strided(const char *routine, bool is_put, char *to_first, ptrdiff_t to_step,
                          const char *from_first, ptrdiff_t from_step, size_t nblocks,
                          size_t block, const void *remote_lowest, size_t remote_extent,
                          int world_pe)
{
    int region;
    uint64_t offset;
    char *remote = peer_address(routine, remote_lowest, remote_extent, world_pe, &region,
                                &offset);
    if (!remote) { /* one transfer a block */
        const char *lowest = remote_lowest;
        for (size_t i = 0; i < nblocks; i++) {
            char *to = to_first + (ptrdiff_t)i * to_step;
            const char *from = from_first + (ptrdiff_t)i * from_step;
            shmpi_device_net_transfer(routine, is_put, is_put ? (void *)from : to, block,
                                      region, offset + (uint64_t)((is_put ? to : from) - lowest),
                                      world_pe);
        }
        return;
    }
    ptrdiff_t shift = remote - (const char *)remote_lowest;
    if (is_put)
        to_first += shift;
    else
        from_first += shift;
    shmpi_device_enter(routine);
    for (size_t i = 0; i < nblocks; i++)
        shmpi_device_copy_async(routine, to_first + (ptrdiff_t)i * to_step,
                   from_first + (ptrdiff_t)i * from_step, block);
    shmpi_device_sync_stream(routine);
}

void shmpi_device_word_signal(const char *routine, uint64_t *sig_addr, uint64_t signal,
                              int sig_op, int pe)
{
    if (shmpi_device_word_signal_mapped(routine, sig_addr, signal, sig_op, pe))
        return;
    /* not mapped here: the target's server applies it (device_net.c) */
    int region;
    uint64_t offset;
    shmpi_device_locate(sig_addr, sizeof(uint64_t), &region, &offset);
    shmpi_device_net_signal(routine, region, offset, signal, sig_op, pe);
}

/* ---- registered device memory (shmemx_device_register) -------------------------------- */

/* Whether [ptr, ptr+size) shares a byte with the device heap or a range
 * registered already. */
static bool overlaps_device(const void *ptr, size_t size)
{
    uintptr_t lo = (uintptr_t)ptr, hi = lo + size;
    if (shmpi_device.size && lo < (uintptr_t)shmpi_device.base + shmpi_device.size &&
        (uintptr_t)shmpi_device.base < hi)
        return true;
    for (const struct shmpi_device_range *r = shmpi_device.ranges; r; r = r->next)
        if (lo < (uintptr_t)r->base + r->size && (uintptr_t)r->base < hi)
            return true;
    return false;
}

int shmpi_device_register(const char *routine, void *ptr, size_t size)
{
    shmpi_device_need_heap(routine);
    shmpi_device_enter(routine);
    int n = shmpi_g.n_pes, me = shmpi_g.my_pe;
    struct range_card mine = {.size = 0};
    CUdeviceptr alloc_base = 0;
    size_t alloc_size = 0;
    const char *problem = NULL;
    char vmm_problem[400], no_ipc[300];
    enum shmpi_vmm_kind vmm = SHMPI_VMM_NOT;
    if (!ptr || size == 0)
        problem = "the range is empty";
    else if (overlaps_device(ptr, size))
        problem = "it overlaps the device heap or a registered range";
    else if (shmpi_cuda.mem_get_address_range(&alloc_base, &alloc_size,
                                              (CUdeviceptr)(uintptr_t)ptr) != SHMPI_CUDA_SUCCESS)
        problem = "the CUDA driver does not know it as device memory (cudaMalloc, cuMemCreate)";
    else if ((vmm = shmpi_vmm_export((CUdeviceptr)(uintptr_t)ptr, size, alloc_base, alloc_size,
                                     &mine.vmm, vmm_problem, sizeof vmm_problem)) ==
             SHMPI_VMM_REFUSED)
        problem = vmm_problem;
    else if (vmm == SHMPI_VMM_EXPORTED)
        ; /* vmm.c passes it on */
    else if ((uintptr_t)ptr + size > alloc_base + alloc_size)
        problem = "it runs past the end of its cudaMalloc allocation";
    else if (shmpi_cuda.ipc_get_mem_handle(&mine.handle, alloc_base) != SHMPI_CUDA_SUCCESS) {
        snprintf(no_ipc, sizeof no_ipc, "the CUDA driver gives no IPC handle for it%s%s%s",
                 shmpi_cuda.vmm_missing ? " (and, for CUDA VMM memory, the driver has no " : "",
                 shmpi_cuda.vmm_missing ? shmpi_cuda.vmm_missing : "",
                 shmpi_cuda.vmm_missing ? "; set SHMPI_CUDA_LIBRARY to a newer libcuda.so.1)"
                                        : "");
        problem = no_ipc;
    }
    if (!problem) {
        mine.offset = (uintptr_t)ptr - alloc_base;
        mine.size = size;
    }
    struct range_card *all = exchange_cards(routine, &mine);
    int refused = -1;
    for (int pe = 0; pe < n && refused < 0; pe++)
        if (all[pe].size != size)
            refused = pe;
    if (refused >= 0) {
        shmpi_vmm_forget(&mine.vmm);
        if (problem)
            shmpi_warn(routine, "cannot register %zu bytes at %p: %s", size, ptr, problem);
        else if (me == 0 && all[refused].size)
            shmpi_warn(routine, "PE %d registers %llu bytes, PE 0 %zu: the size must be the "
                       "same on every PE", refused, all[refused].size, size);
        free(all);
        return -1;
    }
    struct shmpi_device_range *r = shmpi_xmalloc(routine, sizeof *r);
    /* Numbers 1 to INT_MAX in turn (0 is the device heap); wrapping, the
     * next number no live range has, the same on every PE. */
    static int last_id;
    do
        last_id = last_id == INT_MAX ? 1 : last_id + 1;
    while (shmpi_device_region(last_id, &(size_t){0}));
    r->id = last_id;
    r->base = ptr;
    r->size = size;
    r->peer = map_peers(routine, ptr, all, &r->vmm);
    free(all);
    r->next = shmpi_device.ranges;
    /* Published whole: servers of other threads (the stream proxy's) read the
     * list.  Then every PE has the range before any PE's transfer names it. */
    __atomic_store_n(&shmpi_device.ranges, r, __ATOMIC_RELEASE);
    if (shmpi_g.n_pes > 1)
        shmpi_barrier_comm(shmpi_g.comm, NULL);
    return 0;
}

int shmpi_device_unregister(const char *routine, void *ptr)
{
    shmpi_device_need_heap(routine);
    struct shmpi_device_range **at = &shmpi_device.ranges;
    while (*at && (*at)->base != ptr)
        at = &(*at)->next;
    struct shmpi_device_range *r = *at;
    int known = r != NULL, everywhere = known;
    MPI_Allreduce(&known, &everywhere, 1, MPI_INT, MPI_MIN, shmpi_g.comm);
    if (!everywhere) {
        if (!known)
            shmpi_warn(routine, "%p starts no range registered with shmemx_device_register",
                       ptr);
        return -1;
    }
    shmpi_device_enter(routine);
    shmpi_device_sync_context(routine); /* this PE's copies into peers' ranges, its streams' too */
    unmap_peers(routine, r->peer, r->vmm);
    *at = r->next;
    free(r);
    return 0;
}
