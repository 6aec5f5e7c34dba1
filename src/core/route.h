/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Routes (route.c): what the inline fast paths do not serve, the library's own access to
 * any PE's memory, and the network transport's start, progress and completion.
 */
#ifndef SYMM_CORE_ROUTE_H
#define SYMM_CORE_ROUTE_H

#include <stddef.h>
#include <stdint.h>
#include "shmem.h"
#include "core/state.h"
#include "tl/tl.h"

/* The RMA copies that the fast path does not serve: globals, device heaps, PEs of other nodes,
 * bad arguments. A put's dest is symmetric on pe, a get's src; the _nbi kinds (symm_rma_op_t,
 * tl/tl.h) may leave a copy queued until the next quiet. Nothing to do for n == 0. */
void symm_rma_slow(shmem_ctx_t ctx, const char *call, void *dest, const void *src, size_t n,
                   int pe, symm_rma_op_t op);
/* The target of an AMO of `size` bytes at addr on pe that the fast path missed, classified
 * once: its window address (data segment), or NULL when pe is on another node, where *net
 * then holds the word's place there (pe, segment, offset, size) for symm_amo_net; fatal for a
 * bad argument. */
void *symm_amo_target(const char *call, const void *addr, size_t size, int pe,
                      symm_tl_amo_t *net);
/* An AMO over the network on the word symm_amo_target placed in *a, whose op, value and cond
 * the caller set. SYMM_TL_WAIT returns the old value; SYMM_TL_NBI issues it (quiet completes
 * it) where the op fetches nothing. */
uint64_t symm_amo_net(shmem_ctx_t ctx, const char *call, const symm_tl_amo_t *a,
                      symm_tl_mode_t mode);
/* The library's own access to any PE's memory, named by an address in this PE's heap
 * (internal part included) or data segment: through the window or the network, complete on
 * return. */
void symm_peer_get(void *dest, const void *addr, size_t n, int pe);
/* The same, issued only: complete after symm_net_quiet(SHMEM_CTX_DEFAULT). */
void symm_peer_get_nbi(void *dest, const void *addr, size_t n, int pe);
void symm_peer_put(const void *addr, const void *src, size_t n, int pe);
/* A library flag (a barrier's signal) set to value in pe: seen there when it lands, completed
 * only by symm_net_quiet_all. */
void symm_peer_flag(const void *addr, uint32_t value, int pe);
/* An atomic op on pe's word; returns the old value but for SYMM_AMO_SET. */
uint64_t symm_peer_amo(symm_amo_op_t op, const void *addr, size_t size, uint64_t value, int pe);
/* Puts n bytes of src at addr in pe, then adds 1 to the counter count (both named by addresses
 * in this PE's heap or data segment) there: pe sees the data once it sees the count; returns
 * when src may be reused. 0 (nothing done) where the network cannot carry it in one message. */
int symm_peer_put_note(const void *addr, const void *src, size_t n, _Atomic uint32_t *count,
                       int pe);
/* The most bytes symm_peer_put_note carries to any PE (0: none). */
size_t symm_peer_note_max(void);
/* Nodes from the settings (SYMM_NODES); before the teams. */
void symm_nodes_init(void);
/* Starts the network transport when PEs of other nodes exist; after the heap. */
/* Starts the network transport where the job has several nodes. `rider` (`len` bytes, may
 * be 0) travels in the transport's start exchange; *riders receives every PE's, back to back
 * in rank order (malloc'd; NULL where there is no network or no rider). */
symm_status_t symm_net_init(const void *rider, size_t len, void **riders, char *why,
                            size_t why_len);
void symm_net_fini(void);
/* Starts what the network transport needs of this PE alone (symm_tl_ops_t.open), before the
 * bootstrap's first exchange where the job is known to span hosts; symm_net_init does the
 * rest, or all of it where this was not called. */
void symm_net_open(void);
/* The network transport in use and what it runs on (SHMEM_INFO). */
const char *symm_net_describe(void);
/* Serves what other nodes sent to this PE (waits call it); 0 when nothing happened. */
int symm_net_progress_slow(void);
SYMM_INLINE int symm_net_progress(void)
{
    return SYMM_UNLIKELY(symm_g.net) ? symm_net_progress_slow() : 0;
}
/* This PE sleeps in a wait (1) or is back (0): the transport serves its peers meanwhile. */
void symm_net_rest(int on);
/* Completes (quiet) or orders (fence) the network operations of a context. */
void symm_net_quiet(shmem_ctx_t ctx);
/* The same for the default context, the library's flags included, and for every context's
 * channel: before the PEs part at finalize. */
void symm_net_quiet_all(void);
void symm_net_fence(shmem_ctx_t ctx);
void symm_net_ctx_release(shmem_ctx_t ctx);

#endif
