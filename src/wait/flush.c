/*
 * flush.c - completing MPI RMA without taking the CPU from the target.
 *
 * MPI_Win_flush and its variants block, spinning in MPICH's progress
 * engine, and with MPICH ch4 an operation completes only while its target
 * is inside MPI.  When a node runs more PEs than it has cores, a spinning
 * origin keeps its core for a whole time slice while the target it waits
 * for is not scheduled, and every AMO waits for a time slice
 * (benchmarks/RESULTS.md, "Measurements behind design constants").
 *
 * So when waits must yield (shmpi_g.yield_waits: SHMPI_YIELD_WAITS, by
 * default when the job is crowded, shmpi_job_crowded), a flush first
 * waits, yielding, for a request-based probe aimed at the same target, and only then calls the
 * real MPI flush, which by then has (nearly) nothing left to wait for:
 *   - the probe is MPI_Rget_accumulate(MPI_NO_OP) of one word; its request
 *     completes when the target answered it (shmpi_wait_request yields);
 *   - the window asks for no accumulate ordering (window.c), so MPI does not
 *     promise that the probe is applied after the operations before it; in
 *     practice MPICH keeps one ordered channel per target, so the probe's
 *     answer means they are done, and the real flush keeps the result
 *     correct when they are not.
 * MPI_NO_OP accumulates are atomic with the window's compare-and-swaps, so
 * a probe may read any symmetric word, even one being updated.
 */
#include "shmpi.h"
#include "flush.h"
#include "mpi_rma.h"
#include "shape.h"
#include "progress.h"

#include <stdlib.h>

/* The default probe reads the first word of the target's heap: shmpi's
 * reserved block, which every PE has. */
static MPI_Aint reserved_word(int pe)
{
    return shmpi_rma_disp(SHMPI_SEG_HEAP, pe, 0);
}

static void probe_start(int pe, MPI_Aint disp, MPI_Datatype type, uint64_t *result,
                        MPI_Request *req)
{
    uint64_t unused = 0;
    shmpi_rma_rget_accumulate(&unused, result, type, pe, disp, MPI_NO_OP, req);
}

/* Reads the word through a probe, waiting (yielding) for the answer. */
static void probe_wait(int pe, MPI_Aint disp, MPI_Datatype type, uint64_t *result)
{
    MPI_Request req;
    probe_start(pe, disp, type, result, &req);
    /* a wait that lasts names pe: the operation completes once pe enters MPI */
    const struct shmpi_waiter awaiting = {.needs = SHMPI_NEEDS_PE, .pe = pe,
                                          .waits_in = SHMPI_WAITS_FOR_MPI};
    shmpi_wait_request_needing(&req, &awaiting);
}

void shmpi_fetch_word(int pe, MPI_Aint disp, MPI_Datatype type, uint64_t *result)
{
    if (shmpi_g.yield_waits) {
        probe_wait(pe, disp, type, result);
        return;
    }
    uint64_t unused = 0;
    shmpi_rma_fetch_and_op(&unused, result, type, pe, disp, MPI_NO_OP);
    shmpi_rma_flush(pe);
}

void shmpi_flush_word(int pe, MPI_Aint disp, MPI_Datatype type)
{
    if (!shmpi_rma_active()) /* one PE: nothing goes through MPI */
        return;
    if (shmpi_g.yield_waits) {
        uint64_t unused;
        probe_wait(pe, disp, type, &unused);
    }
    shmpi_rma_flush(pe);
}

void shmpi_flush(int pe)
{
    shmpi_flush_word(pe, reserved_word(pe), MPI_UINT64_T);
}

/* ---- sets of PEs ---------------------------------------------------------------------- */
void shmpi_pe_set_wait_each(struct shmpi_pe_set *set,
                            void (*start)(int pe, uint64_t *result, MPI_Request *req))
{
    /* All of a word's PEs in flight at once. */
    enum { BATCH = 64 };
    for (size_t w = 0; w < set->words; w++) {
        uint64_t bits = atomic_exchange_explicit(&set->bits[w], 0, memory_order_acq_rel);
        MPI_Request reqs[BATCH];
        uint64_t results[BATCH];
        int count = 0;
        for (; bits; bits &= bits - 1) {
            start((int)(w * 64) + __builtin_ctzll(bits), &results[count], &reqs[count]);
            count++;
        }
        for (int i = 0; i < count; i++)
            shmpi_wait_request(&reqs[i]);
    }
}

/* PEs with MPI puts not yet flushed (yield mode only).  One set for all
 * contexts: a quiet of one context clears the bits of all, so another
 * context's quiet may find its PEs unmarked; its MPI flush then still
 * completes them, only without yielding first. */
static struct shmpi_pe_set pending;

void shmpi_flush_mark(int pe)
{
    shmpi_pe_set_add(&pending, pe);
}

static void probe_reserved_word(int pe, uint64_t *result, MPI_Request *req)
{
    probe_start(pe, reserved_word(pe), MPI_UINT64_T, result, req);
}

void shmpi_flush_all(void)
{
    if (!shmpi_rma_active())
        return;
    if (shmpi_g.yield_waits)
        shmpi_pe_set_wait_each(&pending, probe_reserved_word); /* probes to the marked PEs */
    shmpi_rma_flush_all();
}

void shmpi_flush_init(void)
{
    shmpi_g.yield_waits = shmpi_g.env.yield_waits < 0 ? shmpi_job_crowded()
                                                      : shmpi_g.env.yield_waits != 0;
    shmpi_pe_set_init(&pending, "flush state");
}

void shmpi_flush_fini(void)
{
    shmpi_pe_set_fini(&pending);
}
