/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Atomics: every AMO of the type table for every type of its column, in every form (plain,
 * ctx, the fetching _nbi forms, the C11 _Generic selectors with and without a context) and
 * the deprecated names. In phase 0 all PEs hammer one object on PE 0, in phase 1 objects on
 * every PE; the final values are exact: fetch-adds tile the range they cover, compare-swap
 * increments see every value once, swap chains pass on a permutation of the values put in,
 * fetches see only values that were set, bitwise ops leave every PE's own bits as it left
 * them, and the bytes after each object stay untouched. A fixed sequence on the right
 * neighbour checks each operation's result with wide, negative and wrapping values.
 */
#include <string.h>

#include "../harness.h"

#define ITERS 240
#define SLOT 16 /* bytes per object: the object, then sentinel bytes */
#define SENTINEL 0xa5

/* Families: each type has one object per family, and a record per operation where needed. */
enum { G_FADD, G_ADD, G_CSWAP, G_SWAP, G_SETF, G_BIT, G_SEM, NG };
enum { INIT, RUN, CHECK };

#define ROW_ID(A, NAME, ...) TIX_##NAME,
#define OLD_ID(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN,     \
               TOALL, TOBIT, OLD, DEV)                                                          \
    SYMM_IF_##OLD(TIX_old_##NAME, )
enum { SYMM_TYPES(ROW_ID, _) SYMM_TYPE_TABLE(OLD_ID, _) TIX_old_shmem_swap, NTIX };

typedef unsigned long long ull;
#define BAD_TOKEN (~0ULL)

/* One operation as its target sees it: the value it fetched and the value it brought. */
typedef struct rec {
    ull old, val, used;
} rec_t;

static int me, npes, phase;
static shmem_ctx_t my_ctx;
static unsigned char *objs; /* symmetric: [NTIX][NG] slots */
static rec_t *recs;         /* symmetric: [NTIX][NG][npes][ITERS], on the target */
static size_t sizes[NTIX];
static ull bit_state[NTIX][TEST_MAX_PES]; /* my bits in each PE's object */

static void *slot(int tix, int g)
{
    return objs + ((size_t)tix * NG + g) * SLOT;
}

static rec_t *rec_at(int tix, int g, int pe, int i)
{
    return &recs[(((size_t)tix * NG + g) * npes + pe) * ITERS + i];
}

/* Phase 0: everyone on PE 0; phase 1: spread over every PE. */
static int target(int i)
{
    return phase == 0 ? 0 : (me + i) % npes;
}

static shmem_ctx_t pick_ctx(int i, int nforms)
{
    return (i / nforms) % 2 ? my_ctx : SHMEM_CTX_DEFAULT;
}

static void record(int tix, int g, int i, int pe, ull old, ull val)
{
    rec_t r = {old, val, 1};

    shmem_putmem(rec_at(tix, g, me, i), &r, sizeof(r), pe);
}

static size_t gather(int tix, int g, rec_t *out)
{
    size_t m = 0;

    for (int pe = 0; pe < npes; pe++)
        for (int i = 0; i < ITERS; i++)
            if (rec_at(tix, g, pe, i)->used)
                out[m++] = *rec_at(tix, g, pe, i);
    return m;
}

static int by_old(const void *a, const void *b)
{
    ull x = ((const rec_t *)a)->old, y = ((const rec_t *)b)->old;

    return (x > y) - (x < y);
}

static int by_ull(const void *a, const void *b)
{
    ull x = *(const ull *)a, y = *(const ull *)b;

    return (x > y) - (x < y);
}

static rec_t *scratch;
static ull *scratch_a, *scratch_b;

/* Fetching adds on this PE's object: sorted by the value fetched, each starts where the one
 * before ended, the first at `start`, the last ends at the final value. */
static void check_chain(const char *what, int tix, int g, ull start, ull final)
{
    size_t m = gather(tix, g, scratch);
    ull at = start;

    qsort(scratch, m, sizeof(*scratch), by_old);
    for (size_t k = 0; k < m; k++) {
        EXPECT(scratch[k].old == at, "%s: op %zu of %zu fetched %llu where %llu was due", what, k,
               m, scratch[k].old, at);
        if (scratch[k].old != at)
            return;
        at += scratch[k].val;
    }
    EXPECT(final == at, "%s: final value %llu, expected %llu after %zu ops", what, final, at, m);
}

/* Non-fetching adds: the final value is the start plus every amount. */
static void check_sum(const char *what, int tix, int g, ull start, ull final)
{
    size_t m = gather(tix, g, scratch);
    ull at = start;

    for (size_t k = 0; k < m; k++)
        at += scratch[k].val;
    EXPECT(final == at, "%s: final value %llu, expected %llu after %zu ops", what, final, at, m);
}

/* Swaps: the values taken out and the final one are the values put in and the initial 0. */
static void check_swaps(const char *what, int tix, ull final)
{
    size_t m = gather(tix, G_SWAP, scratch);

    for (size_t k = 0; k < m; k++) {
        scratch_a[k] = scratch[k].old;
        scratch_b[k] = scratch[k].val;
    }
    scratch_a[m] = final;
    scratch_b[m] = 0;
    qsort(scratch_a, m + 1, sizeof(ull), by_ull);
    qsort(scratch_b, m + 1, sizeof(ull), by_ull);
    for (size_t k = 0; k <= m; k++) {
        EXPECT(scratch_a[k] == scratch_b[k], "%s: after %zu swaps, value %llu was taken out "
               "where %llu was put in (sorted position %zu)", what, m, scratch_a[k], scratch_b[k],
               k);
        if (scratch_a[k] != scratch_b[k])
            return;
    }
}

/* Sets and fetches: every fetch saw 0 or a value some PE set; the final value was set. */
static void check_setf(const char *what, int tix, ull final)
{
    size_t m = gather(tix, G_SETF, scratch), nset = 0;

    for (size_t k = 0; k < m; k++)
        if (scratch[k].val)
            scratch_a[nset++] = scratch[k].val;
    qsort(scratch_a, nset, sizeof(ull), by_ull);
    for (size_t k = 0; k < m; k++) {
        ull seen = scratch[k].old;
        if (scratch[k].val)
            continue;
        EXPECT(seen == 0 || bsearch(&seen, scratch_a, nset, sizeof(ull), by_ull),
               "%s: a fetch returned token %llu that nobody set", what, seen);
    }
    EXPECT(nset ? bsearch(&final, scratch_a, nset, sizeof(ull), by_ull) != NULL : final == 0,
           "%s: final token %llu was not set (%zu sets)", what, final, nset);
}

/* 64-bit objects start below 2^32 so that a 32-bit carry is seen. */
static ull start_of(size_t size)
{
    return size >= 8 ? 0xFFFFFF00ULL : 0x10000ULL;
}

/* Tokens: value k spread over both halves of the object, so a torn value is no token. */
#define TOK_MULT(T) (TEST_IS_FLOAT(T) ? 1ULL : sizeof(T) >= 8 ? 0x100000001ULL : 0x10001ULL)
#define TOKEN(T, k) ((T)((ull)(k) * TOK_MULT(T)))
#define MAX_TOKEN ((ull)npes * ITERS)

/* ---- Family bodies: RUN hammers; FORMS is a switch on f over the forms of the family ---- */
#define FAM_FADD(ID, NAME, T, TIX, GEN, NF, FORMS)                                               \
    static void fadd_##ID(int step)                                                             \
    {                                                                                           \
        T *p = slot(TIX, G_FADD);                                                               \
        if (step == INIT) {                                                                     \
            sizes[TIX] = sizeof(T);                                                             \
            *p = (T)start_of(sizeof(T));                                                        \
            return;                                                                             \
        }                                                                                       \
        if (step == CHECK) {                                                                    \
            check_chain(#ID " fetch_inc/fetch_add", TIX, G_FADD, start_of(sizeof(T)), (ull)*p); \
            return;                                                                             \
        }                                                                                       \
        for (int i = 0; i < ITERS; i++) {                                                       \
            int t = target(i), f = i % (NF);                                                    \
            shmem_ctx_t ctx = pick_ctx(i, NF);                                                  \
            T r = 0, v = (T)(1 + (me + i) % 3);                                                 \
            FORMS(NAME, GEN)                                                                    \
            record(TIX, G_FADD, i, t, (ull)r, (ull)v);                                          \
        }                                                                                       \
    }

#define FAM_ADD(ID, NAME, T, TIX, GEN, NF, FORMS)                                                \
    static void add_##ID(int step)                                                              \
    {                                                                                           \
        T *p = slot(TIX, G_ADD);                                                                \
        if (step == INIT) {                                                                     \
            *p = (T)start_of(sizeof(T));                                                        \
            return;                                                                             \
        }                                                                                       \
        if (step == CHECK) {                                                                    \
            check_sum(#ID " inc/add", TIX, G_ADD, start_of(sizeof(T)), (ull)*p);                \
            return;                                                                             \
        }                                                                                       \
        for (int i = 0; i < ITERS; i++) {                                                       \
            int t = target(i), f = i % (NF);                                                    \
            shmem_ctx_t ctx = pick_ctx(i, NF);                                                  \
            T v = (T)(1 + (me + i) % 3);                                                        \
            FORMS(NAME, GEN)                                                                    \
            record(TIX, G_ADD, i, t, 0, (ull)v);                                                \
        }                                                                                       \
    }

/* Increments by compare-and-swap: each success takes one value, so they form a chain too. */
#define FAM_CSWAP(ID, NAME, T, TIX, GEN, NF, FORMS)                                              \
    static void cswap_##ID(int step)                                                            \
    {                                                                                           \
        T *p = slot(TIX, G_CSWAP), guess[TEST_MAX_PES];                                         \
        if (step == INIT) {                                                                     \
            *p = (T)start_of(sizeof(T));                                                        \
            return;                                                                             \
        }                                                                                       \
        if (step == CHECK) {                                                                    \
            check_chain(#ID " compare_swap", TIX, G_CSWAP, start_of(sizeof(T)), (ull)*p);       \
            return;                                                                             \
        }                                                                                       \
        for (int pe = 0; pe < npes; pe++)                                                       \
            guess[pe] = (T)start_of(sizeof(T));                                                 \
        for (int i = 0; i < ITERS; i++) {                                                       \
            int t = target(i), f = i % (NF);                                                    \
            shmem_ctx_t ctx = pick_ctx(i, NF);                                                  \
            T cur = guess[t], got = 0, next;                                                    \
            for (;;) {                                                                          \
                next = (T)(cur + 1);                                                            \
                FORMS(NAME, GEN)                                                                \
                if (got == cur)                                                                 \
                    break;                                                                      \
                cur = got;                                                                      \
            }                                                                                   \
            guess[t] = (T)(cur + 1);                                                            \
            record(TIX, G_CSWAP, i, t, (ull)cur, 1);                                            \
        }                                                                                       \
    }

#define FAM_SWAP(ID, NAME, T, TIX, GEN, NF, FORMS)                                               \
    static void swap_##ID(int step)                                                             \
    {                                                                                           \
        T *p = slot(TIX, G_SWAP);                                                               \
        if (step == INIT) {                                                                     \
            sizes[TIX] = sizeof(T);                                                             \
            *p = TOKEN(T, 0);                                                                   \
            return;                                                                             \
        }                                                                                       \
        if (step == CHECK) {                                                                    \
            check_swaps(#ID " swap", TIX, untok_##NAME(*p));                                    \
            return;                                                                             \
        }                                                                                       \
        for (int i = 0; i < ITERS; i++) {                                                       \
            int t = target(i), f = i % (NF);                                                    \
            shmem_ctx_t ctx = pick_ctx(i, NF);                                                  \
            ull k = 1 + (ull)me * ITERS + (ull)i;                                               \
            T tok = TOKEN(T, k), r = 0;                                                         \
            FORMS(NAME, GEN)                                                                    \
            record(TIX, G_SWAP, i, t, untok_##NAME(r), k);                                      \
        }                                                                                       \
    }

/* Sets and fetches mixed on one object: a set records its token, a fetch what it saw. */
#define FAM_SETF(ID, NAME, T, TIX, GEN, NF, FORMS)                                               \
    static void setf_##ID(int step)                                                             \
    {                                                                                           \
        T *p = slot(TIX, G_SETF);                                                               \
        if (step == INIT) {                                                                     \
            *p = TOKEN(T, 0);                                                                   \
            return;                                                                             \
        }                                                                                       \
        if (step == CHECK) {                                                                    \
            check_setf(#ID " set/fetch", TIX, untok_##NAME(*p));                                \
            return;                                                                             \
        }                                                                                       \
        for (int i = 0; i < ITERS; i++) {                                                       \
            int t = target(i), f = i % (NF), fetched = 0;                                       \
            shmem_ctx_t ctx = pick_ctx(i, NF);                                                  \
            ull k = 1 + (ull)me * ITERS + (ull)i;                                               \
            T tok = TOKEN(T, k), r = 0;                                                         \
            FORMS(NAME, GEN)                                                                    \
            if (fetched) {                                                                      \
                EXPECT(untok_##NAME(r) != BAD_TOKEN, #ID ": fetched %Lg, no token",             \
                       (long double)r);                                                         \
                record(TIX, G_SETF, i, t, untok_##NAME(r), 0);                                  \
            } else {                                                                            \
                record(TIX, G_SETF, i, t, 0, k);                                                \
            }                                                                                   \
        }                                                                                       \
    }

/* ---- Forms of the current names ------------------------------------------------------- */
#define FADD_FORMS(NAME, GEN)                                                                    \
    switch (f) {                                                                                \
    case 0: v = 1; r = shmem_##NAME##_atomic_fetch_inc(p, t); break;                            \
    case 1: v = 1; r = shmem_ctx_##NAME##_atomic_fetch_inc(ctx, p, t); break;                   \
    case 2: v = 1; shmem_##NAME##_atomic_fetch_inc_nbi(&r, p, t); shmem_quiet(); break;         \
    case 3:                                                                                     \
        v = 1;                                                                                  \
        shmem_ctx_##NAME##_atomic_fetch_inc_nbi(ctx, &r, p, t);                                 \
        shmem_ctx_quiet(ctx);                                                                   \
        break;                                                                                  \
    case 4: r = shmem_##NAME##_atomic_fetch_add(p, v, t); break;                                \
    case 5: r = shmem_ctx_##NAME##_atomic_fetch_add(ctx, p, v, t); break;                       \
    case 6: shmem_##NAME##_atomic_fetch_add_nbi(&r, p, v, t); shmem_quiet(); break;             \
    case 7:                                                                                     \
        shmem_ctx_##NAME##_atomic_fetch_add_nbi(ctx, &r, p, v, t);                              \
        shmem_ctx_quiet(ctx);                                                                   \
        break;                                                                                  \
    SYMM_IF_##GEN(                                                                              \
    case 8: v = 1; r = shmem_atomic_fetch_inc(p, t); break;                                     \
    case 9: v = 1; r = shmem_atomic_fetch_inc(ctx, p, t); break;                                \
    case 10: v = 1; shmem_atomic_fetch_inc_nbi(&r, p, t); shmem_quiet(); break;                 \
    case 11: v = 1; shmem_atomic_fetch_inc_nbi(ctx, &r, p, t); shmem_ctx_quiet(ctx); break;     \
    case 12: r = shmem_atomic_fetch_add(p, v, t); break;                                        \
    case 13: r = shmem_atomic_fetch_add(ctx, p, v, t); break;                                   \
    case 14: shmem_atomic_fetch_add_nbi(&r, p, v, t); shmem_quiet(); break;                     \
    case 15: shmem_atomic_fetch_add_nbi(ctx, &r, p, v, t); shmem_ctx_quiet(ctx); break;)        \
    }

#define ADD_FORMS(NAME, GEN)                                                                     \
    switch (f) {                                                                                \
    case 0: v = 1; shmem_##NAME##_atomic_inc(p, t); break;                                      \
    case 1: v = 1; shmem_ctx_##NAME##_atomic_inc(ctx, p, t); break;                             \
    case 2: shmem_##NAME##_atomic_add(p, v, t); break;                                          \
    case 3: shmem_ctx_##NAME##_atomic_add(ctx, p, v, t); break;                                 \
    SYMM_IF_##GEN(                                                                              \
    case 4: v = 1; shmem_atomic_inc(p, t); break;                                               \
    case 5: v = 1; shmem_atomic_inc(ctx, p, t); break;                                          \
    case 6: shmem_atomic_add(p, v, t); break;                                                   \
    case 7: shmem_atomic_add(ctx, p, v, t); break;)                                             \
    }

#define CSWAP_FORMS(NAME, GEN)                                                                   \
    switch (f) {                                                                                \
    case 0: got = shmem_##NAME##_atomic_compare_swap(p, cur, next, t); break;           \
    case 1: got = shmem_ctx_##NAME##_atomic_compare_swap(ctx, p, cur, next, t); break;  \
    case 2:                                                                                     \
        shmem_##NAME##_atomic_compare_swap_nbi(&got, p, cur, next, t);                  \
        shmem_quiet();                                                                          \
        break;                                                                                  \
    case 3:                                                                                     \
        shmem_ctx_##NAME##_atomic_compare_swap_nbi(ctx, &got, p, cur, next, t);         \
        shmem_ctx_quiet(ctx);                                                                   \
        break;                                                                                  \
    SYMM_IF_##GEN(                                                                              \
    case 4: got = shmem_atomic_compare_swap(p, cur, next, t); break;                    \
    case 5: got = shmem_atomic_compare_swap(ctx, p, cur, next, t); break;               \
    case 6:                                                                                     \
        shmem_atomic_compare_swap_nbi(&got, p, cur, next, t);                           \
        shmem_quiet();                                                                          \
        break;                                                                                  \
    case 7:                                                                                     \
        shmem_atomic_compare_swap_nbi(ctx, &got, p, cur, next, t);                      \
        shmem_ctx_quiet(ctx);                                                                   \
        break;)                                                                                 \
    }

#define SWAP_FORMS(NAME, GEN)                                                                    \
    switch (f) {                                                                                \
    case 0: r = shmem_##NAME##_atomic_swap(p, tok, t); break;                                   \
    case 1: r = shmem_ctx_##NAME##_atomic_swap(ctx, p, tok, t); break;                          \
    case 2: shmem_##NAME##_atomic_swap_nbi(&r, p, tok, t); shmem_quiet(); break;                \
    case 3: shmem_ctx_##NAME##_atomic_swap_nbi(ctx, &r, p, tok, t); shmem_ctx_quiet(ctx); break;\
    SYMM_IF_##GEN(                                                                              \
    case 4: r = shmem_atomic_swap(p, tok, t); break;                                            \
    case 5: r = shmem_atomic_swap(ctx, p, tok, t); break;                                       \
    case 6: shmem_atomic_swap_nbi(&r, p, tok, t); shmem_quiet(); break;                         \
    case 7: shmem_atomic_swap_nbi(ctx, &r, p, tok, t); shmem_ctx_quiet(ctx); break;)            \
    }

#define SETF_FORMS(NAME, GEN)                                                                    \
    switch (f) {                                                                                \
    case 0: shmem_##NAME##_atomic_set(p, tok, t); break;                                        \
    case 1: fetched = 1; r = shmem_##NAME##_atomic_fetch(p, t); break;                          \
    case 2: shmem_ctx_##NAME##_atomic_set(ctx, p, tok, t); break;                               \
    case 3: fetched = 1; r = shmem_ctx_##NAME##_atomic_fetch(ctx, p, t); break;                 \
    case 4: fetched = 1; shmem_##NAME##_atomic_fetch_nbi(&r, p, t); shmem_quiet(); break;       \
    case 5:                                                                                     \
        fetched = 1;                                                                            \
        shmem_ctx_##NAME##_atomic_fetch_nbi(ctx, &r, p, t);                                     \
        shmem_ctx_quiet(ctx);                                                                   \
        break;                                                                                  \
    SYMM_IF_##GEN(                                                                              \
    case 6: shmem_atomic_set(p, tok, t); break;                                                 \
    case 7: fetched = 1; r = shmem_atomic_fetch(p, t); break;                                   \
    case 8: shmem_atomic_set(ctx, p, tok, t); break;                                            \
    case 9: fetched = 1; r = shmem_atomic_fetch(ctx, p, t); break;                              \
    case 10: fetched = 1; shmem_atomic_fetch_nbi(&r, p, t); shmem_quiet(); break;               \
    case 11: fetched = 1; shmem_atomic_fetch_nbi(ctx, &r, p, t); shmem_ctx_quiet(ctx); break;)  \
    }

/* ---- Forms of the deprecated names ------------------------------------------------------ */
#define OLD_FADD_FORMS(NAME, GEN)                                                                \
    if (f == 0) {                                                                               \
        v = 1;                                                                                  \
        r = shmem_##NAME##_finc(p, t);                                                          \
    } else {                                                                                    \
        r = shmem_##NAME##_fadd(p, v, t);                                                       \
    }                                                                                           \
    (void)ctx;
#define OLD_ADD_FORMS(NAME, GEN)                                                                 \
    if (f == 0) {                                                                               \
        v = 1;                                                                                  \
        shmem_##NAME##_inc(p, t);                                                               \
    } else {                                                                                    \
        shmem_##NAME##_add(p, v, t);                                                            \
    }                                                                                           \
    (void)ctx;
#define OLD_CSWAP_FORMS(NAME, GEN) got = shmem_##NAME##_cswap(p, cur, next, t); (void)ctx, (void)f;
#define OLD_SWAP_FORMS(NAME, GEN) r = shmem_##NAME##_swap(p, tok, t); (void)ctx, (void)f;
#define PLAIN_SWAP_FORMS(NAME, GEN) r = shmem_swap(p, tok, t); (void)ctx, (void)f;
#define OLD_SETF_FORMS(NAME, GEN)                                                                \
    if (f == 0) {                                                                               \
        shmem_##NAME##_set(p, tok, t);                                                          \
    } else {                                                                                    \
        fetched = 1;                                                                            \
        r = shmem_##NAME##_fetch(p, t);                                                         \
    }                                                                                           \
    (void)ctx;

/* ---- Bitwise: each PE owns two bits of every object; and clears, or sets, xor flips ---- */
#define BIT_FORMS(NAME, GEN, OP)                                                                 \
    switch (f) {                                                                                \
    case 0: fetched = 1; r = shmem_##NAME##_atomic_fetch_##OP(p, x, t); break;                  \
    case 1: fetched = 1; r = shmem_ctx_##NAME##_atomic_fetch_##OP(ctx, p, x, t); break;         \
    case 2:                                                                                     \
        fetched = 1;                                                                            \
        shmem_##NAME##_atomic_fetch_##OP##_nbi(&r, p, x, t);                                    \
        shmem_quiet();                                                                          \
        break;                                                                                  \
    case 3:                                                                                     \
        fetched = 1;                                                                            \
        shmem_ctx_##NAME##_atomic_fetch_##OP##_nbi(ctx, &r, p, x, t);                           \
        shmem_ctx_quiet(ctx);                                                                   \
        break;                                                                                  \
    case 4: shmem_##NAME##_atomic_##OP(p, x, t); break;                                         \
    case 5: shmem_ctx_##NAME##_atomic_##OP(ctx, p, x, t); break;                                \
    SYMM_IF_##GEN(                                                                              \
    case 6: fetched = 1; r = shmem_atomic_fetch_##OP(p, x, t); break;                           \
    case 7: fetched = 1; r = shmem_atomic_fetch_##OP(ctx, p, x, t); break;                      \
    case 8: fetched = 1; shmem_atomic_fetch_##OP##_nbi(&r, p, x, t); shmem_quiet(); break;      \
    case 9:                                                                                     \
        fetched = 1;                                                                            \
        shmem_atomic_fetch_##OP##_nbi(ctx, &r, p, x, t);                                        \
        shmem_ctx_quiet(ctx);                                                                   \
        break;                                                                                  \
    case 10: shmem_atomic_##OP(p, x, t); break;                                                 \
    case 11: shmem_atomic_##OP(ctx, p, x, t); break;)                                           \
    }

#define PATTERN 0x5A3C5A3C5A3C5A3CULL

static ull bit_mask(int pe, size_t size)
{
    unsigned w = (unsigned)size * 8, b = (unsigned)pe % (w / 2);

    return (1ULL << b) | (1ULL << (w - 1 - b));
}

static ull bits_owned(size_t size)
{
    ull m = 0;

    for (int pe = 0; pe < npes && pe < (int)size * 4; pe++)
        m |= bit_mask(pe, size);
    return m;
}

#define FAM_BIT(NAME, T, GEN)                                                                    \
    static void bit_##NAME(int step)                                                            \
    {                                                                                           \
        const int nf = 6 + 6 * GEN;                                                             \
        T *p = slot(TIX_##NAME, G_BIT), m = (T)bit_mask(me, sizeof(T));                         \
        T others = (T)~bits_owned(sizeof(T));                                                   \
        ull *st = bit_state[TIX_##NAME];                                                        \
        if (me >= (int)sizeof(T) * 4)                                                           \
            m = 0; /* more PEs than bit pairs: this one only watches */                         \
        if (step == INIT) {                                                                     \
            *p = (T)PATTERN & others;                                                           \
            for (int pe = 0; pe < npes; pe++)                                                   \
                st[pe] = 0;                                                                     \
            return;                                                                             \
        }                                                                                       \
        if (step == CHECK) {                                                                    \
            EXPECT((*p & others) == ((T)PATTERN & others), #NAME " bitwise: bits nobody owns "  \
                   "changed: %#llx", (ull)*p);                                                  \
            for (int pe = 0; pe < npes; pe++) {                                                 \
                T v = shmem_##NAME##_atomic_fetch(p, pe);                                       \
                EXPECT((ull)(v & m) == st[pe], #NAME " bitwise: my bits on pe %d are %#llx, "   \
                       "expected %#llx", pe, (ull)(v & m), st[pe]);                             \
            }                                                                                   \
            return;                                                                             \
        }                                                                                       \
        for (int i = 0; i < ITERS; i++) {                                                       \
            int t = target(i), kind = i % 3, f = (i / 3) % nf, fetched = 0;                     \
            shmem_ctx_t ctx = pick_ctx(i / 3, nf);                                              \
            T r = 0, x;                                                                         \
            ull next;                                                                           \
            if (kind == 0) {                                                                    \
                x = (T)~m;                                                                      \
                next = 0;                                                                       \
                BIT_FORMS(NAME, GEN, and)                                                       \
            } else if (kind == 1) {                                                             \
                x = m;                                                                          \
                next = (ull)m;                                                                  \
                BIT_FORMS(NAME, GEN, or)                                                        \
            } else {                                                                            \
                x = m;                                                                          \
                next = st[t] ^ (ull)m;                                                          \
                BIT_FORMS(NAME, GEN, xor)                                                       \
            }                                                                                   \
            if (fetched)                                                                        \
                EXPECT((ull)(r & m) == st[t], #NAME " bitwise op %d form %d on pe %d: my bits " \
                       "%#llx, expected %#llx", kind, f, t, (ull)(r & m), st[t]);               \
            st[t] = next;                                                                       \
        }                                                                                       \
    }

/* ---- Fixed sequences on the right neighbour (its slot is touched by this PE only) ------- */
#define SEM_EXT(NAME, T)                                                                         \
    static void sem_ext_##NAME(int step)                                                        \
    {                                                                                           \
        T *p = slot(TIX_##NAME, G_SEM), r = 0;                                                  \
        T a = TEST_IS_FLOAT(T) ? (T)1.5 : (T)0x0123456789ABCDEFULL;                             \
        T b = TEST_IS_FLOAT(T) ? (T)-2.25 : (T)0xFEDCBA9876543210ULL;                           \
        int t = (me + 1) % npes;                                                                \
        if (step != RUN)                                                                        \
            return;                                                                             \
        shmem_##NAME##_atomic_set(p, a, t);                                                     \
        EXPECT(shmem_##NAME##_atomic_fetch(p, t) == a, #NAME ": fetch after set");              \
        EXPECT(shmem_##NAME##_atomic_swap(p, b, t) == a, #NAME ": swap returns the old value"); \
        EXPECT(shmem_ctx_##NAME##_atomic_fetch(my_ctx, p, t) == b, #NAME ": fetch after swap"); \
        shmem_ctx_##NAME##_atomic_swap_nbi(my_ctx, &r, p, a, t);                                \
        shmem_ctx_quiet(my_ctx);                                                                \
        EXPECT(r == b, #NAME ": swap_nbi returns the old value");                                \
        shmem_##NAME##_atomic_fetch_nbi(&r, p, t);                                              \
        shmem_quiet();                                                                          \
        EXPECT(r == a, #NAME ": fetch_nbi after swap_nbi");                                     \
    }

#define SEM_AMO(NAME, T)                                                                         \
    static void sem_amo_##NAME(int step)                                                        \
    {                                                                                           \
        T *p = slot(TIX_##NAME, G_SEM), w = (T)0x7EDCBA9876543210ULL, y = (T)100, r = 0;        \
        int t = (me + 1) % npes;                                                                \
        if (step != RUN)                                                                        \
            return;                                                                             \
        shmem_##NAME##_atomic_set(p, w, t);                                                     \
        EXPECT(shmem_##NAME##_atomic_compare_swap(p, (T)(w + 1), y, t) == w,                    \
               #NAME ": failing compare_swap returns the current value");                       \
        EXPECT(shmem_##NAME##_atomic_fetch(p, t) == w, #NAME ": failing compare_swap wrote");   \
        EXPECT(shmem_##NAME##_atomic_compare_swap(p, w, y, t) == w,                             \
               #NAME ": compare_swap returns the old value");                                   \
        EXPECT(shmem_##NAME##_atomic_fetch_inc(p, t) == y, #NAME ": compare_swap did not swap"); \
        shmem_##NAME##_atomic_inc(p, t);                                                        \
        EXPECT(shmem_##NAME##_atomic_fetch_add(p, (T)1000, t) == (T)(y + 2), #NAME ": inc");    \
        shmem_##NAME##_atomic_add(p, (T)-3, t);                                                 \
        EXPECT(shmem_##NAME##_atomic_fetch(p, t) == (T)(y + 999), #NAME ": add of -3 gave %Lg", \
               (long double)shmem_##NAME##_atomic_fetch(p, t));                                 \
        shmem_##NAME##_atomic_set(p, (T)-1, t);                                                 \
        shmem_##NAME##_atomic_inc(p, t);                                                        \
        EXPECT(shmem_##NAME##_atomic_fetch(p, t) == 0, #NAME ": -1 + 1 is %Lg",                 \
               (long double)shmem_##NAME##_atomic_fetch(p, t));                                 \
        shmem_##NAME##_atomic_fetch_add_nbi(&r, p, (T)-1, t);                                   \
        shmem_quiet();                                                                          \
        EXPECT(r == 0 && shmem_##NAME##_atomic_fetch(p, t) == (T)-1, #NAME ": 0 - 1");          \
        shmem_##NAME##_atomic_compare_swap_nbi(&r, p, (T)-1, w, t);                             \
        shmem_##NAME##_atomic_fetch_inc_nbi(&y, p, t);                                          \
        shmem_quiet();                                                                          \
        EXPECT(r == (T)-1 && y == w && shmem_##NAME##_atomic_fetch(p, t) == (T)(w + 1),         \
               #NAME ": compare_swap_nbi, fetch_inc_nbi on a wide value");                      \
    }

#define SEM_BIT(NAME, T)                                                                         \
    static void sem_bit_##NAME(int step)                                                        \
    {                                                                                           \
        T *p = slot(TIX_##NAME, G_SEM), r = 0, v = (T)0xF0F0F0F0F0F0F0F0ULL;                    \
        T q = (T)0xFF00FF00FF00FF00ULL, o = (T)0x0F0000000000000FULL;                           \
        int t = (me + 1) % npes;                                                                \
        if (step != RUN)                                                                        \
            return;                                                                             \
        shmem_##NAME##_atomic_set(p, v, t);                                                     \
        EXPECT(shmem_##NAME##_atomic_fetch_and(p, q, t) == v, #NAME ": fetch_and");             \
        v &= q;                                                                                 \
        EXPECT(shmem_##NAME##_atomic_fetch_or(p, o, t) == v, #NAME ": fetch_and result");       \
        v |= o;                                                                                 \
        EXPECT(shmem_##NAME##_atomic_fetch_xor(p, q, t) == v, #NAME ": fetch_or result");       \
        v ^= q;                                                                                 \
        shmem_##NAME##_atomic_and(p, (T)~o, t);                                                 \
        v &= (T)~o;                                                                             \
        shmem_##NAME##_atomic_or(p, (T)1, t);                                                   \
        v |= (T)1;                                                                              \
        shmem_##NAME##_atomic_xor(p, (T)-1, t);                                                 \
        v ^= (T)-1;                                                                             \
        shmem_##NAME##_atomic_fetch_xor_nbi(&r, p, (T)0, t);                                    \
        shmem_quiet();                                                                          \
        EXPECT(r == v, #NAME ": and/or/xor gave %#llx, expected %#llx", (ull)r, (ull)v);        \
    }

/* ---- Expansion over the type table --------------------------------------------------------- */
#define UNTOK(NAME, T)                                                                           \
    static ull untok_##NAME(T v)                                                                \
    {                                                                                           \
        long double d = (long double)v, mult = (long double)TOK_MULT(T);                        \
        ull u;                                                                                  \
        if (!(d >= 0) || d > (long double)MAX_TOKEN * mult)                                     \
            return BAD_TOKEN;                                                                   \
        u = (ull)v;                                                                             \
        if ((T)u != v || u % TOK_MULT(T))                                                       \
            return BAD_TOKEN;                                                                   \
        return u / TOK_MULT(T);                                                                 \
    }

#define DEF_EXT(NAME, T, GEN)                                                                    \
    UNTOK(NAME, T)                                                                              \
    FAM_SWAP(NAME, NAME, T, TIX_##NAME, GEN, 4 + 4 * GEN, SWAP_FORMS)                           \
    FAM_SETF(NAME, NAME, T, TIX_##NAME, GEN, 6 + 6 * GEN, SETF_FORMS)                           \
    SEM_EXT(NAME, T)
#define DEF_AMO(NAME, T, GEN)                                                                    \
    FAM_FADD(NAME, NAME, T, TIX_##NAME, GEN, 8 + 8 * GEN, FADD_FORMS)                           \
    FAM_ADD(NAME, NAME, T, TIX_##NAME, GEN, 4 + 4 * GEN, ADD_FORMS)                             \
    FAM_CSWAP(NAME, NAME, T, TIX_##NAME, GEN, 4 + 4 * GEN, CSWAP_FORMS)                         \
    SEM_AMO(NAME, T)
#define DEF_BIT(NAME, T, GEN) FAM_BIT(NAME, T, GEN) SEM_BIT(NAME, T)
#define DEF_ROW(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)          \
    SYMM_IF_##EXT(DEF_EXT(NAME, T, GEN)) SYMM_IF_##AMO(DEF_AMO(NAME, T, GEN))                   \
    SYMM_IF_##BIT(DEF_BIT(NAME, T, GEN))
TEST_EXPAND(SYMM_TYPES(TEST_DEFER_ROW, DEF_ROW))

/* The deprecated names, for the rows with OLD: swap, fetch and set, and where AMO is set the
 * fetch-add, add and compare-swap families too. */
#define DEF_OLD_ANY(NAME, T)                                                                     \
    FAM_SWAP(old_##NAME, NAME, T, TIX_old_##NAME, 0, 1, OLD_SWAP_FORMS)                         \
    FAM_SETF(old_##NAME, NAME, T, TIX_old_##NAME, 0, 2, OLD_SETF_FORMS)
#define DEF_OLD_INT(NAME, T)                                                                     \
    FAM_FADD(old_##NAME, NAME, T, TIX_old_##NAME, 0, 2, OLD_FADD_FORMS)                         \
    FAM_ADD(old_##NAME, NAME, T, TIX_old_##NAME, 0, 2, OLD_ADD_FORMS)                           \
    FAM_CSWAP(old_##NAME, NAME, T, TIX_old_##NAME, 0, 1, OLD_CSWAP_FORMS)
#define DEF_OLD_ROW(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN,     \
                    SCAN, TOALL, TOBIT, OLD, DEV)                                               \
    SYMM_IF_##OLD(DEF_OLD_ANY(NAME, T) SYMM_IF_##AMO(DEF_OLD_INT(NAME, T)))
TEST_EXPAND(SYMM_TYPE_TABLE(TEST_DEFER_ROW, DEF_OLD_ROW))
FAM_SWAP(old_shmem_swap, long, long, TIX_old_shmem_swap, 0, 1, PLAIN_SWAP_FORMS)

#define RUN_ROW(S, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)              \
    SYMM_IF_##EXT(swap_##NAME(S); setf_##NAME(S); sem_ext_##NAME(S);)                           \
    SYMM_IF_##AMO(fadd_##NAME(S); add_##NAME(S); cswap_##NAME(S); sem_amo_##NAME(S);)           \
    SYMM_IF_##BIT(bit_##NAME(S); sem_bit_##NAME(S);)
#define RUN_OLD_ROW(S, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN,     \
                    SCAN, TOALL, TOBIT, OLD, DEV)                                               \
    SYMM_IF_##OLD(swap_old_##NAME(S); setf_old_##NAME(S);                                       \
                  SYMM_IF_##AMO(fadd_old_##NAME(S); add_old_##NAME(S); cswap_old_##NAME(S);))

static void step_all(int step)
{
    SYMM_TYPES(RUN_ROW, step)
    SYMM_TYPE_TABLE(RUN_OLD_ROW, step)
    swap_old_shmem_swap(step);
}

/* No operation wrote past its object. */
static void check_sentinels(void)
{
    for (int tix = 0; tix < NTIX; tix++)
        for (int g = 0; g < NG; g++)
            for (size_t b = sizes[tix]; b < SLOT; b++)
                EXPECT(((unsigned char *)slot(tix, g))[b] == SENTINEL,
                       "type row %d family %d: byte %zu after the object changed", tix, g, b);
}

int main(void)
{
    size_t nrec;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > TEST_MAX_PES)
        return 1;
    EXPECT(shmem_ctx_create(0, &my_ctx) == 0, "shmem_ctx_create failed");
    nrec = (size_t)NTIX * NG * npes * ITERS;
    objs = shmem_align(SLOT, (size_t)NTIX * NG * SLOT);
    recs = shmem_malloc(nrec * sizeof(rec_t));
    scratch = malloc((size_t)npes * ITERS * sizeof(*scratch));
    scratch_a = malloc(((size_t)npes * ITERS + 1) * sizeof(ull));
    scratch_b = malloc(((size_t)npes * ITERS + 1) * sizeof(ull));
    if (!objs || !recs || !scratch || !scratch_a || !scratch_b) {
        fprintf(stderr, "amo: out of memory\n");
        return 1;
    }
    for (phase = 0; phase < 2; phase++) {
        memset(objs, SENTINEL, (size_t)NTIX * NG * SLOT);
        memset(recs, 0, nrec * sizeof(rec_t));
        step_all(INIT);
        shmem_barrier_all();
        step_all(RUN);
        shmem_barrier_all();
        step_all(CHECK);
        check_sentinels();
        shmem_barrier_all();
    }
    shmem_ctx_destroy(my_ctx);
    shmem_free(recs);
    shmem_free(objs);
    free(scratch);
    free(scratch_a);
    free(scratch_b);
    return test_finish("sync_amo");
}
