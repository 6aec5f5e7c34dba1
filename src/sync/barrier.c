/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Team barriers, two algorithms picked by load at start.
 *
 * Every PE on a CPU of its own: dissemination. In round k, team PE i tells team PE
 * (i + 2^k) mod n that it arrived and waits for the word from (i - 2^k) mod n: ceil(log2 n)
 * rounds of one store and one spin each, no shared counter to contend on. Each round's word
 * is on a cache line of its own and holds the epoch (the team's number of barriers so far),
 * so a fast PE already in the next barrier only moves the word further and never confuses a
 * slow one.
 *
 * More PEs than CPUs: a central barrier. A waiting PE cannot spin (it would hold a CPU that a
 * late PE needs), and every wake-up costs a context switch, so each PE should wait once, not
 * log2 n times: PEs count themselves in on the team's PE 0, the last one resets the count and
 * publishes the epoch, and waiters yield, then sleep on the release word itself, which the
 * last PE wakes with one system call for all of them.
 */
#include <sched.h>

#include "core/state.h"

static void dissemination(symm_team_t *t, uint32_t epoch)
{
    int n = t->size, me = t->me;
    symm_slot_t *mine = symm_slot(t, me);

    for (int k = 0, d = 1; d < n; k++, d <<= 1) {
        int to = me + d >= n ? me + d - n : me + d;
        _Atomic uint32_t *w = &symm_slot(t, to)->bar[k].v;
        atomic_store_explicit(w, epoch, memory_order_seq_cst);
        symm_wake(symm_team_pe(t, to), w, sizeof(*w));
        symm_wait_reach(&mine->bar[k].v, epoch);
    }
}

/* Epochs only grow (a slot handed to a new team continues above its old values), so a late
 * waiter of an old team is never confused by what a new team writes. */
static int released(symm_slot_t *root, uint32_t epoch)
{
    return (int32_t)(atomic_load_explicit(&root->release.v, memory_order_acquire) - epoch) >= 0;
}

static void central(symm_team_t *t, uint32_t epoch)
{
    symm_slot_t *root = symm_slot(t, 0);
    uint32_t seen;

    if (atomic_fetch_add_explicit(&root->arrive.v, 1, memory_order_seq_cst) ==
        (uint32_t)t->size - 1) {
        atomic_store_explicit(&root->arrive.v, 0, memory_order_relaxed);
        atomic_store_explicit(&root->release.v, epoch, memory_order_seq_cst);
        if (atomic_load_explicit(&root->release_sleepers.v, memory_order_seq_cst))
            symm_futex_wake(&root->release.v);
        return;
    }
    for (int i = 0; i < symm_g.yields; i++) {
        if (released(root, epoch))
            return;
        sched_yield();
    }
    for (;;) {
        atomic_fetch_add_explicit(&root->release_sleepers.v, 1, memory_order_seq_cst);
        seen = atomic_load_explicit(&root->release.v, memory_order_seq_cst);
        if ((int32_t)(seen - epoch) < 0)
            symm_wait_sleep(&root->release.v, seen);
        atomic_fetch_sub_explicit(&root->release_sleepers.v, 1, memory_order_seq_cst);
        if (released(root, epoch))
            return;
    }
}

void symm_team_barrier(symm_team_t *t)
{
    uint32_t epoch = ++t->bar_epoch;

    if ((int32_t)(epoch - symm_g.epoch_hwm) > 0)
        symm_g.epoch_hwm = epoch;

    if (t->size == 1)
        symm_full_fence();
    else if (symm_g.oversubscribed)
        central(t, epoch);
    else
        dissemination(t, epoch);
}

void symm_barrier_world(void)
{
    symm_team_barrier(&symm_team_world);
}
