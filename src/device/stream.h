/*
 * stream.h - operations on CUDA streams (docs/device-heap.md, "Streams"):
 * RMA, signals, waits and quiet enqueued on the caller's stream through the
 * peers' IPC mappings, and the stream words that the barriers on a stream
 * (src/coll/stream_coll.c) are made of.  Every routine enqueues and
 * returns; the host never waits for the device here.
 */
#ifndef SHMPI_STREAM_DEVICE_H
#define SHMPI_STREAM_DEVICE_H

#include "device_heap.h"
#include "device_reach.h"
#include "device_word.h"

/* Checks that the job has a device heap and that `stream` belongs to its
 * context (made current in the calling thread); ends the job otherwise.
 * `signals`: the routine needs the 64-bit stream memory operations. */
void shmpi_stream_enter(const char *routine, CUstream stream, bool signals);
/* A copy on the stream of len bytes of world PE pe's symmetric device
 * memory at `from` (this PE's address) to `to`: through PE pe's mapping, or
 * the stream proxy where it is not mapped here (another machine). */
void shmpi_stream_pull(const char *routine, void *to, const void *from, size_t len, int pe,
                       CUstream stream);

/* The routines of shmpi_stream.h (world PEs). */
void shmpi_stream_rma(const char *routine, bool is_put, void *dest, const void *source,
                      size_t nelems, size_t elem_size, int pe, CUstream stream);
void shmpi_stream_put_signal(const char *routine, void *dest, const void *source,
                             size_t nelems, size_t elem_size, uint64_t *sig_addr,
                             uint64_t signal, int sig_op, int pe, CUstream stream);
void shmpi_stream_signal(const char *routine, uint64_t *sig_addr, uint64_t signal, int sig_op,
                         int pe, CUstream stream);
void shmpi_stream_wait(const char *routine, uint64_t *sig_addr, int cmp, uint64_t cmp_value,
                       CUstream stream);
void shmpi_stream_quiet(const char *routine, CUstream stream);

/* One message of a barrier on a stream: world PE `to` learns, through its
 * word for this PE, that this PE's stream got here; and this PE's stream
 * waits until world PE `from` has said so as often as this PE waited for it.
 * The counts live on the host, so messages pair up in call order. */
void shmpi_stream_notify(const char *routine, int to, CUstream stream);
void shmpi_stream_await(const char *routine, int from, CUstream stream);

/* Pinned host memory of at least `size` bytes for the stream's work from
 * now until the shmpi_stream_release enqueued after its last use; and a
 * host function run in stream order (it must not call CUDA). */
void *shmpi_stream_staging(const char *routine, size_t size);
void shmpi_stream_release(const char *routine, void *staging, CUstream stream);
void shmpi_stream_host_func(const char *routine, void (*fn)(void *data), void *data,
                            CUstream stream);

/* Start-up and finalize of the counts and of shmpi's kernel (device_heap.c
 * calls them). */
void shmpi_stream_init(const char *routine);
void shmpi_stream_fini(void);

#endif /* SHMPI_STREAM_DEVICE_H */
