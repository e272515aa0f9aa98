/* shmpi_generics_amo.h - C11 generic names, amo chapter (see shmpi_generics.h). */
#ifndef SHMPI_GENERICS_AMO_H
#define SHMPI_GENERICS_AMO_H

#endif
