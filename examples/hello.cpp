// hello.cpp - OpenSHMEM from C++: every PE writes its number into a
// symmetric std::array-like buffer on PE 0, which prints the result.
#include <shmem.h>

#include <cstdio>
#include <vector>

int main()
{
    shmem_init();
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    int *slots = static_cast<int *>(shmem_calloc(static_cast<size_t>(npes), sizeof(int)));
    shmem_int_p(&slots[me], me * me, 0);
    shmem_barrier_all();
    int bad = 0;
    if (me == 0) {
        std::vector<int> seen(slots, slots + npes);
        for (int pe = 0; pe < npes; pe++)
            bad += seen[static_cast<size_t>(pe)] != pe * pe;
        std::printf("C++: PE 0 received squares from %d PEs, %d wrong\n", npes, bad);
    }
    shmem_free(slots);
    shmem_finalize();
    return bad ? 1 : 0;
}
