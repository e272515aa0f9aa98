/*
 * pe_set.c - sets of PEs, one atomic bit each (struct shmpi_pe_set,
 * shmpi.h): made and freed here, below every layer that keeps one (the
 * MPI window's reached PEs, flush.c's pending probes, amo_message.c's
 * unfenced targets); emptied while waiting by shmpi_pe_set_wait_each
 * (flush.c).
 */
#include "shmpi.h"

#include <stdlib.h>

void shmpi_pe_set_init(struct shmpi_pe_set *set, const char *what)
{
    set->words = ((size_t)shmpi_g.n_pes + 63) / 64;
    set->bits = calloc(set->words, sizeof *set->bits);
    if (!set->bits)
        shmpi_abort("shmem_init", "out of memory for %zu words of %s", set->words, what);
}

void shmpi_pe_set_fini(struct shmpi_pe_set *set)
{
    free(set->bits);
    set->bits = NULL;
    set->words = 0;
}
