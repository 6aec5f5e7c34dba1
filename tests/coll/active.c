/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The active-set collectives (PE_start, logPE_stride, PE_size, pSync): shmem_barrier,
 * broadcast32/64 (every root; the root's dest is left alone), collect32/64 (a different count
 * on each PE, 0 included), fcollect32/64, alltoall32/64, alltoalls32/64 (strides above 1) and
 * every shmem_TYPE_OP_to_all with pWrk (in place too), on the sets of one group (the argument):
 * world; strided (logPE_stride 1 and 2, from PE 0 and from PE 1, run at the same time on
 * disjoint sets, and a set of one PE); tail (all PEs but 0). One pSync array serves every call
 * of every kind. After each call this PE's pSync is SHMEM_SYNC_VALUE again (but the arrival
 * count on the set's first PE, which others may raise for the next call); where all the PEs
 * of the set meet (through a second pSync) every word is, on every PE. Long runs of calls of
 * mixed kinds go back to back. Reduction values are exact in every order, and every PE's
 * result bytes are compared with the set's first PE's.
 */
#include <complex.h>

#include "cases.h"

_Static_assert(SHMEM_BARRIER_SYNC_SIZE <= SHMEM_SYNC_SIZE &&
                   SHMEM_BCAST_SYNC_SIZE <= SHMEM_SYNC_SIZE &&
                   SHMEM_COLLECT_SYNC_SIZE <= SHMEM_SYNC_SIZE &&
                   SHMEM_REDUCE_SYNC_SIZE <= SHMEM_SYNC_SIZE &&
                   SHMEM_ALLTOALL_SYNC_SIZE <= SHMEM_SYNC_SIZE &&
                   SHMEM_ALLTOALLS_SYNC_SIZE <= SHMEM_SYNC_SIZE,
               "one pSync array serves every kind");

static long ps[SHMEM_SYNC_SIZE];  /* the pSync of every call under test */
static long ps2[SHMEM_SYNC_SIZE]; /* for the meetings around the checks */

#define MAXN 20000
static char *src, *dst; /* symmetric */
static char *wrk;        /* symmetric pWrk, large enough for every type and count */
static char *want, *peer;

static int me, npes;

typedef struct aset {
    const char *name;
    int start, log, size;
} aset_t;

typedef struct run {
    const aset_t *a;
    int idx;  /* this PE's index in the set */
    int salt;
} run_t;

static int set_pe(const aset_t *a, int i)
{
    return a->start + (i << a->log);
}

static void meet(const run_t *r)
{
    shmem_barrier(r->a->start, r->a->log, r->a->size, ps2);
}

/* After a call, on this PE: every pSync word is SHMEM_SYNC_VALUE again, but for the arrival
 * count on the set's first PE, which the others may already be raising for the next call. */
static void psync_clean(const run_t *r, const char *after)
{
    for (int i = 0; i < SHMEM_SYNC_SIZE; i++)
        EXPECT((i == 0 && r->idx == 0) || ps[i] == SHMEM_SYNC_VALUE,
               "%s on %s: pSync[%d] is %ld after the call", after, r->a->name, i, ps[i]);
}

/* Every PE of the set has returned from its last call: all of pSync is back on every PE. */
static void psync_meet(const run_t *r, const char *after)
{
    meet(r);
    for (int i = 0; i < SHMEM_SYNC_SIZE; i++)
        EXPECT(ps[i] == SHMEM_SYNC_VALUE, "%s on %s: pSync[%d] is %ld once all returned", after,
               r->a->name, i, ps[i]);
    /* Nobody starts the next call before everyone has looked. */
    meet(r);
}

/* ---- Data movement ---------------------------------------------------------------------- */
/* Element i of set PE j's source, as 64 bits (the 32-bit forms keep the low half). */
static uint64_t dval(int wpe, size_t i, int salt)
{
    return ((uint64_t)(wpe + 1) << 40) ^ ((uint64_t)salt << 20) ^ (i * 2654435761u);
}

static void fill(void *buf, int bits, size_t first, size_t n, ptrdiff_t stride, int wpe, int salt)
{
    for (size_t k = 0; k < n; k++) {
        uint64_t v = dval(wpe, first + k, salt);
        if (bits == 32)
            ((uint32_t *)buf)[k * stride] = (uint32_t)v;
        else
            ((uint64_t *)buf)[k * stride] = v;
    }
}

static void same(const run_t *r, const char *what, int bits, size_t nelems, const void *got,
                 const void *exp, size_t len)
{
    EXPECT(!memcmp(got, exp, len), "%s%d nelems %zu on %s (set pe %d): wrong result", what, bits,
           nelems, r->a->name, r->idx);
}

static void bcast(run_t *r, int bits, size_t nelems, int root)
{
    size_t len = nelems * bits / 8;

    r->salt++;
    fill(src, bits, 0, nelems, 1, me, r->salt);
    memset(dst, COLL_CANARY, len + COLL_GUARD);
    if (bits == 32)
        shmem_broadcast32(dst, src, nelems, root, r->a->start, r->a->log, r->a->size, ps);
    else
        shmem_broadcast64(dst, src, nelems, root, r->a->start, r->a->log, r->a->size, ps);
    if (r->idx == root) {
        EXPECT(coll_untouched(dst, len + COLL_GUARD),
               "broadcast%d on %s: the root's dest was written", bits, r->a->name);
    } else {
        fill(want, bits, 0, nelems, 1, set_pe(r->a, root), r->salt);
        same(r, "broadcast", bits, nelems, dst, want, len);
        EXPECT(coll_untouched(dst + len, COLL_GUARD), "broadcast%d on %s: wrote past dest",
               bits, r->a->name);
    }
    psync_clean(r, "broadcast");
}

static size_t count_of(int j, size_t nelems, int salt)
{
    return (j + salt) % 3 == 0 ? 0 : nelems + j;
}

static void collect(run_t *r, int bits, size_t nelems, int fixed)
{
    size_t off = 0, mine = fixed ? nelems : count_of(r->idx, nelems, r->salt + 1);
    int es = bits / 8;

    r->salt++;
    fill(src, bits, 0, mine, 1, me, r->salt);
    for (int j = 0; j < r->a->size; j++) {
        size_t c = fixed ? nelems : count_of(j, nelems, r->salt);
        fill(want + off * es, bits, 0, c, 1, set_pe(r->a, j), r->salt);
        off += c;
    }
    memset(dst, COLL_CANARY, off * es + COLL_GUARD);
    if (fixed && bits == 32)
        shmem_fcollect32(dst, src, nelems, r->a->start, r->a->log, r->a->size, ps);
    else if (fixed)
        shmem_fcollect64(dst, src, nelems, r->a->start, r->a->log, r->a->size, ps);
    else if (bits == 32)
        shmem_collect32(dst, src, mine, r->a->start, r->a->log, r->a->size, ps);
    else
        shmem_collect64(dst, src, mine, r->a->start, r->a->log, r->a->size, ps);
    same(r, fixed ? "fcollect" : "collect", bits, nelems, dst, want, off * es);
    EXPECT(coll_untouched(dst + off * es, COLL_GUARD), "%scollect%d on %s: wrote past dest",
           fixed ? "f" : "", bits, r->a->name);
    psync_clean(r, fixed ? "fcollect" : "collect");
}

/* alltoall (ds = ss = 0) or alltoalls with strides ds, ss. */
static void alltoall(run_t *r, int bits, size_t nelems, ptrdiff_t ds, ptrdiff_t ss)
{
    int n = r->a->size, es = bits / 8, strided = ds > 0;
    ptrdiff_t d = strided ? ds : 1, s = strided ? ss : 1;
    size_t span = (size_t)n * nelems * d * es;

    r->salt++;
    memset(src, COLL_CANARY, (size_t)n * nelems * s * es);
    memset(want, COLL_CANARY, span);
    for (int j = 0; j < n; j++) {
        fill(src + j * nelems * s * es, bits, 0, nelems, s, me * 64 + j, r->salt);
        fill(want + j * nelems * d * es, bits, 0, nelems, d, set_pe(r->a, j) * 64 + r->idx,
             r->salt);
    }
    memset(dst, COLL_CANARY, span + COLL_GUARD);
    if (strided && bits == 32)
        shmem_alltoalls32(dst, src, ds, ss, nelems, r->a->start, r->a->log, n, ps);
    else if (strided)
        shmem_alltoalls64(dst, src, ds, ss, nelems, r->a->start, r->a->log, n, ps);
    else if (bits == 32)
        shmem_alltoall32(dst, src, nelems, r->a->start, r->a->log, n, ps);
    else
        shmem_alltoall64(dst, src, nelems, r->a->start, r->a->log, n, ps);
    same(r, strided ? "alltoalls" : "alltoall", bits, nelems, dst, want, span);
    EXPECT(coll_untouched(dst + span, COLL_GUARD), "alltoall%s%d on %s: wrote past dest",
           strided ? "s" : "", bits, r->a->name);
    psync_clean(r, strided ? "alltoalls" : "alltoall");
}

static void barrier(run_t *r)
{
    static long arrived[TEST_MAX_PES];

    /* Everyone's arrival is visible to everyone after the barrier (it completes puts too). */
    r->salt++;
    for (int j = 0; j < r->a->size; j++)
        shmem_long_p(&arrived[me], r->salt, set_pe(r->a, j));
    shmem_barrier(r->a->start, r->a->log, r->a->size, ps);
    for (int j = 0; j < r->a->size; j++)
        EXPECT(arrived[set_pe(r->a, j)] >= r->salt, "barrier on %s: pe %d not arrived",
               r->a->name, set_pe(r->a, j));
    psync_clean(r, "barrier");
    /* The deprecated active-set shmem_sync waits for the set without completing puts: after a
     * quiet, every PE's value is there when it returns. */
    r->salt++;
    for (int j = 0; j < r->a->size; j++)
        shmem_long_p(&arrived[me], r->salt, set_pe(r->a, j));
    shmem_quiet();
    shmem_sync(r->a->start, r->a->log, r->a->size, ps);
    for (int j = 0; j < r->a->size; j++)
        EXPECT(arrived[set_pe(r->a, j)] >= r->salt, "shmem_sync on %s: pe %d not arrived",
               r->a->name, set_pe(r->a, j));
    psync_clean(r, "shmem_sync");
}

/* ---- Reductions -------------------------------------------------------------------------
 * Values exact in any order: small integers, and for floating point a multiple of 1/8 (sums)
 * or of 1/2 (products of at most a few such). */
/* The operators of the type table, in its order: OP_and ... OP_prod. */
#define OP_ID(A, B, OP) OP_##OP,
#define OP_NAME(A, B, OP) #OP,
enum { SYMM_OPS(OP_ID, _, _) NOPS };
static const char *const op_names[NOPS] = {SYMM_OPS(OP_NAME, _, _)};
#define AVAL(T, op, pe, i)                                                                       \
    ((op) <= OP_xor ? (T)(((uint64_t)((pe) + 1) * 0x9e3779b97f4a7c15ULL) >> ((i) % 29))          \
     : (op) <= OP_min                                                                           \
         ? (T)((T)(((pe) * 5 + (int)(i) * 3) % 17) - (T)(TEST_IS_SIGNED(T) ? 8 : 0))            \
     : (op) == OP_sum ? (T)((T)(((pe) * 3 + (int)(i)) % 11) + (T)((pe) + 1) / (T)8)             \
                      : (T)((T)((((pe) + (int)(i)) % 3 == 0) ? 2 : 1) *                         \
                                (T)((TEST_IS_SIGNED(T) && ((pe) + (int)(i)) % 4 == 1) ? -1 : 1) \
                            + (T)((pe) % 2) / (T)2))

typedef void (*to_all_fn)(void *d, const void *s, int n, int start, int log, int size,
                          void *wrk, long *psync);
typedef struct rdesc {
    const char *name;
    size_t size;
    to_all_fn op[NOPS];
    void (*fill)(void *buf, int op, int n, int pe);
    void (*expect)(void *buf, int op, int n, const run_t *r);
    int (*equal)(const void *a, const void *b, int n);
} rdesc_t;

#define TO_ALL_WRAP(NAME, T, OP)                                                                 \
    static void ta_##NAME##_##OP(void *d, const void *s, int n, int st, int lg, int sz,        \
                                 void *w, long *p)                                              \
    {                                                                                           \
        shmem_##NAME##_##OP##_to_all(d, s, n, st, lg, sz, w, p);                                \
    }
#define HELPERS(NAME, T, VALEXPR, COMBINE)                                                       \
    static void fill_##NAME(void *buf, int op, int n, int pe)                                  \
    {                                                                                           \
        T *b = buf;                                                                             \
        memset(buf, 0, (size_t)n * sizeof(T));                                                  \
        for (int i = 0; i < n; i++)                                                             \
            b[i] = VALEXPR;                                                                     \
    }                                                                                           \
    static void expect_##NAME(void *buf, int op, int n, const run_t *r)                        \
    {                                                                                           \
        T *b = buf;                                                                             \
        memset(buf, 0, (size_t)n * sizeof(T));                                                  \
        for (int i = 0; i < n; i++) {                                                           \
            int pe = set_pe(r->a, 0);                                                           \
            T acc = VALEXPR, v;                                                                 \
            for (int j = 1; j < r->a->size; j++) {                                              \
                pe = set_pe(r->a, j);                                                           \
                v = VALEXPR;                                                                    \
                COMBINE;                                                                        \
            }                                                                                   \
            b[i] = acc;                                                                         \
        }                                                                                       \
    }                                                                                           \
    static int equal_##NAME(const void *a, const void *b, int n)                               \
    {                                                                                           \
        const T *x = a, *y = b;                                                                 \
        for (int i = 0; i < n; i++)                                                             \
            if (!(x[i] == y[i]))                                                                \
                return 0;                                                                       \
        return 1;                                                                               \
    }
#define REAL_COMBINE(T)                                                                          \
    switch (op) {                                                                               \
    case OP_and: acc = (T)((uint64_t)acc & (uint64_t)v); break;                                 \
    case OP_or: acc = (T)((uint64_t)acc | (uint64_t)v); break;                                  \
    case OP_xor: acc = (T)((uint64_t)acc ^ (uint64_t)v); break;                                 \
    case OP_max: acc = acc > v ? acc : v; break;                                                \
    case OP_min: acc = acc < v ? acc : v; break;                                                \
    case OP_sum: acc = acc + v; break;                                                          \
    default: acc = acc * v; break;                                                              \
    }
/* The to_all types and ops, from the type table: and/or/xor where TOBIT, the MINMAX and
 * SUMPROD operators where TOALL; the complex rows (sum and prod) have values of their own. */
#define TO_ALL_OPS(M, NAME, T, MINMAX, SUMPROD, TOALL, TOBIT)                                    \
    SYMM_IF_##TOBIT(SYMM_OPS_BITWISE(M, NAME, T))                                               \
    SYMM_IF_##TOALL(SYMM_IF_##MINMAX(SYMM_OPS_MINMAX(M, NAME, T))                               \
                    SYMM_IF_##SUMPROD(SYMM_OPS_SUMPROD(M, NAME, T)))
#define REAL_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN,   \
                 TOALL, TOBIT, OLD, DEV)                                                        \
    SYMM_IF_##TOALL(HELPERS(NAME, T, AVAL(T, op, pe, i), REAL_COMBINE(T)))                      \
    TO_ALL_OPS(TO_ALL_WRAP, NAME, T, MINMAX, SUMPROD, TOALL, TOBIT)
SYMM_TYPE_TABLE_REAL(REAL_ROW, _)
#define CVAL(T, op, pe, i)                                                                       \
    ((T)((double)((pe) % 3 + 1) + (double)(((pe) + (i)) % 2) * I) *                            \
     ((op) == OP_sum ? (T)((double)((i) % 5) - 2.0 * I) : (T)1))
#define CPLX_COMBINE                                                                             \
    acc = op == OP_sum ? acc + v : acc * v;
#define CPLX_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN,   \
                 TOALL, TOBIT, OLD, DEV)                                                        \
    SYMM_IF_##TOALL(HELPERS(NAME, T, CVAL(T, op, pe, i), CPLX_COMBINE))                         \
    TO_ALL_OPS(TO_ALL_WRAP, NAME, T, MINMAX, SUMPROD, TOALL, TOBIT)
SYMM_TYPE_TABLE_COMPLEX(CPLX_ROW, _)

#define OP_ENTRY(NAME, T, OP) [OP_##OP] = ta_##NAME##_##OP,
#define DESC_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN,   \
                 TOALL, TOBIT, OLD, DEV)                                                        \
    SYMM_IF_##TOALL({#NAME, sizeof(T),                                                          \
                     {TO_ALL_OPS(OP_ENTRY, NAME, T, MINMAX, SUMPROD, TOALL, TOBIT)},            \
                     fill_##NAME, expect_##NAME, equal_##NAME}, )
static const rdesc_t rtypes[] = {SYMM_TYPE_TABLE(DESC_ROW, _)};
#define NRTYPES (sizeof(rtypes) / sizeof(rtypes[0]))

/* The to_all calls of one type each get a stretch of src and dst of their own; at the end
 * every result is compared with the set's first PE's. */
#define MAX_RESULTS 16
static size_t used;
static int nresults;
static struct result {
    const char *what;
    char *out;
    size_t len;
} results[MAX_RESULTS];

static void to_all(run_t *r, const rdesc_t *ty, int op, int nreduce, int in_place)
{
    size_t len = (size_t)nreduce * ty->size, off = used;
    char *s = src + off, *d = dst + off, *out = in_place ? s : d;

    used += (len + COLL_GUARD + 63) & ~(size_t)63;
    ty->fill(s, op, nreduce, me);
    memset(s + len, COLL_CANARY, COLL_GUARD);
    memset(d, COLL_CANARY, len + COLL_GUARD);
    ty->op[op](out, s, nreduce, r->a->start, r->a->log, r->a->size, wrk, ps);
    ty->expect(want, op, nreduce, r);
    EXPECT(ty->equal(out, want, nreduce), "shmem_%s_%s_to_all nreduce %d%s on %s: wrong result",
           ty->name, op_names[op], nreduce, in_place ? " in place" : "", r->a->name);
    EXPECT(coll_untouched(out + len, COLL_GUARD), "shmem_%s_%s_to_all on %s: wrote past dest",
           ty->name, op_names[op], r->a->name);
    psync_clean(r, "to_all");
    if (nresults < MAX_RESULTS)
        results[nresults++] = (struct result){op_names[op], out, len};
}

/* Bit-identical on every PE of the set: each result against the first PE's. */
static void to_all_identical(run_t *r, const rdesc_t *ty)
{
    meet(r);
    for (int k = 0; k < nresults; k++) {
        shmem_getmem(peer, results[k].out, results[k].len, set_pe(r->a, 0));
        EXPECT(!memcmp(peer, results[k].out, results[k].len),
               "shmem_%s_%s_to_all on %s: result bytes differ from pe %d's", ty->name,
               results[k].what, r->a->name, set_pe(r->a, 0));
    }
    meet(r);
    used = 0;
    nresults = 0;
}

/* ---- Runs ------------------------------------------------------------------------------- */
/* Every data kind at one size, both widths. Broadcast roots rotate over the calls; at one
 * size every root is used. */
static void data_kinds(run_t *r, size_t nelems, int every_root)
{
    for (int bits = 32; bits <= 64; bits += 32) {
        for (int root = 0; root < r->a->size; root++)
            if (every_root || root == (r->salt / 7) % r->a->size)
                bcast(r, bits, nelems, root);
        collect(r, bits, nelems, 0);
        collect(r, bits, nelems, 1);
        alltoall(r, bits, nelems, 0, 0);
        alltoall(r, bits, nelems, 2, 3);
        barrier(r);
    }
}

static void run_set(const aset_t *a)
{
    run_t r = {.a = a, .idx = (me - a->start) >> a->log, .salt = 0};

    data_kinds(&r, 0, 0);
    data_kinds(&r, 1, 0);
    data_kinds(&r, 7, 1);
    data_kinds(&r, 3000, 0);
    psync_meet(&r, "the data kinds");
    /* Every to_all: each op at one or 13 elements, and at 2000 for every other op. */
    for (size_t t = 0; t < NRTYPES; t++) {
        for (int op = 0; op < NOPS; op++) {
            if (!rtypes[t].op[op])
                continue;
            to_all(&r, &rtypes[t], op, (op + (int)t) % 3 ? 13 : 1, (op + (int)t) % 2);
            if ((op + (int)t) % 2 == 0)
                to_all(&r, &rtypes[t], op, 2000, (op + (int)t) % 4 == 0);
        }
        to_all_identical(&r, &rtypes[t]);
    }
    psync_meet(&r, "the reductions");
    /* The same pSync, call after call of every kind, no meeting in between. */
    for (int k = 0; k < 60; k++) {
        const rdesc_t *ty = &rtypes[k % NRTYPES];
        int op = k % NOPS;
        while (!ty->op[op])
            op = (op + 1) % NOPS;
        switch (k % 6) {
        case 0: bcast(&r, 32 + 32 * (k % 2), 1 + k % 9, k % a->size); break;
        case 1: collect(&r, 64, 1 + k % 5, k % 2); break;
        case 2: to_all(&r, ty, op, 1 + k % 17, k % 2); break;
        case 3: alltoall(&r, 32, 1 + k % 4, k % 3 ? 2 : 0, 3); break;
        case 4: barrier(&r); break;
        default: to_all(&r, ty, op, 500 + k, 0); break;
        }
        used = 0;
        nresults = 0;
    }
    psync_meet(&r, "60 calls of mixed kinds");
    for (int i = 0; i < SHMEM_SYNC_SIZE; i++)
        EXPECT(ps2[i] == SHMEM_SYNC_VALUE, "the meeting pSync[%d] is %ld", i, ps2[i]);
}

static int member(const aset_t *a)
{
    int d = me - a->start;

    return d >= 0 && d % (1 << a->log) == 0 && (d >> a->log) < a->size;
}

int main(int argc, char **argv)
{
    const char *group = argc > 1 ? argv[1] : NULL;
    char name[64];

    test_start();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    src = shmem_malloc(MAXN * 64 + COLL_GUARD);
    dst = shmem_malloc(MAXN * 64 + COLL_GUARD);
    wrk = shmem_malloc((MAXN / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE) * 32);
    want = malloc(MAXN * 64);
    peer = malloc(MAXN * 64);
    if (!src || !dst || !wrk || !want || !peer) {
        fprintf(stderr, "active: out of memory\n");
        return 1;
    }
    /* Groups of sets: the sets of one group are disjoint and run at the same time. The
     * argument picks groups: world, strided (logPE_stride 1 and 2) or tail (from PE 1). */
    const struct {
        const char *name;
        aset_t sets[3];
    } groups[] = {
        {"world", {{"the world", 0, 0, npes}}},
        {"strided",
         {{"evens (logPE_stride 1)", 0, 1, (npes + 1) / 2},
          {"odds (start 1, logPE_stride 1)", 1, 1, npes / 2}}},
        {"tail", {{"all but pe 0", 1, 0, npes - 1}}},
        {"strided",
         {{"every fourth (logPE_stride 2)", 0, 2, (npes + 3) / 4},
          {"every fourth from 1 (logPE_stride 2)", 1, 2, (npes + 2) / 4},
          {"the last pe alone", npes - 1, 0, 1}}},
    };
    for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
        if (group && strcmp(group, groups[g].name))
            continue;
        for (int k = 0; k < 3; k++) {
            const aset_t *a = &groups[g].sets[k];
            if (!a->name || a->size < 1 || !member(a))
                continue;
            /* The last PE alone overlaps the others at small job sizes. */
            if (k == 2 && (member(&groups[g].sets[0]) || member(&groups[g].sets[1])))
                continue;
            run_set(a);
        }
        shmem_barrier_all();
        /* shmem_sync with one argument is the team synchronisation. */
        EXPECT(shmem_sync(SHMEM_TEAM_WORLD) == 0, "shmem_sync(SHMEM_TEAM_WORLD) failed");
    }
    shmem_free(wrk);
    shmem_free(dst);
    shmem_free(src);
    free(want);
    free(peer);
    snprintf(name, sizeof(name), "coll_active %s", group ? group : "all");
    return test_finish(name);
}
