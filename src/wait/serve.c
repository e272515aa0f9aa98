/*
 * serve.c - the server of the messages other PEs send this one: AMOs where
 * they are messages (shmpi_amo_by_message, shape.h; amo_message.c), and
 * transfers into and out of device memory this PE's peers do not map
 * (device_net.c).  Each kind is a channel: one receive always posted on a
 * communicator of its own, which every wait tests in the same MPI call as
 * what it waits for (shmpi_serve_test, called by shmpi_progress_test and
 * the progress thread, progress.c), one server at a time, which keeps each
 * origin's messages of a channel in their order.
 *
 * What a message asks for is the layer above's: each channel is started
 * with the size of its messages and the function that applies and answers
 * one (shmpi_serve_start); this file only receives.  That call through a
 * pointer is made only where a channel runs, once for each message that
 * arrived.
 */
#include "shmpi.h"
#include "serve.h"
#include "mpi_rma.h"

#include <string.h>

/* A channel's comm exists (shmpi_serve_start to shmpi_serve_stop) while
 * the receive of its next message is posted (from any PE: MPI matches one
 * sender's messages in the order sent).  `incoming` is touched only by the
 * holder of `serving`. */
struct channel {
    bool started;
    MPI_Comm comm;
    MPI_Request incoming;
    _Alignas(16) unsigned char message[SHMPI_SERVE_MAX_BYTES];
    int bytes;
    void (*handle)(const void *message, int origin);
};
static struct channel channels[SHMPI_SERVE_CHANNELS];
static atomic_int running; /* channels started and not stopped */
static atomic_flag serving = ATOMIC_FLAG_INIT;
/* Where an MPI_ANY_SOURCE receive misses the messages that arrived before
 * it was posted (shmpi_mpi_any_source_misses_arrived: MPICH 5.0's ucx
 * netmod), the channels post none: each test probes every channel
 * (MPI_Improbe, which finds them) and receives what it matched, in the
 * order each origin sent.  One MPI call a channel more per turn. */
static bool probing;

static void post_incoming(struct channel *c)
{
    if (!probing)
        MPI_Irecv(c->message, c->bytes, MPI_BYTE, MPI_ANY_SOURCE, 0, c->comm, &c->incoming);
}

int shmpi_serve_start(MPI_Comm comm, int bytes, void (*handle)(const void *message, int origin))
{
    int k = 0;
    while (k < SHMPI_SERVE_CHANNELS && channels[k].started)
        k++;
    if (k == SHMPI_SERVE_CHANNELS)
        shmpi_abort("shmem_init", "more than %d message servers", SHMPI_SERVE_CHANNELS);
    /* Taken under `serving`: a wait of another thread may test the channels. */
    while (atomic_flag_test_and_set_explicit(&serving, memory_order_acquire))
        ;
    if (atomic_load_explicit(&running, memory_order_relaxed) == 0) {
        probing = shmpi_mpi_any_source_misses_arrived();
        if (probing && shmpi_g.env.debug && shmpi_g.my_pe == 0)
            shmpi_warn("shmem_init", "MPICH 5 ucx: any-source receives probe");
    }
    struct channel *c = &channels[k];
    c->bytes = bytes;
    c->handle = handle;
    c->comm = comm;
    post_incoming(c);
    c->started = true;
    atomic_flag_clear_explicit(&serving, memory_order_release);
    atomic_fetch_add_explicit(&running, 1, memory_order_release);
    return k;
}

void shmpi_serve_stop(int k)
{
    if (k < 0 || !channels[k].started)
        return;
    struct channel *c = &channels[k];
    while (atomic_flag_test_and_set_explicit(&serving, memory_order_acquire))
        ;
    if (!probing) {
        MPI_Cancel(&c->incoming);
        MPI_Wait(&c->incoming, MPI_STATUS_IGNORE);
    }
    MPI_Comm_free(&c->comm);
    c->started = false;
    atomic_fetch_sub_explicit(&running, 1, memory_order_relaxed);
    atomic_flag_clear_explicit(&serving, memory_order_release);
}

/* The posted receives, MPI_REQUEST_NULL for channels not running. */
static void gather_incoming(MPI_Request *incoming)
{
    for (int k = 0; k < SHMPI_SERVE_CHANNELS; k++)
        incoming[k] = channels[k].started ? channels[k].incoming : MPI_REQUEST_NULL;
}

static void scatter_incoming(const MPI_Request *incoming)
{
    for (int k = 0; k < SHMPI_SERVE_CHANNELS; k++)
        if (channels[k].started)
            channels[k].incoming = incoming[k];
}

/* The probing form of shmpi_serve_test (`serving` held): the wait's request
 * is tested, then each channel's messages that arrived are received and
 * handled. */
static bool probe_channels(MPI_Request *req, int *done)
{
    if (req)
        MPI_Test(req, done, MPI_STATUS_IGNORE);
    bool served = false;
    for (int k = 0; k < SHMPI_SERVE_CHANNELS; k++) {
        struct channel *c = &channels[k];
        if (!c->started)
            continue;
        for (;;) {
            MPI_Message message;
            MPI_Status status;
            int arrived;
            MPI_Improbe(MPI_ANY_SOURCE, 0, c->comm, &arrived, &message, &status);
            if (!arrived)
                break;
            MPI_Mrecv(c->message, c->bytes, MPI_BYTE, &message, &status);
            c->handle(c->message, status.MPI_SOURCE);
            served = true;
        }
    }
    return served;
}

bool shmpi_serve_active(void)
{
    return atomic_load_explicit(&running, memory_order_relaxed) > 0;
}

bool shmpi_serve_test(MPI_Request *req, int *done)
{
    /* One server at a time (the program's threads or the progress thread),
     * which keeps each origin's messages in their order.  Waits of start-up
     * and finalize, outside the channels' life, find nothing to do. */
    if (!shmpi_serve_active() ||
        atomic_flag_test_and_set_explicit(&serving, memory_order_acquire)) {
        if (req)
            MPI_Test(req, done, MPI_STATUS_IGNORE);
        shmpi_progress_probe();
        return false;
    }
    if (probing) {
        bool served = probe_channels(req, done);
        atomic_flag_clear_explicit(&serving, memory_order_release);
        return served;
    }
    /* One call for the wait's request and every channel: the wait's turn
     * costs what MPI_Test costs.  (MPI_Testany skips null requests, and
     * says `arrived` with MPI_UNDEFINED when all are.) */
    MPI_Request all[1 + SHMPI_SERVE_CHANNELS];
    bool was_null = !req || *req == MPI_REQUEST_NULL;
    all[0] = req ? *req : MPI_REQUEST_NULL;
    gather_incoming(all + 1);
    MPI_Status status;
    int index, arrived;
    MPI_Testany(1 + SHMPI_SERVE_CHANNELS, all, &index, &arrived, &status);
    if (req) {
        *req = all[0];
        *done = was_null || (arrived && index == 0);
    }
    scatter_incoming(all + 1);
    bool served = false;
    while (arrived && index != MPI_UNDEFINED && index >= 1) {
        /* The receive is posted again before the message is handled. */
        struct channel *c = &channels[index - 1];
        unsigned char message[SHMPI_SERVE_MAX_BYTES];
        memcpy(message, c->message, sizeof message);
        post_incoming(c);
        c->handle(message, status.MPI_SOURCE);
        served = true;
        gather_incoming(all + 1);
        MPI_Testany(SHMPI_SERVE_CHANNELS, all + 1, &index, &arrived, &status);
        scatter_incoming(all + 1);
        if (index != MPI_UNDEFINED)
            index++;
    }
    atomic_flag_clear_explicit(&serving, memory_order_release);
    return served;
}
