/* Barrier, broadcast, reductions and fcollect on the team sizes where the
 * shared-memory engine switches between its flat and its tree forms
 * (run on 1 to 16 PEs): the world, the even PEs (a team of its own slot)
 * and SHMEM_TEAM_SHARED.  Barriers: every PE increments a counter on
 * every member before the barrier and finds the full count after it.
 * Broadcasts: every root, one-line, scratch and direct sizes.  Reductions:
 * integer operators checked exactly; floating-point sums of inexact values
 * checked against the sum in member order (within rounding) and, bit for
 * bit, against every other member's result.  An argument N sets
 * SHMPI_TREE_MIN_PES=N (by default, on a machine with fewer CPUs than PEs,
 * every form is flat): with 2 every team runs the tree forms, with 3 the
 * teams of 2 PEs stay flat beside larger ones that do not. */
#include <stdint.h>
#include <string.h>

#include "testlib.h"

#define ITERS 6
#define MAX_ELEMS 1024 /* 8 KiB of long or double: past the small forms */

static long counter[4]; /* one per team and one for barrier_all: teams overlap */
static long lsrc[MAX_ELEMS], ldst[MAX_ELEMS];
static double dsrc[MAX_ELEMS], ddst[MAX_ELEMS];
static float fsrc[MAX_ELEMS], fdst[MAX_ELEMS];
static unsigned char bsrc[8192], bdst[8192];
static unsigned char gathered[16 * 1024 * 16]; /* fcollect: 16 KiB per PE, 16 PEs */
static long psync[SHMEM_BCAST_SYNC_SIZE];

struct team {
    const char *name;
    int id; /* its counter */
    shmem_team_t team;
    int n, me;
    int world[256];
};

static void team_init(struct team *t, int id, const char *name, shmem_team_t team)
{
    t->id = id;
    t->name = name;
    t->team = team;
    t->n = team == SHMEM_TEAM_INVALID ? 0 : shmem_team_n_pes(team);
    t->me = team == SHMEM_TEAM_INVALID ? -1 : shmem_team_my_pe(team);
    CHECK(t->n <= 256, "%d PEs", t->n);
    for (int j = 0; j < t->n; j++)
        t->world[j] = shmem_team_translate_pe(team, j, SHMEM_TEAM_WORLD);
}

static void barriers(const struct team *t)
{
    for (int it = 1; it <= ITERS; it++) {
        for (int j = 0; j < t->n; j++)
            shmem_long_atomic_inc(&counter[t->id], t->world[j]);
        shmem_quiet();
        shmem_team_sync(t->team);
        long seen = shmem_long_atomic_fetch(&counter[t->id], shmem_my_pe());
        CHECK(seen == (long)t->n * it, "%s sync %d: counter %ld, want %ld", t->name, it, seen,
              (long)t->n * it);
        shmem_team_sync(t->team); /* nobody increments before all have looked */
    }
}

#define BVAL(root, it, i) ((unsigned char)((root) * 29 + (it) * 7 + (i) * 3 + ((i) >> 7)))

static void broadcasts(const struct team *t)
{
    static const size_t sizes[] = {1, 8, 56, 64, 600, 2048, 4096};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        size_t nbytes = sizes[z];
        for (int it = 0; it < ITERS; it++) {
            int root = (it * 5 + (int)z) % t->n;
            for (size_t i = 0; i < nbytes; i++)
                bsrc[i] = BVAL(t->world[t->me], it, i);
            memset(bdst, 0xee, nbytes + 1);
            CHECK(shmem_broadcastmem(t->team, bdst, bsrc, nbytes, root) == 0, "broadcastmem");
            for (size_t i = 0; i < nbytes; i++)
                CHECK(bdst[i] == BVAL(t->world[root], it, i), "%s broadcast %zu B root %d it %d byte %zu",
                      t->name, nbytes, root, it, i);
            CHECK(bdst[nbytes] == 0xee, "%s broadcast %zu B wrote past the end", t->name, nbytes);
        }
    }
}

/* The deprecated all-PE form leaves the root's dest alone. */
static void legacy_broadcasts(void)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    for (int it = 0; it < ITERS; it++) {
        int root = it % n;
        for (int i = 0; i < 8; i++)
            lsrc[i] = me * 1000 + it * 10 + i;
        for (int i = 0; i < 8; i++)
            ldst[i] = -1;
        shmem_broadcast64(ldst, lsrc, 8, root, 0, 0, n, psync);
        for (int i = 0; i < 8; i++)
            CHECK(ldst[i] == (me == root ? -1 : root * 1000 + it * 10 + i),
                  "broadcast64 root %d it %d elem %d: %ld", root, it, i, ldst[i]);
        shmem_barrier_all(); /* psync reuse */
    }
}

/* Integer reductions: exact, on every member. */
static void long_reductions(const struct team *t, size_t nelems)
{
    for (int it = 0; it < 3; it++) {
        for (size_t i = 0; i < nelems; i++)
            lsrc[i] = (long)((t->world[t->me] * 131 + it * 17 + (int)i * 7) % 97) - 40;
#define LONG_CASE(OP, INIT, F)                                                                \
    do {                                                                                      \
        CHECK(shmem_long_##OP##_reduce(t->team, ldst, lsrc, nelems) == 0, #OP);               \
        for (size_t i = 0; i < nelems; i++) {                                                 \
            long want = INIT;                                                                 \
            for (int j = 0; j < t->n; j++) {                                                  \
                long v = (long)((t->world[j] * 131 + it * 17 + (int)i * 7) % 97) - 40;       \
                want = F(want, v);                                                            \
            }                                                                                 \
            CHECK(ldst[i] == want, "%s long %s %zu elems it %d elem %zu: %ld, want %ld",      \
                  t->name, #OP, nelems, it, i, ldst[i], want);                                \
        }                                                                                     \
    } while (0)
        LONG_CASE(sum, 0, F_sum);
        LONG_CASE(max, -1000, F_max);
        LONG_CASE(min, 1000, F_min);
        LONG_CASE(xor, 0, F_xor);
        LONG_CASE(or, 0, F_or);
        LONG_CASE(and, -1, F_and);
        /* In place. */
        for (size_t i = 0; i < nelems; i++)
            ldst[i] = t->world[t->me] + (long)i;
        CHECK(shmem_long_sum_reduce(t->team, ldst, ldst, nelems) == 0, "sum in place");
        long world_sum = 0;
        for (int j = 0; j < t->n; j++)
            world_sum += t->world[j];
        for (size_t i = 0; i < nelems; i++)
            CHECK(ldst[i] == world_sum + (long)i * t->n, "%s in-place sum elem %zu: %ld",
                  t->name, i, ldst[i]);
    }
}

/* Floating point: member j contributes values that do not add exactly;
 * every member must get the same bits, close to the sum in member order. */
#define DVAL(w, it, i) (1.0 / (3.0 + (w) + (i) % 11) + (it) * 1e-3 + (i) * 1e-7)

static void float_reductions(const struct team *t, size_t nelems)
{
    for (int it = 0; it < 3; it++) {
        for (size_t i = 0; i < nelems; i++) {
            dsrc[i] = DVAL(t->world[t->me], it, i);
            fsrc[i] = (float)DVAL(t->world[t->me], it, i);
        }
        CHECK(shmem_double_sum_reduce(t->team, ddst, dsrc, nelems) == 0, "double sum");
        CHECK(shmem_float_sum_reduce(t->team, fdst, fsrc, nelems) == 0, "float sum");
        for (size_t i = 0; i < nelems; i++) {
            double want = 0;
            float fwant = 0;
            for (int j = 0; j < t->n; j++) {
                want += DVAL(t->world[j], it, i);
                fwant += (float)DVAL(t->world[j], it, i);
            }
            CHECK(ddst[i] > want * (1 - 1e-13) && ddst[i] < want * (1 + 1e-13),
                  "%s double sum %zu elems elem %zu: %.17g, want %.17g", t->name, nelems, i,
                  ddst[i], want);
            CHECK(fdst[i] > fwant * (1 - 1e-5f) && fdst[i] < fwant * (1 + 1e-5f),
                  "%s float sum %zu elems elem %zu: %.9g, want %.9g", t->name, nelems, i,
                  (double)fdst[i], (double)fwant);
        }
        /* The same bits everywhere: each member's result against all. */
        size_t nbytes = nelems * sizeof(double);
        memcpy(bsrc, ddst, nbytes);
        CHECK(shmem_fcollectmem(t->team, gathered, bsrc, nbytes) == 0, "fcollectmem");
        for (int j = 0; j < t->n; j++)
            CHECK(memcmp(gathered + (size_t)j * nbytes, ddst, nbytes) == 0,
                  "%s double sum %zu elems: member %d got other bits than member %d", t->name,
                  nelems, j, t->me);
        nbytes = nelems * sizeof(float);
        memcpy(bsrc, fdst, nbytes);
        CHECK(shmem_fcollectmem(t->team, gathered, bsrc, nbytes) == 0, "fcollectmem");
        for (int j = 0; j < t->n; j++)
            CHECK(memcmp(gathered + (size_t)j * nbytes, fdst, nbytes) == 0,
                  "%s float sum %zu elems: member %d got other bits than member %d", t->name,
                  nelems, j, t->me);
        CHECK(shmem_double_max_reduce(t->team, ddst, dsrc, nelems) == 0, "double max");
        for (size_t i = 0; i < nelems; i++) {
            double want = DVAL(t->world[0], it, i);
            for (int j = 1; j < t->n; j++)
                want = F_max(want, DVAL(t->world[j], it, i));
            CHECK(ddst[i] == want, "%s double max elem %zu", t->name, i);
        }
    }
}

static void fcollects(const struct team *t)
{
    static const size_t sizes[] = {1, 8, 56, 64, 1024, 4096};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        size_t nbytes = sizes[z];
        for (int it = 0; it < ITERS; it++) {
            for (size_t i = 0; i < nbytes; i++)
                bsrc[i] = BVAL(t->world[t->me], it, i);
            CHECK(shmem_fcollectmem(t->team, gathered, bsrc, nbytes) == 0, "fcollectmem");
            for (int j = 0; j < t->n; j++)
                for (size_t i = 0; i < nbytes; i++)
                    CHECK(gathered[(size_t)j * nbytes + i] == BVAL(t->world[j], it, i),
                          "%s fcollect %zu B it %d from %d byte %zu", t->name, nbytes, it, j,
                          i);
        }
    }
}

static void run_all(const struct team *t)
{
    if (t->team == SHMEM_TEAM_INVALID)
        return;
    barriers(t);
    broadcasts(t);
    static const size_t counts[] = {1, 7, 64, 300, 512, MAX_ELEMS};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        long_reductions(t, counts[c]);
        float_reductions(t, counts[c]);
    }
    fcollects(t);
    shmem_team_sync(t->team);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        setenv("SHMPI_TREE_MIN_PES", argv[1], 1);
    shmem_init();
    int n = shmem_n_pes();
    CHECK(n <= 16, "at most 16 PEs (fcollect buffer), not %d", n);
    struct team world, even, shared;
    team_init(&world, 0, "world", SHMEM_TEAM_WORLD);
    shmem_team_t even_team;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &even_team) == 0,
          "split");
    team_init(&even, 1, "even", even_team);
    team_init(&shared, 2, "shared", SHMEM_TEAM_SHARED);
    run_all(&world);
    run_all(&even);
    run_all(&shared);
    for (int it = 1; it <= ITERS; it++) { /* shmem_barrier_all: the node barrier too */
        for (int pe = 0; pe < n; pe++)
            shmem_long_atomic_inc(&counter[3], pe);
        shmem_barrier_all();
        long seen = shmem_long_atomic_fetch(&counter[3], shmem_my_pe());
        CHECK(seen == (long)n * it, "barrier_all %d: counter %ld", it, seen);
        shmem_barrier_all();
    }
    legacy_broadcasts();
    if (even_team != SHMEM_TEAM_INVALID)
        shmem_team_destroy(even_team);
    test_passed("coll_scale");
    shmem_finalize();
    return 0;
}
