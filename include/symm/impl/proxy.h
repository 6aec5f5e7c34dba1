/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The proxy's request ring, shared by kernels (the producers) and the PE's proxy thread (the
 * consumer), which carries device operations to PEs of other nodes over the network (see
 * docs/gpu.md, "PEs of other nodes: the proxy"). Plain C: the host library and device code
 * read one definition.
 *
 * The ring lives in pinned host memory mapped into the device. A producer takes the next
 * index from a counter in device memory (one atomic add), waits while the ring is full
 * (index - tail >= SYMM_PX_SLOTS: the proxy has not taken the slot's previous request yet),
 * fills the slot and publishes it last with a release store of seq = index + 1. The proxy
 * takes the slots in index order, each once its seq reads index + 1, and advances tail.
 *
 * Requests that answer (a blocking put's "source taken", a get, g, a fetching atomic, quiet)
 * find the answer in ret[index % SYMM_PX_SLOTS]: the value, then seq = index + 1, released.
 * The waiting thread takes it and acknowledges with seq = SYMM_PX_TAKEN(index); the proxy
 * holds tail at the oldest unacknowledged answer, so a later request never reuses an answer's
 * slot before its thread has read it.
 */
#ifndef SYMM_IMPL_PROXY_H
#define SYMM_IMPL_PROXY_H

/* Slots of the ring: a power of two. */
#define SYMM_PX_SLOTS 4096u
#define SYMM_PX_TAKEN(idx) (((idx) + 1ull) | (1ull << 63))

/* Operations. Addresses are the requesting PE's: `dst`/`src` in its own slot of the device
 * window for the symmetric side (the proxy sends the offset), any device or mapped host
 * address for the local side. */
enum {
    SYMM_PX_PUT = 1,    /* dst (symmetric) <- src (local), len bytes; flags ANSWER: blocking */
    SYMM_PX_P,          /* dst (symmetric) <- value, len (1, 2, 4 or 8) bytes */
    SYMM_PX_GET,        /* dst (local) <- src (symmetric), len bytes */
    SYMM_PX_G,          /* answer <- src (symmetric), len (1, 2, 4 or 8) bytes */
    SYMM_PX_AMO,        /* amo (SYMM_PX_AMO_*) of len (4 or 8) bytes on dst (symmetric) */
    SYMM_PX_PUT_SIGNAL, /* PUT, then the signal op (amo: SET or ADD) of value on sig */
    SYMM_PX_QUIET,      /* answers when every earlier request is complete at its target */
};

/* Atomic operations (amo), in the order of the device API's (symm/impl/amo.cuh). */
enum {
    SYMM_PX_AMO_FETCH = 0,
    SYMM_PX_AMO_SET,
    SYMM_PX_AMO_SWAP,
    SYMM_PX_AMO_CSWAP,
    SYMM_PX_AMO_ADD,
    SYMM_PX_AMO_AND,
    SYMM_PX_AMO_OR,
    SYMM_PX_AMO_XOR,
};

/* flags */
#define SYMM_PX_ANSWER 1u /* the producer waits for an answer in ret */

typedef struct symm_px_req {
    unsigned long long seq; /* index + 1 once the slot is filled; written last */
    unsigned op;
    int pe;
    unsigned amo;
    unsigned flags;
    unsigned long long dst;
    unsigned long long src;
    unsigned long long len;
    unsigned long long value; /* P's data, the amo's operand, the signal */
    unsigned long long cond;  /* CSWAP's comparand */
    unsigned long long sig;   /* PUT_SIGNAL's signal word (symmetric) */
} symm_px_req_t;

typedef struct symm_px_ret {
    unsigned long long seq;
    unsigned long long value;
} symm_px_ret_t;

typedef struct symm_px_ring {
    symm_px_req_t req[SYMM_PX_SLOTS];
    symm_px_ret_t ret[SYMM_PX_SLOTS];
    unsigned long long tail; /* written by the proxy: slots before it are free */
    unsigned long long pad[15];
} symm_px_ring_t;

#endif
