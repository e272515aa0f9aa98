/*
 * stream.c - the operations on CUDA streams of shmemx.h, each one call:
 * every entry of include/shmpi_stream.h (SHMPI_STREAM_ROUTINES) expanded
 * into its definition.  The work is in src/device/stream.c and
 * src/coll/stream_coll.c.
 */
#include "stream.h"
#include "stream_coll.h"

#define SHMPI_STREAM_BODY_void(CALL) CALL;
#define SHMPI_STREAM_BODY_int(CALL) return CALL;
#define SHMPI_STREAM_ENTRY(RET, NAME, PARAMS, CALL)                                           \
    RET NAME PARAMS                                                                           \
    {                                                                                         \
        SHMPI_STREAM_BODY_##RET(CALL)                                                         \
    }
SHMPI_STREAM_ROUTINES
#undef SHMPI_STREAM_ENTRY
