/*
 * shmpi_generics.h - C11 type-generic OpenSHMEM names, included by shmem.h
 * when compiled as C11 or later.  Built from the type tables in
 * shmpi_typetables.h; one header per chapter.
 */
#ifndef SHMPI_GENERICS_H
#define SHMPI_GENERICS_H

#include "shmpi_generics_amo.h" /* first: the selection machinery */
#include "shmpi_generics_rma.h"
#include "shmpi_generics_coll.h"

#endif /* SHMPI_GENERICS_H */
