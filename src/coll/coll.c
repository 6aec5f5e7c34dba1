/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Team collectives over the flat window: the engine of a call (coll/engine.h), the part that
 * every collective shares.
 *
 * Every collective call on a team has an epoch e (the team's count of collectives). A PE
 * entering it stores e in its slot's `posted` word, which also says that it has finished
 * reading everything of earlier calls; readers wait for the words they need and then load the
 * data straight from the writer's memory through the window.
 *
 * Tiny parts (up to SYMM_CELL_BYTES, the rest of a cache line after a 32-bit word) travel in
 * cells: a PE copies its part into cell[e % SYMM_CELLS] of its slot and then stores e in the
 * cell's epoch word (release); a reader waits for that word (acquire) and copies the part out
 * of the same line. The reader's poll brings the data with the flag: one cache-line transfer
 * per member read, where a separate flag and buffer cost two. Before a PE writes a cell again
 * (at e + SYMM_CELLS) every member must have posted e + 1. The least `posted` value seen on
 * the members is cached per slot, so the members' words are read again only when that value
 * is too old for the cell about to be written (about once in SYMM_CELLS calls), not in every
 * call.
 *
 * Small parts (up to SYMM_SCRATCH) go through scratch buffers in the team slot, two per PE,
 * used by epoch parity: a PE copies its part into scratch[e & 1], posts e, and reads the
 * others' scratch. Its source buffer is free at once, so there is no closing synchronisation;
 * before it writes scratch[e & 1] again (at e + 2) every member must have posted e + 1. One
 * synchronisation per call, no barrier.
 *
 * With more PEs than CPUs a wait costs a context switch. Gathers and reductions of small
 * parts publish their part and then meet in one team barrier (each PE woken once) instead of
 * waiting for each member in turn; after it every member has posted e. Every PE records the
 * CPU it entered the call on, and a PE that waits for a member last seen on its own CPU
 * yields at once instead of spinning: the member needs this CPU to get on. A PE that waits for
 * a part published on another CPU (a broadcast's) first spins about a context switch's time
 * (EAGER_SPINS): a root that the last barrier released with it publishes within that, and the
 * reader takes the part and arrives at the next barrier before it gives the CPU to a mate, so
 * its CPU switches once per call. After that it spins while every CPU-mate has posted the call,
 * so waits as well, and yields while one has not: yielding to mates that only wait passes the
 * CPU around, a context switch each time, and the part is seen a switch late (4 PEs on 2 CPUs,
 * a broadcast of 8 B and a barrier: 2.2 to 1.8 us).
 *
 * Large data is read from the users' own buffers, so a call ends when every member has posted
 * `done` (nobody reads or writes its buffers any more). The collectives themselves are in
 * move.c (broadcast, fcollect, alltoall, collect, alltoalls) and reduce.c (reductions, scans).
 */
#include "coll/engine.h"

uint32_t symm_coll_posted_seen[SYMM_TEAM_SLOTS];

void symm_coll_slot_init(int slot, uint32_t base)
{
    symm_coll_posted_seen[slot] = base;
}

/* Under SHMEM_DEBUG every member's arguments are compared with this PE's. */
static void check_args(const coll_t *c, int i)
{
    const symm_slot_t *m = slot_of(c, c->t->me), *o = slot_of(c, i);
    const int p = c->par;

    if (!symm_g.params.debug)
        return;
    if (m->args[p].op != o->args[p].op || m->args[p].nelems != o->args[p].nelems ||
        m->args[p].root != o->args[p].root)
        symm_fatal("%s(team=%p): collective call #%u differs across PEs: this PE (team PE %d) "
                   "passed nelems=%llu root=%lld, team PE %d (pe %d) passed nelems=%llu "
                   "root=%lld%s", c->call, (void *)c->t, c->e, c->t->me,
                   (unsigned long long)m->args[p].nelems, (long long)m->args[p].root, i,
                   symm_team_pe(c->t, i), (unsigned long long)o->args[p].nelems,
                   (long long)o->args[p].root,
                   m->args[p].op != o->args[p].op ? " in another collective" : "");
}

/* Under SHMEM_DEBUG every call starts by comparing all members' arguments, before an
 * algorithm that trusts them could wait forever. A member reaches the next call's check only
 * after all have published theirs, so args[e & 1] stays until everyone has compared. */
static void check_all_args(const coll_t *c)
{
    post(c, WORD(c, c->t->me, argued));
    for (int i = 0; i < c->t->size; i++) {
        if (i == c->t->me)
            continue;
        wait_word(c, i, WORD(c, i, argued), c->e);
        check_args(c, i);
    }
}

/* Waits until every member has posted at least `need`, that is, has finished reading what
 * this PE published before epoch need. The members' words are read only when the least value
 * seen so far is older; the least value read then usually covers many later calls. */
static void guard(const coll_t *c, uint32_t need)
{
    uint32_t lo = c->e;

    if ((int32_t)(symm_coll_posted_seen[c->t->slot] - need) >= 0)
        return;
    for (int i = 0; i < c->t->size; i++) {
        _Atomic uint32_t *w = WORD(c, i, posted);
        uint32_t v;
        if (i == c->t->me)
            continue;
        wait_word(c, i, w, need);
        v = atomic_load_explicit(w, memory_order_acquire);
        if ((int32_t)(v - lo) < 0)
            lo = v;
    }
    saw_all(c, lo);
}

/* Before scratch[e & 1] is written again: every member finished reading it at e - 2. */
static void scratch_guard(const coll_t *c)
{
    guard(c, c->e - 1);
}

/* Posts this call with this PE's part in its cell: the part, then the cell's epoch, then
 * `posted`, release stores all; the wake checks come later (meet or symm_coll_wake_later). */
static void cell_post(const coll_t *c, const void *part, size_t nb)
{
    cell_t *mine = cell_of(c, c->t->me);

    guard(c, c->e - SYMM_CELLS + 1);
    memcpy(mine->data, part, nb);
    atomic_store_explicit(&mine->epoch, c->e, memory_order_release);
    atomic_store_explicit(WORD(c, c->t->me, posted), c->e, memory_order_release);
}

void symm_coll_publish(const coll_t *c, const void *part, size_t nb)
{
    if (nb <= SYMM_CELL_BYTES) {
        cell_post(c, part, nb);
        return;
    }
    scratch_guard(c);
    memcpy(slot_of(c, c->t->me)->scratch[c->par], part, nb);
    post_later(c);
}

/* The other's cell of epoch e is reused 16 calls later: as cell_post, the guard says that
 * the other has finished reading what was there (it posted a later call since). Each epoch
 * uses one kind of exchange on both members, and the epochs of a cell only grow, so a cell
 * that one call filled by pushing and another by publishing is never read wrongly. */
const char *symm_coll_pair_exchange(const coll_t *c, const void *part, size_t nb)
{
    const int other = 1 - c->t->me;
    cell_t *theirs = cell_of(c, other), *mine = cell_of(c, c->t->me);

    guard(c, c->e - SYMM_CELLS + 1);
    memcpy(theirs->data, part, nb);
    atomic_store_explicit(&theirs->epoch, c->e, memory_order_release);
    atomic_store_explicit(WORD(c, c->t->me, posted), c->e, memory_order_release);
    wait_word(c, other, &mine->epoch, c->e);
    return (const char *)mine->data;
}

void symm_coll_pair_done(const coll_t *c)
{
    const int other = 1 - c->t->me, pe = symm_team_pe(c->t, other);

    symm_full_fence();
    symm_wake(pe, WORD(c, c->t->me, posted), sizeof(uint32_t));
    symm_wake(pe, &cell_of(c, other)->epoch, sizeof(uint32_t));
}

void symm_coll_wake_later(const coll_t *c, size_t nb)
{
    symm_full_fence();
    wake_members(c, WORD(c, c->t->me, posted));
    if (nb && nb <= SYMM_CELL_BYTES)
        wake_members(c, &cell_of(c, c->t->me)->epoch);
}

void symm_coll_wake_hint(const coll_t *c, size_t nb)
{
    _Atomic uint32_t *posted = WORD(c, c->t->me, posted), *cell = &cell_of(c, c->t->me)->epoch;

    for (int i = 0; i < c->t->size; i++) {
        int pe = symm_team_pe(c->t, i);
        if (i == c->t->me)
            continue;
        symm_wake_hint(pe, posted, sizeof(*posted));
        if (nb <= SYMM_CELL_BYTES)
            symm_wake_hint(pe, cell, sizeof(*cell));
    }
}

/* Pauses a broadcast's reader whose root runs on another CPU spins first, whatever its
 * CPU-mates do: about a context switch's time, the most a spin should risk against a yield. */
#define EAGER_SPINS 64

typedef struct beside {
    const coll_t *c;
    _Atomic uint32_t *w;
} beside_t;

static int beside_reached(const void *arg)
{
    const beside_t *b = arg;

    return (int32_t)(atomic_load_explicit(b->w, memory_order_acquire) - b->c->e) >= 0;
}

/* Whether every other member last seen on this PE's CPU has posted the call. */
static int mates_posted(const void *arg)
{
    const coll_t *c = ((const beside_t *)arg)->c;

    return symm_mates_reached(c->t, (uint32_t)c->cpu, 1, c->e);
}

void symm_coll_wait_beside(const coll_t *c, _Atomic uint32_t *w)
{
    beside_t b = {c, w};

    for (int k = 0; k < EAGER_SPINS; k++) {
        if (beside_reached(&b))
            return;
        symm_cpu_relax();
    }
    if (!symm_wait_beside(beside_reached, mates_posted, &b, SYMM_BESIDE_SPINS))
        symm_wait_reach(w, c->e);
}

void symm_coll_finish(const coll_t *c)
{
    post(c, WORD(c, c->t->me, done));
    wait_all_done(c, c->e);
}

void symm_coll_begin(coll_t *c, shmem_team_t team, const char *call, uint64_t op,
                     uint64_t nelems, int64_t root, uint64_t count)
{
    symm_slot_t *mine;

    c->t = symm_team_get(team, call);
    c->call = call;
    c->e = ++c->t->coll_epoch;
    if ((int32_t)(c->e - symm_g.epoch_hwm) > 0)
        symm_g.epoch_hwm = c->e;
    c->par = c->e & 1;
    mine = slot_of(c, c->t->me);
    c->cpu = symm_g.oversubscribed ? (int)symm_mate_note_cpu(c->t) : -1;
    mine->args[c->par].op = op;
    mine->args[c->par].nelems = nelems;
    mine->args[c->par].root = root;
    mine->args[c->par].count = count;
    if (symm_g.params.debug)
        check_all_args(c);
}

/* A call of no data moves nothing and reads no address (NULL is valid with it), but it is
 * still a collective of the team, so it takes its epoch and posts it, as a reduction of no
 * elements does; under SHMEM_DEBUG its arguments are compared with the other members'. */
void symm_coll_no_data(shmem_team_t team, const char *call, uint64_t op, int64_t root)
{
    coll_t c;

    symm_coll_begin(&c, team, call, op, 0, root, 0);
    post(&c, WORD(&c, c.t->me, posted));
}

static int overlap(const void *a, size_t alen, const void *b, size_t blen)
{
    const char *x = a, *y = b;

    return alen && blen && x < y + blen && y < x + alen;
}

void symm_coll_check_disjoint(const char *call, const void *dest, size_t dlen,
                              const void *source, size_t slen)
{
    if (overlap(dest, dlen, source, slen))
        symm_fatal("%s(dest=%p, source=%p): dest [%zu bytes] and source [%zu bytes] overlap", call,
                   dest, source, dlen, slen);
}

size_t symm_coll_bytes(const char *call, size_t n, size_t size)
{
    size_t b;

    if (__builtin_mul_overflow(n, size, &b))
        symm_fatal("%s(nelems=%zu): %zu times %zu bytes overflow the address space", call, n, n,
                   size);
    return b;
}

void symm_coll_host_only(const char *call, const void *dest, const void *source)
{
    if (on_device(dest, source))
        symm_fatal("%s(dest=%p, source=%p): a buffer in the device heap: this collective takes "
                   "host memory only (broadcast, fcollect, alltoall and the reductions on a team "
                   "take device buffers, as do their _on_stream forms)", call, dest, source);
}

