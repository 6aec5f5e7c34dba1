/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The team routines: SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED queries; shmem_team_split_strided
 * with strides 1, 2 and 3, odd sizes, start > 0, and splits of splits, every member and
 * non-member checked (team number, size, translate_pe both ways with its -1 results, and a
 * collective on the new team that lists its members); shmem_team_split_2d for xranges that
 * divide the parent, do not, are 1 or exceed it, on the world and on a split; bad split
 * arguments and an INVALID parent (non-zero return, SHMEM_TEAM_INVALID); get_config with a
 * config; shmem_team_sync; shmem_team_create_ctx and shmem_ctx_get_team; shmem_team_ptr;
 * teams from a unique id (shmemx_team_init): all PEs, the odd PEs with an id made by a PE
 * outside the team, two disjoint teams at once whose ids two PEs made, ids used by turns more
 * times than a PE keeps records of, and a team of one;
 * broadcasts back to back from every member in turn (runs longer than 16 with no barrier), and
 * large ones from every member into symmetric and private dest;
 * with the argument "cycles", 200 split/destroy cycles (slot reuse, with teams alive across
 * cycles) and running out of team slots cleanly; with "ctx-rma", the point-to-point routines
 * on a context made from a team, which take team PE numbers.
 */
#include <shmemx.h>

#include "cases.h"
#include "../nodes.h"

static int me, npes;
static int sym_int[TEST_MAX_PES];
static long sym_long[4];

/* Checks a team of the world PEs wstart + i * wstride, i < size (team or INVALID here). */
static void check_team(shmem_team_t t, const char *what, int wstart, int wstride, int size)
{
    int d = me - wstart, idx = d >= 0 && d % wstride == 0 && d / wstride < size ? d / wstride : -1;
    int got[TEST_MAX_PES], mine = me, sum = 0, want_sum = 0;

    if (idx < 0) {
        EXPECT(t == SHMEM_TEAM_INVALID, "%s: pe %d is not a member but got a team", what, me);
        for (int i = 0; i < size; i++)
            EXPECT(shmem_team_translate_pe(SHMEM_TEAM_WORLD, wstart + i * wstride, t) == -1,
                   "%s: translate into an INVALID team is not -1", what);
        return;
    }
    EXPECT(t != SHMEM_TEAM_INVALID, "%s: pe %d is member %d but got SHMEM_TEAM_INVALID", what,
           me, idx);
    if (t == SHMEM_TEAM_INVALID)
        return;
    EXPECT(shmem_team_my_pe(t) == idx, "%s: shmem_team_my_pe is %d, want %d", what,
           shmem_team_my_pe(t), idx);
    EXPECT(shmem_team_n_pes(t) == size, "%s: shmem_team_n_pes is %d, want %d", what,
           shmem_team_n_pes(t), size);
    for (int i = 0; i < size; i++) {
        int w = shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD);
        EXPECT(w == wstart + i * wstride, "%s: team pe %d is world pe %d, want %d", what, i, w,
               wstart + i * wstride);
        EXPECT(shmem_team_translate_pe(t, i, t) == i, "%s: translate to itself", what);
    }
    for (int w = 0; w < npes; w++) {
        int dd = w - wstart;
        int want = dd >= 0 && dd % wstride == 0 && dd / wstride < size ? dd / wstride : -1;
        EXPECT(shmem_team_translate_pe(SHMEM_TEAM_WORLD, w, t) == want,
               "%s: world pe %d translates to %d, want %d", what, w,
               shmem_team_translate_pe(SHMEM_TEAM_WORLD, w, t), want);
    }
    EXPECT(shmem_team_translate_pe(t, -1, SHMEM_TEAM_WORLD) == -1, "%s: pe -1 translates", what);
    EXPECT(shmem_team_translate_pe(t, size, SHMEM_TEAM_WORLD) == -1, "%s: pe %d translates",
           what, size);
    EXPECT(shmem_team_translate_pe(t, 0, SHMEM_TEAM_INVALID) == -1,
           "%s: translate into SHMEM_TEAM_INVALID is not -1", what);
    /* The team works: its members, in order, and their sum. */
    static int members[TEST_MAX_PES], me_sym, sum_sym;
    me_sym = mine;
    shmem_int_fcollect(t, members, &me_sym, 1);
    memcpy(got, members, sizeof(int) * size);
    for (int i = 0; i < size; i++)
        EXPECT(got[i] == wstart + i * wstride, "%s: fcollect gives world pe %d at %d, want %d",
               what, got[i], i, wstart + i * wstride);
    shmem_int_sum_reduce(t, &sum_sym, &me_sym, 1);
    sum = sum_sym;
    for (int i = 0; i < size; i++)
        want_sum += wstart + i * wstride;
    EXPECT(sum == want_sum, "%s: sum of members %d, want %d", what, sum, want_sum);
    EXPECT(shmem_team_sync(t) == 0, "%s: shmem_team_sync failed", what);
}

static void predefined(void)
{
    shmem_team_config_t cfg = {.num_contexts = 99};

    int node = test_node_of(me, npes), first = test_node_first(node, npes);
    int next = test_node_first(node + 1, npes);
    static long probe;

    EXPECT(shmem_team_my_pe(SHMEM_TEAM_WORLD) == me, "world my_pe");
    EXPECT(shmem_team_n_pes(SHMEM_TEAM_WORLD) == npes, "world n_pes");
    /* The shared team is this PE's node: the world on one node, else its group of consecutive
     * PEs (SYMM_NODES), exactly the PEs that shmem_ptr reaches. */
    EXPECT(shmem_team_my_pe(SHMEM_TEAM_SHARED) == me - first, "shared my_pe");
    EXPECT(shmem_team_n_pes(SHMEM_TEAM_SHARED) == next - first, "shared n_pes");
    for (int i = 0; i < next - first; i++)
        EXPECT(shmem_team_translate_pe(SHMEM_TEAM_SHARED, i, SHMEM_TEAM_WORLD) == first + i,
               "shared pe %d to world", i);
    for (int pe = 0; pe < npes; pe++)
        EXPECT((shmem_ptr(&probe, pe) != NULL) == (pe >= first && pe < next),
               "shmem_ptr to pe %d %s NULL", pe, shmem_ptr(&probe, pe) ? "is not" : "is");
    EXPECT(shmem_team_my_pe(SHMEM_TEAM_INVALID) == -1, "my_pe of SHMEM_TEAM_INVALID");
    EXPECT(shmem_team_n_pes(SHMEM_TEAM_INVALID) == -1, "n_pes of SHMEM_TEAM_INVALID");
    EXPECT(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD) == -1,
           "translate from SHMEM_TEAM_INVALID");
    EXPECT(shmem_team_translate_pe(SHMEM_TEAM_WORLD, npes, SHMEM_TEAM_WORLD) == -1,
           "translate of pe n");
    EXPECT(shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, &cfg) == 0,
           "get_config of the world");
    EXPECT(cfg.num_contexts == 0, "world num_contexts %d, want 0", cfg.num_contexts);
    EXPECT(shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS, &cfg) != 0,
           "get_config of SHMEM_TEAM_INVALID returned 0");
    check_team(SHMEM_TEAM_WORLD, "world", 0, 1, npes);
    check_team(SHMEM_TEAM_SHARED, "shared", first, 1, next - first);
    shmem_team_sync(SHMEM_TEAM_WORLD);
}

/* Splits of the world with every stride and start that fits, then splits of each. */
static void strided(void)
{
    char what[128];

    for (int stride = 1; stride <= 3; stride++)
        for (int start = 0; start < npes && start < 3; start++) {
            int maxsize = (npes - 1 - start) / stride + 1;
            /* The largest size, an odd one below it, and 1. */
            int sizes[3] = {maxsize, maxsize % 2 ? maxsize - 2 : maxsize - 1, 1};
            for (int s = 0; s < 3; s++) {
                int size = sizes[s];
                shmem_team_t t = SHMEM_TEAM_INVALID, sub = SHMEM_TEAM_INVALID;
                if (size < 1 || (s > 0 && size == sizes[0]))
                    continue;
                snprintf(what, sizeof(what), "split(world, start %d, stride %d, size %d)",
                         start, stride, size);
                EXPECT(shmem_team_split_strided(SHMEM_TEAM_WORLD, start, stride, size, NULL, 0,
                                                &t) == 0, "%s failed", what);
                check_team(t, what, start, stride, size);
                /* A split of it, by its members only: its second, fourth, ... PEs. */
                if (t != SHMEM_TEAM_INVALID && size >= 2) {
                    int ssize = (size - 1 + 1) / 2;
                    char w2[192];
                    snprintf(w2, sizeof(w2), "split(%s, start 1, stride 2, size %d)", what,
                             ssize);
                    EXPECT(shmem_team_split_strided(t, 1, 2, ssize, NULL, 0, &sub) == 0,
                           "%s failed", w2);
                    check_team(sub, w2, start + stride, 2 * stride, ssize);
                    /* Between the two: team pe i of sub is team pe 1 + 2i of t. */
                    if (sub != SHMEM_TEAM_INVALID)
                        for (int i = 0; i < ssize; i++)
                            EXPECT(shmem_team_translate_pe(sub, i, t) == 1 + 2 * i,
                                   "%s: pe %d in the parent is %d", w2, i,
                                   shmem_team_translate_pe(sub, i, t));
                    for (int i = 0; i < size && sub != SHMEM_TEAM_INVALID; i++)
                        EXPECT(shmem_team_translate_pe(t, i, sub) == (i % 2 ? i / 2 : -1),
                               "%s: parent pe %d translates to %d", w2, i,
                               shmem_team_translate_pe(t, i, sub));
                    shmem_team_destroy(sub);
                }
                shmem_team_destroy(t);
            }
        }
}

/* Bad arguments: every PE gets a non-zero return and SHMEM_TEAM_INVALID, and goes on. */
static void bad_splits(void)
{
    shmem_team_t t = SHMEM_TEAM_WORLD, x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
    const int bad[][3] = {{0, 1, npes + 1}, {npes, 1, 1}, {-1, 1, 1}, {0, 1, 0}, {0, 2, npes}};

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (bad[i][1] == 2 && npes == 1)
            continue; /* stride 2, size 1 fits */
        t = SHMEM_TEAM_WORLD;
        EXPECT(shmem_team_split_strided(SHMEM_TEAM_WORLD, bad[i][0], bad[i][1], bad[i][2], NULL,
                                        0, &t) != 0,
               "split(start %d, stride %d, size %d) of %d PEs returned 0", bad[i][0], bad[i][1],
               bad[i][2], npes);
        EXPECT(t == SHMEM_TEAM_INVALID, "a failed split left a team");
    }
    t = SHMEM_TEAM_WORLD;
    EXPECT(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &t) != 0,
           "split of SHMEM_TEAM_INVALID returned 0");
    EXPECT(t == SHMEM_TEAM_INVALID, "split of SHMEM_TEAM_INVALID left a team");
    EXPECT(shmem_team_split_2d(SHMEM_TEAM_INVALID, 1, NULL, 0, &x, NULL, 0, &y) != 0,
           "split_2d of SHMEM_TEAM_INVALID returned 0");
    EXPECT(x == SHMEM_TEAM_INVALID && y == SHMEM_TEAM_INVALID,
           "split_2d of SHMEM_TEAM_INVALID left a team");
    x = y = SHMEM_TEAM_WORLD;
    EXPECT(shmem_team_split_2d(SHMEM_TEAM_WORLD, 0, NULL, 0, &x, NULL, 0, &y) != 0,
           "split_2d(xrange 0) returned 0");
    EXPECT(x == SHMEM_TEAM_INVALID && y == SHMEM_TEAM_INVALID, "split_2d(xrange 0) left a team");
    /* Nothing is left behind: the world still works. */
    check_team(SHMEM_TEAM_WORLD, "world after bad splits", 0, 1, npes);
    /* Destroying SHMEM_TEAM_INVALID does nothing. */
    shmem_team_destroy(SHMEM_TEAM_INVALID);
}

/* 2-d splits of a parent whose world PEs are pstart + i * pstride, i < pn. */
static void two_d(shmem_team_t parent, const char *pname, int pstart, int pstride, int pn)
{
    const int xr[] = {1, 2, 3, 5, pn, pn + 2};
    char what[160];

    for (size_t k = 0; k < sizeof(xr) / sizeof(xr[0]); k++) {
        shmem_team_t x = SHMEM_TEAM_INVALID, y = SHMEM_TEAM_INVALID;
        shmem_team_config_t xc = {.num_contexts = 2}, yc = {.num_contexts = 5}, got;
        int xrange = xr[k], r = xrange > pn ? pn : xrange, idx = shmem_team_my_pe(parent);
        int row = idx / r, col = idx % r;
        int xsize = pn - row * r < r ? pn - row * r : r, ysize = (pn - col + r - 1) / r;

        EXPECT(shmem_team_split_2d(parent, xrange, &xc, SHMEM_TEAM_NUM_CONTEXTS, &x, &yc,
                                   SHMEM_TEAM_NUM_CONTEXTS, &y) == 0,
               "split_2d(%s, xrange %d) failed", pname, xrange);
        snprintf(what, sizeof(what), "split_2d(%s, xrange %d) x axis", pname, xrange);
        check_team(x, what, pstart + row * r * pstride, pstride, xsize);
        EXPECT(shmem_team_get_config(x, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 &&
                   got.num_contexts == 2, "%s: num_contexts %d, want 2", what, got.num_contexts);
        snprintf(what, sizeof(what), "split_2d(%s, xrange %d) y axis", pname, xrange);
        check_team(y, what, pstart + col * pstride, r * pstride, ysize);
        EXPECT(shmem_team_get_config(y, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 &&
                   got.num_contexts == 5, "%s: num_contexts %d, want 5", what, got.num_contexts);
        /* The x and y teams meet in this PE only. */
        EXPECT(shmem_team_translate_pe(x, col, y) == row, "%s: x pe %d is y pe %d, want %d",
               what, col, shmem_team_translate_pe(x, col, y), row);
        shmem_team_destroy(x);
        shmem_team_destroy(y);
    }
}

/* Contexts made from a team, and the team's pointer routine. */
static void contexts(void)
{
    shmem_team_t odd = SHMEM_TEAM_INVALID, got = SHMEM_TEAM_INVALID;
    shmem_ctx_t ctx = SHMEM_CTX_INVALID, plain;
    int n = npes / 2;

    EXPECT(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &got) == 0 && got == SHMEM_TEAM_WORLD,
           "the default context's team is not the world");
    EXPECT(shmem_ctx_create(0, &plain) == 0, "shmem_ctx_create failed");
    EXPECT(shmem_ctx_get_team(plain, &got) == 0 && got == SHMEM_TEAM_WORLD,
           "a created context's team is not the world");
    shmem_ctx_destroy(plain);
    got = SHMEM_TEAM_WORLD;
    EXPECT(shmem_ctx_get_team(SHMEM_CTX_INVALID, &got) != 0 && got == SHMEM_TEAM_INVALID,
           "shmem_ctx_get_team(SHMEM_CTX_INVALID)");
    ctx = SHMEM_CTX_DEFAULT;
    EXPECT(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &ctx) != 0 && ctx == SHMEM_CTX_INVALID,
           "shmem_team_create_ctx(SHMEM_TEAM_INVALID)");
    EXPECT(shmem_team_create_ctx(SHMEM_TEAM_WORLD, 0, &ctx) == 0, "context of the world");
    EXPECT(shmem_ctx_get_team(ctx, &got) == 0 && got == SHMEM_TEAM_WORLD,
           "context of the world: its team");
    shmem_ctx_destroy(ctx);
    if (n < 1)
        return;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n, NULL, 0, &odd);
    if (odd != SHMEM_TEAM_INVALID) {
        int tme = shmem_team_my_pe(odd), right = (tme + 1) % n;
        int *p;
        EXPECT(shmem_team_create_ctx(odd, SHMEM_CTX_PRIVATE, &ctx) == 0,
               "context of the odd team");
        EXPECT(shmem_ctx_get_team(ctx, &got) == 0 && got == odd,
               "context of the odd team: its team is not the odd team");
        shmem_ctx_destroy(ctx);
        /* shmem_team_ptr takes a team PE number. */
        memset(sym_int, 0, sizeof(sym_int));
        shmem_team_sync(odd);
        p = shmem_team_ptr(odd, &sym_int[tme], right);
        /* NULL exactly for a PE of another node (virtual nodes); a put reaches it. */
        int wright = shmem_team_translate_pe(odd, right, SHMEM_TEAM_WORLD);
        EXPECT((p != NULL) == (shmem_ptr(sym_int, wright) != NULL),
               "shmem_team_ptr(odd, pe %d) and shmem_ptr(pe %d) disagree", right, wright);
        if (p)
            *p = 1000 + me;
        else
            shmem_int_p(&sym_int[tme], 1000 + me, wright);
        shmem_quiet();
        EXPECT(shmem_team_ptr(odd, sym_int, tme) == (void *)sym_int,
               "shmem_team_ptr to this PE is not the local address");
        shmem_team_sync(odd);
        int left = (tme + n - 1) % n;
        EXPECT(sym_int[left] == 1000 + 1 + 2 * left,
               "shmem_team_ptr: slot of team pe %d holds %d, want %d", left, sym_int[left],
               1000 + 1 + 2 * left);
        shmem_team_destroy(odd);
    }
    shmem_barrier_all();
}

/* Point-to-point routines on a context made from a team use team PE numbers. */
static void ctx_rma(void)
{
    shmem_team_t t = SHMEM_TEAM_INVALID;
    shmem_ctx_t ctx;
    int n = npes - 1;

    memset(sym_long, 0, sizeof(sym_long));
    shmem_barrier_all();
    if (n >= 1) {
        /* All PEs but 0: team pe i is world pe i + 1. */
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, n, NULL, 0, &t);
        if (t != SHMEM_TEAM_INVALID) {
            int tme = shmem_team_my_pe(t), right = (tme + 1) % n;
            EXPECT(shmem_team_create_ctx(t, 0, &ctx) == 0, "shmem_team_create_ctx failed");
            shmem_ctx_long_p(ctx, &sym_long[0], 100 + me, right);
            shmem_ctx_quiet(ctx);
            shmem_ctx_destroy(ctx);
        }
    }
    shmem_barrier_all();
    if (me >= 1) {
        int tme = me - 1, left = (tme + n - 1) % n;
        EXPECT(sym_long[0] == 100 + left + 1,
               "put to team pe %d on a context of the team: world pe %d holds %ld, want %d "
               "(from team pe %d)", tme, me, sym_long[0], 100 + left + 1, left);
    } else {
        EXPECT(sym_long[0] == 0, "world pe 0 is not in the team but got %ld", sym_long[0]);
    }
    shmem_barrier_all();
    shmem_team_destroy(t);
}

/* Broadcasts back to back with no barrier between them, on team t (this PE's index my, n
 * members): roots in turn, 8, 60 and 61 bytes (teams across nodes push up to a cell's 60
 * without a barrier, so runs of more than 16 reuse the cells), into a symmetric dest and into
 * one on the stack, each result checked before the next call. */
static void back_to_back(shmem_team_t t, const char *what, int my, int n)
{
    static unsigned char sym_src[64], sym_dst[64];
    static const size_t sizes[] = {8, 60, 8, 61, 60};
    unsigned char local[64];

    for (int r = 0; r < 53; r++) {
        const int root = r % n, on_stack = r % 3 == 1;
        const size_t nb = sizes[r % 5];
        unsigned char *dst = on_stack ? local : sym_dst;
        for (size_t b = 0; b < nb; b++)
            sym_src[b] = (unsigned char)(my * 31 + r * 7 + b);
        memset(dst, 0xee, sizeof(sym_dst));
        shmem_broadcastmem(t, dst, sym_src, nb, root);
        size_t bad = 0;
        for (size_t b = 0; b < nb; b++)
            bad += dst[b] != (unsigned char)(root * 31 + r * 7 + b);
        EXPECT(bad == 0 && dst[nb] == 0xee, "%s: broadcast %d (%zu bytes from member %d): %zu "
               "bytes wrong", what, r, nb, root, bad);
    }
    /* A reduction between two runs: both kinds of push in one stretch. */
    sym_long[0] = my + 1;
    shmem_long_sum_reduce(t, &sym_long[1], &sym_long[0], 1);
    EXPECT(sym_long[1] == (long)n * (n + 1) / 2, "%s: sum after broadcasts: %ld", what,
           sym_long[1]);
    /* Gathers and sums of one long a member, back to back (in one cell up to 7 members). */
    static long part, all[TEST_MAX_PES], sum;
    for (int r = 0; r < 40; r++) {
        part = my * 1000 + r;
        if (r % 2) {
            shmem_long_fcollect(t, all, &part, 1);
            for (int i = 0; i < n; i++)
                EXPECT(all[i] == i * 1000 + r, "%s: fcollect %d: member %d gave %ld", what, r,
                       i, all[i]);
        } else {
            shmem_long_sum_reduce(t, &sum, &part, 1);
            EXPECT(sum == 1000L * n * (n - 1) / 2 + (long)n * r, "%s: sum %d: %ld", what, r,
                   sum);
        }
    }
    for (int r = 0; r < 20; r++) {
        long v = my == r % n ? 1000 + r : -1;
        sym_long[2] = v;
        shmem_broadcastmem(t, &sym_long[3], &sym_long[2], sizeof(long), r % n);
        EXPECT(sym_long[3] == 1000 + r, "%s: broadcast %d after the sum: %ld", what, r,
               sym_long[3]);
    }
}

/* Large broadcasts from every member of t in turn, into symmetric and private dest: across
 * three or more nodes they pass along the chain of node leaders a segment at a time, and the
 * length (two segments of 128 KiB and an odd tail) ends in a partial one. Every byte is
 * checked, and the byte after dest. */
#define LARGE_BCAST ((size_t)(256 << 10) + 4099)
static unsigned char *large_src, *large_dst, *large_priv;

static void large(shmem_team_t t, const char *what, int my, int n)
{
    for (int r = 0; r < 2 * n; r++) {
        const int root = r % n;
        unsigned char *to = r < n ? large_dst : large_priv;
        size_t bad = 0, first = 0;
        for (size_t b = 0; b < LARGE_BCAST; b++)
            large_src[b] = (unsigned char)(my * 37 + r * 11 + b * 7 + b / 4096);
        memset(to, 0xee, LARGE_BCAST + 1);
        shmem_broadcastmem(t, to, large_src, LARGE_BCAST, root);
        for (size_t b = LARGE_BCAST; b-- > 0;)
            if (to[b] != (unsigned char)(root * 37 + r * 11 + b * 7 + b / 4096)) {
                bad++;
                first = b;
            }
        EXPECT(bad == 0 && to[LARGE_BCAST] == 0xee, "%s: broadcast of %zu bytes from member %d "
               "into %s dest: %zu bytes wrong, the first at %zu", what, LARGE_BCAST, root,
               r < n ? "a symmetric" : "a private", bad, first);
    }
}

static void broadcasts(void)
{
    shmem_team_t odd = SHMEM_TEAM_INVALID;

    large_src = shmem_malloc(LARGE_BCAST);
    large_dst = shmem_malloc(LARGE_BCAST + 1);
    large_priv = malloc(LARGE_BCAST + 1);
    REQUIRE(large_src && large_dst && large_priv, "%zu bytes for the large broadcasts",
            LARGE_BCAST);
    back_to_back(SHMEM_TEAM_WORLD, "world", me, npes);
    large(SHMEM_TEAM_WORLD, "world", me, npes);
    shmem_barrier_all();
    if (npes >= 2) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd);
        if (odd != SHMEM_TEAM_INVALID) {
            back_to_back(odd, "odd PEs", shmem_team_my_pe(odd), shmem_team_n_pes(odd));
            large(odd, "odd PEs", shmem_team_my_pe(odd), shmem_team_n_pes(odd));
            shmem_team_destroy(odd);
        }
    }
    shmem_barrier_all();
    shmem_free(large_src);
    shmem_free(large_dst);
    free(large_priv);
}

/* Many split/destroy cycles: slots are reused; a long-lived team stays intact throughout. */
static void cycles(void)
{
    shmem_team_t keep = SHMEM_TEAM_INVALID, prev = SHMEM_TEAM_INVALID;
    static long val, out;

    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &keep);
    for (int c = 0; c < 200; c++) {
        int stride = 1 + c % 3, start = (c / 3) % (npes < 3 ? npes : 3);
        int size = (npes - 1 - start) / stride + 1 - (c % 2 && (npes - 1 - start) / stride ? 1 : 0);
        shmem_team_t t = SHMEM_TEAM_INVALID;
        char what[96];

        snprintf(what, sizeof(what), "cycle %d: split(start %d, stride %d, size %d)", c, start,
                 stride, size);
        EXPECT(shmem_team_split_strided(SHMEM_TEAM_WORLD, start, stride, size, NULL, 0, &t) == 0,
               "%s failed", what);
        if (t != SHMEM_TEAM_INVALID) {
            int wroot = start + (c % size) * stride;
            val = me == wroot ? 7000 + c : -1;
            shmem_long_broadcast(t, &out, &val, 1, c % size);
            EXPECT(out == 7000 + c, "%s: broadcast from team pe %d gave %ld", what, c % size,
                   out);
            if (c % 5 == 0) {
                val = me;
                shmem_long_max_reduce(t, &out, &val, 1);
                EXPECT(out == start + (size - 1) * stride, "%s: max of members %ld, want %d",
                       what, out, start + (size - 1) * stride);
            }
        }
        /* Every third cycle a team outlives the next split. */
        shmem_team_destroy(prev);
        prev = SHMEM_TEAM_INVALID;
        if (c % 3 == 0)
            prev = t;
        else
            shmem_team_destroy(t);
        if (c % 50 == 49)
            check_team(keep, "a team kept through the cycles", 0, 1, npes);
    }
    shmem_team_destroy(prev);
    shmem_team_destroy(keep);
}

/* Splits until none is left: the failing split returns non-zero on every PE and gives
 * SHMEM_TEAM_INVALID; after the teams are destroyed splits work again. */
static void exhaust(void)
{
    enum { MAX = 100 };
    static shmem_team_t teams[MAX];
    static int count;
    int k;

    for (k = 0; k < MAX; k++) {
        teams[k] = SHMEM_TEAM_WORLD;
        if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &teams[k]) != 0)
            break;
    }
    EXPECT(k >= 32 && k < MAX, "%d teams at once before a split failed", k);
    EXPECT(k == MAX || teams[k] == SHMEM_TEAM_INVALID, "the failed split left a team");
    count = k;
    shmem_barrier_all();
    for (int pe = 0; pe < npes; pe++)
        EXPECT(shmem_int_g(&count, pe) == k, "pe %d ran out after %d splits, this PE after %d",
               pe, shmem_int_g(&count, pe), k);
    for (int i = 0; i < k; i++)
        if (i % 7 == 0)
            check_team(teams[i], "one of many teams", 0, 1, npes);
    for (int i = k - 1; i >= 0; i--)
        shmem_team_destroy(teams[i]);
    check_team(SHMEM_TEAM_WORLD, "world after running out of teams", 0, 1, npes);
    for (int i = 0; i < 3; i++) {
        shmem_team_t t = SHMEM_TEAM_INVALID;
        EXPECT(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t) == 0,
               "a split after the teams were destroyed failed");
        check_team(t, "a split after running out", 0, 1, npes);
        shmem_team_destroy(t);
    }
}

/* ---- Teams from a unique id ---------------------------------------------------------------- */
static uint64_t uid_sym[2];

/* The id PE maker made, as every PE learns it (the program's own channel; here a broadcast). */
static uint64_t uid_from(int maker, int which)
{
    static uint64_t mine[2];

    if (me == maker)
        EXPECT(shmemx_team_get_uniqueid(&mine[which]) == 0 && mine[which] != 0,
               "shmemx_team_get_uniqueid");
    shmem_barrier_all();
    uid_sym[which] = shmem_uint64_g(&mine[which], maker);
    shmem_barrier_all();
    return uid_sym[which];
}

static void uid_teams(void)
{
    shmem_team_t t = SHMEM_TEAM_INVALID, u = SHMEM_TEAM_INVALID;
    shmem_team_config_t conf = {.num_contexts = 3}, got = {0};
    uint64_t id = uid_from(npes - 1, 0);

    EXPECT(shmemx_team_init(id, npes, me, &conf, SHMEM_TEAM_NUM_CONTEXTS, &t) == 0,
           "shmemx_team_init of every PE failed");
    check_team(t, "team_init of every PE", 0, 1, npes);
    EXPECT(shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 && got.num_contexts == 3,
           "team_init: the config's num_contexts is %d", got.num_contexts);
    shmem_team_destroy(t);

    /* The odd PEs, with an id made by PE 0, which is not a member. */
    id = uid_from(0, 0);
    t = SHMEM_TEAM_INVALID;
    if (me % 2)
        EXPECT(shmemx_team_init(id, npes / 2, me / 2, NULL, 0, &t) == 0,
               "shmemx_team_init of the odd PEs failed");
    check_team(t, "team_init of the odd PEs", 1, 2, npes / 2);
    shmem_team_destroy(t);
    shmem_barrier_all();

    /* Two disjoint teams at once: the first half and the rest, ids by the last PE and PE 0. */
    uint64_t a = uid_from(npes - 1, 0), b = uid_from(0, 1);
    int half = (npes + 1) / 2;
    t = SHMEM_TEAM_INVALID;
    if (me < half)
        EXPECT(shmemx_team_init(a, half, me, NULL, 0, &t) == 0, "team_init of the first half");
    else
        EXPECT(shmemx_team_init(b, npes - half, me - half, NULL, 0, &t) == 0,
               "team_init of the second half");
    check_team(me < half ? t : SHMEM_TEAM_INVALID, "team_init of the first half", 0, 1, half);
    if (npes > half)
        check_team(me >= half ? t : SHMEM_TEAM_INVALID, "team_init of the second half", half, 1,
                   npes - half);
    shmem_team_destroy(t);
    t = SHMEM_TEAM_INVALID;

    /* Ids used by turns, more of them than a PE keeps records of; each team lives on while
     * the next one is made. */
    for (int c = 0; c < 70; c++) {
        id = uid_from(c % npes, c % 2);
        EXPECT(shmemx_team_init(id, npes, me, NULL, 0, &u) == 0 && u != SHMEM_TEAM_INVALID,
               "team_init #%d failed", c);
        if (c % 10 == 0)
            check_team(u, "a team_init by turns", 0, 1, npes);
        shmem_team_destroy(t);
        t = u;
    }
    shmem_team_destroy(t);

    /* A team of one: this PE alone, with an id it made itself. */
    EXPECT(shmemx_team_get_uniqueid(&id) == 0, "shmemx_team_get_uniqueid");
    EXPECT(shmemx_team_init(id, 1, 0, NULL, 0, &t) == 0 && shmem_team_n_pes(t) == 1 &&
               shmem_team_my_pe(t) == 0 &&
               shmem_team_translate_pe(t, 0, SHMEM_TEAM_WORLD) == me,
           "a team_init of one PE");
    shmem_team_sync(t);
    shmem_team_destroy(t);
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    test_start();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (argc > 1 && !strcmp(argv[1], "ctx-rma")) {
        ctx_rma();
        return test_finish("coll_teams ctx-rma");
    }
    if (argc > 1 && !strcmp(argv[1], "cycles")) {
        cycles();
        exhaust();
        return test_finish("coll_teams cycles");
    }
    predefined();
    broadcasts();
    strided();
    bad_splits();
    two_d(SHMEM_TEAM_WORLD, "world", 0, 1, npes);
    if (npes >= 3) {
        /* A parent of odd size with start 1: all PEs but 0 (or but 0 and 1, to make it odd). */
        shmem_team_t p = SHMEM_TEAM_INVALID;
        int pn = (npes - 1) % 2 ? npes - 1 : npes - 2, pstart = npes - pn;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, pstart, 1, pn, NULL, 0, &p);
        if (p != SHMEM_TEAM_INVALID) {
            two_d(p, "a split of odd size", pstart, 1, pn);
            shmem_team_destroy(p);
        }
        shmem_barrier_all();
    }
    contexts();
    uid_teams();
    return test_finish("coll_teams");
}
