/*
 * coll_p2p.c - small collectives as point-to-point messages, waited for
 * while serving AMO messages (where AMOs are messages: between nodes).
 *
 * There a collective must not block inside MPI (every wait serves,
 * docs/design.md), and MPICH's nonblocking collectives took 1.08-1.20x its
 * blocking ones for 8-byte broadcasts, reductions, fcollects and alltoalls
 * between two nodes (benchmarks/RESULTS.md, "Between nodes").  For small
 * messages the blocking ones are a few rounds of point-to-point messages;
 * these are the same rounds (MPICH's algorithms for short messages), each
 * waited for with shmpi_wait_spinning, which tests the round's requests and
 * the posted AMO receive in one MPI call (crowded members, whose progress
 * thread was asked for, wait yielding: shmpi_wait_request).  Every PE sends O(log N)
 * messages (Bruck's alltoall: log N messages of up to N/2 blocks).
 *
 * Tags tell the kinds apart on a team's communicator; within a kind, MPI's
 * order of messages between two PEs matches rounds and calls, as every
 * member calls the team's collectives in the same order.
 */
#include "coll_p2p.h"
#include "progress.h"
#include "shape.h"

#include <stdlib.h>
#include <string.h>

enum { TAG_BCAST = 1000, TAG_REDUCE = 1100, TAG_GATHER = 1200, TAG_ALLTOALL = 1300 };

/* Up to this many bytes a round's scratch lives on the stack. */
#define STACK_BYTES 4096

/* Crowded members wait for their rounds yielding, as the team's (the
 * order check knows the team); the others spin (shmpi_wait_turn). */
struct rounds {
    const struct shmpi_group *g;
    struct shmpi_waiter needing;
    const struct shmpi_waiter *yielding;
};

static void rounds_init(struct rounds *r, const struct shmpi_group *g)
{
    r->g = g;
    r->needing = (struct shmpi_waiter){.needs = SHMPI_NEEDS_TEAM, .team = g->team};
    r->yielding = shmpi_team_crowded(g->team) ? &r->needing : NULL;
}

static void wait_one(const struct rounds *r, MPI_Request *req)
{
    shmpi_wait_turn(req, r->yielding);
}

/* One round: send `out` to rank `to`, receive `in` from rank `from`. */
static void exchange(const struct rounds *r, const void *out, int out_bytes, int to, void *in,
                     int in_bytes, int from, int tag)
{
    shmpi_exchange(r->g->comm, out, out_bytes, to, in, in_bytes, from, tag, r->yielding);
}

static void *scratch(const char *routine, size_t bytes, char *stack)
{
    return bytes <= STACK_BYTES ? stack : shmpi_xmalloc(routine, bytes);
}

static void scratch_free(void *p, const char *stack)
{
    if (p != stack)
        free(p);
}

void shmpi_p2p_bcast(const struct shmpi_group *g, void *buf, int nbytes, int root)
{
    int rank = g->my_pe, size = g->n_pes;
    struct rounds r;
    rounds_init(&r, g);
    MPI_Comm comm = g->comm;
    /* Binomial tree over ranks relative to the root: receive from the
     * parent (the rank without its lowest set bit), then send to each
     * child, farthest first. */
    int rel = (rank - root + size) % size, mask = 1;
    for (; mask < size; mask <<= 1)
        if (rel & mask) {
            MPI_Request req;
            MPI_Irecv(buf, nbytes, MPI_BYTE, (rank - mask + size) % size, TAG_BCAST, comm, &req);
            wait_one(&r, &req);
            break;
        }
    MPI_Request sends[32];
    int n_sends = 0;
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < size)
            MPI_Isend(buf, nbytes, MPI_BYTE, (rank + mask) % size, TAG_BCAST, comm,
                      &sends[n_sends++]);
    for (int i = 0; i < n_sends; i++)
        wait_one(&r, &sends[i]);
}

void shmpi_p2p_allreduce(const char *routine, const struct shmpi_group *g, const void *send,
                         void *recv, int count, MPI_Datatype type, MPI_Op op)
{
    int rank = g->my_pe, size = g->n_pes;
    struct rounds r;
    rounds_init(&r, g);
    MPI_Comm comm = g->comm;
    int type_size;
    MPI_Type_size(type, &type_size);
    int nbytes = count * type_size;
    if (send != MPI_IN_PLACE)
        memcpy(recv, send, (size_t)nbytes);
    char stack[STACK_BYTES];
    char *tmp = scratch(routine, (size_t)nbytes, stack);
    /* Recursive doubling over the largest power of two pof2 <= size; the
     * first 2 * rem ranks fold in pairs first (the even one gives its
     * value to the odd one) and get the result back at the end.  Each
     * step combines the lower rank's value before the higher's on both
     * partners, so every PE computes the same bits. */
    int pof2 = 1;
    while (pof2 * 2 <= size)
        pof2 *= 2;
    int rem = size - pof2, newrank;
    if (rank < 2 * rem) {
        if (rank % 2 == 0) {
            MPI_Request req;
            MPI_Isend(recv, nbytes, MPI_BYTE, rank + 1, TAG_REDUCE, comm, &req);
            wait_one(&r, &req);
            newrank = -1;
        } else {
            MPI_Request req;
            MPI_Irecv(tmp, nbytes, MPI_BYTE, rank - 1, TAG_REDUCE, comm, &req);
            wait_one(&r, &req);
            MPI_Reduce_local(tmp, recv, count, type, op); /* recv = tmp op recv */
            newrank = rank / 2;
        }
    } else {
        newrank = rank - rem;
    }
    if (newrank >= 0) {
        for (int mask = 1, round = 1; mask < pof2; mask <<= 1, round++) {
            int partner = newrank ^ mask;
            int peer = partner < rem ? partner * 2 + 1 : partner + rem;
            exchange(&r, recv, nbytes, peer, tmp, nbytes, peer, TAG_REDUCE + round);
            if (peer < rank) {
                MPI_Reduce_local(tmp, recv, count, type, op);
            } else {
                MPI_Reduce_local(recv, tmp, count, type, op);
                memcpy(recv, tmp, (size_t)nbytes);
            }
        }
    }
    if (rank < 2 * rem) {
        MPI_Request req;
        if (rank % 2)
            MPI_Isend(recv, nbytes, MPI_BYTE, rank - 1, TAG_REDUCE + 63, comm, &req);
        else
            MPI_Irecv(recv, nbytes, MPI_BYTE, rank + 1, TAG_REDUCE + 63, comm, &req);
        wait_one(&r, &req);
    }
    scratch_free(tmp, stack);
}

void shmpi_p2p_allgather(const char *routine, const struct shmpi_group *g, const void *send,
                         int nbytes, void *recv)
{
    int rank = g->my_pe, size = g->n_pes;
    struct rounds r;
    rounds_init(&r, g);
    /* Bruck: block i of tmp holds rank (rank + i)'s; in round k this PE
     * sends its first min(2^k, size - 2^k) blocks to rank - 2^k and
     * appends as many from rank + 2^k.  Then each block goes home. */
    size_t block = (size_t)nbytes, all = block * (size_t)size;
    char stack[STACK_BYTES];
    char *tmp = scratch(routine, all, stack);
    memcpy(tmp, send == MPI_IN_PLACE ? (char *)recv + block * (size_t)rank : send, block);
    for (int d = 1, round = 0; d < size; d *= 2, round++) {
        int count = d < size - d ? d : size - d;
        exchange(&r, tmp, count * nbytes, (rank - d + size) % size, tmp + block * (size_t)d,
                 count * nbytes, (rank + d) % size, TAG_GATHER + round);
    }
    for (int i = 0; i < size; i++)
        memcpy((char *)recv + block * (size_t)((rank + i) % size), tmp + block * (size_t)i,
               block);
    scratch_free(tmp, stack);
}

void shmpi_p2p_alltoall(const char *routine, const struct shmpi_group *g, const void *send,
                        int nbytes, void *recv)
{
    int rank = g->my_pe, size = g->n_pes;
    struct rounds r;
    rounds_init(&r, g);
    /* Bruck: rotate so that block i is for rank + i; in round k every block
     * whose index has bit k goes to rank + 2^k, and the same blocks come
     * from rank - 2^k into the same places; then block i is from rank - i. */
    size_t block = (size_t)nbytes, all = block * (size_t)size;
    char stack[3 * STACK_BYTES];
    char *tmp = all * 3 <= sizeof stack ? stack : shmpi_xmalloc(routine, 3 * all);
    char *out = tmp + all, *in = out + all;
    for (int i = 0; i < size; i++)
        memcpy(tmp + block * (size_t)i, (const char *)send + block * (size_t)((rank + i) % size),
               block);
    for (int d = 1, round = 0; d < size; d *= 2, round++) {
        size_t packed = 0;
        for (int i = d; i < size; i++)
            if (i & d) {
                memcpy(out + packed, tmp + block * (size_t)i, block);
                packed += block;
            }
        exchange(&r, out, (int)packed, (rank + d) % size, in, (int)packed,
                 (rank - d + size) % size, TAG_ALLTOALL + round);
        packed = 0;
        for (int i = d; i < size; i++)
            if (i & d) {
                memcpy(tmp + block * (size_t)i, in + packed, block);
                packed += block;
            }
    }
    for (int i = 0; i < size; i++)
        memcpy((char *)recv + block * (size_t)((rank - i + size) % size), tmp + block * (size_t)i,
               block);
    if (tmp != stack)
        free(tmp);
}
