/*
 * proxy.h - the stream proxy (docs/device-heap.md, "Streams across nodes:
 * the proxy"): a stream operation whose target PE's device memory is not
 * mapped here (another machine, SHMPI_DEVICE_IPC=0, or every other PE with
 * SHMPI_STREAM_PROXY=all) becomes a request in a queue of fixed size in
 * pinned host memory mapped into the device.  The stream flips the
 * request's ready word (cuStreamWriteValue64) and waits on its completion
 * word (cuStreamWaitValue64); the proxy thread of this PE sees the ready
 * word, does the transfer with the host routines, then writes the
 * completion word.  So the stream stays ordered, and the enqueuing host
 * thread never waits for the device.
 */
#ifndef SHMPI_PROXY_H
#define SHMPI_PROXY_H

#include "device_heap.h"

enum shmpi_proxy_op { SHMPI_PROXY_PUT, SHMPI_PROXY_GET, SHMPI_PROXY_SIGNAL };

/* What the proxy does for one stream operation: a put (then, with
 * sig_addr, a signal after the data is complete at PE pe), a get, or a
 * signal alone. */
struct shmpi_proxy_request {
    const char *routine;
    enum shmpi_proxy_op op;
    void *dest;
    const void *source;
    size_t len;
    int pe; /* world PE */
    uint64_t *sig_addr; /* NULL: no signal */
    uint64_t signal;
    int sig_op;
};

/* Whether a stream operation on PE pe's copy of [addr, addr+len) (this PE's
 * symmetric device address) goes through the proxy. */
bool shmpi_proxy_needed(const void *addr, size_t len, int pe);
/* Enqueues `req` on `stream`: its descriptor goes into a free slot (waiting
 * for one, serving as every wait does, while the queue is full), then the
 * stream's write of the slot's ready word and its wait for the slot's
 * completion word.  Ends the job with one line where the GPU cannot do
 * stream memory operations on mapped host memory. */
void shmpi_proxy_enqueue(const struct shmpi_proxy_request *req, CUstream stream);
/* At the device heap's start (after its peers are mapped): where some PE's
 * device memory is not mapped here, the proxy thread starts at once, to
 * serve the transfers other PEs send into this PE's device memory. */
void shmpi_proxy_init(const char *routine);
/* Stops the proxy thread and frees the queue (after every stream of the
 * context was synchronized). */
void shmpi_proxy_fini(void);

#endif /* SHMPI_PROXY_H */
