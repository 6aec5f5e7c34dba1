/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * First-fit allocator over a sorted segment array. Free neighbours are always merged, so the
 * array stays short; a split inserts at most two segments. Sizes are rounded up to the minimum
 * alignment, which keeps every block start aligned and blocks on separate cache lines.
 */
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

static size_t round_up(size_t v, size_t a)
{
    return (v + a - 1) & ~(a - 1);
}

symm_status_t symm_alloc_init(symm_alloc_t *a, size_t base, size_t size)
{
    memset(a, 0, sizeof(*a));
    a->cap = 64;
    a->seg = malloc(a->cap * sizeof(*a->seg));
    if (!a->seg)
        return SYMM_ERR_NOMEM;
    a->base = base;
    a->size = size;
    a->seg[0] = (symm_seg_t){.off = base, .len = size, .used = 0};
    a->nseg = 1;
    return SYMM_OK;
}

void symm_alloc_fini(symm_alloc_t *a)
{
    free(a->seg);
    memset(a, 0, sizeof(*a));
}

/* Opens `n` empty slots at index i. */
static symm_status_t seg_insert(symm_alloc_t *a, size_t i, size_t n)
{
    if (a->nseg + n > a->cap) {
        size_t cap = a->cap * 2;
        symm_seg_t *s = realloc(a->seg, cap * sizeof(*s));
        if (!s)
            return SYMM_ERR_NOMEM;
        a->seg = s;
        a->cap = cap;
    }
    memmove(&a->seg[i + n], &a->seg[i], (a->nseg - i) * sizeof(*a->seg));
    a->nseg += n;
    return SYMM_OK;
}

static void seg_remove(symm_alloc_t *a, size_t i)
{
    memmove(&a->seg[i], &a->seg[i + 1], (a->nseg - i - 1) * sizeof(*a->seg));
    a->nseg--;
}

/* Index of the segment starting at off, or nseg. */
static size_t seg_find(const symm_alloc_t *a, size_t off)
{
    size_t lo = 0, hi = a->nseg;

    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (a->seg[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (lo < a->nseg && a->seg[lo].off == off) ? lo : a->nseg;
}

/* Carves [start, start + len) out of the free segment i. */
static symm_status_t carve(symm_alloc_t *a, size_t i, size_t start, size_t len)
{
    symm_seg_t s = a->seg[i];
    size_t head = start - s.off, tail = s.off + s.len - (start + len);
    size_t n = (head != 0) + (tail != 0);

    if (n && seg_insert(a, i + 1, n) != SYMM_OK)
        return SYMM_ERR_NOMEM;
    if (head) {
        a->seg[i++] = (symm_seg_t){.off = s.off, .len = head, .used = 0};
    }
    a->seg[i] = (symm_seg_t){.off = start, .len = len, .used = 1};
    if (tail)
        a->seg[i + 1] = (symm_seg_t){.off = start + len, .len = tail, .used = 0};
    a->in_use += len;
    return SYMM_OK;
}

symm_status_t symm_alloc_get(symm_alloc_t *a, size_t size, size_t alignment, size_t *off)
{
    size_t len;

    if (size == 0 || (alignment & (alignment - 1)) || size > a->size)
        return SYMM_ERR_INVALID;
    if (alignment < SYMM_ALLOC_MIN_ALIGN)
        alignment = SYMM_ALLOC_MIN_ALIGN;
    len = round_up(size, SYMM_ALLOC_MIN_ALIGN);
    for (size_t i = 0; i < a->nseg; i++) {
        symm_seg_t *s = &a->seg[i];
        size_t start = round_up(s->off, alignment);
        if (s->used || start < s->off || start - s->off >= s->len || s->len - (start - s->off) < len)
            continue;
        if (carve(a, i, start, len) != SYMM_OK)
            return SYMM_ERR_NOMEM;
        *off = start;
        return SYMM_OK;
    }
    return SYMM_ERR_NOMEM;
}

/* Merges free segment i with free neighbours. */
static void coalesce(symm_alloc_t *a, size_t i)
{
    if (i + 1 < a->nseg && !a->seg[i + 1].used) {
        a->seg[i].len += a->seg[i + 1].len;
        seg_remove(a, i + 1);
    }
    if (i > 0 && !a->seg[i - 1].used) {
        a->seg[i - 1].len += a->seg[i].len;
        seg_remove(a, i);
    }
}

symm_status_t symm_alloc_put(symm_alloc_t *a, size_t off)
{
    size_t i = seg_find(a, off);

    if (i == a->nseg || !a->seg[i].used)
        return SYMM_ERR_INVALID;
    a->seg[i].used = 0;
    a->in_use -= a->seg[i].len;
    coalesce(a, i);
    return SYMM_OK;
}

size_t symm_alloc_size_of(const symm_alloc_t *a, size_t off)
{
    size_t i = seg_find(a, off);

    return (i == a->nseg || !a->seg[i].used) ? 0 : a->seg[i].len;
}

symm_status_t symm_alloc_resize(symm_alloc_t *a, size_t off, size_t size)
{
    size_t i = seg_find(a, off), len = round_up(size, SYMM_ALLOC_MIN_ALIGN);
    symm_seg_t *s;

    if (i == a->nseg || !a->seg[i].used || size == 0)
        return SYMM_ERR_INVALID;
    s = &a->seg[i];
    if (len < s->len) {
        size_t spare = s->len - len;
        if (i + 1 < a->nseg && !a->seg[i + 1].used) {
            a->seg[i + 1].off -= spare;
            a->seg[i + 1].len += spare;
        } else {
            if (seg_insert(a, i + 1, 1) != SYMM_OK)
                return SYMM_ERR_NOMEM;
            a->seg[i + 1] = (symm_seg_t){.off = off + len, .len = spare, .used = 0};
        }
        a->seg[i].len = len;
        a->in_use -= spare;
    } else if (len > s->len) {
        size_t need = len - s->len;
        symm_seg_t *n = i + 1 < a->nseg ? &a->seg[i + 1] : NULL;
        if (!n || n->used || n->len < need)
            return SYMM_ERR_NOMEM;
        n->off += need;
        n->len -= need;
        s->len = len;
        a->in_use += need;
        if (n->len == 0)
            seg_remove(a, i + 1);
    }
    return SYMM_OK;
}

size_t symm_alloc_top(const symm_alloc_t *a)
{
    for (size_t i = a->nseg; i-- > 0;)
        if (a->seg[i].used)
            return a->seg[i].off + a->seg[i].len;
    return a->base;
}
