/*
 * How many PEs does each PE's own traffic reach in a program that only calls
 * shmem_init and shmem_finalize, PE 0 late?  Counted through the MPI
 * profiling interface: this program defines the MPI routines that send to a
 * peer (point-to-point sends and every one-sided call), records each target
 * as a world rank, and passes the call on to PMPI_.  libshmpi's calls land
 * here (a program's definitions come first).  At MPI_Finalize (called by
 * shmem_finalize) each PE prints "peers: PE n reached K: list";
 * tests/peers.test checks that K stays within 2 log2 N.
 * Argument: the seconds PE 0 waits before shmem_finalize (default 1).
 */
#include <mpi.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The build hides symbols by default: these must be seen by libshmpi. */
#pragma GCC visibility push(default)

static unsigned char *reached; /* [world size] */
static int world_size = -1;

static void reach(MPI_Group group, int rank)
{
    if (rank < 0 || world_size <= 0) /* MPI_PROC_NULL, or before MPI_Init */
        return;
    MPI_Group world;
    int in_world = MPI_UNDEFINED;
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    PMPI_Group_translate_ranks(group, 1, &rank, world, &in_world);
    PMPI_Group_free(&world);
    if (in_world >= 0 && in_world < world_size)
        reached[in_world] = 1;
}

static void reach_comm(MPI_Comm comm, int rank)
{
    MPI_Group group;
    PMPI_Comm_group(comm, &group);
    reach(group, rank);
    PMPI_Group_free(&group);
}

static void reach_win(MPI_Win win, int rank)
{
    MPI_Group group;
    PMPI_Win_get_group(win, &group);
    reach(group, rank);
    PMPI_Group_free(&group);
}

static void start_counting(void)
{
    PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
    reached = calloc((size_t)world_size, 1);
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    start_counting();
    return rc;
}

int MPI_Finalize(void)
{
    int me, count = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    char list[4096] = "";
    size_t len = 0;
    for (int pe = 0; pe < world_size; pe++)
        if (reached[pe]) {
            count++;
            len += (size_t)snprintf(list + len, len < sizeof list ? sizeof list - len : 0, " %d",
                                    pe);
        }
    printf("peers: PE %d reached %d:%s\n", me, count, list);
    fflush(stdout);
    free(reached);
    return PMPI_Finalize();
}

#define SEND(NAME)                                                                            \
    int NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) \
    {                                                                                         \
        reach_comm(comm, dest);                                                               \
        return P##NAME(buf, count, type, dest, tag, comm);                                    \
    }
#define ISEND(NAME)                                                                           \
    int NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, \
             MPI_Request *req)                                                                \
    {                                                                                         \
        reach_comm(comm, dest);                                                               \
        return P##NAME(buf, count, type, dest, tag, comm, req);                               \
    }
SEND(MPI_Send)
SEND(MPI_Ssend)
SEND(MPI_Rsend)
SEND(MPI_Bsend)
ISEND(MPI_Isend)
ISEND(MPI_Issend)
ISEND(MPI_Irsend)
ISEND(MPI_Ibsend)

int MPI_Put(const void *o, int oc, MPI_Datatype ot, int pe, MPI_Aint d, int tc, MPI_Datatype tt,
            MPI_Win w)
{
    reach_win(w, pe);
    return PMPI_Put(o, oc, ot, pe, d, tc, tt, w);
}
int MPI_Rput(const void *o, int oc, MPI_Datatype ot, int pe, MPI_Aint d, int tc,
             MPI_Datatype tt, MPI_Win w, MPI_Request *r)
{
    reach_win(w, pe);
    return PMPI_Rput(o, oc, ot, pe, d, tc, tt, w, r);
}
int MPI_Get(void *o, int oc, MPI_Datatype ot, int pe, MPI_Aint d, int tc, MPI_Datatype tt,
            MPI_Win w)
{
    reach_win(w, pe);
    return PMPI_Get(o, oc, ot, pe, d, tc, tt, w);
}
int MPI_Rget(void *o, int oc, MPI_Datatype ot, int pe, MPI_Aint d, int tc, MPI_Datatype tt,
             MPI_Win w, MPI_Request *r)
{
    reach_win(w, pe);
    return PMPI_Rget(o, oc, ot, pe, d, tc, tt, w, r);
}
int MPI_Accumulate(const void *o, int oc, MPI_Datatype ot, int pe, MPI_Aint d, int tc,
                   MPI_Datatype tt, MPI_Op op, MPI_Win w)
{
    reach_win(w, pe);
    return PMPI_Accumulate(o, oc, ot, pe, d, tc, tt, op, w);
}
int MPI_Raccumulate(const void *o, int oc, MPI_Datatype ot, int pe, MPI_Aint d, int tc,
                    MPI_Datatype tt, MPI_Op op, MPI_Win w, MPI_Request *r)
{
    reach_win(w, pe);
    return PMPI_Raccumulate(o, oc, ot, pe, d, tc, tt, op, w, r);
}
int MPI_Get_accumulate(const void *o, int oc, MPI_Datatype ot, void *res, int rc,
                       MPI_Datatype rt, int pe, MPI_Aint d, int tc, MPI_Datatype tt, MPI_Op op,
                       MPI_Win w)
{
    reach_win(w, pe);
    return PMPI_Get_accumulate(o, oc, ot, res, rc, rt, pe, d, tc, tt, op, w);
}
int MPI_Rget_accumulate(const void *o, int oc, MPI_Datatype ot, void *res, int rc,
                        MPI_Datatype rt, int pe, MPI_Aint d, int tc, MPI_Datatype tt, MPI_Op op,
                        MPI_Win w, MPI_Request *r)
{
    reach_win(w, pe);
    return PMPI_Rget_accumulate(o, oc, ot, res, rc, rt, pe, d, tc, tt, op, w, r);
}
int MPI_Fetch_and_op(const void *o, void *res, MPI_Datatype t, int pe, MPI_Aint d, MPI_Op op,
                     MPI_Win w)
{
    reach_win(w, pe);
    return PMPI_Fetch_and_op(o, res, t, pe, d, op, w);
}
int MPI_Compare_and_swap(const void *o, const void *c, void *res, MPI_Datatype t, int pe,
                         MPI_Aint d, MPI_Win w)
{
    reach_win(w, pe);
    return PMPI_Compare_and_swap(o, c, res, t, pe, d, w);
}

#pragma GCC visibility pop

int main(int argc, char **argv)
{
    unsigned late_s = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
    shmem_init();
    if (shmem_my_pe() == 0)
        sleep(late_s);
    shmem_finalize();
    return 0;
}
