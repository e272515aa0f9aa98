/*
 * shmemx.h - shmpi extensions to OpenSHMEM (names start with shmemx_).
 */
#ifndef SHMEMX_H
#define SHMEMX_H

#include <shmem.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- MPI interoperability ---------------------------------------------------------
 * shmemx_team_get_mpi_comm: sets *comm to the MPI communicator of `team`,
 * whose rank of each PE is its PE number in the team.  The communicator
 * belongs to the team: it is valid until the team is destroyed (or
 * shmem_finalize for SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED) and must not
 * be freed; MPI_Comm_dup it to keep one.  Returns 0, or nonzero with
 * *comm = MPI_COMM_NULL when team is SHMEM_TEAM_INVALID.
 *
 * shmemx.h never includes mpi.h.  When mpi.h came first (MPI_VERSION is
 * defined), comm is declared as what it is, an MPI_Comm *; otherwise as a
 * void *, which takes an MPI_Comm * unchanged in C and C++, so that the
 * routine is declared whichever header a program includes first. */
#if defined(MPI_VERSION)
int shmemx_team_get_mpi_comm(shmem_team_t team, MPI_Comm *comm);
#else
int shmemx_team_get_mpi_comm(shmem_team_t team, void *comm);
#endif

/* ---- the device heap: symmetric memory in GPU memory (docs/device-heap.md) ---------
 * With SHMPI_DEVICE_HEAP_SIZE set (e.g. 1g), shmem_init gives every PE a
 * heap of that size in its GPU's memory (the GPU current when shmem_init
 * runs, else the PE's index on its machine modulo the visible GPUs), and
 * maps the device heaps of the other PEs of the machine through CUDA IPC.
 *
 * shmemx_device_heap_available: 1 if this job has a device heap, else 0.
 * shmemx_device_malloc, shmemx_device_calloc, shmemx_device_free: collective
 * like shmem_malloc, shmem_calloc and shmem_free (same size on every PE, a
 * barrier, NULL on every PE when the heap is full); the pointer is a device
 * address at the same offset on every PE.  Without a device heap they end
 * the job with a line saying to set SHMPI_DEVICE_HEAP_SIZE.
 *
 * Every put and get (typed, sized, mem, nbi, strided, ctx forms, put_signal
 * with the signal in host memory) may name a device-heap address as the
 * remote buffer; the local buffer may be host or device memory.  Blocking
 * forms complete before they return, nbi forms at shmem_quiet (and fence,
 * barrier).  shmem_ptr and shmem_team_ptr return the peer's device address,
 * which CUDA kernels may load and store.  Collectives on device-heap buffers
 * are staged through host memory (correct, not fast; strided alltoalls are
 * refused).  AMOs, signal and wait routines on device-heap addresses end the
 * job with one line. */
int shmemx_device_heap_available(void);
void *shmemx_device_malloc(size_t size);
void *shmemx_device_calloc(size_t count, size_t size);
void shmemx_device_free(void *ptr);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SHMEMX_H */
