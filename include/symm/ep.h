/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * symm/ep.h: layouts of symmetric memory for expert-parallel exchanges (MoE dispatch and
 * combine), as DeepEP builds them. For host code (C11, C++) and CUDA kernels alike: every
 * inline function here is __host__ __device__ under nvcc; the three routines of the library
 * (shmemx_ep_malloc, shmemx_ep_view_init, shmemx_ep_check) are host calls.
 *
 * Cursor. One symmetric block holds every region of an exchange. A cursor carves aligned
 * regions out of it in call order; every PE runs the same carving code with the same
 * arguments, so each region lies at the same offset on every PE and its address is a
 * symmetric address. The block is measured first: a cursor made without a block
 * (shmemx_ep_cursor(NULL, 0)) runs the carving code once, only counting (its carves return
 * NULL); shmemx_ep_malloc allocates what it measured, after checking that every PE measured
 * the same layout (the same regions, sizes and alignments, in the same order); a cursor on the
 * block then runs the same code again and gets the addresses:
 *
 *     shmemx_ep_cursor_t c = shmemx_ep_cursor(NULL, 0);
 *     carve_all(&c, &lay);                          // measures
 *     void *block = shmemx_ep_malloc(&c, 0);        // collective; SHMEMX_MALLOC_DEVICE: GPU
 *     c = shmemx_ep_cursor(block, c.used);
 *     carve_all(&c, &lay);                          // the same calls: the addresses
 *
 * A carve that does not fit, or whose alignment is not a power of two (or that the block's own
 * alignment does not give), returns NULL and records the error in the cursor; shmemx_ep_check
 * ends the job naming it.
 *
 * Channel buffer (symmetric). A send half and a receive half, each `channels` x `ranks` slots
 * of `slot` bytes, ordered by channel, then by rank, and one 64-bit signal word per receive
 * slot. send(ch, r) is where this PE stages channel ch's data for rank r; recv(ch, r) where
 * rank r's data for channel ch lands here, signal(ch, r) the word r updates when it has landed.
 * The slot this PE fills on a peer is recv(ch, me) there: shmemx_ep_remote_slot gives that
 * symmetric address, to pass with the peer's PE number to a put (shmem_putmem_signal, over any
 * transport) or through a view. The send half is optional (SHMEMX_EP_SEND): a sender that
 * stores straight into a peer's slot needs none.
 *
 * View (asymmetric). The addresses of one block in every PE of this node that this process
 * reaches by load and store (shmem_ptr: the host heap's window, or the device heap's for a
 * device block), so that code, a kernel included, stores straight into a peer's slot:
 * shmemx_ep_peer(&view, addr, pe) is addr (inside the block) on pe, or NULL when pe is on
 * another node. A view is plain data: pass it to a kernel by value.
 *
 * Signals and buffer reuse are the caller's protocol; examples/moe shows one (docs/ep.md).
 */
#ifndef SYMM_EP_H
#define SYMM_EP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__CUDACC__)
#define SHMEMX_EP_FN static __host__ __device__ inline
#else
#define SHMEMX_EP_FN static inline
#endif

/* Alignment of channel-buffer regions and slots: a GPU's 128-byte line (two of a CPU's). */
#define SHMEMX_EP_ALIGN 128
/* Most PEs of one node a view holds. */
#define SHMEMX_EP_MAX_PEERS 128

/* shmemx_ep_cursor_t.error */
#define SHMEMX_EP_OK 0
#define SHMEMX_EP_EFIT 1   /* a region does not fit in the block */
#define SHMEMX_EP_EALIGN 2 /* an alignment not a power of two, or the block not so aligned */
#define SHMEMX_EP_EARG 3   /* a channel buffer with channels, ranks or me out of range */

/* ---- Cursor --------------------------------------------------------------------------------- */
typedef struct shmemx_ep_cursor {
    uintptr_t base;       /* the block (0: measuring) */
    size_t size;          /* its bytes (measuring: no limit) */
    size_t used;          /* end of the last region, from the block's start */
    size_t align;         /* the largest alignment asked for */
    uint64_t sig;         /* the regions' sizes and alignments, in order, hashed */
    int regions;          /* regions carved */
    int error;            /* SHMEMX_EP_OK, or the first error */
    int bad_region;       /* the first carve that failed: its number, size and alignment */
    size_t bad_bytes;
    size_t bad_align;
} shmemx_ep_cursor_t;

/* A cursor on `size` bytes at `block`, or a measuring cursor (block NULL). */
SHMEMX_EP_FN shmemx_ep_cursor_t shmemx_ep_cursor(void *block, size_t size)
{
    shmemx_ep_cursor_t c;

    c.base = (uintptr_t)block;
    c.size = block ? size : SIZE_MAX;
    c.used = 0;
    c.align = 1;
    c.sig = 0xcbf29ce484222325ull; /* FNV-1a, over 64-bit words */
    c.regions = 0;
    c.error = SHMEMX_EP_OK;
    c.bad_region = -1;
    c.bad_bytes = 0;
    c.bad_align = 0;
    return c;
}

SHMEMX_EP_FN void shmemx_ep_cursor_fail(shmemx_ep_cursor_t *c, int error, size_t bytes,
                                        size_t align)
{
    if (c->error == SHMEMX_EP_OK) {
        c->error = error;
        c->bad_region = c->regions;
        c->bad_bytes = bytes;
        c->bad_align = align;
    }
}

/* The next region: `bytes` at the next multiple of `align` (a power of two) from the block's
 * start. NULL while measuring, and after an error (the cursor keeps the first). */
SHMEMX_EP_FN void *shmemx_ep_carve(shmemx_ep_cursor_t *c, size_t bytes, size_t align)
{
    size_t off;

    if (c->error != SHMEMX_EP_OK)
        return NULL;
    if (align == 0 || (align & (align - 1)) || (c->base & (align - 1))) {
        shmemx_ep_cursor_fail(c, SHMEMX_EP_EALIGN, bytes, align);
        return NULL;
    }
    off = (c->used + align - 1) & ~(align - 1);
    if (off < c->used || off > c->size || bytes > c->size - off) {
        shmemx_ep_cursor_fail(c, SHMEMX_EP_EFIT, bytes, align);
        return NULL;
    }
    c->used = off + bytes;
    c->align = align > c->align ? align : c->align;
    c->sig = (c->sig ^ (uint64_t)bytes) * 0x100000001b3ull;
    c->sig = (c->sig ^ (uint64_t)align) * 0x100000001b3ull;
    c->regions++;
    return c->base ? (void *)(c->base + off) : NULL;
}

/* ---- Channel buffer (symmetric) ------------------------------------------------------------- */
typedef struct shmemx_ep_chan {
    char *send;     /* channels x ranks slots (NULL without SHMEMX_EP_SEND) */
    char *recv;     /* channels x ranks slots */
    uint64_t *sig;  /* channels x ranks signal words, one per receive slot */
    size_t slot;    /* bytes of a slot: a multiple of SHMEMX_EP_ALIGN */
    int channels;
    int ranks;
    int me;         /* this PE's rank among `ranks` */
} shmemx_ep_chan_t;

/* shmemx_ep_chan flags */
#define SHMEMX_EP_SEND 1 /* carve the send half too */

/* Carves a channel buffer: the send half (with SHMEMX_EP_SEND), the receive half, then the
 * signal words. slot_bytes is rounded up to SHMEMX_EP_ALIGN. */
SHMEMX_EP_FN shmemx_ep_chan_t shmemx_ep_chan(shmemx_ep_cursor_t *c, int channels, int ranks,
                                             int me, size_t slot_bytes, int flags)
{
    shmemx_ep_chan_t b;
    size_t slots = (size_t)(channels > 0 ? channels : 0) * (size_t)(ranks > 0 ? ranks : 0);

    b.slot = (slot_bytes + SHMEMX_EP_ALIGN - 1) & ~(size_t)(SHMEMX_EP_ALIGN - 1);
    b.channels = channels;
    b.ranks = ranks;
    b.me = me;
    b.send = b.recv = NULL;
    b.sig = NULL;
    if (channels <= 0 || ranks <= 0 || me < 0 || me >= ranks || b.slot < slot_bytes ||
        (b.slot && slots > SIZE_MAX / b.slot)) {
        shmemx_ep_cursor_fail(c, SHMEMX_EP_EARG, slot_bytes, SHMEMX_EP_ALIGN);
        return b;
    }
    if (flags & SHMEMX_EP_SEND)
        b.send = (char *)shmemx_ep_carve(c, slots * b.slot, SHMEMX_EP_ALIGN);
    b.recv = (char *)shmemx_ep_carve(c, slots * b.slot, SHMEMX_EP_ALIGN);
    b.sig = (uint64_t *)shmemx_ep_carve(c, slots * sizeof(uint64_t), SHMEMX_EP_ALIGN);
    return b;
}

/* Slot ch, r of each half; the signal word of receive slot (ch, r). */
SHMEMX_EP_FN void *shmemx_ep_send_slot(const shmemx_ep_chan_t *b, int ch, int r)
{
    return b->send + ((size_t)ch * (size_t)b->ranks + (size_t)r) * b->slot;
}

SHMEMX_EP_FN void *shmemx_ep_recv_slot(const shmemx_ep_chan_t *b, int ch, int r)
{
    return b->recv + ((size_t)ch * (size_t)b->ranks + (size_t)r) * b->slot;
}

SHMEMX_EP_FN uint64_t *shmemx_ep_signal(const shmemx_ep_chan_t *b, int ch, int r)
{
    return b->sig + (size_t)ch * (size_t)b->ranks + (size_t)r;
}

/* The receive slot of channel ch that this PE fills on every peer, and its signal word:
 * symmetric addresses, to use with the peer's PE number or through a view. */
SHMEMX_EP_FN void *shmemx_ep_remote_slot(const shmemx_ep_chan_t *b, int ch)
{
    return shmemx_ep_recv_slot(b, ch, b->me);
}

SHMEMX_EP_FN uint64_t *shmemx_ep_remote_signal(const shmemx_ep_chan_t *b, int ch)
{
    return shmemx_ep_signal(b, ch, b->me);
}

/* ---- View (asymmetric) ---------------------------------------------------------------------- */
typedef struct shmemx_ep_view {
    char *base;   /* the block on this PE */
    size_t size;  /* its bytes */
    int first;    /* this node's PEs: first .. first + n - 1 */
    int n;
    char *peer[SHMEMX_EP_MAX_PEERS]; /* the block of PE first + i in this process, or NULL */
} shmemx_ep_view_t;

/* addr (inside this PE's block) on pe, or NULL when this process cannot reach pe's block by
 * load and store. */
SHMEMX_EP_FN void *shmemx_ep_peer(const shmemx_ep_view_t *v, const void *addr, int pe)
{
    unsigned i = (unsigned)(pe - v->first);

    if (i >= (unsigned)v->n || v->peer[i] == NULL)
        return NULL;
    return v->peer[i] + ((const char *)addr - v->base);
}

/* ---- Library routines (host) ---------------------------------------------------------------
 * shmemx_ep_malloc: collective. Allocates the block a measuring cursor measured, aligned to the
 * largest alignment it asked for: in the host heap, or in the device heap with
 * SHMEMX_MALLOC_DEVICE in hints (shmemx.h). Every PE must have measured the same layout; one
 * that differs ends the job naming a PE on each side. As shmem_malloc: the block's contents
 * are undefined, NULL on every PE when one PE cannot back it, or for a layout of no bytes.
 * Free it with shmem_free (shmemx_free_device).
 * shmemx_ep_view_init: fills *view for the `size` bytes at `block` (symmetric, host or device
 * heap). Not collective; ends the job when block is not symmetric memory or the node has more
 * than SHMEMX_EP_MAX_PEERS PEs.
 * shmemx_ep_check: ends the job, in the library's error format and naming `call`, when the
 * cursor recorded an error; returns otherwise. */
void *shmemx_ep_malloc(const shmemx_ep_cursor_t *layout, long hints);
void shmemx_ep_view_init(shmemx_ep_view_t *view, void *block, size_t size);
void shmemx_ep_check(const char *call, const shmemx_ep_cursor_t *c);

#ifdef __cplusplus
}
#endif
#endif
