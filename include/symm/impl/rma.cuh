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

template <int S, bool NBI>
SYMM_DEV void symm_dev_put(const char *call, void *dest, const void *src, size_t n, int pe)
{
    char *p = symm_dev_peer(call, (char *)dest, n, pe);

    symm_dev_copy<false>(p, src, n, symm_dev_tid<S>(), symm_dev_nth<S>());
    if (!NBI)
        symm_dev_sync<S>();
}

template <int S>
SYMM_DEV void symm_dev_get(const char *call, void *dest, const void *src, size_t n, int pe)
{
    const char *p = symm_dev_peer(call, (const char *)src, n, pe);

    symm_dev_copy<true>(dest, p, n, symm_dev_tid<S>(), symm_dev_nth<S>());
    symm_dev_sync<S>();
}

template <typename T> SYMM_DEV void symm_dev_p(const char *call, T *dest, T value, int pe)
{
    *(volatile T *)symm_dev_peer(call, dest, sizeof(T), pe) = value;
}

template <typename T> SYMM_DEV T symm_dev_g(const char *call, const T *src, int pe)
{
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

    for (size_t i = symm_dev_tid<S>(); i < nelems; i += symm_dev_nth<S>())
        symm_dev_copy<true>(d + i * dst * size, p + i * sst * size, size, 0, 1);
    symm_dev_sync<S>();
}

SYMM_DEV void *symm_dev_ptr(const void *addr, int pe)
{
    unsigned long long off = (unsigned long long)((const char *)addr - symm_dev_c.base);

    if ((unsigned)pe >= (unsigned)symm_dev_c.n_pes || off >= symm_dev_c.size)
        return NULL;
    return symm_dev_xlate((char *)addr, pe);
}

#endif
