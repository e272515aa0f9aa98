/*
 * amo_ops.c - SHMPI_AMO_OPS: MPI's own op for a program with one kind of
 * update.
 *
 * The compare-and-swap loop of amo_word.c keeps any mix of AMOs on a word
 * atomic, but under contention it retries, and a contended fetch_add then
 * takes longer than one MPI_Fetch_and_op(MPI_SUM) (benchmarks/RESULTS.md,
 * "Measurements behind design constants").  A program whose AMO routines
 * make one kind of update says so in SHMPI_AMO_OPS, and the MPI path then
 * uses that op directly (MPI_SUM on the unsigned type: the same bits as a
 * signed two's complement sum; the spec has no float add).  Locks and
 * signals, which mix kinds on their own words, call shmpi_amo and keep the
 * loop.  An AMO routine of a kind the variable does not list ends the job:
 * it could share a word with the direct op.  The CPU-atomic path needs none
 * of this.
 */
#include "amo_deferred.h"
#include "amo_message.h"
#include "amo_ops.h"
#include "mpi_rma.h"
#include "progress.h"

static const struct {
    const char *name;
    enum shmpi_amo_op op;
} op_names[] = {{"fetch", SHMPI_AMO_FETCH}, {"set", SHMPI_AMO_SET},
                {"swap", SHMPI_AMO_SWAP},   {"compare_swap", SHMPI_AMO_CSWAP},
                {"add", SHMPI_AMO_ADD},     {"and", SHMPI_AMO_AND},
                {"or", SHMPI_AMO_OR},       {"xor", SHMPI_AMO_XOR}};
#define OP_BIT(OP) (1u << SHMPI_AMO_##OP)

unsigned shmpi_amo_parse_ops(const char *text)
{
    if (strcmp(text, "any") == 0)
        return ~0u;
    unsigned ops = OP_BIT(FETCH); /* a read is atomic with every kind */
    for (const char *item = text;; item++) {
        size_t len = strcspn(item, ",");
        unsigned found = 0;
        for (size_t i = 0; i < sizeof op_names / sizeof op_names[0]; i++)
            if (strlen(op_names[i].name) == len && strncmp(item, op_names[i].name, len) == 0)
                found = 1u << op_names[i].op;
        if (!found)
            return 0;
        ops |= found;
        item += len;
        if (*item == '\0')
            return ops;
    }
}

struct direct_op {
    MPI_Op op;               /* MPI_OP_NULL: none, every update is a compare-and-swap */
    const char *name;
    const char *window_ops;  /* the which_accumulate_ops hint */
};

static struct direct_op direct_op_of(unsigned ops)
{
    unsigned updates = ops & ~OP_BIT(FETCH);
    if (updates == OP_BIT(ADD))
        return (struct direct_op){MPI_SUM, "MPI op sum", "sum,cswap,no_op"};
    if (updates == OP_BIT(AND))
        return (struct direct_op){MPI_BAND, "MPI op band", "band,cswap,no_op"};
    if (updates == OP_BIT(OR))
        return (struct direct_op){MPI_BOR, "MPI op bor", "bor,cswap,no_op"};
    if (updates == OP_BIT(XOR))
        return (struct direct_op){MPI_BXOR, "MPI op bxor", "bxor,cswap,no_op"};
    if (updates != 0 && (updates & ~(OP_BIT(SET) | OP_BIT(SWAP))) == 0)
        return (struct direct_op){MPI_REPLACE, "MPI op replace", "replace,cswap,no_op"};
    return (struct direct_op){MPI_OP_NULL, "compare-and-swap loop", "cswap,no_op"};
}

const char *shmpi_amo_window_ops(unsigned amo_ops)
{
    return direct_op_of(amo_ops).window_ops;
}

/* The direct op unless the MPI loses it (Open MPI 5.0's bitwise fetch-and-op,
 * src/shape/mpi_rma.c): then the compare-and-swap loop does those updates. */
static struct direct_op direct_op_here(unsigned amo_ops)
{
    struct direct_op direct = direct_op_of(amo_ops);
    if ((direct.op == MPI_BAND || direct.op == MPI_BOR || direct.op == MPI_BXOR) &&
        shmpi_rma_bitwise_fetch_op_lost()) {
        direct.op = MPI_OP_NULL;
        direct.name = "compare-and-swap loop (this MPI loses bitwise MPI_Fetch_and_op)";
    }
    return direct;
}

const char *shmpi_amo_direct_op_name(unsigned amo_ops)
{
    return direct_op_here(amo_ops).name;
}

void shmpi_amo_undeclared(const char *routine, enum shmpi_amo_op op)
{
    const char *name = "?";
    for (size_t i = 0; i < sizeof op_names / sizeof op_names[0]; i++)
        if (op_names[i].op == op)
            name = op_names[i].name;
    shmpi_abort(routine,
                "SHMPI_AMO_OPS=\"%s\" does not list %s: the program said its AMO routines "
                "make only those kinds of update",
                shmpi_g.env.amo_ops_text, name);
}

/* A wait completes the deferred AMOs (amo_deferred.c) while any wait. */
static void drain_waiting(void)
{
    shmpi_amo_drain(false);
}

void shmpi_amo_init(void)
{
    shmpi_progress_on_deferred(drain_waiting);
    /* (The value is the same on every PE: shape.c checks the cards.) */
    struct direct_op direct = direct_op_here(shmpi_g.env.amo_ops);
    if (shmpi_g.env.debug && shmpi_g.my_pe == 0 && direct.op == MPI_OP_NULL &&
        direct_op_of(shmpi_g.env.amo_ops).op != MPI_OP_NULL)
        shmpi_warn("shmem_init",
                   "SHMPI_AMO_OPS=%s: %s, not %s (docs/mpi-implementations.md)",
                   shmpi_g.env.amo_ops_text, direct.name, direct_op_of(shmpi_g.env.amo_ops).name);
    shmpi_amo_direct_mpi_op = direct.op;
    shmpi_amo_direct_ops = direct.op == MPI_OP_NULL ? 0 : shmpi_g.env.amo_ops & ~OP_BIT(FETCH);
    shmpi_amo_message_init();
}
