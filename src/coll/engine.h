/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The engine of a team collective call (coll.c, which says how a call synchronises: epochs,
 * posts, cells and scratch buffers), shared by the collectives built on it: move.c
 * (broadcast, fcollect, alltoall, collect, alltoalls) and reduce.c (reductions and scans).
 * The steps every member takes once per member of a call are inline here; the rest are in
 * coll.c.
 */
#ifndef SYMM_COLL_ENGINE_H
#define SYMM_COLL_ENGINE_H

#include <string.h>

#include "coll/coll.h"
#include "coll/gpu_coll.h"

/* What a call is, for the comparison of arguments under SHMEM_DEBUG (the reductions use a
 * hash of their name, the library's own agreement steps 7 and 8). */
enum { OP_BCAST = 1, OP_FCOLLECT, OP_COLLECT, OP_ALLTOALL, OP_ALLTOALLS, OP_SCAN };

/* One call of this PE. */
typedef struct coll {
    symm_team_t *t;
    const char *call;
    uint32_t e; /* the call's epoch */
    int par;    /* e & 1: which args and scratch buffer the call uses */
    int cpu;    /* with more PEs than CPUs: the CPU this PE runs on */
} coll_t;

/* The least epoch every member of the team in slot s is known to have posted (this PE's copy;
 * a new team on the slot starts it at its base epoch). */
extern uint32_t symm_coll_posted_seen[SYMM_TEAM_SLOTS];

/* ---- coll.c ---- */
/* Starts a call: takes the team's next epoch and records this PE's arguments (under
 * SHMEM_DEBUG compared with every member's before anything else). */
void symm_coll_begin(coll_t *c, shmem_team_t team, const char *call, uint64_t op,
                     uint64_t nelems, int64_t root, uint64_t count);
/* A call of no data: takes its epoch and posts it; reads no address. */
void symm_coll_no_data(shmem_team_t team, const char *call, uint64_t op, int64_t root);
/* Publishes this PE's part of a gather, reduction or broadcast of small parts (up to
 * SYMM_SCRATCH), in its cell or in its scratch buffer, with release stores only. The wake
 * checks follow: the call meets in a barrier next (posts_then_meets), which is its fence, or
 * it reads what it needs of the others first and then calls symm_coll_wake_later, whose fence
 * finds this PE's stores long drained instead of stalling on them before the reads (every
 * member posts before it waits for anyone, so no member waits on a wake deferred behind its
 * own). */
void symm_coll_publish(const coll_t *c, const void *part, size_t nb);
/* The deferred fence and wake checks of a publish of nb bytes (or of a post_later when nb is
 * 0: the `posted` word alone). */
void symm_coll_wake_later(const coll_t *c, size_t nb);
/* The wake checks of a broadcast's root after it published its part of nb bytes: without the
 * fence, as a put's (a member that goes to sleep just as the part is published may miss it and
 * sleep its bounded time), since nothing else waits on that fence: with PEs sharing CPUs it
 * cost the root's CPU, whose two switches a broadcast and a barrier wait on, about 50 ns a
 * call (4 PEs on 2 CPUs, 1.5 M calls: 1553 to 1502 ns a broadcast and a barrier). */
void symm_coll_wake_hint(const coll_t *c, size_t nb);
/* Teams of two PEs, each with a CPU of its own, exchange parts of a cell by pushing them: each
 * writes its part into the other's cell of the epoch and waits for the other's in its own, so
 * one line crosses each way, where publishing in its own cell makes each read the other's
 * line after writing its own. symm_coll_pair_exchange returns the other's part (in this PE's
 * cell, valid until the team's next call); symm_coll_pair_done, after the reads, does the
 * deferred fence and wake checks. */
static inline int symm_coll_pair(const coll_t *c, size_t nb)
{
    return c->t->size == 2 && nb <= SYMM_CELL_BYTES && !symm_g.oversubscribed;
}
const char *symm_coll_pair_exchange(const coll_t *c, const void *part, size_t nb);
void symm_coll_pair_done(const coll_t *c);
/* With more PEs than CPUs: waits until w reaches the call's epoch, written by a member on
 * another CPU: spins about a context switch's time first, then spins while every CPU-mate has
 * posted the call and yields while one has not (a mate that has not posted needs this CPU to
 * get on). */
void symm_coll_wait_beside(const coll_t *c, _Atomic uint32_t *w);
/* Ends a large-data call: nobody reads this PE's buffers after it returns. */
void symm_coll_finish(const coll_t *c);
/* Fatal when [dest, dest + dlen) and [source, source + slen) overlap. */
void symm_coll_check_disjoint(const char *call, const void *dest, size_t dlen,
                              const void *source, size_t slen);

/* ---- Each member's steps ---- */
static inline symm_slot_t *slot_of(const coll_t *c, int i)
{
    return symm_slot(c->t, i);
}

#define WORD(c, i, field) (&slot_of(c, i)->field.v)

/* The address of a symmetric buffer on team member i. */
static inline char *remote(const coll_t *c, const void *addr, size_t len, int i)
{
    return symm_xlate_checked(c->call, addr, len, symm_team_pe(c->t, i));
}

/* Wakes every other member that sleeps watching w (after a full fence that follows the store
 * to w). */
static inline void wake_members(const coll_t *c, const void *w)
{
    for (int i = 0; i < c->t->size; i++)
        if (i != c->t->me)
            symm_wake(symm_team_pe(c->t, i), w, sizeof(uint32_t));
}

static inline void post(const coll_t *c, _Atomic uint32_t *w)
{
    atomic_store_explicit(w, c->e, memory_order_seq_cst);
    wake_members(c, w);
}

/* Posts `posted` with a release store only; symm_coll_wake_later(c, 0) follows the call's
 * reads. */
static inline void post_later(const coll_t *c)
{
    atomic_store_explicit(&slot_of(c, c->t->me)->posted.v, c->e, memory_order_release);
}

/* Small gathers and reductions with more PEs than CPUs meet in a team barrier right after
 * they post, and read nothing before it. Nobody waits for what they post: a member waits only
 * for values of the call it is in, and gets past this call's barrier only after this PE has
 * arrived. So they post without the wake checks, and the barrier's arrival is their fence. */
static inline int posts_then_meets(size_t part)
{
    return symm_g.oversubscribed && part <= SYMM_SCRATCH;
}

/* With more PEs than CPUs: whether member i last ran on this PE's CPU. */
static inline int runs_beside(const coll_t *c, int i)
{
    return symm_g.oversubscribed &&
           (int)atomic_load_explicit(WORD(c, i, cpu), memory_order_relaxed) == c->cpu;
}

/* Waits until member i raises its word w to `target`. With more PEs than CPUs, a member that
 * last ran on this PE's CPU needs this CPU to get there, so the wait yields at once. */
static inline void wait_word(const coll_t *c, int i, _Atomic uint32_t *w, uint32_t target)
{
    if ((int32_t)(atomic_load_explicit(w, memory_order_acquire) - target) >= 0)
        return;
    if (runs_beside(c, i))
        symm_wait_reach_yielding(w, target);
    else
        symm_wait_reach(w, target);
}

/* Waits until member i has posted this call: before a large call reads its buffers. With PEs
 * sharing CPUs the wait yields for up to 1 ms, like the wait for `done` (wait_all_done), before it
 * sleeps. */
static inline void wait_member(const coll_t *c, int i)
{
    if (symm_g.oversubscribed)
        symm_wait_reach_busy(WORD(c, i, posted), c->e, runs_beside(c, i));
    else
        wait_word(c, i, WORD(c, i, posted), c->e);
}

/* Waits until every other member has posted e in `done`. A member not yet done is copying the
 * call's data, so the wait spins, or with PEs sharing CPUs yields, longer before it sleeps
 * (sync/wait.c). */
static inline void wait_all_done(const coll_t *c, uint32_t e)
{
    for (int i = 0; i < c->t->size; i++)
        if (i != c->t->me)
            symm_wait_reach_busy(WORD(c, i, done), e, runs_beside(c, i));
}

/* Every member has posted epoch e (learnt from a barrier, or by waiting for each). */
static inline void saw_all(const coll_t *c, uint32_t e)
{
    uint32_t *seen = &symm_coll_posted_seen[c->t->slot];

    if ((int32_t)(e - *seen) > 0)
        *seen = e;
}

/* The barrier of a call that posts_then_meets: after it every member has posted this call. */
static inline void meet(const coll_t *c)
{
    symm_team_barrier(c->t);
    saw_all(c, c->e);
}

/* Waits until member i raises w to this call's epoch, where w says that i's small part is
 * published. With more PEs than CPUs only a broadcast waits so (gathers and reductions meet in
 * a barrier first), and a CPU-mate that posted it waits for the root's part as well: when the
 * root runs elsewhere the wait spins about a context switch's time, then spins while every mate
 * has posted and yields while one has not; a root on this CPU is waited for by yielding. */
static inline void wait_part(const coll_t *c, int i, _Atomic uint32_t *w)
{
    if ((int32_t)(atomic_load_explicit(w, memory_order_acquire) - c->e) >= 0)
        return;
    if (symm_g.oversubscribed && !runs_beside(c, i))
        symm_coll_wait_beside(c, w);
    else
        wait_word(c, i, w, c->e);
}

typedef struct symm_cell cell_t;

static inline cell_t *cell_of(const coll_t *c, int i)
{
    return &slot_of(c, i)->cell[c->e % SYMM_CELLS];
}

/* Member i's part as symm_coll_publish left it, once it is there. */
static inline const char *published(const coll_t *c, int i, size_t nb)
{
    if (nb <= SYMM_CELL_BYTES) {
        cell_t *cell = cell_of(c, i);
        wait_part(c, i, &cell->epoch);
        return (const char *)cell->data;
    }
    if (i != c->t->me)
        wait_part(c, i, WORD(c, i, posted));
    return slot_of(c, i)->scratch[c->par];
}

/* Host collectives on device-heap buffers run on the GPU (coll/gpu_coll.h): when either buffer is
 * there (the GPU part checks the other). The rest take host memory only. */
static inline int on_device(const void *dest, const void *source)
{
    return symm_gpu_holds(dest) || symm_gpu_holds(source);
}

#endif
