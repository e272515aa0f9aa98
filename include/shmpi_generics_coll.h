/* shmpi_generics_coll.h - C11 generic names, coll chapter (see shmpi_generics.h). */
#ifndef SHMPI_GENERICS_COLL_H
#define SHMPI_GENERICS_COLL_H

#endif
