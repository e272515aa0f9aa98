/*
 * bench_python_stream.c - the C side of benchmarks/bench_python_stream.py: each
 * function calls one stream routine of libshmpi `iters` times back to back and
 * returns the microseconds per call.  The routine comes as a function pointer
 * that the Python script took from the library it loaded (ctypes), so the C
 * calls and shmpi.core's run in one process, on the same library, stream and
 * arrays.  The script compiles this file itself (cc -O2 -shared -fPIC), alone:
 * of the harness it uses the inline timer of bench_stats.h.
 */
#include "bench_stats.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define TIMED(CALL)                                                                           \
    double start = bench_now_us();                                                                  \
    for (long i = 0; i < iters; i++)                                                          \
        CALL;                                                                                 \
    return (bench_now_us() - start) / (double)(iters > 0 ? iters : 1)

double bench_rma(void (*fn)(void *, const void *, size_t, int, void *), void *dst,
                 const void *src, size_t count, int pe, void *stream, long iters)
{
    TIMED(fn(dst, src, count, pe, stream));
}

double bench_put_signal(void (*fn)(void *, const void *, size_t, void *, uint64_t, int, int,
                                   void *),
                        void *dst, const void *src, size_t count, void *sig, uint64_t value,
                        int op, int pe, void *stream, long iters)
{
    TIMED(fn(dst, src, count, sig, value, op, pe, stream));
}

double bench_signal_op(void (*fn)(void *, uint64_t, int, int, void *), void *sig, uint64_t value,
                       int op, int pe, void *stream, long iters)
{
    TIMED(fn(sig, value, op, pe, stream));
}

double bench_signal_wait(void (*fn)(void *, int, uint64_t, void *), void *sig, int cmp,
                         uint64_t value, void *stream, long iters)
{
    TIMED(fn(sig, cmp, value, stream));
}

double bench_stream_only(void (*fn)(void *), void *stream, long iters)
{
    TIMED(fn(stream));
}

double bench_team_stream(int (*fn)(void *, void *), void *team, void *stream, long iters)
{
    TIMED(fn(team, stream));
}

double bench_coll(int (*fn)(void *, void *, const void *, size_t, void *), void *team, void *dst,
                  const void *src, size_t count, void *stream, long iters)
{
    TIMED(fn(team, dst, src, count, stream));
}

/* The stream held while a batch is timed, as nvbench holds it with a blocking kernel: a
 * host function at its head waits until bench_release, so the timed calls only enqueue on
 * both sides (C and Python) and the stream's worker does not run beside them. */
static pthread_mutex_t hold_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hold_released = PTHREAD_COND_INITIALIZER;
static int held;

static void hold_until_released(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&hold_lock);
    while (held)
        pthread_cond_wait(&hold_released, &hold_lock);
    pthread_mutex_unlock(&hold_lock);
}

int bench_hold(int (*launch_host_func)(void *, void (*)(void *), void *), void *stream)
{
    pthread_mutex_lock(&hold_lock);
    held = 1;
    pthread_mutex_unlock(&hold_lock);
    return launch_host_func(stream, hold_until_released, NULL);
}

void bench_release(void)
{
    pthread_mutex_lock(&hold_lock);
    held = 0;
    pthread_cond_broadcast(&hold_released);
    pthread_mutex_unlock(&hold_lock);
}

/* --host: shmem_putmem / shmem_getmem on the host's symmetric heap */
double bench_host_rma(void (*fn)(void *, const void *, size_t, int), void *dst, const void *src,
                      size_t nbytes, int pe, long iters)
{
    TIMED(fn(dst, src, nbytes, pe));
}
