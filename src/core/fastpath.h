/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The inline fast paths of the flat window: a symmetric address on PE pe is
 * addr - my_slot + slot(pe), one range check and two additions; what they miss goes to the
 * routes (route.c, core/route.h).
 */
#ifndef SYMM_CORE_FASTPATH_H
#define SYMM_CORE_FASTPATH_H

#include <stddef.h>
#include <stdint.h>
#include "core/state.h"

/* Address of addr on pe when addr lies in the user part of this PE's heap, else NULL: the
 * library's internal part is not user memory, and a stray put there is reported. */
SYMM_INLINE char *symm_heap_xlate(const void *addr, size_t len, int pe)
{
    uintptr_t off = (uintptr_t)addr - (uintptr_t)symm_g.heap_base;

    if (SYMM_LIKELY(off < symm_g.internal_off && len <= symm_g.internal_off - off))
        return symm_g.heap_win + (size_t)pe * symm_g.stride + off;
    return NULL;
}

SYMM_INLINE char *symm_data_xlate(const void *addr, size_t len, int pe)
{
    uintptr_t off = (uintptr_t)addr - (uintptr_t)symm_g.data_lo;

    if (off < symm_g.data_len && len <= symm_g.data_len - off)
        return pe == symm_g.my_pe ? (char *)addr
                                  : symm_g.data_win + (size_t)pe * symm_g.data_stride + off;
    return NULL;
}

/* Translates a symmetric address, or NULL when addr is not symmetric or pe is unreachable. */
SYMM_INLINE char *symm_xlate(const void *addr, size_t len, int pe)
{
    char *p = symm_heap_xlate(addr, len, pe);

    if (SYMM_LIKELY(p != NULL))
        return p;
    return symm_data_xlate(addr, len, pe);
}

/* Host-heap address of addr on pe, or NULL (pe outside this node's PEs, or addr not in the host
 * heap). The PEs of a node are consecutive, so one compare tells both that pe is in range and
 * that the window reaches it, as cheap as the range check alone. */
SYMM_INLINE char *symm_xlate_fast(const void *addr, size_t len, int pe)
{
    if (SYMM_LIKELY((unsigned)(pe - symm_g.win_first) < (unsigned)symm_g.win_n))
        return symm_heap_xlate(addr, len, pe);
    return NULL;
}

/* shmem_ptr's answer for a pe in range: the address of addr on pe through the window (host or
 * device heap, data segment), or NULL. */
void *symm_ptr(const void *addr, int pe);
/* Translation with argument checks for RMA and AMO entry points; fatal on a bad argument. */
char *symm_xlate_slow(const char *call, const void *addr, size_t len, int pe);

SYMM_INLINE char *symm_xlate_checked(const char *call, const void *addr, size_t len, int pe)
{
    char *p = symm_xlate_fast(addr, len, pe);

    return SYMM_LIKELY(p != NULL) ? p : symm_xlate_slow(call, addr, len, pe);
}

#endif
