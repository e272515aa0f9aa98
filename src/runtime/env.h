/*
 * env.h - reading the environment (env.c); struct shmpi_env, which every
 * layer reads in shmpi_g.env, is in shmpi.h.
 */
#ifndef SHMPI_ENV_H
#define SHMPI_ENV_H

#include "shmpi.h"

/* Reads all variables into shmpi_g.env (collective at start-up); a bad
 * value ends the job with one clear message (shmpi_end_if_any). */
void shmpi_env_read(void);
/* This machine's memory in bytes (0 if unknown). */
size_t shmpi_machine_memory(void);
/* SHMEM_INFO text: every variable, its value and meaning, to stdout. */
void shmpi_env_print_info(void);

#endif /* SHMPI_ENV_H */
