/* shmem_ibget: PE 1 reads every other pair of a 12-element array on PE 0:
 * 3 blocks of 2, their starts 4 apart there, packed together here.
 * Build and run: oshcc ibget.c -o ibget && oshrun -n 2 ./ibget
 */
#include <shmem.h>
#include <stdio.h>

static float values[12]; /* symmetric */

int main(void)
{
    shmem_init();
    for (int i = 0; i < 12; i++)
        values[i] = (float)i;
    shmem_barrier_all();
    int wrong = 0;
    if (shmem_my_pe() == 1) {
        float pairs[6];
        /* dest stride 2, source stride 4, blocks of 2, 3 blocks, from PE 0 */
        shmem_float_ibget(pairs, values, 2, 4, 2, 3, 0);
        for (int i = 0; i < 6; i++)
            printf("%g%s", pairs[i], i < 5 ? " " : "\n");
        wrong = pairs[5] != 9.0f;
    }
    shmem_finalize();
    return wrong;
}
/* Output:
 * 0 1 4 5 8 9
 */
