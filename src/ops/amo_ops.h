/*
 * amo_ops.h - SHMPI_AMO_OPS (amo_ops.c): MPI's own op for a program whose
 * AMO routines make one kind of update.
 */
#ifndef SHMPI_AMO_OPS_H
#define SHMPI_AMO_OPS_H

#include "amo_word.h"

/* Chooses the direct MPI op of SHMPI_AMO_OPS (the same everywhere: shape.c
 * checks it) and sets up AMOs as messages (collective, during init). */
void shmpi_amo_init(void);
/* The SHMPI_AMO_OPS mask of `text` (see struct shmpi_env), 0 if malformed. */
unsigned shmpi_amo_parse_ops(const char *text);
/* The window's which_accumulate_ops hint for that mask, and the MPI op that
 * AMOs use directly ("none" if every AMO is a compare-and-swap). */
const char *shmpi_amo_window_ops(unsigned amo_ops);
const char *shmpi_amo_direct_op_name(unsigned amo_ops);
/* Ends the job: an AMO routine made a kind of update SHMPI_AMO_OPS does not list. */
_Noreturn void shmpi_amo_undeclared(const char *routine, enum shmpi_amo_op op);

#endif /* SHMPI_AMO_OPS_H */
