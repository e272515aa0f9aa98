/*
 * waiter.h - what a waiting loop says about itself (struct shmpi_waiter):
 * the loops of progress.c keep it, diagnose.c publishes it and status.c
 * shows it.  Data only, below all three.
 */
#ifndef SHMPI_WAITER_H
#define SHMPI_WAITER_H

#include "shmpi.h"

/* What a wait waits in, for the other PEs to read (diagnose.c).  0: inferred
 * (in a collective when the wait needs a team or a PE, else for MPI). */
enum shmpi_waits_in {
    SHMPI_WAITS_IN_COLLECTIVE = 1, /* team (NULL: all PEs), routine */
    SHMPI_WAITS_ON_MEMORY,         /* wait_until, test, signal waits: addr */
    SHMPI_WAITS_ON_LOCK,           /* shmem_set_lock: addr */
    SHMPI_WAITS_FOR_MPI,           /* completion of this PE's own MPI operations */
};
/* A wait_until's comparison, which the status page shows (status.c). */
struct shmpi_wait_cmp {
    int cmp;                 /* SHMEM_CMP_* */
    unsigned char size;      /* bytes of the word */
    bool is_signed;
    uint64_t value;          /* the value compared with (bits) */
};
/* A waiting loop's state (shmpi_backoff, progress.h).  `*w` starts zeroed,
 * apart from what the loop says about itself; declare it with SHMPI_WAITER,
 * which takes its record back when the loop ends. */
struct shmpi_waiter {
    unsigned spins;      /* turns so far */
    unsigned looks;      /* quiet turns (shmpi_g.poll_quietly) so far */
    uint64_t since_ns;   /* when the loop began to yield (again, after serving AMOs) */
    uint64_t shown_ns;   /* when its record was published: the age the record shows */
    bool mpi_request;    /* it waits for an MPI request of this PE's own */
    bool calls_mpi;      /* the loop enters MPI itself on every turn (MPI_Test) */
    /* Whom the wait needs (the order check of diagnose.c, the watch of
     * depart.c).  SHMPI_NEEDS_NOBODY: not checked. */
    enum { SHMPI_NEEDS_NOBODY, SHMPI_NEEDS_TEAM, SHMPI_NEEDS_PE } needs;
    const struct shmpi_team *team; /* the team of a collective (NULL: all PEs) */
    int pe;                        /* SHMPI_NEEDS_PE: this world PE */
    bool finalize_may_meet;        /* a barrier over all PEs: shmem_finalize's pairs with it */
    /* What it waits in (diagnose.c). */
    unsigned char waits_in;        /* enum shmpi_waits_in, 0: inferred */
    /* (the flags beside waits_in: the struct stays as small as before cmp) */
    bool published;                /* its record is in this PE's reserved block */
    bool for_blocked_call;         /* the watch thread's, for a blocking MPI call (depart.c) */
    const char *routine;           /* NULL: shmpi_depart_routine */
    const void *addr;              /* SHMPI_WAITS_ON_MEMORY, _ON_LOCK */
    const struct shmpi_wait_cmp *cmp; /* a wait_until's on a host word, or NULL */
    unsigned long serial;          /* which wait of this PE it is */
    uint64_t next_look_ns;         /* when it next looks at the PEs it needs */
    int suspect;                   /* PE + 1 of one seen waiting in another collective */
    unsigned suspect_looks;        /* looks that saw it there */
};
/* The routine a wait for this PE's own MPI operations shows when its loop
 * names none (the MPI path of an AMO sets it; diagnose.c reads it). */
extern _Thread_local const char *shmpi_mpi_wait_routine;
/* The routine named when a wait finds that a PE it needs left (depart.c). */
extern _Thread_local const char *shmpi_depart_routine;

#endif /* SHMPI_WAITER_H */
