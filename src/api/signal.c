/*
 * signal.c - put-with-signal and signal routines (spec: Signaling
 * Operations).  A put-with-signal is the put, complete at the target, then
 * the signal update as a uint64 AMO (src/ops/amo.c: shmpi_put_signal).
 * The nbi forms are allowed to complete before returning, and do.
 */
#define SHMPI_DEFINES_signal SHMPI_HERE /* weak shmem_ names of this chapter here */
#include "amo.h"
#include "device_reach.h"
#include "stream.h"

#define DEFINE_SIGNAL(NAME, T, ELEM)                                                          \
    void shmem_ctx_##NAME(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,           \
                          uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)            \
    {                                                                                         \
        shmpi_put_signal(__func__, ctx, dest, source, shmpi_bytes(__func__, nelems, ELEM),    \
                         sig_addr, signal, sig_op, pe);                                       \
    }                                                                                         \
    void shmem_##NAME(T *dest, const T *source, size_t nelems, uint64_t *sig_addr,            \
                      uint64_t signal, int sig_op, int pe)                                    \
    {                                                                                         \
        shmpi_put_signal(__func__, SHMEM_CTX_DEFAULT, dest, source,                           \
                         shmpi_bytes(__func__, nelems, ELEM), sig_addr, signal, sig_op, pe);  \
    }
#define DEFINE_SIGNAL_TYPED(N, T)                                                             \
    DEFINE_SIGNAL(N##_put_signal, T, sizeof(T))                                               \
    DEFINE_SIGNAL(N##_put_signal_nbi, T, sizeof(T))
#define DEFINE_SIGNAL_SIZED(BITS)                                                             \
    DEFINE_SIGNAL(put##BITS##_signal, void, BITS / 8)                                         \
    DEFINE_SIGNAL(put##BITS##_signal_nbi, void, BITS / 8)
SHMPI_RMA_TYPES(DEFINE_SIGNAL_TYPED)
SHMPI_RMA_SIZES(DEFINE_SIGNAL_SIZED)
DEFINE_SIGNAL(putmem_signal, void, 1)
DEFINE_SIGNAL(putmem_signal_nbi, void, 1)

uint64_t shmem_signal_fetch(const uint64_t *sig_addr)
{
    if (shmpi_device_word(sig_addr, sizeof(uint64_t)))
        return shmpi_device_word_fetch(__func__, sig_addr, shmpi_g.my_pe);
    uint64_t value;
    shmpi_amo(__func__, SHMEM_CTX_DEFAULT, SHMPI_AMO_FETCH, SHMPI_AMO_UINT64, (void *)sig_addr,
              NULL, NULL, &value, shmpi_g.my_pe);
    return value;
}

/* A signal routine (sig_op SHMEM_SIGNAL_ADD or _SET, a constant where it
 * inlines): through the driver on a word in device memory, else as a
 * uint64 AMO. */
static inline void signal_update(const char *routine, shmem_ctx_t ctx, uint64_t *sig_addr,
                                 uint64_t signal, int sig_op, int pe)
{
    if (shmpi_device_word(sig_addr, sizeof(uint64_t))) {
        shmpi_device_word_signal(
            routine, sig_addr, signal, sig_op,
            shmpi_team_world_pe(routine, shmpi_ctx_of(routine, ctx)->team, pe));
        return;
    }
    shmpi_amo(routine, ctx, sig_op == SHMEM_SIGNAL_ADD ? SHMPI_AMO_ADD : SHMPI_AMO_SET,
              SHMPI_AMO_UINT64, sig_addr, &signal, NULL, NULL, pe);
}

void shmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_update(__func__, ctx, sig_addr, signal, SHMEM_SIGNAL_ADD, pe);
}

void(shmem_signal_add)(uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_update(__func__, SHMEM_CTX_DEFAULT, sig_addr, signal, SHMEM_SIGNAL_ADD, pe);
}

void shmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_update(__func__, ctx, sig_addr, signal, SHMEM_SIGNAL_SET, pe);
}

void(shmem_signal_set)(uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_update(__func__, SHMEM_CTX_DEFAULT, sig_addr, signal, SHMEM_SIGNAL_SET, pe);
}

struct signal_wait {
    const _Atomic uint64_t *sig;
    int cmp;
    uint64_t value;
    uint64_t seen;
};

static bool signal_satisfied(const void *state)
{
    struct signal_wait *w = (struct signal_wait *)state;
    uint64_t now = atomic_load_explicit(w->sig, memory_order_relaxed);
    w->seen = now;
    return shmpi_compare_u64(now, w->cmp, w->value);
}

uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
    shmpi_check_ready(__func__);
    shmpi_check_cmp(__func__, cmp);
    if (shmpi_device_word(sig_addr, sizeof(uint64_t)))
        return shmpi_device_word_wait(__func__, sig_addr, cmp, cmp_value);
    (void)shmpi_symm_target(__func__, sig_addr, sizeof(uint64_t), shmpi_g.my_pe);
    struct signal_wait w = {(const _Atomic uint64_t *)sig_addr, cmp, cmp_value, 0};
    const struct shmpi_wait_cmp what = {cmp, sizeof(uint64_t), false, cmp_value};
    shmpi_wait_until(__func__, sig_addr, &what, signal_satisfied, &w);
    return w.seen;
}
