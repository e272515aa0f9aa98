/*
 * shape.c - the job's shape, worked out once at start-up (see shape.h).
 *
 * Start-up costs one exchange: each PE fills a card about itself (its
 * kernel, node, CPUs, /dev/shm room, settings that must agree, and where its
 * segments are) and one MPI_Iallgather hands every PE every card.  From the
 * cards each PE works out, with no further communication and the same
 * answer everywhere, the nodes, the crowding, whether the heaps fit in
 * /dev/shm, the pseudo-nodes and which segments every PE maps.  Blocking
 * MPI collectives spin, and with more PEs than CPUs each took tens of
 * milliseconds: the exchange is nonblocking and waited for while yielding
 * (docs/design.md, "Start-up").
 */
#include "shmpi.h"
#include "mpi_rma.h"
#include "shape.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

struct shmpi_shape shmpi_shape;

/* ---- this PE's card ------------------------------------------------------------------- */
static uint64_t fnv1a(uint64_t hash, const void *data, size_t len)
{
    const unsigned char *c = data;
    for (size_t i = 0; i < len; i++)
        hash = (hash ^ c[i]) * 1099511628211ULL;
    return hash;
}
#define FNV_START 1469598103934665603ULL

static void read_boot_id(char *id, size_t len)
{
    id[0] = '\0';
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(id, (int)len, f))
            id[0] = '\0';
        fclose(f);
    }
}

/* The CPUs this process may run on (all of them unless the launcher bound
 * it), as the range from its lowest to its highest CPU: exact for PEs bound
 * to one core or to a range, and for unbound ones. */
static void usable_cpus(uint32_t *first, uint32_t *last)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) {
        int lo = -1, hi = -1;
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set)) {
                if (lo < 0)
                    lo = c;
                hi = c;
            }
        *first = (uint32_t)lo;
        *last = (uint32_t)hi;
        return;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    *first = 0;
    *last = (uint32_t)(n > 0 ? n - 1 : 0);
}

/* The kernel (PEs on one share its CPUs, also on nodes emulated with
 * namespaces) and the node (PEs that can map each other's /dev/shm objects:
 * the same kernel, host name and /dev/shm). */
static void fill_machine(struct shmpi_pe_card *card)
{
    char boot[64], host[256] = "";
    read_boot_id(boot, sizeof boot);
    gethostname(host, sizeof host - 1);
    card->kernel = boot[0] ? fnv1a(FNV_START, boot, strlen(boot)) : fnv1a(FNV_START, host, strlen(host));
    struct stat shm;
    uint64_t shm_dev = stat("/dev/shm", &shm) == 0 ? (uint64_t)shm.st_dev : 0;
    uint64_t node = fnv1a(card->kernel, host, strlen(host));
    card->node = fnv1a(node, &shm_dev, sizeof shm_dev);
    usable_cpus(&card->cpu_first, &card->cpu_last);
    struct statvfs fs;
    card->shm_free = statvfs("/dev/shm", &fs) == 0 ? (uint64_t)fs.f_bavail * fs.f_frsize
                                                   : UINT64_MAX;
    card->amo_ops = shmpi_g.env.amo_ops;
    int level;
    MPI_Query_thread(&level);
    if (level == MPI_THREAD_MULTIPLE)
        card->flags |= SHMPI_CARD_THREAD_MULTIPLE;
    if (shmpi_g.env.progress_interval_us > 0)
        card->flags |= SHMPI_CARD_PROGRESS_ASKED;
    else if (shmpi_g.env.progress_interval_us < 0)
        card->flags |= SHMPI_CARD_PROGRESS_AUTO;
}

/* ---- what the cards say ---------------------------------------------------------------- */
static int by_kernel(const void *a, const void *b)
{
    uint64_t x = shmpi_shape.kernel_of[*(const int *)a], y = shmpi_shape.kernel_of[*(const int *)b];
    return x < y ? -1 : x > y;
}

/* Whether some kernel runs more of the world PEs pe[0..n) than its CPUs
 * (sorts pe by kernel: a run longer than its kernel's CPUs); the same
 * answer on every PE, since every PE has the same kernel table. */
static bool crowded_among(int *pe, int n)
{
    qsort(pe, (size_t)n, sizeof(int), by_kernel);
    bool crowded = false;
    for (int i = 0, run = 0; i < n && !crowded; i++) {
        run = i > 0 && shmpi_shape.kernel_of[pe[i]] == shmpi_shape.kernel_of[pe[i - 1]] ? run + 1 : 1;
        crowded = run > shmpi_shape.kernel_cpus[pe[i]];
    }
    return crowded;
}

struct cpu_range {
    uint32_t first, last;
};

static int by_first_cpu(const void *a, const void *b)
{
    uint32_t x = ((const struct cpu_range *)a)->first, y = ((const struct cpu_range *)b)->first;
    return x < y ? -1 : x > y;
}

/* For each PE the number of CPUs the PEs of its kernel may use together
 * (the union of their ranges): PEs bound one per core are not 1-CPU
 * machines.  pe[] is sorted by kernel (crowded_among's order). */
static void kernel_cpu_table(const struct shmpi_pe_card *cards, const int *pe, int n,
                             struct cpu_range *ranges)
{
    for (int start = 0, end; start < n; start = end) {
        uint64_t kernel = shmpi_shape.kernel_of[pe[start]];
        for (end = start; end < n && shmpi_shape.kernel_of[pe[end]] == kernel; end++)
            ranges[end - start] = (struct cpu_range){cards[pe[end]].cpu_first,
                                                     cards[pe[end]].cpu_last};
        int k = end - start, cpus = 0;
        qsort(ranges, (size_t)k, sizeof *ranges, by_first_cpu);
        for (int i = 0; i < k;) {
            uint32_t lo = ranges[i].first, hi = ranges[i].last;
            for (i++; i < k && ranges[i].first <= hi + 1; i++)
                if (ranges[i].last > hi)
                    hi = ranges[i].last;
            cpus += (int)(hi - lo + 1);
        }
        for (int i = start; i < end; i++)
            shmpi_shape.kernel_cpus[pe[i]] = cpus;
    }
}

/* Settings whose value decides how a word is reached must be the same on
 * every PE: a PE running a different executable (other segment sizes) or
 * with another SHMPI_AMO_OPS would corrupt memory silently. */
static void check_agreement(const struct shmpi_pe_card *cards, int n)
{
    const struct shmpi_pe_card *me = &cards[shmpi_g.my_pe];
    for (int pe = 0; pe < n; pe++) {
        if (cards[pe].data_size != me->data_size)
            shmpi_abort("shmem_init",
                        "the static data segment is %llu bytes here but differs on another PE "
                        "(PE %d: %llu bytes): every PE must run the same executable",
                        (unsigned long long)me->data_size, pe,
                        (unsigned long long)cards[pe].data_size);
        if (cards[pe].amo_ops != me->amo_ops)
            shmpi_abort("shmem_init", "SHMPI_AMO_OPS=\"%s\" here differs on another PE (PE %d)",
                        shmpi_g.env.amo_ops_text, pe);
    }
}

static const struct shmpi_pe_card *sort_cards;

static int by_pe(const void *a, const void *b)
{
    int p = *(const int *)a, q = *(const int *)b;
    return (p > q) - (p < q);
}

static int by_node(const void *a, const void *b)
{
    int p = *(const int *)a, q = *(const int *)b;
    uint64_t x = sort_cards[p].node, y = sort_cards[q].node;
    return x != y ? (x < y ? -1 : 1) : (p > q) - (p < q);
}

/* The nodes: order[] is every PE sorted by node and then PE, so a node is
 * a run.  Records the PEs of this PE's (physical) node in world order and
 * the number of nodes; returns whether the heaps (and static data) of
 * every node fit its /dev/shm, the lowest PE of a short node saying so. */
static bool find_nodes(const struct shmpi_pe_card *cards, int *order, int n, size_t per_pe)
{
    struct shmpi_shape *sh = &shmpi_shape;
    for (int pe = 0; pe < n; pe++)
        order[pe] = pe;
    sort_cards = cards;
    qsort(order, (size_t)n, sizeof(int), by_node);
    bool fits_everywhere = true;
    sh->nodes = 0;
    sh->n_leaders = 0;
    for (int start = 0, end; start < n; start = end) {
        uint64_t node = cards[order[start]].node, avail = UINT64_MAX;
        for (end = start; end < n && cards[order[end]].node == node; end++)
            if (cards[order[end]].shm_free < avail)
                avail = cards[order[end]].shm_free;
        sh->nodes++;
        int on_node = end - start;
        int group = sh->pseudo_nodes ? shmpi_g.env.pseudo_node_size : on_node;
        for (int i = start; i < end; i += group)
            sh->leader_pe[sh->n_leaders++] = order[i];
        if (node == cards[shmpi_g.my_pe].node) {
            sh->machine_leader = order[start];
            memcpy(sh->node_pe, order + start, (size_t)on_node * sizeof(int));
            sh->node_size = on_node;
        }
        double need = (double)per_pe * on_node;
        if (need <= (double)avail)
            continue;
        fits_everywhere = false;
        if (order[start] == shmpi_g.my_pe)
            shmpi_warn("shmem_init",
                       "/dev/shm has %.0f MiB free, but the %d PEs of this node need %.0f MiB "
                       "(SHMEM_SYMMETRIC_SIZE=%zu bytes each). So their symmetric heaps go to "
                       "private memory, and they reach each other through MPI (slower). Give "
                       "/dev/shm more room (docker run --shm-size=%.0fm) or lower "
                       "SHMEM_SYMMETRIC_SIZE.",
                       (double)avail / 1048576.0, on_node, need / 1048576.0,
                       shmpi_g.env.symmetric_size, need / 1048576.0 + 64);
    }
    sh->spans_nodes = sh->nodes > 1;
    qsort(sh->leader_pe, (size_t)sh->n_leaders, sizeof(int), by_pe);
    return fits_everywhere;
}

/* The PEs whose index on their (physical) node is this PE's, one from each
 * node with that many PEs, in world order (SHMEMX_TEAM_SAME_MYPE_NODE):
 * order[] as find_nodes left it, nodes as runs in world order. */
static void find_same_index(const struct shmpi_pe_card *cards, const int *order, int n)
{
    struct shmpi_shape *sh = &shmpi_shape;
    int index = 0;
    while (sh->node_pe[index] != shmpi_g.my_pe)
        index++;
    sh->same_index_size = 0;
    for (int start = 0, end; start < n; start = end) {
        for (end = start; end < n && cards[order[end]].node == cards[order[start]].node; end++)
            ;
        if (end - start > index)
            sh->same_index_pe[sh->same_index_size++] = order[start + index];
    }
    qsort(sh->same_index_pe, (size_t)sh->same_index_size, sizeof(int), by_pe);
}

/* ---- start-up -------------------------------------------------------------------------- */
void shmpi_shape_init(void)
{
    struct shmpi_shape *sh = &shmpi_shape;
    int n = shmpi_g.n_pes;
    for (int s = 0; s < SHMPI_NSEGS; s++) {
        sh->peer_ptr[s] = calloc((size_t)n, sizeof(char *));
        if (!sh->peer_ptr[s])
            shmpi_abort("shmem_init", "out of memory for %d PEs' segment tables", n);
        sh->all_mapped[s] = false;
    }
    sh->kernel_of = malloc((size_t)n * sizeof(uint64_t));
    sh->kernel_cpus = malloc((size_t)n * sizeof(int));
    sh->node_pe = malloc((size_t)n * sizeof(int));
    sh->leader_pe = malloc((size_t)n * sizeof(int));
    sh->same_index_pe = malloc((size_t)n * sizeof(int));
    sh->cards = malloc((size_t)n * sizeof(struct shmpi_pe_card));
    if (!sh->kernel_of || !sh->kernel_cpus || !sh->node_pe || !sh->leader_pe || !sh->cards ||
        !sh->same_index_pe)
        shmpi_abort("shmem_init", "out of memory for %d PEs' start-up tables", n);
    sh->shares_memory = !shmpi_g.env.mpi_only;
    sh->pseudo_nodes = shmpi_g.env.pseudo_node_size > 0;
    memset(&sh->mine, 0, sizeof sh->mine);
    fill_machine(&sh->mine);
}

void shmpi_shape_exchange_start(MPI_Request *req)
{
    struct shmpi_shape *sh = &shmpi_shape;
    MPI_Iallgather(&sh->mine, (int)sizeof sh->mine, MPI_BYTE, sh->cards, (int)sizeof sh->mine,
                   MPI_BYTE, shmpi_g.comm, req);
}

void shmpi_shape_exchange(void)
{
    struct shmpi_shape *sh = &shmpi_shape;
    int n = shmpi_g.n_pes;
    const struct shmpi_pe_card *cards = sh->cards;
    check_agreement(cards, n);

    int *order = malloc((size_t)n * sizeof(int));
    struct cpu_range *ranges = malloc((size_t)n * sizeof(struct cpu_range));
    if (!order || !ranges)
        shmpi_abort("shmem_init", "out of memory for %d PEs' start-up tables", n);
    for (int pe = 0; pe < n; pe++) {
        sh->kernel_of[pe] = cards[pe].kernel;
        order[pe] = pe;
    }
    qsort(order, (size_t)n, sizeof(int), by_kernel);
    kernel_cpu_table(cards, order, n, ranges);
    sh->crowded = crowded_among(order, n);
    free(ranges);

    size_t per_pe = shmpi_g.seg[SHMPI_SEG_HEAP].size +
                    (shmpi_g.env.share_static ? shmpi_g.seg[SHMPI_SEG_DATA].size : 0);
    if (!find_nodes(cards, order, n, per_pe))
        sh->shares_memory = false;
    find_same_index(cards, order, n);
    free(order);

    /* This PE's place in its node, then in its pseudo-node: groups of
     * SHMPI_PSEUDO_NODE_SIZE consecutive PEs of the node. */
    int rank = 0;
    while (sh->node_pe[rank] != shmpi_g.my_pe)
        rank++;
    if (sh->pseudo_nodes) {
        int size = shmpi_g.env.pseudo_node_size, first = rank / size * size;
        int count = sh->node_size - first < size ? sh->node_size - first : size;
        memmove(sh->node_pe, sh->node_pe + first, (size_t)count * sizeof(int));
        sh->node_size = count;
        rank -= first;
    }
    sh->node_rank = rank;
}

void shmpi_shape_no_shared_memory(void)
{
    shmpi_shape.shares_memory = false;
}

void shmpi_shape_mapped_init(void)
{
    struct shmpi_shape *sh = &shmpi_shape;
    for (int s = 0; s < SHMPI_NSEGS; s++) {
        /* One PE: its own memory is all there is (and there is no window).
         * Pseudo-nodes emulate separate nodes, whose words MPI updates.
         * Every PE decides from the same cards, so all agree. */
        bool all_mapped = shmpi_g.n_pes == 1 ||
                          (sh->shares_memory && !sh->pseudo_nodes && !sh->spans_nodes);
        for (int pe = 0; all_mapped && shmpi_g.n_pes > 1 && pe < shmpi_g.n_pes; pe++)
            all_mapped = s != SHMPI_SEG_DATA || (sh->cards[pe].flags & SHMPI_CARD_DATA_SHARED);
        sh->all_mapped[s] = all_mapped;
    }
    /* Who runs the progress thread, from every PE's card: AMOs go by message
     * only if all do, so that every owner serves them. */
    /* By default the thread runs across nodes, and on one node too where the
     * window carries traffic and the MPI's one-sided operations wait for
     * their target (Open MPI 5, mpi_rma.c). */
    bool some_unmapped = false;
    for (int s = 0; s < SHMPI_NSEGS; s++)
        some_unmapped = some_unmapped || !sh->all_mapped[s];
    bool auto_runs = !sh->crowded && (sh->spans_nodes ||
                                      (some_unmapped && shmpi_mpi_needs_target_progress()));
    sh->amo_by_message = true;
    for (int pe = 0; pe < shmpi_g.n_pes; pe++) {
        uint32_t flags = sh->cards[pe].flags;
        bool runs = (flags & SHMPI_CARD_THREAD_MULTIPLE) &&
                    ((flags & SHMPI_CARD_PROGRESS_ASKED) ||
                     ((flags & SHMPI_CARD_PROGRESS_AUTO) && auto_runs));
        if (pe == shmpi_g.my_pe)
            sh->progress_thread = runs;
        sh->amo_by_message = sh->amo_by_message && runs;
    }
}

void shmpi_shape_cards_free(void)
{
    free(shmpi_shape.cards);
    shmpi_shape.cards = NULL;
}

void shmpi_shape_fini(void)
{
    struct shmpi_shape *sh = &shmpi_shape;
    for (int s = 0; s < SHMPI_NSEGS; s++) {
        free(sh->peer_ptr[s]);
        sh->peer_ptr[s] = NULL;
        sh->all_mapped[s] = false;
    }
    sh->progress_thread = sh->amo_by_message = false;
    shmpi_shape_cards_free();
    free(sh->kernel_of);
    free(sh->kernel_cpus);
    free(sh->node_pe);
    free(sh->leader_pe);
    free(sh->same_index_pe);
    sh->leader_pe = NULL;
    sh->same_index_pe = NULL;
    sh->kernel_of = NULL;
    sh->kernel_cpus = NULL;
    sh->node_pe = NULL;
}

bool shmpi_shape_crowded_among(const int *world_pe, int n)
{
    int *pe = shmpi_xmalloc("shmem_init", (size_t)n * sizeof(int));
    memcpy(pe, world_pe, (size_t)n * sizeof(int));
    bool crowded = crowded_among(pe, n);
    free(pe);
    return crowded;
}

bool shmpi_shape_team_crowded(const struct shmpi_team *t)
{
    if (t == &shmpi_g.team_world || !t->world_pe)
        return shmpi_shape.crowded;
    return shmpi_shape_crowded_among(t->world_pe, t->n_pes);
}
