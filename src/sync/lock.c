/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Distributed locks: a ticket lock in the symmetric long on PE 0. Its low 32 bits count the
 * tickets served, its high 32 bits the tickets taken; a PE takes a ticket with one atomic add
 * and waits until it is served, so PEs are served in arrival order and none starves. A waiter
 * spins briefly (with more PEs than CPUs it yields instead: the holder, or the PE whose ticket
 * comes next, may need its CPU), then sleeps on the served half itself (a shared futex), and
 * the PE that releases wakes sleepers when a ticket is still waiting. Spinning there let the
 * PEs that held their CPUs take the lock over and over while their CPU-mates waited for a CPU
 * with no ticket: 4 PEs on 2 CPUs, 334 against 99,356 acquisitions in 50 ms, where yielding
 * gives 2,048 against 2,335 (5.1 us an acquisition, Open MPI's OpenSHMEM 21 us). A clear first completes the PE's puts (as shmem_quiet), so
 * the next holder sees the data written under the lock. When PE 0 is on another node the same
 * words are reached by the network transport's atomics.
 */
#include <limits.h>
#include <sched.h>

#include "core/core.h"
#include "sync/sync.h"
#include "tl/tl.h"

typedef struct ticket {
    _Atomic uint32_t *served;
    _Atomic uint32_t *taken;
    uint32_t mine;
} ticket_t;

/* The lock's words on PE 0, or NULL when PE 0 is on another node, where *net is the whole
 * lock's place there. */
static uint32_t *lock_words(const char *call, long *lock, symm_tl_amo_t *net)
{
    if ((uintptr_t)lock & (sizeof(long) - 1))
        symm_fatal("%s(lock=%p): lock is not aligned to a long", call, (void *)lock);
    symm_check_init(call);
    if (symm_g.reach[0] == SYMM_REACH_NET)
        return symm_amo_target(call, lock, sizeof(long), 0, net);
    return (uint32_t *)symm_xlate_checked(call, lock, sizeof(long), 0);
}

/* An atomic on the lock over the network: on its low (served) or high (taken) half, or on the
 * whole (half < 0); waits for the old value. */
static uint64_t lock_amo(const char *call, const symm_tl_amo_t *lock, int half, symm_amo_op_t op,
                         uint64_t value, uint64_t cond)
{
    symm_tl_amo_t a = *lock;

    a.op = op;
    a.value = value;
    a.cond = cond;
    if (half >= 0) {
        a.off += (uint64_t)half * sizeof(uint32_t);
        a.size = sizeof(uint32_t);
    }
    return symm_amo_net(SHMEM_CTX_DEFAULT, call, &a, SYMM_TL_WAIT);
}

static int served(const void *arg)
{
    const ticket_t *t = arg;

    return atomic_load_explicit(t->served, memory_order_acquire) == t->mine;
}

/* Over the network: a ticket by one fetching add on the high half, then the served half read
 * until it comes (progressing this PE's own peers between reads, and yielding when the CPUs
 * are shared). */
static void set_lock_net(const char *call, const symm_tl_amo_t *lock)
{
    uint32_t mine = (uint32_t)lock_amo(call, lock, 1, SYMM_AMO_ADD, 1, 0);

    while ((uint32_t)lock_amo(call, lock, 0, SYMM_AMO_FETCH, 0, 0) != mine) {
        symm_net_progress();
        if (symm_g.oversubscribed)
            sched_yield();
    }
}

SYMM_EXPORT void shmem_set_lock(long *lock)
{
    symm_tl_amo_t net;
    uint32_t *w = lock_words("shmem_set_lock", lock, &net);
    ticket_t t;
    uint32_t now;

    if (!w) {
        set_lock_net("shmem_set_lock", &net);
        return;
    }
    t = (ticket_t){(_Atomic uint32_t *)&w[0], (_Atomic uint32_t *)&w[1], 0};
    t.mine = atomic_fetch_add_explicit(t.taken, 1, memory_order_seq_cst);
    for (int spins = 0; !served(&t); spins++) {
        if (symm_g.oversubscribed ? spins < symm_g.yields : spins < 256) {
            if (symm_g.oversubscribed)
                sched_yield();
            else
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
    symm_tl_amo_t net;
    uint32_t *w = lock_words("shmem_test_lock", lock, &net);
    uint64_t *whole = (uint64_t *)w, cur;

    if (!w) {
        cur = lock_amo("shmem_test_lock", &net, -1, SYMM_AMO_FETCH, 0, 0);
        if ((uint32_t)cur != (uint32_t)(cur >> 32))
            return 1;
        return lock_amo("shmem_test_lock", &net, -1, SYMM_AMO_CSWAP, cur + (1ULL << 32), cur) ==
                       cur
                   ? 0
                   : 1;
    }
    cur = __atomic_load_n(whole, __ATOMIC_ACQUIRE);
    if ((uint32_t)cur != (uint32_t)(cur >> 32))
        return 1;
    return __atomic_compare_exchange_n(whole, &cur, cur + (1ULL << 32), 0, __ATOMIC_SEQ_CST,
                                       __ATOMIC_ACQUIRE)
               ? 0
               : 1;
}

SYMM_EXPORT void shmem_clear_lock(long *lock)
{
    symm_tl_amo_t net;
    uint32_t *w = lock_words("shmem_clear_lock", lock, &net);
    uint32_t next;

    symm_full_fence();
    symm_net_quiet(SHMEM_CTX_DEFAULT);
    if (!w) {
        lock_amo("shmem_clear_lock", &net, 0, SYMM_AMO_ADD, 1, 0);
        return;
    }
    next = atomic_fetch_add_explicit((_Atomic uint32_t *)&w[0], 1, memory_order_seq_cst) + 1;
    if (atomic_load_explicit((_Atomic uint32_t *)&w[1], memory_order_seq_cst) != next)
        symm_futex_wake(&w[0]);
}
