/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Remote memory access: the typed, sized and mem shells of put, get, p, g, iput, iget and the
 * non-blocking forms, put with signal, and Sandia OpenSHMEM's block-strided ibput and ibget and
 * its names of the signal calls. Every shell is one line over a size-only body (the funnel),
 * in a context and a plain form; cmake/gen_api.c writes the typed and sized ones into
 * gen/typed_rma.c, included at the end. To a load/store peer a put is a memcpy into the peer's
 * slot of the window and completes when the call returns, so the _nbi forms share the blocking
 * bodies.
 */
#include <stdint.h>
#include <string.h>

#include "core/gpu.h"
#include "core/core.h"
#include "tl/tl.h"

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
                         size_t nelems, size_t size, int pe, symm_rma_op_t op)
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
        symm_rma_slow(ctx, call, dest, source, n, pe, op);
    }
}

SYMM_INLINE void put_body(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                          size_t nelems, size_t size, int pe)
{
    put_any(ctx, call, dest, source, nelems, size, pe, SYMM_PUT);
}

SYMM_INLINE void put_nbi_body(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                              size_t nelems, size_t size, int pe)
{
    put_any(ctx, call, dest, source, nelems, size, pe, SYMM_PUT_NBI);
}

SYMM_INLINE void get_any(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                         size_t nelems, size_t size, int pe, symm_rma_op_t op)
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
        symm_rma_slow(ctx, call, dest, source, n, pe, op);
}

SYMM_INLINE void get_body(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                          size_t nelems, size_t size, int pe)
{
    get_any(ctx, call, dest, source, nelems, size, pe, SYMM_GET);
}

SYMM_INLINE void get_nbi_body(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                              size_t nelems, size_t size, int pe)
{
    get_any(ctx, call, dest, source, nelems, size, pe, SYMM_GET_NBI);
}

/* Strided transfers; strides count elements. The symmetric side's whole extent is translated
 * once; where the fast path does not reach it (globals, device heaps) each element goes
 * through the slow path. */
SYMM_INLINE void strided(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                         ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t size, int pe,
                         symm_rma_op_t op)
{
    const int put = symm_rma_is_put(op);
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
        strided(ctx, call, dest, source, dst, sst, nelems, size, symm_ctx_pe(ctx, pe, call),
                SYMM_PUT);
}

SYMM_INLINE void iget_body(shmem_ctx_t ctx, const char *call, void *dest, const void *source,
                           ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t size, int pe)
{
    if (symm_ctx_ok(ctx, call) && nelems != 0)
        strided(ctx, call, dest, source, dst, sst, nelems, size, symm_ctx_pe(ctx, pe, call),
                SYMM_GET);
}

/* Block-strided transfers (shmemx_ibput, shmemx_ibget): nblocks blocks of bsize elements,
 * block i at element i * sst of source and i * tst of target. Each block is one contiguous
 * copy; over the network a call's gets are issued together and completed at its end. */
SYMM_INLINE void blocked(shmem_ctx_t ctx, const char *call, void *target, const void *source,
                         ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks, size_t size,
                         int pe, symm_rma_op_t op)
{
    const int put = symm_rma_is_put(op);
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
    blocked(ctx, call, target, source, tst, sst, bsize, nblocks, size, pe, SYMM_PUT);
}

SYMM_INLINE void ibget_body(shmem_ctx_t ctx, const char *call, void *target, const void *source,
                            ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks,
                            size_t size, int pe)
{
    blocked(ctx, call, target, source, tst, sst, bsize, nblocks, size, pe, SYMM_GET);
}

/* ---- Put with signal ----------------------------------------------------------------------
 * The data is copied first; the signal update is a sequentially consistent atomic after it,
 * so a PE that observes the signal observes the data. */
SYMM_INLINE void signal_update(shmem_ctx_t ctx, const char *call, uint64_t *sig_addr,
                               uint64_t signal, int sig_op, int pe)
{
    symm_tl_amo_t net;
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
        sig = symm_amo_target(call, sig_addr, sizeof(*sig), pe, &net);
    if (SYMM_UNLIKELY(!sig)) {
        net.op = sig_op == SHMEM_SIGNAL_SET ? SYMM_AMO_SET : SYMM_AMO_ADD;
        net.value = signal;
        symm_amo_net(ctx, call, &net, SYMM_TL_NBI);
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

SYMM_INLINE void signal_op_body(shmem_ctx_t ctx, const char *call, uint64_t *sig_addr,
                                  uint64_t signal, int op, int pe)
{
    if (symm_ctx_ok(ctx, call))
        signal_update(ctx, call, sig_addr, signal, op, symm_ctx_pe(ctx, pe, call));
}

/* ---- The shells -------------------------------------------------------------------------
 * Each public name is a shell over one body above, in a context form (shmem_ctx_NAME) and a
 * plain one; the typed and sized ones are generated (gen/typed_rma.c), the byte forms and the
 * signal updates follow. */
SYMM_EXPORT void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nbytes,
                                  int pe)
{
    put_body(ctx, "shmem_ctx_putmem", dest, source, nbytes, 1, pe);
}

SYMM_EXPORT void shmem_putmem(void *dest, const void *source, size_t nbytes, int pe)
{
    put_body(SHMEM_CTX_DEFAULT, "shmem_putmem", dest, source, nbytes, 1, pe);
}

SYMM_EXPORT void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nbytes,
                                  int pe)
{
    get_body(ctx, "shmem_ctx_getmem", dest, source, nbytes, 1, pe);
}

SYMM_EXPORT void shmem_getmem(void *dest, const void *source, size_t nbytes, int pe)
{
    get_body(SHMEM_CTX_DEFAULT, "shmem_getmem", dest, source, nbytes, 1, pe);
}

SYMM_EXPORT void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source,
                                      size_t nbytes, int pe)
{
    put_nbi_body(ctx, "shmem_ctx_putmem_nbi", dest, source, nbytes, 1, pe);
}

SYMM_EXPORT void shmem_putmem_nbi(void *dest, const void *source, size_t nbytes, int pe)
{
    put_nbi_body(SHMEM_CTX_DEFAULT, "shmem_putmem_nbi", dest, source, nbytes, 1, pe);
}

SYMM_EXPORT void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source,
                                      size_t nbytes, int pe)
{
    get_nbi_body(ctx, "shmem_ctx_getmem_nbi", dest, source, nbytes, 1, pe);
}

SYMM_EXPORT void shmem_getmem_nbi(void *dest, const void *source, size_t nbytes, int pe)
{
    get_nbi_body(SHMEM_CTX_DEFAULT, "shmem_getmem_nbi", dest, source, nbytes, 1, pe);
}

SYMM_EXPORT void shmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal,
                                      int pe)
{
    signal_op_body(ctx, "shmem_ctx_signal_add", sig_addr, signal, SHMEM_SIGNAL_ADD, pe);
}

SYMM_EXPORT void shmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_op_body(SHMEM_CTX_DEFAULT, "shmem_signal_add", sig_addr, signal, SHMEM_SIGNAL_ADD, pe);
}

SYMM_EXPORT void shmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal,
                                      int pe)
{
    signal_op_body(ctx, "shmem_ctx_signal_set", sig_addr, signal, SHMEM_SIGNAL_SET, pe);
}

SYMM_EXPORT void shmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_op_body(SHMEM_CTX_DEFAULT, "shmem_signal_set", sig_addr, signal, SHMEM_SIGNAL_SET, pe);
}

/* Sandia OpenSHMEM's names of the same. */
SYMM_EXPORT void shmemx_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal,
                                       int pe)
{
    signal_op_body(ctx, "shmemx_ctx_signal_add", sig_addr, signal, SHMEM_SIGNAL_ADD, pe);
}

SYMM_EXPORT void shmemx_signal_add(uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_op_body(SHMEM_CTX_DEFAULT, "shmemx_signal_add", sig_addr, signal, SHMEM_SIGNAL_ADD,
                   pe);
}

SYMM_EXPORT void shmemx_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal,
                                       int pe)
{
    signal_op_body(ctx, "shmemx_ctx_signal_set", sig_addr, signal, SHMEM_SIGNAL_SET, pe);
}

SYMM_EXPORT void shmemx_signal_set(uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_op_body(SHMEM_CTX_DEFAULT, "shmemx_signal_set", sig_addr, signal, SHMEM_SIGNAL_SET,
                   pe);
}

#include "api/gen/typed_rma.c"
