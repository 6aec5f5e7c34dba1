/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The [op][type] table of reductions: the only place per-type arithmetic lives. One combiner
 * for every operator a row of the type table has (the bitwise operators where BITRED or TOBIT
 * is set, max and min where MINMAX, sum and prod where SUMPROD), indexed by operator and row;
 * the team reductions, the scans, the active-set reductions and the library's own agreement
 * steps all combine through it. A combiner works element by element (acc[i] = acc[i] op
 * in[i]), so a loop the compiler vectorizes gives every element the result it would get alone.
 * NVSHMEM's half and bfloat16 rows are 16-bit words: each element is widened to float,
 * combined, and rounded back to nearest even, as the GPU's arithmetic on them does.
 */
#include <string.h>

#include "coll/coll.h"

#define COMBINE_and(a, b) ((a) & (b))
#define COMBINE_or(a, b) ((a) | (b))
#define COMBINE_xor(a, b) ((a) ^ (b))
#define COMBINE_max(a, b) ((a) > (b) ? (a) : (b))
#define COMBINE_min(a, b) ((a) < (b) ? (a) : (b))
#define COMBINE_sum(a, b) ((a) + (b))
#define COMBINE_prod(a, b) ((a) * (b))

/* acc and in never overlap: the callers combine into a buffer of their own. */
#define COMBINER(NAME, T, OP)                                                                    \
    static void NAME##_##OP(void *restrict acc, const void *restrict in, size_t n)              \
    {                                                                                           \
        T *restrict a = acc;                                                                    \
        const T *restrict b = in;                                                               \
        for (size_t i = 0; i < n; i++)                                                          \
            a[i] = COMBINE_##OP(a[i], b[i]);                                                    \
    }
#define ENTRY(NAME, T, OP) [SYMM_OP_##OP][SYMM_TYPE_##NAME] = NAME##_##OP,

/* The bitwise operators: where BITRED or TOBIT is set (never both). */
#define IF_BITWISE_00(...)
#define IF_BITWISE_10(...) __VA_ARGS__
#define IF_BITWISE_01(...) __VA_ARGS__
#define OPS_OF_ROW(M, NAME, T, BITRED, TOBIT, MINMAX, SUMPROD)                                   \
    IF_BITWISE_##BITRED##TOBIT(SYMM_OPS_BITWISE(M, NAME, T))                                    \
    SYMM_OPS_ARITH(M, NAME, T, MINMAX, SUMPROD)
#define ROW(M, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN, TOALL, \
            TOBIT, OLD, DEV)                                                                    \
    OPS_OF_ROW(M, NAME, T, BITRED, TOBIT, MINMAX, SUMPROD)

SYMM_TYPE_TABLE(ROW, COMBINER)

/* ---- half (IEEE binary16) and bfloat16 (a float's upper 16 bits) ----------------------------- */
static float word_float(uint32_t u)
{
    float f;

    memcpy(&f, &u, sizeof(f));
    return f;
}

static uint32_t float_word(float f)
{
    uint32_t u;

    memcpy(&u, &f, sizeof(u));
    return u;
}

static float half_get(uint16_t h)
{
    uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;

    if (e == 0x1f) /* infinity, NaN */
        return word_float(s | 0x7f800000u | m << 13);
    if (e) /* normal: rebias the exponent from 15 to 127 */
        return word_float(s | (e + 112) << 23 | m << 13);
    return s ? -(float)m * 0x1p-24f : (float)m * 0x1p-24f; /* zero, subnormal */
}

static uint16_t half_put(float f)
{
    uint32_t u = float_word(f), s = (u >> 16) & 0x8000u, a = u & 0x7fffffffu, r;
    float x;

    if (a > 0x7f800000u) /* NaN: stays a (quiet) NaN */
        return (uint16_t)(s | 0x7e00u);
    if (a >= 0x477ff000u) /* 65520 and above round to infinity */
        return (uint16_t)(s | 0x7c00u);
    if (a >= 0x38800000u) { /* a normal half: rebias, round the 13 bits dropped to even */
        r = a - 0x38000000u;
        r += 0xfffu + ((r >> 13) & 1);
        return (uint16_t)(s | r >> 13);
    }
    /* Below 2^-14: a multiple of 2^-24, rounded to even (1024 is the least normal). */
    x = word_float(a) * 0x1p24f;
    r = (uint32_t)x;
    if (x - (float)r > 0.5f || (x - (float)r == 0.5f && (r & 1)))
        r++;
    return (uint16_t)(s | r);
}

static float bfloat16_get(uint16_t b)
{
    return word_float((uint32_t)b << 16);
}

static uint16_t bfloat16_put(float f)
{
    uint32_t u = float_word(f);

    if ((u & 0x7fffffffu) > 0x7f800000u) /* NaN: stays a (quiet) NaN */
        return (uint16_t)(u >> 16 | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1);
    return (uint16_t)(u >> 16);
}

#define COMBINER16(NAME, T, OP)                                                                  \
    static void NAME##_##OP(void *restrict acc, const void *restrict in, size_t n)              \
    {                                                                                           \
        uint16_t *restrict a = acc;                                                             \
        const uint16_t *restrict b = in;                                                        \
        for (size_t i = 0; i < n; i++)                                                          \
            a[i] = NAME##_put(COMBINE_##OP(NAME##_get(a[i]), NAME##_get(b[i])));                \
    }
SYMM_TYPE_TABLE_NV(ROW, COMBINER16)

const symm_combine_fn symm_combine[SYMM_OP_COUNT][SYMM_TYPE_COUNT] = {
    SYMM_TYPE_TABLE(ROW, ENTRY) SYMM_TYPE_TABLE_NV(ROW, ENTRY)};

#define SIZE(_, NAME, T, ...) [SYMM_TYPE_##NAME] = sizeof(T),
#define SIZE16(_, NAME, T, ...) [SYMM_TYPE_##NAME] = sizeof(uint16_t),
const size_t symm_type_size[SYMM_TYPE_COUNT] = {SYMM_TYPE_TABLE(SIZE, _)
                                                    SYMM_TYPE_TABLE_NV(SIZE16, _)};

/* Whether fn combines alike in any order: the operators of the integer rows (those with
 * bitwise reductions), where integer arithmetic wraps; a float's sum or prod depends on the
 * order, and its max and min do where NaNs or signed zeros meet. */
#define ANY_ORDER(NAME, T, OP)                                                                   \
    if (fn == NAME##_##OP)                                                                      \
        return 1;
#define INTEGER_ROW(M, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN,    \
                    SCAN, TOALL, TOBIT, OLD, DEV)                                               \
    IF_BITWISE_##BITRED##TOBIT(OPS_OF_ROW(M, NAME, T, BITRED, TOBIT, MINMAX, SUMPROD))

int symm_combine_any_order(symm_combine_fn fn)
{
    SYMM_TYPE_TABLE_REAL(INTEGER_ROW, ANY_ORDER)
    return 0;
}
