/* Team collectives of the mem forms at sizes from 0 bytes to 1 MiB:
 * broadcastmem (also with dest == source on the root), collectmem,
 * fcollectmem (also in place: source is this PE's slot of dest),
 * alltoallmem and alltoallsmem, and the long sum scans (inscan, exscan,
 * apart and in place), on the world, the reversed world, the odd PEs and
 * a 2-D row; every byte checked, nothing written beyond. */
#include <stdint.h>

#include "team_sets.c"

#define MAX_BYTES ((size_t)1 << 20)
#define CANARY 0xA5
#define MARGIN 64

static unsigned char *dst, *src;

#define BYTE(w, j, i) ((unsigned char)((w) * 31 + (j) * 7 + (i) + ((i) >> 8) * 3))

static void check_canary(const char *what, const struct test_team *t, size_t from, size_t to)
{
    for (size_t b = from; b < to; b++)
        CHECK(dst[b] == CANARY, "%s on %s: byte %zu overwritten", what, t->name, b);
}

static void test_size(const struct test_team *t, size_t nbytes)
{
    int tn = t->n, tme = t->me, me = shmem_my_pe();
    size_t all = (size_t)tn * nbytes;
    for (int root = 0; root < tn; root += tn > 1 ? tn - 1 : 1) {
        for (size_t i = 0; i < nbytes; i++)
            src[i] = BYTE(me, 0, i);
        memset(dst, CANARY, nbytes + MARGIN);
        CHECK(shmem_broadcastmem(t->team, dst, src, nbytes, root) == 0, "broadcastmem");
        for (size_t i = 0; i < nbytes; i++)
            CHECK(dst[i] == BYTE(t->world[root], 0, i), "broadcastmem %zu on %s byte %zu",
                  nbytes, t->name, i);
        check_canary("broadcastmem", t, nbytes, nbytes + MARGIN);
        /* dest == source on the root */
        for (size_t i = 0; i < nbytes; i++)
            dst[i] = BYTE(me, 1, i);
        CHECK(shmem_broadcastmem(t->team, dst, dst, nbytes, root) == 0, "broadcastmem same");
        for (size_t i = 0; i < nbytes; i++)
            CHECK(dst[i] == BYTE(t->world[root], 1, i), "broadcastmem in place byte %zu", i);
    }
    /* collectmem: team PE j gives nbytes + j bytes */
    size_t mine = nbytes + (size_t)tme, total = 0;
    for (int j = 0; j < tn; j++)
        total += nbytes + (size_t)j;
    for (size_t i = 0; i < mine; i++)
        src[i] = BYTE(me, 2, i);
    memset(dst, CANARY, total + MARGIN);
    CHECK(shmem_collectmem(t->team, dst, src, mine) == 0, "collectmem");
    size_t at = 0;
    for (int j = 0; j < tn; j++)
        for (size_t i = 0; i < nbytes + (size_t)j; i++, at++)
            CHECK(dst[at] == BYTE(t->world[j], 2, i), "collectmem %zu on %s from %d byte %zu",
                  nbytes, t->name, j, i);
    check_canary("collectmem", t, total, total + MARGIN);
    /* fcollectmem, then in place */
    for (size_t i = 0; i < nbytes; i++)
        src[i] = BYTE(me, 3, i);
    memset(dst, CANARY, all + MARGIN);
    CHECK(shmem_fcollectmem(t->team, dst, src, nbytes) == 0, "fcollectmem");
    for (int j = 0; j < tn; j++)
        for (size_t i = 0; i < nbytes; i++)
            CHECK(dst[(size_t)j * nbytes + i] == BYTE(t->world[j], 3, i),
                  "fcollectmem %zu on %s from %d byte %zu", nbytes, t->name, j, i);
    check_canary("fcollectmem", t, all, all + MARGIN);
    memset(dst, CANARY, all + MARGIN);
    for (size_t i = 0; i < nbytes; i++)
        dst[(size_t)tme * nbytes + i] = BYTE(me, 4, i);
    CHECK(shmem_fcollectmem(t->team, dst, dst + (size_t)tme * nbytes, nbytes) == 0, "in place");
    for (int j = 0; j < tn; j++)
        for (size_t i = 0; i < nbytes; i++)
            CHECK(dst[(size_t)j * nbytes + i] == BYTE(t->world[j], 4, i),
                  "fcollectmem in place %zu on %s from %d byte %zu", nbytes, t->name, j, i);
    check_canary("fcollectmem in place", t, all, all + MARGIN);
    /* alltoallmem */
    for (int j = 0; j < tn; j++)
        for (size_t i = 0; i < nbytes; i++)
            src[(size_t)j * nbytes + i] = BYTE(me, j, i);
    memset(dst, CANARY, all + MARGIN);
    CHECK(shmem_alltoallmem(t->team, dst, src, nbytes) == 0, "alltoallmem");
    for (int j = 0; j < tn; j++)
        for (size_t i = 0; i < nbytes; i++)
            CHECK(dst[(size_t)j * nbytes + i] == BYTE(t->world[j], tme, i),
                  "alltoallmem %zu on %s from %d byte %zu", nbytes, t->name, j, i);
    check_canary("alltoallmem", t, all, all + MARGIN);
    /* alltoallsmem: byte elements, dest stride 2, source stride 3 */
    size_t n_small = nbytes / 4;
    for (int j = 0; j < tn; j++)
        for (size_t i = 0; i < n_small; i++)
            src[((size_t)j * n_small + i) * 3] = BYTE(me, j, i);
    size_t span = (size_t)tn * n_small * 2;
    memset(dst, CANARY, span + MARGIN);
    CHECK(shmem_alltoallsmem(t->team, dst, src, 2, 3, n_small) == 0, "alltoallsmem");
    for (int j = 0; j < tn; j++)
        for (size_t i = 0; i < n_small; i++) {
            size_t k = ((size_t)j * n_small + i) * 2;
            CHECK(dst[k] == BYTE(t->world[j], tme, i), "alltoallsmem %zu on %s from %d elem %zu",
                  n_small, t->name, j, i);
            CHECK(dst[k + 1] == CANARY, "alltoallsmem gap %zu written", k + 1);
        }
    check_canary("alltoallsmem", t, span, span + MARGIN);
    /* scans of nbytes / 8 longs: inclusive and exclusive, apart and in place */
    size_t nl = nbytes / 8;
    long *ldst = (long *)dst, *lsrc = (long *)src;
    for (int ex = 0; ex < 2; ex++)
        for (int in_place = 0; in_place < 2; in_place++) {
            long *from = in_place ? ldst : lsrc;
            memset(dst, CANARY, nl * 8 + MARGIN);
            for (size_t i = 0; i < nl; i++)
                from[i] = (long)(tme + 1) * 1000 + (long)i;
            int rc = ex ? shmem_long_sum_exscan(t->team, ldst, from, nl)
                        : shmem_long_sum_inscan(t->team, ldst, from, nl);
            CHECK(rc == 0, "scan");
            int upto = ex ? tme : tme + 1;
            for (size_t i = 0; i < nl; i++) {
                long want = 0;
                for (int j = 0; j < upto; j++)
                    want += (long)(j + 1) * 1000 + (long)i;
                CHECK(ldst[i] == want, "%s %s %zu on %s elem %zu: %ld, want %ld",
                      ex ? "exscan" : "inscan", in_place ? "in place" : "apart", nl, t->name, i,
                      ldst[i], want);
            }
            check_canary("scan", t, nl * 8, nl * 8 + MARGIN);
        }
}

int main(int argc, char **argv)
{
    test_thread_arg(argc, argv); /* "thread N": between nodes' forms on one node */
    shmem_init();
    int n = shmem_n_pes();
    dst = shmem_malloc((size_t)n * MAX_BYTES * 2 + MARGIN);
    src = shmem_malloc((size_t)n * MAX_BYTES * 3);
    CHECK(dst && src, "malloc");
    struct test_team teams[MAX_TEST_TEAMS];
    int count = make_test_teams(teams);
    size_t sizes[] = {0, 1, 3, 7, 56, 57, 4095, 4097, 65543, MAX_BYTES};
    const char *use[] = {"world", "reversed", "odd", "row"};
    for (int k = 0; k < count; k++) {
        const struct test_team *t = &teams[k];
        int used = 0;
        for (size_t u = 0; u < sizeof(use) / sizeof(use[0]); u++)
            used |= strcmp(use[u], t->name) == 0;
        if (!used || t->team == SHMEM_TEAM_INVALID)
            continue;
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
            /* Oversubscribed: the largest size on two teams only. */
            if (n > 4 && (sizes[s] == 1 || sizes[s] == 7 || sizes[s] == 57 ||
                          sizes[s] == 4095 || sizes[s] == 65543 ||
                          (sizes[s] == MAX_BYTES && k > 2)))
                continue;
            test_size(t, sizes[s]);
        }
    }
    free_test_teams(teams, count);
    shmem_free(dst);
    shmem_free(src);
    test_passed("coll_sizes");
    shmem_finalize();
    return 0;
}
