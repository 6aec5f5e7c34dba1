/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The proxy's request ring (ring.h): the consumer's taking, answering and releasing of slots,
 * and the host producers' posting. The ring's words are shared with the GPU, which writes and
 * reads them with system-scope release stores and acquire loads; the host side pairs them
 * with C11 acquire loads and release stores on the same words.
 */
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "tl/proxy/ring.h"

#define MASK (SYMM_PX_SLOTS - 1)
#define AT(p) ((_Atomic unsigned long long *)(p))

int symm_px_cons_init(symm_px_cons_t *c, symm_px_ring_t *ring)
{
    *c = (symm_px_cons_t){.ring = ring};
    c->held = calloc(SYMM_PX_SLOTS, sizeof(*c->held));
    return c->held != NULL;
}

void symm_px_cons_fini(symm_px_cons_t *c)
{
    free(c->held);
    c->held = NULL;
}

int symm_px_peek(symm_px_cons_t *c, symm_px_req_t *q)
{
    const symm_px_req_t *s = &c->ring->req[c->next & MASK];

    if (atomic_load_explicit(AT(&s->seq), memory_order_acquire) != c->next + 1)
        return 0;
    *q = *s;
    q->seq = c->next;
    return 1;
}

/* A request that answers holds tail until its thread took the answer: the answer's slot is
 * then free for the request SYMM_PX_SLOTS later. */
void symm_px_take(symm_px_cons_t *c, const symm_px_req_t *q)
{
    if (q->flags & SYMM_PX_ANSWER)
        c->held[c->hend++ & MASK] = c->next;
    c->next++;
}

void symm_px_answer(symm_px_cons_t *c, unsigned long long idx, unsigned long long value)
{
    symm_px_ret_t *a = &c->ring->ret[idx & MASK];

    atomic_store_explicit(AT(&a->value), value, memory_order_relaxed);
    atomic_store_explicit(AT(&a->seq), idx + 1, memory_order_release);
}

int symm_px_release(symm_px_cons_t *c)
{
    unsigned long long tail, old = atomic_load_explicit(AT(&c->ring->tail), memory_order_relaxed);

    while (c->hfirst != c->hend) {
        unsigned long long idx = c->held[c->hfirst & MASK];
        if (atomic_load_explicit(AT(&c->ring->ret[idx & MASK].seq), memory_order_acquire) !=
            SYMM_PX_TAKEN(idx))
            break;
        c->hfirst++;
    }
    tail = c->hfirst != c->hend ? c->held[c->hfirst & MASK] : c->next;
    if (tail == old)
        return 0;
    atomic_store_explicit(AT(&c->ring->tail), tail, memory_order_release);
    return 1;
}

unsigned long long symm_px_post_host(symm_px_ring_t *ring, unsigned long long *head,
                                     const symm_px_req_t *q)
{
    unsigned long long idx = atomic_fetch_add_explicit(AT(head), 1, memory_order_relaxed);
    symm_px_req_t *s = &ring->req[idx & MASK];

    while (idx - atomic_load_explicit(AT(&ring->tail), memory_order_acquire) >= SYMM_PX_SLOTS)
        sched_yield();
    s->op = q->op;
    s->pe = q->pe;
    s->amo = q->amo;
    s->flags = q->flags;
    s->dst = q->dst;
    s->src = q->src;
    s->len = q->len;
    s->value = q->value;
    s->cond = q->cond;
    s->sig = q->sig;
    atomic_store_explicit(AT(&s->seq), idx + 1, memory_order_release);
    return idx;
}

unsigned long long symm_px_await_host(symm_px_ring_t *ring, unsigned long long idx)
{
    symm_px_ret_t *a = &ring->ret[idx & MASK];
    unsigned long long v;

    while (atomic_load_explicit(AT(&a->seq), memory_order_acquire) != idx + 1)
        sched_yield();
    v = atomic_load_explicit(AT(&a->value), memory_order_relaxed);
    atomic_store_explicit(AT(&a->seq), SYMM_PX_TAKEN(idx), memory_order_relaxed);
    return v;
}
