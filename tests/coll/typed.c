/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The data-moving team collectives for every type of the type table and the mem forms, on the
 * teams of one group of cases.h (the argument: world, split or 2d): broadcast from every root
 * (dest apart from source, and in place), fcollect, collect with a different count on each PE
 * (0 included), alltoall, and alltoalls with strides above 1. Sizes from 0 elements through a
 * few (the scratch path) to more than 64 KiB per PE (read from the users' buffers), and
 * alltoall blocks that are small while the whole source is not. Every result is checked
 * exactly, the bytes past it and the holes of strided destinations are checked untouched, and
 * sources are refilled as soon as a call returns (a blocking collective is done with them).
 * Teams whose members differ run at once.
 */
#include "cases.h"

/* One row of the type table, as the generic body sees it. */
typedef struct tdesc {
    const char *name;
    size_t size;
    int (*bcast)(shmem_team_t t, void *d, const void *s, size_t n, int root);
    int (*fcollect)(shmem_team_t t, void *d, const void *s, size_t n);
    int (*collect)(shmem_team_t t, void *d, const void *s, size_t n);
    int (*alltoall)(shmem_team_t t, void *d, const void *s, size_t n);
    int (*alltoalls)(shmem_team_t t, void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst,
                     size_t n);
    /* buf[k * stride] = COLL_VAL(pe, first + k, salt) for k < n (stride in elements). */
    void (*fill)(void *buf, size_t stride, size_t first, size_t n, int pe, int salt);
} tdesc_t;

#define SHELLS(NAME, T, BC, FC, CO, AA, AS)                                                      \
    static int bc_##NAME(shmem_team_t t, void *d, const void *s, size_t n, int r)              \
    {                                                                                           \
        return BC;                                                                              \
    }                                                                                           \
    static int fc_##NAME(shmem_team_t t, void *d, const void *s, size_t n)                     \
    {                                                                                           \
        return FC;                                                                              \
    }                                                                                           \
    static int co_##NAME(shmem_team_t t, void *d, const void *s, size_t n)                     \
    {                                                                                           \
        return CO;                                                                              \
    }                                                                                           \
    static int aa_##NAME(shmem_team_t t, void *d, const void *s, size_t n)                     \
    {                                                                                           \
        return AA;                                                                              \
    }                                                                                           \
    static int as_##NAME(shmem_team_t t, void *d, const void *s, ptrdiff_t ds, ptrdiff_t ss,   \
                         size_t n)                                                              \
    {                                                                                           \
        return AS;                                                                              \
    }                                                                                           \
    static void fill_##NAME(void *buf, size_t stride, size_t first, size_t n, int pe,         \
                            int salt)                                                           \
    {                                                                                           \
        T *b = buf, tab[COLL_PERIOD];                                                           \
        size_t at = first % COLL_PERIOD;                                                        \
        /* Padding bytes (long double) are zero everywhere, so results compare bytewise. */    \
        memset(tab, 0, sizeof(tab));                                                            \
        for (int i = 0; i < COLL_PERIOD; i++)                                                   \
            tab[i] = COLL_VAL(T, pe, i, salt);                                                  \
        for (size_t k = 0; k < n; k++) {                                                        \
            memcpy(&b[k * stride], &tab[at], sizeof(T));                                        \
            at = at + 1 == COLL_PERIOD ? 0 : at + 1;                                            \
        }                                                                                       \
    }
#define TYPED(NAME, T)                                                                           \
    SHELLS(NAME, T, shmem_##NAME##_broadcast(t, d, s, n, r), shmem_##NAME##_fcollect(t, d, s, n),\
           shmem_##NAME##_collect(t, d, s, n), shmem_##NAME##_alltoall(t, d, s, n),             \
           shmem_##NAME##_alltoalls(t, d, s, ds, ss, n))
#define TYPED_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)            \
    SYMM_IF_##RMA(TYPED(NAME, T))
SYMM_TYPES(TYPED_ROW, _)
SHELLS(mem, unsigned char, shmem_broadcastmem(t, d, s, n, r), shmem_fcollectmem(t, d, s, n),
       shmem_collectmem(t, d, s, n), shmem_alltoallmem(t, d, s, n),
       shmem_alltoallsmem(t, d, s, ds, ss, n))

#define DESC(NAME, T)                                                                            \
    {#NAME, sizeof(T), bc_##NAME, fc_##NAME, co_##NAME, aa_##NAME, as_##NAME, fill_##NAME},
#define DESC_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)             \
    SYMM_IF_##RMA(DESC(NAME, T))
static const tdesc_t types[] = {SYMM_TYPES(DESC_ROW, _) DESC(mem, unsigned char)};
#define NTYPES (sizeof(types) / sizeof(types[0]))

#define BUF_BYTES (4u << 20)
#define DST 2 /* alltoalls strides */
#define SST 3

static char *src, *dst;      /* symmetric, BUF_BYTES each */
static char *want;           /* private: the expected result */
static int salt;             /* the same sequence on every PE */

typedef struct ctx {
    const tdesc_t *ty;
    shmem_team_t team;
    const char *tname;
    int me, n, wme;
    int bcasts; /* broadcasts so far on the team: picks the root */
    int wpe[TEST_MAX_PES];
} ctx_t;

static void prepare_dst(size_t len)
{
    memset(dst, COLL_CANARY, len + COLL_GUARD);
}

static void check_bytes(const ctx_t *c, const char *what, size_t nelems, const void *got,
                        const void *exp, size_t len)
{
    const unsigned char *g = got, *e = exp;
    size_t at;

    if (!memcmp(got, exp, len)) {
        TEST_ADD(test_checks, 1);
        return;
    }
    for (at = 0; at < len && g[at] == e[at]; at++)
        ;
    EXPECT(0, "%s %s nelems %zu on %s (team pe %d of %d): first wrong byte %zu (element %zu): "
           "got 0x%02x, want 0x%02x", c->ty->name, what, nelems, c->tname, c->me, c->n, at,
           at / c->ty->size, g[at], e[at]);
}

static void check_guard(const ctx_t *c, const char *what, size_t nelems, size_t len)
{
    EXPECT(coll_untouched(dst + len, COLL_GUARD),
           "%s %s nelems %zu on %s: bytes after the result were written", c->ty->name, what,
           nelems, c->tname);
}

static void broadcast(const ctx_t *c, size_t nelems, int root, int in_place)
{
    size_t es = c->ty->size, len = nelems * es;
    int rc;

    salt++;
    c->ty->fill(src, 1, 0, nelems, c->wme, salt);
    memset(src + len, COLL_CANARY, COLL_GUARD);
    prepare_dst(len);
    c->ty->fill(want, 1, 0, nelems, c->wpe[root], salt);
    if (in_place) {
        rc = c->ty->bcast(c->team, src, src, nelems, root);
        check_bytes(c, "broadcast in place", nelems, src, want, len);
        EXPECT(coll_untouched(src + len, COLL_GUARD),
               "%s broadcast in place nelems %zu root %d on %s: bytes after it were written",
               c->ty->name, nelems, root, c->tname);
        EXPECT(coll_untouched(dst, len + COLL_GUARD), "%s broadcast in place wrote elsewhere",
               c->ty->name);
    } else {
        rc = c->ty->bcast(c->team, dst, src, nelems, root);
        check_bytes(c, "broadcast", nelems, dst, want, len);
        check_guard(c, "broadcast", nelems, len);
        c->ty->fill(want, 1, 0, nelems, c->wme, salt);
        check_bytes(c, "broadcast (source kept)", nelems, src, want, len);
    }
    EXPECT(rc == 0, "%s broadcast returned %d", c->ty->name, rc);
}

static void fcollect(const ctx_t *c, size_t nelems)
{
    size_t es = c->ty->size, len = nelems * es;
    int rc;

    salt++;
    c->ty->fill(src, 1, 0, nelems, c->wme, salt);
    prepare_dst(len * c->n);
    for (int j = 0; j < c->n; j++)
        c->ty->fill(want + j * len, 1, 0, nelems, c->wpe[j], salt);
    rc = c->ty->fcollect(c->team, dst, src, nelems);
    EXPECT(rc == 0, "%s fcollect returned %d", c->ty->name, rc);
    check_bytes(c, "fcollect", nelems, dst, want, len * c->n);
    check_guard(c, "fcollect", nelems, len * c->n);
}

/* Team PE j's count in collect: some PEs give nothing, the others whole, half or a quarter. */
static size_t collect_count(size_t nelems, int j, int s)
{
    return (j * 5 + s) % 4 == 0 ? 0 : nelems >> (j % 3);
}

static void collect(const ctx_t *c, size_t nelems)
{
    size_t es = c->ty->size, off = 0;
    int rc;

    salt++;
    c->ty->fill(src, 1, 0, collect_count(nelems, c->me, salt), c->wme, salt);
    for (int j = 0; j < c->n; j++) {
        size_t cnt = collect_count(nelems, j, salt);
        c->ty->fill(want + off, 1, 0, cnt, c->wpe[j], salt);
        off += cnt * es;
    }
    prepare_dst(off);
    rc = c->ty->collect(c->team, dst, src, collect_count(nelems, c->me, salt));
    EXPECT(rc == 0, "%s collect returned %d", c->ty->name, rc);
    check_bytes(c, "collect", nelems, dst, want, off);
    check_guard(c, "collect", nelems, off);
}

/* Block j of world PE p's alltoall source (the block for team PE j). */
static int block_pe(int p, int j)
{
    return p * 11 + j * 3;
}

static void alltoall(const ctx_t *c, size_t nelems)
{
    size_t es = c->ty->size, len = nelems * es;
    int rc;

    salt++;
    for (int j = 0; j < c->n; j++)
        c->ty->fill(src + j * len, 1, 0, nelems, block_pe(c->wme, j), salt);
    for (int j = 0; j < c->n; j++)
        c->ty->fill(want + j * len, 1, 0, nelems, block_pe(c->wpe[j], c->me), salt);
    prepare_dst(len * c->n);
    rc = c->ty->alltoall(c->team, dst, src, nelems);
    EXPECT(rc == 0, "%s alltoall returned %d", c->ty->name, rc);
    check_bytes(c, "alltoall", nelems, dst, want, len * c->n);
    check_guard(c, "alltoall", nelems, len * c->n);
}

static void alltoalls(const ctx_t *c, size_t nelems, ptrdiff_t ds, ptrdiff_t ss)
{
    size_t es = c->ty->size, total = (size_t)c->n * nelems, span = total * ds * es;
    int rc;

    salt++;
    memset(src, COLL_CANARY, total * ss * es);
    memset(want, COLL_CANARY, span);
    for (int j = 0; j < c->n; j++) {
        c->ty->fill(src + (j * nelems * ss) * es, ss, 0, nelems, block_pe(c->wme, j), salt);
        c->ty->fill(want + (j * nelems * ds) * es, ds, 0, nelems, block_pe(c->wpe[j], c->me),
                    salt);
    }
    prepare_dst(span);
    rc = c->ty->alltoalls(c->team, dst, src, ds, ss, nelems);
    EXPECT(rc == 0, "%s alltoalls returned %d", c->ty->name, rc);
    check_bytes(c, "alltoalls", nelems, dst, want, span);
    check_guard(c, "alltoalls", nelems, span);
}

/* One type on one team. Broadcast roots rotate over the calls of the team (with dest apart
 * and in place in turn), so every root is used both ways many times over the type table. */
static void run_type(ctx_t *c, int ti)
{
    size_t es = c->ty->size;
    /* A few elements (scratch), 9000 bytes (alltoall reads the users' buffers from 8 PEs on;
     * every other type), over 64 KiB per PE (every type; alltoall over 64 KiB in all). */
    const size_t small = ti % 2 ? 7 : 1, mid = 9000 / es, large = (66 << 10) / es + 5;

    if (ti % 6 == 0) {
        broadcast(c, 0, c->bcasts % c->n, 0);
        fcollect(c, 0);
        collect(c, 0);
        alltoall(c, 0);
        alltoalls(c, 0, DST, SST);
    }
    /* 4096 bytes: the largest part a team across nodes pushes in one message (every third
     * type). */
    if (ti % 3 == 1) {
        broadcast(c, 4096 / es, (c->bcasts++) % c->n, 0);
        fcollect(c, 4096 / es);
        alltoall(c, 4096 / es);
    }
    for (int pass = 0; pass < 3; pass++) {
        size_t ne = pass == 0 ? small : pass == 1 ? mid : large;
        if (pass == 1 && ti % 2)
            continue;
        broadcast(c, ne, c->bcasts % c->n, (c->bcasts / c->n) % 2);
        /* The same root again at once: the root waits for nobody in either call. */
        if (pass == 0)
            broadcast(c, ne, c->bcasts % c->n, (c->bcasts / c->n + 1) % 2);
        c->bcasts++;
        fcollect(c, ne);
        collect(c, ne);
        alltoall(c, pass == 2 ? ne / c->n + 5 : ne);
        if (pass < 2)
            alltoalls(c, ne, DST, SST);
        if (pass == 0 && ti % 3 == 0)
            alltoalls(c, ne, 1, 2);
    }
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
    if (!src || !dst || !want) {
        fprintf(stderr, "typed: out of memory\n");
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
        salt = k * 1000;
        for (size_t t = 0; t < NTYPES; t++) {
            /* The shared team is the world again (one node): every fourth type. */
            if (c.team == SHMEM_TEAM_SHARED && t % 4)
                continue;
            c.ty = &types[t];
            run_type(&c, (int)t);
        }
    }
    coll_teams_free(tc, nt);
    shmem_free(dst);
    shmem_free(src);
    free(want);
    snprintf(name, sizeof(name), "coll_typed %s", group ? group : "all");
    return test_finish(name);
}
