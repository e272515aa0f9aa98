/*
 * Every PE waits and none can end another's wait: PE 0 holds a lock and waits
 * for a word nobody sets, the others wait for the lock.  shmpi must print,
 * once, what each PE waits in (tests/hang_report.test checks the lines), and
 * keep waiting: here a thread of PE 0's own, outside shmpi, sets the word
 * after RELEASE_S seconds, and the program then ends normally.
 * Argument: RELEASE_S (default 10).
 */
#include "testlib.h"

#include <pthread.h>
#include <time.h>
#include <unistd.h>

static long lock;
static int released; /* PE 0's: set by its own thread */

static void *release_later(void *arg)
{
    unsigned seconds = *(unsigned *)arg;
    sleep(seconds);
    __atomic_store_n(&released, 1, __ATOMIC_RELEASE);
    return NULL;
}

int main(int argc, char **argv)
{
    unsigned release_s = argc > 1 ? (unsigned)atoi(argv[1]) : 10;
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_set_lock(&lock);
        printf("hang_report: PE 0 holds the lock\n");
        fflush(stdout);
    }
    shmem_barrier_all();
    pthread_t thread;
    if (me == 0) {
        CHECK(pthread_create(&thread, NULL, release_later, &release_s) == 0, "no thread");
        shmem_int_wait_until(&released, SHMEM_CMP_EQ, 1);
        shmem_clear_lock(&lock);
        pthread_join(thread, NULL);
    } else {
        shmem_set_lock(&lock);
        shmem_clear_lock(&lock);
    }
    shmem_barrier_all();
    test_passed("hang_report");
    shmem_finalize();
    return 0;
}
