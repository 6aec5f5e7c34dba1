/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Team collectives over the flat window.
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
 * yields at once instead of spinning: the member needs this CPU to get on.
 *
 * Large data is read from the users' own buffers, so a call ends when every member has posted
 * `done` (nobody reads or writes its buffers any more). A large fcollect part is pushed
 * instead: its owner reads it once, a chunk at a time, and writes each chunk into every
 * member's dest after the member has posted the call. A large reduction is split into one
 * slice per worker: every member when each PE has a CPU of its own, one per CPU when PEs
 * outnumber CPUs. A worker combines its slice of every source, in team order, a block at a
 * time in a private buffer, and stores the finished block into every member's dest, so one
 * synchronisation (the workers' `done`, or a team barrier when PEs outnumber CPUs) ends the
 * call. Every element is combined in the same order by one PE, so all PEs get bit-identical
 * results. Copies that move more than a core's L2 cache holds use streaming stores; those that
 * fit it alternate direction from call to call (core/copy.c).
 *
 * Collectives on device-heap buffers run on the GPU (gpu/gpu.h); those without a GPU form
 * refuse them.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll/coll.h"
#include "gpu/gpu.h"

enum { OP_BCAST = 1, OP_FCOLLECT, OP_COLLECT, OP_ALLTOALL, OP_ALLTOALLS, OP_SCAN };

typedef struct coll {
    symm_team_t *t;
    const char *call;
    uint32_t e;
    int par;
    int cpu; /* with more PEs than CPUs: the CPU this PE runs on */
} coll_t;

static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;

    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
    return h;
}

static symm_slot_t *slot_of(const coll_t *c, int i)
{
    return symm_slot(c->t, i);
}

/* The address of a symmetric buffer on team member i. */
static char *remote(const coll_t *c, const void *addr, size_t len, int i)
{
    return symm_xlate_checked(c->call, addr, len, symm_team_pe(c->t, i));
}

/* The least epoch every member of the team in slot s is known to have posted (this PE's copy;
 * a new team on the slot starts it at its base epoch). */
static uint32_t posted_seen[SYMM_TEAM_SLOTS];

void symm_coll_slot_init(int slot, uint32_t base)
{
    posted_seen[slot] = base;
}

/* Wakes every other member that sleeps watching w (after a full fence that follows the store
 * to w). */
static void wake_members(const coll_t *c, const void *w)
{
    for (int i = 0; i < c->t->size; i++)
        if (i != c->t->me)
            symm_wake(symm_team_pe(c->t, i), w, sizeof(uint32_t));
}

static void post(const coll_t *c, _Atomic uint32_t *w)
{
    atomic_store_explicit(w, c->e, memory_order_seq_cst);
    wake_members(c, w);
}

/* Small gathers and reductions with more PEs than CPUs meet in a team barrier right after
 * they post, and read nothing before it. Nobody waits for what they post: a member waits only
 * for values of the call it is in, and gets past this call's barrier only after this PE has
 * arrived. So they post without the wake checks, and the barrier's arrival is their fence. */
static int posts_then_meets(size_t part)
{
    return symm_g.oversubscribed && part <= SYMM_SCRATCH;
}

#define WORD(c, i, field) (&slot_of(c, i)->field.v)

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

/* Waits until member i raises its word w to `target`. With more PEs than CPUs, a member that
 * last ran on this PE's CPU needs this CPU to get there, so the wait yields at once. */
static void wait_word(const coll_t *c, int i, _Atomic uint32_t *w, uint32_t target)
{
    if ((int32_t)(atomic_load_explicit(w, memory_order_acquire) - target) >= 0)
        return;
    if (symm_g.oversubscribed &&
        (int)atomic_load_explicit(WORD(c, i, cpu), memory_order_relaxed) == c->cpu)
        symm_wait_reach_yielding(w, target);
    else
        symm_wait_reach(w, target);
}

static void wait_member(const coll_t *c, int i)
{
    wait_word(c, i, WORD(c, i, posted), c->e);
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

static void wait_all(const coll_t *c, int field_done, uint32_t e)
{
    for (int i = 0; i < c->t->size; i++) {
        if (i == c->t->me)
            continue;
        wait_word(c, i, field_done ? WORD(c, i, done) : WORD(c, i, posted), e);
    }
}

/* Every member has posted epoch e (learnt from a barrier, or by waiting for each). */
static void saw_all(const coll_t *c, uint32_t e)
{
    uint32_t *seen = &posted_seen[c->t->slot];

    if ((int32_t)(e - *seen) > 0)
        *seen = e;
}

/* Waits until every member has posted at least `need`, that is, has finished reading what
 * this PE published before epoch need. The members' words are read only when the least value
 * seen so far is older; the least value read then usually covers many later calls. */
static void guard(const coll_t *c, uint32_t need)
{
    uint32_t lo = c->e;

    if ((int32_t)(posted_seen[c->t->slot] - need) >= 0)
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

typedef struct symm_cell cell_t;

static cell_t *cell_of(const coll_t *c, int i)
{
    return &slot_of(c, i)->cell[c->e % SYMM_CELLS];
}

/* Posts this call with this PE's part in its cell: the part, then the cell's epoch (release),
 * then `posted`, whose sequentially consistent store is the fence both wake checks need
 * (`meets`: posts_then_meets, no wake checks). */
static void cell_post(const coll_t *c, const void *part, size_t nb, int meets)
{
    cell_t *mine = cell_of(c, c->t->me);

    guard(c, c->e - SYMM_CELLS + 1);
    memcpy(mine->data, part, nb);
    atomic_store_explicit(&mine->epoch, c->e, memory_order_release);
    if (meets) {
        atomic_store_explicit(WORD(c, c->t->me, posted), c->e, memory_order_release);
        return;
    }
    post(c, WORD(c, c->t->me, posted));
    wake_members(c, &mine->epoch);
}

/* Member i's part of this call, once its cell holds it. */
static const unsigned char *cell_wait(const coll_t *c, int i)
{
    cell_t *cell = cell_of(c, i);

    wait_word(c, i, &cell->epoch, c->e);
    return cell->data;
}

/* Publishes this PE's part of a gather or reduction of small parts, in its cell or in its
 * scratch buffer; `meets`: the call meets in a barrier next (posts_then_meets). */
static void publish(const coll_t *c, const void *part, size_t nb, int meets)
{
    _Atomic uint32_t *posted = WORD(c, c->t->me, posted);

    if (nb <= SYMM_CELL_BYTES) {
        cell_post(c, part, nb, meets);
        return;
    }
    scratch_guard(c);
    memcpy(slot_of(c, c->t->me)->scratch[c->par], part, nb);
    if (meets)
        atomic_store_explicit(posted, c->e, memory_order_release);
    else
        post(c, posted);
}

/* The barrier of a call that posts_then_meets: after it every member has posted this call. */
static void meet(const coll_t *c)
{
    symm_team_meet(c->t);
    saw_all(c, c->e);
}

/* Member i's part as publish() left it, once it is there. */
static const char *published(const coll_t *c, int i, size_t nb)
{
    if (nb <= SYMM_CELL_BYTES)
        return (const char *)cell_wait(c, i);
    if (i != c->t->me)
        wait_member(c, i);
    return slot_of(c, i)->scratch[c->par];
}

/* Ends a large-data call: nobody reads this PE's buffers after it returns. */
static void finish(const coll_t *c)
{
    post(c, WORD(c, c->t->me, done));
    wait_all(c, 1, c->e);
}

static void begin(coll_t *c, shmem_team_t team, const char *call, uint64_t op, uint64_t nelems,
                  int64_t root, uint64_t count)
{
    symm_slot_t *mine;

    c->t = symm_team_get(team, call);
    c->call = call;
    c->e = ++c->t->coll_epoch;
    if ((int32_t)(c->e - symm_g.epoch_hwm) > 0)
        symm_g.epoch_hwm = c->e;
    c->par = c->e & 1;
    mine = slot_of(c, c->t->me);
    c->cpu = -1;
    if (symm_g.oversubscribed) {
        c->cpu = sched_getcpu();
        if (atomic_load_explicit(&mine->cpu.v, memory_order_relaxed) != (uint32_t)c->cpu)
            atomic_store_explicit(&mine->cpu.v, (uint32_t)c->cpu, memory_order_relaxed);
    }
    mine->args[c->par].op = op;
    mine->args[c->par].nelems = nelems;
    mine->args[c->par].root = root;
    mine->args[c->par].count = count;
    if (symm_g.params.debug)
        check_all_args(c);
}

/* A call of no data: it moves nothing and reads no address (NULL is valid with it), but it is
 * still a collective of the team, so it takes its epoch and posts it, as a reduction of no
 * elements does; under SHMEM_DEBUG its arguments are compared with the other members'. */
static void no_data(shmem_team_t team, const char *call, uint64_t op, int64_t root)
{
    coll_t c;

    begin(&c, team, call, op, 0, root, 0);
    post(&c, WORD(&c, c.t->me, posted));
}

static int overlap(const void *a, size_t alen, const void *b, size_t blen)
{
    const char *x = a, *y = b;

    return alen && blen && x < y + blen && y < x + alen;
}

static void check_disjoint(const char *call, const void *dest, size_t dlen, const void *source,
                           size_t slen)
{
    if (overlap(dest, dlen, source, slen))
        symm_fatal("%s(dest=%p, source=%p): dest [%zu bytes] and source [%zu bytes] overlap", call,
                   dest, source, dlen, slen);
}

static size_t bytes(const char *call, size_t n, size_t size)
{
    size_t b;

    if (__builtin_mul_overflow(n, size, &b))
        symm_fatal("%s(nelems=%zu): too many elements", call, n);
    return b;
}

/* ---- copies of large data ------------------------------------------------------------------
 * A call that reads and writes more than a core's L2 cache holds cannot keep its destination
 * there: every line would be read in for ownership, then written back, on its way out to L3.
 * Streaming (non-temporal) stores write such a destination straight out in full lines,
 * without reading it first; smaller calls copy normally and leave their result in the cache. */
static size_t l2_bytes(void)
{
    static size_t l2;

    if (!l2) {
        long v = sysconf(_SC_LEVEL2_CACHE_SIZE);
        l2 = v > 0 ? (size_t)v : (size_t)1 << 20;
    }
    return l2;
}

/* Whether a call that moves `moved` bytes through this PE's core (read plus written) streams. */
static int streams(size_t moved)
{
    return moved > l2_bytes();
}

/* Bytes of a large fcollect part pushed to every member before the next: small enough to stay
 * in the core's first-level cache between the members' copies. */
#define PUSH_CHUNK (16u << 10)

/* Copies with streaming stores (not fenced) when `stream`. */
static void copy_nofence(void *dest, const void *src, size_t n, int stream)
{
    if (stream)
        symm_copy_stream_nofence(dest, src, n);
    else
        memcpy(dest, src, n);
}

static void stream_fence(int stream)
{
    if (stream)
        symm_copy_stream_fence();
}

static void copy(void *dest, const void *src, size_t n, int stream)
{
    copy_nofence(dest, src, n, stream);
    stream_fence(stream);
}

/* Calls whose data fits the L2 alternate direction from call to call (core/copy.c), each team
 * by its own count. */
static int sweeps_back(symm_team_t *t)
{
    return (int)(t->sweeps++ & 1);
}

/* A copy streamed past the cache (stream), or forward or backwards (back) through it. */
static void copy_way(void *dest, const void *src, size_t n, int stream, int back)
{
    if (stream)
        copy(dest, src, n, 1);
    else
        symm_copy_swept(dest, src, n, back);
}

/* A whole-buffer copy of a call: streamed when it moves more than the L2 holds, else swept. */
static void copy_call(symm_team_t *t, void *dest, const void *src, size_t n)
{
    int stream = streams(2 * n);

    copy_way(dest, src, n, stream, !stream && sweeps_back(t));
}

/* ---- broadcast ---------------------------------------------------------------------------- */
/* Host collectives on device-heap buffers run on the GPU (gpu/gpu.h): when either buffer is
 * there (the GPU part checks the other). The rest take host memory only. */
static int on_device(const void *dest, const void *source)
{
    return symm_gpu_holds(dest) || symm_gpu_holds(source);
}

void symm_coll_host_only(const char *call, const void *dest, const void *source)
{
    if (on_device(dest, source))
        symm_fatal("%s(dest=%p, source=%p): a buffer in the device heap: this collective takes "
                   "host memory only (broadcast, fcollect, alltoall and the reductions on a team "
                   "take device buffers, as do their _on_stream forms)", call, dest, source);
}

static void broadcast_body(shmem_team_t team, const char *call, void *dest,
                           const void *source, size_t nb, size_t es, int root)
{
    coll_t c;
    symm_team_t *t = symm_team_get(team, call);

    if (root < 0 || root >= t->size)
        symm_fatal("%s(team=%p, PE_root=%d): root is out of range (the team has %d PEs)", call,
                   (void *)team, root, t->size);
    if (t->net && !on_device(dest, source)) {
        symm_span_broadcast(t, dest, source, nb, root);
        return;
    }
    if (nb == 0) {
        no_data(team, call, OP_BCAST, root);
        return;
    }
    if (on_device(dest, source)) {
        symm_gpu_host_coll(call, SYMM_GPU_BCAST, (void *)team, dest, source, nb, root);
        return;
    }
    if (dest != source)
        check_disjoint(call, dest, nb, source, nb);
    begin(&c, team, call, OP_BCAST, nb / es, root, 0);
    if (nb <= SYMM_SCRATCH) {
        if (t->me == root) {
            publish(&c, source, nb, 0);
            if (dest != source)
                memcpy(dest, source, nb);
        } else {
            post(&c, WORD(&c, t->me, posted));
            memcpy(dest, published(&c, root, nb), nb);
        }
        return;
    }
    post(&c, WORD(&c, t->me, posted));
    if (t->me == root) {
        if (dest != source)
            copy_call(t, dest, source, nb);
        wait_all(&c, 1, c.e);
        return;
    }
    wait_member(&c, root);
    copy_call(t, dest, remote(&c, source, nb, root), nb);
    post(&c, WORD(&c, t->me, done));
}

static void broadcast(shmem_team_t team, const char *call, void *dest, const void *source,
                      size_t nb, size_t es, int root)
{
    broadcast_body(team, call, dest, source, nb, es, root);
}

/* ---- fcollect and alltoall ------------------------------------------------------------------
 * Member i's part for this PE: fcollect reads i's whole part, alltoall block `me` of it. */
static void gather(shmem_team_t team, const char *call, uint64_t op, void *dest,
                   const void *source, size_t nb, size_t es, size_t part, size_t pick)
{
    coll_t c;
    symm_team_t *t;
    int n, me;
    int small = part <= SYMM_SCRATCH, meets = posts_then_meets(part), stream, back;

    t = symm_team_get(team, call);
    if (t->net && !on_device(dest, source)) {
        symm_span_gather(t, dest, source, nb, pick);
        return;
    }
    if (nb == 0) {
        no_data(team, call, op, 0);
        return;
    }
    if (on_device(dest, source)) {
        symm_gpu_host_coll(call, pick ? SYMM_GPU_ALLTOALL : SYMM_GPU_FCOLLECT, (void *)team, dest,
                           source, nb, 0);
        return;
    }
    begin(&c, team, call, op, nb / es, 0, 0);
    t = c.t;
    n = t->size;
    me = t->me;
    check_disjoint(call, dest, nb * n, source, part);
    stream = !small && streams(2 * nb * n);
    if (small)
        publish(&c, source, part, meets);
    else
        post(&c, WORD(&c, me, posted));
    if (!small && pick == 0) {
        /* Large fcollect parts are pushed: each PE reads its own part once, a chunk at a time,
         * and writes the chunk into every member's dest (once that member has entered). The
         * lines a PE touches (its part and n copies of it) stream past the cache when they
         * are more than twice the L2; below that, alternating the chunk order from call to
         * call keeps more of them (2 PEs, 1 MiB: 96-104 us streamed, 75-78 us alternating). */
        size_t chunks = (nb + PUSH_CHUNK - 1) / PUSH_CHUNK;
        stream = nb * (size_t)(n + 1) > 2 * l2_bytes();
        back = !stream && sweeps_back(t);
        for (int k = 1; k < n; k++)
            wait_member(&c, (me + k) % n);
        for (size_t ci = 0; ci < chunks; ci++) {
            size_t off = (back ? chunks - 1 - ci : ci) * PUSH_CHUNK;
            size_t len = nb - off < PUSH_CHUNK ? nb - off : PUSH_CHUNK;
            for (int k = 0; k < n; k++) {
                int i = (me + k) % n;
                char *to = (char *)dest + (size_t)me * nb + off;
                copy_nofence(k ? remote(&c, to, len, i) : to, (const char *)source + off, len,
                             stream);
            }
        }
        stream_fence(stream);
        finish(&c);
        return;
    }
    back = !small && !stream && sweeps_back(t);
    if (!back)
        copy_way((char *)dest + (size_t)me * nb, (const char *)source + pick * me, nb, stream, 0);
    /* With more PEs than CPUs, one barrier (each PE woken once) beats waiting for each member
     * in turn (a wake-up per member). */
    if (meets)
        meet(&c);
    for (int k = 1; k < n; k++) {
        int i = (me + (back ? n - k : k)) % n;
        const char *from;
        if (small) {
            from = published(&c, i, part);
        } else {
            wait_member(&c, i);
            from = remote(&c, source, part, i);
        }
        copy_way((char *)dest + (size_t)i * nb, from + pick * me, nb, stream, back);
    }
    if (back)
        copy_way((char *)dest + (size_t)me * nb, (const char *)source + pick * me, nb, 0, 1);
    if (!small)
        finish(&c);
}

/* ---- collect (parts of any size) ---------------------------------------------------------- */
static void collect(shmem_team_t team, const char *call, void *dest, const void *source,
                    size_t nb)
{
    coll_t c;
    size_t off = 0;

    symm_coll_host_only(call, dest, source);
    if (symm_team_get(team, call)->net) {
        symm_span_collect(team, call, dest, source, nb);
        return;
    }
    begin(&c, team, call, OP_COLLECT, 0, 0, nb);
    post(&c, WORD(&c, c.t->me, posted));
    for (int i = 0; i < c.t->size; i++) {
        size_t len;
        if (i != c.t->me)
            wait_member(&c, i);
        len = slot_of(&c, i)->args[c.par].count;
        if (len && i == c.t->me)
            memcpy((char *)dest + off, source, len);
        else if (len)
            memcpy((char *)dest + off, remote(&c, source, len, i), len);
        off += len;
    }
    finish(&c);
}

/* ---- alltoalls (strided) ------------------------------------------------------------------ */
static void alltoalls(shmem_team_t team, const char *call, void *dest, const void *source,
                      ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t es)
{
    coll_t c;
    int n;

    if (dst < 1 || sst < 1)
        symm_fatal("%s(dst=%td, sst=%td): strides must be positive", call, dst, sst);
    symm_coll_host_only(call, dest, source);
    if (symm_team_get(team, call)->net) {
        symm_span_alltoalls(team, dest, source, dst, sst, nelems, es);
        return;
    }
    begin(&c, team, call, OP_ALLTOALLS, nelems, dst, (uint64_t)sst);
    n = c.t->size;
    post(&c, WORD(&c, c.t->me, posted));
    for (int k = 0; k < n; k++) {
        int i = (c.t->me + k) % n;
        const char *from = source;
        if (i != c.t->me) {
            wait_member(&c, i);
            if (nelems)
                from = remote(&c, source,
                              bytes(call, ((size_t)n * nelems - 1) * sst + 1, es), i);
        }
        for (size_t j = 0; j < nelems; j++)
            memcpy((char *)dest + (((size_t)i * nelems + j) * dst) * es,
                   from + (((size_t)c.t->me * nelems + j) * sst) * es, es);
    }
    finish(&c);
}

/* ---- reductions ----------------------------------------------------------------------------- */
static void reduce_small(coll_t *c, void *dest, const void *source, size_t nelems, size_t es,
                         symm_combine_fn fn)
{
    size_t nb = nelems * es;
    int meets = posts_then_meets(nb);

    publish(c, source, nb, meets);
    if (meets)
        meet(c);
    for (int i = 0; i < c->t->size; i++) {
        const char *from = published(c, i, nb);
        if (i == 0)
            memcpy(dest, from, nb);
        else
            fn(dest, from, nelems);
    }
}

/* Combining goes a block at a time through a buffer that stays in the L1 cache. */
#define REDUCE_BLOCK 4096

/* Slice [lo, hi) of the reduction: combines it from every member's source in team order and
 * stores it into every member's dest. A block is read from every source before it is stored
 * anywhere, so dest may be source. */
static void reduce_slice(const coll_t *c, void *dest, const void *source, size_t nelems,
                         size_t es, symm_combine_fn fn, size_t lo, size_t hi)
{
    _Alignas(SYMM_CACHELINE) unsigned char acc[REDUCE_BLOCK];
    size_t per = REDUCE_BLOCK / es, nb = nelems * es;
    int n = c->t->size;

    for (size_t a = lo; a < hi; a += per) {
        size_t m = hi - a < per ? hi - a : per, off = a * es;
        memcpy(acc, remote(c, source, nb, 0) + off, m * es);
        for (int i = 1; i < n; i++)
            fn(acc, remote(c, source, nb, i) + off, m);
        for (int k = 0; k < n; k++) {
            int i = (c->t->me + k) % n;
            memcpy(remote(c, dest, nb, i) + off, acc, m * es);
        }
    }
}

/* Workers of a large reduction: every member, or the job's CPUs when PEs outnumber them. */
static int reduce_workers(const coll_t *c)
{
    long cpus = symm_g.oversubscribed ? symm_job_cpus() : c->t->size;

    return cpus < c->t->size ? (int)cpus : c->t->size;
}

static void reduce_large(coll_t *c, void *dest, const void *source, size_t nelems, size_t es,
                         symm_combine_fn fn)
{
    int n = c->t->size, me = c->t->me, w = reduce_workers(c);
    size_t chunk = (nelems + w - 1) / w, lo, hi;

    chunk = (chunk + 63) & ~(size_t)63;
    post(c, WORD(c, me, posted));
    if (me < w) {
        /* Every member's source is ready and its dest free to write. */
        for (int i = 0; i < n; i++)
            if (i != me)
                wait_member(c, i);
        saw_all(c, c->e);
        lo = chunk * me < nelems ? chunk * me : nelems;
        hi = lo + chunk < nelems ? lo + chunk : nelems;
        reduce_slice(c, dest, source, nelems, es, fn, lo, hi);
    }
    /* Every member is a worker unless PEs outnumber CPUs. */
    if (symm_g.oversubscribed)
        meet(c);
    else
        finish(c);
}

void symm_coll_reduce(symm_team_t *t, const char *call, void *dest, const void *source,
                      size_t nelems, size_t es, symm_combine_fn fn, uint64_t op)
{
    coll_t c;
    size_t nb = bytes(call, nelems, es);

    if (dest != source)
        check_disjoint(call, dest, nb, source, nb);
    if (t->net) {
        symm_span_reduce(t, call, dest, source, nelems, es, fn);
        return;
    }
    begin(&c, t, call, op, nelems, 0, 0);
    if (nelems == 0)
        post(&c, WORD(&c, t->me, posted));
    else if (nb <= SYMM_SCRATCH)
        reduce_small(&c, dest, source, nelems, es, fn);
    else
        reduce_large(&c, dest, source, nelems, es, fn);
}

/* The library's own agreement steps; their op ids (7, 8) are no public reduction's. */
void symm_coll_and64(symm_team_t *t, uint64_t *out, uint64_t in)
{
    symm_coll_reduce(t, "shmem_team_split", out, &in, 1, sizeof(in),
                     symm_combine[SYMM_OP_and][SYMM_TYPE_uint64], 7);
}

void symm_coll_max64(symm_team_t *t, uint64_t *out, uint64_t in)
{
    symm_coll_reduce(t, "shmem_team_split", out, &in, 1, sizeof(in),
                     symm_combine[SYMM_OP_max][SYMM_TYPE_uint64], 8);
}

/* ---- scans (OpenSHMEM 1.6) ------------------------------------------------------------------
 * Member me combines the sources of members 0..me (inclusive) or 0..me-1 (exclusive) in team
 * order; the result is written only after every member finished reading, so dest may be
 * source. */
static void scan(shmem_team_t team, const char *call, void *dest, const void *source,
                 size_t nelems, symm_type_t type, int exclusive)
{
    coll_t c;
    size_t es = symm_type_size[type], nb = bytes(call, nelems, es);
    symm_combine_fn fn = symm_combine[SYMM_OP_sum][type];
    int last;
    char *tmp;

    if (symm_team_get(team, call)->net) {
        symm_coll_host_only(call, dest, source);
        symm_span_scan(team, call, dest, source, nelems, es, fn, exclusive);
        return;
    }
    if (nb == 0) {
        no_data(team, call, OP_SCAN, exclusive);
        return;
    }
    tmp = calloc(1, nb);
    if (!tmp)
        symm_fatal("%s: out of memory for %zu bytes", call, nb);
    symm_coll_host_only(call, dest, source);
    begin(&c, team, call, OP_SCAN, nelems, exclusive, 0);
    if (dest != source)
        check_disjoint(call, dest, nb, source, nb);
    post(&c, WORD(&c, c.t->me, posted));
    last = exclusive ? c.t->me - 1 : c.t->me;
    for (int i = 0; i <= last && nb; i++) {
        const char *from = i == c.t->me ? source : NULL;
        if (!from) {
            wait_member(&c, i);
            from = remote(&c, source, nb, i);
        }
        if (i == 0)
            memcpy(tmp, from, nb);
        else
            fn(tmp, from, nelems);
    }
    finish(&c);
    memcpy(dest, tmp, nb);
    free(tmp);
}

/* ---- Public shells ------------------------------------------------------------------------ */
SYMM_EXPORT int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source,
                                   size_t nelems, int PE_root)
{
    broadcast(team, "shmem_broadcastmem", dest, source, nelems, 1, PE_root);
    return 0;
}

SYMM_EXPORT int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source,
                                  size_t nelems)
{
    gather(team, "shmem_fcollectmem", OP_FCOLLECT, dest, source, nelems, 1, nelems, 0);
    return 0;
}

SYMM_EXPORT int shmem_collectmem(shmem_team_t team, void *dest, const void *source,
                                 size_t nelems)
{
    collect(team, "shmem_collectmem", dest, source, nelems);
    return 0;
}

/* Alltoall: the part is the whole source (one block per member); this PE picks block `me`. */
static void alltoall(shmem_team_t team, const char *call, void *dest, const void *source,
                     size_t nb, size_t es)
{
    symm_team_t *t = symm_team_get(team, call);

    gather(team, call, OP_ALLTOALL, dest, source, nb, es, bytes(call, nb, t->size), nb);
}

SYMM_EXPORT int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source,
                                  size_t nelems)
{
    alltoall(team, "shmem_alltoallmem", dest, source, nelems, 1);
    return 0;
}

SYMM_EXPORT int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source,
                                   ptrdiff_t dst, ptrdiff_t sst, size_t nelems)
{
    alltoalls(team, "shmem_alltoallsmem", dest, source, dst, sst, nelems, 1);
    return 0;
}

#define COLL_SHELLS(NAME, T)                                                                     \
    SYMM_EXPORT int shmem_##NAME##_broadcast(shmem_team_t team, T *dest, const T *source,       \
                                             size_t nelems, int PE_root)                        \
    {                                                                                           \
        const char *call = "shmem_" #NAME "_broadcast";                                         \
        broadcast(team, call, dest, source, bytes(call, nelems, sizeof(T)), sizeof(T), PE_root);\
        return 0;                                                                               \
    }                                                                                           \
    SYMM_EXPORT int shmem_##NAME##_fcollect(shmem_team_t team, T *dest, const T *source,        \
                                            size_t nelems)                                      \
    {                                                                                           \
        const char *call = "shmem_" #NAME "_fcollect";                                          \
        size_t nb = bytes(call, nelems, sizeof(T));                                             \
        gather(team, call, OP_FCOLLECT, dest, source, nb, sizeof(T), nb, 0);                    \
        return 0;                                                                               \
    }                                                                                           \
    SYMM_EXPORT int shmem_##NAME##_collect(shmem_team_t team, T *dest, const T *source,         \
                                           size_t nelems)                                       \
    {                                                                                           \
        const char *call = "shmem_" #NAME "_collect";                                           \
        collect(team, call, dest, source, bytes(call, nelems, sizeof(T)));                      \
        return 0;                                                                               \
    }                                                                                           \
    SYMM_EXPORT int shmem_##NAME##_alltoall(shmem_team_t team, T *dest, const T *source,        \
                                            size_t nelems)                                      \
    {                                                                                           \
        const char *call = "shmem_" #NAME "_alltoall";                                          \
        alltoall(team, call, dest, source, bytes(call, nelems, sizeof(T)), sizeof(T));          \
        return 0;                                                                               \
    }                                                                                           \
    SYMM_EXPORT int shmem_##NAME##_alltoalls(shmem_team_t team, T *dest, const T *source,       \
                                             ptrdiff_t dst, ptrdiff_t sst, size_t nelems)       \
    {                                                                                           \
        alltoalls(team, "shmem_" #NAME "_alltoalls", dest, source, dst, sst, nelems, sizeof(T));\
        return 0;                                                                               \
    }
#define COLL_ROW(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)             \
    SYMM_IF_##RMA(COLL_SHELLS(NAME, T))
SYMM_TYPES(COLL_ROW, _)

/* Team reductions: on the GPU when a buffer is in the device heap, else through the
 * [op][type] table. */
static int reduce(shmem_team_t team, const char *call, void *dest, const void *source,
                  size_t nreduce, symm_type_t type, symm_op_t op)
{
    symm_team_t *t = symm_team_get(team, call);

    if (SYMM_UNLIKELY(on_device(dest, source)))
        symm_gpu_host_reduce(call, (void *)team, dest, source, nreduce, type, op);
    else
        symm_coll_reduce(t, call, dest, source, nreduce, symm_type_size[type],
                         symm_combine[op][type], name_hash(call));
    return 0;
}

#define REDUCE_SHELL(NAME, T, OP)                                                                \
    SYMM_EXPORT int shmem_##NAME##_##OP##_reduce(shmem_team_t team, T *dest, const T *source,   \
                                                 size_t nreduce)                                \
    {                                                                                           \
        return reduce(team, "shmem_" #NAME "_" #OP "_reduce", dest, source, nreduce,            \
                      SYMM_TYPE_##NAME, SYMM_OP_##OP);                                          \
    }
/* Scans sum. */
#define SCAN_SHELLS(NAME, T)                                                                     \
    SYMM_EXPORT int shmem_##NAME##_sum_inscan(shmem_team_t team, T *dest, const T *source,      \
                                              size_t nelems)                                    \
    {                                                                                           \
        scan(team, "shmem_" #NAME "_sum_inscan", dest, source, nelems, SYMM_TYPE_##NAME, 0);    \
        return 0;                                                                               \
    }                                                                                           \
    SYMM_EXPORT int shmem_##NAME##_sum_exscan(shmem_team_t team, T *dest, const T *source,      \
                                              size_t nelems)                                    \
    {                                                                                           \
        scan(team, "shmem_" #NAME "_sum_exscan", dest, source, nelems, SYMM_TYPE_##NAME, 1);    \
        return 0;                                                                               \
    }
#define REDUCE_ROW(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN,     \
                   SCAN, TOALL, TOBIT, OLD, DEV)                                                \
    SYMM_IF_##BITRED(SYMM_OPS_BITWISE(REDUCE_SHELL, NAME, T))                                   \
    SYMM_IF_##MINMAX(SYMM_OPS_MINMAX(REDUCE_SHELL, NAME, T))                                    \
    SYMM_IF_##SUMPROD(SYMM_OPS_SUMPROD(REDUCE_SHELL, NAME, T)) SYMM_IF_##SCAN(SCAN_SHELLS(NAME, T))
SYMM_TYPE_TABLE(REDUCE_ROW, _)
