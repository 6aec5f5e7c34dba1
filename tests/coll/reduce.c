/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Every team reduction of the type table (and/or/xor on the BITRED rows, max/min on MINMAX,
 * sum/prod on SUMPROD, the complex rows too), and the sum scans
 * (shmem_TYPE_sum_inscan/exscan, the complex rows too), on the teams of one group of cases.h (the argument: world,
 * split or 2d). Sizes: nothing, a few elements (scratch path), more than 64 KiB per PE (split
 * reduction) and 100k longs and doubles. Results are exact: every PE computes the expected
 * value in team order, in the element type (the header promises that order, so
 * floating-point results are exact too), and compares its result bytes with team PE 0's (read
 * with a get): bit-identical on every PE. Each operation runs with dest apart from source at
 * one size and in place (dest == source) at the other. The reduce-scatters
 * (shmemx_TYPE_OP_reducescatter, NVSHMEM's) of every operator too: team PE i gets block i of
 * the sources reduced in team order.
 */
#include <complex.h>

#include <shmemx.h>

#include "cases.h"

/* The operators of the type table, in its order: OP_and ... OP_prod. */
#define OP_ID(A, B, OP) OP_##OP,
#define OP_NAME(A, B, OP) #OP,
enum { SYMM_OPS(OP_ID, _, _) NOPS };
static const char *const op_names[NOPS] = {SYMM_OPS(OP_NAME, _, _)};

typedef int (*reduce_fn)(shmem_team_t t, void *d, const void *s, size_t n);

typedef struct rdesc {
    const char *name;
    size_t size;
    reduce_fn op[NOPS];   /* NULL where the type has no such reduction */
    reduce_fn rs[NOPS];   /* the reduce-scatters, likewise */
    reduce_fn inscan, exscan;
    /* buf[k] = the value of element first + k of world PE pe's source for op. */
    void (*fill)(void *buf, int op, size_t first, size_t n, int pe);
    /* acc[k] = acc[k] op in[k], in the element type. */
    void (*combine)(void *acc, const void *in, int op, size_t n);
    /* Element-wise value equality (not bytes: long double has padding). */
    int (*equal)(const void *a, const void *b, size_t n, size_t *at);
    void (*zero)(void *buf, size_t n);
} rdesc_t;

static uint64_t mix(int pe, size_t i)
{
    uint64_t x = ((uint64_t)pe << 32 | i) * 0x9e3779b97f4a7c15ULL;

    x ^= x >> 29;
    return x * 0xbf58476d1ce4e5b9ULL;
}

/* Small integers, which no type overflows when combined over 8 PEs, plus a fraction
 * (pe + 1) / 7 or / 10 that integer division drops and floating-point types keep: for them the
 * order of combination matters, and the result must still be exactly the team-order one. */
#define VALUE(T, op, pe, r)                                                                      \
    ((op) <= OP_xor ? (T)mix(pe, r)                                                             \
     : (op) <= OP_min                                                                           \
         ? (T)((T)(((pe) * 5 + (int)(r) * 3) % 17) - (T)(TEST_IS_SIGNED(T) ? 8 : 0) +          \
               (T)(pe + 1) / (T)10)                                                             \
     : (op) == OP_sum                                                                           \
         ? (T)((T)(((pe) * 3 + (int)(r)) % 11) + (T)((pe) + 1) / (T)7)                         \
         : (T)((T)((((pe) + (int)(r)) % 3 == 0) ? 2 : 1) *                                      \
                   (T)((TEST_IS_SIGNED(T) && ((pe) + (int)(r)) % 4 == 1) ? -1 : 1) +           \
               (T)((pe) + 1) / (T)10))

#define COMMON(NAME, T)                                                                          \
    static void fill_##NAME(void *buf, int op, size_t first, size_t n, int pe)                 \
    {                                                                                           \
        T *b = buf, tab[COLL_PERIOD];                                                           \
        size_t at = first % COLL_PERIOD;                                                        \
        memset(tab, 0, sizeof(tab));                                                            \
        for (int r = 0; r < COLL_PERIOD; r++)                                                   \
            tab[r] = VAL_##NAME(op, pe, r);                                                     \
        for (size_t k = 0; k < n; k++) {                                                        \
            memcpy(&b[k], &tab[at], sizeof(T));                                                 \
            at = at + 1 == COLL_PERIOD ? 0 : at + 1;                                            \
        }                                                                                       \
    }                                                                                           \
    static int equal_##NAME(const void *a, const void *b, size_t n, size_t *at)                \
    {                                                                                           \
        const T *x = a, *y = b;                                                                 \
        for (size_t k = 0; k < n; k++)                                                          \
            if (!(x[k] == y[k])) {                                                              \
                *at = k;                                                                        \
                return 0;                                                                       \
            }                                                                                   \
        return 1;                                                                               \
    }                                                                                           \
    static void zero_##NAME(void *buf, size_t n)                                                \
    {                                                                                           \
        T *b = buf;                                                                             \
        memset(buf, 0, n * sizeof(T));                                                          \
        for (size_t k = 0; k < n; k++)                                                          \
            b[k] = 0;                                                                           \
    }

/* Real types: every op the language has, whether the table enables it or not. */
#define REAL(NAME, T, BITRED)                                                   \
    static T VAL_##NAME(int op, int pe, int r)                                                  \
    {                                                                                           \
        return VALUE(T, op, pe, r);                                                             \
    }                                                                                           \
    COMMON(NAME, T)                                                                             \
    static void combine_##NAME(void *acc, const void *in, int op, size_t n)                    \
    {                                                                                           \
        T *a = acc;                                                                             \
        const T *b = in;                                                                        \
        for (size_t k = 0; k < n; k++)                                                          \
            switch (op) {                                                                       \
            SYMM_IF_##BITRED(case OP_and: a[k] = BITOP(T, a[k], &, b[k]); break;               \
                             case OP_or: a[k] = BITOP(T, a[k], |, b[k]); break;                 \
                             case OP_xor: a[k] = BITOP(T, a[k], ^, b[k]); break;)               \
            case OP_max: a[k] = a[k] > b[k] ? a[k] : b[k]; break;                               \
            case OP_min: a[k] = a[k] < b[k] ? a[k] : b[k]; break;                               \
            case OP_sum: a[k] = a[k] + b[k]; break;                                             \
            case OP_prod: a[k] = a[k] * b[k]; break;                                            \
            }                                                                                   \
    }
#define BITOP(T, a, OP, b) (T)((a)OP(b))

#define WRAP(NAME, T, OP)                                                                        \
    static int r_##NAME##_##OP(shmem_team_t t, void *d, const void *s, size_t n)               \
    {                                                                                           \
        return shmem_##NAME##_##OP##_reduce(t, d, s, n);                                        \
    }
#define WRAP_RS(NAME, T, OP)                                                                     \
    static int rs_##NAME##_##OP(shmem_team_t t, void *d, const void *s, size_t n)              \
    {                                                                                           \
        return shmemx_##NAME##_##OP##_reducescatter(t, d, s, n);                                \
    }
#define WRAP_SCAN(NAME, T)                                                                       \
    static int in_##NAME(shmem_team_t t, void *d, const void *s, size_t n)                     \
    {                                                                                           \
        return shmem_##NAME##_sum_inscan(t, d, s, n);                                           \
    }                                                                                           \
    static int ex_##NAME(shmem_team_t t, void *d, const void *s, size_t n)                     \
    {                                                                                           \
        return shmem_##NAME##_sum_exscan(t, d, s, n);                                           \
    }
#define SHELLS_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)           \
    REAL(NAME, T, BITRED)                                                                       \
    SYMM_IF_##BITRED(SYMM_OPS_BITWISE(WRAP, NAME, T) SYMM_OPS_BITWISE(WRAP_RS, NAME, T))        \
    SYMM_IF_##MINMAX(SYMM_OPS_MINMAX(WRAP, NAME, T) SYMM_OPS_MINMAX(WRAP_RS, NAME, T))          \
    SYMM_IF_##SUMPROD(SYMM_OPS_SUMPROD(WRAP, NAME, T) SYMM_OPS_SUMPROD(WRAP_RS, NAME, T)        \
                          WRAP_SCAN(NAME, T))
SYMM_TYPES(SHELLS_ROW, _)

#define OP_ENTRY(NAME, T, OP) [OP_##OP] = r_##NAME##_##OP,
#define RS_ENTRY(NAME, T, OP) [OP_##OP] = rs_##NAME##_##OP,
#define DESC_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)             \
    {#NAME, sizeof(T),                                                                          \
     {SYMM_IF_##BITRED(SYMM_OPS_BITWISE(OP_ENTRY, NAME, T))                                     \
      SYMM_IF_##MINMAX(SYMM_OPS_MINMAX(OP_ENTRY, NAME, T))                                      \
      SYMM_IF_##SUMPROD(SYMM_OPS_SUMPROD(OP_ENTRY, NAME, T))},                                  \
     {SYMM_IF_##BITRED(SYMM_OPS_BITWISE(RS_ENTRY, NAME, T))                                     \
      SYMM_IF_##MINMAX(SYMM_OPS_MINMAX(RS_ENTRY, NAME, T))                                      \
      SYMM_IF_##SUMPROD(SYMM_OPS_SUMPROD(RS_ENTRY, NAME, T))},                                  \
     SYMM_IF_##SUMPROD(in_##NAME, ex_##NAME, ) fill_##NAME, combine_##NAME, equal_##NAME,       \
     zero_##NAME},

/* The complex rows of the table: sum and prod, and the scans. Small integer parts keep every
 * result exact. */
#define CPLX(NAME, T)                                                                            \
    static T VAL_##NAME(int op, int pe, int r)                                                  \
    {                                                                                           \
        return (T)((double)(pe % 3 + 1) + (double)((pe + r) % 2) * I) *                        \
               (op == OP_sum ? (T)((double)(r % 5) - 2.0 * I) : (T)1);                          \
    }                                                                                           \
    COMMON(NAME, T)                                                                             \
    static void combine_##NAME(void *acc, const void *in, int op, size_t n)                    \
    {                                                                                           \
        T *a = acc;                                                                             \
        const T *b = in;                                                                        \
        for (size_t k = 0; k < n; k++)                                                          \
            a[k] = op == OP_sum ? a[k] + b[k] : a[k] * b[k];                                    \
    }
#define CPLX_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN,   \
                 TOALL, TOBIT, OLD, DEV)                                                        \
    CPLX(NAME, T)                                                                               \
    SYMM_IF_##SUMPROD(SYMM_OPS_SUMPROD(WRAP, NAME, T) SYMM_OPS_SUMPROD(WRAP_RS, NAME, T))      \
    SYMM_IF_##SCAN(WRAP_SCAN(NAME, T))
SYMM_TYPE_TABLE_COMPLEX(CPLX_ROW, _)
#define SCAN_FNS_0(NAME) NULL, NULL,
#define SCAN_FNS_1(NAME) in_##NAME, ex_##NAME,
#define CPLX_DESC(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN,  \
                  TOALL, TOBIT, OLD, DEV)                                                       \
    {#NAME, sizeof(T), {SYMM_IF_##SUMPROD(SYMM_OPS_SUMPROD(OP_ENTRY, NAME, T))},                 \
     {SYMM_IF_##SUMPROD(SYMM_OPS_SUMPROD(RS_ENTRY, NAME, T))}, SCAN_FNS_##SCAN(NAME)             \
     fill_##NAME, combine_##NAME, equal_##NAME, zero_##NAME},

static const rdesc_t types[] = {SYMM_TYPES(DESC_ROW, _) SYMM_TYPE_TABLE_COMPLEX(CPLX_DESC, _)};
#define NTYPES (sizeof(types) / sizeof(types[0]))

#define BIG_LONGS 100000
#define BUF_BYTES (2u << 20)

static char *src, *dst;  /* symmetric */
static char *want, *peer; /* private */
static char *tab_in, *tab_acc;

typedef struct ctx {
    const rdesc_t *ty;
    shmem_team_t team;
    const char *tname;
    int me, n, wme;
    int wpe[TEST_MAX_PES];
} ctx_t;

/* Each call of a batch gets a stretch of src and dst of its own, so the results of the whole
 * batch are compared with team PE 0's at once: two team syncs per batch, not per call. */
#define MAX_RESULTS 32
static size_t used;
static int nresults;
static struct result {
    const char *what;
    const rdesc_t *ty;
    char *out;
    size_t nelems;
} results[MAX_RESULTS];

static size_t carve(size_t bytes)
{
    size_t off = used;

    used += (bytes + COLL_GUARD + 63) & ~(size_t)63;
    if (used > BUF_BYTES) {
        fprintf(stderr, "reduce: a batch does not fit\n");
        exit(1);
    }
    return off;
}

/* want[k] for k < nelems: element first + k combined over team PEs [0, upto) in team
 * order. */
static void expected_at(const ctx_t *c, int op, size_t first, size_t nelems, int upto)
{
    size_t es = c->ty->size, per = nelems < COLL_PERIOD ? nelems : COLL_PERIOD;

    if (upto == 0) {
        c->ty->zero(want, nelems);
        return;
    }
    c->ty->fill(tab_acc, op, first, per, c->wpe[0]);
    for (int j = 1; j < upto; j++) {
        c->ty->fill(tab_in, op, first, per, c->wpe[j]);
        c->ty->combine(tab_acc, tab_in, op, per);
    }
    for (size_t k = 0; k < nelems; k += per)
        memcpy(want + k * es, tab_acc, (nelems - k < per ? nelems - k : per) * es);
}

static void expected(const ctx_t *c, int op, size_t nelems, int upto)
{
    expected_at(c, op, 0, nelems, upto);
}

static void check(const ctx_t *c, const char *what, size_t nelems, int in_place,
                  const char *got)
{
    size_t at = 0, es = c->ty->size;

    EXPECT(c->ty->equal(got, want, nelems, &at),
           "%s %s nelems %zu%s on %s (team pe %d of %d): element %zu is wrong", c->ty->name,
           what, nelems, in_place ? " in place" : "", c->tname, c->me, c->n, at);
    EXPECT(coll_untouched(got + nelems * es, COLL_GUARD),
           "%s %s nelems %zu%s on %s: bytes after the result were written", c->ty->name, what,
           nelems, in_place ? " in place" : "", c->tname);
}

/* Ends a batch: every result's bytes on team PE 0, read once every PE is done, against this
 * PE's. */
static void check_identical(const ctx_t *c)
{
    shmem_team_sync(c->team);
    for (int r = 0; r < nresults; r++) {
        size_t len = results[r].nelems * results[r].ty->size;
        shmem_getmem(peer, results[r].out, len, c->wpe[0]);
        EXPECT(!memcmp(peer, results[r].out, len),
               "%s %s nelems %zu on %s: result bytes differ from team pe 0's",
               results[r].ty->name, results[r].what, results[r].nelems, c->tname);
    }
    /* Nobody overwrites its results before everyone has read team PE 0's. */
    shmem_team_sync(c->team);
    used = 0;
    nresults = 0;
}

static void reduce(const ctx_t *c, int op, size_t nelems, int in_place)
{
    size_t es = c->ty->size, off = carve(nelems * es);
    char *s = src + off, *d = dst + off, *out = in_place ? s : d;
    int rc;

    c->ty->fill(s, op, 0, nelems, c->wme);
    memset(s + nelems * es, COLL_CANARY, COLL_GUARD);
    memset(d, COLL_CANARY, nelems * es + COLL_GUARD);
    rc = c->ty->op[op](c->team, out, s, nelems);
    EXPECT(rc == 0, "%s_%s_reduce returned %d", c->ty->name, op_names[op], rc);
    expected(c, op, nelems, c->n);
    check(c, op_names[op], nelems, in_place, out);
    if (!in_place) {
        c->ty->fill(want, op, 0, nelems, c->wme);
        EXPECT(c->ty->equal(s, want, nelems, &(size_t){0}),
               "%s_%s_reduce nelems %zu on %s changed its source", c->ty->name, op_names[op],
               nelems, c->tname);
    }
    if (nresults < MAX_RESULTS)
        results[nresults++] = (struct result){op_names[op], c->ty, out, nelems};
}

/* Reduce-scatter of blocks of nelems: the sources filled as one array of n * nelems. */
static void rscatter(const ctx_t *c, int op, size_t nelems)
{
    size_t es = c->ty->size, all = nelems * (size_t)c->n, off = carve(all * es);
    char *s = src + off, *d = dst + off;
    char what[32];
    int rc;

    c->ty->fill(s, op, 0, all, c->wme);
    memset(s + all * es, COLL_CANARY, COLL_GUARD);
    memset(d, COLL_CANARY, nelems * es + COLL_GUARD);
    rc = c->ty->rs[op](c->team, d, s, nelems);
    snprintf(what, sizeof(what), "%s_reducescatter", op_names[op]);
    EXPECT(rc == 0, "%s_%s returned %d", c->ty->name, what, rc);
    expected_at(c, op, (size_t)c->me * nelems, nelems, c->n);
    check(c, what, nelems, 0, d);
}

static void scan(const ctx_t *c, int exclusive, size_t nelems, int in_place)
{
    size_t es = c->ty->size, off = carve(nelems * es);
    char *s = src + off, *d = dst + off, *out = in_place ? s : d;
    const char *what = exclusive ? "sum_exscan" : "sum_inscan";
    int rc;

    c->ty->fill(s, OP_sum, 0, nelems, c->wme);
    memset(s + nelems * es, COLL_CANARY, COLL_GUARD);
    memset(d, COLL_CANARY, nelems * es + COLL_GUARD);
    rc = (exclusive ? c->ty->exscan : c->ty->inscan)(c->team, out, s, nelems);
    EXPECT(rc == 0, "%s_%s returned %d", c->ty->name, what, rc);
    expected(c, OP_sum, nelems, exclusive ? c->me : c->me + 1);
    check(c, what, nelems, in_place, out);
}

/* One type on one team: every op at a few elements (1, 5 or 200 by type) and at more than
 * 64 KiB, one of the two in place, and nothing at all now and then; then the scans. */
static void run_type(const ctx_t *c, int ti)
{
    size_t es = c->ty->size;
    const size_t small = ti % 3 == 0 ? 1 : ti % 3 == 1 ? 5 : 200, large = (66 << 10) / es + 3;

    for (int op = 0; op < NOPS; op++) {
        if (!c->ty->op[op])
            continue;
        if ((ti + op) % 5 == 0)
            reduce(c, op, 0, 0);
        reduce(c, op, small, (ti + op) % 2);
        reduce(c, op, large, (ti + op + 1) % 2);
        rscatter(c, op, (ti + op) % 4 ? small : 0);
    }
    if (c->ty->inscan) {
        scan(c, 0, small, ti % 2);
        scan(c, 1, small, (ti + 1) % 2);
        scan(c, 0, large, (ti + 1) % 2);
        scan(c, 1, large, ti % 2);
    }
    check_identical(c);
}

static const rdesc_t *find(const char *name)
{
    for (size_t t = 0; t < NTYPES; t++)
        if (!strcmp(types[t].name, name))
            return &types[t];
    return NULL;
}

int main(int argc, char **argv)
{
    coll_team_t tc[COLL_TEAMS_MAX];
    const char *group = argc > 1 ? argv[1] : NULL;
    char name[64];
    int nt;

    test_start();
    src = shmem_malloc(BUF_BYTES + COLL_GUARD);
    dst = shmem_malloc(BUF_BYTES + COLL_GUARD);
    want = malloc(BUF_BYTES);
    peer = malloc(BUF_BYTES);
    tab_in = malloc(COLL_PERIOD * 32);
    tab_acc = malloc(COLL_PERIOD * 32);
    if (!src || !dst || !want || !peer || !tab_in || !tab_acc) {
        fprintf(stderr, "reduce: out of memory\n");
        return 1;
    }
    nt = coll_teams(tc, group);
    for (int k = 0; k < nt; k++) {
        ctx_t c = {.team = tc[k].team, .tname = tc[k].name};
        if (c.team == SHMEM_TEAM_INVALID)
            continue;
        c.me = shmem_team_my_pe(c.team);
        c.n = shmem_team_n_pes(c.team);
        c.wme = shmem_my_pe();
        for (int j = 0; j < c.n; j++)
            c.wpe[j] = coll_wpe(c.team, j);
        for (size_t t = 0; t < NTYPES; t++) {
            /* The shared team is the world again (one node): every fourth type. */
            if (c.team == SHMEM_TEAM_SHARED && t % 4)
                continue;
            c.ty = &types[t];
            run_type(&c, (int)t);
        }
        /* 100k longs and doubles: the split reduction with many slices of work. */
        c.ty = find("long");
        reduce(&c, OP_sum, BIG_LONGS, 0);
        reduce(&c, OP_max, BIG_LONGS, 1);
        check_identical(&c);
        rscatter(&c, OP_sum, BIG_LONGS / 8);
        check_identical(&c);
        c.ty = find("double");
        reduce(&c, OP_sum, BIG_LONGS, 1);
        scan(&c, 0, BIG_LONGS, 0);
        check_identical(&c);
    }
    coll_teams_free(tc, nt);
    shmem_free(dst);
    shmem_free(src);
    free(want);
    free(peer);
    free(tab_in);
    free(tab_acc);
    snprintf(name, sizeof(name), "coll_reduce %s", group ? group : "all");
    return test_finish(name);
}
