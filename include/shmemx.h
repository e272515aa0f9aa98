/*
 * shmemx.h - shmpi extensions to OpenSHMEM (names start with shmemx_).
 */
#ifndef SHMEMX_H
#define SHMEMX_H

#include <shmem.h>
#include <shmpi_stream.h>

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
 * refused).  Signals (put_signal, signal_add/set/fetch/wait_until) and
 * single-variable wait_until and test work on device-heap words through
 * the driver; AMOs and the _all/_any/_some waits end the job with one line. */
int shmemx_device_heap_available(void);
void *shmemx_device_malloc(size_t size);
void *shmemx_device_calloc(size_t count, size_t size);
void shmemx_device_free(void *ptr);

/* ---- late start, external memory, the machine's team ------------------------------
 * shmemx_device_init(device, heap_size): collective over all PEs, after
 * shmem_init; starts the device heap when shmem_init did not (shmem4py and
 * other bindings initialize before a program picks its GPU).  device: the
 * GPU ordinal to use, or -1 for the context current in the calling thread,
 * else the PE's index on its machine modulo the visible GPUs; heap_size: the
 * bytes of the device heap, or 0 for SHMPI_DEVICE_HEAP_SIZE (1 GiB when that
 * is unset too).  Returns 0; also when the heap exists already (its size
 * unchanged).  shmemx_device_ordinal: the heap's GPU ordinal, -1 without one.
 *
 * shmemx_device_register(ptr, size): collective over all PEs; makes the
 * device memory [ptr, ptr+size) (cudaMalloc, the same size on every PE, any
 * address) symmetric: this PE's address of it names the peers' registered
 * ranges in RMA, signal and stream routines, and shmem_ptr maps them.
 * Returns 0, or -1 (with a warning) when the range is not device memory or
 * overlaps a registered one.  shmemx_device_unregister(ptr): collective,
 * with the ptr registered; returns 0, or -1 if ptr starts no registered range.
 *
 * SHMEMX_TEAM_NODE: the PEs of this PE's machine (those whose device heaps
 * it maps), in every mode (SHMPI_MPI_ONLY, SHMPI_PSEUDO_NODE_SIZE change
 * SHMEM_TEAM_SHARED, not this team); NVSHMEM's NVSHMEMX_TEAM_NODE. */
int shmemx_device_init(int device, size_t heap_size);
int shmemx_device_ordinal(void);
int shmemx_device_register(void *ptr, size_t size);
int shmemx_device_unregister(void *ptr);
#define SHMEMX_TEAM_NODE ((shmem_team_t)(uintptr_t)3)

/* ---- teams NVSHMEM has ------------------------------------------------------------
 * SHMEMX_TEAM_SAME_MYPE_NODE: the PEs whose index on their machine (their
 * team PE in SHMEMX_TEAM_NODE) equals this PE's, in world order; NVSHMEM's
 * NVSHMEMX_TEAM_SAME_MYPE_NODE.  On one machine it is this PE alone; where
 * every machine runs one PE it is SHMEM_TEAM_WORLD.  Predefined like
 * SHMEMX_TEAM_NODE: valid from shmem_init to shmem_finalize, accepted by
 * every team routine, collective and stream collective, never destroyed
 * (shmem_team_destroy of it ends the job with one line).
 *
 * shmemx_team_get_uniqueid(&id): a job-unique nonzero id for one
 * shmemx_team_init (NVSHMEM's nvshmemx_team_get_uniqueid).  Not collective:
 * one PE asks for it and gives it to the future members.  The id names a
 * slot of this PE's (SHMPI_RENDEZVOUS_SLOTS = 128 at a time) until its
 * team is made; returns 0, or nonzero (with a line under SHMEM_DEBUG) when
 * id is NULL or every slot waits for a shmemx_team_init.  The members meet
 * through this PE's memory: where it computes outside shmpi, they wait for
 * it as AMOs aimed at it do (the progress thread serves them).
 *
 * shmemx_team_init(id, npes, pe_idx_in_team, config, config_mask,
 * &new_team): collective over the npes PEs that call it with the same id,
 * nobody else taking part (NVSHMEM's nvshmemx_team_init).  Each gives a
 * distinct pe_idx_in_team from 0 to npes - 1, and the new team's PE i is
 * the caller that gave i.  config and config_mask as for
 * shmem_team_split_strided.  The id is one shmemx_team_get_uniqueid gave
 * (its upper 32 bits are from 1 to the number of PEs), for one team; or
 * any other uint64 chosen by hand (every id below 2^32, 0 included), for
 * one team at a time and again once every member's call returned: its
 * members meet in a slot of a PE picked by the id's hash (where that PE
 * computes outside shmpi they wait as for an issued id's PE, and where
 * its 128 slots all hold rendezvous they wait for one).  Returns 0 with
 * the team, or nonzero and SHMEM_TEAM_INVALID (a line under SHMEM_DEBUG)
 * for npes < 1 or more than the PEs, an index out of range, an id of the
 * issued form no PE issued (or whose team was made), or a bad config.
 * Two callers with one index, or npes differing between callers, end the
 * job with one line.  A PE takes part in one call per id at a time;
 * destroy the team with shmem_team_destroy. */
#define SHMEMX_TEAM_SAME_MYPE_NODE ((shmem_team_t)(uintptr_t)4)
int shmemx_team_get_uniqueid(uint64_t *uniqueid);
int shmemx_team_init(uint64_t uniqueid, int npes, int pe_idx_in_team,
                     const shmem_team_config_t *config, long config_mask,
                     shmem_team_t *new_team);

/* ---- operations on CUDA streams (docs/device-heap.md, "Streams") ------------------
 * NVSHMEM's host routines nvshmemx_*_on_stream, with its argument order:
 * each enqueues its work on `stream` and returns at once; the stream's later
 * work sees the result, and the host waits only if it synchronizes the
 * stream.  shmemx_stream_t is struct CUstream_st *, the type of cudaStream_t
 * and CUstream: pass either unchanged (0 is the legacy default stream).  The
 * stream must belong to the device heap's context.  Remote buffers, signal
 * words and collective buffers are device-heap (or registered) addresses;
 * local buffers may be host or device memory.
 *
 * RMA: shmemx_putmem_on_stream(dest, source, nbytes, pe, stream), getmem,
 * their _nbi forms, the sized put8..put128/get8..get128 and the typed
 * shmemx_TYPENAME_put_on_stream (all OpenSHMEM RMA types), each also _nbi.
 * A blocking form and its _nbi form are the same on a stream: complete when
 * the stream reaches the next operation.
 * Signals: shmemx_putmem_signal_on_stream(dest, source, nbytes, sig_addr,
 * signal, sig_op, pe, stream) (also sized, typed, _nbi): the data, then the
 * signal (SHMEM_SIGNAL_SET; SHMEM_SIGNAL_ADD where the driver can run
 * shmpi's atomic kernel); shmemx_signal_op_on_stream; and
 * shmemx_signal_wait_until_on_stream(sig_addr, cmp, cmp_value, stream), which
 * holds the stream (not the host) until the local word compares: SHMEM_CMP_EQ,
 * SHMEM_CMP_GE, SHMEM_CMP_GT (others end the job with one line).
 * shmemx_quiet_on_stream: the stream waits for this PE's blocking-routine
 * nbi copies to the device heap too.
 * Barriers: shmemx_barrier_all_on_stream, shmemx_sync_all_on_stream,
 * shmemx_barrier_on_stream(team, stream), shmemx_team_sync_on_stream(team,
 * stream): a dissemination of stream writes and waits; every PE of the team
 * calls them in the same order.
 * Collectives (team, dest, source, count, [PE_root,] stream), returning 0:
 * shmemx_TYPENAME_broadcast_on_stream / fcollect / alltoall (and the mem
 * forms, counts in bytes), shmemx_TYPENAME_OP_reduce_on_stream and
 * shmemx_TYPENAME_OP_reducescatter_on_stream (nreduce: the elements of each
 * PE's result) for the team reduction types of OpenSHMEM 1.6 and for half
 * and bfloat16 (sum, prod, min, max).  dest and source are device-heap
 * addresses. */
struct CUstream_st;
typedef struct CUstream_st *shmemx_stream_t;
typedef uint16_t shmemx_half_t;     /* IEEE binary16 bits (CUDA's __half) */
typedef uint16_t shmemx_bfloat16_t; /* bfloat16 bits (CUDA's __nv_bfloat16) */

#define SHMPI_STREAM_ENTRY(RET, NAME, PARAMS, CALL) RET NAME PARAMS;
SHMPI_STREAM_ROUTINES
#undef SHMPI_STREAM_ENTRY

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SHMEMX_H */
