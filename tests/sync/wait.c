/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Point-to-point synchronization: wait_until and test with their _all, _any, _some and
 * _vector forms for every type of the WAIT column, through the typed names, the C11 _Generic
 * selectors and the deprecated shmem_TYPE_wait, shmem_wait and shmem_wait_until. Locally:
 * every comparison against values below, at and above the reference, status arrays that
 * exclude elements (an excluded element never counts, satisfied or not), and the results when
 * every element is excluded or there are none (SIZE_MAX from _any, 0 from _some, _all at
 * once). Across PEs, round after round, each PE blocks in one wait form or polls one test form
 * until its left neighbour writes, and checks the indices it gets back.
 */
#include <sched.h>
#include <stdint.h>
#include <string.h>

#include "../harness.h"

#define K 6          /* elements per set */
#define M0 50        /* every element's value before it is written */
#define NCYCLE 2     /* times each form is run, each time with other comparisons */
#define NTYPED 15    /* forms with typed names; the generic selectors repeat the first 14 */
#define MAX_ROUNDS (NCYCLE * (2 * NTYPED - 1))

enum {
    F_WAIT, F_WAIT_ALL, F_WAIT_ANY, F_WAIT_SOME, F_WAIT_ALL_V, F_WAIT_ANY_V, F_WAIT_SOME_V,
    F_TEST, F_TEST_ALL, F_TEST_ANY, F_TEST_SOME, F_TEST_ALL_V, F_TEST_ANY_V, F_TEST_SOME_V,
    F_OLD_WAIT
};

#define ROW_ID(A, NAME, ...) TIX_##NAME,
enum { SYMM_TYPES(ROW_ID, _) NTIX };

static int me, npes;
static unsigned char *ring; /* symmetric: per type row, MAX_ROUNDS sets of K elements */
static unsigned char *local_area; /* symmetric: per type row, K elements for local tests */

static int reference(long double a, int cmp, long double b)
{
    switch (cmp) {
    case SHMEM_CMP_EQ: return a == b;
    case SHMEM_CMP_NE: return a != b;
    case SHMEM_CMP_GT: return a > b;
    case SHMEM_CMP_GE: return a >= b;
    case SHMEM_CMP_LT: return a < b;
    default: return a <= b;
    }
}

/* ---- The ring: what round r waits for --------------------------------------------------
 * Every element starts at M0, which never satisfies the round's comparison; the writer puts
 * w(j), which does. Vector forms compare element j with c(j). */
typedef struct round_plan {
    int form, generic, cmp;
    const int *status;   /* NULL or stat */
    int stat[K];
    int any;             /* the one included element that _any forms must return */
    int some[K];         /* the included elements _some forms must return */
    int nsome;
    long double c[K], w[K];
} round_plan_t;

static void plan(int r, int gen_ok, round_plan_t *p)
{
    int nf = gen_ok ? 2 * NTYPED - 1 : NTYPED, f = r % nf, j;
    static const long double cbase[6] = {57, M0, 55, 60, 45, 40};
    static const long double wbase[6] = {57, 53, 60, 60, 40, 40};

    memset(p, 0, sizeof(*p));
    p->generic = f >= NTYPED;
    p->form = p->generic ? f - NTYPED : f;
    p->cmp = (f + r / nf * 3) % 6;
    p->status = r % 3 ? p->stat : NULL;
    for (j = 0; j < K; j++) {
        int down = p->cmp == SHMEM_CMP_LT || p->cmp == SHMEM_CMP_LE;
        long double step = down ? -j : j;
        p->stat[j] = p->status && (j + r) % 4 == 0 ? 1 + r % 2 : 0;
        p->c[j] = cbase[p->cmp] + (p->cmp == SHMEM_CMP_NE ? 0 : step);
        p->w[j] = wbase[p->cmp] + step;
    }
    for (j = (r * 5 + 1) % K; p->stat[j]; j = (j + 1) % K)
        ;
    p->any = j;
    for (j = 0; j < K; j++)
        if (!p->stat[j] && (j + r / 2) % 2 == 0)
            p->some[p->nsome++] = j;
    if (p->nsome == 0)
        p->some[p->nsome++] = p->any;
}

static int in_some(const round_plan_t *p, size_t j)
{
    for (int k = 0; k < p->nsome; k++)
        if ((size_t)p->some[k] == j)
            return 1;
    return 0;
}

/* Writes: elements that satisfy but are excluded first, then the ones the form waits for. */
#define WRITE_0(NAME, T, p, v, pe) shmem_##NAME##_p(p, v, pe)
#define WRITE_1(NAME, T, p, v, pe) shmem_##NAME##_atomic_set(p, v, pe)

#define WRITER(NAME, T, EXT)                                                                     \
    static void write_##NAME(T *e, const round_plan_t *p, int pe)                               \
    {                                                                                           \
        int single = p->form == F_WAIT || p->form == F_TEST || p->form == F_OLD_WAIT;           \
        int vec = p->form == F_WAIT_ALL_V || p->form == F_WAIT_ANY_V ||                         \
                  p->form == F_WAIT_SOME_V || p->form == F_TEST_ALL_V ||                        \
                  p->form == F_TEST_ANY_V || p->form == F_TEST_SOME_V;                          \
        int any = p->form == F_WAIT_ANY || p->form == F_WAIT_ANY_V || p->form == F_TEST_ANY ||  \
                  p->form == F_TEST_ANY_V;                                                      \
        int some = p->form == F_WAIT_SOME || p->form == F_WAIT_SOME_V ||                        \
                   p->form == F_TEST_SOME || p->form == F_TEST_SOME_V;                          \
        if (single) {                                                                           \
            WRITE_##EXT(NAME, T, &e[0], (T)p->w[0], pe);                                        \
            return;                                                                             \
        }                                                                                       \
        for (int j = 0; j < K; j++)                                                             \
            if (p->stat[j])                                                                     \
                WRITE_##EXT(NAME, T, &e[j], (T)p->w[vec ? j : 0], pe);                          \
        for (int j = 0; j < K; j++)                                                             \
            if (!p->stat[j] && (any ? j == p->any : some ? in_some(p, (size_t)j) : 1))          \
                WRITE_##EXT(NAME, T, &e[j], (T)p->w[vec ? j : 0], pe);                          \
    }

/* FN(NAME, op) names the routine: typed or generic. */
#define TYPED(NAME, OP) shmem_##NAME##_##OP
#define GENERIC(NAME, OP) shmem_##OP

/* Collects the indices of _some forms until every expected one came back, once each. */
#define SOME_LOOP(CALL, BLOCKING)                                                                \
    do {                                                                                        \
        int seen[K] = {0}, st2[K], got = 0;                                                     \
        size_t idx[K], n;                                                                       \
        const int *st = p->status;                                                              \
        while (got < p->nsome) {                                                                \
            n = CALL;                                                                           \
            EXPECT(n <= K && (BLOCKING ? n >= 1 : 1), "%s form %d: _some returned %zu", what,   \
                   p->form, n);                                                                 \
            if (n == 0 && !BLOCKING) {                                                          \
                sched_yield();                                                                  \
                continue;                                                                       \
            }                                                                                   \
            if (n == 0 || n > K)                                                                \
                break;                                                                          \
            for (size_t i = 0; i < n; i++) {                                                    \
                size_t j = idx[i];                                                              \
                int ok = j < K && in_some(p, j) && !seen[j];                                    \
                EXPECT(ok, "%s form %d cmp %d: _some returned index %zu, expected one of %d "   \
                       "others", what, p->form, p->cmp, j, p->nsome - got);                     \
                if (!ok)                                                                        \
                    return;                                                                     \
                seen[j] = 1;                                                                    \
                got++;                                                                          \
            }                                                                                   \
            for (int j = 0; j < K; j++)                                                         \
                st2[j] = p->stat[j] || seen[j];                                                 \
            st = st2;                                                                           \
        }                                                                                       \
    } while (0)

#define READ_FORMS(NAME, T, FN)                                                                  \
    switch (p->form) {                                                                          \
    case F_WAIT: FN(NAME, wait_until)(&e[0], p->cmp, c[0]); break;                             \
    case F_WAIT_ALL: FN(NAME, wait_until_all)(e, K, p->status, p->cmp, c[0]); break;            \
    case F_WAIT_ANY: k = FN(NAME, wait_until_any)(e, K, p->status, p->cmp, c[0]); break;        \
    case F_WAIT_SOME:                                                                           \
        SOME_LOOP(FN(NAME, wait_until_some)(e, K, idx, st, p->cmp, c[0]), 1);                   \
        break;                                                                                  \
    case F_WAIT_ALL_V: FN(NAME, wait_until_all_vector)(e, K, p->status, p->cmp, c); break;      \
    case F_WAIT_ANY_V: k = FN(NAME, wait_until_any_vector)(e, K, p->status, p->cmp, c); break;  \
    case F_WAIT_SOME_V:                                                                         \
        SOME_LOOP(FN(NAME, wait_until_some_vector)(e, K, idx, st, p->cmp, c), 1);               \
        break;                                                                                  \
    case F_TEST:                                                                                \
        TEST_WAIT(FN(NAME, test)(&e[0], p->cmp, c[0]),                                          \
                  "%s form %d cmp %d: the test to succeed", what, p->form, p->cmp);             \
        break;                                                                                  \
    case F_TEST_ALL:                                                                            \
        TEST_WAIT(FN(NAME, test_all)(e, K, p->status, p->cmp, c[0]),                            \
                  "%s form %d cmp %d: the test to succeed", what, p->form, p->cmp);             \
        break;                                                                                  \
    case F_TEST_ANY:                                                                            \
        TEST_WAIT((k = FN(NAME, test_any)(e, K, p->status, p->cmp, c[0])) != SIZE_MAX,          \
                  "%s form %d cmp %d: the test to succeed", what, p->form, p->cmp);             \
        break;                                                                                  \
    case F_TEST_SOME:                                                                           \
        SOME_LOOP(FN(NAME, test_some)(e, K, idx, st, p->cmp, c[0]), 0);                         \
        break;                                                                                  \
    case F_TEST_ALL_V:                                                                          \
        TEST_WAIT(FN(NAME, test_all_vector)(e, K, p->status, p->cmp, c),                        \
                  "%s form %d cmp %d: the test to succeed", what, p->form, p->cmp);             \
        break;                                                                                  \
    case F_TEST_ANY_V:                                                                          \
        TEST_WAIT((k = FN(NAME, test_any_vector)(e, K, p->status, p->cmp, c)) != SIZE_MAX,      \
                  "%s form %d cmp %d: the test to succeed", what, p->form, p->cmp);             \
        break;                                                                                  \
    case F_TEST_SOME_V:                                                                         \
        SOME_LOOP(FN(NAME, test_some_vector)(e, K, idx, st, p->cmp, c), 0);                     \
        break;                                                                                  \
    default: shmem_##NAME##_wait(&e[0], (T)M0); break;                                          \
    }

/* Waits for round r in its form and checks what came back and what is in memory. */
#define READER(NAME, T, GEN)                                                                     \
    static void read_##NAME(T *e, const round_plan_t *p)                                        \
    {                                                                                           \
        const char *what = #NAME;                                                               \
        T c[K];                                                                                 \
        size_t k = SIZE_MAX;                                                                    \
        int any = p->form == F_WAIT_ANY || p->form == F_WAIT_ANY_V ||                           \
                  p->form == F_TEST_ANY || p->form == F_TEST_ANY_V;                             \
        for (int j = 0; j < K; j++)                                                             \
            c[j] = (T)p->c[j];                                                                  \
        SYMM_IF_##GEN(if (p->generic) { READ_FORMS(NAME, T, GENERIC) } else)                    \
        {                                                                                       \
            READ_FORMS(NAME, T, TYPED)                                                          \
        }                                                                                       \
        if (any)                                                                                \
            EXPECT(k == (size_t)p->any, "%s form %d%s cmp %d: _any returned %zu, expected %d",  \
                   what, p->form, p->generic ? " (generic)" : "", p->cmp, k, p->any);           \
        if (p->form == F_WAIT || p->form == F_TEST || p->form == F_OLD_WAIT)                    \
            EXPECT(e[0] == (T)p->w[0], "%s form %d: woke with %Lg, expected %Lg", what,         \
                   p->form, (long double)e[0], p->w[0]);                                        \
        if (p->form == F_WAIT_ALL || p->form == F_WAIT_ALL_V || p->form == F_TEST_ALL ||        \
            p->form == F_TEST_ALL_V)                                                            \
            for (int j = 0; j < K; j++) {                                                       \
                long double w = p->w[p->form == F_WAIT_ALL_V || p->form == F_TEST_ALL_V ? j : 0];\
                EXPECT(p->stat[j] || e[j] == (T)w, "%s form %d: element %d is %Lg after _all, " \
                       "expected %Lg", what, p->form, j, (long double)e[j], w);                 \
            }                                                                                   \
    }

/* The ring: even PEs write round r to their right neighbour and then wait for it; odd PEs
 * wait, then write. Every odd PE's left neighbour is even (PE 0's, with an odd count of PEs,
 * too), so nothing deadlocks, the waits of the odd PEs and of the even PEs after an odd one
 * block until their left neighbour has written, and a round costs two hops, not one per PE. */
#define RING(NAME, T, GEN)                                                                       \
    static void ring_##NAME(void)                                                               \
    {                                                                                           \
        T *sets = (T *)(ring + (size_t)TIX_##NAME * MAX_ROUNDS * K * 8);                        \
        int rounds = NCYCLE * (GEN ? 2 * NTYPED - 1 : NTYPED), right = (me + 1) % npes;         \
        round_plan_t p;                                                                         \
        for (int r = 0; r < rounds; r++) {                                                      \
            plan(r, GEN, &p);                                                                   \
            if (me % 2 == 0)                                                                    \
                write_##NAME(sets + (size_t)r * K, &p, right);                                  \
            read_##NAME(sets + (size_t)r * K, &p);                                              \
            if (me % 2 == 1)                                                                    \
                write_##NAME(sets + (size_t)r * K, &p, right);                                  \
        }                                                                                       \
    }

/* ---- Local tests: nothing changes while they run, so every result is known --------------- */
#define LOCAL_CHECKS(NAME, T, FN, TAG)                                                           \
    for (int j = 0; j < K; j++)                                                                 \
        EXPECT(FN(NAME, test)(&e[j], cmp, cv) == exp[j], "%s%s test cmp %d: %Lg vs %Lg", what, \
               TAG, cmp, (long double)e[j], (long double)cv);                                   \
    EXPECT(FN(NAME, test_all)(e, K, st, cmp, cv) == all, "%s%s test_all cmp %d mask %d", what, \
           TAG, cmp, m);                                                                        \
    EXPECT(FN(NAME, test_all_vector)(e, K, st, cmp, cvv) == allv, "%s%s test_all_vector cmp %d " \
           "mask %d", what, TAG, cmp, m);                                                       \
    k = FN(NAME, test_any)(e, K, st, cmp, cv);                                                  \
    EXPECT(k == SIZE_MAX ? !nsat : k < K && sat[k], "%s%s test_any cmp %d mask %d: %zu", what, \
           TAG, cmp, m, k);                                                                     \
    k = FN(NAME, test_any_vector)(e, K, st, cmp, cvv);                                          \
    EXPECT(k == SIZE_MAX ? !nsatv : k < K && satv[k], "%s%s test_any_vector cmp %d mask %d: "  \
           "%zu", what, TAG, cmp, m, k);                                                        \
    k = FN(NAME, test_some)(e, K, idx, st, cmp, cv);                                            \
    EXPECT(same_set(idx, k, sat, nsat), "%s%s test_some cmp %d mask %d: %zu indices", what,    \
           TAG, cmp, m, k);                                                                     \
    k = FN(NAME, test_some_vector)(e, K, idx, st, cmp, cvv);                                    \
    EXPECT(same_set(idx, k, satv, nsatv), "%s%s test_some_vector cmp %d mask %d", what, TAG,   \
           cmp, m);                                                                             \
    if (all)                                                                                    \
        FN(NAME, wait_until_all)(e, K, st, cmp, cv);                                            \
    if (allv)                                                                                   \
        FN(NAME, wait_until_all_vector)(e, K, st, cmp, cvv);                                    \
    if (nsat || !nincl) {                                                                       \
        k = FN(NAME, wait_until_any)(e, K, st, cmp, cv);                                        \
        EXPECT(nincl ? k < K && sat[k] : k == SIZE_MAX, "%s%s wait_until_any cmp %d mask %d: " \
               "%zu", what, TAG, cmp, m, k);                                                    \
        k = FN(NAME, wait_until_some)(e, K, idx, st, cmp, cv);                                  \
        EXPECT(same_set(idx, k, sat, nsat), "%s%s wait_until_some cmp %d mask %d", what, TAG,  \
               cmp, m);                                                                         \
    }                                                                                           \
    if (nsatv || !nincl) {                                                                      \
        k = FN(NAME, wait_until_any_vector)(e, K, st, cmp, cvv);                                \
        EXPECT(nincl ? k < K && satv[k] : k == SIZE_MAX, "%s%s wait_until_any_vector cmp %d "  \
               "mask %d: %zu", what, TAG, cmp, m, k);                                           \
        k = FN(NAME, wait_until_some_vector)(e, K, idx, st, cmp, cvv);                          \
        EXPECT(same_set(idx, k, satv, nsatv), "%s%s wait_until_some_vector cmp %d mask %d",    \
               what, TAG, cmp, m);                                                              \
    }                                                                                           \
    if (exp[0])                                                                                 \
        FN(NAME, wait_until)(&e[0], cmp, cv);                                                   \
    k = FN(NAME, test_any)(e, 0, st, cmp, cv);                                                  \
    EXPECT(k == SIZE_MAX, "%s%s test_any of no elements: %zu", what, TAG, k);                   \
    k = FN(NAME, wait_until_any)(e, 0, st, cmp, cv);                                            \
    EXPECT(k == SIZE_MAX, "%s%s wait_until_any of no elements: %zu", what, TAG, k);             \
    k = FN(NAME, wait_until_some)(e, 0, idx, st, cmp, cv);                                      \
    EXPECT(k == 0, "%s%s wait_until_some of no elements: %zu", what, TAG, k);                   \
    EXPECT(FN(NAME, test_all)(e, 0, st, cmp, cv) == 1, "%s%s test_all of no elements", what,   \
           TAG);                                                                                \
    FN(NAME, wait_until_all)(e, 0, st, cmp, cv);

/* sat[j]: included and satisfied. Masks: none (NULL), a few patterns, all excluded. */
#define LOCAL(NAME, T, GEN)                                                                      \
    static void local_##NAME(void)                                                              \
    {                                                                                           \
        const char *what = #NAME;                                                               \
        T *e = (T *)(local_area + (size_t)TIX_##NAME * K * 8), cv, cvv[K];                      \
        int exp[K], sat[K], satv[K], stat[K], nsat, nsatv, nincl, all, allv;                    \
        size_t idx[K], k;                                                                       \
        for (int j = 0; j < K; j++)                                                             \
            e[j] = (T)(M0 - 1 + j % 3);                                                         \
        for (int cmp = SHMEM_CMP_EQ; cmp <= SHMEM_CMP_LE; cmp++)                                \
            for (int d = -1; d <= 1; d++)                                                       \
                for (int m = 0; m < 6; m++) {                                                   \
                    const int *st = m ? stat : NULL;                                            \
                    cv = (T)(M0 + d);                                                           \
                    nsat = nsatv = nincl = 0;                                                   \
                    all = allv = 1;                                                             \
                    for (int j = 0; j < K; j++) {                                               \
                        stat[j] = mask_bit(m, j);                                               \
                        cvv[j] = (T)(M0 + d + (j % 2) - (j % 4 == 3));                          \
                        exp[j] = reference(e[j], cmp, cv);                                      \
                        sat[j] = !stat[j] && exp[j];                                            \
                        satv[j] = !stat[j] && reference(e[j], cmp, cvv[j]);                     \
                        nincl += !stat[j];                                                      \
                        nsat += sat[j];                                                         \
                        nsatv += satv[j];                                                       \
                        all &= stat[j] || exp[j];                                               \
                        allv &= stat[j] || satv[j];                                             \
                    }                                                                           \
                    LOCAL_CHECKS(NAME, T, TYPED, "")                                            \
                    SYMM_IF_##GEN(LOCAL_CHECKS(NAME, T, GENERIC, " (generic)"))                 \
                }                                                                               \
        shmem_##NAME##_wait(&e[0], (T)(M0 + 7));                                                \
    }

/* Status masks of the local tests: 0 none (NULL), 1-3 some, 4 all but one, 5 all; any
 * non-zero value excludes. */
static int mask_bit(int m, int j)
{
    switch (m) {
    case 1: return j % 3 == 2;
    case 2: return j % 2 == 0 ? 2 : 0;
    case 3: return j == 0 || j == K - 1 ? -7 : 0;
    case 4: return j != 2;
    case 5: return 1 + j;
    default: return 0;
    }
}

/* Whether the indices are exactly the set sat[] marks. */
static int same_set(const size_t *idx, size_t n, const int *sat, int nsat)
{
    int seen[K] = {0};

    if (n != (size_t)nsat)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (idx[i] >= K || !sat[idx[i]] || seen[idx[i]])
            return 0;
        seen[idx[i]] = 1;
    }
    return 1;
}

#define DEF_ROW(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)              \
    SYMM_IF_##WAIT(WRITER(NAME, T, EXT) READER(NAME, T, GEN) RING(NAME, T, GEN)                 \
                   LOCAL(NAME, T, GEN))
TEST_EXPAND(SYMM_TYPES(TEST_DEFER_ROW, DEF_ROW))

#define RUN_ROW(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)              \
    SYMM_IF_##WAIT(local_##NAME(); ring_##NAME();)

/* The deprecated long-only names: shmem_wait (until not equal) and shmem_wait_until (the
 * function, which the generic selector of the same name hides). */
static long old_word[2];

static void old_long_names(void)
{
    int left = (me + npes - 1) % npes;

    (shmem_wait_until)(&old_word[0], SHMEM_CMP_EQ, 0);
    shmem_wait(&old_word[0], 1);
    shmem_barrier_all();
    shmem_long_atomic_set(&old_word[0], 10 + me, (me + 1) % npes);
    shmem_long_atomic_set(&old_word[1], 20 + me, (me + 1) % npes);
    shmem_wait(&old_word[0], 0);
    (shmem_wait_until)(&old_word[1], SHMEM_CMP_GE, 20);
    EXPECT(old_word[0] == 10 + left && old_word[1] == 20 + left,
           "shmem_wait/shmem_wait_until: %ld %ld", old_word[0], old_word[1]);
}

/* Repeated test_any and wait_until_any calls over elements that all stay satisfied return
 * every index in turn, not always the first: a program that serves whichever is ready (the
 * OpenSHMEM specification's test_any example) reaches them all. */
static void any_turns(void)
{
    static long flags[4];
    int seen_t[4] = {0}, seen_w[4] = {0}, all_t = 1, all_w = 1;

    for (int i = 0; i < 4; i++)
        flags[i] = 1;
    for (int r = 0; r < 4; r++) {
        size_t k = shmem_long_test_any(flags, 4, NULL, SHMEM_CMP_EQ, 1);
        if (k < 4)
            seen_t[k] = 1;
    }
    for (int r = 0; r < 4; r++) {
        size_t w = shmem_long_wait_until_any(flags, 4, NULL, SHMEM_CMP_EQ, 1);
        if (w < 4)
            seen_w[w] = 1;
    }
    for (int i = 0; i < 4; i++) {
        all_t &= seen_t[i];
        all_w &= seen_w[i];
    }
    EXPECT(all_t, "4 calls of shmem_long_test_any over 4 ready elements missed one");
    EXPECT(all_w, "4 calls of shmem_long_wait_until_any over 4 ready elements missed one");
}

int main(void)
{
    size_t ring_bytes = (size_t)NTIX * MAX_ROUNDS * K * 8;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    ring = shmem_malloc(ring_bytes);
    local_area = shmem_malloc((size_t)NTIX * K * 8);
    if (!ring || !local_area)
        return 1;
    /* M0 in every element of every type. */
#define FILL_ROW(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)             \
    SYMM_IF_##WAIT(for (size_t i = 0; i < (size_t)MAX_ROUNDS * K; i++)                          \
                       ((T *)(ring + (size_t)TIX_##NAME * MAX_ROUNDS * K * 8))[i] = (T)M0;)
    SYMM_TYPES(FILL_ROW, _)
    shmem_barrier_all();
    SYMM_TYPES(RUN_ROW, _)
    old_long_names();
    any_turns();
    return test_finish("sync_wait");
}
