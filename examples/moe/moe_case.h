/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * What the CPU and GPU versions of the MoE example share: the command line, the tokens and
 * routing every PE makes (a pure function of the seed, the PE and the token, so any PE can
 * recompute what any other sends), the toy experts, and the local reference both are checked
 * against. Plain C that also compiles as CUDA C++ (moe_gpu.cu).
 *
 * Values are chosen so that float arithmetic on them is exact: tokens are multiples of 1/8 in
 * [-4, 4), expert outputs multiples of 1/16 below 9 in magnitude (exact in bfloat16 too), gate
 * weights multiples of 1/32 up to 1/2. A sum of weighted outputs is then the same in any order,
 * and the CPU version is checked for equality.
 */
#ifndef MOE_CASE_H
#define MOE_CASE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct moe_args {
    int tokens;       /* most tokens a PE holds (--tokens) */
    int hidden;       /* --hidden */
    int experts;      /* --experts (0: 4 per PE) */
    int topk;         /* --topk */
    int channels;     /* --channels */
    int iters;        /* --iters: dispatch and combine rounds over the same buffer */
    int check;        /* --check */
    int symmetric;    /* --symmetric: CPU, every send through the send half and a put */
    int routing;      /* --routing */
    int counts;       /* --counts */
    unsigned seed;    /* --seed */
} moe_args_t;

#define MOE_MAX_TOPK 64

/* The experts run in kernels too (moe_gpu.cu). */
#ifdef __CUDACC__
#define MOE_HD __host__ __device__
#else
#define MOE_HD
#endif

enum { MOE_RANDOM, MOE_ONE, MOE_LOCAL };  /* --routing random | one | local */
enum { MOE_EVEN, MOE_UNEVEN, MOE_ZERO };  /* --counts even | uneven | zero */

static const char *const moe_routings[] = {"random", "one", "local", NULL};
static const char *const moe_countings[] = {"even", "uneven", "zero", NULL};

static inline int moe_pick(const char *const *names, const char *s)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

/* Parses the command line of a job of n PEs; on an error PE `me` == 0 prints it and the
 * usage, and every PE gets -1. */
static inline int moe_parse(int argc, char **argv, int me, int n, moe_args_t *a,
                            int channels)
{
    const char *bad = NULL;
    int i;

    memset(a, 0, sizeof(*a));
    a->tokens = 64;
    a->hidden = 128;
    a->topk = 2;
    a->channels = channels;
    a->iters = 3;
    a->seed = 1;
    for (i = 1; i < argc && !bad; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int *num = NULL;
        if (strcmp(o, "--check") == 0) {
            a->check = 1;
            continue;
        }
        if (strcmp(o, "--symmetric") == 0) {
            a->symmetric = 1;
            continue;
        }
        if (v == NULL) {
            bad = o;
            break;
        }
        if (strcmp(o, "--tokens") == 0)
            num = &a->tokens;
        else if (strcmp(o, "--hidden") == 0)
            num = &a->hidden;
        else if (strcmp(o, "--experts") == 0)
            num = &a->experts;
        else if (strcmp(o, "--topk") == 0)
            num = &a->topk;
        else if (strcmp(o, "--channels") == 0)
            num = &a->channels;
        else if (strcmp(o, "--iters") == 0)
            num = &a->iters;
        else if (strcmp(o, "--seed") == 0)
            a->seed = (unsigned)strtoul(v, NULL, 10);
        else if (strcmp(o, "--routing") == 0)
            bad = (a->routing = moe_pick(moe_routings, v)) < 0 ? v : NULL;
        else if (strcmp(o, "--counts") == 0)
            bad = (a->counts = moe_pick(moe_countings, v)) < 0 ? v : NULL;
        else
            bad = o;
        if (num) {
            char *end;
            long x = strtol(v, &end, 10);
            bad = *end || x < 0 || x > (1 << 24) ? v : NULL;
            *num = (int)x;
        }
        i++;
    }
    if (!bad && a->experts == 0)
        a->experts = 4 * n;
    if (bad) {
        if (me == 0)
            fprintf(stderr, "%s: bad argument '%s'\n", argv[0], bad);
    } else if (a->hidden < 1 || a->channels < 1 || a->iters < 1 || a->experts < 1 ||
               a->topk < 1 || a->topk > MOE_MAX_TOPK) {
        bad = "";
        if (me == 0)
            fprintf(stderr, "%s: --hidden, --experts, --topk, --channels and --iters must be at "
                    "least 1, --topk at most %d\n", argv[0], MOE_MAX_TOPK);
    } else if (a->experts % n) {
        bad = "";
        if (me == 0)
            fprintf(stderr, "%s: --experts %d is not a multiple of the %d PEs (experts are "
                    "spread evenly)\n", argv[0], a->experts, n);
    } else if (a->topk > (a->routing == MOE_LOCAL ? a->experts / n : a->experts)) {
        bad = "";
        if (me == 0)
            fprintf(stderr, "%s: --topk %d is more than the %d experts a token can choose "
                    "from\n", argv[0], a->topk,
                    a->routing == MOE_LOCAL ? a->experts / n : a->experts);
    }
    if (bad && me == 0)
        fprintf(stderr, "usage: %s [--check] [--tokens T] [--hidden H] [--experts E] [--topk K] "
                "[--channels C] [--iters N] [--routing random|one|local] "
                "[--counts even|uneven|zero] [--seed S] [--symmetric]\n", argv[0]);
    return bad ? -1 : 0;
}

/* Tokens PE pe holds: all, a different share each (uneven), or none on some (zero: the PEs of
 * odd number, and PE 0 when it is alone). */
static inline int moe_tokens_of(const moe_args_t *a, int pe, int n)
{
    if (a->counts == MOE_UNEVEN)
        return a->tokens - (int)(((long)pe * (a->tokens / n + 1)) % (a->tokens + 1));
    if (a->counts == MOE_ZERO)
        return (pe % 2 == 1 || n == 1) ? 0 : a->tokens;
    return a->tokens;
}

static inline uint32_t moe_hash(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ a;

    h = (h ^ b) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 31) ^ c) * 0x94d049bb133111ebull;
    h = (h ^ (h >> 29) ^ d) * 0xbf58476d1ce4e5b9ull;
    return (uint32_t)(h ^ (h >> 32));
}

/* Element h of token t of PE pe in round `iter`. */
static inline float moe_x(const moe_args_t *a, int iter, int pe, int t, int h)
{
    uint32_t v = moe_hash(a->seed + 7919u * (uint32_t)iter, (uint32_t)pe, (uint32_t)t,
                          (uint32_t)h + 0x10000u);
    return (float)((int)(v % 64) - 32) / 8.0f;
}

/* Expert e on one element. */
MOE_HD static inline float moe_expert(int e, float x)
{
    return x * (0.5f * (float)(e % 4 + 1)) + 0.125f * (float)(e % 8);
}

/* The routing of token t of PE pe: topk experts (distinct; -1: none) and their weights. */
static inline void moe_route(const moe_args_t *a, int iter, int pe, int n, int t, int *idx,
                             float *w)
{
    int local = a->experts / n;
    uint32_t s = a->seed + 7919u * (uint32_t)iter;

    for (int k = 0; k < a->topk; k++) {
        int e = -1;
        for (uint32_t tries = 0; e < 0 || tries == 0; tries++) {
            uint32_t r = moe_hash(s, (uint32_t)pe, (uint32_t)t, (uint32_t)(k * 1024) + tries);
            if (a->routing == MOE_ONE)
                e = k == 0 ? a->experts - 1 : -1;
            else if (a->routing == MOE_LOCAL)
                e = pe * local + (int)(r % (uint32_t)local);
            else
                e = (int)(r % (uint32_t)a->experts);
            for (int j = 0; j < k && e >= 0; j++)
                if (idx[j] == e)
                    e = -1;
            if (a->routing == MOE_ONE)
                break;
        }
        idx[k] = e;
        w[k] = (float)(1 + moe_hash(s, (uint32_t)pe, (uint32_t)t, 0xffff0000u + (uint32_t)k) % 16)
               / 32.0f;
    }
}

/* The combined output of token t of PE pe, element h: the reference. */
static inline float moe_reference(const moe_args_t *a, int iter, int pe, int t, int h,
                                  const int *idx, const float *w)
{
    float x = moe_x(a, iter, pe, t, h), acc = 0.0f;

    for (int k = 0; k < a->topk; k++)
        if (idx[k] >= 0)
            acc += w[k] * moe_expert(idx[k], x);
    return acc;
}

/* What a dispatch hands PE me: rows grouped by local expert (rows of expert el are
 * expert_off[el] .. expert_off[el + 1] - 1), each with its source PE and index and its gate
 * weight, ordered by source PE, then source index. x_at(ctx, row, h) reads a row's element.
 * Counts and prints (the first few) differences from what the routing of every PE says;
 * returns their number. */
typedef float (*moe_x_at_fn)(const void *ctx, long row, int h);

static inline long moe_check_dispatch(const moe_args_t *a, int iter, int me, int n,
                                      const int *expert_off, const int *src_pe,
                                      const int *src_idx, const float *weight, moe_x_at_fn x_at,
                                      const void *ctx)
{
    int local = a->experts / n, idx[MOE_MAX_TOPK];
    float w[MOE_MAX_TOPK];
    long errors = 0, *seen = (long *)calloc((size_t)local, sizeof(long));

    for (int s = 0; s < n; s++) {
        for (int t = 0; t < moe_tokens_of(a, s, n); t++) {
            moe_route(a, iter, s, n, t, idx, w);
            for (int k = 0; k < a->topk; k++) {
                int el = idx[k] - me * local, bad_h = -1;
                if (idx[k] < 0 || el < 0 || el >= local)
                    continue;
                long row = expert_off[el] + seen[el]++;
                if (row >= expert_off[el + 1])
                    continue; /* reported with the count below */
                for (int h = 0; h < a->hidden && bad_h < 0; h++)
                    if (x_at(ctx, row, h) != moe_x(a, iter, s, t, h))
                        bad_h = h;
                if ((src_pe[row] != s || src_idx[row] != t || weight[row] != w[k] ||
                     bad_h >= 0) && errors++ < 5)
                    fprintf(stderr, "moe: [pe %d] round %d: expert %d row %ld: source (pe %d, "
                            "token %d), weight %g, first wrong element %d; expected (pe %d, "
                            "token %d), weight %g\n", me, iter, idx[k], row, src_pe[row],
                            src_idx[row], (double)weight[row], bad_h, s, t, (double)w[k]);
            }
        }
    }
    for (int el = 0; el < local; el++)
        if (expert_off[el] + seen[el] != expert_off[el + 1] && errors++ < 5)
            fprintf(stderr, "moe: [pe %d] round %d: expert %d got %d rows, the routing sends it "
                    "%ld\n", me, iter, me * local + el, expert_off[el + 1] - expert_off[el],
                    seen[el]);
    free(seen);
    return errors;
}

/* Compares a combined output (out_at(ctx, t, h)) with the reference: within tol times the sum
 * of the magnitudes of the token's terms (tol 0: equal). Returns the differences. */
typedef float (*moe_out_at_fn)(const void *ctx, int t, int h);

static inline long moe_check_combine(const moe_args_t *a, int iter, int me, int n,
                                     moe_out_at_fn out_at, const void *ctx, double tol)
{
    int idx[MOE_MAX_TOPK], tokens = moe_tokens_of(a, me, n);
    float w[MOE_MAX_TOPK];
    long errors = 0;

    for (int t = 0; t < tokens; t++) {
        moe_route(a, iter, me, n, t, idx, w);
        for (int h = 0; h < a->hidden; h++) {
            double ref = moe_reference(a, iter, me, t, h, idx, w), mag = 0.0;
            double got = out_at(ctx, t, h);
            for (int k = 0; k < a->topk; k++)
                if (idx[k] >= 0) {
                    double term = w[k] * moe_expert(idx[k], moe_x(a, iter, me, t, h));
                    mag += term < 0 ? -term : term;
                }
            if ((got - ref > tol * mag || ref - got > tol * mag) && errors++ < 5)
                fprintf(stderr, "moe: [pe %d] round %d: token %d element %d combined to %.9g, "
                        "the reference is %.9g\n", me, iter, t, h, got, ref);
        }
    }
    return errors;
}

/* PE 0's line about the job (how: the way tokens travel; ms: a round's time on PE 0); returns
 * the job's exit status, 1 when any PE found a difference. */
static inline int moe_report(const char *prog, const moe_args_t *a, int me, int n,
                             const char *how, double ms, long errors)
{
    if (me == 0) {
        printf("%s: %d PEs, %d tokens a PE (%s), hidden %d, %d experts, top-%d, %d channels, "
               "%s routing, %s: %d rounds, %.3f ms a round on pe 0", prog, n, a->tokens,
               moe_countings[a->counts], a->hidden, a->experts, a->topk, a->channels,
               moe_routings[a->routing], how, a->iters, ms);
        if (a->check)
            printf("; %s\n", errors ? "FAILED" : "dispatch and combine agree with the reference");
        else
            printf("\n");
        fflush(stdout);
    }
    return errors ? 1 : 0;
}

#endif
