/*
 * diagnose.h - waits that explain themselves (diagnose.c).  The hooks of
 * the waiting loops (publish, tick, unpublish) are in progress.h beside
 * struct shmpi_waiter; these are the start and end.
 */
#ifndef SHMPI_DIAGNOSE_H
#define SHMPI_DIAGNOSE_H

/* After the heap and the teams (records live in the reserved block): the
 * hang report's communicator, if SHMPI_HANG_REPORT is on. */
void shmpi_diag_init(void);
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
