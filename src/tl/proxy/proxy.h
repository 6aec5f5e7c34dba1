/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The proxy transport: device operations on PEs of other nodes. Kernels post requests into a
 * ring in host memory the device maps (symm/impl/proxy.h); a thread of the PE takes them in
 * order and carries them over the network transport's active messages to the target PE's
 * proxy, which applies them to its own device heap (copies and, for atomics, a one-thread
 * kernel, on a stream of its own) and answers. Built with CUDA; the core starts it with the
 * GPU part when the job spans nodes.
 */
#ifndef SYMM_TL_PROXY_H
#define SYMM_TL_PROXY_H

#include "tl/cuda/cuda.h"
#include "tl/proxy/ring.h"
#include "tl/tl.h"

/* What the core lends the proxy: the job, this node's PEs, the network and the fatal path. */
typedef struct symm_px_env {
    int rank;
    int size;
    int first;
    int count;
    const symm_tl_ops_t *net;
    void **chan; /* the network channel it sends on (the default context's: thread-safe) */
    __attribute__((noreturn, format(printf, 1, 2))) void (*fatal)(const char *fmt, ...);
} symm_px_env_t;

/* Starts the proxy (ring, staging buffers, thread) on this PE's GPU; sets *ring and *head to
 * the device's view of the ring and of its producers' counter. Collective (every PE of the
 * job starts its proxy before any kernel posts). */
void symm_px_start(const char *call, const symm_px_env_t *env, symm_px_ring_t **ring,
                   unsigned long long **head);
/* Every request the PE's kernels posted so far (ended kernels' included) is complete at its
 * target when this returns. */
void symm_px_quiet(const char *call);
/* Host RMA on the device heap of pe, a PE of another node: a put copies src (local) to dest
 * (symmetric), a get src (symmetric) to dest (local). SYMM_PUT, SYMM_GET: the source may be
 * reused (put) or the data is here (get) on return; the _NBI kinds: complete at
 * symm_px_quiet. */
void symm_px_rma(const char *call, void *dest, const void *src, size_t n, int pe,
                 symm_rma_op_t op);
/* Stops the thread and frees the ring; after a quiet and a barrier of the job. */
void symm_px_stop(const char *call);
/* Whether the proxy runs. */
int symm_px_running(void);

#endif
