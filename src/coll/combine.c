/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The [op][type] table of reductions: the only place per-type arithmetic lives. One combiner
 * for every operator a row of the type table has (the bitwise operators where BITRED or TOBIT
 * is set, max and min where MINMAX, sum and prod where SUMPROD), indexed by operator and row;
 * the team reductions, the scans, the active-set reductions and the library's own agreement
 * steps all combine through it. A combiner works element by element (acc[i] = acc[i] op
 * in[i]), so a loop the compiler vectorizes gives every element the result it would get alone.
 */
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
    SYMM_IF_##MINMAX(SYMM_OPS_MINMAX(M, NAME, T)) SYMM_IF_##SUMPROD(SYMM_OPS_SUMPROD(M, NAME, T))
#define ROW(M, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN, TOALL, \
            TOBIT, OLD, DEV)                                                                    \
    OPS_OF_ROW(M, NAME, T, BITRED, TOBIT, MINMAX, SUMPROD)

SYMM_TYPE_TABLE(ROW, COMBINER)

const symm_combine_fn symm_combine[SYMM_OP_COUNT][SYMM_TYPE_COUNT] = {SYMM_TYPE_TABLE(ROW, ENTRY)};

#define SIZE(_, NAME, T, ...) [SYMM_TYPE_##NAME] = sizeof(T),
const size_t symm_type_size[SYMM_TYPE_COUNT] = {SYMM_TYPE_TABLE(SIZE, _)};
