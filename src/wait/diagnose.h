/*
 * diagnose.h - waits that explain themselves (diagnose.c): the hooks of
 * the waiting loops (progress.c) and the start and end.
 */
#ifndef SHMPI_DIAGNOSE_H
#define SHMPI_DIAGNOSE_H

#include "waiter.h"

/* The record of a wait that lasts (its first slow turn), its heartbeat and
 * checks (later slow turns: order of collectives, every PE waiting), and
 * its end.  Only waits that already yield pay for any of it. */
void shmpi_diag_publish(struct shmpi_waiter *w);
void shmpi_diag_tick(struct shmpi_waiter *w, uint64_t waited_ns);
void shmpi_diag_unpublish(struct shmpi_waiter *w);

/* After the heap and the teams (records live in the reserved block): the
 * hang report's communicator, if SHMPI_HANG_REPORT is on, made by comm_dup
 * (shmpi_comm_dup, progress.h: the waiting loops are a floor above). */
void shmpi_diag_init(MPI_Comm (*comm_dup)(MPI_Comm comm));
/* In shmem_finalize once every PE is there: completes the hang rounds. */
void shmpi_diag_fini(void);
/* From the departure watch thread (depart.c), every WATCH_MS: a blocking MPI
 * call of the program's thread (struct shmpi_blocking) that lasts gets a
 * record and the checks, from this thread; the checks that need MPI only
 * where MPI gives MPI_THREAD_MULTIPLE. */
void shmpi_diag_watch(void);
/* From the departure watch: this PE will end the job for departed PE pe
 * soon; partners that blame pe or this PE leave the line to it. */
void shmpi_diag_blame_departed(int pe);

#endif
