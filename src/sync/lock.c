/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Distributed locks: a ticket lock in the symmetric long on PE 0. Its low 32 bits count the
 * tickets served, its high 32 bits the tickets taken; a PE takes a ticket with one atomic add
 * and waits until it is served, so PEs are served in arrival order and none starves. A waiter
 * sleeps on the served half itself (a shared futex), and the PE that releases wakes sleepers
 * when a ticket is still waiting. A clear first completes the PE's puts (as shmem_quiet), so
 * the next holder sees the data written under the lock.
 */
#include <limits.h>

#include "core/state.h"

typedef struct ticket {
    _Atomic uint32_t *served;
    _Atomic uint32_t *taken;
    uint32_t mine;
} ticket_t;

static uint32_t *lock_words(const char *call, long *lock)
{
    if ((uintptr_t)lock & (sizeof(long) - 1))
        symm_fatal("%s(lock=%p): lock is not aligned to a long", call, (void *)lock);
    return (uint32_t *)symm_xlate_checked(call, lock, sizeof(long), 0);
}

static int served(const void *arg)
{
    const ticket_t *t = arg;

    return atomic_load_explicit(t->served, memory_order_acquire) == t->mine;
}

SYMM_EXPORT void shmem_set_lock(long *lock)
{
    uint32_t *w = lock_words("shmem_set_lock", lock);
    ticket_t t = {(_Atomic uint32_t *)&w[0], (_Atomic uint32_t *)&w[1], 0};
    uint32_t now;

    t.mine = atomic_fetch_add_explicit(t.taken, 1, memory_order_seq_cst);
    for (int spins = 0; !served(&t); spins++) {
        if (spins < 256) {
            symm_cpu_relax();
            continue;
        }
        now = atomic_load_explicit(t.served, memory_order_acquire);
        if (now != t.mine)
            symm_wait_sleep(t.served, now);
    }
}

SYMM_EXPORT int shmem_test_lock(long *lock)
{
    uint32_t *w = lock_words("shmem_test_lock", lock);
    uint64_t *whole = (uint64_t *)w, cur = __atomic_load_n(whole, __ATOMIC_ACQUIRE);

    if ((uint32_t)cur != (uint32_t)(cur >> 32))
        return 1;
    return __atomic_compare_exchange_n(whole, &cur, cur + (1ULL << 32), 0, __ATOMIC_SEQ_CST,
                                       __ATOMIC_ACQUIRE)
               ? 0
               : 1;
}

SYMM_EXPORT void shmem_clear_lock(long *lock)
{
    uint32_t *w = lock_words("shmem_clear_lock", lock);
    uint32_t next;

    symm_full_fence();
    next = atomic_fetch_add_explicit((_Atomic uint32_t *)&w[0], 1, memory_order_seq_cst) + 1;
    if (atomic_load_explicit((_Atomic uint32_t *)&w[1], memory_order_seq_cst) != next)
        symm_futex_wake(&w[0]);
}
