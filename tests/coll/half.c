/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * NVSHMEM's half and bfloat16 reductions and reduce-scatters on CPU PEs, called through
 * nvshmem.h from C (where the types are 16-bit structs) on buffers of the host heap. Every
 * 16-bit pattern survives max and min against itself (the words are widened to float and
 * rounded back: exact for every number, a NaN stays a NaN); sums and products of exactly
 * representable values are exact; a sum that falls between two neighbours rounds to the even
 * one; a reduce-scatter hands team PE i its block.
 */
#include <nvshmem.h>

#include "../harness.h"

#define WORDS 65536

/* The word of a number that the format represents exactly: binary16 (bias 15, 10 bits) or
 * bfloat16 (bias 127, 7 bits). */
static uint16_t word_of(double v, int bf16)
{
    int bias = bf16 ? 127 : 15, bits = bf16 ? 7 : 10, e = 0;
    uint16_t sign = v < 0 ? 0x8000 : 0;

    if (v == 0)
        return sign;
    if (v < 0)
        v = -v;
    while (v >= 2) {
        v /= 2;
        e++;
    }
    while (v < 1) {
        v *= 2;
        e--;
    }
    return (uint16_t)(sign | (unsigned)(e + bias) << bits | (unsigned)((v - 1) * (1 << bits)));
}

static int is_nan(uint16_t w, int bf16)
{
    return bf16 ? (w & 0x7f80) == 0x7f80 && (w & 0x7f) : (w & 0x7c00) == 0x7c00 && (w & 0x3ff);
}

typedef int (*red_fn)(nvshmem_team_t, void *, const void *, size_t);

static uint16_t *src, *dst; /* symmetric, WORDS * npes words and WORDS words */

/* The shells take CUDA's types in nvshmem.h; here those are the 16-bit structs. */
#define SHELL(NAME, OP)                                                                          \
    static int NAME##_##OP(nvshmem_team_t t, void *d, const void *s, size_t n)                 \
    {                                                                                           \
        return nvshmem_##NAME##_##OP##_reduce(t, d, s, n);                                      \
    }                                                                                           \
    static int NAME##_##OP##_rs(nvshmem_team_t t, void *d, const void *s, size_t n)            \
    {                                                                                           \
        return nvshmem_##NAME##_##OP##_reducescatter(t, d, s, n);                               \
    }
SHELL(half, max)
SHELL(half, min)
SHELL(half, sum)
SHELL(half, prod)
SHELL(bfloat16, max)
SHELL(bfloat16, min)
SHELL(bfloat16, sum)
SHELL(bfloat16, prod)

enum { MAX, MIN, SUM, PROD, NOPS };
static const char *const op_names[NOPS] = {"max", "min", "sum", "prod"};

typedef struct fmt {
    const char *name;
    int bf16;
    red_fn max, min, sum, prod;
    red_fn rs[NOPS];
} fmt_t;

static const fmt_t fmts[] = {
    {"half", 0, half_max, half_min, half_sum, half_prod,
     {half_max_rs, half_min_rs, half_sum_rs, half_prod_rs}},
    {"bfloat16", 1, bfloat16_max, bfloat16_min, bfloat16_sum, bfloat16_prod,
     {bfloat16_max_rs, bfloat16_min_rs, bfloat16_sum_rs, bfloat16_prod_rs}},
};

/* Reduce-scatter: block b of PE p holds p + b (max, min, sum: small integers, exact) or, for
 * prod, 2 where p + b is odd and 1 elsewhere; team PE me gets its block reduced. */
static void rscatter(const fmt_t *f, int op, int n, int me)
{
    const size_t blk = 300;
    double want = op == MAX ? n - 1 + me : op == MIN ? me : op == SUM ? 0 : 1;
    uint16_t w;

    for (int b = 0; b < n; b++)
        for (size_t k = 0; k < blk; k++)
            src[b * blk + k] = word_of(op == PROD ? ((me + b) % 2 ? 2 : 1) : me + b, f->bf16);
    for (int p = 0; p < n; p++)
        if (op == SUM)
            want += p + me;
        else if (op == PROD)
            want *= (p + me) % 2 ? 2 : 1;
    w = word_of(want, f->bf16);
    EXPECT(f->rs[op](NVSHMEM_TEAM_WORLD, dst, src, blk) == 0, "%s_%s_reducescatter", f->name,
           op_names[op]);
    for (size_t k = 0; k < blk; k++)
        if (dst[k] != w) {
            EXPECT(0, "%s_%s_reducescatter [%zu]: %#x, expected %#x", f->name, op_names[op], k,
                   dst[k], w);
            break;
        }
}



static void every_word(const fmt_t *f, red_fn fn, const char *what)
{
    size_t bad = 0, at = 0;

    for (size_t k = 0; k < WORDS; k++)
        src[k] = (uint16_t)k;
    EXPECT(fn(NVSHMEM_TEAM_WORLD, dst, src, WORDS) == 0, "%s_%s returned non-zero", f->name, what);
    for (size_t k = 0; k < WORDS; k++)
        if (is_nan((uint16_t)k, f->bf16) ? !is_nan(dst[k], f->bf16) : dst[k] != k)
            if (!bad++)
                at = k;
    EXPECT(bad == 0, "%s_%s_reduce of every word with itself: %zu words changed, the first "
           "%#zx -> %#x", f->name, what, bad, at, dst[at]);
}

/* Every element of dest: one value, from PE contributions value(pe). */
static void all_same(const fmt_t *f, red_fn fn, const char *what, double (*value)(int pe),
                     uint16_t want)
{
    const size_t n = 1000;

    for (size_t k = 0; k < n; k++)
        src[k] = word_of(value(shmem_my_pe()), f->bf16);
    EXPECT(fn(NVSHMEM_TEAM_WORLD, dst, src, n) == 0, "%s %s returned non-zero", f->name, what);
    for (size_t k = 0; k < n; k++)
        if (dst[k] != want) {
            EXPECT(0, "%s %s [%zu]: %#x, expected %#x", f->name, what, k, dst[k], want);
            break;
        }
}

static double quarters(int pe)
{
    return 0.25 * (pe + 1);
}

static double one_and_a_half_or_two(int pe)
{
    return pe % 2 ? 2 : 1.5;
}

static int cur_bf16;

/* PE 0 adds 1, PE 1 half a unit in the last place of 1 (a tie: rounds to 1, the even one),
 * the others 0. */
static double tie(int pe)
{
    return pe == 0 ? 1 : pe == 1 ? (cur_bf16 ? 0x1p-8 : 0x1p-11) : 0;
}

/* PE 1 adds one and a half units: the tie between 1 + 1 unit and 1 + 2 units goes to 2. */
static double tie_up(int pe)
{
    return pe == 0 ? 1 : pe == 1 ? 3 * (cur_bf16 ? 0x1p-8 : 0x1p-11) : 0;
}

int main(void)
{
    int n, me;

    test_start();
    n = shmem_n_pes();
    me = shmem_my_pe();
    src = shmem_malloc(WORDS * sizeof(uint16_t) * n);
    dst = shmem_malloc(WORDS * sizeof(uint16_t));
    REQUIRE(src && dst, "allocation failed");
    for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
        const fmt_t *f = &fmts[i];
        double q = 0, p = 1;
        cur_bf16 = f->bf16;
        every_word(f, f->max, "max");
        every_word(f, f->min, "min");
        for (int j = 0; j < n; j++) {
            q += quarters(j);
            p *= one_and_a_half_or_two(j);
        }
        all_same(f, f->sum, "sum of quarters", quarters, word_of(q, f->bf16));
        all_same(f, f->prod, "product of 1.5 and 2", one_and_a_half_or_two, word_of(p, f->bf16));
        if (n >= 2) {
            all_same(f, f->sum, "1 + half a unit", tie, word_of(1, f->bf16));
            all_same(f, f->sum, "1 + 1.5 units", tie_up, (uint16_t)(word_of(1, f->bf16) + 2));
        }
        for (int op = 0; op < NOPS; op++)
            rscatter(f, op, n, me);
    }
    shmem_free(dst);
    shmem_free(src);
    return test_finish("coll_half");
}
