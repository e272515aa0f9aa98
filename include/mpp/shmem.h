/* Deprecated header location (OpenSHMEM 1.1 and earlier); use <shmem.h>. */
#include <shmem.h>
