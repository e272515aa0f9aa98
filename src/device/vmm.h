/*
 * vmm.h - registered device memory made with the CUDA virtual memory API
 * (cuMemCreate, cuMemMap: cuda.core's VirtualMemoryResource, PyTorch's
 * expandable segments), which has no legacy IPC handle.  The allocation is
 * exported as a POSIX file descriptor, handed to the PEs of the machine
 * (pidfd_getfd, else SCM_RIGHTS over a Unix socket: SHMPI_FD_PASSING), and
 * imported and mapped there (docs/device-heap.md, "Registration").
 */
#ifndef SHMPI_VMM_H
#define SHMPI_VMM_H

#include "shmpi.h"
#include "cuda_driver.h"

/* What a PE says of its VMM range in the registration's card exchange. */
struct shmpi_vmm_card {
    unsigned long long alloc_size; /* the mapped allocation's size; 0: not VMM memory */
    int pid;                       /* the exporting process */
    int fd;                        /* its exported descriptor (pidfd_getfd takes it) */
};

/* A peer's VMM allocation mapped here (size 0: none). */
struct shmpi_vmm_map {
    CUdeviceptr base;
    size_t size;
    CUmemGenericAllocationHandle handle;
};

enum shmpi_vmm_kind { SHMPI_VMM_NOT, SHMPI_VMM_EXPORTED, SHMPI_VMM_REFUSED };

/* Whether [ptr, ptr+size) in the allocation [alloc_base, +alloc_size) (as
 * cuMemGetAddressRange gives it) is VMM memory; if so exports it into
 * `card` (EXPORTED), or writes why it cannot into `problem` (REFUSED). */
enum shmpi_vmm_kind shmpi_vmm_export(CUdeviceptr ptr, size_t size, CUdeviceptr alloc_base,
                                     size_t alloc_size, struct shmpi_vmm_card *card,
                                     char *problem, size_t problem_size);

/* Collective, once every PE's card is known (cards[n_pes]): maps the VMM
 * allocation of each PE of this machine that has one (alloc_size != 0) and
 * sets peer[pe] to it plus offsets[pe]; closes this PE's exported
 * descriptor.  Returns the mappings [n_pes] (free with shmpi_vmm_unmap). */
struct shmpi_vmm_map *shmpi_vmm_map_peers(const char *routine,
                                          const struct shmpi_vmm_card *cards,
                                          const unsigned long long *offsets, char **peer);
/* Undoes one mapping of shmpi_vmm_map_peers. */
void shmpi_vmm_unmap(const char *routine, struct shmpi_vmm_map *map);
/* Closes an exported descriptor that no exchange took (a refused registration). */
void shmpi_vmm_forget(struct shmpi_vmm_card *card);

#endif /* SHMPI_VMM_H */
