/*
 * device_word.h - the memory floor's word and copy operations on symmetric
 * device memory (the device heap or a registered range), used by the floors
 * above it (src/LAYERS): the stream routines (stream.c), the network path's
 * server (device_net.c) and the host routines on device words.
 */
#ifndef SHMPI_DEVICE_WORD_H
#define SHMPI_DEVICE_WORD_H

#include "device_heap.h"

/* The device heap's context made current in the calling thread, after
 * checking that the job has a device heap and, for `signals`, 64-bit stream
 * memory operations; ends the job with one line otherwise. */
CUcontext shmpi_device_enter_heap(const char *routine, bool signals);
/* PE pe's mapping of the symmetric device range [addr, addr+len) that
 * `what` of ROUTINE names; ends the job with one line if the range is not
 * in the device heap or a registered range. */
char *shmpi_stream_peer(const char *routine, const char *what, const void *addr, size_t len,
                        int pe);
/* A copy on the stream (either side host or device memory). */
void shmpi_stream_copy(const char *routine, void *to, const void *from, size_t len,
                       CUstream stream);

/* Ends the job unless sig_op is SHMEM_SIGNAL_SET or _ADD and sig_addr is
 * 8-byte aligned; _peer also unless PE pe's word is mapped here. */
void shmpi_device_check_signal(const char *routine, uint64_t *sig_addr, int sig_op);
char *shmpi_device_signal_peer(const char *routine, uint64_t *sig_addr, int sig_op, int pe);
/* SHMEM_SIGNAL_SET (a stream write) or _ADD (shmpi's kernel) of `signal` on
 * the word at `word` (a mapping here), enqueued on `stream`. */
void shmpi_device_signal_word(const char *routine, char *word, uint64_t signal, int sig_op,
                              CUstream stream);

/* Host routines on words in the device heap (or a registered range),
 * through shmpi's own stream, complete when they return.  A signal (SET or
 * ADD) to PE pe's word where it is mapped here (false, nothing done, where
 * it is not: shmpi_device_word_signal of device_reach.h goes through the
 * network then); a fetch of it; a wait until this PE's word compares (any
 * comparison: the host fetches it at each look, serving as every wait
 * does), which returns the word's value then. */
bool shmpi_device_word_signal_mapped(const char *routine, uint64_t *sig_addr, uint64_t signal,
                                     int sig_op, int pe);
uint64_t shmpi_device_word_fetch(const char *routine, const uint64_t *addr, int pe);
/* The same for a variable of len bytes (the point-to-point waits and tests). */
void shmpi_device_word_read(const char *routine, void *to, const void *addr, size_t len, int pe);
uint64_t shmpi_device_word_wait(const char *routine, const uint64_t *addr, int cmp,
                                uint64_t cmp_value);

/* At finalize, the context current and idle: unloads the signal kernel. */
void shmpi_device_word_fini(void);

#endif /* SHMPI_DEVICE_WORD_H */
