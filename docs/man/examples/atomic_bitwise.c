/* shmem_atomic_or, _and, _xor and their fetching forms: a mask of flags on
 * PE 0.  Every PE sets its bit (fetch_or: was it already set?), then the
 * odd PEs clear theirs (and) and PE 0 flips the top bit twice (xor).
 * Build and run: oshcc atomic_bitwise.c -o atomic_bitwise && oshrun -n 4 ./atomic_bitwise
 */
#include <shmem.h>
#include <stdio.h>

static unsigned int mask; /* symmetric */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    unsigned int bit = 1u << me;
    unsigned int before = shmem_atomic_fetch_or(&mask, bit, 0); /* C11; or shmem_uint_... */
    int was_set = (before & bit) != 0;
    shmem_barrier_all();
    if (me % 2)
        shmem_atomic_and(&mask, ~bit, 0);
    if (me == 0) {
        shmem_atomic_xor(&mask, 0x80000000u, 0);
        unsigned int flipped = shmem_atomic_fetch_xor(&mask, 0x80000000u, 0);
        printf("top bit was %s after one flip\n", flipped >> 31 ? "set" : "clear");
    }
    shmem_barrier_all();
    if (me == 0)
        printf("mask 0x%x\n", mask);
    printf("PE %d: bit already set: %s\n", me, was_set ? "yes" : "no");
    shmem_finalize();
    return was_set;
}
/* Output (lines in any order):
 * top bit was set after one flip
 * mask 0x5
 * PE 0: bit already set: no
 * PE 1: bit already set: no
 * PE 2: bit already set: no
 * PE 3: bit already set: no
 */
