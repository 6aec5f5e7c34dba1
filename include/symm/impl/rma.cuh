/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Device RMA bodies: put, get, p, g and the strided forms, each a few lines over the copy loop
 * of core.cuh. Every typed, sized and mem name of the device API funnels into these, by bytes.
 *
 * To a PE of the node a put is stores from the calling threads into the peer's slot of the
 * window: the source can be reused when the call returns (its loads are done), delivery is
 * complete at shmem_quiet (a system-scope fence). So the _nbi forms share the bodies; the
 * group forms of put_nbi leave out the closing group barrier, which only the blocking form
 * needs (every thread of the group may reuse the source once the call returns).
 */
#ifndef SYMM_IMPL_RMA_CUH
#define SYMM_IMPL_RMA_CUH

#include "symm/impl/core.cuh"
#include "symm/impl/proxy.cuh"

template <int S, bool NBI>
SYMM_DEV void symm_dev_put(const char *call, void *dest, const void *src, size_t n, int pe)
{
    if (__builtin_expect(!symm_dev_near(pe), 0)) {
        symm_dev_check_pe(call, dest, n, pe);
        symm_dev_px_rma<S, NBI, SYMM_PX_PUT>(dest, src, n, pe);
        return;
    }
    char *p = symm_dev_peer(call, (char *)dest, n, pe);

    symm_dev_copy<false>(p, src, n, symm_dev_tid<S>(), symm_dev_nth<S>());
    if (!NBI)
        symm_dev_sync<S>();
}

template <int S, bool NBI = false>
SYMM_DEV void symm_dev_get(const char *call, void *dest, const void *src, size_t n, int pe)
{
    if (__builtin_expect(!symm_dev_near(pe), 0)) {
        symm_dev_check_pe(call, src, n, pe);
        symm_dev_px_rma<S, NBI, SYMM_PX_GET>(dest, src, n, pe);
        return;
    }
    const char *p = symm_dev_peer(call, (const char *)src, n, pe);

    symm_dev_copy<true>(dest, p, n, symm_dev_tid<S>(), symm_dev_nth<S>());
    symm_dev_sync<S>();
}

/* The bits of a scalar of 1 to 8 bytes, for the proxy. */
template <typename T> SYMM_DEV unsigned long long symm_dev_px_bits(T v)
{
    union {
        T t;
        unsigned long long u;
    } x;
    x.u = 0;
    x.t = v;
    return x.u;
}

template <typename T> SYMM_DEV void symm_dev_p(const char *call, T *dest, T value, int pe)
{
    if (__builtin_expect(!symm_dev_near(pe), 0)) {
        symm_dev_check_pe(call, dest, sizeof(T), pe);
        symm_dev_px_p(dest, symm_dev_px_bits(value), sizeof(T), pe);
        return;
    }
    *(volatile T *)symm_dev_peer(call, dest, sizeof(T), pe) = value;
}

template <typename T> SYMM_DEV T symm_dev_g(const char *call, const T *src, int pe)
{
    if (__builtin_expect(!symm_dev_near(pe), 0)) {
        symm_dev_check_pe(call, src, sizeof(T), pe);
        union {
            unsigned long long u;
            T t;
        } x;
        x.u = symm_dev_px_g(src, sizeof(T), pe);
        return x.t;
    }
    return *(const volatile T *)symm_dev_peer(call, src, sizeof(T), pe);
}

/* Strides count elements of `size` bytes; the target's stride first, as on the host. */
template <int S>
SYMM_DEV void symm_dev_iput(const char *call, void *dest, const void *src, ptrdiff_t dst,
                            ptrdiff_t sst, size_t nelems, size_t size, int pe)
{
    if (nelems == 0)
        return;
    char *p = symm_dev_peer(call, (char *)dest, ((nelems - 1) * dst + 1) * size, pe);
    const char *s = (const char *)src;

    if (__builtin_expect(!symm_dev_near(pe), 0)) {
        /* Each element travels in its requests (8 bytes at most each): the source is free. */
        for (size_t i = symm_dev_tid<S>(); i < nelems; i += symm_dev_nth<S>())
            symm_dev_px_inline(SYMM_PX_PUT, (char *)dest + i * dst * size, s + i * sst * size,
                               size, pe);
        symm_dev_sync<S>();
        return;
    }

    for (size_t i = symm_dev_tid<S>(); i < nelems; i += symm_dev_nth<S>())
        symm_dev_copy<false>(p + i * dst * size, s + i * sst * size, size, 0, 1);
    symm_dev_sync<S>();
}

template <int S>
SYMM_DEV void symm_dev_iget(const char *call, void *dest, const void *src, ptrdiff_t dst,
                            ptrdiff_t sst, size_t nelems, size_t size, int pe)
{
    if (nelems == 0)
        return;
    const char *p = symm_dev_peer(call, (const char *)src, ((nelems - 1) * sst + 1) * size, pe);
    char *d = (char *)dest;

    if (__builtin_expect(!symm_dev_near(pe), 0)) {
        for (size_t i = symm_dev_tid<S>(); i < nelems; i += symm_dev_nth<S>())
            symm_dev_px_rma<SYMM_THREAD, true, SYMM_PX_GET>(
                d + i * dst * size, (const char *)src + i * sst * size, size, pe);
        symm_dev_sync<S>();
        if (symm_dev_tid<S>() == 0)
            symm_dev_px_quiet();
        symm_dev_sync<S>();
        return;
    }

    for (size_t i = symm_dev_tid<S>(); i < nelems; i += symm_dev_nth<S>())
        symm_dev_copy<true>(d + i * dst * size, p + i * sst * size, size, 0, 1);
    symm_dev_sync<S>();
}

SYMM_DEV void *symm_dev_ptr(const void *addr, int pe)
{
    unsigned long long off = (unsigned long long)((const char *)addr - symm_dev_c.base);

    if (!symm_dev_near(pe) || off >= symm_dev_c.size)
        return NULL;
    return symm_dev_xlate((char *)addr, pe);
}

#endif
