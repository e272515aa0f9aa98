/*
 * lock.c - distributed locks (spec: Distributed Locking Routines).
 *
 * A lock is the symmetric long `lock` on PE 0; its copies on the other PEs
 * are never touched, nor anything beyond that long.  The word is a ticket
 * lock, which serves PEs in the order they asked (no starvation):
 *
 *     high 32 bits: the next ticket to hand out
 *     low 32 bits:  the ticket now being served
 *
 * so 0, the spec's initial value, is a free lock.  Every update is an AMO
 * on the whole 64-bit word (src/ops/amo.c keeps them atomic):
 *   set_lock:   my ticket = high half of fetch_add(word, 1 << 32); then wait
 *               until the low half equals it, looking less often the more
 *               PEs are ahead;
 *   test_lock:  if the halves are equal (free, no one waiting),
 *               compare_swap(old, old + (1 << 32)) takes the next ticket;
 *   clear_lock: quiet, then low half + 1 by compare_swap, so that a low
 *               half wrapping from 2^32-1 to 0 does not carry into the high
 *               half.
 * Both halves count modulo 2^32 (a high half wrapping drops its carry out
 * of the word) and are only compared for equality, so wraparound is
 * harmless while fewer than 2^32 PEs wait.
 */
#define SHMPI_DEFINES_lock SHMPI_HERE /* weak shmem_ names of this chapter here */
#include "amo.h"
#include "status.h"

_Static_assert(sizeof(long) == 8, "the lock word packs two 32-bit halves into a long");

#define TICKET ((uint64_t)1 << 32)
#define HIGH(w) ((uint32_t)((w) >> 32))
#define LOW(w) ((uint32_t)(w))
#define LOCK_PE 0

static uint64_t lock_amo(const char *routine, enum shmpi_amo_op op, long *lock,
                         uint64_t operand, uint64_t compare)
{
    uint64_t old;
    shmpi_amo(routine, SHMEM_CTX_DEFAULT, op, SHMPI_AMO_UINT64, lock, &operand, &compare, &old,
              LOCK_PE);
    return old;
}

void shmem_set_lock(long *lock)
{
    shmpi_check_ready(__func__);
    shmpi_mpi_wait_routine = __func__; /* its AMOs' waits, where they go through MPI */
    uint32_t ticket = HIGH(lock_amo(__func__, SHMPI_AMO_ADD, lock, TICKET, 0));
    SHMPI_WAITER(waiter) = {.waits_in = SHMPI_WAITS_ON_LOCK, .routine = __func__, .addr = lock};
    for (;;) {
        uint32_t ahead = ticket - LOW(lock_amo(__func__, SHMPI_AMO_FETCH, lock, 0, 0));
        if (ahead == 0)
            break;
        /* Look again after about as many turns as PEs are ahead: fewer
         * remote reads compete with the holder's operations on PE 0. */
        for (uint32_t k = 0; k < ahead && k < 64; k++)
            shmpi_backoff(&waiter);
    }
    shmpi_mpi_wait_routine = NULL;
    shmpi_status_lock(lock, true); /* shmpi_info --waits names the holder */
    /* What the previous holder stored is visible to this one. */
    atomic_thread_fence(memory_order_acquire);
}

/* Failed test_lock calls in a row by this thread: callers retry in a
 * loop, so each failure is one turn of a waiting loop (shmpi_backoff). */
static _Thread_local struct shmpi_waiter test_failures;

int shmem_test_lock(long *lock)
{
    shmpi_check_ready(__func__);
    uint64_t old = lock_amo(__func__, SHMPI_AMO_FETCH, lock, 0, 0);
    if (HIGH(old) == LOW(old) &&
        lock_amo(__func__, SHMPI_AMO_CSWAP, lock, old + TICKET, old) == old) {
        test_failures = (struct shmpi_waiter){0};
        shmpi_status_lock(lock, true);
        atomic_thread_fence(memory_order_acquire);
        return 0;
    }
    shmpi_backoff(&test_failures);
    return 1;
}

void shmem_clear_lock(long *lock)
{
    shmpi_check_ready(__func__);
    /* Stores of the critical section are complete before the release. */
    shmpi_quiet_all();
    shmpi_status_lock(lock, false);
    uint64_t old = lock_amo(__func__, SHMPI_AMO_FETCH, lock, 0, 0);
    SHMPI_WAITER(waiter) = {.waits_in = SHMPI_WAITS_ON_LOCK, .routine = __func__, .addr = lock};
    for (;;) {
        uint64_t next = (old & ~(TICKET - 1)) | (uint32_t)(LOW(old) + 1);
        uint64_t seen = lock_amo(__func__, SHMPI_AMO_CSWAP, lock, next, old);
        if (seen == old)
            return;
        old = seen; /* a PE took a ticket meanwhile */
        shmpi_backoff(&waiter);
    }
}
