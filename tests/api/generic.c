/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The C11 type-generic selectors of the bitwise atomics and the team reductions, called with
 * every type the standard defines them for: the rows of the type table whose column is set
 * (BIT; BITRED, MINMAX, SUMPROD) and the complex types. Several of those types are another
 * row's type under a second name (int32_t is int, whose row has no bitwise routines), so this
 * is what shows that a selector knows them.
 *
 * Atomics: each PE owns one bit of a word on the target PE and applies and, or or xor with it,
 * in every form (plain, fetching, fetching _nbi; with and without a context); a fetching form
 * sees its own bit as it was before, and the word ends as the operation over every PE's bit.
 * Reductions: three elements whose result is the operation folded over every PE's value.
 */
#include <complex.h>

#include "../harness.h"

#define NRED 3  /* elements per reduction */
#define NFORM 6 /* forms of a bitwise atomic */

static int me, npes;
static shmem_ctx_t ctx;
static void *word, *sbuf, *dbuf; /* symmetric */

/* ---- Bitwise atomics ---------------------------------------------------------------------
 * PE i owns bit i % 32. With no more than 32 PEs, a fetching form sees its own bit unchanged
 * by the others: clear before an or or an xor, set before an and. */
#define BIT_OF(T, i) ((T)((T)1 << ((i) % 32)))
#define VAL_or(T, i) BIT_OF(T, i)
#define VAL_xor(T, i) BIT_OF(T, i)
#define VAL_and(T, i) ((T)~BIT_OF(T, i))
#define START_or(T) ((T)0)
#define START_xor(T) ((T)0)
#define START_and(T) ((T) ~(T)0)
#define OLD_OK_or(T, old) ((BIT_OF(T, me) & (old)) == 0)
#define OLD_OK_xor(T, old) ((BIT_OF(T, me) & (old)) == 0)
#define OLD_OK_and(T, old) ((BIT_OF(T, me) & (old)) != 0)
#define FOLD_and(a, b) ((a) & (b))
#define FOLD_or(a, b) ((a) | (b))
#define FOLD_xor(a, b) ((a) ^ (b))

#define BIT_ROUND(NAME, T, OP)                                                                     \
    static void bit_##NAME##_##OP(int form)                                                        \
    {                                                                                              \
        T *w = word, old = 0, want = START_##OP(T), got, v = VAL_##OP(T, me);                      \
        int pe = form % npes;                                                                      \
        *w = START_##OP(T);                                                                        \
        shmem_barrier_all();                                                                       \
        switch (form) {                                                                            \
        case 0:                                                                                    \
            shmem_atomic_##OP(w, v, pe);                                                           \
            break;                                                                                 \
        case 1:                                                                                    \
            shmem_atomic_##OP(ctx, w, v, pe);                                                      \
            break;                                                                                 \
        case 2:                                                                                    \
            old = shmem_atomic_fetch_##OP(w, v, pe);                                               \
            break;                                                                                 \
        case 3:                                                                                    \
            old = shmem_atomic_fetch_##OP(ctx, w, v, pe);                                          \
            break;                                                                                 \
        case 4:                                                                                    \
            shmem_atomic_fetch_##OP##_nbi(&old, w, v, pe);                                         \
            break;                                                                                 \
        default:                                                                                   \
            shmem_atomic_fetch_##OP##_nbi(ctx, &old, w, v, pe);                                    \
            break;                                                                                 \
        }                                                                                          \
        shmem_quiet();                                                                             \
        shmem_ctx_quiet(ctx);                                                                      \
        shmem_barrier_all();                                                                       \
        if (form >= 2 && npes <= 32)                                                               \
            EXPECT(OLD_OK_##OP(T, old), "%s form %d: fetch_%s on pe %d fetched %#llx", #T, form,   \
                   #OP, pe, (unsigned long long)old);                                              \
        for (int i = 0; i < npes; i++)                                                             \
            want = FOLD_##OP(want, VAL_##OP(T, i));                                                \
        got = shmem_atomic_fetch(w, pe);                                                           \
        EXPECT(got == want, "%s form %d: shmem_atomic_%s on pe %d left %#llx, not %#llx", #T,      \
               form, #OP, pe, (unsigned long long)got, (unsigned long long)want);                  \
        shmem_barrier_all();                                                                       \
    }
#define BIT_TYPE(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)               \
    SYMM_IF_##BIT(BIT_ROUND(NAME, T, and) BIT_ROUND(NAME, T, or) BIT_ROUND(NAME, T, xor))
TEST_EXPAND(SYMM_TYPES(TEST_DEFER_ROW, BIT_TYPE))

static void test_bitwise(void)
{
    for (int form = 0; form < NFORM; form++) {
#define BIT_CALL(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)               \
    SYMM_IF_##BIT(bit_##NAME##_and(form); bit_##NAME##_or(form); bit_##NAME##_xor(form);)
        SYMM_TYPES(BIT_CALL, _)
    }
}

/* ---- Team reductions ---------------------------------------------------------------------
 * Element k: bitwise operations see bit (i + k) % 7 of PE i (and its complement for and), so
 * every value fits the narrowest type; the others see 2 on PE k % npes and 1 elsewhere. */
#define RVAL_and(T, i, k) ((T) ~(T)(1u << (((i) + (k)) % 7)))
#define RVAL_or(T, i, k) ((T)(1u << (((i) + (k)) % 7)))
#define RVAL_xor(T, i, k) RVAL_or(T, i, k)
#define RVAL_ARITH(T, i, k) ((T)((i) == (k) % npes ? 2 : 1))
#define RVAL_max RVAL_ARITH
#define RVAL_min RVAL_ARITH
#define RVAL_sum RVAL_ARITH
#define RVAL_prod RVAL_ARITH
#define FOLD_max(a, b) ((a) > (b) ? (a) : (b))
#define FOLD_min(a, b) ((a) < (b) ? (a) : (b))
#define FOLD_sum(a, b) ((a) + (b))
#define FOLD_prod(a, b) ((a) * (b))

#define RED_ROUND(NAME, T, OP)                                                                     \
    static void red_##NAME##_##OP(void)                                                            \
    {                                                                                              \
        T *s = sbuf, *d = dbuf;                                                                    \
        int rc;                                                                                    \
        for (int k = 0; k < NRED; k++) {                                                           \
            s[k] = RVAL_##OP(T, me, k);                                                            \
            d[k] = 0;                                                                              \
        }                                                                                          \
        rc = shmem_##OP##_reduce(SHMEM_TEAM_WORLD, d, s, NRED);                                    \
        EXPECT(rc == 0, "shmem_%s_reduce(%s) returned %d", #OP, #T, rc);                           \
        for (int k = 0; k < NRED; k++) {                                                           \
            T want = RVAL_##OP(T, 0, k);                                                           \
            for (int i = 1; i < npes; i++)                                                         \
                want = FOLD_##OP(want, RVAL_##OP(T, i, k));                                        \
            EXPECT(d[k] == want, "shmem_%s_reduce(%s): [%d] = %Lg, not %Lg", #OP, #T, k,           \
                   (long double)d[k], (long double)want);                                          \
        }                                                                                          \
        shmem_barrier_all();                                                                       \
    }
#define RED_TYPE(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)               \
    SYMM_IF_##BITRED(RED_ROUND(NAME, T, and) RED_ROUND(NAME, T, or) RED_ROUND(NAME, T, xor))       \
        SYMM_IF_##MINMAX(RED_ROUND(NAME, T, max) RED_ROUND(NAME, T, min))                          \
            SYMM_IF_##SUMPROD(RED_ROUND(NAME, T, sum) RED_ROUND(NAME, T, prod))
TEST_EXPAND(SYMM_TYPES(TEST_DEFER_ROW, RED_TYPE))

/* The complex rows of the table, sums and products: PE i gives (i + 1) + k i to the sum, and i
 * to the product on PE k % npes (1 elsewhere), so the product is i. */
#define CPLX_ROUND(NAME, T)                                                                        \
    static void red_##NAME(void)                                                                   \
    {                                                                                              \
        T *s = sbuf, *d = dbuf, want;                                                              \
        for (int k = 0; k < NRED; k++)                                                             \
            s[k] = (T)(me + 1) + (T)k * I;                                                         \
        shmem_sum_reduce(SHMEM_TEAM_WORLD, d, s, NRED);                                            \
        for (int k = 0; k < NRED; k++) {                                                           \
            want = (T)npes * (npes + 1) / 2 + (T)npes * k * I;                                     \
            EXPECT(d[k] == want, "shmem_sum_reduce(%s): [%d] = %g%+gi, not %g%+gi", #T, k,         \
                   (double)creal(d[k]), (double)cimag(d[k]), (double)creal(want),                  \
                   (double)cimag(want));                                                           \
        }                                                                                          \
        shmem_barrier_all();                                                                       \
        for (int k = 0; k < NRED; k++)                                                             \
            s[k] = me == k % npes ? I : 1;                                                         \
        shmem_prod_reduce(SHMEM_TEAM_WORLD, d, s, NRED);                                           \
        for (int k = 0; k < NRED; k++)                                                             \
            EXPECT(d[k] == I, "shmem_prod_reduce(%s): [%d] = %g%+gi, not i", #T, k,                \
                   (double)creal(d[k]), (double)cimag(d[k]));                                      \
        shmem_barrier_all();                                                                       \
    }
#define CPLX_TYPE(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN,  \
                  TOALL, TOBIT, OLD, DEV)                                                       \
    SYMM_IF_##SUMPROD(CPLX_ROUND(NAME, T))
TEST_EXPAND(SYMM_TYPE_TABLE_COMPLEX(TEST_DEFER_ROW, CPLX_TYPE))

static void test_reductions(void)
{
#define RED_CALL(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)               \
    SYMM_IF_##BITRED(red_##NAME##_and(); red_##NAME##_or(); red_##NAME##_xor();)                   \
        SYMM_IF_##MINMAX(red_##NAME##_max(); red_##NAME##_min();)                                  \
            SYMM_IF_##SUMPROD(red_##NAME##_sum(); red_##NAME##_prod();)
    SYMM_TYPES(RED_CALL, _)
#define CPLX_CALL(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN,  \
                  TOALL, TOBIT, OLD, DEV)                                                       \
    SYMM_IF_##SUMPROD(red_##NAME();)
    SYMM_TYPE_TABLE_COMPLEX(CPLX_CALL, _)
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > TEST_MAX_PES)
        return 1;
    if (shmem_ctx_create(0, &ctx) != 0)
        ctx = SHMEM_CTX_DEFAULT;
    word = shmem_malloc(16);
    sbuf = shmem_malloc(NRED * 16);
    dbuf = shmem_malloc(NRED * 16);
    if (!word || !sbuf || !dbuf) {
        fprintf(stderr, "generic: shmem_malloc failed\n");
        return 1;
    }
    test_bitwise();
    test_reductions();
    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    shmem_free(word);
    shmem_free(sbuf);
    shmem_free(dbuf);
    return test_finish("generic");
}
