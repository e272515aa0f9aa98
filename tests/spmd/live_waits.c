/*
 * Jobs that wait, for shmpi_info --waits to read while they run
 * (tests/live_waits.test).  Usage: live_waits KIND RELEASE_FILE [TOOL OUT]
 * Every wait ends once RELEASE_FILE exists (the test creates it when it has
 * looked), then every PE meets in a barrier and PE 0 prints PASS.
 *   until:      PEs 0 and 1 wait_until (== 1) on an int nobody else writes (a
 *               thread of their own sets it at release); the others wait in a
 *               barrier.
 *   barrier:    the last PE computes until release; the others wait in a barrier.
 *   lock:       PE 0 holds a lock and computes until release; the others wait for it.
 *   collective: the even PEs form a team; PE 0 computes, the other even PEs wait in a
 *               broadcast of that team; the odd PEs in a barrier of all.
 *   amo:        PE 0 waits for a fetch-add to the last PE, which computes (the AMO
 *               waits only where it is a message: across nodes, without progress
 *               thread).  With TOOL and OUT, PE 1 (computing, on PE 0's node)
 *               runs TOOL once PE 0 has waited a second, writes its output to OUT,
 *               and creates RELEASE_FILE itself; with "until", PE 0's thread does.
 *   get:        the same with a get of 512 bytes from the last PE.
 * The PEs that compute look for the file every 10 ms, for at most 60 s.
 */
#include "testlib.h"

#include <pthread.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

static const char *release_file;
static int word; /* "until": PEs 0 and 1 wait for it, their own thread sets it */
static long lock;
static long counter;
static long bcast_src, bcast_dst;
static long bcast_table[64] = {[63] = 63};

static bool released(void)
{
    return access(release_file, F_OK) == 0;
}

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Computes (outside shmpi) until the release file exists. */
static void compute_until_released(void)
{
    for (int i = 0; i < 6000 && !released(); i++)
        sleep_ms(10);
    CHECK(released(), "no release within 60 s");
}

/* TOOL --waits --parsable > OUT, then the release file (across emulated
 * nodes: the tool runs on this PE's node). */
static const char *tool, *tool_out;
static void observe_and_release(void)
{
    sleep_ms(1500);
    char command[1024];
    snprintf(command, sizeof command, "%s --waits --parsable > %s 2>&1; touch %s", tool,
             tool_out, release_file);
    CHECK(system(command) == 0, "%s failed", command);
}

static void *release_word(void *unused)
{
    (void)unused;
    if (tool && shmem_my_pe() == 0)
        observe_and_release();
    compute_until_released();
    __atomic_store_n(&word, 1, __ATOMIC_RELEASE);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK(argc >= 3, "usage: live_waits KIND RELEASE_FILE [TOOL OUT]");
    const char *kind = argv[1];
    release_file = argv[2];
    if (argc >= 5)
        tool = argv[3], tool_out = argv[4];
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(n >= 4, "needs 4 PEs or more");
    if (!strcmp(kind, "until")) {
        if (me < 2) {
            pthread_t thread;
            CHECK(pthread_create(&thread, NULL, release_word, NULL) == 0, "no thread");
            shmem_int_wait_until(&word, SHMEM_CMP_EQ, 1);
            pthread_join(thread, NULL);
        }
    } else if (!strcmp(kind, "barrier")) {
        if (me == n - 1)
            compute_until_released();
    } else if (!strcmp(kind, "lock")) {
        if (me == 0)
            shmem_set_lock(&lock);
        shmem_barrier_all();
        if (me == 0) {
            compute_until_released();
            shmem_clear_lock(&lock);
        } else {
            shmem_set_lock(&lock);
            shmem_clear_lock(&lock);
        }
    } else if (!strcmp(kind, "collective")) {
        shmem_team_t evens = SHMEM_TEAM_INVALID;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &evens);
        if (me % 2 == 0) {
            if (me == 0) {
                bcast_src = 42;
                compute_until_released();
            }
            shmem_long_broadcast(evens, &bcast_dst, &bcast_src, 1, 0);
            CHECK(bcast_dst == 42 || me == 0, "broadcast gave %ld", bcast_dst);
        }
        shmem_barrier_all();
        if (evens != SHMEM_TEAM_INVALID)
            shmem_team_destroy(evens);
    } else if (!strcmp(kind, "amo") || !strcmp(kind, "get")) {
        /* the target computes (outside MPI) by the time the operation reaches it */
        shmem_barrier_all();
        if (me == 0)
            sleep_ms(200);
        if (me == 0 && kind[0] == 'a') {
            long old = shmem_long_atomic_fetch_add(&counter, 1, n - 1);
            CHECK(old == 0, "fetch_add gave %ld", old);
        } else if (me == 0) {
            long far[64];
            shmem_long_get(far, bcast_table, 64, n - 1);
            CHECK(far[63] == 63, "get gave %ld", far[63]);
        } else if (me == n - 1) {
            compute_until_released();
        } else if (me == 1 && tool) {
            observe_and_release();
        }
    } else {
        CHECK(0, "unknown kind %s", kind);
    }
    shmem_barrier_all();
    test_passed("live_waits");
    shmem_finalize();
    return 0;
}
