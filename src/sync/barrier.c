/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Barrier of all PEs, two algorithms picked by load at start.
 *
 * Every PE on a CPU of its own: dissemination. In round k, PE i tells PE (i + 2^k) mod n that
 * it arrived and waits for the word from PE (i - 2^k) mod n: ceil(log2 n) rounds of one store
 * and one spin each, no shared counter to contend on. Each round's word is on a cache line of
 * its own and holds the epoch (the number of barriers so far), so a fast PE already in the
 * next barrier only moves the word further and never confuses a slow one.
 *
 * More PEs than CPUs: a central barrier. A waiting PE cannot spin (it would hold a CPU that a
 * late PE needs), and every wake-up costs a context switch, so each PE should wait once, not
 * log2 n times: PEs count themselves in on PE 0, the last one resets the count and publishes
 * the epoch, and waiters yield, then sleep on the release word itself, which the last PE wakes
 * with one system call for all of them.
 */
#include <sched.h>

#include "core/state.h"

static void dissemination(uint32_t epoch)
{
    int n = symm_g.n_pes, me = symm_g.my_pe;
    symm_internal_t *mine = symm_internal(me);

    for (int k = 0, d = 1; d < n; k++, d <<= 1) {
        int to = me + d >= n ? me + d - n : me + d;
        atomic_store_explicit(&symm_internal(to)->barrier[k].v, epoch, memory_order_seq_cst);
        symm_wake(to);
        symm_wait_reach(&mine->barrier[k].v, epoch);
    }
}

static void central(uint32_t epoch)
{
    symm_internal_t *root = symm_internal(0);
    uint32_t seen;

    if (atomic_fetch_add_explicit(&root->arrive.v, 1, memory_order_seq_cst) ==
        (uint32_t)symm_g.n_pes - 1) {
        atomic_store_explicit(&root->arrive.v, 0, memory_order_relaxed);
        atomic_store_explicit(&root->release.v, epoch, memory_order_seq_cst);
        if (atomic_load_explicit(&root->release_sleepers.v, memory_order_seq_cst))
            symm_futex_wake(&root->release.v);
        return;
    }
    for (int i = 0; i < symm_g.yields; i++) {
        if (atomic_load_explicit(&root->release.v, memory_order_acquire) == epoch)
            return;
        sched_yield();
    }
    for (;;) {
        atomic_fetch_add_explicit(&root->release_sleepers.v, 1, memory_order_seq_cst);
        seen = atomic_load_explicit(&root->release.v, memory_order_seq_cst);
        if (seen != epoch)
            symm_wait_sleep(&root->release.v, seen);
        atomic_fetch_sub_explicit(&root->release_sleepers.v, 1, memory_order_seq_cst);
        if (seen == epoch || atomic_load_explicit(&root->release.v, memory_order_acquire) == epoch)
            return;
    }
}

void symm_barrier_world(void)
{
    uint32_t epoch = ++symm_g.barrier_epoch;

    if (symm_g.n_pes == 1)
        atomic_thread_fence(memory_order_seq_cst);
    else if (symm_g.oversubscribed)
        central(epoch);
    else
        dissemination(epoch);
}
