/*
 * OpenSHMEM 1.6 signal updates without data: shmem_signal_add/set, their
 * ctx forms and C11 generic names, concurrently from every PE to one word.
 */
#include "testlib.h"

static uint64_t sig;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    uint64_t *heap_sig = shmem_calloc(1, sizeof(uint64_t));
    uint64_t *words[2] = {&sig, heap_sig};
    for (int k = 0; k < 2; k++) {
        uint64_t *w = words[k];
        /* every PE adds 1 + me to PE 0's word, 100 times, through all four names */
        for (int i = 0; i < 25; i++) {
            shmem_signal_add(w, (uint64_t)(1 + me), 0);
            shmem_ctx_signal_add(SHMEM_CTX_DEFAULT, w, (uint64_t)(1 + me), 0);
            (shmem_signal_add)(w, (uint64_t)(1 + me), 0);
            shmem_signal_add(SHMEM_CTX_DEFAULT, w, (uint64_t)(1 + me), 0);
        }
        uint64_t total = 100ull * (uint64_t)n * (uint64_t)(n + 1) / 2;
        if (me == 0) {
            uint64_t seen = shmem_signal_wait_until(w, SHMEM_CMP_EQ, total);
            CHECK(seen == total && shmem_signal_fetch(w) == total, "sum %llu, want %llu",
                  (unsigned long long)seen, (unsigned long long)total);
        }
        shmem_barrier_all();
        /* set: the last PE sets, the others wait to see it */
        if (me == n - 1) {
            for (int pe = 0; pe < n; pe++) {
                if (pe % 2)
                    shmem_signal_set(w, 77 + (uint64_t)k, pe);
                else
                    shmem_ctx_signal_set(SHMEM_CTX_DEFAULT, w, 77 + (uint64_t)k, pe);
            }
        }
        shmem_signal_wait_until(w, SHMEM_CMP_EQ, 77 + (uint64_t)k);
        shmem_barrier_all();
        shmem_signal_set(SHMEM_CTX_DEFAULT, w, 5, me);
        (shmem_signal_set)(w, 6, me);
        CHECK(*w == 6, "set to self");
        shmem_barrier_all();
    }
    shmem_free(heap_sig);
    test_passed("signal_v16");
    shmem_finalize();
    return 0;
}
