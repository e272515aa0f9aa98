// prof_cxx.cc - the C++ overloads of shmem.h call the shmem_ names, so a
// profiling tool (tests/spmd/proftool.c, linked before libshmpi) sees them.
#include <pshmem.h>

#include "proftool.h"
#include "testlib.h"

int main()
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *buf = static_cast<long *>(shmem_malloc(4 * sizeof(long)));
    long *word = buf + 3;
    *word = 0;
    long src[2] = {10L * me, 10L * me + 1};
    shmem_barrier_all();
    shmem_put(buf, src, 2, (me + 1) % n);            // shmem_long_put
    shmem_p(buf + 2, 7L, (me + 1) % n);              // shmem_long_p
    shmem_atomic_fetch_add(word, 1L, 0);             // shmem_long_atomic_fetch_add
    shmem_quiet();
    shmem_barrier_all();
    int left = (me + n - 1) % n;
    CHECK(buf[0] == 10L * left && buf[1] == 10L * left + 1 && buf[2] == 7, "put %ld", buf[0]);
    CHECK(shmem_test(buf + 2, SHMEM_CMP_EQ, 7L) == 1, "test"); // shmem_long_test
    if (me == 0)
        CHECK(*word == n, "fetch_add total %ld", *word);
    CHECK(proftool_count("shmem_long_put") == 1, "put %ld", proftool_count("shmem_long_put"));
    CHECK(proftool_count("shmem_long_p") == 1, "p %ld", proftool_count("shmem_long_p"));
    CHECK(proftool_count("shmem_long_atomic_fetch_add") == 1, "fetch_add %ld",
          proftool_count("shmem_long_atomic_fetch_add"));
    CHECK(proftool_count("shmem_long_test") == 1, "test %ld", proftool_count("shmem_long_test"));
    CHECK(proftool_count("shmem_barrier_all") == 2, "barrier_all %ld",
          proftool_count("shmem_barrier_all"));
    shmem_free(buf);
    test_passed("prof_cxx");
    shmem_finalize();
    return 0;
}
