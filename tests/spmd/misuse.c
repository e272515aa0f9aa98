/*
 * One misuse per run, named by argv[1]; tests/errors.test runs each and
 * checks that the job ends with a non-zero status and a message that names
 * the routine and the bad value.  Each case must never return normally,
 * except the team and context cases whose result the spec defines (see
 * team_case): those print it and end normally.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "testlib.h"
#include <shmemx.h>

static long static_word;

/* A handle value that no allocation can have (the first pages are never
 * mapped). */
#define MADE_UP_TEAM ((shmem_team_t)(uintptr_t)0xbad0)

static const char *team_name(shmem_team_t team)
{
    return team == SHMEM_TEAM_INVALID ? "SHMEM_TEAM_INVALID"
           : team == SHMEM_TEAM_WORLD ? "SHMEM_TEAM_WORLD"
                                      : "a team";
}

static const char *rc_name(int rc)
{
    return rc == 0 ? "0" : "nonzero";
}

/* A team of every PE, already destroyed. */
static shmem_team_t destroyed_team(void)
{
    shmem_team_t team;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &team) == 0,
          "split");
    shmem_team_destroy(team);
    return team;
}

/* A context on the world team, already destroyed. */
static shmem_ctx_t destroyed_ctx(void)
{
    shmem_ctx_t ctx;
    CHECK(shmem_ctx_create(0, &ctx) == 0, "ctx_create");
    shmem_ctx_destroy(ctx);
    return ctx;
}

/*
 * Team and context cases (argv[1] "team-..." or "ctx-...").  Where the
 * spec defines the result of a bad argument (SHMEM_TEAM_INVALID and
 * SHMEM_CTX_INVALID mostly, and bad split triplets), the case prints
 * "ROUTINE(ARGS) returned VALUE" on every PE and team_case returns true:
 * the program ends normally.  Everything else (destroyed or made-up
 * handles, the predefined teams or context destroyed) is undefined in the
 * spec, and the call must end the job with a message; if it does not,
 * team_case returns false and the program ends with status 99.
 */
static void undefined_case(const char *what, long *heap);

/* An id from PE 0 on every PE, for shmemx_team_init. */
static uint64_t shared_uniqueid(void)
{
    static uint64_t id;
    if (shmem_my_pe() == 0)
        CHECK(shmemx_team_get_uniqueid(&id) == 0, "uniqueid");
    shmem_uint64_broadcast(SHMEM_TEAM_WORLD, &id, &id, 1, 0);
    return id;
}

/* shmemx_team_init misused by the callers of one id: "index0-twice" PEs 0
 * and 1 both give index 0; "index-twice" (3 PEs) PEs 1 and 2 both give
 * index 1; "npes-differ" (3 PEs) PE 1 says 3 PEs, PE 0 2, PE 2 takes no
 * part.  Each ends the job with one line.  "hand-" before a case: the same
 * with the hand-chosen id 1004. */
static void team_init_case(const char *what)
{
    uint64_t id = shared_uniqueid();
    if (strncmp(what, "hand-", 5) == 0) {
        what += 5;
        id = 1004;
    }
    int me = shmem_my_pe();
    shmem_team_t team;
    if (strcmp(what, "index0-twice") == 0)
        shmemx_team_init(id, 2, 0, NULL, 0, &team);
    else if (strcmp(what, "index-twice") == 0)
        shmemx_team_init(id, 3, me == 0 ? 0 : 1, NULL, 0, &team);
    else if (strcmp(what, "npes-differ") == 0) {
        if (me < 2)
            shmemx_team_init(id, me == 1 ? 3 : 2, me, NULL, 0, &team);
    } else
        CHECK(false, "unknown case team-init-%s", what);
    shmem_barrier_all(); /* index 0 waits here for a PE that ends the job */
    printf("shmemx_team_init(%s) returned\n", what);
}

static bool team_case(const char *what, long *heap)
{
    int n = shmem_n_pes();
    int a, b, c;
    /* Defined results. */
    if (strcmp(what, "team-my-pe-invalid") == 0) {
        printf("shmem_team_my_pe(SHMEM_TEAM_INVALID) returned %d\n",
               shmem_team_my_pe(SHMEM_TEAM_INVALID));
    } else if (strcmp(what, "team-n-pes-invalid") == 0) {
        printf("shmem_team_n_pes(SHMEM_TEAM_INVALID) returned %d\n",
               shmem_team_n_pes(SHMEM_TEAM_INVALID));
    } else if (strcmp(what, "team-get-config-invalid") == 0) {
        shmem_team_config_t config = {.num_contexts = 77};
        int rc = shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS, &config);
        printf("shmem_team_get_config(SHMEM_TEAM_INVALID) returned %s, num_contexts %s\n",
               rc_name(rc), config.num_contexts == 77 ? "untouched" : "changed");
    } else if (strcmp(what, "team-translate-invalid") == 0) {
        printf("shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD) returned %d, "
               "(SHMEM_TEAM_WORLD, 0, SHMEM_TEAM_INVALID) returned %d\n",
               shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD),
               shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, SHMEM_TEAM_INVALID));
    } else if (sscanf(what, "team-translate-pe:%d", &a) == 1) {
        printf("shmem_team_translate_pe(SHMEM_TEAM_WORLD, %d, SHMEM_TEAM_WORLD) returned %d\n",
               a, shmem_team_translate_pe(SHMEM_TEAM_WORLD, a, SHMEM_TEAM_WORLD));
    } else if (sscanf(what, "team-split-strided:%d:%d:%d", &a, &b, &c) == 3) {
        /* collective: every PE passes the same bad triplet */
        shmem_team_t team = SHMEM_TEAM_WORLD;
        int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, a, b, c, NULL, 0, &team);
        printf("shmem_team_split_strided(SHMEM_TEAM_WORLD, start %d, stride %d, size %d) "
               "returned %s, new_team %s\n",
               a, b, c, rc_name(rc), team_name(team));
    } else if (strcmp(what, "team-split-strided-invalid") == 0) {
        shmem_team_t team = SHMEM_TEAM_WORLD;
        int rc = shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &team);
        printf("shmem_team_split_strided(SHMEM_TEAM_INVALID) returned %s, new_team %s\n",
               rc_name(rc), team_name(team));
    } else if (strcmp(what, "team-split-strided-config") == 0) {
        shmem_team_t team = SHMEM_TEAM_WORLD;
        shmem_team_config_t config = {.num_contexts = -1};
        int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, &config,
                                          SHMEM_TEAM_NUM_CONTEXTS, &team);
        printf("shmem_team_split_strided(num_contexts -1) returned %s, new_team %s\n",
               rc_name(rc), team_name(team));
    } else if (sscanf(what, "team-split-2d:%d", &a) == 1) {
        shmem_team_t x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
        int rc = shmem_team_split_2d(SHMEM_TEAM_WORLD, a, NULL, 0, &x, NULL, 0, &y);
        printf("shmem_team_split_2d(SHMEM_TEAM_WORLD, xrange %d) returned %s, xaxis_team %s, "
               "yaxis_team %s\n",
               a, rc_name(rc), team_name(x), team_name(y));
    } else if (strcmp(what, "team-split-2d-invalid") == 0) {
        shmem_team_t x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
        int rc = shmem_team_split_2d(SHMEM_TEAM_INVALID, 1, NULL, 0, &x, NULL, 0, &y);
        printf("shmem_team_split_2d(SHMEM_TEAM_INVALID) returned %s, xaxis_team %s, "
               "yaxis_team %s\n",
               rc_name(rc), team_name(x), team_name(y));
    } else if (strcmp(what, "team-init-returns") == 0) {
        /* npes 0 and an index out of range: nonzero at once, no waiting */
        uint64_t id = shared_uniqueid();
        shmem_team_t team = SHMEM_TEAM_WORLD;
        int npes0 = shmemx_team_init(id, 0, 0, NULL, 0, &team);
        int range = shmemx_team_init(id, 2, 2, NULL, 0, &team);
        printf("shmemx_team_init(npes 0) returned %s, (index 2 of 2) returned %s, new_team %s\n",
               rc_name(npes0), rc_name(range), team_name(team));
    } else if (strcmp(what, "team-destroy-invalid") == 0) {
        shmem_team_destroy(SHMEM_TEAM_INVALID);
        printf("shmem_team_destroy(SHMEM_TEAM_INVALID) returned\n");
    } else if (strcmp(what, "team-ptr-invalid") == 0) {
        void *p = shmem_team_ptr(SHMEM_TEAM_INVALID, heap, 0);
        printf("shmem_team_ptr(SHMEM_TEAM_INVALID) returned %s\n", p ? "non-NULL" : "NULL");
    } else if (strcmp(what, "ctx-create-invalid-team") == 0) {
        shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
        int rc = shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &ctx);
        printf("shmem_team_create_ctx(SHMEM_TEAM_INVALID) returned %s, ctx %s\n", rc_name(rc),
               ctx == SHMEM_CTX_INVALID ? "SHMEM_CTX_INVALID" : "a context");
    } else if (strcmp(what, "ctx-create-bad-options") == 0) {
        shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
        int rc = shmem_ctx_create(1L << 20, &ctx);
        printf("shmem_ctx_create(options 0x100000) returned %s, ctx %s\n", rc_name(rc),
               ctx == SHMEM_CTX_INVALID ? "SHMEM_CTX_INVALID" : "a context");
    } else if (strcmp(what, "ctx-get-team-invalid") == 0) {
        shmem_team_t team = SHMEM_TEAM_WORLD;
        int rc = shmem_ctx_get_team(SHMEM_CTX_INVALID, &team);
        printf("shmem_ctx_get_team(SHMEM_CTX_INVALID) returned %s, team %s\n", rc_name(rc),
               team_name(team));
    } else if (strcmp(what, "ctx-destroy-invalid") == 0) {
        shmem_ctx_destroy(SHMEM_CTX_INVALID);
        printf("shmem_ctx_destroy(SHMEM_CTX_INVALID) returned\n");
    } else if (strcmp(what, "ctx-quiet-invalid") == 0) {
        shmem_ctx_quiet(SHMEM_CTX_INVALID);
        shmem_ctx_fence(SHMEM_CTX_INVALID);
        printf("shmem_ctx_quiet(SHMEM_CTX_INVALID) and shmem_ctx_fence returned\n");
    } else {
        undefined_case(what, heap);
        return false; /* the misuse was not caught */
    }
    return true;
}

/* The undefined team and context cases: each call must end the job. */
static void undefined_case(const char *what, long *heap)
{
    int n = shmem_n_pes();
    long stack_word = 0;
    if (strcmp(what, "team-my-pe-destroyed") == 0)
        shmem_team_my_pe(destroyed_team());
    else if (strcmp(what, "team-my-pe-made-up") == 0)
        shmem_team_my_pe(MADE_UP_TEAM);
    else if (strcmp(what, "team-n-pes-destroyed") == 0)
        shmem_team_n_pes(destroyed_team());
    else if (strcmp(what, "team-n-pes-made-up") == 0)
        shmem_team_n_pes((shmem_team_t)(void *)&stack_word);
    else if (strcmp(what, "team-get-config-destroyed") == 0) {
        shmem_team_config_t config;
        shmem_team_get_config(destroyed_team(), SHMEM_TEAM_NUM_CONTEXTS, &config);
    } else if (strcmp(what, "team-get-config-null") == 0)
        shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, NULL);
    else if (strcmp(what, "team-get-config-mask") == 0) {
        shmem_team_config_t config;
        shmem_team_get_config(SHMEM_TEAM_WORLD, 0x100, &config);
    } else if (strcmp(what, "team-translate-destroyed") == 0)
        shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, destroyed_team());
    else if (strcmp(what, "team-split-strided-destroyed") == 0) {
        shmem_team_t team;
        shmem_team_split_strided(destroyed_team(), 0, 1, 1, NULL, 0, &team);
    } else if (strcmp(what, "team-split-2d-destroyed") == 0) {
        shmem_team_t x, y;
        shmem_team_split_2d(destroyed_team(), 1, NULL, 0, &x, NULL, 0, &y);
    } else if (strcmp(what, "team-destroy-twice") == 0)
        shmem_team_destroy(destroyed_team());
    else if (strcmp(what, "team-destroy-world") == 0)
        shmem_team_destroy(SHMEM_TEAM_WORLD);
    else if (strcmp(what, "team-destroy-shared") == 0)
        shmem_team_destroy(SHMEM_TEAM_SHARED);
    else if (strcmp(what, "team-destroy-node") == 0)
        shmem_team_destroy(SHMEMX_TEAM_NODE);
    else if (strcmp(what, "team-destroy-same-mype-node") == 0)
        shmem_team_destroy(SHMEMX_TEAM_SAME_MYPE_NODE);
    else if (strncmp(what, "team-init-", 10) == 0)
        team_init_case(what + 10);
    else if (strcmp(what, "team-destroy-made-up") == 0)
        shmem_team_destroy(MADE_UP_TEAM);
    else if (strcmp(what, "team-ptr-destroyed") == 0)
        shmem_team_ptr(destroyed_team(), heap, 0);
    else if (strcmp(what, "team-sync-destroyed") == 0)
        shmem_team_sync(destroyed_team());
    else if (strcmp(what, "team-sync-invalid") == 0)
        shmem_team_sync(SHMEM_TEAM_INVALID);
    else if (strcmp(what, "team-broadcastmem-destroyed") == 0)
        shmem_broadcastmem(destroyed_team(), heap, heap + 1, sizeof(long), 0);
    else if (strcmp(what, "team-broadcast-root-range") == 0)
        shmem_broadcastmem(SHMEM_TEAM_WORLD, heap, heap + 1, sizeof(long), shmem_n_pes());
    else if (strcmp(what, "team-broadcast-root-negative") == 0)
        shmem_broadcastmem(SHMEM_TEAM_WORLD, heap, heap + 1, sizeof(long), -1);
    else if (strcmp(what, "team-sum-reduce-destroyed") == 0)
        shmem_long_sum_reduce(destroyed_team(), heap, heap + 1, 1);
    else if (strcmp(what, "ctx-create-destroyed-team") == 0) {
        shmem_ctx_t ctx;
        shmem_team_create_ctx(destroyed_team(), 0, &ctx);
    } else if (strcmp(what, "ctx-destroy-twice") == 0)
        shmem_ctx_destroy(destroyed_ctx());
    else if (strcmp(what, "ctx-destroy-default") == 0)
        shmem_ctx_destroy(SHMEM_CTX_DEFAULT);
    else if (strcmp(what, "ctx-destroy-made-up") == 0)
        shmem_ctx_destroy((shmem_ctx_t)(void *)&stack_word);
    else if (strcmp(what, "ctx-get-team-destroyed") == 0) {
        shmem_team_t team;
        shmem_ctx_get_team(destroyed_ctx(), &team);
    } else if (strcmp(what, "ctx-p-destroyed") == 0)
        shmem_ctx_long_p(destroyed_ctx(), heap, 1, 0);
    else if (strcmp(what, "ctx-p-invalid") == 0)
        shmem_ctx_long_p(SHMEM_CTX_INVALID, heap, 1, 0);
    else if (strcmp(what, "ctx-quiet-destroyed") == 0)
        shmem_ctx_quiet(destroyed_ctx());
    else if (strcmp(what, "ctx-of-destroyed-team") == 0) {
        /* destroying a team destroys the contexts made from it */
        shmem_team_t team;
        shmem_ctx_t ctx;
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &team) == 0, "split");
        CHECK(shmem_team_create_ctx(team, 0, &ctx) == 0, "team_create_ctx");
        shmem_team_destroy(team);
        shmem_ctx_long_p(ctx, heap, 1, 0);
    }
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    if (strcmp(what, "before-init") == 0) {
        shmem_long_p(&static_word, 1, 0);
        return 0;
    }
    shmem_init();
    int n = shmem_n_pes();
    long stack_word = 0;
    long *heap = shmem_malloc(8 * sizeof(long));
    if (strcmp(what, "pe-range") == 0)
        shmem_long_p(&static_word, 1, n);
    else if (strcmp(what, "pe-negative") == 0)
        shmem_long_get(&stack_word, heap, 1, -1);
    else if (strcmp(what, "not-symmetric") == 0)
        shmem_long_put(&stack_word, heap, 1, 0);
    else if (strcmp(what, "heap-overrun") == 0)
        shmem_putmem((char *)heap + 8, &stack_word, (size_t)1 << 40, 0);
    else if (strcmp(what, "length-overflow") == 0)
        shmem_long_put(heap, heap, (size_t)-1 / 4, 0);
    else if (strcmp(what, "stride-overflow") == 0)
        shmem_long_iput(heap, heap, (ptrdiff_t)1 << 62, 1, 4, 0);
    else if (strcmp(what, "bad-free") == 0)
        shmem_free(heap + 1);
    else if (strcmp(what, "bad-cmp") == 0)
        shmem_long_wait_until(heap, 42, 0);
    else if (strncmp(what, "aset-", 5) == 0) {
        /* Active sets that are not valid, or a caller outside its set. */
        static long psync[SHMEM_BCAST_SYNC_SIZE];
        static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
        for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
            psync[i] = SHMEM_SYNC_VALUE;
        if (strcmp(what, "aset-size-zero") == 0)
            shmem_broadcast64(heap, heap + 1, 1, 0, 0, 0, 0, psync);
        else if (strcmp(what, "aset-size-negative") == 0)
            shmem_fcollect32(heap, heap + 1, 1, 0, 0, -2, psync);
        else if (strcmp(what, "aset-stride-past-end") == 0)
            shmem_collect64(heap, heap + 1, 1, 0, 1, n, psync);
        else if (strcmp(what, "aset-not-member") == 0) /* PE 0 alone: the others call */
            shmem_long_sum_to_all(heap, heap + 1, 1, 0, 0, 1, pwrk, psync);
        else if (strcmp(what, "aset-start-range") == 0)
            shmem_barrier(n, 0, 1, psync);
        else if (strcmp(what, "aset-nreduce-negative") == 0)
            shmem_int_max_to_all((int *)heap, (int *)heap + 2, -1, 0, 0, n, (int *)pwrk, psync);
        else if (strcmp(what, "aset-root-range") == 0)
            shmem_broadcast32(heap, heap + 1, 1, 2, 0, 0, 2, psync);
        if (strcmp(what, "aset-not-member") == 0 && shmem_my_pe() == 0) {
            /* the member waits in a barrier while the others end the job */
            shmem_barrier_all();
        }
    }
    else if (strcmp(what, "heap-exhausted") == 0) {
        /* 1 GiB of a 256 MiB heap: NULL, and one line per PE per routine
         * however often it is asked; the heap still works afterwards. */
        size_t gib = (size_t)1 << 30;
        void *a = shmem_malloc(gib), *b = shmem_malloc(gib), *c = shmem_calloc(gib, 2);
        void *d = shmem_align(4096, gib), *e = shmem_realloc(heap, gib);
        int nulls = !a + !b + !c + !d + !e;
        heap[0] = 7;
        long *f = shmem_malloc(64);
        if (shmem_my_pe() == 0)
            printf("heap-exhausted: %d of 5 NULL, heap still usable: %s\n", nulls,
                   f && heap[0] == 7 ? "yes" : "no");
        fflush(stdout);
        shmem_free(f);
        shmem_finalize();
        return 0;
    }
    else if (strcmp(what, "realloc-freed") == 0) {
        /* shrealloc/shmem_realloc of a freed block: NULL, the heap fine */
        long *p = shmem_malloc(64);
        shmem_free(p);
        void *a = shrealloc(p, 128), *b = shmem_realloc(p, 256);
        long *c = shmem_realloc(heap, 1024);
        if (shmem_my_pe() == 0)
            printf("realloc-freed: %s %s, heap still usable: %s\n", a ? "ptr" : "NULL",
                   b ? "ptr" : "NULL", c ? "yes" : "no");
        fflush(stdout);
        shmem_finalize();
        return 0;
    }
    else if (strcmp(what, "calloc-overflow") == 0) {
        void *p = shmem_calloc(SIZE_MAX / 4, 8);
        if (shmem_my_pe() == 0)
            printf("shmem_calloc(SIZE_MAX / 4, 8) returned %s\n", p ? "a pointer" : "NULL");
        fflush(stdout);
        shmem_finalize();
        return 0;
    }
    else if (strcmp(what, "huge-align") == 0) {
        void *p = shmem_align((size_t)1 << 30, 64);
        if (shmem_my_pe() == 0)
            printf("shmem_align(1 << 30, 64) returned %s\n",
                   !p                                    ? "NULL"
                   : (size_t)(uintptr_t)p % ((size_t)1 << 30) ? "a misaligned pointer"
                                                         : "a pointer aligned to it");
        fflush(stdout);
        shmem_free(p);
        shmem_finalize();
        return 0;
    }
    else if (strcmp(what, "bad-align") == 0) {
        void *p = shmem_align(3, 64);
        if (shmem_my_pe() == 0)
            printf("shmem_align(3, 64) returned %s\n", p ? "a pointer" : "NULL");
        fflush(stdout);
        shmem_finalize();
        return 0;
    }
    else if (strncmp(what, "team-", 5) == 0 || strncmp(what, "ctx-", 4) == 0) {
        if (team_case(what, heap)) {
            fflush(stdout);
            shmem_finalize();
            return 0;
        }
    }
    else if (strcmp(what, "reinit-after-mpi") == 0) {
        shmem_finalize(); /* also finalizes the MPI that shmem_init started */
        shmem_init();
    } else if (strcmp(what, "after-finalize") == 0) {
        shmem_finalize();
        shmem_long_p(&static_word, 1, 0);
    } else if (strcmp(what, "global-exit") == 0) {
        shmem_barrier_all();
        if (shmem_my_pe() == n - 1)
            shmem_global_exit(7);
        /* the others wait in a barrier; the job must still end */
        shmem_barrier_all();
        shmem_long_wait_until(&static_word, SHMEM_CMP_EQ, 12345);
    } else if (strncmp(what, "die-", 4) == 0) {
        /* The last PE dies (die-segv, die-exit) while the others wait in a
         * barrier (die-*-barrier), a wait_until, a lock or a collective. */
        shmem_barrier_all();
        if (shmem_my_pe() == n - 1) {
            if (strstr(what, "segv"))
                raise(SIGSEGV);
            exit(3);
        }
        if (strstr(what, "barrier"))
            shmem_barrier_all();
        else if (strstr(what, "lock")) {
            static long lock;
            shmem_set_lock(&lock);
            shmem_long_wait_until(&static_word, SHMEM_CMP_EQ, 12345);
        } else
            shmem_long_wait_until(&static_word, SHMEM_CMP_EQ, 12345);
    } else if (strcmp(what, "heap-full") == 0 || strcmp(what, "heap-full-huge") == 0) {
        /* Not misuse: NULL on every PE (and, under SHMEM_DEBUG, an
         * explanation); the program goes on and ends normally. */
        void *p = shmem_malloc(strcmp(what, "heap-full") == 0 ? (size_t)1 << 40 : SIZE_MAX - 4096);
        shmem_finalize();
        return p == NULL ? 0 : 98;
    } else if (strcmp(what, "init-only") == 0) {
        /* used with a bad environment: init must already have failed */
    }
    shmem_finalize();
    return strcmp(what, "init-only") == 0 ? 0 : 99; /* 99: the misuse was not caught */
}
