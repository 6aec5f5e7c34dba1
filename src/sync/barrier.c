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
 * slow one. A signal is a release store (one full fence before the first makes earlier
 * stores, streaming ones included, visible first). Its wake check needs a full fence after
 * it, which would wait for the signal's cache line to arrive; so the PE first spins briefly
 * for its partner's word, which usually comes meanwhile, and fences and checks after that,
 * before it could ever sleep.
 *
 * More PEs than CPUs: a central barrier. A waiting PE cannot spin (it would hold a CPU that a
 * late PE needs), and every wake-up costs a context switch, so each PE should wait once, not
 * log2 n times: PEs count themselves in (by groups of CPU-mates, then on the team's PE 0), the
 * last one publishes the epoch, and waiters yield, then sleep on the release word itself, which the
 * last PE wakes with one system call for all of them. Every PE records the CPU it runs on and
 * the barrier it arrived at, and a waiter whose CPU-mates have all arrived spins a while before
 * it yields: the PEs still missing run elsewhere, and yielding would only pass the CPU back and
 * forth between waiters, each pass a context switch. So each CPU switches once per barrier, from
 * the PE that arrived first to the last (4 PEs on 2 CPUs: 0.5 switches per PE and barrier, 8.1
 * to 5.9 us a barrier, where yielding at once made 0.77). The exception: a PE that, after the
 * last barrier, entered a broadcast whose root shares its CPU expects the same after this one,
 * and yields at once, so that the root has the CPU when the release comes.
 */
#include <sched.h>

#include "sync/sync.h"
#include "core/core.h"

/* A round's first wait spins this often (no pause) on the partner's word before the wake check:
 * long enough for a partner that arrives at about the same time. */
#define ROUND_SPINS 256

static int round_reached(_Atomic uint32_t *w, uint32_t epoch)
{
    for (int i = 0; i < ROUND_SPINS; i++)
        if ((int32_t)(atomic_load_explicit(w, memory_order_acquire) - epoch) >= 0)
            return 1;
    return 0;
}

static void dissemination(symm_team_t *t, uint32_t epoch)
{
    int n = t->size, me = t->me;
    symm_slot_t *mine = symm_slot(t, me);

    /* Every store before the barrier, streaming ones included, is visible before its first
     * signal. */
    symm_full_fence();
    for (int k = 0, d = 1; d < n; k++, d <<= 1) {
        int to = me + d >= n ? me + d - n : me + d;
        _Atomic uint32_t *w = &symm_slot(t, to)->bar[k].v;
        int arrived;
        atomic_store_explicit(w, epoch, memory_order_release);
        arrived = round_reached(&mine->bar[k].v, epoch);
        symm_full_fence();
        symm_wake(symm_team_pe(t, to), w, sizeof(*w));
        if (!arrived)
            symm_wait_reach(&mine->bar[k].v, epoch);
    }
}

/* Epochs only grow (a slot handed to a new team continues above its old values), so a late
 * waiter of an old team is never confused by what a new team writes. */
static int released(symm_slot_t *root, uint32_t epoch)
{
    return (int32_t)(atomic_load_explicit(&root->release.v, memory_order_acquire) - epoch) >= 0;
}

typedef struct meeting {
    symm_team_t *t;
    symm_slot_t *root;
    uint32_t epoch, cpu;
} meeting_t;

static int meeting_released(const void *arg)
{
    const meeting_t *m = arg;

    return released(m->root, m->epoch);
}

/* Whether every other member last seen on this PE's CPU has arrived at the barrier: none of
 * those needs the CPU, so the wait for the release spins instead of yielding. */
static int mates_arrived(const void *arg)
{
    const meeting_t *m = arg;

    return symm_mates_reached(m->t, m->cpu, 0, m->epoch);
}

/* Counts this PE in; 1 when it arrived last. The members count themselves in by CPU blocks,
 * those symmrun binds to one CPU (coll.h): on the block's first member, and the last of a
 * block counts the block in on the team's PE 0. So one arrival per block, not every one, takes
 * the counter's cache line from another CPU (4 PEs on 2 CPUs: a barrier 1050 to 970 ns). Each
 * last one resets its counter before the count it joins next, which the release follows. */
static int count_in(symm_team_t *t, symm_slot_t *root)
{
    int n = t->size, groups = symm_cpu_blocks(n), k = symm_cpu_block(t->me, n, groups);
    int first = symm_cpu_block_first(k, n, groups);
    int in_group = symm_cpu_block_first(k + 1, n, groups) - first;
    _Atomic uint32_t *g = &symm_slot(t, first)->garrive.v;

    if (in_group > 1) {
        if (atomic_fetch_add_explicit(g, 1, memory_order_seq_cst) != (uint32_t)in_group - 1)
            return 0;
        atomic_store_explicit(g, 0, memory_order_relaxed);
    }
    if (atomic_fetch_add_explicit(&root->arrive.v, 1, memory_order_seq_cst) !=
        (uint32_t)groups - 1)
        return 0;
    atomic_store_explicit(&root->arrive.v, 0, memory_order_relaxed);
    return 1;
}

static void central(symm_team_t *t, uint32_t epoch)
{
    symm_slot_t *root = symm_slot(t, 0);
    uint32_t seen;
    meeting_t m = {t, root, epoch, symm_mate_note_cpu(t)};

    atomic_store_explicit(symm_mate(t, t->me, SYMM_MATE_ARRIVED), epoch, memory_order_relaxed);
    if (count_in(t, root)) {
        atomic_store_explicit(&root->release.v, epoch, memory_order_seq_cst);
        if (atomic_load_explicit(&root->release_sleepers.v, memory_order_seq_cst))
            symm_futex_wake(&root->release.v);
        return;
    }
    /* The last barrier was followed by a broadcast whose root shares this PE's CPU; so likely is
     * this one, and this PE will wait for the root after the release. It gives the CPU up now
     * rather than spin for the release and yield after it: the root's CPU then makes the two
     * switches a call needs while the other CPUs still arrive, not one of them after the
     * release (4 PEs on 2 CPUs, a broadcast of 8 B and a barrier: 1.72 to 1.50 us). */
    if (t->mate_root_bar == epoch - 1 && !released(root, epoch))
        sched_yield();
    if (symm_wait_beside(meeting_released, mates_arrived, &m, SYMM_BESIDE_SPINS))
        return;
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

/* ---- Teams that span nodes ------------------------------------------------------------------
 * The members of each node count themselves in on the node's first member of the team (its
 * leader, through the window), the leaders run the dissemination rounds among themselves over
 * the network (a 4-byte put of the epoch into the partner's round word), and each leader then
 * releases its node. One network round trip per round among leaders only, instead of rounds
 * among all members. The waits inside a node sleep after their yields rather than polling
 * the network on: with more PEs than CPUs the leader needs the CPU they would hold. */
static void signal_word(symm_team_t *t, int idx, _Atomic uint32_t *mine, uint32_t epoch)
{
    int pe = symm_team_pe(t, idx);

    if (symm_g.reach[pe] == SYMM_REACH_NET) {
        symm_peer_flag(mine, epoch, pe);
        return;
    }
    _Atomic uint32_t *w = (_Atomic uint32_t *)((char *)mine - symm_g.heap_base +
                                               symm_g.heap_win + (size_t)pe * symm_g.stride);
    atomic_store_explicit(w, epoch, memory_order_seq_cst);
    symm_wake(pe, w, sizeof(*w));
}

static void spanning(symm_team_t *t, uint32_t epoch)
{
    symm_slot_t *lead = symm_slot(t, t->lead), *mine = symm_slot(t, t->me);
    int g = t->nlead, j = t->lead_idx;

    symm_full_fence();
    if (t->me != t->lead) {
        atomic_fetch_add_explicit(&lead->arrive.v, 1, memory_order_seq_cst);
        symm_wake(symm_team_pe(t, t->lead), &lead->arrive.v, sizeof(uint32_t));
        symm_wait_reach_local(&lead->release.v, epoch);
        return;
    }
    if (t->local > 1) {
        symm_wait_reach_local(&lead->arrive.v, (uint32_t)t->local - 1);
        atomic_store_explicit(&lead->arrive.v, 0, memory_order_relaxed);
    }
    for (int k = 0, d = 1; d < g; k++, d <<= 1) {
        int to = t->leaders[j + d >= g ? j + d - g : j + d];
        signal_word(t, to, &mine->bar[k].v, epoch);
        symm_wait_reach(&mine->bar[k].v, epoch);
    }
    atomic_store_explicit(&lead->release.v, epoch, memory_order_seq_cst);
    symm_team_wake_node(t, &lead->release.v);
}

void symm_team_wake_node(symm_team_t *t, _Atomic uint32_t *w)
{
    for (int i = 0; i < t->size; i++) {
        int pe = symm_team_pe(t, i);
        if (i != t->me && symm_g.reach[pe] == SYMM_REACH_WINDOW)
            symm_wake(pe, w, sizeof(*w));
    }
}

void symm_team_barrier(symm_team_t *t)
{
    uint32_t epoch = ++t->bar_epoch;

    t->unsynced = 0; /* every member has taken the broadcasts before it (coll/span.c) */

    if ((int32_t)(epoch - symm_g.epoch_hwm) > 0)
        symm_g.epoch_hwm = epoch;

    if (t->size == 1)
        symm_full_fence();
    else if (t->net)
        spanning(t, epoch);
    else if (symm_g.oversubscribed)
        central(t, epoch);
    else
        dissemination(t, epoch);
}


void symm_barrier_world(void)
{
    symm_team_barrier(&symm_team_world);
}
