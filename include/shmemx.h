/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * symm extensions to OpenSHMEM (shmemx_ prefix).
 */
#ifndef SHMEMX_H
#define SHMEMX_H

#include <shmem.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where the symmetric heap of `pe` starts in this process (the heap window's slot of pe), or
 * NULL when pe cannot be reached by load/store. A block's offset, addr - shmemx_heap_base(me),
 * is the same on every PE. */
void *shmemx_heap_base(int pe);

/* Bytes each PE may allocate from its symmetric heap (SHMEM_SYMMETRIC_SIZE). */
size_t shmemx_heap_size(void);

#ifdef __cplusplus
}
#endif
#endif
