/* Team collectives back to back on the same buffers, with new values each
 * iteration and no other synchronization: broadcastmem (rotating root),
 * fcollectmem (also in place), alltoallmem, long sum reduce (also in
 * place, dest == source) and team_sync.  A PE that returned while a peer
 * still read its source, or wrote a peer's buffer before that peer entered,
 * shows up as a wrong value.  PEs are skewed by short, varying delays.
 * Sizes cover the one-line, the small (scratch) and the large (direct
 * copy) forms of the shared-memory path; teams: the world, the even PEs (a strict subset of
 * the node), the reversed world and the shared team. */
#include <stdint.h>
#include <unistd.h>

#include "testlib.h"

#define ITERS 40
#define MAX_BYTES ((size_t)64 * 1024)

static unsigned char *dst, *src;
static long *lsrc, *ldst;

#define VAL(w, it, i) ((unsigned char)((w) * 37 + (it) * 11 + (i) + ((i) >> 8)))
#define LVAL(w, it, i) ((long)(w) * 100000 + (long)(it) * 1000 + (long)(i))

struct team {
    const char *name;
    shmem_team_t team;
    int n, me;
    int world[64];
};

static void skew(int me, int it)
{
    if ((me + it) % 3 == 0)
        usleep((useconds_t)((me + it) % 4) * 20);
}

/* Block j of dst (nbytes) holds VAL(world PE of team PE j, v, i). */
static void check_blocks(const struct team *t, size_t nbytes, int v, const char *what, int it)
{
    for (int j = 0; j < t->n; j++)
        for (size_t i = 0; i < nbytes; i++)
            CHECK(dst[(size_t)j * nbytes + i] == VAL(t->world[j], v, i),
                  "%s %s %zu it %d from %d byte %zu", t->name, what, nbytes, it, j, i);
}

static void repeat(const struct team *t, size_t nbytes)
{
    int n = t->n, me = t->me, wme = shmem_my_pe();
    size_t nl = nbytes / sizeof(long);
    for (int it = 0; it < ITERS; it++) {
        int root = it % n;
        for (size_t i = 0; i < nbytes; i++)
            src[i] = VAL(wme, it, i);
        skew(wme, it);
        CHECK(shmem_broadcastmem(t->team, dst, src, nbytes, root) == 0, "broadcastmem");
        for (size_t i = 0; i < nbytes; i++)
            CHECK(dst[i] == VAL(t->world[root], it, i), "%s broadcast %zu it %d byte %zu",
                  t->name, nbytes, it, i);

        for (size_t i = 0; i < nbytes; i++)
            src[i] = VAL(wme, it + 1, i);
        CHECK(shmem_fcollectmem(t->team, dst, src, nbytes) == 0, "fcollectmem");
        check_blocks(t, nbytes, it + 1, "fcollect", it);

        skew(wme, it + 1);
        unsigned char *mine = dst + (size_t)me * nbytes;
        for (size_t i = 0; i < nbytes; i++)
            mine[i] = VAL(wme, it + 2, i);
        CHECK(shmem_fcollectmem(t->team, dst, mine, nbytes) == 0, "fcollectmem in place");
        check_blocks(t, nbytes, it + 2, "fcollect in place", it);

        for (int j = 0; j < n; j++)
            for (size_t i = 0; i < nbytes; i++)
                src[(size_t)j * nbytes + i] = VAL(wme, it + j, i);
        CHECK(shmem_alltoallmem(t->team, dst, src, nbytes) == 0, "alltoallmem");
        check_blocks(t, nbytes, it + me, "alltoall", it);

        long sum_w = 0;
        for (int j = 0; j < n; j++)
            sum_w += t->world[j];
        for (size_t i = 0; i < nl; i++)
            lsrc[i] = LVAL(wme, it, i);
        skew(wme, it + 2);
        CHECK(shmem_long_sum_reduce(t->team, ldst, lsrc, nl) == 0, "sum_reduce");
        for (size_t i = 0; i < nl; i++)
            CHECK(ldst[i] == sum_w * 100000 + n * LVAL(0, it, i), "%s reduce %zu it %d elem %zu",
                  t->name, nl, it, i);
        for (size_t i = 0; i < nl; i++)
            ldst[i] = LVAL(wme, it + 1, i);
        CHECK(shmem_long_sum_reduce(t->team, ldst, ldst, nl) == 0, "sum_reduce in place");
        for (size_t i = 0; i < nl; i++)
            CHECK(ldst[i] == sum_w * 100000 + n * LVAL(0, it + 1, i),
                  "%s reduce in place %zu it %d elem %zu", t->name, nl, it, i);
        if (it % 8 == 0)
            CHECK(shmem_team_sync(t->team) == 0, "team_sync");
    }
}

static void add(struct team *teams, int *count, const char *name, shmem_team_t team)
{
    if (team == SHMEM_TEAM_INVALID)
        return;
    struct team *t = &teams[(*count)++];
    t->name = name;
    t->team = team;
    t->n = shmem_team_n_pes(team);
    t->me = shmem_team_my_pe(team);
    for (int i = 0; i < t->n; i++)
        t->world[i] = shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD);
}

int main(void)
{
    shmem_init();
    int n = shmem_n_pes();
    CHECK(n <= 64, "at most 64 PEs");
    dst = shmem_malloc(MAX_BYTES * (size_t)n);
    src = shmem_malloc(MAX_BYTES * (size_t)n);
    lsrc = shmem_malloc(MAX_BYTES);
    ldst = shmem_malloc(MAX_BYTES);
    CHECK(dst && src && lsrc && ldst, "shmem_malloc");
    struct team teams[4];
    int count = 0;
    shmem_team_t even, reversed;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &even) == 0,
          "even");
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, NULL, 0, &reversed) == 0,
          "reversed");
    add(teams, &count, "world", SHMEM_TEAM_WORLD);
    add(teams, &count, "even", even);
    add(teams, &count, "reversed", reversed);
    add(teams, &count, "shared", SHMEM_TEAM_SHARED);
    /* Within one cache line with its stamp (56 bytes: 7 is an 8-PE
     * alltoall's 56), just beyond it (64), within the scratch of the
     * shared-memory path, just beyond it (2 KiB per PE), and well beyond;
     * the line and scratch forms alternate within an iteration. */
    static const size_t sizes[] = {7, 8, 56, 64, 1000, 2056, MAX_BYTES};
    for (int k = 0; k < count; k++)
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
            repeat(&teams[k], sizes[s]);
    shmem_team_destroy(even);
    shmem_team_destroy(reversed);
    shmem_free(dst);
    shmem_free(src);
    shmem_free(lsrc);
    shmem_free(ldst);
    test_passed("coll_repeat");
    shmem_finalize();
    return 0;
}
