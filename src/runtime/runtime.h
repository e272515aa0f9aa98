/*
 * runtime.h - start and end of the library (runtime.c): the bodies of
 * shmem_init, shmem_init_thread, shmem_finalize and shmem_global_exit.
 */
#ifndef SHMPI_RUNTIME_H
#define SHMPI_RUNTIME_H

/* Initializes the library (or counts one more init); returns the provided
 * thread level.  `routine` names the caller in error messages. */
int shmpi_init(const char *routine, int requested);
/* Ends the library when the last open init is matched. */
void shmpi_finalize(void);
/* Ends every PE of the job with `status`. */
_Noreturn void shmpi_global_exit(int status);

#endif /* SHMPI_RUNTIME_H */
