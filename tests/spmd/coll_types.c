/* Team collectives for every type of the standard RMA table: broadcast
 * (several roots; the root's dest is written too), collect (a different
 * count on each PE), fcollect, alltoall and alltoalls (strided), on every
 * team of team_sets.c, checking every element and that nothing beyond the
 * result is written. */
#include "team_sets.c"

#define CANARY 0xA5
#define BUF_BYTES (1 << 16)

static unsigned char *dst_buf, *src_buf;

/* The value PE `w` sends as element i of its block for team PE j. */
#define VAL(T, w, j, i) ((T)((w) * 1000 + (j) * 100 + (int)(i) * 3 + 1))

/* Every byte of dst_buf in [from, to) still holds the canary. */
static void check_canary(const char *what, const char *type, size_t from, size_t to)
{
    for (size_t b = from; b < to; b++)
        CHECK(dst_buf[b] == CANARY, "%s %s: byte %zu overwritten", type, what, b);
}

#define TEST_TYPE(N, T)                                                                       \
    static void test_##N(const struct test_team *t, size_t nelems)                            \
    {                                                                                         \
        T *dst = (T *)dst_buf, *src = (T *)src_buf;                                           \
        int tn = t->n, tme = t->me, me = shmem_my_pe();                                       \
        size_t sz = sizeof(T);                                                                \
        /* broadcast from the first, last and middle team PE */                               \
        int roots[3] = {0, tn - 1, tn / 2};                                                   \
        for (int r = 0; r < 3; r++) {                                                         \
            for (size_t i = 0; i < nelems; i++)                                               \
                src[i] = VAL(T, me, 0, i);                                                    \
            memset(dst_buf, CANARY, (nelems + 4) * sz);                                       \
            CHECK(shmem_##N##_broadcast(t->team, dst, src, nelems, roots[r]) == 0, "bcast");  \
            for (size_t i = 0; i < nelems; i++)                                               \
                CHECK(dst[i] == VAL(T, t->world[roots[r]], 0, i),                             \
                      #N " broadcast on %s root %d elem %zu", t->name, roots[r], i);          \
            check_canary("broadcast", #N, nelems * sz, (nelems + 4) * sz);                    \
        }                                                                                     \
        /* collect: team PE j contributes nelems + j % 3 elements */                          \
        size_t total = 0, mine = nelems + (size_t)(tme % 3);                                  \
        for (int j = 0; j < tn; j++)                                                          \
            total += nelems + (size_t)(j % 3);                                                \
        for (size_t i = 0; i < mine; i++)                                                     \
            src[i] = VAL(T, me, 0, i);                                                        \
        memset(dst_buf, CANARY, (total + 4) * sz);                                            \
        CHECK(shmem_##N##_collect(t->team, dst, src, mine) == 0, "collect");                  \
        size_t at = 0;                                                                        \
        for (int j = 0; j < tn; j++)                                                          \
            for (size_t i = 0; i < nelems + (size_t)(j % 3); i++, at++)                       \
                CHECK(dst[at] == VAL(T, t->world[j], 0, i), #N " collect on %s from %d elem %zu", \
                      t->name, j, i);                                                         \
        check_canary("collect", #N, total * sz, (total + 4) * sz);                            \
        /* fcollect */                                                                        \
        for (size_t i = 0; i < nelems; i++)                                                   \
            src[i] = VAL(T, me, 1, i);                                                        \
        memset(dst_buf, CANARY, ((size_t)tn * nelems + 4) * sz);                              \
        CHECK(shmem_##N##_fcollect(t->team, dst, src, nelems) == 0, "fcollect");              \
        for (int j = 0; j < tn; j++)                                                          \
            for (size_t i = 0; i < nelems; i++)                                               \
                CHECK(dst[(size_t)j * nelems + i] == VAL(T, t->world[j], 1, i),               \
                      #N " fcollect on %s from %d elem %zu", t->name, j, i);                  \
        check_canary("fcollect", #N, (size_t)tn * nelems * sz, ((size_t)tn * nelems + 4) * sz); \
        /* alltoall: block j goes to team PE j */                                             \
        for (int j = 0; j < tn; j++)                                                          \
            for (size_t i = 0; i < nelems; i++)                                               \
                src[(size_t)j * nelems + i] = VAL(T, me, j, i);                               \
        memset(dst_buf, CANARY, ((size_t)tn * nelems + 4) * sz);                              \
        CHECK(shmem_##N##_alltoall(t->team, dst, src, nelems) == 0, "alltoall");              \
        for (int j = 0; j < tn; j++)                                                          \
            for (size_t i = 0; i < nelems; i++)                                               \
                CHECK(dst[(size_t)j * nelems + i] == VAL(T, t->world[j], tme, i),             \
                      #N " alltoall on %s from %d elem %zu", t->name, j, i);                  \
        check_canary("alltoall", #N, (size_t)tn * nelems * sz, ((size_t)tn * nelems + 4) * sz); \
        /* alltoalls: source stride 2, dest stride 3, gaps untouched */                       \
        const ptrdiff_t sst = 2, dst_stride = 3;                                              \
        for (int j = 0; j < tn; j++)                                                          \
            for (size_t i = 0; i < nelems; i++)                                               \
                src[((size_t)j * nelems + i) * sst] = VAL(T, me, j, i);                       \
        size_t span = (size_t)tn * nelems * dst_stride;                                       \
        memset(dst_buf, CANARY, (span + 4) * sz);                                             \
        CHECK(shmem_##N##_alltoalls(t->team, dst, src, dst_stride, sst, nelems) == 0,         \
              "alltoalls");                                                                   \
        for (size_t k = 0; k < span; k++) {                                                   \
            if (k % dst_stride == 0) {                                                        \
                size_t j = k / dst_stride / (nelems ? nelems : 1), i = k / dst_stride % nelems; \
                CHECK(dst[k] == VAL(T, t->world[j], tme, i),                                  \
                      #N " alltoalls on %s from %zu elem %zu", t->name, j, i);                \
            } else {                                                                          \
                check_canary("alltoalls gap", #N, k * sz, (k + 1) * sz);                      \
            }                                                                                 \
        }                                                                                     \
        check_canary("alltoalls", #N, span * sz, (span + 4) * sz);                            \
    }
SHMPI_RMA_TYPES(TEST_TYPE)

int main(int argc, char **argv)
{
    test_thread_arg(argc, argv); /* "thread N": between nodes' forms on one node */
    shmem_init();
    int n = shmem_n_pes();
    dst_buf = shmem_malloc(BUF_BYTES);
    src_buf = shmem_malloc(BUF_BYTES);
    CHECK(dst_buf && src_buf, "malloc");
    struct test_team teams[MAX_TEST_TEAMS];
    int count = make_test_teams(teams);
    size_t sizes[] = {0, 1, 13};
    for (int k = 0; k < count; k++) {
        const struct test_team *t = &teams[k];
        if (t->team == SHMEM_TEAM_INVALID)
            continue;
        for (size_t s = n > 4 ? 1 : 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
#define RUN_TYPE(N, T) test_##N(t, sizes[s]);
            SHMPI_RMA_TYPES(RUN_TYPE)
        }
    }
    free_test_teams(teams, count);
    shmem_free(dst_buf);
    shmem_free(src_buf);
    test_passed("coll_types");
    shmem_finalize();
    return 0;
}
