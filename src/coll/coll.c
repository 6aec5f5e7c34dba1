/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Team collectives over the flat window.
 *
 * Every collective call on a team has an epoch e (the team's count of collectives). A PE
 * entering it stores e in its slot's `posted` word; readers wait for the posted words they
 * need and then load the data straight from the writer's memory through the window.
 *
 * Small data (one PE's part fits SYMM_SCRATCH) goes through scratch buffers in the team slot,
 * two per PE, used by epoch parity: a PE copies its part into scratch[e & 1], posts e, and
 * reads the others' scratch. Its source buffer is free at once, so there is no closing
 * synchronisation; before it writes scratch[e & 1] again (at e + 2) it checks that every
 * member posted e + 1, which a member does only after it finished reading at e. One
 * synchronisation per call, no barrier.
 *
 * Large data is read from the users' own buffers, so a call ends when every member has posted
 * `done` (nobody reads its buffers any more). A large reduction is split: member i combines
 * slice i of every source, in team order, and the others copy the finished slices; every
 * element is combined in the same order on one PE, so all PEs get bit-identical results.
 */
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"

enum { OP_BCAST = 1, OP_FCOLLECT, OP_COLLECT, OP_ALLTOALL, OP_ALLTOALLS, OP_SCAN };

typedef struct coll {
    symm_team_t *t;
    const char *call;
    uint32_t e;
    int par;
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

static void post(const coll_t *c, _Atomic uint32_t *w)
{
    atomic_store_explicit(w, c->e, memory_order_seq_cst);
    for (int i = 0; i < c->t->size; i++)
        if (i != c->t->me)
            symm_wake(symm_team_pe(c->t, i), w, sizeof(*w));
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

static void wait_member(const coll_t *c, int i)
{
    symm_wait_reach(WORD(c, i, posted), c->e);
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
        symm_wait_reach(WORD(c, i, argued), c->e);
        check_args(c, i);
    }
}

static void wait_all(const coll_t *c, int field_done, uint32_t e)
{
    for (int i = 0; i < c->t->size; i++) {
        if (i == c->t->me)
            continue;
        symm_wait_reach(field_done ? WORD(c, i, done) : WORD(c, i, posted), e);
    }
}

/* Before scratch[e & 1] is written again: every member finished reading it at e - 2. */
static void scratch_guard(const coll_t *c)
{
    wait_all(c, 0, c->e - 1);
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
    mine->args[c->par].op = op;
    mine->args[c->par].nelems = nelems;
    mine->args[c->par].root = root;
    mine->args[c->par].count = count;
    if (symm_g.params.debug)
        check_all_args(c);
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

/* ---- broadcast ---------------------------------------------------------------------------- */
static void broadcast_body(shmem_team_t team, const char *call, void *dest,
                           const void *source, size_t nb, size_t es, int root)
{
    coll_t c;
    symm_team_t *t = symm_team_get(team, call);

    if (root < 0 || root >= t->size)
        symm_fatal("%s(team=%p, PE_root=%d): root is out of range (the team has %d PEs)", call,
                   (void *)team, root, t->size);
    if (dest != source)
        check_disjoint(call, dest, nb, source, nb);
    begin(&c, team, call, OP_BCAST, nb / es, root, 0);
    if (t->me == root) {
        if (nb <= SYMM_SCRATCH) {
            scratch_guard(&c);
            memcpy(slot_of(&c, t->me)->scratch[c.par], source, nb);
            post(&c, WORD(&c, t->me, posted));
        } else {
            post(&c, WORD(&c, t->me, posted));
        }
        if (dest != source)
            memcpy(dest, source, nb);
        if (nb > SYMM_SCRATCH)
            wait_all(&c, 1, c.e);
        return;
    }
    post(&c, WORD(&c, t->me, posted));
    wait_member(&c, root);
    if (nb <= SYMM_SCRATCH) {
        memcpy(dest, slot_of(&c, root)->scratch[c.par], nb);
    } else {
        memcpy(dest, remote(&c, source, nb, root), nb);
        post(&c, WORD(&c, t->me, done));
    }
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
    int small = part <= SYMM_SCRATCH;

    begin(&c, team, call, op, nb / es, 0, 0);
    t = c.t;
    n = t->size;
    me = t->me;
    check_disjoint(call, dest, nb * n, source, part);
    if (small) {
        scratch_guard(&c);
        memcpy(slot_of(&c, me)->scratch[c.par], source, part);
    }
    post(&c, WORD(&c, me, posted));
    memcpy((char *)dest + (size_t)me * nb, (const char *)source + pick * me, nb);
    /* With more PEs than CPUs, one barrier (each PE woken once) beats waiting for each member
     * in turn (a wake-up per member). */
    if (small && symm_g.oversubscribed)
        symm_team_barrier(t);
    for (int k = 1; k < n; k++) {
        int i = (me + k) % n;
        const char *from;
        wait_member(&c, i);
        from = small ? slot_of(&c, i)->scratch[c.par] : remote(&c, source, part, i);
        memcpy((char *)dest + (size_t)i * nb, from + pick * me, nb);
    }
    if (!small)
        finish(&c);
}

/* ---- collect (parts of any size) ---------------------------------------------------------- */
static void collect(shmem_team_t team, const char *call, void *dest, const void *source,
                    size_t nb)
{
    coll_t c;
    size_t off = 0;

    begin(&c, team, call, OP_COLLECT, 0, 0, nb);
    post(&c, WORD(&c, c.t->me, posted));
    for (int i = 0; i < c.t->size; i++) {
        size_t len;
        if (i != c.t->me)
            wait_member(&c, i);
        len = slot_of(&c, i)->args[c.par].count;
        if (i == c.t->me)
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

    scratch_guard(c);
    memcpy(slot_of(c, c->t->me)->scratch[c->par], source, nb);
    post(c, WORD(c, c->t->me, posted));
    if (symm_g.oversubscribed)
        symm_team_barrier(c->t);
    for (int i = 0; i < c->t->size; i++) {
        if (i != c->t->me)
            wait_member(c, i);
        if (i == 0)
            memcpy(dest, slot_of(c, 0)->scratch[c->par], nb);
        else
            fn(dest, slot_of(c, i)->scratch[c->par], nelems);
    }
}

static void reduce_large(coll_t *c, void *dest, const void *source, size_t nelems, size_t es,
                         symm_combine_fn fn)
{
    int n = c->t->size, me = c->t->me;
    size_t chunk = (nelems + n - 1) / n, lo, hi;
    char *tmp;

    chunk = (chunk + 63) & ~(size_t)63;
    post(c, WORD(c, me, posted));
    for (int i = 0; i < n; i++)
        if (i != me)
            wait_member(c, i);
    lo = chunk * me < nelems ? chunk * me : nelems;
    hi = lo + chunk < nelems ? lo + chunk : nelems;
    if (hi > lo) {
        /* In place, this PE's own source slice is read after the first one is copied: combine
         * in a private buffer then. */
        tmp = dest != source ? (char *)dest + lo * es : malloc((hi - lo) * es);
        if (!tmp)
            symm_fatal("%s: out of memory for %zu bytes", c->call, (hi - lo) * es);
        memcpy(tmp, remote(c, source, nelems * es, 0) + lo * es, (hi - lo) * es);
        for (int i = 1; i < n; i++)
            fn(tmp, remote(c, source, nelems * es, i) + lo * es, hi - lo);
        if (dest == source) {
            memcpy((char *)dest + lo * es, tmp, (hi - lo) * es);
            free(tmp);
        }
    }
    post(c, WORD(c, me, sliced));
    for (int k = 1; k < n; k++) {
        int i = (me + k) % n;
        size_t a = chunk * i < nelems ? chunk * i : nelems;
        size_t b = a + chunk < nelems ? a + chunk : nelems;
        symm_wait_reach(WORD(c, i, sliced), c->e);
        if (b > a)
            memcpy((char *)dest + a * es, remote(c, dest, nelems * es, i) + a * es, (b - a) * es);
    }
    finish(c);
}

void symm_coll_reduce(symm_team_t *t, const char *call, void *dest, const void *source,
                      size_t nelems, size_t es, symm_combine_fn fn, uint64_t op)
{
    coll_t c;
    size_t nb = bytes(call, nelems, es);

    if (dest != source)
        check_disjoint(call, dest, nb, source, nb);
    begin(&c, t, call, op, nelems, 0, 0);
    if (nelems == 0)
        post(&c, WORD(&c, t->me, posted));
    else if (nb <= SYMM_SCRATCH)
        reduce_small(&c, dest, source, nelems, es, fn);
    else
        reduce_large(&c, dest, source, nelems, es, fn);
}

static void and64(void *acc, const void *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ((uint64_t *)acc)[i] &= ((const uint64_t *)in)[i];
}

void symm_coll_and64(symm_team_t *t, uint64_t *out, uint64_t in)
{
    symm_coll_reduce(t, "shmem_team_split", out, &in, 1, sizeof(in), and64, 7);
}

static void max64(void *acc, const void *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (((const uint64_t *)in)[i] > ((uint64_t *)acc)[i])
            ((uint64_t *)acc)[i] = ((const uint64_t *)in)[i];
}

void symm_coll_max64(symm_team_t *t, uint64_t *out, uint64_t in)
{
    symm_coll_reduce(t, "shmem_team_split", out, &in, 1, sizeof(in), max64, 8);
}

/* ---- scans (OpenSHMEM 1.6) ------------------------------------------------------------------
 * Member me combines the sources of members 0..me (inclusive) or 0..me-1 (exclusive) in team
 * order; the result is written only after every member finished reading, so dest may be
 * source. */
static void scan(shmem_team_t team, const char *call, void *dest, const void *source,
                 size_t nelems, size_t es, symm_combine_fn fn, int exclusive)
{
    coll_t c;
    size_t nb = bytes(call, nelems, es);
    int last;
    char *tmp = calloc(1, nb ? nb : 1);

    if (!tmp)
        symm_fatal("%s: out of memory for %zu bytes", call, nb);
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

/* The [op][type] table: the only place per-type arithmetic lives. */
#define COMBINE_FN(NAME, T, OP, EXPR)                                                            \
    void symm_combine_##NAME##_##OP(void *acc, const void *in, size_t n);                       \
    void symm_combine_##NAME##_##OP(void *acc, const void *in, size_t n)                        \
    {                                                                                           \
        T *a = acc;                                                                             \
        const T *b = in;                                                                        \
        for (size_t i = 0; i < n; i++)                                                          \
            a[i] = EXPR;                                                                        \
    }
#define COMBINE(NAME, T, OP, EXPR)                                                               \
    COMBINE_FN(NAME, T, OP, EXPR)                                                               \
    SYMM_EXPORT int shmem_##NAME##_##OP##_reduce(shmem_team_t team, T *dest, const T *source,   \
                                                 size_t nreduce)                                \
    {                                                                                           \
        const char *call = "shmem_" #NAME "_" #OP "_reduce";                                    \
        symm_coll_reduce(symm_team_get(team, call), call, dest, source, nreduce, sizeof(T),     \
                         symm_combine_##NAME##_##OP, name_hash(call));                          \
        return 0;                                                                               \
    }
#define BIT_OPS(NAME, T)                                                                         \
    COMBINE(NAME, T, and, a[i] & b[i]) COMBINE(NAME, T, or, a[i] | b[i])                        \
    COMBINE(NAME, T, xor, a[i] ^ b[i])
#define MINMAX_OPS(NAME, T)                                                                      \
    COMBINE(NAME, T, max, a[i] > b[i] ? a[i] : b[i]) COMBINE(NAME, T, min, a[i] < b[i] ? a[i] : b[i])
#define SUMPROD_OPS(NAME, T) COMBINE(NAME, T, sum, a[i] + b[i]) COMBINE(NAME, T, prod, a[i] * b[i])
#define REDUCE_ROW(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)           \
    SYMM_IF_##BITRED(BIT_OPS(NAME, T)) SYMM_IF_##MINMAX(MINMAX_OPS(NAME, T))                   \
    SYMM_IF_##SUMPROD(SUMPROD_OPS(NAME, T))
SYMM_TYPES(REDUCE_ROW, _)
SUMPROD_OPS(complexd, double _Complex)
SUMPROD_OPS(complexf, float _Complex)
/* Signed bitwise combiners: the active-set forms (shmem_int_and_to_all) have them. */
#define BIT_FNS(NAME, T)                                                                         \
    COMBINE_FN(NAME, T, and, a[i] & b[i]) COMBINE_FN(NAME, T, or, a[i] | b[i])                  \
    COMBINE_FN(NAME, T, xor, a[i] ^ b[i])
BIT_FNS(short, short)
BIT_FNS(int, int)
BIT_FNS(long, long)
BIT_FNS(longlong, long long)

/* Scans use the sum combiners. */
#define SCAN_SHELLS(NAME, T)                                                                     \
    SYMM_EXPORT int shmem_##NAME##_sum_inscan(shmem_team_t team, T *dest, const T *source,      \
                                              size_t nelems)                                    \
    {                                                                                           \
        scan(team, "shmem_" #NAME "_sum_inscan", dest, source, nelems, sizeof(T),               \
             symm_combine_##NAME##_sum, 0);                                                          \
        return 0;                                                                               \
    }                                                                                           \
    SYMM_EXPORT int shmem_##NAME##_sum_exscan(shmem_team_t team, T *dest, const T *source,      \
                                              size_t nelems)                                    \
    {                                                                                           \
        scan(team, "shmem_" #NAME "_sum_exscan", dest, source, nelems, sizeof(T),               \
             symm_combine_##NAME##_sum, 1);                                                          \
        return 0;                                                                               \
    }
#define SCAN_ROW(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)             \
    SYMM_IF_##SUMPROD(SCAN_SHELLS(NAME, T))
SYMM_TYPES(SCAN_ROW, _)

