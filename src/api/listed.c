/*
 * listed.c - the routines written in the routine list with their call into
 * the layers below src/api (the SHMPI_FN_CALL and SHMPI_FN_DO entries of
 * include/shmpi_routines.h, and the families of SHMPI_TYPED_CALL entries:
 * team reductions, scans): each is defined here as that one call, with its
 * weak shmem_ alias.  The other entries are defined by hand in the file of
 * their chapter.
 */
#include "coll.h"

#undef SHMPI_FN
#undef SHMPI_FN_CALL
#undef SHMPI_FN_DO
#define SHMPI_FN(RET, NAME, PARAMS)
#define SHMPI_FN_CALL(RET, NAME, PARAMS, CALL)                                                \
    RET NAME PARAMS                                                                           \
    {                                                                                         \
        return CALL;                                                                          \
    }                                                                                         \
    SHMPI_WEAK_ALIAS(NAME)
#define SHMPI_FN_DO(NAME, PARAMS, CALL)                                                       \
    void NAME PARAMS                                                                          \
    {                                                                                         \
        CALL;                                                                                 \
    }                                                                                         \
    SHMPI_WEAK_ALIAS(NAME)
#pragma GCC visibility push(default) /* the aliases are public, as in src/base/shmpi.h */
#include "shmpi_routines.h"
#pragma GCC visibility pop
