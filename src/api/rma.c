/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Remote memory access: the typed, sized and mem shells of put, get, p, g, iput, iget and the
 * non-blocking forms, put with signal, and Sandia OpenSHMEM's block-strided ibput and ibget and
 * its names of the signal calls. Every shell is one line over a size-only body (the funnel);
 * the context and non-context names come from one expansion. To a load/store peer a put is a
 * memcpy into the peer's slot of the window and completes when the call returns, so the _nbi
 * forms share the blocking bodies.
 */
#include <stdint.h>
#include <string.h>

#include "core/gpu.h"
#include "core/state.h"
#include "tl/tl.h"

#define UNPAREN(...) __VA_ARGS__

/* Bytes of nelems elements of size bytes, or fatal on overflow. */
SYMM_INLINE size_t span(const char *call, size_t nelems, size_t size)
{
    size_t n;

    if (SYMM_UNLIKELY(__builtin_mul_overflow(nelems, size, &n)))
        symm_fatal("%s(nelems=%zu): %zu elements of %zu bytes overflow the address space", call,
                   nelems, nelems, size);
    return n;
}

SYMM_INLINE void put_any(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                         size_t nelems, size_t size, int pe, int nbi)
{
    size_t n;

    char *p;

    if (!symm_ctx_ok(ctx, call))
        return;
    pe = symm_ctx_pe(ctx, pe, call);
    n = span(call, nelems, size);
    p = symm_xlate_fast(dest, n, pe);
    if (SYMM_LIKELY(p != NULL)) {
        if (SYMM_UNLIKELY(n >= SYMM_SWEEP_BYTES))
            symm_copy_large(p, source, n);
        else
            memcpy(p, source, n);
        symm_wake_hint(pe, p, n);
    } else {
        symm_rma_slow(ctx, call, dest, source, n, pe, nbi ? SYMM_PUT_NBI : SYMM_PUT);
    }
}

SYMM_INLINE void put_body(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                          size_t nelems, size_t size, int pe)
{
    put_any(ctx, call, dest, source, nelems, size, pe, 0);
}

SYMM_INLINE void put_nbi_body(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                              size_t nelems, size_t size, int pe)
{
    put_any(ctx, call, dest, source, nelems, size, pe, 1);
}

SYMM_INLINE void get_any(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                         size_t nelems, size_t size, int pe, int nbi)
{
    size_t n;

    const char *p;

    if (!symm_ctx_ok(ctx, call))
        return;
    pe = symm_ctx_pe(ctx, pe, call);
    n = span(call, nelems, size);
    p = symm_xlate_fast(source, n, pe);
    if (SYMM_LIKELY(p != NULL)) {
        if (SYMM_UNLIKELY(n >= SYMM_SWEEP_BYTES))
            symm_copy_large(dest, p, n);
        else
            memcpy(dest, p, n);
    } else
        symm_rma_slow(ctx, call, dest, source, n, pe, nbi ? SYMM_GET_NBI : SYMM_GET);
}

SYMM_INLINE void get_body(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                          size_t nelems, size_t size, int pe)
{
    get_any(ctx, call, dest, source, nelems, size, pe, 0);
}

SYMM_INLINE void get_nbi_body(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                              size_t nelems, size_t size, int pe)
{
    get_any(ctx, call, dest, source, nelems, size, pe, 1);
}

/* Strided transfers; strides count elements. The symmetric side's whole extent is translated
 * once; where the fast path does not reach it (globals, device heaps) each element goes
 * through the slow path. */
SYMM_INLINE void strided(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                         ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t size, int pe,
                         int put)
{
    ptrdiff_t sym_stride = put ? dst : sst;
    size_t ext;
    char *p;
    int net_get;

    if (dst <= 0 || sst <= 0)
        symm_fatal("%s(dst=%td, sst=%td, pe=%d): strides must be positive", call, dst, sst, pe);
    ext = span(call, (nelems - 1) * (size_t)sym_stride + 1, size);
    p = symm_xlate_fast(put ? dest : source, ext, pe);
    /* Over the network the element gets are issued together and completed at the end. */
    net_get = !p && !put && (unsigned)pe < (unsigned)symm_g.n_pes &&
              symm_g.reach[pe] == SYMM_REACH_NET;
    for (size_t i = 0; i < nelems; i++) {
        char *d = (char *)dest + i * dst * size;
        const char *s = (const char *)source + i * sst * size;
        if (!p)
            symm_rma_slow(ctx, call, d, s, size, pe,
                          put ? SYMM_PUT : net_get ? SYMM_GET_NBI : SYMM_GET);
        else if (put)
            memcpy(p + i * dst * size, s, size);
        else
            memcpy(d, p + i * sst * size, size);
    }
    if (net_get) {
        symm_net_quiet(ctx);
        if (SYMM_UNLIKELY(symm_g.gpu_queued)) /* gets from another node's device heap */
            symm_gpu_quiet();
    }
    if (put && p)
        symm_wake_hint(pe, p, ext);
}

SYMM_INLINE void iput_body(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                           ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t size, int pe)
{
    if (symm_ctx_ok(ctx, call) && nelems != 0)
        strided(ctx, call, dest, source, dst, sst, nelems, size, symm_ctx_pe(ctx, pe, call), 1);
}

SYMM_INLINE void iget_body(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                           ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t size, int pe)
{
    if (symm_ctx_ok(ctx, call) && nelems != 0)
        strided(ctx, call, dest, source, dst, sst, nelems, size, symm_ctx_pe(ctx, pe, call), 0);
}

/* Block-strided transfers (shmemx_ibput, shmemx_ibget): nblocks blocks of bsize elements,
 * block i at element i * sst of source and i * tst of target. Each block is one contiguous
 * copy; over the network a call's gets are issued together and completed at its end. */
SYMM_INLINE void blocked(shmem_ctx_t ctx, const char *call, void *target, const void *source,
                         ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks, size_t size,
                         int pe, int put)
{
    size_t n;
    int net_get;

    if (!symm_ctx_ok(ctx, call) || nblocks == 0 || bsize == 0)
        return;
    if (bsize > PTRDIFF_MAX || tst < (ptrdiff_t)bsize || sst < (ptrdiff_t)bsize)
        symm_fatal("%s(tst=%td, sst=%td, bsize=%zu, pe=%d): strides must be at least bsize", call,
                   tst, sst, bsize, pe);
    pe = symm_ctx_pe(ctx, pe, call);
    n = span(call, bsize, size);
    span(call, (nblocks - 1) * (size_t)(put ? tst : sst) + bsize, size);
    net_get = !put && (unsigned)pe < (unsigned)symm_g.n_pes && symm_g.reach[pe] == SYMM_REACH_NET;
    for (size_t i = 0; i < nblocks; i++) {
        char *d = (char *)target + i * tst * size;
        const char *s = (const char *)source + i * sst * size;
        char *p = symm_xlate_fast(put ? d : s, n, pe);
        if (!p) {
            symm_rma_slow(ctx, call, d, s, n, pe,
                          put ? SYMM_PUT : net_get ? SYMM_GET_NBI : SYMM_GET);
        } else if (put) {
            memcpy(p, s, n);
            symm_wake_hint(pe, p, n);
        } else {
            memcpy(d, p, n);
        }
    }
    if (net_get) {
        symm_net_quiet(ctx);
        if (SYMM_UNLIKELY(symm_g.gpu_queued))
            symm_gpu_quiet();
    }
}

SYMM_INLINE void ibput_body(shmem_ctx_t ctx, const char *call, void *target, const void *source,
                            ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks,
                            size_t size, int pe)
{
    blocked(ctx, call, target, source, tst, sst, bsize, nblocks, size, pe, 1);
}

SYMM_INLINE void ibget_body(shmem_ctx_t ctx, const char *call, void *target, const void *source,
                            ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks,
                            size_t size, int pe)
{
    blocked(ctx, call, target, source, tst, sst, bsize, nblocks, size, pe, 0);
}

/* One body, two public names: P_ctx_NAME(ctx, ...) and P_NAME(...), P shmem or shmemx. */
#define PAIR_OF(P, NAME, PARAMS, BODY, ARGS)                                                    \
    SYMM_EXPORT void P##_ctx_##NAME(shmem_ctx_t ctx, UNPAREN PARAMS)                            \
    {                                                                                           \
        BODY(ctx, #P "_ctx_" #NAME, UNPAREN ARGS);                                              \
    }                                                                                           \
    SYMM_EXPORT void P##_##NAME(UNPAREN PARAMS)                                                 \
    {                                                                                           \
        BODY(SHMEM_CTX_DEFAULT, #P "_" #NAME, UNPAREN ARGS);                                    \
    }
#define PAIR(NAME, PARAMS, BODY, ARGS) PAIR_OF(shmem, NAME, PARAMS, BODY, ARGS)

#define CONTIG(NAME, T, SIZE)                                                                   \
    PAIR(NAME##put, (T * dest, const T *source, size_t nelems, int pe), put_body,               \
         (dest, source, nelems, SIZE, pe))                                                      \
    PAIR(NAME##get, (T * dest, const T *source, size_t nelems, int pe), get_body,               \
         (dest, source, nelems, SIZE, pe))                                                      \
    PAIR(NAME##put_nbi, (T * dest, const T *source, size_t nelems, int pe), put_nbi_body,       \
         (dest, source, nelems, SIZE, pe))                                                      \
    PAIR(NAME##get_nbi, (T * dest, const T *source, size_t nelems, int pe), get_nbi_body,       \
         (dest, source, nelems, SIZE, pe))

#define STRIDED(NAME, T, SIZE)                                                                  \
    PAIR(NAME##iput,                                                                            \
         (T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe),      \
         iput_body, (dest, source, dst, sst, nelems, SIZE, pe))                                 \
    PAIR(NAME##iget,                                                                            \
         (T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe),      \
         iget_body, (dest, source, dst, sst, nelems, SIZE, pe))

/* Single elements: a store or a load through the window. */
#define SINGLE_PUT(CTX, CALL, T, dest, value, pe)                                               \
    do {                                                                                        \
        T *q_ = (T *)symm_xlate_fast(dest, sizeof(T), pe);                                      \
        if (SYMM_LIKELY(q_ != NULL)) {                                                          \
            *q_ = value;                                                                        \
            symm_wake_hint(pe, q_, sizeof(T));                                                  \
        } else {                                                                                \
            symm_rma_slow(CTX, CALL, dest, &value, sizeof(T), pe, SYMM_PUT);                    \
        }                                                                                       \
    } while (0)
#define SINGLE_GET(CTX, CALL, T, source, pe)                                                    \
    do {                                                                                        \
        const T *q_ = (const T *)symm_xlate_fast(source, sizeof(T), pe);                        \
        if (SYMM_LIKELY(q_ != NULL))                                                            \
            return *q_;                                                                         \
        T v_;                                                                                   \
        symm_rma_slow(CTX, CALL, &v_, source, sizeof(T), pe, SYMM_GET);                         \
        return v_;                                                                              \
    } while (0)

#define SINGLE(NAME, T)                                                                         \
    SYMM_EXPORT void shmem_ctx_##NAME##_p(shmem_ctx_t ctx, T *dest, T value, int pe)            \
    {                                                                                           \
        if (symm_ctx_ok(ctx, "shmem_ctx_" #NAME "_p"))                                          \
            SINGLE_PUT(ctx, "shmem_ctx_" #NAME "_p", T, dest, value,                            \
                       symm_ctx_pe(ctx, pe, "shmem_ctx_" #NAME "_p"));                          \
    }                                                                                           \
    SYMM_EXPORT void shmem_##NAME##_p(T *dest, T value, int pe)                                 \
    {                                                                                           \
        SINGLE_PUT(SHMEM_CTX_DEFAULT, "shmem_" #NAME "_p", T, dest, value, pe);                 \
    }                                                                                           \
    SYMM_EXPORT T shmem_ctx_##NAME##_g(shmem_ctx_t ctx, const T *source, int pe)                \
    {                                                                                           \
        if (!symm_ctx_ok(ctx, "shmem_ctx_" #NAME "_g"))                                         \
            return (T)0;                                                                        \
        SINGLE_GET(ctx, "shmem_ctx_" #NAME "_g", T, source,                                     \
                   symm_ctx_pe(ctx, pe, "shmem_ctx_" #NAME "_g"));                              \
    }                                                                                           \
    SYMM_EXPORT T shmem_##NAME##_g(const T *source, int pe)                                     \
    {                                                                                           \
        SINGLE_GET(SHMEM_CTX_DEFAULT, "shmem_" #NAME "_g", T, source, pe);                      \
    }

/* shmemx_PUT and shmemx_GET (with shmemx_ctx_ forms): Sandia OpenSHMEM's block-strided
 * names. */
#define BLOCKED(PUT, GET, T, SIZE)                                                              \
    PAIR_OF(shmemx, PUT,                                                                        \
            (T * target, const T *source, ptrdiff_t tst, ptrdiff_t sst, size_t bsize,           \
             size_t nblocks, int pe),                                                           \
            ibput_body, (target, source, tst, sst, bsize, nblocks, SIZE, pe))                   \
    PAIR_OF(shmemx, GET,                                                                        \
            (T * target, const T *source, ptrdiff_t tst, ptrdiff_t sst, size_t bsize,           \
             size_t nblocks, int pe),                                                           \
            ibget_body, (target, source, tst, sst, bsize, nblocks, SIZE, pe))

#define TYPED(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)               \
    SYMM_IF_##RMA(CONTIG(NAME##_, T, sizeof(T)) STRIDED(NAME##_, T, sizeof(T)) SINGLE(NAME, T)  \
                      BLOCKED(NAME##_ibput, NAME##_ibget, T, sizeof(T)))
SYMM_TYPES(TYPED, _)

/* putSIZE, getSIZE, putSIZE_nbi, getSIZE_nbi, iputSIZE, igetSIZE */
#define SIZED_ONE(BITS)                                                                          \
    PAIR(put##BITS, (void *dest, const void *source, size_t nelems, int pe), put_body,           \
         (dest, source, nelems, BITS / 8, pe))                                                   \
    PAIR(get##BITS, (void *dest, const void *source, size_t nelems, int pe), get_body,           \
         (dest, source, nelems, BITS / 8, pe))                                                   \
    PAIR(put##BITS##_nbi, (void *dest, const void *source, size_t nelems, int pe), put_nbi_body, \
         (dest, source, nelems, BITS / 8, pe))                                                   \
    PAIR(get##BITS##_nbi, (void *dest, const void *source, size_t nelems, int pe), get_nbi_body, \
         (dest, source, nelems, BITS / 8, pe))                                                   \
    PAIR(iput##BITS,                                                                             \
         (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe),  \
         iput_body, (dest, source, dst, sst, nelems, BITS / 8, pe))                              \
    PAIR(iget##BITS,                                                                             \
         (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe),  \
         iget_body, (dest, source, dst, sst, nelems, BITS / 8, pe))
SYMM_SIZES(SIZED_ONE)
#define SIZED_BLOCKED(BITS) BLOCKED(ibput##BITS, ibget##BITS, void, BITS / 8)
SYMM_SIZES(SIZED_BLOCKED)

PAIR(putmem, (void *dest, const void *source, size_t nbytes, int pe), put_body,
     (dest, source, nbytes, 1, pe))
PAIR(getmem, (void *dest, const void *source, size_t nbytes, int pe), get_body,
     (dest, source, nbytes, 1, pe))
PAIR(putmem_nbi, (void *dest, const void *source, size_t nbytes, int pe), put_nbi_body,
     (dest, source, nbytes, 1, pe))
PAIR(getmem_nbi, (void *dest, const void *source, size_t nbytes, int pe), get_nbi_body,
     (dest, source, nbytes, 1, pe))

/* ---- Put with signal ----------------------------------------------------------------------
 * The data is copied first; the signal update is a sequentially consistent atomic after it,
 * so a PE that observes the signal observes the data. */
SYMM_INLINE void signal_update(shmem_ctx_t ctx, const char *call, uint64_t *sig_addr,
                               uint64_t signal, int sig_op, int pe)
{
    uint64_t *sig;

    if (SYMM_UNLIKELY((uintptr_t)sig_addr & 7))
        symm_fatal("%s(sig_addr=%p, pe=%d): signal address is not 8-byte aligned", call,
                   (void *)sig_addr, pe);
    if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
        symm_fatal("%s(sig_addr=%p, sig_op=%d, pe=%d): unknown signal operation "
                   "(SHMEM_SIGNAL_SET %d, SHMEM_SIGNAL_ADD %d)", call, (void *)sig_addr, sig_op,
                   pe, SHMEM_SIGNAL_SET, SHMEM_SIGNAL_ADD);
    sig = (uint64_t *)symm_xlate_fast(sig_addr, sizeof(*sig), pe);
    if (SYMM_UNLIKELY(!sig))
        sig = symm_amo_target(call, sig_addr, sizeof(*sig), pe);
    if (SYMM_UNLIKELY(!sig)) {
        symm_amo_net(ctx, call, sig_op == SHMEM_SIGNAL_SET ? SYMM_AMO_SET : SYMM_AMO_ADD,
                     sig_addr, sizeof(*sig), signal, 0, pe, 0);
        return;
    }
    if (sig_op == SHMEM_SIGNAL_SET)
        __atomic_store_n(sig, signal, __ATOMIC_SEQ_CST);
    else
        __atomic_fetch_add(sig, signal, __ATOMIC_SEQ_CST);
    symm_wake(pe, sig, sizeof(*sig));
}

/* Over the network the data is ordered before the signal by a fence of the context. */
SYMM_INLINE void put_signal_body(shmem_ctx_t ctx, const char *call, void *dest,
                                 const void *source, size_t nelems, size_t size,
                                 uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
    size_t n;
    char *p;

    if (!symm_ctx_ok(ctx, call))
        return;
    pe = symm_ctx_pe(ctx, pe, call);
    n = span(call, nelems, size);
    p = symm_xlate_fast(dest, n, pe);
    if (SYMM_LIKELY(p != NULL)) {
        memcpy(p, source, n);
    } else {
        symm_rma_slow(ctx, call, dest, source, n, pe, SYMM_PUT);
        symm_net_fence(ctx);
    }
    signal_update(ctx, call, sig_addr, signal, sig_op, pe);
}

#define SIGNAL_PARAMS(T)                                                                        \
    (T * dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, \
     int pe)
#define SIGNAL_ARGS(SIZE) (dest, source, nelems, SIZE, sig_addr, signal, sig_op, pe)
#define PUT_SIGNAL(NAME, T, SIZE)                                                               \
    PAIR(NAME##_signal, SIGNAL_PARAMS(T), put_signal_body, SIGNAL_ARGS(SIZE))                   \
    PAIR(NAME##_signal_nbi, SIGNAL_PARAMS(T), put_signal_body, SIGNAL_ARGS(SIZE))
#define SIGNAL_TYPED(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)        \
    SYMM_IF_##RMA(PUT_SIGNAL(NAME##_put, T, sizeof(T)))
SYMM_TYPES(SIGNAL_TYPED, _)
#define SIGNAL_SIZED(BITS) PUT_SIGNAL(put##BITS, void, BITS / 8)
SYMM_SIZES(SIGNAL_SIZED)
PUT_SIGNAL(putmem, void, 1)

SYMM_INLINE void signal_op_body(shmem_ctx_t ctx, const char *call, uint64_t *sig_addr,
                                  uint64_t signal, int op, int pe)
{
    if (symm_ctx_ok(ctx, call))
        signal_update(ctx, call, sig_addr, signal, op, symm_ctx_pe(ctx, pe, call));
}

PAIR(signal_add, (uint64_t *sig_addr, uint64_t signal, int pe), signal_op_body,
     (sig_addr, signal, SHMEM_SIGNAL_ADD, pe))
PAIR(signal_set, (uint64_t *sig_addr, uint64_t signal, int pe), signal_op_body,
     (sig_addr, signal, SHMEM_SIGNAL_SET, pe))
/* Sandia OpenSHMEM's names of the same. */
PAIR_OF(shmemx, signal_add, (uint64_t *sig_addr, uint64_t signal, int pe), signal_op_body,
        (sig_addr, signal, SHMEM_SIGNAL_ADD, pe))
PAIR_OF(shmemx, signal_set, (uint64_t *sig_addr, uint64_t signal, int pe), signal_op_body,
        (sig_addr, signal, SHMEM_SIGNAL_SET, pe))
