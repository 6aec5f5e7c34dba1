/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The collective allocation calls on the symmetric heap (coll/heapmap.c maps it, core/alloc.c
 * places blocks). Every call publishes (sequence, size, alignment, result) in the internal part
 * of its heap and reads every peer's record after a barrier: a call whose arguments differ
 * across PEs, or that some PE could not satisfy, is caught there and handled alike on every PE.
 * A host-heap block that ends above the part of the heap registered with the network
 * registers the next extent on every PE in the same step, its keys published before the
 * barrier and read after it (core/net.h), so no other exchange is needed.
 *
 * Across nodes the records are not read one by one (a PE would reach every PE of the job, and
 * open a connection to each, at every allocation): each node's leader combines its node's
 * records through the window into a summary (the least and most of each field, and the first
 * PE that could not allocate), the leaders combine their summaries in the rounds of the
 * barrier's dissemination, with the same partners, each round's summary pushed with its count
 * in one message, and each node reads its leader's result. Only a disagreement reads the
 * record of a PE it names.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "core/net.h"
#include "core/core.h"

static void sum_init(symm_alloc_sum_t *s)
{
    for (int i = 0; i < 3; i++) {
        s->lo[i] = UINT64_MAX;
        s->hi[i] = 0;
        s->lo_pe[i] = s->hi_pe[i] = -1;
    }
    s->short_pe = INT32_MAX;
}

static void sum_rec(symm_alloc_sum_t *s, const symm_alloc_rec_t *r, int pe)
{
    const uint64_t f[3] = {r->seq, r->size, r->align};
    symm_alloc_sum_t one;

    for (int i = 0; i < 3; i++) {
        one.lo[i] = one.hi[i] = f[i];
        one.lo_pe[i] = one.hi_pe[i] = pe;
    }
    one.short_pe = r->result < 0 ? pe : INT32_MAX;
    for (int i = 0; i < 3; i++) {
        if (one.lo[i] < s->lo[i] || s->lo_pe[i] < 0) {
            s->lo[i] = one.lo[i];
            s->lo_pe[i] = pe;
        }
        if (one.hi[i] > s->hi[i] || s->hi_pe[i] < 0) {
            s->hi[i] = one.hi[i];
            s->hi_pe[i] = pe;
        }
    }
    if (one.short_pe < s->short_pe)
        s->short_pe = one.short_pe;
}

static void sum_merge(symm_alloc_sum_t *s, const symm_alloc_sum_t *o)
{
    for (int i = 0; i < 3; i++) {
        if (o->lo_pe[i] >= 0 && (s->lo_pe[i] < 0 || o->lo[i] < s->lo[i])) {
            s->lo[i] = o->lo[i];
            s->lo_pe[i] = o->lo_pe[i];
        }
        if (o->hi_pe[i] >= 0 && (s->hi_pe[i] < 0 || o->hi[i] > s->hi[i])) {
            s->hi[i] = o->hi[i];
            s->hi_pe[i] = o->hi_pe[i];
        }
    }
    if (o->short_pe < s->short_pe)
        s->short_pe = o->short_pe;
}

/* The world's records combined, after the allocation's barrier: see the top of the file. */
static void agree_nodes(symm_alloc_sum_t *out, const symm_alloc_rec_t *mine)
{
    static uint32_t calls;
    symm_team_t *t = &symm_team_world;
    symm_internal_t *me = symm_internal(symm_g.my_pe);
    symm_internal_t *lead = symm_internal(symm_team_pe(t, t->lead));
    uint32_t call = ++calls;

    if (t->me != t->lead) {
        symm_wait_reach_local(&lead->agree_done.v, call);
        *out = lead->agree_out;
        return;
    }
    sum_init(out);
    for (int i = t->lead; i < t->lead + t->local; i++) {
        symm_alloc_rec_t rec;

        symm_peer_get(&rec, mine, sizeof(rec), symm_team_pe(t, i));
        sum_rec(out, &rec, symm_team_pe(t, i));
    }
    for (int k = 0, d = 1; d < t->nlead; k++, d <<= 1) {
        int j = t->lead_idx + d, to = symm_team_pe(t, t->leaders[j >= t->nlead ? j - t->nlead : j]);

        if (!symm_peer_put_note(&me->agree_in[k], out, sizeof(*out), &me->agree_cnt[k].v, to))
            symm_fatal("symm_peer_put_note: %zu bytes cannot be pushed to PE %d", sizeof(*out),
                       to);
        symm_wait_reach(&me->agree_cnt[k].v, call);
        sum_merge(out, &me->agree_in[k]);
    }
    me->agree_out = *out;
    atomic_store_explicit(&me->agree_done.v, call, memory_order_release);
    symm_team_wake_node(t, &me->agree_done.v);
}

/* Publishes this PE's record, waits for all, and checks that every PE agrees; a block of the
 * host heap ending at offset top registers what the network does not yet reach of it.
 * Returns the first PE that could not allocate, or -1. */
static int agree(const char *call, uint64_t size, uint64_t align, int64_t result, size_t top)
{
    uint64_t seq = symm_g.alloc_seq++;
    symm_alloc_rec_t *mine = &symm_internal(symm_g.my_pe)->alloc_rec[seq & 1];
    int short_pe = -1, grew = 0, first = 0;

    if (result >= 0 && symm_net_heap_grow(call, seq, top, &grew) != SYMM_OK)
        result = -1;
    *mine = (symm_alloc_rec_t){.seq = seq, .size = size, .align = align, .result = result};
    symm_barrier_world();
    if (symm_team_world.net) {
        symm_alloc_sum_t s;
        const uint64_t f[3] = {seq, size, align};
        int other = -1;

        agree_nodes(&s, mine);
        for (int i = 0; i < 3 && other < 0; i++)
            if (s.lo[i] != f[i] || s.hi[i] != f[i])
                other = s.lo[i] != f[i] ? s.lo_pe[i] : s.hi_pe[i];
        short_pe = s.short_pe == INT32_MAX ? -1 : s.short_pe;
        /* A disagreement: the record of the PE named is read to say what it asked for. */
        first = other < 0 ? symm_g.n_pes : other;
    }
    for (int pe = first; pe < symm_g.n_pes; pe++) {
        symm_alloc_rec_t rec;
        const symm_alloc_rec_t *r = &rec;
        symm_peer_get(&rec, mine, sizeof(rec), pe);
        if (r->seq != seq || r->size != size || r->align != align)
            symm_fatal("%s: collective allocation #%llu differs across PEs: this PE asked for "
                       "size %llu (alignment %llu), pe %d for size %llu (alignment %llu)%s",
                       call, (unsigned long long)seq, (unsigned long long)size,
                       (unsigned long long)align, pe, (unsigned long long)r->size,
                       (unsigned long long)r->align,
                       r->seq != seq ? " in another call of the sequence" : "");
        if (r->result < 0 && short_pe < 0)
            short_pe = pe;
    }
    if (grew)
        symm_net_heap_agree(call, seq, short_pe < 0);
    return short_pe;
}

int symm_heap_agree(const char *call, uint64_t size, uint64_t align, int64_t result)
{
    return agree(call, size, align, result, 0);
}

void *symm_heap_malloc(const char *call, size_t size, size_t align)
{
    size_t off = 0, top;
    int64_t result;
    int short_pe;

    symm_check_init(call);
    if (align & (align - 1))
        symm_fatal("%s(alignment=%zu, size=%zu): alignment is not a power of two", call, align,
                   size);
    if (align > SYMM_SLOT_ALIGN)
        symm_fatal("%s(alignment=%zu, size=%zu): alignments above %lu bytes are not supported",
                   call, align, size, SYMM_SLOT_ALIGN);
    if (size == 0) {
        symm_barrier_world();
        return NULL;
    }
    result = symm_alloc_get(&symm_g.alloc, size, align, &off) == SYMM_OK ? (int64_t)off : -1;
    top = result < 0 ? 0 : off + size;
    if (top > symm_g.prefaulted)
        symm_heap_prefault(symm_g.prefaulted, top, 0);
    short_pe = agree(call, size, align, result, top);
    if (short_pe >= 0) {
        if (result >= 0)
            symm_alloc_put(&symm_g.alloc, off);
        if (symm_g.params.debug)
            symm_warn("%s(size=%zu): symmetric heap exhausted on pe %d (%zu of %zu bytes in use; "
                      "SHMEM_SYMMETRIC_SIZE sets the size)", call, size, short_pe,
                      symm_g.alloc.in_use, symm_g.alloc.size);
        return NULL;
    }
    if (top > symm_g.prefaulted) {
        symm_heap_prefault(symm_g.prefaulted, top, 1);
        symm_g.prefaulted = symm_round_up(top, 4096);
    }
    symm_debug("%s(size=%zu): the block at offset %#zx of the heap", call, size, off);
    return symm_g.heap_base + off;
}

/* Offset of a block start given by the user, or fatal. */
static size_t block_off(const char *call, void *ptr)
{
    uintptr_t off = (uintptr_t)ptr - (uintptr_t)symm_g.heap_base;

    if (off >= symm_g.heap_len || symm_alloc_size_of(&symm_g.alloc, off) == 0)
        symm_fatal("%s(ptr=%p): not a block returned by a symmetric allocation", call, ptr);
    return off;
}

void symm_heap_free(const char *call, void *ptr)
{
    symm_check_init(call);
    symm_barrier_world();
    if (ptr == NULL)
        return;
    symm_alloc_put(&symm_g.alloc, block_off(call, ptr));
}

void *symm_heap_realloc(const char *call, void *ptr, size_t size)
{
    size_t off, old;
    void *fresh;

    symm_check_init(call);
    if (ptr == NULL)
        return symm_heap_malloc(call, size, 0);
    if (size == 0) {
        symm_heap_free(call, ptr);
        return NULL;
    }
    off = block_off(call, ptr);
    old = symm_alloc_size_of(&symm_g.alloc, off);
    symm_barrier_world();
    if (symm_alloc_resize(&symm_g.alloc, off, size) == SYMM_OK) {
        size_t top = off + size;
        if (top > symm_g.prefaulted)
            symm_heap_prefault(symm_g.prefaulted, top, 0);
        if (agree(call, size, 0, (int64_t)off, top) < 0) {
            if (top > symm_g.prefaulted) {
                symm_heap_prefault(symm_g.prefaulted, top, 1);
                symm_g.prefaulted = symm_round_up(top, 4096);
            }
            return ptr;
        }
        symm_alloc_resize(&symm_g.alloc, off, old);
        return NULL;
    }
    fresh = symm_heap_malloc(call, size, 0);
    if (fresh) {
        memcpy(fresh, ptr, old < size ? old : size);
        symm_alloc_put(&symm_g.alloc, off);
        /* No peer may write the new block before its owner has copied into it. */
        symm_barrier_world();
    }
    return fresh;
}
