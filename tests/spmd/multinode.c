/*
 * What must hold when the PEs of a job sit on several nodes (`make check-2nodes` and
 * `check-4nodes` run this on emulated nodes, tests/launch-nodes.sh, which sets
 * SHMPI_TEST_NODES and SHMPI_TEST_PPN; on one node the same checks run and the
 * other-node parts hold trivially).  PE numbers are MPI_COMM_WORLD ranks; the node of a
 * PE comes from MPI_COMM_TYPE_SHARED.
 *
 * Without arguments:
 *   placement  with SHMPI_TEST_NODES=N and SHMPI_TEST_PPN=P: N nodes of P PEs in blocks,
 *              PEs 0..P-1 on the first;
 *   shared     SHMEM_TEAM_SHARED is the set of PEs whose heap shmem_ptr maps, all on this
 *              node, and (default mode) exactly this node's PEs; shmem_ptr gives NULL for
 *              the heap and static data of every PE of another node; SHMEMX_TEAM_NODE
 *              is exactly this node's PEs in every mode, SHMEMX_TEAM_SAME_MYPE_NODE
 *              the PEs with this PE's index on their node (and a sum over it);
 *   reach      every PE puts to, gets from, and adds atomically to the static data and the
 *              heap of every PE; the values and totals are exact;
 *   order      each PE writes blocks to a PE it maps ("near": copies) and to one it does
 *              not ("far": MPI, on the other node where there is one) in one sequence:
 *              put, put, fence, flag put to each -> each sees its block complete when its
 *              flag arrives; put, put, quiet, flag on the far PE -> the far PE finds both
 *              blocks complete (its own, and the near PE's by a get).
 * With "mpi_only": the same under SHMPI_MPI_ONLY=1 (set before shmem_init).
 * With "busy USEC": the progress thread runs every USEC microseconds; the last PE computes
 * for BUSY_SECONDS without calling shmpi while PE 0 puts to its static data and heap,
 * gets, and adds atomically: each must complete well before the computation ends.
 * With "busy" alone, nothing set: the same for DEFAULT_BUSY_SECONDS, each operation within
 * DEFAULT_BUSY_LIMIT where the defaults promise it (a job across nodes with a CPU per PE:
 * the progress thread starts by itself), else only reported.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"
#include <shmemx.h>

#define MAX_PES 64
#define BLOCK 4096 /* longs per block (32 KiB) */
#define ROUNDS 12
#define BUSY_SECONDS 3.0
#define DEFAULT_BUSY_SECONDS 2.0
#define DEFAULT_BUSY_LIMIT 0.2

static long static_slots[MAX_PES];
static long static_counter;
static long busy_static;

static int n, me;
static int node_of[MAX_PES];   /* lowest PE of each PE's node */
static int group_of[MAX_PES];  /* lowest PE of each PE's SHMEM_TEAM_SHARED */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int env_on(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

static void learn_placement(void)
{
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int leader;
    MPI_Allreduce(&me, &leader, 1, MPI_INT, MPI_MIN, node);
    MPI_Comm_free(&node);
    MPI_Allgather(&leader, 1, MPI_INT, node_of, 1, MPI_INT, MPI_COMM_WORLD);
    int group = shmem_team_translate_pe(SHMEM_TEAM_SHARED, 0, SHMEM_TEAM_WORLD);
    MPI_Allgather(&group, 1, MPI_INT, group_of, 1, MPI_INT, MPI_COMM_WORLD);
}

/* The launcher's layout (SHMPI_TEST_NODES nodes of SHMPI_TEST_PPN PEs), or 0 without. */
static int expected_nodes, expected_ppn;

static void read_layout(void)
{
    const char *nodes = getenv("SHMPI_TEST_NODES"), *ppn = getenv("SHMPI_TEST_PPN");
    if (!nodes || !*nodes)
        return;
    expected_nodes = atoi(nodes);
    expected_ppn = ppn && *ppn ? atoi(ppn) : 0;
    CHECK(expected_nodes >= 1 && expected_ppn >= 1,
          "SHMPI_TEST_NODES=%s needs SHMPI_TEST_PPN (PEs per node) >= 1, got '%s'", nodes,
          ppn ? ppn : "(unset)");
}

static void check_placement(void)
{
    if (!expected_nodes)
        return;
    CHECK(n == expected_nodes * expected_ppn, "%d PEs, expected %d nodes of %d", n,
          expected_nodes, expected_ppn);
    int nodes_seen = 0;
    for (int pe = 0; pe < n; pe++) {
        int first = pe / expected_ppn * expected_ppn;
        CHECK(node_of[pe] == first, "PE %d is on the node of PE %d, expected PE %d", pe,
              node_of[pe], first);
        nodes_seen += node_of[pe] == pe;
    }
    CHECK(nodes_seen == expected_nodes, "%d nodes, expected %d", nodes_seen, expected_nodes);
}

static void check_shared(long *heap_word)
{
    int size = shmem_team_n_pes(SHMEM_TEAM_SHARED);
    int node_size = 0;
    for (int pe = 0; pe < n; pe++)
        node_size += node_of[pe] == node_of[me];
    CHECK(size >= 1 && size <= node_size, "SHMEM_TEAM_SHARED has %d PEs, node %d", size,
          node_size);
    CHECK(shmem_team_my_pe(SHMEM_TEAM_SHARED) >= 0, "not a member of SHMEM_TEAM_SHARED");
    if (!env_on("SHMPI_MPI_ONLY") && !env_on("SHMPI_PSEUDO_NODE_SIZE"))
        CHECK(size == node_size, "SHMEM_TEAM_SHARED has %d PEs, this node %d", size, node_size);
    int members = 0;
    for (int pe = 0; pe < n; pe++) {
        int in_team = group_of[pe] == group_of[me];
        members += in_team;
        CHECK((shmem_ptr(heap_word, pe) != NULL) == in_team,
              "shmem_ptr(heap, %d) %p but PE %d %s SHMEM_TEAM_SHARED", pe,
              shmem_ptr(heap_word, pe), pe, in_team ? "is in" : "is not in");
        if (node_of[pe] != node_of[me]) {
            CHECK(!in_team, "PE %d of another node is in SHMEM_TEAM_SHARED", pe);
            CHECK(shmem_ptr(&static_counter, pe) == NULL, "shmem_ptr(static, %d) of another node",
                  pe);
        }
    }
    CHECK(members == size, "%d PEs share the team's first PE, team has %d", members, size);
    for (int i = 0; i < size; i++) {
        int pe = shmem_team_translate_pe(SHMEM_TEAM_SHARED, i, SHMEM_TEAM_WORLD);
        CHECK(pe >= 0 && group_of[pe] == group_of[me], "team member %d is PE %d", i, pe);
    }
    /* SHMEMX_TEAM_NODE: exactly this node's PEs in world order, in every mode. */
    CHECK(shmem_team_n_pes(SHMEMX_TEAM_NODE) == node_size, "SHMEMX_TEAM_NODE has %d PEs, node %d",
          shmem_team_n_pes(SHMEMX_TEAM_NODE), node_size);
    for (int i = 0, pe = 0; i < node_size; i++, pe++) {
        while (node_of[pe] != node_of[me])
            pe++;
        CHECK(shmem_team_translate_pe(SHMEMX_TEAM_NODE, i, SHMEM_TEAM_WORLD) == pe,
              "SHMEMX_TEAM_NODE member %d is PE %d, want PE %d", i,
              shmem_team_translate_pe(SHMEMX_TEAM_NODE, i, SHMEM_TEAM_WORLD), pe);
    }
}

/* A PE's index on its node: the PEs of the node before it, in world order. */
static int index_on_node(int pe)
{
    int index = 0;
    for (int q = 0; q < pe; q++)
        index += node_of[q] == node_of[pe];
    return index;
}

/* SHMEMX_TEAM_SAME_MYPE_NODE: exactly the PEs with this PE's index on their node, in
 * world order, in every mode; a sum over it. */
static void check_same_mype_node(void)
{
    static long src, sum;
    shmem_team_t same = SHMEMX_TEAM_SAME_MYPE_NODE;
    int mine = index_on_node(me), size = 0;
    long want = 0;
    for (int pe = 0; pe < n; pe++) {
        if (index_on_node(pe) != mine)
            continue;
        CHECK(shmem_team_translate_pe(same, size, SHMEM_TEAM_WORLD) == pe,
              "SHMEMX_TEAM_SAME_MYPE_NODE member %d is PE %d, want PE %d", size,
              shmem_team_translate_pe(same, size, SHMEM_TEAM_WORLD), pe);
        if (pe == me)
            CHECK(shmem_team_my_pe(same) == size, "SHMEMX_TEAM_SAME_MYPE_NODE: PE %d, want %d",
                  shmem_team_my_pe(same), size);
        want += pe + 1;
        size++;
    }
    CHECK(shmem_team_n_pes(same) == size, "SHMEMX_TEAM_SAME_MYPE_NODE has %d PEs, want %d",
          shmem_team_n_pes(same), size);
    src = me + 1;
    CHECK(shmem_long_sum_reduce(same, &sum, &src, 1) == 0 && sum == want,
          "SHMEMX_TEAM_SAME_MYPE_NODE sum %ld, want %ld", sum, want);
}

static long slot_value(int from, int to) { return 1000003L * (from + 1) + 7919L * to; }

static void check_reach(long *heap_slots, long *heap_counter)
{
    for (int pe = 0; pe < n; pe++) {
        shmem_long_p(&static_slots[me], slot_value(me, pe), pe);
        shmem_long_put(&heap_slots[me], (long[]){slot_value(me, pe) + 1}, 1, pe);
        shmem_long_atomic_fetch_add(&static_counter, me + 1, pe);
        shmem_long_atomic_add(heap_counter, 2 * (me + 1), pe);
    }
    shmem_barrier_all();
    long total = (long)n * (n + 1) / 2;
    CHECK(static_counter == total, "static counter %ld, expected %ld", static_counter, total);
    CHECK(*heap_counter == 2 * total, "heap counter %ld, expected %ld", *heap_counter, 2 * total);
    for (int from = 0; from < n; from++) {
        CHECK(static_slots[from] == slot_value(from, me), "static slot of PE %d: %ld", from,
              static_slots[from]);
        CHECK(heap_slots[from] == slot_value(from, me) + 1, "heap slot of PE %d: %ld", from,
              heap_slots[from]);
    }
    for (int pe = 0; pe < n; pe++) {
        long s = shmem_long_g(&static_slots[me], pe), h;
        shmem_long_get(&h, &heap_slots[me], 1, pe);
        CHECK(s == slot_value(me, pe) && h == slot_value(me, pe) + 1,
              "read back from PE %d: static %ld heap %ld", pe, s, h);
        CHECK(shmem_long_atomic_fetch(&static_counter, pe) == total, "counter of PE %d", pe);
    }
    shmem_barrier_all();
}

/* The peer this PE reaches by copies (its next SHMEM_TEAM_SHARED member), or -1. */
static int near_of(int o)
{
    for (int k = 1; k < n; k++) {
        int pe = (o + k) % n;
        if (group_of[pe] == group_of[o])
            return pe;
    }
    return -1;
}

/* A peer this PE reaches through MPI, on another node if there is one, or -1. */
static int far_of(int o)
{
    int fallback = -1;
    for (int k = 1; k < n; k++) {
        int pe = (o + k) % n;
        if (node_of[pe] != node_of[o])
            return pe;
        if (group_of[pe] != group_of[o] && fallback < 0)
            fallback = pe;
    }
    return fallback;
}

static long block_value(int origin, int round, int kind, long i)
{
    return ((long)origin << 40) + ((long)round << 24) + ((long)kind << 20) + i;
}

/* Blocks: fence_block[o] and quiet_block[o] hold origin o's data (BLOCK longs each);
 * fence_flag[o] and quiet_flag[o] its flags. */
static void check_order(long *fence_block, long *quiet_block, long *fence_flag,
                        long *quiet_flag, long *src)
{
    int near = near_of(me), far = far_of(me);
    for (int round = 1; round <= ROUNDS; round++) {
        /* fence: data to both, fence, a flag to each */
        for (long i = 0; i < BLOCK; i++)
            src[i] = block_value(me, round, 1, i);
        if (far >= 0)
            shmem_long_put(&fence_block[(long)me * BLOCK], src, BLOCK, far);
        if (near >= 0)
            shmem_long_put(&fence_block[(long)me * BLOCK], src, BLOCK, near);
        shmem_fence();
        if (far >= 0)
            shmem_long_p(&fence_flag[me], round, far);
        if (near >= 0)
            shmem_long_p(&fence_flag[me], round, near);
        /* quiet: data to both, quiet, one flag on the far PE (or the near one) */
        for (long i = 0; i < BLOCK; i++)
            src[i] = block_value(me, round, 2, i);
        if (near >= 0)
            shmem_long_put_nbi(&quiet_block[(long)me * BLOCK], src, BLOCK, near);
        if (far >= 0)
            shmem_long_put_nbi(&quiet_block[(long)me * BLOCK], src, BLOCK, far);
        shmem_quiet();
        int checker = far >= 0 ? far : near;
        if (checker >= 0)
            shmem_long_atomic_set(&quiet_flag[me], round, checker);

        /* As a target: every origin that chose this PE. */
        for (int o = 0; o < n; o++) {
            if (o == me)
                continue;
            int o_near = near_of(o), o_far = far_of(o);
            if (o_near == me || o_far == me) {
                shmem_long_wait_until(&fence_flag[o], SHMEM_CMP_EQ, round);
                for (long i = 0; i < BLOCK; i++)
                    CHECK(fence_block[(long)o * BLOCK + i] == block_value(o, round, 1, i),
                          "round %d: fence block of PE %d (%s) word %ld is %#lx", round, o,
                          o_far == me ? "far" : "near", i,
                          (unsigned long)fence_block[(long)o * BLOCK + i]);
            }
            int o_checker = o_far >= 0 ? o_far : o_near;
            if (o_checker == me) {
                shmem_long_wait_until(&quiet_flag[o], SHMEM_CMP_EQ, round);
                for (long i = 0; i < BLOCK; i++)
                    CHECK(quiet_block[(long)o * BLOCK + i] == block_value(o, round, 2, i),
                          "round %d: quiet block of PE %d here, word %ld", round, o, i);
                int other = o_checker == o_far ? o_near : -1;
                if (other >= 0) {
                    long *copy = malloc(BLOCK * sizeof(long));
                    CHECK(copy != NULL, "malloc");
                    shmem_long_get(copy, &quiet_block[(long)o * BLOCK], BLOCK, other);
                    for (long i = 0; i < BLOCK; i++)
                        CHECK(copy[i] == block_value(o, round, 2, i),
                              "round %d: quiet block of PE %d on its near PE %d, word %ld "
                              "is %#lx",
                              round, o, other, i, (unsigned long)copy[i]);
                    free(copy);
                }
            }
        }
        shmem_barrier_all();
    }
}

/* The last PE computes for `seconds` without calling shmpi (or MPI) while PE 0 puts to
 * its static data and heap, gets, and adds atomically: each operation must end within
 * `limit` seconds (0: only reported, where nothing promises it). */
static void busy(double seconds, double limit)
{
    long *heap_word = shmem_calloc(1, sizeof(long));
    CHECK(heap_word != NULL, "calloc");
    int target = n - 1;
    shmem_barrier_all();
    if (me == target) {
        volatile double x = 0;
        double end = now() + seconds;
        while (now() < end)
            for (int i = 0; i < 1000; i++)
                x += 1e-9 * i;
    } else if (me == 0) {
        struct timespec pause = {0, 200 * 1000 * 1000}; /* the target is computing now */
        nanosleep(&pause, NULL);
        double t[4], t0 = now();
        shmem_long_p(&busy_static, 42, target);
        shmem_quiet();
        t[0] = now() - t0;
        t0 = now();
        shmem_long_p(heap_word, 43, target);
        shmem_quiet();
        t[1] = now() - t0;
        t0 = now();
        long got = shmem_long_g(&busy_static, target);
        t[2] = now() - t0;
        t0 = now();
        long old = shmem_long_atomic_fetch_add(heap_word, 5, target);
        t[3] = now() - t0;
        CHECK(got == 42 && old == 43, "read back %ld, fetched %ld", got, old);
        printf("busy target PE %d: put+quiet static %.1f ms, heap %.1f ms; get %.1f ms; "
               "fetch_add %.1f ms (it computes %.0f s; limit %s)\n",
               target, 1e3 * t[0], 1e3 * t[1], 1e3 * t[2], 1e3 * t[3], seconds,
               limit > 0 ? "each under the limit" : "none here");
        fflush(stdout);
        for (int i = 0; i < 4 && limit > 0; i++)
            CHECK(t[i] < limit, "a busy PE's memory was not reachable while it computed: "
                  "operation %d took %.3f s (limit %.3f s)", i, t[i], limit);
    }
    shmem_barrier_all();
    if (me == target)
        CHECK(busy_static == 42 && *heap_word == 43 + 5, "after computing: static %ld heap %ld",
              busy_static, *heap_word);
    shmem_free(heap_word);
}

/* Whether shmpi's defaults promise progress for a PE that computes: the job spans nodes
 * (the launcher's SHMPI_TEST_NODES) and has a CPU for every PE (the emulated nodes share
 * this machine's). */
static int default_progress(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return expected_nodes > 1 && n <= cpus && !getenv("SHMPI_PROGRESS_THREAD");
}

int main(int argc, char **argv)
{
    int busy_mode = argc > 1 && strcmp(argv[1], "busy") == 0;
    if (busy_mode && argc > 2)
        setenv("SHMPI_PROGRESS_THREAD", argv[2], 1);
    if (argc > 1 && strcmp(argv[1], "mpi_only") == 0) /* the MPI path across nodes too */
        setenv("SHMPI_MPI_ONLY", "1", 1);
    shmem_init();
    n = shmem_n_pes();
    me = shmem_my_pe();
    CHECK(n <= MAX_PES, "at most %d PEs", MAX_PES);
    read_layout();
    learn_placement();
    check_placement();
    if (busy_mode) {
        CHECK(n >= 2, "busy needs 2 PEs");
        if (argc > 2) /* the thread asked for */
            busy(BUSY_SECONDS, BUSY_SECONDS / 3);
        else /* the defaults */
            busy(DEFAULT_BUSY_SECONDS, default_progress() ? DEFAULT_BUSY_LIMIT : 0);
        test_passed("multinode busy");
        shmem_finalize();
        return 0;
    }

    long *heap_slots = shmem_calloc(MAX_PES, sizeof(long));
    long *heap_counter = shmem_calloc(1, sizeof(long));
    long *fence_block = shmem_calloc((size_t)n * BLOCK, sizeof(long));
    long *quiet_block = shmem_calloc((size_t)n * BLOCK, sizeof(long));
    long *fence_flag = shmem_calloc((size_t)n, sizeof(long));
    long *quiet_flag = shmem_calloc((size_t)n, sizeof(long));
    long *src = malloc(BLOCK * sizeof(long));
    CHECK(heap_slots && heap_counter && fence_block && quiet_block && fence_flag && quiet_flag &&
              src,
          "allocation");
    check_shared(heap_counter);
    check_same_mype_node();
    check_reach(heap_slots, heap_counter);
    check_order(fence_block, quiet_block, fence_flag, quiet_flag, src);
    if (me == 0 && expected_nodes)
        printf("%d nodes of %d PEs; near of PE 0: %d, far: %d\n", expected_nodes,
               expected_ppn, near_of(0), far_of(0));
    free(src);
    shmem_free(quiet_flag);
    shmem_free(fence_flag);
    shmem_free(quiet_block);
    shmem_free(fence_block);
    shmem_free(heap_counter);
    shmem_free(heap_slots);
    test_passed("multinode");
    shmem_finalize();
    return 0;
}
