/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The symmetric allocator: hands out offsets of one region. Deterministic (the same sequence
 * of calls gives the same offsets in every process, with no communication) and keeps its
 * metadata outside the region, so an overrun of a user block cannot corrupt it.
 */
#ifndef SYMM_ALLOC_H
#define SYMM_ALLOC_H

#include <stddef.h>

#include "base/status.h"

#define SYMM_ALLOC_MIN_ALIGN 64

typedef struct symm_seg {
    size_t off;
    size_t len;
    int used;
} symm_seg_t;

/* Segments sorted by offset, covering [base, base + size) without gaps. */
typedef struct symm_alloc {
    size_t base;
    size_t size;
    symm_seg_t *seg;
    size_t nseg;
    size_t cap;
    size_t in_use;  /* bytes in used segments */
} symm_alloc_t;

symm_status_t symm_alloc_init(symm_alloc_t *a, size_t base, size_t size);
void symm_alloc_fini(symm_alloc_t *a);
/* alignment: a power of two (0 means the minimum). */
symm_status_t symm_alloc_get(symm_alloc_t *a, size_t size, size_t alignment, size_t *off);
/* SYMM_ERR_INVALID when off is not the start of a used block. */
symm_status_t symm_alloc_put(symm_alloc_t *a, size_t off);
/* Size of the used block at off, or 0 if there is none. */
size_t symm_alloc_size_of(const symm_alloc_t *a, size_t off);
/* Grows or shrinks the used block at off in place; SYMM_ERR_NOMEM when it cannot grow there. */
symm_status_t symm_alloc_resize(symm_alloc_t *a, size_t off, size_t size);
/* Largest offset + length of any used block (the high-water mark), or base. */
size_t symm_alloc_top(const symm_alloc_t *a);

#endif
