/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The library side of the expert-parallel layouts (symm/ep.h, inline otherwise): the block of
 * a measured layout, allocated after every PE's layout is checked against the others'; the
 * asymmetric view, filled from the windows; and the error line of a cursor that failed.
 *
 * Why the layout is checked and not only the block's size: two PEs that carve the same number
 * of bytes into differently sized regions (another channel count, say) would agree on the
 * allocation and then write into each other's regions at the wrong offsets. The cursor hashes
 * every region's size and alignment in order; two maximum reductions over the world (of the
 * hash and of its complement) tell whether every PE has the same, and two more, only when
 * not, name a PE on each side.
 */
#include <inttypes.h>

#include "coll/coll.h"
#include "coll/gpu_coll.h"
#include "core/core.h"
#include "shmemx.h"
#include "symm/ep.h"

static const char *what_failed(int error)
{
    switch (error) {
    case SHMEMX_EP_EFIT:
        return "does not fit in the block";
    case SHMEMX_EP_EALIGN:
        return "has an alignment that is not a power of two or that the block does not have";
    default:
        return "is a channel buffer with channels, ranks or this PE's rank out of range";
    }
}

SYMM_EXPORT void shmemx_ep_check(const char *call, const shmemx_ep_cursor_t *c)
{
    if (c->error == SHMEMX_EP_OK)
        return;
    symm_fatal("%s: region #%d of the layout (%zu bytes, alignment %zu) %s (%zu bytes, %zu "
               "used before it)", call, c->bad_region, c->bad_bytes, c->bad_align,
               what_failed(c->error), c->base ? c->size : (size_t)0, c->used);
}

/* Fatal unless every PE's layout hashes alike. */
static void agree(const char *call, const shmemx_ep_cursor_t *c)
{
    uint64_t mine = c->sig ^ ((uint64_t)c->used * 0x9e3779b97f4a7c15ull);
    uint64_t hi, not_lo, with_hi, other;

    symm_coll_max64(&symm_team_world, &hi, mine);
    symm_coll_max64(&symm_team_world, &not_lo, ~mine);
    if (hi == ~not_lo)
        return;
    symm_coll_max64(&symm_team_world, &with_hi, mine == hi ? (uint64_t)symm_g.my_pe + 1 : 0);
    symm_coll_max64(&symm_team_world, &other, mine != hi ? (uint64_t)symm_g.my_pe + 1 : 0);
    symm_fatal("%s: the layout differs across PEs: this PE carved %d regions into %zu bytes "
               "(signature %#" PRIx64 "), pe %d a different layout", call, c->regions, c->used,
               c->sig, (int)(mine == hi ? other : with_hi) - 1);
}

SYMM_EXPORT void *shmemx_ep_malloc(const shmemx_ep_cursor_t *layout, long hints)
{
    const char *call = "shmemx_ep_malloc";

    symm_check_init(call);
    if (layout->base != 0)
        symm_fatal("%s(layout=%p): the cursor is on a block (%#" PRIxPTR "): pass the cursor "
                   "that measured the layout (shmemx_ep_cursor(NULL, 0))", call,
                   (const void *)layout, layout->base);
    shmemx_ep_check(call, layout);
    agree(call, layout);
    if (hints & SHMEMX_MALLOC_DEVICE)
        return symm_gpu_malloc(call, layout->used, layout->align);
    return symm_heap_malloc(call, layout->used, layout->align);
}

SYMM_EXPORT void shmemx_ep_view_init(shmemx_ep_view_t *view, void *block, size_t size)
{
    const char *call = "shmemx_ep_view_init";
    char *b = block;

    symm_check_init(call);
    if (size == 0)
        symm_fatal("%s(block=%p, size=0): a view of no bytes", call, block);
    if (symm_ptr(b, symm_g.my_pe) == NULL ||
        symm_ptr(b + size - 1, symm_g.my_pe) == NULL)
        symm_fatal("%s(block=%p, size=%zu): not symmetric memory", call, block, size);
    if (symm_g.win_n > SHMEMX_EP_MAX_PEERS)
        symm_fatal("%s(block=%p): this node has %d PEs, a view holds at most %d", call, block,
                   symm_g.win_n, SHMEMX_EP_MAX_PEERS);
    *view = (shmemx_ep_view_t){.base = b, .size = size, .first = symm_g.win_first,
                               .n = symm_g.win_n};
    for (int i = 0; i < symm_g.win_n; i++)
        view->peer[i] = symm_ptr(b, symm_g.win_first + i);
}
