/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Every RMA routine for every type of the type table, plus the sized (8..128 bits) and mem
 * forms: put, get, p, g, iput, iget, put_nbi and get_nbi (completed by quiet), each in its
 * plain and SHMEM_CTX_DEFAULT form, and for the GEN types the C11 type-generic selectors in
 * both forms. For 0, 1, 7 and a few thousand elements each PE writes a pattern that depends on
 * sender, receiver, routine and index to its right neighbour and to itself, and reads its
 * right neighbour and itself; every element is checked exactly, and the elements next to
 * those written (strided gaps, one past the end) must be untouched. Also: RMA on global and
 * static variables, shmem_ptr arithmetic and stores through it, shmem_addr_accessible and
 * shmem_pe_accessible, and that routines called on SHMEM_CTX_INVALID change nothing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "../nodes.h"

#define NMAX 3000
#define DS 2 /* stride of the target of iput and the local destination of iget */
#define SS 3 /* stride of the local source of iput and the remote source of iget */
#define MAXOPS 16
#define MAXSIZE 16
#define PREG (DS * NMAX + 2) /* elements of a put destination region */
#define GREG (SS * NMAX + 2) /* elements of a get source region */

typedef void (*xfer_t)(void *dst, const void *src, size_t n, int pe);

typedef struct op {
    const char *name;
    xfer_t fn;
    int strided;
} op_t;

/* Stores pat(first + k) at base[k * stride] for k < count. */
typedef void (*fill_t)(void *base, size_t stride, size_t first, size_t count, int s, int r,
                       int op);
/* Index of the first k < count where base[k * stride] != pat(k), or -1. */
typedef long (*check_t)(const void *base, size_t stride, size_t count, int s, int r, int op);

typedef struct family {
    const char *name;
    size_t size;
    fill_t fill;
    check_t check;
    const op_t *puts;
    int nputs;
    const op_t *gets;
    int ngets;
} family_t;

/* The pattern: never 0 (untouched memory is 0), exact in every type of the table. */
static unsigned long pat(int s, int r, size_t i, int op, size_t size)
{
    unsigned long v = (unsigned long)(s + 1) * 7919ul + (unsigned long)r * 104729ul +
                      (unsigned long)i * 31ul + (unsigned long)op * 1299709ul;

    return 1 + v % (size == 1 ? 100ul : 30000ul);
}

#define FILL_CHECK(TAG, T)                                                                       \
    static void fill_##TAG(void *base, size_t stride, size_t first, size_t count, int s, int r, \
                           int op)                                                              \
    {                                                                                           \
        for (size_t k = 0; k < count; k++)                                                      \
            ((T *)base)[k * stride] = (T)pat(s, r, first + k, op, sizeof(T));                   \
    }                                                                                           \
    static long check_##TAG(const void *base, size_t stride, size_t count, int s, int r, int op) \
    {                                                                                           \
        for (size_t k = 0; k < count; k++)                                                      \
            if (((const T *)base)[k * stride] != (T)pat(s, r, k, op, sizeof(T)))                \
                return (long)k;                                                                 \
        return -1;                                                                              \
    }

/* ---- Typed routines, from the type table ------------------------------------------------ */
#define W_CONTIG(NAME, T, TAG, CALL)                                                             \
    static void TAG(void *d, const void *s, size_t n, int pe)                                   \
    {                                                                                           \
        CALL((T *)d, (const T *)s, n, pe);                                                      \
    }
#define W_CONTIG_CTX(NAME, T, TAG, CALL)                                                         \
    static void TAG(void *d, const void *s, size_t n, int pe)                                   \
    {                                                                                           \
        CALL(SHMEM_CTX_DEFAULT, (T *)d, (const T *)s, n, pe);                                   \
    }
#define W_STRIDED(NAME, T, TAG, CALL)                                                            \
    static void TAG(void *d, const void *s, size_t n, int pe)                                   \
    {                                                                                           \
        CALL((T *)d, (const T *)s, DS, SS, n, pe);                                              \
    }
#define W_STRIDED_CTX(NAME, T, TAG, CALL)                                                        \
    static void TAG(void *d, const void *s, size_t n, int pe)                                   \
    {                                                                                           \
        CALL(SHMEM_CTX_DEFAULT, (T *)d, (const T *)s, DS, SS, n, pe);                           \
    }
#define W_P(NAME, T, TAG, CALL, ...)                                                             \
    static void TAG(void *d, const void *s, size_t n, int pe)                                   \
    {                                                                                           \
        for (size_t i = 0; i < n; i++)                                                          \
            CALL(__VA_ARGS__(T *)d + i, ((const T *)s)[i], pe);                                 \
    }
#define W_G(NAME, T, TAG, CALL, ...)                                                             \
    static void TAG(void *d, const void *s, size_t n, int pe)                                   \
    {                                                                                           \
        for (size_t i = 0; i < n; i++)                                                          \
            ((T *)d)[i] = CALL(__VA_ARGS__(const T *)s + i, pe);                                \
    }

#define TYPED_SHELLS(NAME, T)                                                                    \
    FILL_CHECK(NAME, T)                                                                         \
    W_CONTIG(NAME, T, NAME##_put, shmem_##NAME##_put)                                           \
    W_CONTIG_CTX(NAME, T, NAME##_ctx_put, shmem_ctx_##NAME##_put)                               \
    W_CONTIG(NAME, T, NAME##_put_nbi, shmem_##NAME##_put_nbi)                                   \
    W_CONTIG_CTX(NAME, T, NAME##_ctx_put_nbi, shmem_ctx_##NAME##_put_nbi)                       \
    W_P(NAME, T, NAME##_p, shmem_##NAME##_p, )                                                  \
    W_P(NAME, T, NAME##_ctx_p, shmem_ctx_##NAME##_p, SHMEM_CTX_DEFAULT, )                       \
    W_STRIDED(NAME, T, NAME##_iput, shmem_##NAME##_iput)                                        \
    W_STRIDED_CTX(NAME, T, NAME##_ctx_iput, shmem_ctx_##NAME##_iput)                            \
    W_CONTIG(NAME, T, NAME##_get, shmem_##NAME##_get)                                           \
    W_CONTIG_CTX(NAME, T, NAME##_ctx_get, shmem_ctx_##NAME##_get)                               \
    W_CONTIG(NAME, T, NAME##_get_nbi, shmem_##NAME##_get_nbi)                                   \
    W_CONTIG_CTX(NAME, T, NAME##_ctx_get_nbi, shmem_ctx_##NAME##_get_nbi)                       \
    W_G(NAME, T, NAME##_g, shmem_##NAME##_g, )                                                  \
    W_G(NAME, T, NAME##_ctx_g, shmem_ctx_##NAME##_g, SHMEM_CTX_DEFAULT, )                       \
    W_STRIDED(NAME, T, NAME##_iget, shmem_##NAME##_iget)                                        \
    W_STRIDED_CTX(NAME, T, NAME##_ctx_iget, shmem_ctx_##NAME##_iget)

/* The type-generic selectors pick the routine from the type of the destination (source for
 * g); a wrong pick would move the wrong number of bytes and fail the check. */
#define GENERIC_SHELLS(NAME, T)                                                                  \
    W_CONTIG(NAME, T, NAME##_gen_put, shmem_put)                                                \
    W_CONTIG_CTX(NAME, T, NAME##_gen_ctx_put, shmem_put)                                        \
    W_CONTIG(NAME, T, NAME##_gen_put_nbi, shmem_put_nbi)                                        \
    W_CONTIG_CTX(NAME, T, NAME##_gen_ctx_put_nbi, shmem_put_nbi)                                \
    W_P(NAME, T, NAME##_gen_p, shmem_p, )                                                       \
    W_P(NAME, T, NAME##_gen_ctx_p, shmem_p, SHMEM_CTX_DEFAULT, )                                \
    W_STRIDED(NAME, T, NAME##_gen_iput, shmem_iput)                                             \
    W_STRIDED_CTX(NAME, T, NAME##_gen_ctx_iput, shmem_iput)                                     \
    W_CONTIG(NAME, T, NAME##_gen_get, shmem_get)                                                \
    W_CONTIG_CTX(NAME, T, NAME##_gen_ctx_get, shmem_get)                                        \
    W_CONTIG(NAME, T, NAME##_gen_get_nbi, shmem_get_nbi)                                        \
    W_CONTIG_CTX(NAME, T, NAME##_gen_ctx_get_nbi, shmem_get_nbi)                                \
    W_G(NAME, T, NAME##_gen_g, shmem_g, )                                                       \
    W_G(NAME, T, NAME##_gen_ctx_g, shmem_g, SHMEM_CTX_DEFAULT, )                                \
    W_STRIDED(NAME, T, NAME##_gen_iget, shmem_iget)                                             \
    W_STRIDED_CTX(NAME, T, NAME##_gen_ctx_iget, shmem_iget)

/* The selectors expand SYMM_TYPES themselves, and a macro does not expand inside its own
 * expansion; so a row only names GENERIC_SHELLS_1 and the call happens one scan later, in
 * TEST_EXPAND, once SYMM_TYPES is done. */
#define GENERIC_SHELLS_0(NAME, T)
#define GENERIC_SHELLS_1(NAME, T) GENERIC_SHELLS(NAME, T)
#define GENERIC_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)          \
    GENERIC_SHELLS_##GEN TEST_EMPTY()(NAME, T)
TEST_EXPAND(SYMM_TYPES(GENERIC_ROW, _))

#define OP(NAME, SUFFIX, LABEL, STRIDED) {LABEL, NAME##_##SUFFIX, STRIDED},
#define GENERIC_PUTS(NAME)                                                                       \
    OP(NAME, gen_put, "shmem_put(generic)", 0)                                                  \
    OP(NAME, gen_ctx_put, "shmem_put(ctx, generic)", 0)                                         \
    OP(NAME, gen_put_nbi, "shmem_put_nbi(generic)", 0)                                          \
    OP(NAME, gen_ctx_put_nbi, "shmem_put_nbi(ctx, generic)", 0)                                 \
    OP(NAME, gen_p, "shmem_p(generic)", 0)                                                      \
    OP(NAME, gen_ctx_p, "shmem_p(ctx, generic)", 0)                                             \
    OP(NAME, gen_iput, "shmem_iput(generic)", 1)                                                \
    OP(NAME, gen_ctx_iput, "shmem_iput(ctx, generic)", 1)
#define GENERIC_GETS(NAME)                                                                       \
    OP(NAME, gen_get, "shmem_get(generic)", 0)                                                  \
    OP(NAME, gen_ctx_get, "shmem_get(ctx, generic)", 0)                                         \
    OP(NAME, gen_get_nbi, "shmem_get_nbi(generic)", 0)                                          \
    OP(NAME, gen_ctx_get_nbi, "shmem_get_nbi(ctx, generic)", 0)                                 \
    OP(NAME, gen_g, "shmem_g(generic)", 0)                                                      \
    OP(NAME, gen_ctx_g, "shmem_g(ctx, generic)", 0)                                             \
    OP(NAME, gen_iget, "shmem_iget(generic)", 1)                                                \
    OP(NAME, gen_ctx_iget, "shmem_iget(ctx, generic)", 1)

#define TYPE_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)             \
    SYMM_IF_##RMA(TYPED_SHELLS(NAME, T)                                                         \
    static const op_t NAME##_puts[] = {                                                         \
        OP(NAME, put, "shmem_" #NAME "_put", 0)                                                 \
        OP(NAME, ctx_put, "shmem_ctx_" #NAME "_put", 0)                                         \
        OP(NAME, put_nbi, "shmem_" #NAME "_put_nbi", 0)                                         \
        OP(NAME, ctx_put_nbi, "shmem_ctx_" #NAME "_put_nbi", 0)                                 \
        OP(NAME, p, "shmem_" #NAME "_p", 0)                                                     \
        OP(NAME, ctx_p, "shmem_ctx_" #NAME "_p", 0)                                             \
        OP(NAME, iput, "shmem_" #NAME "_iput", 1)                                               \
        OP(NAME, ctx_iput, "shmem_ctx_" #NAME "_iput", 1)                                       \
        SYMM_IF_##GEN(GENERIC_PUTS(NAME))};                                                     \
    static const op_t NAME##_gets[] = {                                                         \
        OP(NAME, get, "shmem_" #NAME "_get", 0)                                                 \
        OP(NAME, ctx_get, "shmem_ctx_" #NAME "_get", 0)                                         \
        OP(NAME, get_nbi, "shmem_" #NAME "_get_nbi", 0)                                         \
        OP(NAME, ctx_get_nbi, "shmem_ctx_" #NAME "_get_nbi", 0)                                 \
        OP(NAME, g, "shmem_" #NAME "_g", 0)                                                     \
        OP(NAME, ctx_g, "shmem_ctx_" #NAME "_g", 0)                                             \
        OP(NAME, iget, "shmem_" #NAME "_iget", 1)                                               \
        OP(NAME, ctx_iget, "shmem_ctx_" #NAME "_iget", 1)                                       \
        SYMM_IF_##GEN(GENERIC_GETS(NAME))};)
SYMM_TYPES(TYPE_ROW, _)

/* ---- Sized and mem routines ------------------------------------------------------------- */
typedef struct u128 {
    uint64_t lo, hi;
} u128_t;

static void fill_u128(void *base, size_t stride, size_t first, size_t count, int s, int r, int op)
{
    for (size_t k = 0; k < count; k++) {
        uint64_t v = pat(s, r, first + k, op, 16);
        ((u128_t *)base)[k * stride] = (u128_t){.lo = v, .hi = ~v};
    }
}

static long check_u128(const void *base, size_t stride, size_t count, int s, int r, int op)
{
    for (size_t k = 0; k < count; k++) {
        uint64_t v = pat(s, r, k, op, 16);
        const u128_t *e = &((const u128_t *)base)[k * stride];
        if (e->lo != v || e->hi != ~v)
            return (long)k;
    }
    return -1;
}

FILL_CHECK(u8, uint8_t)
FILL_CHECK(u16, uint16_t)
FILL_CHECK(u32, uint32_t)
FILL_CHECK(u64, uint64_t)

#define SIZED_SHELLS(BITS)                                                                       \
    W_CONTIG(_, void, sz##BITS##_put, shmem_put##BITS)                                          \
    W_CONTIG_CTX(_, void, sz##BITS##_ctx_put, shmem_ctx_put##BITS)                              \
    W_CONTIG(_, void, sz##BITS##_put_nbi, shmem_put##BITS##_nbi)                                \
    W_CONTIG_CTX(_, void, sz##BITS##_ctx_put_nbi, shmem_ctx_put##BITS##_nbi)                    \
    W_STRIDED(_, void, sz##BITS##_iput, shmem_iput##BITS)                                       \
    W_STRIDED_CTX(_, void, sz##BITS##_ctx_iput, shmem_ctx_iput##BITS)                           \
    W_CONTIG(_, void, sz##BITS##_get, shmem_get##BITS)                                          \
    W_CONTIG_CTX(_, void, sz##BITS##_ctx_get, shmem_ctx_get##BITS)                              \
    W_CONTIG(_, void, sz##BITS##_get_nbi, shmem_get##BITS##_nbi)                                \
    W_CONTIG_CTX(_, void, sz##BITS##_ctx_get_nbi, shmem_ctx_get##BITS##_nbi)                    \
    W_STRIDED(_, void, sz##BITS##_iget, shmem_iget##BITS)                                       \
    W_STRIDED_CTX(_, void, sz##BITS##_ctx_iget, shmem_ctx_iget##BITS)                           \
    static const op_t sz##BITS##_puts[] = {                                                     \
        OP(sz##BITS, put, "shmem_put" #BITS, 0)                                                 \
        OP(sz##BITS, ctx_put, "shmem_ctx_put" #BITS, 0)                                         \
        OP(sz##BITS, put_nbi, "shmem_put" #BITS "_nbi", 0)                                      \
        OP(sz##BITS, ctx_put_nbi, "shmem_ctx_put" #BITS "_nbi", 0)                              \
        OP(sz##BITS, iput, "shmem_iput" #BITS, 1)                                               \
        OP(sz##BITS, ctx_iput, "shmem_ctx_iput" #BITS, 1)};                                     \
    static const op_t sz##BITS##_gets[] = {                                                     \
        OP(sz##BITS, get, "shmem_get" #BITS, 0)                                                 \
        OP(sz##BITS, ctx_get, "shmem_ctx_get" #BITS, 0)                                         \
        OP(sz##BITS, get_nbi, "shmem_get" #BITS "_nbi", 0)                                      \
        OP(sz##BITS, ctx_get_nbi, "shmem_ctx_get" #BITS "_nbi", 0)                              \
        OP(sz##BITS, iget, "shmem_iget" #BITS, 1)                                               \
        OP(sz##BITS, ctx_iget, "shmem_ctx_iget" #BITS, 1)};
SYMM_SIZES(SIZED_SHELLS)

W_CONTIG(_, void, mem_put, shmem_putmem)
W_CONTIG_CTX(_, void, mem_ctx_put, shmem_ctx_putmem)
W_CONTIG(_, void, mem_put_nbi, shmem_putmem_nbi)
W_CONTIG_CTX(_, void, mem_ctx_put_nbi, shmem_ctx_putmem_nbi)
W_CONTIG(_, void, mem_get, shmem_getmem)
W_CONTIG_CTX(_, void, mem_ctx_get, shmem_ctx_getmem)
W_CONTIG(_, void, mem_get_nbi, shmem_getmem_nbi)
W_CONTIG_CTX(_, void, mem_ctx_get_nbi, shmem_ctx_getmem_nbi)
static const op_t mem_puts[] = {
    OP(mem, put, "shmem_putmem", 0) OP(mem, ctx_put, "shmem_ctx_putmem", 0)
    OP(mem, put_nbi, "shmem_putmem_nbi", 0) OP(mem, ctx_put_nbi, "shmem_ctx_putmem_nbi", 0)};
static const op_t mem_gets[] = {
    OP(mem, get, "shmem_getmem", 0) OP(mem, ctx_get, "shmem_ctx_getmem", 0)
    OP(mem, get_nbi, "shmem_getmem_nbi", 0) OP(mem, ctx_get_nbi, "shmem_ctx_getmem_nbi", 0)};

#define NOPS(a) ((int)(sizeof(a) / sizeof(a[0])))
#define FAMILY_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)           \
    SYMM_IF_##RMA({#NAME, sizeof(T), fill_##NAME, check_##NAME, NAME##_puts, NOPS(NAME##_puts),  \
                   NAME##_gets, NOPS(NAME##_gets)}, )
#define SIZED_FAMILY(TAG, BITS, EL)                                                              \
    {"put" #BITS "/get" #BITS, BITS / 8, fill_##EL, check_##EL, sz##BITS##_puts,                \
     NOPS(sz##BITS##_puts), sz##BITS##_gets, NOPS(sz##BITS##_gets)},

static const family_t families[] = {
    SYMM_TYPES(FAMILY_ROW, _)
    SIZED_FAMILY(_, 8, u8) SIZED_FAMILY(_, 16, u16) SIZED_FAMILY(_, 32, u32)
    SIZED_FAMILY(_, 64, u64) SIZED_FAMILY(_, 128, u128)
    {"putmem/getmem", 1, fill_u8, check_u8, mem_puts, NOPS(mem_puts), mem_gets, NOPS(mem_gets)},
};

/* ---- The round -------------------------------------------------------------------------- */
static int me, npes, right, left;
static char *pdst;          /* symmetric: [op][from left, from self] put regions */
static char *gsrc;          /* symmetric: [op][for left reader, for self] get sources */
static char *psrc;          /* private: [op][to right, to self] put sources (get layout) */
static char *gdst;          /* private: [op][from right, from self] get destinations */
static size_t rounds;

static char *preg(char *base, const family_t *f, int op, int which)
{
    return base + ((size_t)op * 2 + which) * PREG * f->size;
}

static char *greg(char *base, const family_t *f, int op, int which)
{
    return base + ((size_t)op * 2 + which) * GREG * f->size;
}

static int zero_at(const void *base, size_t size, size_t idx)
{
    const unsigned char *p = (const unsigned char *)base + idx * size;

    for (size_t b = 0; b < size; b++)
        if (p[b])
            return 0;
    return 1;
}

static void hex(char *out, const void *el, size_t size)
{
    for (size_t b = 0; b < size; b++)
        sprintf(out + 2 * b, "%02x", ((const unsigned char *)el)[b]);
}

/* Checks one region: pattern at stride, zero in the gaps and one past the end. */
static void verify(const family_t *f, const op_t *o, const char *dir, const char *region, size_t n,
                   int s, int r, int op)
{
    size_t stride = o->strided ? DS : 1, end = o->strided ? DS * n + 1 : n + 1;
    long bad = f->check(region, stride, n, s, r, op);

    if (bad >= 0) {
        char got[40], want[40];
        unsigned char el[MAXSIZE];
        f->fill(el, 1, (size_t)bad, 1, s, r, op);
        hex(got, region + (size_t)bad * stride * f->size, f->size);
        hex(want, el, f->size);
        EXPECT(0, "%s %s %s pe %d -> pe %d, n=%zu: element %ld is %s, want %s", f->name, o->name,
               dir, s, r, n, bad, got, want);
        return;
    }
    for (size_t i = 0; i < end; i++) {
        if (o->strided && i % DS == 0 && i < DS * n)
            continue;
        if (!o->strided && i < n)
            continue;
        if (!zero_at(region, f->size, i)) {
            EXPECT(0, "%s %s %s pe %d -> pe %d, n=%zu: element %zu outside the transfer changed",
                   f->name, o->name, dir, s, r, n, i);
            return;
        }
    }
    EXPECT(1, "ok");
}

static void round_of(const family_t *f, size_t n)
{
    int pe_of[2] = {right, me};

    /* Clear where others put to me, fill what others get from me. */
    for (int k = 0; k < f->nputs; k++)
        for (int w = 0; w < 2; w++)
            memset(preg(pdst, f, k, w), 0, PREG * f->size);
    for (int k = 0; k < f->ngets; k++)
        for (int w = 0; w < 2; w++) {
            char *g = greg(gsrc, f, k, w);
            int reader = w == 0 ? left : me;
            /* Junk in between, so a wrong stride reads a wrong value. */
            f->fill(g, 1, 0, SS * n + 2, me, reader, k + 100);
            f->fill(g, f->gets[k].strided ? SS : 1, 0, n, me, reader, k);
        }
    shmem_barrier_all();

    for (int k = 0; k < f->nputs; k++)
        for (int w = 0; w < 2; w++) {
            char *src = greg(psrc, f, k, w), *dst = preg(pdst, f, k, 0);
            const op_t *o = &f->puts[k];
            memset(src, 0, GREG * f->size);
            f->fill(src, 1, 0, SS * n + 2, me, pe_of[w], k + 200);
            f->fill(src, o->strided ? SS : 1, 0, n, me, pe_of[w], k);
            if (w == 1)
                dst = preg(pdst, f, k, 1);
            o->fn(dst, src, n, pe_of[w]);
        }
    shmem_fence();
    for (int k = 0; k < f->ngets; k++)
        for (int w = 0; w < 2; w++) {
            char *dst = preg(gdst, f, k, w), *src = greg(gsrc, f, k, w);
            memset(dst, 0, PREG * f->size);
            f->gets[k].fn(dst, src, n, pe_of[w]);
        }
    shmem_quiet();
    shmem_ctx_quiet(SHMEM_CTX_DEFAULT);
    for (int k = 0; k < f->ngets; k++) {
        verify(f, &f->gets[k], "get from", preg(gdst, f, k, 0), n, right, me, k);
        verify(f, &f->gets[k], "get from", preg(gdst, f, k, 1), n, me, me, k);
    }
    shmem_barrier_all();
    for (int k = 0; k < f->nputs; k++) {
        verify(f, &f->puts[k], "put", preg(pdst, f, k, 0), n, left, me, k);
        verify(f, &f->puts[k], "put", preg(pdst, f, k, 1), n, me, me, k);
    }
    rounds++;
}

/* ---- Global and static variables -------------------------------------------------------- */
long g_put[16];
static long s_get[16];
static double s_p;
static int s_iput[32];
static long s_ptr[8];

static void test_globals(void)
{
    long src[16], got[16];
    int isrc[48];

    for (int i = 0; i < 16; i++) {
        src[i] = 1000 * me + 10 * right + i;
        s_get[i] = 5000 + 100 * me + i;
    }
    for (int i = 0; i < 48; i++)
        isrc[i] = i % 3 == 0 ? 7 * me + i / 3 + 1 : -1;
    memset(s_iput, 0, sizeof(s_iput));
    memset(g_put, 0, sizeof(g_put));
    s_p = 0;
    shmem_barrier_all();
    shmem_long_put(g_put, src, 16, right);
    shmem_double_p(&s_p, 0.5 + me, right);
    shmem_int_iput(s_iput, isrc, 2, 3, 16, right);
    shmem_long_get(got, s_get, 16, right);
    for (int i = 0; i < 16; i++)
        EXPECT(got[i] == 5000 + 100 * right + i, "get of a static from pe %d: [%d] = %ld", right,
               i, got[i]);
    EXPECT(shmem_long_g(&s_get[3], right) == 5000 + 100 * right + 3, "g of a static");
    shmem_barrier_all();
    for (int i = 0; i < 16; i++)
        EXPECT(g_put[i] == 1000 * left + 10 * me + i, "put to a global from pe %d: [%d] = %ld",
               left, i, g_put[i]);
    EXPECT(s_p == 0.5 + left, "p to a static double: %g", s_p);
    for (int i = 0; i < 32; i++)
        EXPECT(s_iput[i] == (i % 2 ? 0 : 7 * left + i / 2 + 1), "iput to a static: [%d] = %d", i,
               s_iput[i]);
    shmem_barrier_all();
}

/* ---- shmem_ptr and accessibility -------------------------------------------------------- */
static void test_ptr(void)
{
    long *a = shmem_malloc(64 * sizeof(long)), *b = shmem_malloc(4096 * sizeof(long));
    long on_stack[4] = {0};
    long *priv = malloc(64);

    EXPECT(a && b, "shmem_malloc for the pointer test");
    if (!a || !b)
        return;
    memset(a, 0, 64 * sizeof(long));
    memset(s_ptr, 0, sizeof(s_ptr));
    EXPECT(shmem_ptr(a, me) == a, "shmem_ptr(a, me) = %p, a = %p", shmem_ptr(a, me), (void *)a);
    EXPECT(shmem_ptr(s_ptr, me) == s_ptr, "shmem_ptr(global, me) is the global itself");
    for (int pe = 0; pe < npes; pe++) {
        char *pa = shmem_ptr(a, pe), *pb = shmem_ptr(b, pe), *pb9 = shmem_ptr(b + 4095, pe);
        int near = test_node_of(pe, npes) == test_node_of(me, npes);
        /* A PE of another node is reached, but not by load and store. */
        EXPECT(shmem_pe_accessible(pe) == 1, "pe_accessible(%d)", pe);
        EXPECT(shmem_addr_accessible(a, pe) == 1, "addr_accessible(heap, %d)", pe);
        EXPECT(shmem_addr_accessible(&s_p, pe) == 1, "addr_accessible(static, %d)", pe);
        EXPECT(near ? pa && pb && pb9 : !pa && !pb && !pb9 && !shmem_ptr(s_ptr, pe),
               "shmem_ptr to pe %d is %s", pe, pa ? "not NULL on another node"
                                                  : "NULL on this node");
        if (!pa || !pb || !pb9)
            continue;
        EXPECT(pa - (char *)a == pb - (char *)b,
               "shmem_ptr to pe %d: a and b are %td and %td bytes from their local copies", pe,
               pa - (char *)a, pb - (char *)b);
        EXPECT(pb9 - pb == 4095 * (ptrdiff_t)sizeof(long), "shmem_ptr inside a block, pe %d", pe);
        EXPECT(pe == me || (pa != (char *)a), "pe %d's copy at the local address", pe);
        EXPECT(shmem_addr_accessible(a, pe) == 1, "addr_accessible(heap, %d)", pe);
        EXPECT(shmem_addr_accessible(b + 4095, pe) == 1, "addr_accessible(heap end, %d)", pe);
        EXPECT(shmem_addr_accessible(g_put, pe) == 1, "addr_accessible(global, %d)", pe);
        EXPECT(shmem_addr_accessible(&s_p, pe) == 1, "addr_accessible(static, %d)", pe);
        EXPECT(shmem_addr_accessible(on_stack, pe) == 0, "addr_accessible(stack, %d)", pe);
        EXPECT(shmem_addr_accessible(priv, pe) == 0, "addr_accessible(malloc, %d)", pe);
        EXPECT(shmem_pe_accessible(pe) == 1, "pe_accessible(%d)", pe);
        EXPECT(shmem_ptr(on_stack, pe) == NULL, "shmem_ptr(stack, %d)", pe);
        EXPECT(shmem_ptr(priv, pe) == NULL, "shmem_ptr(malloc, %d)", pe);
    }
    EXPECT(shmem_pe_accessible(npes) == 0, "pe_accessible(n_pes)");
    EXPECT(shmem_pe_accessible(-1) == 0, "pe_accessible(-1)");
    EXPECT(shmem_addr_accessible(a, npes) == 0, "addr_accessible(heap, n_pes)");
    EXPECT(shmem_addr_accessible(a, -1) == 0, "addr_accessible(heap, -1)");
    shmem_barrier_all();

    /* Stores through shmem_ptr land in the neighbour's heap and globals. */
    long *ra = shmem_ptr(a, right), *rs = shmem_ptr(s_ptr, right);
    if (ra)
        for (int i = 0; i < 64; i++)
            ra[i] = 100000L * me + 100 * right + i + 1;
    if (rs)
        for (int i = 0; i < 8; i++)
            rs[i] = 77 * me + i + 1;
    /* The neighbour on another node: the same values by put. */
    if (!ra)
        for (int i = 0; i < 64; i++)
            shmem_long_p(&a[i], 100000L * me + 100 * right + i + 1, right);
    if (!rs)
        for (int i = 0; i < 8; i++)
            shmem_long_p(&s_ptr[i], 77 * me + i + 1, right);
    EXPECT(rs != NULL || test_node_of(right, npes) != test_node_of(me, npes),
           "shmem_ptr(global, right) is NULL");
    shmem_barrier_all();
    for (int i = 0; i < 64; i++)
        EXPECT(a[i] == 100000L * left + 100 * me + i + 1, "store through shmem_ptr: a[%d] = %ld",
               i, a[i]);
    for (int i = 0; i < 8; i++)
        EXPECT(s_ptr[i] == 77 * left + i + 1, "store through shmem_ptr to a global: [%d] = %ld",
               i, s_ptr[i]);
    /* And what I stored is what a get from the neighbour returns. */
    for (int i = 0; i < 64; i += 9)
        EXPECT(shmem_long_g(&a[i], right) == 100000L * me + 100 * right + i + 1,
               "get after a store through shmem_ptr: a[%d]", i);
    shmem_barrier_all();
    free(priv);
    shmem_free(b);
    shmem_free(a);
}

/* ---- SHMEM_CTX_INVALID ------------------------------------------------------------------ */
static char *inv_dst; /* symmetric */
#define INV_N 8

#define INVALID_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)          \
    SYMM_IF_##RMA(static void invalid_##NAME(void) {                                            \
        T src[INV_N * SS], loc[INV_N * DS], *d = (T *)inv_dst, *s = (T *)inv_dst + INV_N * DS;  \
        for (int i = 0; i < INV_N * SS; i++)                                                    \
            src[i] = (T)(i + 1);                                                                \
        memset(loc, 0, sizeof(loc));                                                            \
        shmem_ctx_##NAME##_put(SHMEM_CTX_INVALID, d, src, INV_N, right);                        \
        shmem_ctx_##NAME##_put_nbi(SHMEM_CTX_INVALID, d, src, INV_N, right);                    \
        shmem_ctx_##NAME##_p(SHMEM_CTX_INVALID, d, src[0], right);                              \
        shmem_ctx_##NAME##_iput(SHMEM_CTX_INVALID, d, src, DS, SS, INV_N, right);               \
        shmem_ctx_##NAME##_get(SHMEM_CTX_INVALID, loc, s, INV_N, right);                        \
        shmem_ctx_##NAME##_get_nbi(SHMEM_CTX_INVALID, loc, s, INV_N, right);                    \
        shmem_ctx_##NAME##_iget(SHMEM_CTX_INVALID, loc, s, DS, SS, INV_N, right);               \
        (void)shmem_ctx_##NAME##_g(SHMEM_CTX_INVALID, s, right);                                \
        shmem_ctx_quiet(SHMEM_CTX_INVALID);                                                     \
        for (size_t b = 0; b < sizeof(loc); b++)                                                \
            if (((unsigned char *)loc)[b]) {                                                    \
                EXPECT(0, "%s: a get on SHMEM_CTX_INVALID wrote byte %zu", #NAME, b);           \
                break;                                                                          \
            }                                                                                   \
    })
SYMM_TYPES(INVALID_ROW, _)

#define INVALID_CALL(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)         \
    SYMM_IF_##RMA(invalid_##NAME();)

static void test_invalid_ctx(void)
{
    size_t len = 3 * INV_N * DS * MAXSIZE;
    unsigned char src[INV_N * SS * MAXSIZE], loc[INV_N * DS * MAXSIZE];

    inv_dst = shmem_calloc(1, len);
    EXPECT(inv_dst != NULL, "shmem_calloc for the invalid-context test");
    if (!inv_dst)
        return;
    /* Other PEs get from the second part: make it non-zero. */
    memset(inv_dst + INV_N * DS * MAXSIZE, 0xee, INV_N * DS * MAXSIZE);
    memset(src, 0x11, sizeof(src));
    memset(loc, 0, sizeof(loc));
    shmem_barrier_all();
    SYMM_TYPES(INVALID_CALL, _)
#define INVALID_SIZED(BITS)                                                                      \
    shmem_ctx_put##BITS(SHMEM_CTX_INVALID, inv_dst, src, INV_N, right);                         \
    shmem_ctx_put##BITS##_nbi(SHMEM_CTX_INVALID, inv_dst, src, INV_N, right);                   \
    shmem_ctx_iput##BITS(SHMEM_CTX_INVALID, inv_dst, src, DS, SS, INV_N, right);                \
    shmem_ctx_get##BITS(SHMEM_CTX_INVALID, loc, inv_dst + INV_N * DS * MAXSIZE, INV_N, right);  \
    shmem_ctx_get##BITS##_nbi(SHMEM_CTX_INVALID, loc, inv_dst + INV_N * DS * MAXSIZE, INV_N,    \
                              right);                                                           \
    shmem_ctx_iget##BITS(SHMEM_CTX_INVALID, loc, inv_dst + INV_N * DS * MAXSIZE, DS, SS, INV_N, \
                         right);
    SYMM_SIZES(INVALID_SIZED)
    shmem_ctx_putmem(SHMEM_CTX_INVALID, inv_dst, src, INV_N, right);
    shmem_ctx_putmem_nbi(SHMEM_CTX_INVALID, inv_dst, src, INV_N, right);
    shmem_ctx_getmem(SHMEM_CTX_INVALID, loc, inv_dst + INV_N * DS * MAXSIZE, INV_N, right);
    shmem_ctx_getmem_nbi(SHMEM_CTX_INVALID, loc, inv_dst + INV_N * DS * MAXSIZE, INV_N, right);
    shmem_ctx_fence(SHMEM_CTX_INVALID);
    shmem_ctx_quiet(SHMEM_CTX_INVALID);
    for (size_t b = 0; b < sizeof(loc); b++)
        if (loc[b]) {
            EXPECT(0, "sized/mem get on SHMEM_CTX_INVALID wrote byte %zu", b);
            break;
        }
    shmem_barrier_all();
    for (size_t b = 0; b < INV_N * DS * MAXSIZE; b++)
        if (inv_dst[b]) {
            EXPECT(0, "a put on SHMEM_CTX_INVALID from pe %d wrote byte %zu", left, b);
            break;
        }
    shmem_barrier_all();
    shmem_free(inv_dst);
}

/* ---- Large transfers ---------------------------------------------------------------------- */
static void test_large(void)
{
    size_t len = (4u << 20) + 13;
    unsigned char *buf = shmem_malloc(len), *src = malloc(len), *back = malloc(len);

    EXPECT(buf && src && back, "allocations for the large transfer");
    if (!buf || !src || !back)
        return;
    for (size_t i = 0; i < len; i++)
        src[i] = (unsigned char)(i * 7 + me * 13 + 1);
    memset(buf, 0, len);
    shmem_barrier_all();
    shmem_putmem(buf, src, len, right);
    shmem_barrier_all();
    size_t bad = len;
    for (size_t i = 0; i < len && bad == len; i++)
        if (buf[i] != (unsigned char)(i * 7 + left * 13 + 1))
            bad = i;
    EXPECT(bad == len, "putmem of %zu bytes from pe %d: byte %zu differs", len, left, bad);
    shmem_getmem(back, buf, len, right);
    EXPECT(memcmp(back, src, len) == 0, "getmem of %zu bytes from pe %d returns what was put",
           len, right);
    /* Copies that fit the cache alternate direction call to call: two of each in a row, not
     * a multiple of the 16 KiB pieces a backward copy takes, cover both ways. */
    const size_t mid = (1u << 20) + 4093, at[2] = {1, (2u << 20) + 3}, from[2] = {0, 7};
    shmem_barrier_all();
    for (int k = 0; k < 2; k++)
        shmem_putmem(buf + at[k], src + from[k], mid, right);
    shmem_barrier_all();
    for (int k = 0; k < 2; k++) {
        bad = mid;
        for (size_t i = 0; i < mid && bad == mid; i++)
            if (buf[at[k] + i] != (unsigned char)((i + from[k]) * 7 + left * 13 + 1))
                bad = i;
        EXPECT(bad == mid, "putmem #%d of %zu bytes from pe %d: byte %zu differs", k, mid, left,
               bad);
    }
    for (int k = 0; k < 2; k++)
        shmem_getmem(back + k * mid, buf + at[k], mid, right);
    for (int k = 0; k < 2; k++)
        EXPECT(memcmp(back + k * mid, src + from[k], mid) == 0,
               "getmem #%d of %zu bytes from pe %d returns what was put", k, mid, right);
    /* Unaligned ends on both sides. */
    shmem_barrier_all();
    shmem_putmem(buf + 5, src + 3, len - 9, right);
    shmem_barrier_all();
    shmem_getmem(back + 1, buf + 5, len - 9, right);
    EXPECT(memcmp(back + 1, src + 3, len - 9) == 0,
           "unaligned putmem and getmem of %zu bytes with pe %d", len - 9, right);
    shmem_barrier_all();
    free(back);
    free(src);
    shmem_free(buf);
}

int main(void)
{
    /* Across nodes every element of p, g, iput and iget is a network operation: fewer of
     * them, still more than the small counts. */
    size_t counts[] = {0, 1, 7, test_nodes() > 1 ? NMAX / 10 : NMAX};
    int nfam = (int)(sizeof(families) / sizeof(families[0]));
    size_t preg_bytes = (size_t)MAXOPS * 2 * PREG * MAXSIZE;
    size_t greg_bytes = (size_t)MAXOPS * 2 * GREG * MAXSIZE;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;

    pdst = shmem_malloc(preg_bytes);
    gsrc = shmem_malloc(greg_bytes);
    psrc = malloc(greg_bytes);
    gdst = malloc(preg_bytes);
    if (!pdst || !gsrc || !psrc || !gdst) {
        fprintf(stderr, "rma: allocation failed on pe %d\n", me);
        return 1;
    }
    for (int f = 0; f < nfam; f++) {
        EXPECT(families[f].nputs <= MAXOPS && families[f].ngets <= MAXOPS &&
                   families[f].size <= MAXSIZE,
               "%s: table too large", families[f].name);
        for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
            round_of(&families[f], counts[c]);
    }
    test_globals();
    test_ptr();
    test_invalid_ctx();
    test_large();
    if (me == 0)
        printf("rma: %d families (%d types of the table), %zu rounds\n", nfam, nfam - 6, rounds);
    shmem_free(gsrc);
    shmem_free(pdst);
    free(psrc);
    free(gdst);
    return test_finish("rma");
}
