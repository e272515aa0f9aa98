/* shmpi_generics_rma.h - C11 generic names, rma chapter (see shmpi_generics.h). */
#ifndef SHMPI_GENERICS_RMA_H
#define SHMPI_GENERICS_RMA_H

#endif
