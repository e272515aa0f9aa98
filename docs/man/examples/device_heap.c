/* shmemx_device_malloc, shmemx_device_calloc, shmemx_device_free,
 * shmemx_device_heap_available: a symmetric array in GPU memory that each
 * PE fills in its right neighbour with a put from host memory, then reads
 * back with a get.
 * Build and run: oshcc device_heap.c -o device_heap && SHMPI_DEVICE_HEAP_SIZE=64m oshrun -n 2 ./device_heap
 */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>

#define N 1024

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (!shmemx_device_heap_available()) {
        if (me == 0)
            printf("no device heap: set SHMPI_DEVICE_HEAP_SIZE\n");
        shmem_finalize();
        return 1;
    }
    double *field = shmemx_device_malloc(N * sizeof(double)); /* device addresses: */
    long *zeros = shmemx_device_calloc(N, sizeof(long));      /* not for the host's loads */
    static double mine[N], back[N];
    for (int i = 0; i < N; i++)
        mine[i] = me + i / 1000.0;
    shmem_double_put(field, mine, N, (me + 1) % npes); /* into the neighbour's GPU */
    shmem_barrier_all();
    shmem_double_get(back, field, N, me);             /* out of this PE's GPU */
    long zero = -1;
    shmem_long_get(&zero, &zeros[N - 1], 1, me);
    int left = (me + npes - 1) % npes;
    printf("PE %d: field[1] = %.3f from PE %d, zeros[%d] = %ld\n", me, back[1], left, N - 1,
           zero);
    shmem_barrier_all(); /* no PE frees while another still reads */
    shmemx_device_free(zeros);
    shmemx_device_free(field);
    shmem_finalize();
    return back[1] == left + 0.001 && zero == 0 ? 0 : 1;
}
/* Output (lines in any order):
 * PE 0: field[1] = 1.001 from PE 1, zeros[1023] = 0
 * PE 1: field[1] = 0.001 from PE 0, zeros[1023] = 0
 */
