/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * src/sync: barriers (barrier.c), waits (wait.c), point-to-point synchronisation: wait_until,
 * test and signals (p2p.c), and locks (lock.c). It builds on core (the state, the internal part
 * of the heaps, waking) and serves coll and api; it calls nothing above it. This header
 * declares what the folder defines for the folders above.
 */
#ifndef SYMM_SYNC_H
#define SYMM_SYNC_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

/* ---- Barriers (barrier.c) -------------------------------------------------------------- */
void symm_barrier_world(void);
/* Barrier of a team: with quiet (barrier) or without (sync) is the caller's business. */
void symm_team_barrier(symm_team_t *t);
/* Wakes the team's members on this node (but this PE) that may sleep waiting on w, a word of
 * this PE's that they read through the window. */
void symm_team_wake_node(symm_team_t *t, _Atomic uint32_t *w);

/* ---- Waits (wait.c) -------------------------------------------------------------------- */
/* Before the bootstrap: the card's CPUs. */
void symm_wait_card(symm_card_t *card);
void symm_wait_init(void);
/* Sleeps until word changes from `seen` or a bounded time passes. */
void symm_wait_sleep(_Atomic uint32_t *word, uint32_t seen);
/* Waits until ready(arg) is true: spins, yields, then sleeps on this PE's doorbell, watching
 * the len bytes at p (a window address; NULL: anything). */
void symm_wait_for(int (*ready)(const void *arg), const void *arg, const void *p, size_t len);
/* Waits until *w - target >= 0 (wrapping compare). */
void symm_wait_reach(_Atomic uint32_t *w, uint32_t target);
/* Word k (SYMM_MATE_CPU, SYMM_MATE_ARRIVED) of team member i: on the team's PE 0 for a team
 * of one node of at most SYMM_MATES members, else in the member's own slot (a team that spans
 * nodes may have its PE 0 outside the window's mapped part). */
static inline _Atomic uint32_t *symm_mate(const symm_team_t *t, int i, int k)
{
    symm_slot_t *s;

    if (!t->net && t->size <= SYMM_MATES)
        return &symm_slot(t, 0)->mate[k][i];
    s = symm_slot(t, i);
    return k == SYMM_MATE_CPU ? &s->cpu.v : &s->arrived.v;
}
/* With more PEs than CPUs: records the CPU this PE runs on now, which CPU-mates waiting in a
 * barrier or a collective of t read; returns it. */
static inline uint32_t symm_mate_note_cpu(const symm_team_t *t)
{
    uint32_t cpu = (uint32_t)sched_getcpu();
    _Atomic uint32_t *w = symm_mate(t, t->me, SYMM_MATE_CPU);

    if (atomic_load_explicit(w, memory_order_relaxed) != cpu)
        atomic_store_explicit(w, cpu, memory_order_relaxed);
    return cpu;
}
/* CPUs the job's PEs share (sync/wait.c). */
long symm_job_cpus(void);
/* With more PEs than CPUs, symmrun binds consecutive PEs to one CPU in blocks as even as they
 * can be (PE r of n on CPU r * cpus / n). The same blocks of a team of n members: how many
 * (one per CPU, at most n), the block of member i, and the first member of block k. */
static inline int symm_cpu_blocks(int n)
{
    long cpus = symm_job_cpus();

    return cpus < n ? (int)cpus : n;
}
static inline int symm_cpu_block(int i, int n, int blocks)
{
    return (int)((long)i * blocks / n);
}
static inline int symm_cpu_block_first(int k, int n, int blocks)
{
    return (int)(((long)k * n + blocks - 1) / blocks);
}
/* symm_wait_reach for a word that a PE on this CPU will write: yields at once (sync/wait.c). */
void symm_wait_reach_yielding(_Atomic uint32_t *w, uint32_t target);
/* symm_wait_reach for a word that PEs busy on a call's data will write: spins (with PEs sharing
 * CPUs: yields, at once when the writer is `beside` on this CPU) longer before it sleeps,
 * unless SYMM_SPIN_US sets every spin (sync/wait.c). */
void symm_wait_reach_busy(_Atomic uint32_t *w, uint32_t target, int beside);
/* With more PEs than CPUs, the first phase of a wait for ready(arg) beside CPU-mates: spins
 * (at most `spins` pauses in all) while idle(arg) says that no CPU-mate needs this CPU (each
 * waits as well, for a PE on another CPU), else yields, where a spin would hold the CPU from a
 * mate that has work and a yield to a mate that only waits would cost a context switch for
 * nothing. 1 when ready, 0 when its yields ran out and the caller should sleep. */
/* Pauses in all that such a wait spins for at most before it yields only. */
#define SYMM_BESIDE_SPINS 2048
static inline int symm_wait_beside(int (*ready)(const void *arg), int (*idle)(const void *arg),
                                   const void *arg, int spins)
{
    for (int i = 0; i < symm_g.yields;) {
        if (ready(arg))
            return 1;
        if (spins > 0 && idle(arg)) {
            for (int k = 0; k < 16; k++, spins--) {
                if (ready(arg))
                    return 1;
                symm_cpu_relax();
            }
            continue;
        }
        sched_yield();
        i++;
    }
    return 0;
}
/* Whether every other member of t last seen on CPU `cpu` has reached epoch: in its `posted`
 * word (posted: 1) or at a barrier (0). The idle test of a wait beside CPU-mates. */
static inline int symm_mates_reached(const symm_team_t *t, uint32_t cpu, int posted,
                                     uint32_t epoch)
{
    for (int i = 0; i < t->size; i++) {
        _Atomic uint32_t *w;
        if (i == t->me ||
            atomic_load_explicit(symm_mate(t, i, SYMM_MATE_CPU), memory_order_relaxed) != cpu)
            continue;
        w = posted ? &symm_slot(t, i)->posted.v : symm_mate(t, i, SYMM_MATE_ARRIVED);
        if ((int32_t)(atomic_load_explicit(w, memory_order_relaxed) - epoch) < 0)
            return 0;
    }
    return 1;
}
/* symm_wait_reach for a word that a PE of this node writes: across nodes it sleeps after its
 * yields instead of polling the network on (sync/wait.c). */
void symm_wait_reach_local(_Atomic uint32_t *w, uint32_t target);

#endif
