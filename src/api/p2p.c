/*
 * p2p.c - point-to-point synchronization (spec: Point-To-Point
 * Synchronization Routines): wait_until and test on one variable, and the
 * _all/_any/_some forms (with their _vector forms) on arrays of them.  The
 * waiting itself is src/wait/wait.c; this file gives it a comparison per
 * type.
 */
#define SHMPI_DEFINES_p2p SHMPI_HERE /* weak shmem_ names of this chapter here */
#include "amo.h"
#include "device_heap.h"
#include "stream.h"

#include <string.h>

/* The awaited variables must not be in the device heap (a range compare),
 * and under SHMEM_DEBUG they must be symmetric (the spec requires remotely
 * accessible objects). */
static void check_ivars(const char *routine, const void *ivars, size_t nelems, size_t size)
{
    shmpi_device_check_host(routine, ivars, "variable"); /* never loaded by the host */
    if (SHMPI_UNLIKELY(shmpi_g.env.debug) && nelems > 0) {
        size_t bytes = shmpi_bytes(routine, nelems, size);
        if (shmpi_symm_segment(ivars, bytes) < 0)
            shmpi_symm_fail(routine, ivars, bytes, shmpi_g.my_pe);
    }
}

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
    /* A variable in device memory: fetched through the driver at each look. */           \
    static bool device_done_##N(const void *state)                                            \
    {                                                                                         \
        const struct wait_##N *w = state;                                                     \
        T now;                                                                                \
        shmpi_device_word_read("shmem_" #N "_wait_until", &now, (const void *)w->ivar,        \
                               sizeof now, shmpi_g.my_pe);                                    \
        return compare_##N(&now, w->cmp, w->value);                                           \
    }                                                                                         \
    static void wait_until_##N(const char *routine, T *ivar, int cmp, T cmp_value)           \
    {                                                                                         \
        shmpi_check_ready(routine);                                                           \
        shmpi_check_cmp(routine, cmp);                                                        \
        struct wait_##N w = {ivar, cmp, cmp_value};                                           \
        if (shmpi_device_word(ivar, sizeof(T))) {                                             \
            shmpi_wait_until(routine, ivar, NULL, device_done_##N, &w);                       \
            return;                                                                           \
        }                                                                                     \
        check_ivars(routine, ivar, 1, sizeof(T));                                             \
        struct shmpi_wait_cmp what = {cmp, sizeof(T), !((T)-1 > (T)0), 0};                    \
        memcpy(&what.value, &cmp_value, sizeof(T)); /* the bits, for the status page */       \
        shmpi_wait_until(routine, ivar, &what, wait_done_##N, &w);                            \
    }                                                                                         \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value)                                \
    {                                                                                         \
        wait_until_##N(__func__, ivar, cmp, cmp_value);                                       \
    }                                                                                         \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value)                                       \
    {                                                                                         \
        shmpi_check_ready(__func__);                                                          \
        shmpi_check_cmp(__func__, cmp);                                                       \
        if (shmpi_device_word(ivar, sizeof(T))) {                                             \
            struct wait_##N w = {ivar, cmp, cmp_value};                                       \
            return device_done_##N(&w);                                                       \
        }                                                                                     \
        check_ivars(__func__, ivar, 1, sizeof(T));                                            \
        if (compare_##N(ivar, cmp, cmp_value))                                                \
            return 1;                                                                         \
        shmpi_progress(); /* so that repeated tests see remote updates arrive */              \
        return compare_##N(ivar, cmp, cmp_value);                                             \
    }
SHMPI_P2P_TYPES(DEFINE_P2P_COMPARE)
SHMPI_P2P_DEPRECATED_TYPES(DEFINE_P2P_COMPARE)

/* Arrays: element i is compared with values[i] (the _vector forms) or with
 * the one value. */
#define DEFINE_P2P_MULTI(N, T)                                                                \
    struct multi_##N {                                                                        \
        const volatile T *ivars;                                                              \
        int cmp;                                                                              \
        const T *values;                                                                      \
        T value;                                                                              \
    };                                                                                        \
    static bool multi_ready_##N(const void *state, size_t i)                                  \
    {                                                                                         \
        const struct multi_##N *m = state;                                                    \
        return compare_##N(&m->ivars[i], m->cmp, m->values ? m->values[i] : m->value);        \
    }                                                                                         \
    static size_t multi_##N(const char *routine, enum shmpi_wait_kind kind, bool block,       \
                            T *ivars, size_t nelems, size_t *indices, const int *status,      \
                            int cmp, const T *values, T value)                                \
    {                                                                                         \
        shmpi_check_ready(routine);                                                           \
        shmpi_check_cmp(routine, cmp);                                                        \
        check_ivars(routine, ivars, nelems, sizeof(T));                                       \
        struct multi_##N m = {ivars, cmp, values, value};                                     \
        return shmpi_wait_multi(routine, ivars, kind, block, nelems, status, indices,         \
                                multi_ready_##N, &m);                                         \
    }                                                                                         \
    void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp,      \
                                    T cmp_value)                                              \
    {                                                                                         \
        multi_##N(__func__, SHMPI_WAIT_ALL, true, ivars, nelems, NULL, status, cmp, NULL,     \
                  cmp_value);                                                                 \
    }                                                                                         \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp,    \
                                      T cmp_value)                                            \
    {                                                                                         \
        return multi_##N(__func__, SHMPI_WAIT_ANY, true, ivars, nelems, NULL, status, cmp,    \
                         NULL, cmp_value);                                                    \
    }                                                                                         \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices,              \
                                       const int *status, int cmp, T cmp_value)               \
    {                                                                                         \
        return multi_##N(__func__, SHMPI_WAIT_SOME, true, ivars, nelems, indices, status,     \
                         cmp, NULL, cmp_value);                                               \
    }                                                                                         \
    void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status,        \
                                           int cmp, const T *cmp_values)                            \
    {                                                                                         \
        multi_##N(__func__, SHMPI_WAIT_ALL, true, ivars, nelems, NULL, status, cmp,           \
                  cmp_values, 0);                                                             \
    }                                                                                         \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status,      \
                                             int cmp, const T *cmp_values)                          \
    {                                                                                         \
        return multi_##N(__func__, SHMPI_WAIT_ANY, true, ivars, nelems, NULL, status, cmp,    \
                         cmp_values, 0);                                                      \
    }                                                                                         \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices,       \
                                              const int *status, int cmp, const T *cmp_values)      \
    {                                                                                         \
        return multi_##N(__func__, SHMPI_WAIT_SOME, true, ivars, nelems, indices, status,     \
                         cmp, cmp_values, 0);                                                 \
    }                                                                                         \
    int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp,             \
                             T cmp_value)                                                     \
    {                                                                                         \
        return (int)multi_##N(__func__, SHMPI_WAIT_ALL, false, ivars, nelems, NULL, status,   \
                              cmp, NULL, cmp_value);                                          \
    }                                                                                         \
    size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp,          \
                                T cmp_value)                                                  \
    {                                                                                         \
        return multi_##N(__func__, SHMPI_WAIT_ANY, false, ivars, nelems, NULL, status, cmp,   \
                         NULL, cmp_value);                                                    \
    }                                                                                         \
    size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, const int *status, \
                                 int cmp, T cmp_value)                                        \
    {                                                                                         \
        return multi_##N(__func__, SHMPI_WAIT_SOME, false, ivars, nelems, indices, status,    \
                         cmp, NULL, cmp_value);                                               \
    }                                                                                         \
    int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp,      \
                                    const T *cmp_values)                                            \
    {                                                                                         \
        return (int)multi_##N(__func__, SHMPI_WAIT_ALL, false, ivars, nelems, NULL, status,   \
                              cmp, cmp_values, 0);                                            \
    }                                                                                         \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp,   \
                                       const T *cmp_values)                                         \
    {                                                                                         \
        return multi_##N(__func__, SHMPI_WAIT_ANY, false, ivars, nelems, NULL, status, cmp,   \
                         cmp_values, 0);                                                      \
    }                                                                                         \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices,             \
                                        const int *status, int cmp, const T *cmp_values)            \
    {                                                                                         \
        return multi_##N(__func__, SHMPI_WAIT_SOME, false, ivars, nelems, indices, status,    \
                         cmp, cmp_values, 0);                                                 \
    }
SHMPI_P2P_TYPES(DEFINE_P2P_MULTI)
SHMPI_P2P_DEPRECATED_TYPES(DEFINE_P2P_MULTI)

/* Deprecated forms: wait_until on a long, and wait = wait_until(NE). */
void(shmem_wait_until)(long *ivar, int cmp, long cmp_value)
{
    wait_until_long("shmem_wait_until", ivar, cmp, cmp_value);
}

#define DEFINE_WAIT_DEPRECATED(N, T)                                                          \
    void shmem_##N##_wait(T *ivar, T cmp_value)                                               \
    {                                                                                         \
        wait_until_##N(__func__, ivar, SHMEM_CMP_NE, cmp_value);                              \
    }
SHMPI_WAIT_DEPRECATED_TYPES(DEFINE_WAIT_DEPRECATED)

void shmem_wait(long *ivar, long cmp_value)
{
    wait_until_long(__func__, ivar, SHMEM_CMP_NE, cmp_value);
}
