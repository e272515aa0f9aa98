/* Setup and query routines: PE numbers, version, name, accessibility. */
#include <string.h>

#include "testlib.h"

static long static_word;

int main(void)
{
    shmem_init();
    shmem_init(); /* later calls do nothing (spec) */
    int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(n >= 1 && me >= 0 && me < n, "me %d n %d", me, n);
    CHECK(_my_pe() == me && _num_pes() == n, "deprecated queries disagree");

    int major = -1, minor = -1;
    shmem_info_get_version(&major, &minor);
    CHECK(major == SHMEM_MAJOR_VERSION && minor == SHMEM_MINOR_VERSION, "%d.%d", major, minor);
    CHECK(major == 1 && minor == 6, "version %d.%d", major, minor);
    char name[SHMEM_MAX_NAME_LEN];
    shmem_info_get_name(name);
    CHECK(strcmp(name, SHMEM_VENDOR_STRING) == 0, "name '%s'", name);
    CHECK(SHMPI_VENDOR_VERSION >= 100, "vendor version %d", SHMPI_VENDOR_VERSION);

    int provided = -1;
    shmem_query_thread(&provided);
    CHECK(provided == SHMEM_THREAD_SINGLE, "provided %d", provided);

    for (int pe = 0; pe < n; pe++)
        CHECK(shmem_pe_accessible(pe), "pe %d", pe);
    CHECK(!shmem_pe_accessible(-1) && !shmem_pe_accessible(n), "out-of-range PE accessible");

    long *heap_word = shmem_malloc(sizeof(long));
    long stack_word = 0;
    CHECK(heap_word != NULL, "malloc");
    CHECK(shmem_addr_accessible(heap_word, (me + 1) % n), "heap not accessible");
    CHECK(shmem_addr_accessible(&static_word, (me + 1) % n), "static not accessible");
    CHECK(!shmem_addr_accessible(&stack_word, (me + 1) % n), "stack accessible");
    CHECK(shmem_ptr(heap_word, me) == heap_word, "shmem_ptr to self");
    CHECK(shmem_ptr(&static_word, me) == &static_word, "shmem_ptr to own static");
    CHECK(shmem_ptr(&stack_word, me) == NULL, "shmem_ptr of the stack");
    CHECK(shmem_ptr(heap_word, n) == NULL, "shmem_ptr to a PE out of range");

    /* shmem_ptr to a peer, where it works, reaches the peer's object. */
    *heap_word = 1000 + me;
    shmem_barrier_all();
    for (int pe = 0; pe < n; pe++) {
        long *remote = shmem_ptr(heap_word, pe);
        if (remote)
            CHECK(*remote == 1000 + pe, "peer %d holds %ld", pe, *remote);
    }
    shmem_barrier_all();
    shmem_free(heap_word);
    test_passed("hello");
    shmem_finalize();
    shmem_finalize(); /* a second finalize does nothing */
    return 0;
}
