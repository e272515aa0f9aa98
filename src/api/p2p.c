/*
 * p2p.c - point-to-point synchronization (spec: Point-To-Point
 * Synchronization Routines): wait_until and test on one variable.
 */
#include "../core/shmpi.h"

void shmpi_wait_until(const char *routine, bool (*satisfied)(const void *state),
                      const void *state);

/* Each type gets a comparison (loads are volatile: other PEs write the
 * variable behind the compiler's back) and thin entry points. */
#define DEFINE_P2P_COMPARE(N, T)                                                              \
    static bool compare_##N(const volatile T *ivar, int cmp, T value)                         \
    {                                                                                         \
        T now = *ivar;                                                                        \
        switch (cmp) {                                                                        \
        case SHMEM_CMP_EQ: return now == value;                                               \
        case SHMEM_CMP_NE: return now != value;                                               \
        case SHMEM_CMP_GT: return now > value;                                                \
        case SHMEM_CMP_GE: return now >= value;                                               \
        case SHMEM_CMP_LT: return now < value;                                                \
        default: return now <= value;                                                         \
        }                                                                                     \
    }                                                                                         \
    struct wait_##N {                                                                         \
        const volatile T *ivar;                                                               \
        int cmp;                                                                              \
        T value;                                                                              \
    };                                                                                        \
    static bool wait_done_##N(const void *state)                                              \
    {                                                                                         \
        const struct wait_##N *w = state;                                                     \
        return compare_##N(w->ivar, w->cmp, w->value);                                        \
    }                                                                                         \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value)                                \
    {                                                                                         \
        shmpi_check_ready(__func__);                                                          \
        shmpi_check_cmp(__func__, cmp);                                                       \
        struct wait_##N w = {ivar, cmp, cmp_value};                                           \
        shmpi_wait_until(__func__, wait_done_##N, &w);                                        \
    }                                                                                         \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value)                                       \
    {                                                                                         \
        shmpi_check_ready(__func__);                                                          \
        shmpi_check_cmp(__func__, cmp);                                                       \
        if (compare_##N(ivar, cmp, cmp_value))                                                \
            return 1;                                                                         \
        shmpi_progress(); /* so that repeated tests see remote updates arrive */              \
        return compare_##N(ivar, cmp, cmp_value);                                             \
    }
SHMPI_P2P_TYPES(DEFINE_P2P_COMPARE)
SHMPI_P2P_DEPRECATED_TYPES(DEFINE_P2P_COMPARE)

void(shmem_wait_until)(long *ivar, int cmp, long cmp_value)
{
    shmem_long_wait_until(ivar, cmp, cmp_value);
}

#define DEFINE_WAIT_DEPRECATED(N, T)                                                          \
    void shmem_##N##_wait(T *ivar, T cmp_value)                                               \
    {                                                                                         \
        shmem_##N##_wait_until(ivar, SHMEM_CMP_NE, cmp_value);                                \
    }
SHMPI_WAIT_DEPRECATED_TYPES(DEFINE_WAIT_DEPRECATED)

void shmem_wait(long *ivar, long cmp_value)
{
    shmem_long_wait_until(ivar, SHMEM_CMP_NE, cmp_value);
}
