/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The collective allocation calls on the symmetric heap (core/heap.c maps it, core/alloc.c
 * places blocks). Every call publishes (sequence, size, alignment, result) in the internal part
 * of its heap and reads every peer's record after a barrier: a call whose arguments differ
 * across PEs, or that some PE could not satisfy, is caught there and handled alike on every PE.
 * A host-heap block that ends above the part of the heap registered with the network
 * registers the next extent on every PE in the same step, its keys published before the
 * barrier and read after it (core/net.h), so no other exchange is needed.
 */
#include <stdlib.h>
#include <string.h>

#include "core/net.h"
#include "core/state.h"

/* Publishes this PE's record, waits for all, and checks that every PE agrees; a block of the
 * host heap ending at offset top registers what the network does not yet reach of it.
 * Returns the first PE that could not allocate, or -1. */
static int agree(const char *call, uint64_t size, uint64_t align, int64_t result, size_t top)
{
    uint64_t seq = symm_g.alloc_seq++;
    symm_alloc_rec_t *mine = &symm_internal(symm_g.my_pe)->alloc_rec[seq & 1];
    int short_pe = -1, grew = 0;

    if (result >= 0 && symm_net_heap_grow(call, seq, top, &grew) != SYMM_OK)
        result = -1;
    *mine = (symm_alloc_rec_t){.seq = seq, .size = size, .align = align, .result = result};
    symm_barrier_world();
    for (int pe = 0; pe < symm_g.n_pes; pe++) {
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
