/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * src/tl: the transports, one folder each (ucx and ofi: PEs of other nodes, through UCX or
 * libfabric; cuda: the GPU, its device window and the library's kernels; proxy: device
 * requests to other nodes), none.c where the build has no network, and net.c, which picks
 * the network transport a job uses (SYMM_NET). Below core, beside boot: a transport calls
 * only base and what the core lends it at start (this header's ops and hooks); nothing here
 * calls up.
 *
 * Transports: what carries an operation to a PE whose memory this process does not map. The
 * core names the target by (PE, segment, offset): the segment is the symmetric heap or the
 * symmetric data segment, the offset the same on every PE. Each transport is one ops table in
 * a folder of its own; the load/store window needs none (its fast path is inline in
 * core/fastpath.h). Every op takes the channel of the context that issued it (`chan`, a pointer
 * the context keeps for its transport): a transport keeps per-context state there (UCX: a
 * worker), made on first use; init sets the default context's.
 *
 * Completion: put returns when the source may be reused; get and a fetching amo when the
 * value is here; an _nbi put or get when issued (quiet completes it). fence orders the
 * context's earlier puts and AMOs to each PE before its later ones; quiet completes them all.
 * A put of the library's own flags (SYMM_TL_FLAG: a barrier's signals, which the waiting peer
 * sees when they land) is left to quiet_all, so that a quiet after nothing but barriers costs
 * no round trip.
 *
 * Registration: a transport reaches only the extents of a segment registered with it: those
 * that init registers, and heap extents added later, as the heap grows, in a collective step
 * (every PE registers the same extent, then hands in every peer's key). An access outside them
 * ends the job with one line.
 */
#ifndef SYMM_TL_H
#define SYMM_TL_H

#include <stddef.h>
#include <stdint.h>

#include "base/params.h"
#include "base/status.h"

/* How an operation completes: SYMM_TL_WAIT, before it returns (a put's source may be reused,
 * a get's value is here, an atomic returns its reply); SYMM_TL_NBI, issued only (quiet
 * completes it; an atomic that need not fetch returns nothing); SYMM_TL_FLAG, a put of a
 * library flag (returns as WAIT does, and only quiet with `all` waits for it to land). */
typedef enum { SYMM_TL_WAIT, SYMM_TL_NBI, SYMM_TL_FLAG } symm_tl_mode_t;

/* A copy between this PE and a peer: its direction and, for the _NBI kinds, that it may stay
 * queued until the next quiet. */
typedef enum { SYMM_GET, SYMM_PUT, SYMM_GET_NBI, SYMM_PUT_NBI } symm_rma_op_t;

static inline int symm_rma_is_put(symm_rma_op_t op)
{
    return op == SYMM_PUT || op == SYMM_PUT_NBI;
}

static inline symm_tl_mode_t symm_rma_mode(symm_rma_op_t op)
{
    return op == SYMM_GET_NBI || op == SYMM_PUT_NBI ? SYMM_TL_NBI : SYMM_TL_WAIT;
}

typedef enum { SYMM_SEG_HEAP = 0, SYMM_SEG_DATA = 1, SYMM_SEGS } symm_tl_seg_t;

/* Atomic operations on 4- or 8-byte words. FETCH reads; SET stores; the others return the old
 * value where they complete with SYMM_TL_WAIT (SWAP, CSWAP and FETCH wait for it always). */
typedef enum {
    SYMM_AMO_ADD,
    SYMM_AMO_AND,
    SYMM_AMO_OR,
    SYMM_AMO_XOR,
    SYMM_AMO_SWAP,
    SYMM_AMO_CSWAP,
    SYMM_AMO_FETCH,
    SYMM_AMO_SET,
} symm_amo_op_t;

/* One operation's target and arguments: a struct, so that the ops stay short. */
typedef struct symm_tl_amo {
    symm_amo_op_t op;
    int pe;
    symm_tl_seg_t seg;
    uint64_t off;
    size_t size;    /* 4 or 8 */
    uint64_t value; /* the operand (SWAP, SET: the new value) */
    uint64_t cond;  /* CSWAP's comparand */
} symm_tl_amo_t;

/* A part [off, off + len) of a segment. */
typedef struct symm_tl_range {
    symm_tl_seg_t seg;
    uint64_t off;
    size_t len;
} symm_tl_range_t;

/* What the core lends a transport: the job, its bootstrap's allgather of records of any
 * length (every PE's back to back in *out, malloc'd; lens[pe] each one's), the one error path
 * (prints "call: message" as every fatal error does and ends the job), the logger (a line
 * where SYMM_LOG_LEVEL lets the level through), and a call for when data from a peer has
 * arrived (wakes this PE's sleeping waiters). */
typedef struct symm_tl_env {
    int rank;
    int size;
    int threads;               /* 1 when several threads may call at once */
    int crowded;               /* 1 when PEs outnumber CPUs: a waiting PE yields its CPU */
    const char *lib;           /* the library the transport loads, if it loads one */
    const char *atomics;       /* SYMM_OFI_ATOMICS: auto, native or am (ofi) */
    const unsigned char *net;  /* net[pe]: this transport reaches pe */
    void *base[SYMM_SEGS];     /* this PE's segments */
    size_t len[SYMM_SEGS];
    const symm_tl_range_t *reg; /* what init registers, nreg parts, alike on every PE (a part */
    int nreg;                   /* of length 0: this PE has nothing there) */
    symm_status_t (*allgatherv)(const void *in, size_t len, void **out, size_t *lens);
    __attribute__((noreturn, format(printf, 1, 2))) void (*fatal)(const char *fmt, ...);
    __attribute__((format(printf, 2, 3))) void (*log)(symm_level_t level, const char *fmt, ...);
    void (*arrived)(void);
    void **default_chan;       /* the default context's channel, which init sets */
    int am;                    /* active messages will be used (am_handler, am_send) */
} symm_tl_env_t;

/* An active message's handler: its header and data, valid for the call only. */
typedef void (*symm_tl_am_cb_t)(const void *hdr, size_t hlen, const void *data, size_t len);

/* The most bytes put_note carries. */
#define SYMM_TL_NOTE_MAX 4096

typedef struct symm_tl_ops {
    const char *name;
    /* Collective over the job: exchanges what reaching every PE that env->net marks takes (a
     * transport may connect to a PE only when it first sends there), registers the parts
     * env->reg names and exchanges their keys. On failure `why` says what is missing or
     * wrong. */
    symm_status_t (*init)(const symm_tl_env_t *env, char *why, size_t why_len);
    /* What needs nothing of the job (the library `lib` loaded, a context and worker made),
     * done early where the bootstrap knows the job spans hosts before its first exchange, so
     * that it overlaps the wait for the job's last PE; init does whatever was not done. A
     * failure leaves it to init, which reports it. */
    symm_status_t (*open)(const char *lib);
    void (*fini)(void);
    /* A new extent: registers r of this PE's segment and packs its key into key (key_cap
     * bytes; *key_len its length). It stays pending, unused, until extent_keys hands in every
     * peer's key of the same extent, or extent_drop forgets it. One extent pends at a time. */
    symm_status_t (*extent_reg)(const symm_tl_range_t *r, void *key, size_t key_cap,
                                size_t *key_len, char *why, size_t why_len);
    /* keys[pe] (lens[pe] bytes): the pending extent's key at each PE that env->net marks. */
    symm_status_t (*extent_keys)(const void *const *keys, const size_t *lens, char *why,
                                 size_t why_len);
    void (*extent_drop)(void);
    /* Bytes of this PE's segment seg that peers reach: the extents in use. */
    size_t (*registered)(symm_tl_seg_t seg);
    void (*put)(void **chan, const char *call, int pe, symm_tl_seg_t seg, uint64_t off,
                const void *src, size_t n, symm_tl_mode_t mode);
    void (*get)(void **chan, const char *call, int pe, symm_tl_seg_t seg, uint64_t off, void *dest,
                size_t n, symm_tl_mode_t mode);
    /* Puts n bytes (at most SYMM_TL_NOTE_MAX) at (seg, off) of pe, then adds 1 to the 4-byte
     * counter at (cseg, coff) there: pe sees the data once it sees the count. Returns when src
     * may be reused. NULL in a transport without it. */
    void (*put_note)(void **chan, const char *call, int pe, symm_tl_seg_t seg, uint64_t off,
                     const void *src, size_t n, symm_tl_seg_t cseg, uint64_t coff);
    /* Returns the old value (zero-extended) where it waits for the reply (above). */
    uint64_t (*amo)(void **chan, const char *call, const symm_tl_amo_t *a, symm_tl_mode_t mode);
    void (*fence)(void **chan);
    /* all: the flags and every channel too (before the connections close). */
    void (*quiet)(void **chan, int all);
    /* Serves what peers sent to this PE; nonzero when anything was done. */
    int (*progress)(void);
    /* The PE goes to sleep in a wait (on 1) or is back (on 0): whatever serves its peers in
     * the meantime takes over. */
    void (*rest)(int on);
    /* Releases what a context's channel holds (shmem_ctx_destroy). */
    void (*chan_release)(void **chan);
    /* Active messages, for the proxy of device requests (tl/proxy): am_handler has cb called
     * for every message of id that reaches this PE, in whichever thread progresses the
     * network (so cb only copies and queues); am_send sends hdr and data to pe's handler of
     * id and returns when both may be reused. Messages of one channel to one PE may arrive in
     * any order. NULL in a transport without them. */
    symm_status_t (*am_handler)(unsigned id, symm_tl_am_cb_t cb);
    void (*am_send)(void **chan, const char *call, int pe, unsigned id, const void *hdr,
                    size_t hlen, const void *data, size_t len);
    /* What a started transport runs on, for SHMEM_INFO (e.g. "ofi, provider tcp;ofi_rxm"). */
    const char *(*describe)(void);
} symm_tl_ops_t;

/* The network transports of this build (SYMM_HAVE_UCX, SYMM_HAVE_OFI) and none, whose init
 * says that the build has no network. */
extern const symm_tl_ops_t symm_tl_ucx, symm_tl_ofi, symm_tl_none;

/* The network transport a job uses: symm_tl_none until symm_tl_choose picks one. */
extern const symm_tl_ops_t *symm_tl_net;

/* Picks symm_tl_net by SYMM_NET (ucx, ofi or auto) and says which library it loads (*lib).
 * auto takes libfabric where FI_PROVIDER names a provider or the host has a network that UCX
 * does not serve (Slingshot's cxi, EFA, Omni-Path), else UCX, else libfabric. */
symm_status_t symm_tl_choose(const symm_params_t *params, const char **lib, char *why,
                             size_t why_len);

#endif
