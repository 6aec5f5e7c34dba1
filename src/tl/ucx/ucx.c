/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The ucx transport: PEs of other nodes (real or virtual) reached through UCX's ucp layer.
 *
 * libucp is loaded when a job first needs it, so one libsymm runs on machines without UCX and
 * a job that needs it and lacks it says so in one line. One ucp context per PE.
 *
 * Registration: what peers reach is a list of extents. At start each PE registers the parts
 * the core names (the heap's internal part, a first extent of its user part, the data segment)
 * and exchanges their keys, with the segments' base addresses, through the bootstrap. As the
 * heap grows, the core registers each new heap extent on every PE in an allocation's
 * agreement step and hands in the peers' keys (extent_reg, extent_keys), so memory is
 * registered (on a NIC: pinned) as it is used, not the whole reservation at start. An access
 * takes the key of the extent that holds its offset; one that spans extents is split.
 *
 * Workers: every PE has one target worker, whose address the peers connect to, and which the
 * default context also issues its operations on. Over transports that emulate RMA with
 * messages (TCP) the target must progress for a peer's put to land, so a progress thread
 * sleeps on the worker's event descriptor and serves it whenever the PE is busy elsewhere; a
 * PE that waits progresses it itself, which is faster than waking the thread. Hence the target
 * worker is thread-safe (UCS_THREAD_MODE_MULTI). Every other context gets a worker of its own
 * on first use, so threads with contexts of their own do not share a lock. A destroyed
 * context's worker waits, flushed, for the next context; workers close at finalize only.
 *
 * Connections: a worker opens its endpoint to a peer's target worker, and unpacks that peer's
 * keys of the extents in use, on its first operation to the peer, so a PE that talks to a few
 * peers holds a few endpoints, not one for every PE of other nodes. Opening takes U.lock, which
 * adding an extent also holds while it unpacks the new keys for the endpoints that exist then;
 * an endpoint is published (release) after its keys, so an operation, whose fast path is one
 * acquire load of the endpoint, finds the key of every extent it sees.
 *
 * Ordering: ucp_worker_fence between a put and its signal (put-with-signal, shmem_fence);
 * ucp_worker_flush for quiet, except after a single word put, which goes as a swap whose reply
 * completes it. Atomics are UCX's (hardware where the transport has them, otherwise UCX's own
 * emulation at the target, which uses the CPU's atomic instructions, so they are atomic
 * against the PEs that reach the same word through the window).
 *
 * The library's own messages are active messages to the target worker: a barrier's flags
 * (flag_recv) and a collective's small parts with their count (put_note, note_recv).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <ucp/api/ucp.h>

#include "tl/serve.h"
#include "tl/tl.h"

/* The entry points of libucp this transport uses, resolved by dlsym. */
#define UCX_FNS(X)                                                                                 \
    X(ucp_config_read) X(ucp_config_release) X(ucp_init_version) X(ucp_cleanup)                   \
    X(ucp_worker_create) X(ucp_worker_destroy) X(ucp_worker_get_address)                          \
    X(ucp_worker_release_address) X(ucp_worker_get_efd) X(ucp_worker_arm) X(ucp_worker_signal)    \
    X(ucp_worker_progress) X(ucp_worker_fence) X(ucp_worker_flush_nbx) X(ucp_ep_create)           \
    X(ucp_ep_close_nbx) X(ucp_mem_map) X(ucp_mem_unmap) X(ucp_rkey_pack)                          \
    X(ucp_rkey_buffer_release) X(ucp_ep_rkey_unpack) X(ucp_rkey_destroy) X(ucp_put_nbx)           \
    X(ucp_get_nbx) X(ucp_atomic_op_nbx) X(ucp_request_check_status) X(ucp_request_free)           \
    X(ucs_status_string) X(ucp_am_send_nbx) X(ucp_worker_set_am_recv_handler)

static struct {
#define FIELD(name) __typeof__(name) *name;
    UCX_FNS(FIELD)
#undef FIELD
} F;

/* The registered extents: init's parts, then one per step of the heap's growth, which at
 * least doubles its registered part, so there are a handful. Published in order (ext[0, next))
 * and never moved, so a lookup takes no lock while an allocation adds one. */
#define MAX_EXTENTS 64
#define AM_IDS 16
#define AM_FLAG AM_IDS /* the library's flags (a barrier's signals), after the callers' ids */
#define AM_NOTE (AM_IDS + 1) /* data and a count (put_note) */

/* put_note's header: the data (the message's payload) goes to off in segment seg, then the
 * counter at coff in segment cseg counts one. */
typedef struct note_msg {
    uint64_t off, coff;
    uint32_t seg, cseg;
} note_msg_t;

/* A library flag: the 4-byte word at off in segment seg of the receiver takes value. */
typedef struct flag_msg {
    uint64_t off;
    uint32_t value;
    uint32_t seg;
} flag_msg_t;

typedef struct extent {
    symm_tl_seg_t seg;
    uint64_t lo, hi;      /* [lo, hi) of the segment */
    ucp_mem_h memh;       /* this PE's registration; NULL when it has nothing there */
    char *keys;           /* every PE's packed key, key_len bytes each, kept for endpoints */
    size_t key_len;       /* opened later */
    size_t *lens;         /* [pe]: 0 when pe has nothing there */
} extent_t;

/* Per-worker state: the endpoints opened so far and their peers' unpacked keys. */
typedef struct worker {
    ucp_worker_h w;
    _Atomic(ucp_ep_h) *ep;             /* [pe]: NULL until the first operation to pe */
    ucp_rkey_h *rkey[MAX_EXTENTS];     /* [extent][pe]: set with ep[pe] or the extent */
    uint64_t discard;    /* reply buffer of a SET, never read */
    /* Whether operations (flags) were issued since the last quiet (with all): a quiet after
     * none returns at once, where one context serves a single thread. */
    _Atomic int dirty, flags;
    /* Whether the only operations since the last quiet are word puts sent as swaps (acked):
     * their replies, which the kept requests wait for, complete them, and the quiet needs no
     * flush. */
    _Atomic int acked;
    /* Requests of issued operations still in flight, completed by quiet: UCX 1.13's worker
     * flush over its shared-memory transports returned before gets issued after an earlier
     * flush had landed, so quiet waits for each request itself. */
    pthread_mutex_t plock;
    void **pend;
    size_t npend, cap;
} worker_t;

static struct {
    symm_tl_env_t env;
    void *lib;
    ucp_context_h ctx;
    worker_t target;
    extent_t ext[MAX_EXTENTS];
    _Atomic int next;    /* extents in use; ext[next] is the pending one, if any */
    int pending;
    uint64_t *base;      /* [pe * SYMM_SEGS + seg]: each PE's segment addresses */
    char *addrs;         /* every PE's target worker address, addr_len bytes each */
    size_t addr_len;
    symm_tl_serve_t srv;       /* the progress thread */
    _Atomic int closing;       /* finalize has begun: no thread uses a context */
    /* The contexts' workers (their creation, list and progress), the endpoints' opening and
     * the extents' publication. */
    pthread_mutex_t lock;
    worker_t **ctxw;      /* every context's worker, progressed by waits */
    int nctxw;
    worker_t **spare;     /* those of destroyed contexts, kept for the next ones */
    int nspare;
    _Atomic int any_ctxw;
    unsigned char *net;   /* net[pe]: reached by this transport */
    unsigned char *peer;  /* peer[pe]: some worker has an endpoint to pe (under lock) */
    int opened, peers;    /* endpoints opened, and to how many PEs (under lock) */
    symm_tl_am_cb_t am[AM_IDS]; /* active messages' handlers, by id */
} U = {.lock = PTHREAD_MUTEX_INITIALIZER, .srv = {.wakefd = -1}};

static const char *status_str(ucs_status_t st)
{
    return F.ucs_status_string ? F.ucs_status_string(st) : "UCX error";
}

/* The PE itself is using the network: the progress thread may rest. */
static inline void active(void)
{
    symm_tl_serve_active(&U.srv);
}

static symm_status_t load(const char *lib, char *why, size_t why_len)
{
    /* U.lib is set once every routine is found: a failed load is tried again. */
    void *h = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);

    if (!h) {
        snprintf(why, why_len, "PEs on other nodes need UCX, and %s cannot be loaded (%s); "
                 "install UCX (Debian: libucx0) or name its libucp in SYMM_UCX_LIB", lib,
                 dlerror());
        return SYMM_ERR_UNSUPPORTED;
    }
#define RESOLVE(name)                                                                              \
    *(void **)&F.name = dlsym(h, #name);                                                           \
    if (!F.name) {                                                                                 \
        snprintf(why, why_len, "the UCX found (%s) lacks %s: UCX 1.10 or later needed",            \
                 lib, #name);                                                                      \
        return SYMM_ERR_UNSUPPORTED;                                                               \
    }
    UCX_FNS(RESOLVE)
#undef RESOLVE
    U.lib = h;
    return SYMM_OK;
}

/* The target worker, and the contexts' workers: operations posted there (a signal, a
 * non-fetching atomic) go out, and the peers' flushes through the endpoints their workers
 * opened back to them complete, only when their worker progresses. A context's worker is
 * progressed here from any thread: it is thread-safe when the program runs threads at once
 * (SHMEM_THREAD_MULTIPLE), and otherwise one thread calls at a time. */
static int progress_ctxw(int spare)
{
    int done = 0;

    if (atomic_load_explicit(&U.any_ctxw, memory_order_relaxed) &&
        pthread_mutex_trylock(&U.lock) == 0) {
        for (int i = 0; i < (spare ? U.nspare : U.nctxw); i++)
            done += (int)F.ucp_worker_progress(spare ? U.spare[i]->w : U.ctxw[i]->w);
        pthread_mutex_unlock(&U.lock);
    }
    return done;
}

static int progress_all(void)
{
    active();
    return (int)F.ucp_worker_progress(U.target.w) + progress_ctxw(0);
}

/* Waits for a request of worker w to complete; returns its status. */
static ucs_status_t wait_req(ucp_worker_h w, ucs_status_ptr_t r)
{
    ucs_status_t st;

    if (r == NULL)
        return UCS_OK;
    if (UCS_PTR_IS_ERR(r))
        return UCS_PTR_STATUS(r);
    /* A PE blocked here still progresses all its workers: a flush completes only when the
     * peers acknowledge on every endpoint of the worker, the ones their workers opened back
     * to this PE's included, so two PEs flushing at once wait for each other's workers. When
     * PEs outnumber CPUs, the peer that must answer may need this CPU: yield it between
     * polls, or the answer waits for the end of this PE's time slice (milliseconds). */
    for (unsigned polls = 0; (st = F.ucp_request_check_status(r)) == UCS_INPROGRESS; polls++) {
        if (w != U.target.w)
            F.ucp_worker_progress(w);
        if (!progress_all() && U.env.crowded && polls >= 16)
            sched_yield();
    }
    F.ucp_request_free(r);
    return st;
}

/* An issued operation: its request, if any, completes by the next quiet. */
static ucs_status_t keep(worker_t *wk, ucs_status_ptr_t r)
{
    ucs_status_t st = UCS_OK;

    if (UCS_PTR_IS_ERR(r))
        return UCS_PTR_STATUS(r);
    if (r == NULL)
        return UCS_OK;
    pthread_mutex_lock(&wk->plock);
    if (wk->npend == wk->cap) {
        size_t cap = wk->cap ? 2 * wk->cap : 64;
        void **grown = realloc(wk->pend, cap * sizeof(*grown));
        if (grown) {
            wk->pend = grown;
            wk->cap = cap;
        }
    }
    if (wk->npend < wk->cap)
        wk->pend[wk->npend++] = r;
    else
        st = UCS_ERR_NO_MEMORY;
    pthread_mutex_unlock(&wk->plock);
    return st == UCS_OK ? UCS_OK : wait_req(wk->w, r);
}

/* Completes the issued operations of a worker (their requests; those that returned none are
 * complete at the flush that follows). */
static ucs_status_t complete_kept(worker_t *wk)
{
    ucs_status_t st = UCS_OK, s1;
    void **pend;
    size_t n;

    pthread_mutex_lock(&wk->plock);
    pend = wk->pend;
    n = wk->npend;
    wk->pend = NULL;
    wk->npend = wk->cap = 0;
    pthread_mutex_unlock(&wk->plock);
    for (size_t i = 0; i < n; i++)
        if ((s1 = wait_req(wk->w, pend[i])) != UCS_OK)
            st = s1;
    free(pend);
    return st;
}

static symm_status_t worker_open(worker_t *wk, ucs_thread_mode_t mode)
{
    ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
                              .thread_mode = mode};

    pthread_mutex_init(&wk->plock, NULL);
    return F.ucp_worker_create(U.ctx, &wp, &wk->w) == UCS_OK ? SYMM_OK : SYMM_ERR_SYS;
}

/* pe's key of extent i, through wk's endpoint ep to pe (nothing where pe has nothing there). */
static ucs_status_t unpack_one(worker_t *wk, int i, int pe, ucp_ep_h ep)
{
    const extent_t *e = &U.ext[i];

    if (!e->lens[pe])
        return UCS_OK;
    return F.ucp_ep_rkey_unpack(ep, e->keys + (size_t)pe * e->key_len, &wk->rkey[i][pe]);
}

/* Extent i's keys on a worker, for every PE it has an endpoint to; the others' come with their
 * endpoints. Under U.lock. */
static symm_status_t unpack(worker_t *wk, int i)
{
    ucp_rkey_h *k = calloc(U.env.size, sizeof(*k));

    if (!k)
        return SYMM_ERR_NOMEM;
    wk->rkey[i] = k;
    for (int pe = 0; pe < U.env.size; pe++) {
        ucp_ep_h ep = atomic_load_explicit(&wk->ep[pe], memory_order_relaxed);
        if (ep && unpack_one(wk, i, pe, ep) != UCS_OK)
            return SYMM_ERR_SYS;
    }
    return SYMM_OK;
}

/* A new worker's tables: no endpoint yet, and a slot for each PE's key of each extent in use.
 * Under U.lock, or before the worker is shared. */
static symm_status_t worker_connect(worker_t *wk)
{
    int next = atomic_load_explicit(&U.next, memory_order_relaxed);
    symm_status_t st = SYMM_OK;

    wk->ep = calloc(U.env.size, sizeof(*wk->ep));
    if (!wk->ep)
        return SYMM_ERR_NOMEM;
    for (int i = 0; st == SYMM_OK && i < next; i++)
        st = unpack(wk, i);
    return st;
}

/* Completes a worker's operations: the kept requests, then a flush. The flush also waits for
 * the peers' replies to the connection requests of the endpoints the worker has opened: a peer
 * that has not answered one when the worker is closed would still connect back to it after it
 * is gone (finalize flushes every worker after its last barrier, the last operation that may
 * open an endpoint, and before the PEs part). */
static ucs_status_t worker_flush(worker_t *wk)
{
    ucp_request_param_t p = {.op_attr_mask = 0};
    ucs_status_t st = complete_kept(wk);

    return st == UCS_OK ? wait_req(wk->w, F.ucp_worker_flush_nbx(wk->w, &p)) : st;
}

static void worker_close(worker_t *wk)
{
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
                             .flags = UCP_EP_CLOSE_FLAG_FORCE};

    if (!wk->w)
        return;
    complete_kept(wk);
    for (int i = 0; i < MAX_EXTENTS && wk->rkey[i]; i++) {
        for (int pe = 0; pe < U.env.size; pe++)
            if (wk->rkey[i][pe])
                F.ucp_rkey_destroy(wk->rkey[i][pe]);
        free(wk->rkey[i]);
    }
    for (int pe = 0; wk->ep && pe < U.env.size; pe++) {
        ucp_ep_h ep = atomic_load_explicit(&wk->ep[pe], memory_order_relaxed);
        if (ep)
            wait_req(wk->w, F.ucp_ep_close_nbx(ep, &p));
    }
    F.ucp_worker_destroy(wk->w);
    free(wk->ep);
    *wk = (worker_t){0};
}

/* The worker of a context's channel, opened on first use: one a destroyed context left, or a
 * new one. A worker lives until finalize; the peers' workers keep endpoints back to it. */
static worker_t *worker_of(void **chan)
{
    worker_t *wk = atomic_load_explicit((_Atomic(void *) *)chan, memory_order_acquire);

    active();
    if (wk)
        return wk;
    pthread_mutex_lock(&U.lock);
    wk = *chan;
    if (!wk && U.nspare) {
        wk = U.spare[--U.nspare];
        atomic_store_explicit((_Atomic(void *) *)chan, wk, memory_order_release);
    }
    if (!wk) {
        wk = calloc(1, sizeof(*wk));
        if (!wk ||
            worker_open(wk, U.env.threads ? UCS_THREAD_MODE_MULTI : UCS_THREAD_MODE_SERIALIZED) !=
                SYMM_OK ||
            worker_connect(wk) != SYMM_OK)
            U.env.fatal("shmem_ctx_create: cannot open a UCX worker for a context");
        worker_t **grown = realloc(U.ctxw, (size_t)(U.nctxw + 1) * sizeof(*grown));
        if (!grown)
            U.env.fatal("shmem_ctx_create: out of memory for a context's UCX worker");
        U.ctxw = grown;
        U.ctxw[U.nctxw++] = wk;
        atomic_store_explicit(&U.any_ctxw, 1, memory_order_relaxed);
        atomic_store_explicit((_Atomic(void *) *)chan, wk, memory_order_release);
    }
    pthread_mutex_unlock(&U.lock);
    return wk;
}

/* The progress thread's turn (tl/serve.c): the target worker, and the contexts' workers whose
 * peers' endpoints back to them connect only as they progress: the spare ones here, and all of
 * them once finalize has begun (their contexts are used by no thread then). */
static int ucx_serve(void)
{
    if (F.ucp_worker_progress(U.target.w))
        return 2;
    return progress_ctxw(!atomic_load_explicit(&U.closing, memory_order_acquire)) ? 1 : 0;
}

static int ucx_arm(void)
{
    return F.ucp_worker_arm(U.target.w) != UCS_ERR_BUSY;
}

/* ---- Library flags ------------------------------------------------------------------------
 * A flag goes as an active message that its receiver's handler stores, not as a put: where UCX
 * emulates puts over its active messages anyway (TCP), a put reaches the other side a good deal
 * later than an active message does (ucx_perftest's put and active-message latencies). */
static ucs_status_t flag_recv(void *arg, const void *header, size_t header_length, void *data,
                              size_t length, const ucp_am_recv_param_t *param)
{
    flag_msg_t m;

    (void)arg, (void)data, (void)param;
    if (header_length != sizeof(m))
        U.env.fatal("symm_peer_flag: a flag message of %zu bytes arrived", header_length);
    memcpy(&m, header, sizeof(m));
    if (length)
        U.env.fatal("symm_peer_flag: a flag message with %zu bytes of data arrived", length);
    symm_tl_flag_apply(&U.env, m.seg, m.off, m.value);
    return UCS_OK;
}

static ucs_status_t note_recv(void *arg, const void *header, size_t header_length, void *data,
                              size_t length, const ucp_am_recv_param_t *param)
{
    note_msg_t m;

    (void)arg;
    if (header_length != sizeof(m) || (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV))
        U.env.fatal("symm_peer_put_note: a message of %zu + %zu bytes arrived", header_length,
                    length);
    memcpy(&m, header, sizeof(m));
    symm_tl_note_apply(&U.env, m.seg, m.off, data, length, m.cseg, m.coff);
    return UCS_OK;
}

/* Has cb handle the whole messages of id that reach the target worker. */
static symm_status_t set_handler(unsigned id, ucp_am_recv_callback_t cb, void *arg)
{
    ucp_am_handler_param_t p = {.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID |
                                              UCP_AM_HANDLER_PARAM_FIELD_CB |
                                              UCP_AM_HANDLER_PARAM_FIELD_ARG |
                                              UCP_AM_HANDLER_PARAM_FIELD_FLAGS,
                                .id = id,
                                .cb = cb,
                                .arg = arg,
                                .flags = UCP_AM_FLAG_WHOLE_MSG};

    return F.ucp_worker_set_am_recv_handler(U.target.w, &p) == UCS_OK ? SYMM_OK : SYMM_ERR_SYS;
}

/* The library's own handlers: flags and notes. */
static symm_status_t flag_handler(void)
{
    symm_status_t st = set_handler(AM_FLAG, flag_recv, NULL);

    return st == SYMM_OK ? set_handler(AM_NOTE, note_recv, NULL) : st;
}

/* Registers r of this PE's segment as extent i and packs its key (nothing for an empty r). */
static ucs_status_t map(int i, const symm_tl_range_t *r, void **packed, size_t *plen)
{
    extent_t *e = &U.ext[i];
    ucp_mem_map_params_t mp = {
        .field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH,
        .address = (char *)U.env.base[r->seg] + r->off, .length = r->len};
    ucs_status_t st;

    *e = (extent_t){.seg = r->seg, .lo = r->off, .hi = r->off + r->len};
    if (r->len == 0)
        return UCS_OK;
    st = F.ucp_mem_map(U.ctx, &mp, &e->memh);
    if (st == UCS_OK && (st = F.ucp_rkey_pack(U.ctx, e->memh, packed, plen)) != UCS_OK) {
        F.ucp_mem_unmap(U.ctx, e->memh);
        e->memh = NULL;
    }
    return st;
}

/* Keeps every reached PE's key of extent i: keys[pe], lens[pe] bytes. */
static symm_status_t keep_keys(int i, const void *const *keys, const size_t *lens)
{
    extent_t *e = &U.ext[i];
    size_t n = (size_t)U.env.size, max = 1;

    for (size_t pe = 0; pe < n; pe++)
        if (U.env.net[pe] && lens[pe] > max)
            max = lens[pe];
    e->keys = calloc(n, max);
    e->lens = calloc(n, sizeof(*e->lens));
    if (!e->keys || !e->lens)
        return SYMM_ERR_NOMEM;
    e->key_len = max;
    for (size_t pe = 0; pe < n; pe++)
        if (U.env.net[pe] && lens[pe]) {
            memcpy(e->keys + pe * max, keys[pe], lens[pe]);
            e->lens[pe] = lens[pe];
        }
    return SYMM_OK;
}

/* Word i of a record's head (records lie back to back, at any alignment). */
static uint64_t head_word(const char *rec, int i)
{
    uint64_t w;

    memcpy(&w, rec + (size_t)i * sizeof(w), sizeof(w));
    return w;
}

/* Registers the parts init names, then gathers what every PE's peers need of it in one
 * allgather of records of any length (a fence of the bootstrap, the costly part of a start
 * across hosts): its segments' addresses, the lengths of its target worker's address and of
 * its keys, then those bytes. */
static symm_status_t exchange(void)
{
    const int n = U.env.size, m = U.env.nreg, words = SYMM_SEGS + 1 + m;
    const size_t head = (size_t)words * sizeof(uint64_t);
    void **packed = calloc(m, sizeof(*packed));
    size_t *plen = calloc(m, sizeof(*plen)), *rlen = malloc(n * sizeof(*rlen));
    const char **recs = malloc(n * sizeof(*recs));
    const void **kp = malloc(n * sizeof(*kp));
    size_t *kl = malloc(n * sizeof(*kl));
    size_t alen = 0, amax = 1, rec, at;
    ucp_address_t *a = NULL;
    char *buf = NULL, *all = NULL;
    symm_status_t st = SYMM_ERR_NOMEM;

    U.base = malloc((size_t)n * SYMM_SEGS * sizeof(*U.base));
    if (!packed || !plen || !rlen || !recs || !kp || !kl || !U.base)
        goto out;
    st = SYMM_ERR_SYS;
    if (F.ucp_worker_get_address(U.target.w, &a, &alen) != UCS_OK) {
        a = NULL;
        goto out;
    }
    rec = head + alen;
    for (int i = 0; i < m; i++) {
        if (map(i, &U.env.reg[i], &packed[i], &plen[i]) != UCS_OK)
            goto out;
        rec += plen[i];
    }
    st = SYMM_ERR_NOMEM;
    buf = malloc(rec);
    if (!buf)
        goto out;
    for (int s = 0; s < SYMM_SEGS; s++)
        ((uint64_t *)(void *)buf)[s] = U.env.len[s] ? (uintptr_t)U.env.base[s] : 0;
    ((uint64_t *)(void *)buf)[SYMM_SEGS] = alen;
    memcpy(buf + head, a, alen);
    at = head + alen;
    for (int i = 0; i < m; i++) {
        ((uint64_t *)(void *)buf)[SYMM_SEGS + 1 + i] = plen[i];
        if (packed[i])
            memcpy(buf + at, packed[i], plen[i]);
        at += plen[i];
    }
    st = U.env.allgatherv(buf, rec, (void **)&all, rlen);
    if (st != SYMM_OK)
        goto out;
    /* Each record: its head, then as many bytes as the head says. */
    at = 0;
    for (int pe = 0; pe < n; pe++) {
        uint64_t h[SYMM_SEGS + 1] = {0}, want = head;

        recs[pe] = all + at;
        if (rlen[pe] >= head) {
            memcpy(h, recs[pe], sizeof(h));
            want += h[SYMM_SEGS];
            for (int i = 0; i < m; i++)
                want += head_word(recs[pe], SYMM_SEGS + 1 + i);
        }
        if (rlen[pe] < head || rlen[pe] != want)
            U.env.fatal("shmem_init: pe %d's UCX record has %zu bytes; its head says %llu", pe,
                        rlen[pe], (unsigned long long)want);
        memcpy(U.base + (size_t)pe * SYMM_SEGS, h, SYMM_SEGS * sizeof(*h));
        amax = h[SYMM_SEGS] > amax ? h[SYMM_SEGS] : amax;
        at += rlen[pe];
    }
    st = SYMM_ERR_NOMEM;
    U.addrs = calloc((size_t)n, amax);
    if (!U.addrs)
        goto out;
    U.addr_len = amax;
    for (int pe = 0; pe < n; pe++)
        memcpy(U.addrs + (size_t)pe * amax, recs[pe] + head, head_word(recs[pe], SYMM_SEGS));
    st = SYMM_OK;
    for (int i = 0; st == SYMM_OK && i < m; i++) {
        for (int pe = 0; pe < n; pe++) {
            size_t o = head + head_word(recs[pe], SYMM_SEGS);

            for (int j = 0; j < i; j++)
                o += head_word(recs[pe], SYMM_SEGS + 1 + j);
            kp[pe] = recs[pe] + o;
            kl[pe] = head_word(recs[pe], SYMM_SEGS + 1 + i);
        }
        st = keep_keys(i, kp, kl);
    }
    if (st == SYMM_OK)
        atomic_store_explicit(&U.next, m, memory_order_release);
out:
    if (a)
        F.ucp_worker_release_address(U.target.w, a);
    for (int i = 0; packed && i < m; i++)
        if (packed[i])
            F.ucp_rkey_buffer_release(packed[i]);
    free(packed);
    free(plen);
    free(rlen);
    free(recs);
    free(kp);
    free(kl);
    free(buf);
    free(all);
    return st;
}

/* UCX loaded, its context and the target worker made: nothing of the job needed. */
static symm_status_t start(const char *lib, char *why, size_t why_len)
{
    ucp_params_t pp = {.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED,
                       .features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64 |
                                   UCP_FEATURE_WAKEUP | UCP_FEATURE_AM,
                       .mt_workers_shared = 1};
    ucp_config_t *cfg;
    ucs_status_t us;
    symm_status_t st;

    if (U.target.w)
        return SYMM_OK;
    if (!U.lib) {
        st = load(lib, why, why_len);
        if (st != SYMM_OK)
            return st;
    }
    if (!U.ctx) {
        us = F.ucp_config_read(NULL, NULL, &cfg);
        if (us == UCS_OK) {
            us = F.ucp_init_version(UCP_API_MAJOR, UCP_API_MINOR, &pp, cfg, &U.ctx);
            F.ucp_config_release(cfg);
        }
        if (us != UCS_OK) {
            U.ctx = NULL;
            snprintf(why, why_len, "UCX did not start: %s", status_str(us));
            return SYMM_ERR_SYS;
        }
    }
    st = worker_open(&U.target, UCS_THREAD_MODE_MULTI);
    if (st != SYMM_OK)
        U.target.w = NULL;
    return st;
}

static symm_status_t ucx_open(const char *lib)
{
    char why[256];

    return start(lib, why, sizeof(why));
}

static symm_status_t ucx_init(const symm_tl_env_t *env, char *why, size_t why_len)
{
    symm_status_t st;

    U.env = *env;
    /* The caller's table lives only for the call. */
    U.net = malloc(env->size);
    if (!U.net)
        return SYMM_ERR_NOMEM;
    memcpy(U.net, env->net, env->size);
    U.env.net = U.net;
    U.peer = calloc(env->size, 1);
    if (!U.peer)
        return SYMM_ERR_NOMEM;
    st = start(env->lib, why, why_len);
    if (st != SYMM_OK)
        return st;
    st = flag_handler();
    if (st == SYMM_OK)
        st = exchange();
    U.env.reg = NULL; /* the caller's parts, too, live only for the call */
    U.env.nreg = 0;
    if (st == SYMM_OK)
        st = worker_connect(&U.target);
    if (st != SYMM_OK) {
        snprintf(why, why_len, "UCX could not connect the PEs (%s)",
                 st == SYMM_ERR_NOMEM ? "out of memory" : "a UCX call or the bootstrap failed");
        return st;
    }
    U.srv = (symm_tl_serve_t){.serve = ucx_serve, .arm = ucx_arm, .fd = -1, .env = &U.env,
                              .wakefd = -1};
    if (F.ucp_worker_get_efd(U.target.w, &U.srv.fd) != UCS_OK)
        U.srv.fd = -1;
    if (symm_tl_serve_start(&U.srv) != SYMM_OK) {
        snprintf(why, why_len, "cannot start the UCX progress thread");
        return SYMM_ERR_SYS;
    }
    *env->default_chan = &U.target;
    return SYMM_OK;
}

static void ucx_fini(void)
{
    symm_tl_serve_stop(&U.srv);
    if (U.ctx && U.env.log)
        U.env.log(SYMM_LEVEL_INFO, "ucx: %d endpoints opened to %d peers", U.opened, U.peers);
    for (int i = 0; i < U.nctxw; i++) {
        worker_close(U.ctxw[i]);
        free(U.ctxw[i]);
    }
    U.nctxw = U.nspare = 0;
    worker_close(&U.target);
    for (int i = 0; i < MAX_EXTENTS; i++) {
        if (U.ext[i].memh)
            F.ucp_mem_unmap(U.ctx, U.ext[i].memh);
        free(U.ext[i].keys);
        free(U.ext[i].lens);
        U.ext[i] = (extent_t){0};
    }
    atomic_store_explicit(&U.next, 0, memory_order_relaxed);
    atomic_store_explicit(&U.closing, 0, memory_order_relaxed);
    U.pending = 0;
    if (U.ctx)
        F.ucp_cleanup(U.ctx);
    free(U.base);
    free(U.addrs);
    free(U.net);
    free(U.peer);
    U.peer = NULL;
    U.opened = U.peers = 0;
    free(U.ctxw);
    free(U.spare);
    U.ctxw = U.spare = NULL;
    U.ctx = NULL;
}

/* A destroyed context's worker, its operations complete, waits for the next context. */
static void ucx_chan_release(void **chan)
{
    worker_t *wk = *chan, **grown;
    ucs_status_t st;

    if (!wk || wk == &U.target)
        return;
    if ((st = worker_flush(wk)) != UCS_OK)
        U.env.fatal("shmem_ctx_destroy: completing the network operations failed: %s",
                    status_str(st));
    atomic_store_explicit(&wk->dirty, 0, memory_order_relaxed);
    atomic_store_explicit(&wk->flags, 0, memory_order_relaxed);
    atomic_store_explicit(&wk->acked, 0, memory_order_relaxed);
    *chan = NULL;
    pthread_mutex_lock(&U.lock);
    grown = realloc(U.spare, (size_t)(U.nspare + 1) * sizeof(*grown));
    if (!grown)
        U.env.fatal("shmem_ctx_destroy: out of memory for a context's UCX worker");
    U.spare = grown;
    U.spare[U.nspare++] = wk;
    pthread_mutex_unlock(&U.lock);
}

/* ---- Extents ----------------------------------------------------------------------------- */
static symm_status_t ucx_extent_reg(const symm_tl_range_t *r, void *key, size_t key_cap,
                                    size_t *key_len, char *why, size_t why_len)
{
    int i = atomic_load_explicit(&U.next, memory_order_relaxed);
    void *packed = NULL;
    size_t plen = 0;
    ucs_status_t st;

    if (U.pending || i == MAX_EXTENTS) {
        snprintf(why, why_len, "%s", U.pending ? "another extent is pending"
                                               : "no room for more extents");
        return SYMM_ERR_INVALID;
    }
    st = map(i, r, &packed, &plen);
    if (st != UCS_OK) {
        snprintf(why, why_len, "UCX cannot register it: %s", status_str(st));
        return SYMM_ERR_SYS;
    }
    if (plen > key_cap) {
        snprintf(why, why_len, "its UCX key takes %zu bytes, more than the %zu there are room "
                 "for", plen, key_cap);
        F.ucp_rkey_buffer_release(packed);
        F.ucp_mem_unmap(U.ctx, U.ext[i].memh);
        U.ext[i].memh = NULL;
        return SYMM_ERR_NOMEM;
    }
    memcpy(key, packed, plen);
    *key_len = plen;
    F.ucp_rkey_buffer_release(packed);
    U.pending = 1;
    return SYMM_OK;
}

/* Every worker unpacks the pending extent's keys for the endpoints it has before the extent is
 * published, under the lock that opening a context's worker or an endpoint takes, so every
 * endpoint has the key of every extent in use. */
static symm_status_t ucx_extent_keys(const void *const *keys, const size_t *lens, char *why,
                                     size_t why_len)
{
    int i = atomic_load_explicit(&U.next, memory_order_relaxed);
    symm_status_t st = U.pending ? keep_keys(i, keys, lens) : SYMM_ERR_INVALID;

    pthread_mutex_lock(&U.lock);
    if (st == SYMM_OK)
        st = unpack(&U.target, i);
    for (int w = 0; st == SYMM_OK && w < U.nctxw; w++)
        st = unpack(U.ctxw[w], i);
    if (st == SYMM_OK) {
        U.pending = 0;
        atomic_store_explicit(&U.next, i + 1, memory_order_release);
    }
    pthread_mutex_unlock(&U.lock);
    if (st != SYMM_OK)
        snprintf(why, why_len, "%s", st == SYMM_ERR_NOMEM ? "out of memory"
                                                        : "UCX cannot unpack a peer's key");
    return st;
}

static void ucx_extent_drop(void)
{
    extent_t *e = &U.ext[atomic_load_explicit(&U.next, memory_order_relaxed)];

    if (!U.pending)
        return;
    if (e->memh)
        F.ucp_mem_unmap(U.ctx, e->memh);
    *e = (extent_t){0};
    U.pending = 0;
}

static size_t ucx_registered(symm_tl_seg_t seg)
{
    int next = atomic_load_explicit(&U.next, memory_order_acquire);
    size_t sum = 0;

    for (int i = 0; i < next; i++)
        if (U.ext[i].seg == seg && U.ext[i].memh)
            sum += U.ext[i].hi - U.ext[i].lo;
    return sum;
}

/* The key of pe's extent that holds offset off of seg, and in *part the bytes of
 * [off, off + n) inside it; fatal when no registered extent holds off. */
static ucp_rkey_h target(const worker_t *wk, const char *call, int pe, symm_tl_seg_t seg,
                         uint64_t off, size_t n, size_t *part)
{
    int next = atomic_load_explicit(&U.next, memory_order_acquire);

    for (int i = 0; i < next; i++) {
        const extent_t *e = &U.ext[i];
        if (e->seg != seg || off < e->lo || off >= e->hi)
            continue;
        if (!wk->rkey[i][pe])
            break;
        *part = n < e->hi - off ? n : e->hi - off;
        return wk->rkey[i][pe];
    }
    if (seg == SYMM_SEG_DATA)
        U.env.fatal("%s(pe=%d): pe %d has no symmetric data segment to reach over the network",
                    call, pe, pe);
    U.env.fatal("%s(pe=%d): offset %#llx of the symmetric heap is not registered with the "
                "network: no symmetric allocation holds it", call, pe, (unsigned long long)off);
}

static uint64_t raddr(int pe, symm_tl_seg_t seg, uint64_t off)
{
    return U.base[pe * SYMM_SEGS + seg] + off;
}

static void check(ucs_status_t st, const char *call, const char *what, int pe)
{
    if (st != UCS_OK)
        U.env.fatal("%s(pe=%d): the UCX %s failed: %s", call, pe, what, status_str(st));
}

/* wk's endpoint to pe, opened now with pe's keys of the extents in use (see "Connections"). */
static __attribute__((noinline)) ucp_ep_h ep_open(worker_t *wk, const char *call, int pe)
{
    ucp_ep_params_t p = {.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS,
                         .address = (ucp_address_t *)(U.addrs + (size_t)pe * U.addr_len)};
    ucp_ep_h ep;
    int next;

    pthread_mutex_lock(&U.lock);
    ep = atomic_load_explicit(&wk->ep[pe], memory_order_relaxed);
    if (ep) {
        pthread_mutex_unlock(&U.lock);
        return ep;
    }
    if (!U.env.net[pe])
        U.env.fatal("%s(pe=%d): pe %d is not reached over the network", call, pe, pe);
    check(F.ucp_ep_create(wk->w, &p, &ep), call, "connection", pe);
    next = atomic_load_explicit(&U.next, memory_order_relaxed);
    for (int i = 0; i < next; i++)
        check(unpack_one(wk, i, pe, ep), call, "key unpacking", pe);
    U.opened++;
    U.env.log(SYMM_LEVEL_TRACE, "%s: ucx endpoint %d opened, to pe %d", call, U.opened, pe);
    U.peers += !U.peer[pe];
    U.peer[pe] = 1;
    atomic_store_explicit(&wk->ep[pe], ep, memory_order_release);
    pthread_mutex_unlock(&U.lock);
    return ep;
}

/* wk's endpoint to pe, opened on the first operation to pe. Its keys are set before it is
 * published, so a key lookup after this finds them. */
static inline ucp_ep_h ep_of(worker_t *wk, const char *call, int pe)
{
    ucp_ep_h ep = atomic_load_explicit(&wk->ep[pe], memory_order_acquire);

    return __builtin_expect(ep != NULL, 1) ? ep : ep_open(wk, call, pe);
}

/* A put or get, one operation per extent it touches. */
static void rma(worker_t *wk, const char *call, int pe, symm_tl_seg_t seg, uint64_t off,
                char *buf, size_t n, symm_rma_op_t op)
{
    ucp_request_param_t p = {.op_attr_mask = 0};
    const int put = symm_rma_is_put(op);
    size_t part;

    for (; n > 0; buf += part, off += part, n -= part) {
        ucp_ep_h ep = ep_of(wk, call, pe);
        ucp_rkey_h k = target(wk, call, pe, seg, off, n, &part);
        uint64_t ra = raddr(pe, seg, off);
        ucs_status_ptr_t r = put ? F.ucp_put_nbx(ep, buf, part, ra, k, &p)
                                 : F.ucp_get_nbx(ep, buf, part, ra, k, &p);
        check(symm_rma_mode(op) == SYMM_TL_NBI ? keep(wk, r) : wait_req(wk->w, r), call,
              put ? "put" : "get", pe);
    }
}

/* The first operation of a quiet's epoch, when it is a put of one aligned word: sent as a swap
 * whose reply (thrown away) says that the word has landed, so that a quiet right after it waits
 * one round trip for that reply instead of a put and a flush. Later operations go as before.
 * 1 when sent so. */
static int put_acked(worker_t *wk, const char *call, int pe, symm_tl_seg_t seg, uint64_t off,
                     const void *src, size_t n, symm_tl_mode_t mode)
{
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE |
                                             UCP_OP_ATTR_FIELD_REPLY_BUFFER,
                             .datatype = ucp_dt_make_contig(n),
                             .reply_buffer = &wk->discard};
    uint64_t in = 0, ra = raddr(pe, seg, off);
    size_t part;
    ucp_ep_h ep;
    ucp_rkey_h k;

    if (U.env.threads || mode == SYMM_TL_FLAG || (n != 4 && n != 8) || ra % n ||
        atomic_load_explicit(&wk->dirty, memory_order_relaxed) ||
        atomic_load_explicit(&wk->acked, memory_order_relaxed))
        return 0;
    ep = ep_of(wk, call, pe);
    k = target(wk, call, pe, seg, off, n, &part);
    if (part < n)
        return 0;
    memcpy(&in, src, n);
    atomic_store_explicit(&wk->acked, 1, memory_order_relaxed);
    check(keep(wk, F.ucp_atomic_op_nbx(ep, UCP_ATOMIC_OP_SWAP, &in, 1, ra, k, &p)), call, "put",
          pe);
    return 1;
}

/* Sends hdr and data to pe's handler of id, eagerly (never a rendezvous the handler would have
 * to complete); returns when both may be reused. */
static void am_send(worker_t *wk, const char *call, const char *what, int pe, unsigned id,
                    const void *hdr, size_t hlen, const void *data, size_t len)
{
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
                             .flags = UCP_AM_SEND_FLAG_EAGER};

    check(wait_req(wk->w, F.ucp_am_send_nbx(ep_of(wk, call, pe), id, hdr, hlen, data, len, &p)),
          call, what, pe);
}

/* A library flag to pe (see flag_recv). */
static void flag_send(worker_t *wk, const char *call, int pe, symm_tl_seg_t seg, uint64_t off,
                      const void *src)
{
    flag_msg_t m = {.off = off, .seg = seg};

    memcpy(&m.value, src, sizeof(m.value));
    am_send(wk, call, "flag", pe, AM_FLAG, &m, sizeof(m), NULL, 0);
}

static void ucx_put_note(void **chan, const char *call, int pe, symm_tl_seg_t seg, uint64_t off,
                         const void *src, size_t n, symm_tl_seg_t cseg, uint64_t coff)
{
    worker_t *wk = worker_of(chan);
    note_msg_t m = {.off = off, .coff = coff, .seg = seg, .cseg = cseg};

    atomic_store_explicit(&wk->flags, 1, memory_order_relaxed);
    am_send(wk, call, "put", pe, AM_NOTE, &m, sizeof(m), src, n);
}

static void ucx_put(void **chan, const char *call, int pe, symm_tl_seg_t seg,
                    uint64_t off, const void *src, size_t n, symm_tl_mode_t mode)
{
    worker_t *wk = worker_of(chan);

    if (put_acked(wk, call, pe, seg, off, src, n, mode))
        return;
    atomic_store_explicit(mode == SYMM_TL_FLAG ? &wk->flags : &wk->dirty, 1, memory_order_relaxed);
    if (mode == SYMM_TL_FLAG && n == sizeof(uint32_t))
        flag_send(wk, call, pe, seg, off, src);
    else
        rma(wk, call, pe, seg, off, (char *)src, n, mode == SYMM_TL_NBI ? SYMM_PUT_NBI : SYMM_PUT);
}

static void ucx_get(void **chan, const char *call, int pe, symm_tl_seg_t seg,
                    uint64_t off, void *dest, size_t n, symm_tl_mode_t mode)
{
    worker_t *wk = worker_of(chan);

    if (mode == SYMM_TL_NBI)
        atomic_store_explicit(&wk->dirty, 1, memory_order_relaxed);
    rma(wk, call, pe, seg, off, dest, n, mode == SYMM_TL_NBI ? SYMM_GET_NBI : SYMM_GET);
}

static uint64_t ucx_amo(void **chan, const char *call, const symm_tl_amo_t *a,
                        symm_tl_mode_t mode)
{
    static const ucp_atomic_op_t ops[] = {
        [SYMM_AMO_ADD] = UCP_ATOMIC_OP_ADD,   [SYMM_AMO_AND] = UCP_ATOMIC_OP_AND,
        [SYMM_AMO_OR] = UCP_ATOMIC_OP_OR,     [SYMM_AMO_XOR] = UCP_ATOMIC_OP_XOR,
        [SYMM_AMO_SWAP] = UCP_ATOMIC_OP_SWAP, [SYMM_AMO_CSWAP] = UCP_ATOMIC_OP_CSWAP,
        [SYMM_AMO_FETCH] = UCP_ATOMIC_OP_OR,  [SYMM_AMO_SET] = UCP_ATOMIC_OP_SWAP,
    };
    worker_t *wk = worker_of(chan);
    /* Operand and reply as words of the element's size (little-endian low halves). */
    union {
        uint64_t u64;
        uint32_t u32;
    } in = {0}, out = {0};
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE,
                             .datatype = ucp_dt_make_contig(a->size)};
    ucs_status_ptr_t r;
    size_t part;
    ucp_ep_h ep = ep_of(wk, call, a->pe);
    ucp_rkey_h k = target(wk, call, a->pe, a->seg, a->off, a->size, &part);
    int reply = mode == SYMM_TL_WAIT || a->op == SYMM_AMO_SWAP || a->op == SYMM_AMO_CSWAP ||
                a->op == SYMM_AMO_FETCH;

    if (a->size == 4) {
        in.u32 = (uint32_t)(a->op == SYMM_AMO_CSWAP ? a->cond : a->value);
        out.u32 = (uint32_t)a->value;
    } else {
        in.u64 = a->op == SYMM_AMO_CSWAP ? a->cond : a->value;
        out.u64 = a->value;
    }
    if (a->op == SYMM_AMO_FETCH)
        in.u64 = 0;
    if (reply) {
        p.op_attr_mask |= UCP_OP_ATTR_FIELD_REPLY_BUFFER;
        p.reply_buffer = &out;
    } else if (a->op == SYMM_AMO_SET) {
        p.op_attr_mask |= UCP_OP_ATTR_FIELD_REPLY_BUFFER;
        p.reply_buffer = &wk->discard;
    }
    if (part < a->size)
        U.env.fatal("%s(pe=%d): the word at offset %#llx straddles two registered extents", call,
                    a->pe, (unsigned long long)a->off);
    r = F.ucp_atomic_op_nbx(ep, ops[a->op], &in, 1, raddr(a->pe, a->seg, a->off), k, &p);
    if (!reply) {
        atomic_store_explicit(&wk->dirty, 1, memory_order_relaxed);
        check(keep(wk, r), call, "atomic", a->pe);
        return 0;
    }
    check(wait_req(wk->w, r), call, "atomic", a->pe);
    return a->size == 4 ? out.u32 : out.u64;
}

static void ucx_fence(void **chan)
{
    worker_t *wk;

    if (U.ctx && (wk = atomic_load_explicit((_Atomic(void *) *)chan, memory_order_acquire)))
        F.ucp_worker_fence(wk->w);
}

static void ucx_quiet(void **chan, int all)
{
    worker_t *wk;
    ucs_status_t st;

    if (!U.ctx || !(wk = atomic_load_explicit((_Atomic(void *) *)chan, memory_order_acquire)))
        return;
    active();
    /* With several threads on a context, one thread's quiet must not return while another's
     * flush of its operations is still under way: those always flush. */
    if (!U.env.threads && !all && !atomic_load_explicit(&wk->dirty, memory_order_relaxed)) {
        if (atomic_exchange_explicit(&wk->acked, 0, memory_order_relaxed) &&
            (st = complete_kept(wk)) != UCS_OK)
            U.env.fatal("shmem_quiet: completing the network operations failed: %s",
                        status_str(st));
        return;
    }
    atomic_store_explicit(&wk->acked, 0, memory_order_relaxed);
    atomic_store_explicit(&wk->dirty, 0, memory_order_relaxed);
    if (all) {
        atomic_store_explicit(&wk->flags, 0, memory_order_relaxed);
        atomic_store_explicit(&U.closing, 1, memory_order_release);
    }
    st = worker_flush(wk);
    /* Before the PEs part: every context's worker too, the destroyed ones' included. */
    for (int i = 0; all && st == UCS_OK && i < U.nctxw; i++)
        st = worker_flush(U.ctxw[i]);
    if (st != UCS_OK)
        U.env.fatal("shmem_quiet: completing the network operations failed: %s",
                    status_str(st));
}

static int ucx_progress(void)
{
    return U.ctx ? progress_all() : 0;
}

static void ucx_rest(int on)
{
    symm_tl_serve_rest(&U.srv, on);
}

/* ---- Active messages ----------------------------------------------------------------------
 * On the target worker, which the peers' endpoints reach; sent eagerly (never a rendezvous the
 * handler would have to complete) and handed over whole. */
static ucs_status_t am_recv(void *arg, const void *header, size_t header_length, void *data,
                            size_t length, const ucp_am_recv_param_t *param)
{
    unsigned id = (unsigned)(uintptr_t)arg;

    if (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV)
        U.env.fatal("the proxy: UCX delivered an active message of %zu bytes by rendezvous",
                    length);
    U.am[id](header, header_length, data, length);
    return UCS_OK;
}

static symm_status_t ucx_am_handler(unsigned id, symm_tl_am_cb_t cb)
{
    if (!U.ctx || !U.env.am || id >= AM_IDS)
        return SYMM_ERR_INVALID;
    U.am[id] = cb;
    return set_handler(id, am_recv, (void *)(uintptr_t)id);
}

static void ucx_am_send(void **chan, const char *call, int pe, unsigned id, const void *hdr,
                        size_t hlen, const void *data, size_t len)
{
    am_send(worker_of(chan), call, "active message", pe, id, hdr, hlen, data, len);
}

static const char *ucx_describe(void)
{
    return "ucx";
}

const symm_tl_ops_t symm_tl_ucx = {
    .name = "ucx",
    .init = ucx_init,
    .open = ucx_open,
    .fini = ucx_fini,
    .extent_reg = ucx_extent_reg,
    .extent_keys = ucx_extent_keys,
    .extent_drop = ucx_extent_drop,
    .registered = ucx_registered,
    .put = ucx_put,
    .get = ucx_get,
    .put_note = ucx_put_note,
    .amo = ucx_amo,
    .fence = ucx_fence,
    .quiet = ucx_quiet,
    .progress = ucx_progress,
    .rest = ucx_rest,
    .chan_release = ucx_chan_release,
    .am_handler = ucx_am_handler,
    .am_send = ucx_am_send,
    .describe = ucx_describe,
};
