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

/* Checks that the job has a device heap and that `stream` belongs to its
 * context (made current in the calling thread); ends the job otherwise.
 * `signals`: the routine needs the 64-bit stream memory operations. */
void shmpi_stream_enter(const char *routine, CUstream stream, bool signals);
/* PE pe's mapping of the symmetric device range [addr, addr+len) that
 * `what` of ROUTINE names; ends the job with one line if the range is not
 * in the device heap or a registered range. */
char *shmpi_stream_peer(const char *routine, const char *what, const void *addr, size_t len,
                        int pe);
/* A copy on the stream (either side host or device memory). */
void shmpi_stream_copy(const char *routine, void *to, const void *from, size_t len,
                       CUstream stream);

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

/* Host routines on words in the device heap (or a registered range),
 * through shmpi's own stream, complete when they return: a signal (SET or
 * ADD) to PE pe's word; a fetch of it; a wait until this PE's word
 * compares (any comparison: the host fetches it at each look, serving as
 * every wait does), which returns the word's value then. */
void shmpi_device_word_signal(const char *routine, uint64_t *sig_addr, uint64_t signal,
                              int sig_op, int pe);
uint64_t shmpi_device_word_fetch(const char *routine, const uint64_t *addr, int pe);
/* The same for a variable of len bytes (the point-to-point waits and tests). */
void shmpi_device_word_read(const char *routine, void *to, const void *addr, size_t len, int pe);
uint64_t shmpi_device_word_wait(const char *routine, const uint64_t *addr, int cmp,
                                uint64_t cmp_value);

/* Start-up and finalize of the counts and of shmpi's kernel (device_heap.c
 * calls them). */
void shmpi_stream_init(const char *routine);
void shmpi_stream_fini(void);

#endif /* SHMPI_STREAM_DEVICE_H */
