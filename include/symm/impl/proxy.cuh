/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The device side of the proxy (symm/impl/proxy.h): a PE whose device heap the window does not
 * map (another node) is reached by posting a request into the PE's ring, which its proxy
 * thread carries over the network. Every device operation checks the peer once
 * (symm_dev_near: is pe in this node's range, two constant-bank operands) and takes the window
 * when it is; only the other branch reaches this file, which is kept out of line.
 *
 * A group form (warp, block) posts one request from its first thread after the group's
 * barrier (a release by that thread covers the group's earlier stores, as for put_signal).
 */
#ifndef SYMM_IMPL_PROXY_CUH
#define SYMM_IMPL_PROXY_CUH

#include "symm/impl/core.cuh"
#include "symm/impl/proxy.h"

/* Whether pe's device heap is mapped in the window: the one branch of the fast path. */
SYMM_DEV bool symm_dev_near(int pe)
{
    return (unsigned)(pe - symm_dev_c.node_first) < (unsigned)symm_dev_c.node_count;
}

/* Posts one request; returns its index. Waits while the ring is full (never overwrites). */
static __device__ __noinline__ unsigned long long
symm_dev_px_post(unsigned op, int pe, unsigned amo, unsigned flags, unsigned long long dst,
                 unsigned long long src, unsigned long long len, unsigned long long value,
                 unsigned long long cond, unsigned long long sig)
{
    symm_px_ring_t *r = symm_dev_c.ring;
    const unsigned long long idx = atomicAdd(symm_dev_c.ring_head, 1ull);
    symm_px_req_t *q = &r->req[idx & (SYMM_PX_SLOTS - 1)];

    while (idx - symm_dev_ld_acquire(&r->tail) >= SYMM_PX_SLOTS)
        __nanosleep(256);
    q->op = op;
    q->pe = pe;
    q->amo = amo;
    q->flags = flags;
    q->dst = dst;
    q->src = src;
    q->len = len;
    q->value = value;
    q->cond = cond;
    q->sig = sig;
    symm_dev_st_release(&q->seq, idx + 1);
    return idx;
}

/* Waits for request idx's answer, takes it and gives its slot back. */
static __device__ __noinline__ unsigned long long symm_dev_px_wait(unsigned long long idx)
{
    symm_px_ret_t *a = &symm_dev_c.ring->ret[idx & (SYMM_PX_SLOTS - 1)];
    unsigned long long v;

    while (symm_dev_ld_acquire(&a->seq) != idx + 1)
        ;
    v = *(volatile unsigned long long *)&a->value;
    symm_dev_st_relaxed(&a->seq, SYMM_PX_TAKEN(idx));
    return v;
}

#define SYMM_DEV_PX_U(p) ((unsigned long long)(uintptr_t)(p))

/* Completes every request this PE's kernels posted before (the proxy answers once they are
 * complete at their targets). Nothing when the job has one node. */
SYMM_DEV void symm_dev_px_quiet()
{
    if (symm_dev_c.ring)
        symm_dev_px_wait(
            symm_dev_px_post(SYMM_PX_QUIET, symm_dev_c.my_pe, 0, SYMM_PX_ANSWER, 0, 0, 0, 0, 0, 0));
}

/* n (1, 2, 4 or 8) bytes of value to pe's dest. */
static __device__ __noinline__ void symm_dev_px_p(void *dest, unsigned long long value, size_t n,
                                                  int pe)
{
    symm_dev_px_post(SYMM_PX_P, pe, 0, 0, SYMM_DEV_PX_U(dest), 0, n, value, 0, 0);
}

static __device__ __noinline__ unsigned long long symm_dev_px_g(const void *src, size_t n, int pe)
{
    return symm_dev_px_wait(
        symm_dev_px_post(SYMM_PX_G, pe, 0, SYMM_PX_ANSWER, SYMM_DEV_PX_U(src), 0, n, 0, 0, 0));
}

/* The host reaches the local side of a request when it is global memory (the device's, or
 * host memory the device maps); a thread's local memory and a block's shared memory are the
 * SM's own, so their bytes travel in the requests themselves, 8 a request: P for a put (the
 * source is free at once), G for a get (each waited for). */
static __device__ __noinline__ void symm_dev_px_inline(unsigned op, void *dest, const void *src,
                                                       size_t n, int pe)
{
    for (size_t off = 0; off < n; off += 8) {
        const size_t k = n - off < 8 ? n - off : 8;
        unsigned long long v = 0;
        if (op == SYMM_PX_GET) {
            v = symm_dev_px_g((const char *)src + off, k, pe);
            for (size_t j = 0; j < k; j++)
                ((unsigned char *)dest)[off + j] = (unsigned char)(v >> (8 * j));
            continue;
        }
        for (size_t j = 0; j < k; j++)
            v |= (unsigned long long)((const unsigned char *)src)[off + j] << (8 * j);
        symm_dev_px_p((char *)dest + off, v, k, pe);
    }
}

/* A put (OP SYMM_PX_PUT: dest symmetric, src local) or a get (SYMM_PX_GET: src symmetric,
 * dest local) of n bytes; the blocking form waits for the proxy's answer (source taken, data
 * here). A group's threads meet after a get of either form. */
template <int S, bool NBI, unsigned OP>
static __device__ __noinline__ void symm_dev_px_rma(void *dest, const void *src, size_t n, int pe)
{
    symm_dev_sync<S>();
    if (symm_dev_tid<S>() == 0 && n && !__isGlobal(OP == SYMM_PX_PUT ? src : dest)) {
        symm_dev_px_inline(OP, dest, src, n, pe);
    } else if (symm_dev_tid<S>() == 0 && n) {
        unsigned long long i =
            symm_dev_px_post(OP, pe, 0, NBI ? 0 : SYMM_PX_ANSWER, SYMM_DEV_PX_U(dest),
                             SYMM_DEV_PX_U(src), n, 0, 0, 0);
        if (!NBI)
            symm_dev_px_wait(i);
    }
    if (!NBI || OP == SYMM_PX_GET)
        symm_dev_sync<S>();
}

/* An atomic of n (4 or 8) bytes; the old value when fetch (else 0, without waiting). */
static __device__ __noinline__ unsigned long long symm_dev_px_amo(unsigned op, void *dest,
                                                                  unsigned long long value,
                                                                  unsigned long long cond, size_t n,
                                                                  int pe, bool fetch)
{
    unsigned long long i = symm_dev_px_post(SYMM_PX_AMO, pe, op, fetch ? SYMM_PX_ANSWER : 0,
                                            SYMM_DEV_PX_U(dest), 0, n, value, cond, 0);
    return fetch ? symm_dev_px_wait(i) : 0;
}

template <int S, bool NBI>
static __device__ __noinline__ void
symm_dev_px_put_signal(void *dest, const void *src, size_t n, unsigned long long *sig,
                       unsigned long long signal, int sig_op, int pe)
{
    const unsigned amo = sig_op == 1 ? SYMM_PX_AMO_ADD : SYMM_PX_AMO_SET;

    symm_dev_sync<S>();
    if (symm_dev_tid<S>() == 0 && n && !__isGlobal(src)) {
        /* The data in requests of its own, then the signal: the target applies them in order. */
        symm_dev_px_inline(SYMM_PX_PUT, dest, src, n, pe);
        symm_dev_px_amo(amo, sig, signal, 0, 8, pe, false);
    } else if (symm_dev_tid<S>() == 0) {
        unsigned long long i =
            symm_dev_px_post(SYMM_PX_PUT_SIGNAL, pe, amo, NBI ? 0 : SYMM_PX_ANSWER,
                             SYMM_DEV_PX_U(dest), SYMM_DEV_PX_U(src), n, signal, 0,
                             SYMM_DEV_PX_U(sig));
        if (!NBI)
            symm_dev_px_wait(i);
    }
    if (!NBI)
        symm_dev_sync<S>();
}

#endif
