/*
 * coll_p2p.h - small collectives as point-to-point rounds (coll_p2p.c),
 * which coll.c runs where AMOs are messages.
 */
#ifndef SHMPI_COLL_P2P_H
#define SHMPI_COLL_P2P_H

#include "shmpi.h"
#include "team.h"

/* ---- small collectives as point-to-point rounds (coll_p2p.c) ---------------------
 * Where AMOs are messages: each round waited for while serving them, on the
 * group's communicator (whose ranks are its PEs). */
void shmpi_p2p_bcast(const struct shmpi_group *g, void *buf, int nbytes, int root);
/* send may be MPI_IN_PLACE (the value is in recv). */
void shmpi_p2p_allreduce(const char *routine, const struct shmpi_group *g, const void *send,
                         void *recv, int count, MPI_Datatype type, MPI_Op op);
/* nbytes from every PE into recv in PE order; send may be MPI_IN_PLACE
 * (this PE's block already in recv). */
void shmpi_p2p_allgather(const char *routine, const struct shmpi_group *g, const void *send,
                         int nbytes, void *recv);
/* Block j of send (nbytes) to PE j, into block my_pe of its recv. */
void shmpi_p2p_alltoall(const char *routine, const struct shmpi_group *g, const void *send,
                        int nbytes, void *recv);

#endif /* SHMPI_COLL_P2P_H */
