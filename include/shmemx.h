/*
 * shmemx.h - shmpi extensions to OpenSHMEM (names start with shmemx_).
 */
#ifndef SHMEMX_H
#define SHMEMX_H

#include <shmem.h>

#endif /* SHMEMX_H */
