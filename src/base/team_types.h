/*
 * team_types.h - the data of a team and of a context: what the global
 * state (shmpi.h) holds of the predefined teams and the default context,
 * and what the layers below the teams read of them (the waits, diagnose.c
 * and depart.c: a team's members).  What is done with them is team.h and
 * ctx.h (src/team).
 */
#ifndef SHMPI_TEAM_TYPES_H
#define SHMPI_TEAM_TYPES_H

struct shmpi_ctx;
struct shmpi_team_slot;

/* How a team's collectives use shared memory (coll_shm.c). */
struct shmpi_team_shm {
    int slot;                /* its slot in every member's reserved block, or -1:
                                MPI only (not all mapped, SHMPI_MPI_ONLY, no slot free) */
    unsigned mapped_segs;    /* bit s: every member maps every member's segment s */
    uint64_t seq;            /* the last event this member arrived at */
    uint64_t all_arrived;    /* every member was seen at this event or later */
    struct shmpi_team_slot **member_slot; /* [n_pes]: each member's slot, mapped here */
    bool tree_barrier;       /* barriers by dissemination, not by reading every counter */
    bool tree_bcast;         /* small broadcasts down a binomial tree */
    bool tree_reduce;        /* small reductions up and down a binomial tree */
};

struct shmpi_team {
    unsigned magic;          /* SHMPI_TEAM_MAGIC while the team exists */
    MPI_Comm comm;           /* the team's communicator (rank == team PE) */
    int my_pe;               /* caller's PE in the team */
    int n_pes;
    int *world_pe;           /* [n_pes]: team PE -> world PE, NULL for the world team */
    /* World PE -> team PE (pe_index.c): when the members are an arithmetic
     * progression of world PEs (world_pe[i] == world_start + i * world_stride)
     * it is computed; otherwise by_world holds the world PEs in ascending
     * order followed by their team PEs (2 * n_pes ints, binary search). */
    int world_start, world_stride;
    int *by_world;
    shmem_team_config_t config;
    long config_mask;
    int n_contexts;          /* contexts created on this team and not destroyed */
    struct shmpi_ctx *contexts; /* those contexts (list through ctx->next; ctx.c) */
    struct shmpi_team *next, *prev; /* user teams not yet destroyed */
    bool predefined;         /* WORLD and SHARED are never destroyed by users */
    bool crowded;            /* the members on some machine outnumber its CPUs: MPI
                                collectives take their nonblocking form (coll.c) */
    struct shmpi_team_shm shm;
    /* For the wait records (diagnose.c): the same on every member. */
    uint64_t members_id;     /* from its members' world PEs: teams of the same PEs share it */
    uint64_t calls;          /* collectives called on it so far (the current one included) */
};
#define SHMPI_TEAM_MAGIC 0x7ea3c0deu

struct shmpi_ctx {
    unsigned magic;          /* SHMPI_CTX_MAGIC while the context exists */
    struct shmpi_team *team; /* PE numbers of operations are relative to it */
    long options;
    atomic_int mpi_pending;  /* MPI operations issued since the last flush */
    struct shmpi_ctx *next, *prev; /* the team's contexts */
};
#define SHMPI_CTX_MAGIC 0xc0c7e57au

#endif /* SHMPI_TEAM_TYPES_H */
