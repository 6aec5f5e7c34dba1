/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Remote memory access: the typed, sized and mem shells of put, get, p, g, iput, iget and the
 * non-blocking forms. Every shell is one line over a size-only body (the funnel); the context
 * and non-context names come from one expansion. To a load/store peer a put is a memcpy into
 * the peer's slot of the window and completes when the call returns, so the _nbi forms share
 * the blocking bodies.
 */
#include <string.h>

#include "core/state.h"

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

SYMM_INLINE void put_body(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                            size_t nelems, size_t size, int pe)
{
    size_t n;

    if (!symm_ctx_ok(ctx, call))
        return;
    n = span(call, nelems, size);
    memcpy(symm_xlate_checked(call, dest, n, pe), source, n);
    symm_wake_hint(pe);
}

SYMM_INLINE void get_body(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                            size_t nelems, size_t size, int pe)
{
    size_t n;

    if (!symm_ctx_ok(ctx, call))
        return;
    n = span(call, nelems, size);
    memcpy(dest, symm_xlate_checked(call, source, n, pe), n);
}

/* Strided copy; strides count elements. The remote side's whole extent is checked once. */
SYMM_INLINE void strided(const char *call, char *to, ptrdiff_t ts, const char *from,
                           ptrdiff_t fs, size_t nelems, size_t size)
{
    if (ts <= 0 || fs <= 0)
        symm_fatal("%s(dst=%td, sst=%td): strides must be positive", call, ts, fs);
    for (size_t i = 0; i < nelems; i++)
        memcpy(to + i * ts * size, from + i * fs * size, size);
}

SYMM_INLINE size_t extent(const char *call, ptrdiff_t stride, size_t nelems, size_t size)
{
    return nelems == 0 || stride <= 0 ? 0 : span(call, (nelems - 1) * (size_t)stride + 1, size);
}

SYMM_INLINE void iput_body(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                             ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t size, int pe)
{
    if (!symm_ctx_ok(ctx, call) || nelems == 0)
        return;
    strided(call, symm_xlate_checked(call, dest, extent(call, dst, nelems, size), pe), dst,
            source, sst, nelems, size);
    symm_wake_hint(pe);
}

SYMM_INLINE void iget_body(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                             ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t size, int pe)
{
    if (!symm_ctx_ok(ctx, call) || nelems == 0)
        return;
    strided(call, dest, dst, symm_xlate_checked(call, source, extent(call, sst, nelems, size), pe),
            sst, nelems, size);
}

/* One body, two public names: shmem_ctx_NAME(ctx, ...) and shmem_NAME(...). */
#define PAIR(NAME, PARAMS, BODY, ARGS)                                                           \
    SYMM_EXPORT void shmem_ctx_##NAME(shmem_ctx_t ctx, UNPAREN PARAMS)                          \
    {                                                                                           \
        BODY(ctx, "shmem_ctx_" #NAME, UNPAREN ARGS);                                            \
    }                                                                                           \
    SYMM_EXPORT void shmem_##NAME(UNPAREN PARAMS)                                               \
    {                                                                                           \
        BODY(SHMEM_CTX_DEFAULT, "shmem_" #NAME, UNPAREN ARGS);                                  \
    }

#define CONTIG(NAME, T, SIZE)                                                                    \
    PAIR(NAME##put, (T * dest, const T *source, size_t nelems, int pe), put_body,               \
         (dest, source, nelems, SIZE, pe))                                                      \
    PAIR(NAME##get, (T * dest, const T *source, size_t nelems, int pe), get_body,               \
         (dest, source, nelems, SIZE, pe))                                                      \
    PAIR(NAME##put_nbi, (T * dest, const T *source, size_t nelems, int pe), put_body,           \
         (dest, source, nelems, SIZE, pe))                                                      \
    PAIR(NAME##get_nbi, (T * dest, const T *source, size_t nelems, int pe), get_body,           \
         (dest, source, nelems, SIZE, pe))

#define STRIDED(NAME, T, SIZE)                                                                   \
    PAIR(NAME##iput,                                                                            \
         (T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe),      \
         iput_body, (dest, source, dst, sst, nelems, SIZE, pe))                                 \
    PAIR(NAME##iget,                                                                            \
         (T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe),      \
         iget_body, (dest, source, dst, sst, nelems, SIZE, pe))

/* Single elements: a store or a load through the window. */
#define SINGLE(NAME, T)                                                                          \
    SYMM_EXPORT void shmem_ctx_##NAME##_p(shmem_ctx_t ctx, T *dest, T value, int pe)            \
    {                                                                                           \
        if (symm_ctx_ok(ctx, "shmem_ctx_" #NAME "_p")) {                                        \
            *(T *)symm_xlate_checked("shmem_ctx_" #NAME "_p", dest, sizeof(T), pe) = value;     \
            symm_wake_hint(pe);                                                                 \
        }                                                                                       \
    }                                                                                           \
    SYMM_EXPORT void shmem_##NAME##_p(T *dest, T value, int pe)                                 \
    {                                                                                           \
        *(T *)symm_xlate_checked("shmem_" #NAME "_p", dest, sizeof(T), pe) = value;             \
        symm_wake_hint(pe);                                                                     \
    }                                                                                           \
    SYMM_EXPORT T shmem_ctx_##NAME##_g(shmem_ctx_t ctx, const T *source, int pe)                \
    {                                                                                           \
        if (!symm_ctx_ok(ctx, "shmem_ctx_" #NAME "_g"))                                         \
            return (T)0;                                                                        \
        return *(const T *)symm_xlate_checked("shmem_ctx_" #NAME "_g", source, sizeof(T), pe);  \
    }                                                                                           \
    SYMM_EXPORT T shmem_##NAME##_g(const T *source, int pe)                                     \
    {                                                                                           \
        return *(const T *)symm_xlate_checked("shmem_" #NAME "_g", source, sizeof(T), pe);      \
    }

#define TYPED(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)                \
    SYMM_IF_##RMA(CONTIG(NAME##_, T, sizeof(T)) STRIDED(NAME##_, T, sizeof(T)) SINGLE(NAME, T))
SYMM_TYPES(TYPED, _)

/* putSIZE, getSIZE, putSIZE_nbi, getSIZE_nbi, iputSIZE, igetSIZE */
#define SIZED_ONE(BITS)                                                                          \
    PAIR(put##BITS, (void *dest, const void *source, size_t nelems, int pe), put_body,          \
         (dest, source, nelems, BITS / 8, pe))                                                  \
    PAIR(get##BITS, (void *dest, const void *source, size_t nelems, int pe), get_body,          \
         (dest, source, nelems, BITS / 8, pe))                                                  \
    PAIR(put##BITS##_nbi, (void *dest, const void *source, size_t nelems, int pe), put_body,    \
         (dest, source, nelems, BITS / 8, pe))                                                  \
    PAIR(get##BITS##_nbi, (void *dest, const void *source, size_t nelems, int pe), get_body,    \
         (dest, source, nelems, BITS / 8, pe))                                                  \
    PAIR(iput##BITS,                                                                            \
         (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
         iput_body, (dest, source, dst, sst, nelems, BITS / 8, pe))                             \
    PAIR(iget##BITS,                                                                            \
         (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
         iget_body, (dest, source, dst, sst, nelems, BITS / 8, pe))
SYMM_SIZES(SIZED_ONE)

PAIR(putmem, (void *dest, const void *source, size_t nbytes, int pe), put_body,
     (dest, source, nbytes, 1, pe))
PAIR(getmem, (void *dest, const void *source, size_t nbytes, int pe), get_body,
     (dest, source, nbytes, 1, pe))
PAIR(putmem_nbi, (void *dest, const void *source, size_t nbytes, int pe), put_body,
     (dest, source, nbytes, 1, pe))
PAIR(getmem_nbi, (void *dest, const void *source, size_t nbytes, int pe), get_body,
     (dest, source, nbytes, 1, pe))

/* ---- Put with signal ----------------------------------------------------------------------
 * The data is copied first; the signal update is a sequentially consistent atomic after it,
 * so a PE that observes the signal observes the data. */
SYMM_INLINE void signal_update(const char *call, uint64_t *sig_addr, uint64_t signal,
                                 int sig_op, int pe)
{
    uint64_t *sig;

    if (SYMM_UNLIKELY((uintptr_t)sig_addr & 7))
        symm_fatal("%s(sig_addr=%p, pe=%d): signal address is not 8-byte aligned", call,
                   (void *)sig_addr, pe);
    sig = (uint64_t *)symm_xlate_checked(call, sig_addr, sizeof(*sig), pe);
    if (sig_op == SHMEM_SIGNAL_SET)
        __atomic_store_n(sig, signal, __ATOMIC_SEQ_CST);
    else if (sig_op == SHMEM_SIGNAL_ADD)
        __atomic_fetch_add(sig, signal, __ATOMIC_SEQ_CST);
    else
        symm_fatal("%s(sig_addr=%p, sig_op=%d, pe=%d): unknown signal operation "
                   "(SHMEM_SIGNAL_SET %d, SHMEM_SIGNAL_ADD %d)", call, (void *)sig_addr, sig_op,
                   pe, SHMEM_SIGNAL_SET, SHMEM_SIGNAL_ADD);
    symm_wake(pe);
}

SYMM_INLINE void put_signal_body(shmem_ctx_t ctx, const char *call, void *dest,
                                   const void *source, size_t nelems, size_t size,
                                   uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
    size_t n;

    if (!symm_ctx_ok(ctx, call))
        return;
    n = span(call, nelems, size);
    memcpy(symm_xlate_checked(call, dest, n, pe), source, n);
    signal_update(call, sig_addr, signal, sig_op, pe);
}

#define SIGNAL_PARAMS(T)                                                                         \
    (T * dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, \
     int pe)
#define SIGNAL_ARGS(SIZE) (dest, source, nelems, SIZE, sig_addr, signal, sig_op, pe)
#define PUT_SIGNAL(NAME, T, SIZE)                                                                \
    PAIR(NAME##_signal, SIGNAL_PARAMS(T), put_signal_body, SIGNAL_ARGS(SIZE))                   \
    PAIR(NAME##_signal_nbi, SIGNAL_PARAMS(T), put_signal_body, SIGNAL_ARGS(SIZE))
#define SIGNAL_TYPED(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)         \
    SYMM_IF_##RMA(PUT_SIGNAL(NAME##_put, T, sizeof(T)))
SYMM_TYPES(SIGNAL_TYPED, _)
#define SIGNAL_SIZED(BITS) PUT_SIGNAL(put##BITS, void, BITS / 8)
SYMM_SIZES(SIGNAL_SIZED)
PUT_SIGNAL(putmem, void, 1)

SYMM_INLINE void signal_op_body(shmem_ctx_t ctx, const char *call, uint64_t *sig_addr,
                                  uint64_t signal, int op, int pe)
{
    if (symm_ctx_ok(ctx, call))
        signal_update(call, sig_addr, signal, op, pe);
}

PAIR(signal_add, (uint64_t *sig_addr, uint64_t signal, int pe), signal_op_body,
     (sig_addr, signal, SHMEM_SIGNAL_ADD, pe))
PAIR(signal_set, (uint64_t *sig_addr, uint64_t signal, int pe), signal_op_body,
     (sig_addr, signal, SHMEM_SIGNAL_SET, pe))
