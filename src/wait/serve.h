/*
 * serve.h - the server of other PEs' messages (serve.c), below the waiting
 * loops (progress.c), which test it on every turn.
 */
#ifndef SHMPI_SERVE_H
#define SHMPI_SERVE_H

#include "shmpi.h"

/* The server of messages from other PEs (serve.c), on channels: AMOs where
 * they are messages (amo_message.c), transfers of device memory not mapped
 * here (device_net.c).  shmpi_serve_start posts the receive of a channel's
 * next message (at most SHMPI_SERVE_MAX_BYTES) on `comm`, which it keeps,
 * and returns the channel; from then on every wait tests it, and `handle`
 * gets each message that arrived and the PE that sent it.
 * shmpi_serve_test: shmpi_progress_test's entry into MPI there (the wait's
 * *req and the messages in one call); whether it served any.
 * shmpi_serve_active: whether some channel runs (then the waits serve).
 * shmpi_serve_stop frees the channel's `comm`. */
#define SHMPI_SERVE_MAX_BYTES 64
#define SHMPI_SERVE_CHANNELS 2
int shmpi_serve_start(MPI_Comm comm, int bytes, void (*handle)(const void *message, int origin));
bool shmpi_serve_test(MPI_Request *req, int *done);
bool shmpi_serve_active(void);
void shmpi_serve_stop(int channel);
/* Enters MPI's progress engine once (the entry of shmpi_progress when
 * there are no messages to serve).  Inline: every turn of a wait without
 * a server makes it.  Any entry processes incoming RMA; probing a private
 * communicator is the cheapest (finalize's handshake is its only traffic,
 * and is received there). */
static inline void shmpi_progress_probe(void)
{
    int flag;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, shmpi_g.comm, &flag, MPI_STATUS_IGNORE);
}

#endif /* SHMPI_SERVE_H */
