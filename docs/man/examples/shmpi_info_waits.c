/*
 * shmpi_info --waits on a running job (here its own): PE 1 waits for a word
 * that PE 0 sets only after it has run shmpi_info --waits on this job; from
 * a shell, on any job of this machine, it says the same.
 * Build and run: oshcc shmpi_info_waits.c -o shmpi_info_waits && oshrun -n 2 ./shmpi_info_waits
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int ready;

int main(void)
{
    shmem_init();
    if (shmem_my_pe() == 0) {
        sleep(1); /* PE 1 has waited a while by now */
        char command[200];
        /* the job of this process; what each PE does, and where PE 1 waits */
        snprintf(command, sizeof command,
                 "shmpi_info --waits --pid %d --parsable | grep -E ':(state|waits_in|routine):'",
                 (int)getpid());
        fflush(stdout);
        if (system(command) != 0)
            printf("shmpi_info failed\n");
        fflush(stdout);
        shmem_int_p(&ready, 1, 1);
    } else {
        shmem_int_wait_until(&ready, SHMEM_CMP_EQ, 1);
    }
    shmem_finalize();
    return 0;
}
/* Output (in any order):
pe:0:state:computing
pe:1:state:waiting
pe:1:waits_in:memory
pe:1:routine:shmem_int_wait_until
*/
