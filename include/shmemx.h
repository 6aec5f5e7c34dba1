/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * symm extensions to OpenSHMEM (shmemx_ prefix).
 */
#ifndef SHMEMX_H
#define SHMEMX_H

#include <shmem.h>
#include <shmemx_gpu.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where the symmetric heap of `pe` starts in this process (the heap window's slot of pe), or
 * NULL when pe cannot be reached by load/store. A block's offset, addr - shmemx_heap_base(me),
 * is the same on every PE. */
void *shmemx_heap_base(int pe);

/* shmem_malloc_with_hints: the block lives in the device heap (GPU memory of every PE). With
 * the standard hints only beside it: among bits the library does not know (as in
 * ~SHMEM_MALLOC_ATOMICS_REMOTE from a program written for another implementation) it is
 * ignored with them, and the block is host memory. */
#define SHMEMX_MALLOC_DEVICE (1L << 16)

/* Bytes each PE may allocate from its symmetric heap (SHMEM_SYMMETRIC_SIZE). */
size_t shmemx_heap_size(void);

/* OpenSHMEM 1.6 scans over a team: dest on team PE i holds source summed over PEs 0..i
 * (inscan) or 0..i-1 (exscan; zero on PE 0). Collective; returns 0. */
#define SYMMX_DECL_SCAN(NAME, T)                                                                 \
    int shmem_##NAME##_sum_inscan(shmem_team_t team, T *dest, const T *source, size_t nelems);  \
    int shmem_##NAME##_sum_exscan(shmem_team_t team, T *dest, const T *source, size_t nelems);
#define SYMMX_DECL_SCAN_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN) \
    SYMM_IF_##SUMPROD(SYMMX_DECL_SCAN(NAME, T))
SYMM_TYPES(SYMMX_DECL_SCAN_ROW, _)

#ifdef __cplusplus
}
#endif
#endif
