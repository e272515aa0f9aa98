/*
 * serve.c - the server of the messages other PEs send this one where AMOs
 * are messages (shmpi_amo_by_message, shape.h; amo_message.c): one receive
 * always posted on a communicator of its own, which every wait tests in
 * the same MPI call as what it waits for (shmpi_serve_test, called by
 * shmpi_progress_test and the progress thread, progress.c), one server at
 * a time, which keeps each origin's messages in their order.
 *
 * What a message asks for is the layer above's: amo_message.c starts the
 * server with the size of its messages and the function that applies and
 * answers one (shmpi_serve_start); this file only receives.  That call
 * through a pointer is made only where AMOs are messages, once for each
 * message that arrived.
 */
#include "shmpi.h"
#include "progress.h"

#include <string.h>

/* request_comm exists (shmpi_serve_start to shmpi_serve_stop) while the
 * receive of the next message is posted (from any PE: MPI matches one
 * sender's messages in the order sent).  `incoming` is touched only by the
 * holder of `serving`. */
static MPI_Comm request_comm = MPI_COMM_NULL;
static MPI_Request incoming = MPI_REQUEST_NULL;
static _Alignas(16) unsigned char incoming_message[SHMPI_SERVE_MAX_BYTES];
static int message_bytes;
static void (*handle_message)(const void *message, int origin);
static atomic_flag serving = ATOMIC_FLAG_INIT;

static void post_incoming(MPI_Comm comm)
{
    MPI_Irecv(incoming_message, message_bytes, MPI_BYTE, MPI_ANY_SOURCE, 0, comm, &incoming);
}

void shmpi_serve_start(MPI_Comm comm, int bytes, void (*handle)(const void *message, int origin))
{
    message_bytes = bytes;
    handle_message = handle;
    post_incoming(comm);
    /* All set up before request_comm is: the waits (and the progress
     * thread) serve as soon as it is set. */
    atomic_thread_fence(memory_order_release);
    request_comm = comm;
}

void shmpi_serve_stop(void)
{
    if (request_comm == MPI_COMM_NULL)
        return;
    MPI_Cancel(&incoming);
    MPI_Wait(&incoming, MPI_STATUS_IGNORE);
    MPI_Comm_free(&request_comm);
}

bool shmpi_serve_test(MPI_Request *req, int *done)
{
    /* One server at a time (the program's threads or the progress thread),
     * which keeps each origin's messages in their order.  Waits of start-up
     * and finalize, outside the communicators' life, find nothing to do. */
    if (request_comm == MPI_COMM_NULL ||
        atomic_flag_test_and_set_explicit(&serving, memory_order_acquire)) {
        if (req)
            MPI_Test(req, done, MPI_STATUS_IGNORE);
        shmpi_progress_probe();
        return false;
    }
    MPI_Status status;
    int arrived;
    if (req) {
        /* One call for both: the wait's turn costs what MPI_Test costs.
         * (MPI_Testany never reports a null request, which is done.) */
        bool was_null = *req == MPI_REQUEST_NULL;
        MPI_Request both[2] = {*req, incoming};
        int index;
        MPI_Testany(2, both, &index, &arrived, &status);
        *req = both[0];
        incoming = both[1];
        *done = was_null || (arrived && index == 0);
        arrived = arrived && index == 1;
    } else {
        MPI_Test(&incoming, &arrived, &status);
    }
    bool served = false;
    while (arrived) {
        /* The receive is posted again before the message is handled. */
        unsigned char message[SHMPI_SERVE_MAX_BYTES];
        memcpy(message, incoming_message, sizeof message);
        post_incoming(request_comm);
        handle_message(message, status.MPI_SOURCE);
        served = true;
        MPI_Test(&incoming, &arrived, &status);
    }
    atomic_flag_clear_explicit(&serving, memory_order_release);
    return served;
}
