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
 * combined, and rounded back to nearest even, as the GPU's arithmetic on them does (the
 * conversions are here; cmake/gen_api.c writes the combiners into gen/typed_combine.c).
 */
#include <string.h>

#include "coll/coll.h"

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

/* The combiners of every row, the [op][type] table, the element sizes and
 * symm_combine_any_order, written by cmake/gen_api.c. */
#include "coll/gen/typed_combine.c"
