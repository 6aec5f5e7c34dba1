/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The consumer side of the proxy's request ring (symm/impl/proxy.h has the layout and the
 * producers' protocol): plain C11 with no CUDA and no network, so that host threads can drive
 * it in tests as kernels do on the GPU.
 */
#ifndef SYMM_TL_PROXY_RING_H
#define SYMM_TL_PROXY_RING_H

#include "symm/impl/proxy.h"

/* The ring's consumer side, without CUDA or network (tests drive it from host threads). */
typedef struct symm_px_cons {
    symm_px_ring_t *ring;
    unsigned long long next;  /* the next index to take */
    unsigned long long *held; /* indices of answers not yet taken by their thread, FIFO */
    unsigned long long hfirst, hend;
} symm_px_cons_t;

/* The next request if it is published (copied to *q), else 0. */
int symm_px_peek(symm_px_cons_t *c, symm_px_req_t *q);
/* Takes the request peek returned (its slot may be reused once tail passes it). */
void symm_px_take(symm_px_cons_t *c, const symm_px_req_t *q);
/* Answers request idx with value. */
void symm_px_answer(symm_px_cons_t *c, unsigned long long idx, unsigned long long value);
/* Drops the answers their threads took and publishes tail; nonzero when it moved. */
int symm_px_release(symm_px_cons_t *c);

/* Sets c up on ring (zeroed by the caller); 0 when out of memory. */
int symm_px_cons_init(symm_px_cons_t *c, symm_px_ring_t *ring);
void symm_px_cons_fini(symm_px_cons_t *c);

/* The producers' side for host threads, the protocol kernels follow (symm/impl/proxy.cuh),
 * with the counter in host memory: posts *q (its seq ignored) and returns its index, waiting
 * while the ring is full; await waits for index idx's answer, takes it and returns it. */
unsigned long long symm_px_post_host(symm_px_ring_t *ring, unsigned long long *head,
                                     const symm_px_req_t *q);
unsigned long long symm_px_await_host(symm_px_ring_t *ring, unsigned long long idx);

#endif
