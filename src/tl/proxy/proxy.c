/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The proxy transport (proxy.h): one thread per PE that takes its kernels' requests from the
 * ring and carries them to PEs of other nodes, and applies what those PEs' proxies send it.
 *
 * The network cannot reach GPU memory (UCX built without CUDA is the common case), so data is
 * staged through pinned host memory on both sides: the requester copies a put's source to a
 * staging buffer and sends it in an active message; the target's proxy copies it into its
 * device heap. A get travels back the same way. Atomics on a device word run as a one-thread
 * library kernel on the target; a signal or barrier word that is only set is a copy (so it
 * needs no free SM).
 *
 * Order: requests leave in ring order with a sequence number per target; the target applies
 * each requester's in that order (holding any that arrive early) on one stream, and
 * acknowledges the last one applied once the stream has run it. So a fence needs nothing, a
 * signal lands after its data, and quiet waits until every target acknowledged what was sent
 * and every reply came back.
 *
 * The thread never blocks on a peer: a quiet at the head of the ring holds the ring, not the
 * thread, which keeps applying its peers' requests (two PEs quieting at once wait for each
 * other's proxies).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tl/proxy/proxy.h"

/* Bytes of one staged piece: larger puts and gets travel in pieces. */
#define STAGE (1u << 20)
/* Active message ids: requests to a target, and what comes back. */
#define AM_REQ 1
#define AM_REP 2

enum { REP_DATA = 1, REP_VALUE, REP_ACK };

/* One message's header. */
typedef struct msg {
    uint32_t op;  /* SYMM_PX_* (AM_REQ) or REP_* (AM_REP) */
    int32_t src;  /* the sending PE */
    uint64_t seq; /* AM_REQ: the request's number from src to this PE; REP_ACK: the last one
                     applied */
    uint64_t off; /* device heap offset at the target; REP_DATA: offset in the get */
    uint64_t len;
    uint64_t value;
    uint64_t cond;
    uint64_t sig; /* PUT_SIGNAL: the signal word's offset */
    uint32_t amo;
    uint32_t pad;
    uint64_t token; /* the requester's pending operation, for replies */
} msg_t;

/* A message received, queued for the thread. */
typedef struct item {
    struct item *next;
    int rep; /* came as AM_REP */
    msg_t m;
    size_t len;
    char data[];
} item_t;

/* A request that waits for replies: a get (in pieces) or a fetch. */
typedef struct pend {
    symm_px_cons_t *c;      /* the ring of the request */
    unsigned long long idx; /* its index there, to answer */
    int answer;
    char *dest;    /* a get's local destination */
    uint64_t left; /* pieces still to come */
} pend_t;

static struct {
    symm_px_env_t env;
    int running;
    symm_px_ring_t *ring; /* host view */
    CUdeviceptr ring_dev;
    CUdeviceptr head;        /* the producers' counter */
    CUstream s;              /* this proxy's copies and kernels */
    char *stage;             /* pinned: a put's source on its way out */
    char *back;              /* pinned: a get's data on its way back */
    unsigned long long *old; /* pinned, mapped: an atomic's old value */
    CUdeviceptr old_dev;
    symm_px_cons_t cons;
    /* The host's requests (host RMA on device memory of PEs of other nodes): a ring of the
     * same protocol in host memory, with its counter. */
    symm_px_ring_t *hring;
    unsigned long long hhead;
    symm_px_cons_t hcons;
    pthread_t thread;
    _Atomic int stop;

    uint64_t *sent, *acked; /* [pe]: requests sent to pe, acknowledged by pe */
    uint64_t replies;       /* pieces of replies still to come */
    uint64_t *applied;      /* [pe]: requests of pe applied here (the next is +1) */
    item_t **early;         /* [pe]: requests of pe that came before their turn */
    char *ack_due;          /* [pe]: applied some since the last acknowledgement */

    pthread_mutex_t qlock; /* the received messages */
    item_t *qhead, **qtail;

    pthread_mutex_t hlock; /* the host's quiet */
    pthread_cond_t hcond;
    uint64_t hq_asked, hq_done;
    unsigned long long hq_head, hq_hhead;
    int hq_on;
} P = {.qlock = PTHREAD_MUTEX_INITIALIZER,
       .hlock = PTHREAD_MUTEX_INITIALIZER,
       .hcond = PTHREAD_COND_INITIALIZER};

static const char *const CALL = "the GPU proxy";

int symm_px_running(void)
{
    return P.running;
}

/* ---- Receiving ------------------------------------------------------------------------------
 * In whichever thread progresses the network: copy and queue. */
static void queue(int rep, const void *hdr, size_t hlen, const void *data, size_t len)
{
    item_t *it = malloc(sizeof(*it) + len);

    if (!it || hlen != sizeof(msg_t))
        P.env.fatal("%s: %s", CALL, it ? "a message of another size came" : "out of memory");
    memcpy(&it->m, hdr, sizeof(msg_t));
    it->len = len;
    it->rep = rep;
    if (len)
        memcpy(it->data, data, len);
    it->next = NULL;
    pthread_mutex_lock(&P.qlock);
    *P.qtail = it;
    P.qtail = &it->next;
    pthread_mutex_unlock(&P.qlock);
}

static void on_req(const void *hdr, size_t hlen, const void *data, size_t len)
{
    queue(0, hdr, hlen, data, len);
}

static void on_rep(const void *hdr, size_t hlen, const void *data, size_t len)
{
    queue(1, hdr, hlen, data, len);
}

static item_t *take_all(void)
{
    item_t *l;

    pthread_mutex_lock(&P.qlock);
    l = P.qhead;
    P.qhead = NULL;
    P.qtail = &P.qhead;
    pthread_mutex_unlock(&P.qlock);
    return l;
}

static void px_send(int pe, unsigned id, msg_t *m, const void *data, size_t len)
{
    m->src = P.env.rank;
    P.env.net->am_send(P.env.chan, CALL, pe, id, m, sizeof(*m), data, len);
}

/* Sends a request to pe, numbered. */
static void request(int pe, msg_t *m, const void *data, size_t len)
{
    m->seq = ++P.sent[pe];
    px_send(pe, AM_REQ, m, data, len);
}

/* ---- Applying a peer's requests to this PE's device heap --------------------------------------
 */
static char *local(const msg_t *m, uint64_t off, uint64_t len)
{
    if (off > symm_cuda_g.stride || !symm_cuda_local(symm_cuda_g.base + off, len))
        P.env.fatal("%s: pe %d reaches [%#llx, %#llx) of this PE's device heap, which has %zu "
                    "bytes and no buffer registered there",
                    CALL, m->src, (unsigned long long)off, (unsigned long long)(off + len),
                    symm_cuda_g.backed);
    return symm_cuda_g.base + off;
}

static void sync_stream(void)
{
    SYMM_CU_CHECK(CALL, symm_cu.cuStreamSynchronize(P.s));
}

/* An atomic on this PE's word: SET is a copy, FETCH a copy back, the others the kernel. The
 * old value when the caller syncs the stream (fetching atomics sync at once). */
static void apply_amo(const msg_t *m, uint32_t amo, uint64_t off, uint64_t len, item_t *it,
                      uint64_t *value)
{
    char *p = local(m, off, len);

    if (len != 4 && len != 8)
        P.env.fatal("%s: pe %d asks for an atomic of %llu bytes", CALL, m->src,
                    (unsigned long long)len);
    if (amo == SYMM_PX_AMO_SET) {
        SYMM_CU_CHECK(CALL, symm_cu.cuMemcpyAsync((CUdeviceptr)p, (CUdeviceptr)value, len, P.s));
        return;
    }
    if (amo == SYMM_PX_AMO_FETCH) {
        *P.old = 0;
        SYMM_CU_CHECK(CALL, symm_cu.cuMemcpyAsync((CUdeviceptr)P.old, (CUdeviceptr)p, len, P.s));
        return;
    }
    unsigned op = amo, size = (unsigned)len;
    unsigned long long v = *value, c = m->cond;
    void *args[] = {&p, &op, &size, &v, &c, &P.old_dev};
    (void)it;
    symm_cuda_launch(CALL, symm_cuda_g.k_amo, 1, 1, P.s, args);
}

static void apply(item_t *it)
{
    msg_t *m = &it->m, r = {0};

    switch (m->op) {
    case SYMM_PX_PUT:
    case SYMM_PX_P:
    case SYMM_PX_PUT_SIGNAL:
        if (it->len)
            SYMM_CU_CHECK(CALL, symm_cu.cuMemcpyAsync((CUdeviceptr)local(m, m->off, it->len),
                                                      (CUdeviceptr)it->data, it->len, P.s));
        if (m->op == SYMM_PX_PUT_SIGNAL)
            apply_amo(m, m->amo, m->sig, 8, it, &m->value);
        break;
    case SYMM_PX_GET:
        if (m->len > STAGE)
            P.env.fatal("%s: pe %d asks for a piece of %llu bytes", CALL, m->src,
                        (unsigned long long)m->len);
        SYMM_CU_CHECK(CALL,
                      symm_cu.cuMemcpyAsync((CUdeviceptr)P.back,
                                            (CUdeviceptr)local(m, m->off, m->len), m->len, P.s));
        sync_stream();
        r = (msg_t){.op = REP_DATA, .off = m->value, .len = m->len, .token = m->token};
        px_send(m->src, AM_REP, &r, P.back, m->len);
        break;
    case SYMM_PX_G:
    case SYMM_PX_AMO:
        if (m->op == SYMM_PX_G) {
            *P.old = 0;
            SYMM_CU_CHECK(CALL, symm_cu.cuMemcpyAsync((CUdeviceptr)P.old,
                                                      (CUdeviceptr)local(m, m->off, m->len), m->len,
                                                      P.s));
        } else {
            apply_amo(m, m->amo, m->off, m->len, it, &m->value);
        }
        if (m->token) {
            sync_stream();
            r = (msg_t){.op = REP_VALUE, .value = *P.old, .token = m->token};
            px_send(m->src, AM_REP, &r, NULL, 0);
        }
        break;
    default:
        P.env.fatal("%s: pe %d sent an unknown request %u", CALL, m->src, m->op);
    }
}

/* Requests of pe in their order: those that came early wait in early[pe], sorted. */
static void park(item_t *it)
{
    item_t **at = &P.early[it->m.src];

    while (*at && (*at)->m.seq < it->m.seq)
        at = &(*at)->next;
    it->next = *at;
    *at = it;
}

/* Applies what can be applied; items to free after the stream ran them go to *done. */
static void apply_in_order(item_t *it, item_t **done)
{
    int pe = it->m.src;

    if (it->m.seq != P.applied[pe] + 1) {
        park(it);
        return;
    }
    for (;;) {
        apply(it);
        P.applied[pe]++;
        P.ack_due[pe] = 1;
        it->next = *done;
        *done = it;
        it = P.early[pe];
        if (!it || it->m.seq != P.applied[pe] + 1)
            break;
        P.early[pe] = it->next;
    }
}

/* ---- Completing this PE's own requests ---------------------------------------------------- */
static void reply(item_t *it)
{
    msg_t *m = &it->m;
    pend_t *p = (pend_t *)(uintptr_t)m->token;

    if (m->op == REP_ACK) {
        if (m->seq > P.acked[m->src])
            P.acked[m->src] = m->seq;
        return;
    }
    if (m->op == REP_DATA) {
        SYMM_CU_CHECK(CALL, symm_cu.cuMemcpyAsync((CUdeviceptr)(p->dest + m->off),
                                                  (CUdeviceptr)it->data, it->len, P.s));
        sync_stream();
    }
    P.replies--;
    if (--p->left == 0) {
        if (p->answer)
            symm_px_answer(p->c, p->idx, m->op == REP_VALUE ? m->value : 0);
        free(p);
    }
}

static int serve(void)
{
    item_t *l = take_all(), *done = NULL;

    if (!l)
        return 0;
    while (l) {
        item_t *it = l;
        l = l->next;
        if (it->rep) {
            reply(it);
            free(it);
        } else {
            apply_in_order(it, &done);
        }
    }
    if (done) {
        sync_stream();
        for (int pe = 0; pe < P.env.size; pe++) {
            if (!P.ack_due[pe])
                continue;
            msg_t a = {.op = REP_ACK, .seq = P.applied[pe]};
            P.ack_due[pe] = 0;
            px_send(pe, AM_REP, &a, NULL, 0);
        }
    }
    while (done) {
        item_t *n = done->next;
        free(done);
        done = n;
    }
    return 1;
}

/* ---- Taking the ring ------------------------------------------------------------------------ */
static int outstanding(void)
{
    if (P.replies)
        return 1;
    for (int pe = 0; pe < P.env.size; pe++)
        if (P.acked[pe] != P.sent[pe])
            return 1;
    return 0;
}

static uint64_t offset(const symm_px_req_t *q, unsigned long long addr, uint64_t len)
{
    uint64_t off = addr - (uintptr_t)symm_cuda_g.base;

    if (off > symm_cuda_g.stride || !symm_cuda_local((const char *)(uintptr_t)addr, len))
        P.env.fatal("%s: a kernel's request for pe %d names [%#llx, %#llx), outside this PE's "
                    "device heap",
                    CALL, q->pe, addr, addr + len);
    return off;
}

static pend_t *pending(symm_px_cons_t *c, const symm_px_req_t *q, char *dest, uint64_t pieces)
{
    pend_t *p = malloc(sizeof(*p));

    if (!p)
        P.env.fatal("%s: out of memory", CALL);
    *p = (pend_t){.c = c,
                  .idx = q->seq,
                  .answer = (q->flags & SYMM_PX_ANSWER) != 0,
                  .dest = dest,
                  .left = pieces};
    P.replies += pieces;
    return p;
}

/* A put's source, staged piece by piece; the last piece of a put-with-signal carries it. */
static void put(symm_px_cons_t *c, const symm_px_req_t *q)
{
    uint64_t off = offset(q, q->dst, q->len), done = 0;

    do {
        uint64_t n = q->len - done < STAGE ? q->len - done : STAGE;
        int last = done + n == q->len;
        msg_t m = {.op = SYMM_PX_PUT, .off = off + done};
        if (n) {
            SYMM_CU_CHECK(CALL, symm_cu.cuMemcpyAsync((CUdeviceptr)P.stage,
                                                      (CUdeviceptr)(q->src + done), n, P.s));
            sync_stream();
        }
        if (last && q->op == SYMM_PX_PUT_SIGNAL) {
            m.op = SYMM_PX_PUT_SIGNAL;
            m.sig = offset(q, q->sig, 8);
            m.amo = q->amo;
            m.value = q->value;
        }
        request(q->pe, &m, P.stage, n);
        done += n;
    } while (done < q->len);
    if (q->flags & SYMM_PX_ANSWER)
        symm_px_answer(c, q->seq, 0);
}

static void get(symm_px_cons_t *c, const symm_px_req_t *q)
{
    uint64_t off = offset(q, q->src, q->len), pieces = (q->len + STAGE - 1) / STAGE;
    pend_t *p = pending(c, q, (char *)(uintptr_t)q->dst, pieces);

    for (uint64_t done = 0; done < q->len; done += STAGE) {
        msg_t m = {.op = SYMM_PX_GET,
                   .off = off + done,
                   .len = q->len - done < STAGE ? q->len - done : STAGE,
                   .value = done,
                   .token = (uintptr_t)p};
        request(q->pe, &m, NULL, 0);
    }
}

static void issue(symm_px_cons_t *c, const symm_px_req_t *q)
{
    msg_t m = {.op = q->op, .len = q->len, .value = q->value, .cond = q->cond, .amo = q->amo};

    if ((unsigned)q->pe >= (unsigned)P.env.size ||
        (unsigned)(q->pe - P.env.first) < (unsigned)P.env.count)
        P.env.fatal("%s: a kernel's request names pe %d, which is not a PE of another node "
                    "(the job has %d PEs; this node %d..%d)",
                    CALL, q->pe, P.env.size, P.env.first, P.env.first + P.env.count - 1);
    switch (q->op) {
    case SYMM_PX_PUT:
    case SYMM_PX_PUT_SIGNAL:
        put(c, q);
        break;
    case SYMM_PX_P:
        m.off = offset(q, q->dst, q->len);
        m.len = 0;
        request(q->pe, &m, &q->value, q->len);
        break;
    case SYMM_PX_GET:
        if (q->len)
            get(c, q);
        else if (q->flags & SYMM_PX_ANSWER)
            symm_px_answer(c, q->seq, 0);
        break;
    case SYMM_PX_G:
        m.off = offset(q, q->dst, q->len);
        m.token = (uintptr_t)pending(c, q, NULL, 1);
        request(q->pe, &m, NULL, 0);
        break;
    case SYMM_PX_AMO:
        m.off = offset(q, q->dst, q->len);
        if (q->flags & SYMM_PX_ANSWER)
            m.token = (uintptr_t)pending(c, q, NULL, 1);
        request(q->pe, &m, NULL, 0);
        break;
    default:
        P.env.fatal("%s: a kernel posted an unknown request %u for pe %d", CALL, q->op, q->pe);
    }
}

static int take_ring(symm_px_cons_t *c)
{
    symm_px_req_t q;
    int n = 0;

    while (n < 256 && symm_px_peek(c, &q)) {
        if (q.op == SYMM_PX_QUIET) {
            if (outstanding())
                break;
            symm_px_take(c, &q);
            symm_px_answer(c, q.seq, 0);
        } else {
            symm_px_take(c, &q);
            issue(c, &q);
        }
        n++;
    }
    return n + symm_px_release(c);
}

/* The host's quiet: every request counted by the producers' counter when it asked is taken
 * and complete. */
static int host_quiet(void)
{
    int busy = 0;

    pthread_mutex_lock(&P.hlock);
    if (P.hq_asked != P.hq_done && !P.hq_on) {
        pthread_mutex_unlock(&P.hlock);
        SYMM_CU_CHECK(
            CALL, symm_cu.cuMemcpyAsync((CUdeviceptr)&P.hq_head, P.head, sizeof(P.hq_head), P.s));
        sync_stream();
        pthread_mutex_lock(&P.hlock);
        P.hq_on = 1;
        busy = 1;
    }
    if (P.hq_on && P.cons.next >= P.hq_head && P.hcons.next >= P.hq_hhead && !outstanding()) {
        P.hq_on = 0;
        P.hq_done = P.hq_asked;
        pthread_cond_broadcast(&P.hcond);
        busy = 1;
    }
    pthread_mutex_unlock(&P.hlock);
    return busy;
}

static void *proxy_main(void *arg)
{
    unsigned idle = 0;

    (void)arg;
    symm_cuda_bind(CALL);
    while (!atomic_load_explicit(&P.stop, memory_order_acquire)) {
        int busy = P.env.net->progress();
        busy |= serve();
        busy |= take_ring(&P.cons);
        busy |= take_ring(&P.hcons);
        busy |= host_quiet();
        if (busy) {
            idle = 0;
        } else if (++idle > 2000) {
            struct timespec ts = {0, 20000};
            nanosleep(&ts, NULL);
        }
    }
    return NULL;
}

/* ---- Start and end ----------------------------------------------------------------------------
 */
void symm_px_start(const char *call, const symm_px_env_t *env, symm_px_ring_t **ring,
                   unsigned long long **head)
{
    int n = env->size;
    void *h;

    if (!env->net || !env->net->am_send || !env->net->am_handler)
        env->fatal("%s: the network transport (%s) cannot carry the GPU's requests to other "
                   "nodes",
                   call, env->net ? env->net->name : "none");
    P.env = *env;
    P.qtail = &P.qhead;
    P.sent = calloc(n, sizeof(*P.sent));
    P.acked = calloc(n, sizeof(*P.acked));
    P.applied = calloc(n, sizeof(*P.applied));
    P.early = calloc(n, sizeof(*P.early));
    P.ack_due = calloc(n, 1);
    if (!P.sent || !P.acked || !P.applied || !P.early || !P.ack_due)
        env->fatal("%s: out of memory for the GPU proxy", call);
    SYMM_CU_CHECK(call, symm_cu.cuStreamCreate(&P.s, CU_STREAM_NON_BLOCKING));
    SYMM_CU_CHECK(call,
                  symm_cu.cuMemHostAlloc(&h, sizeof(symm_px_ring_t),
                                         CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    memset(h, 0, sizeof(symm_px_ring_t));
    P.ring = h;
    SYMM_CU_CHECK(call, symm_cu.cuMemHostGetDevicePointer(&P.ring_dev, h, 0));
    SYMM_CU_CHECK(call,
                  symm_cu.cuMemHostAlloc(&h, 2 * (size_t)STAGE + 64,
                                         CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    P.stage = h;
    P.back = P.stage + STAGE;
    P.old = (unsigned long long *)(P.back + STAGE);
    SYMM_CU_CHECK(call, symm_cu.cuMemHostGetDevicePointer(&P.old_dev, P.old, 0));
    SYMM_CU_CHECK(call, symm_cu.cuMemAlloc(&P.head, 64));
    SYMM_CU_CHECK(call, symm_cu.cuMemsetD8Async(P.head, 0, 64, P.s));
    SYMM_CU_CHECK(call, symm_cu.cuStreamSynchronize(P.s));
    P.hring = calloc(1, sizeof(*P.hring));
    P.hhead = 0;
    if (!P.hring || !symm_px_cons_init(&P.cons, P.ring) || !symm_px_cons_init(&P.hcons, P.hring))
        env->fatal("%s: out of memory for the GPU proxy", call);
    if (env->net->am_handler(AM_REQ, on_req) != SYMM_OK ||
        env->net->am_handler(AM_REP, on_rep) != SYMM_OK)
        env->fatal("%s: the network transport (%s) has no active messages for the GPU proxy: "
                   "it started before the GPU part was known to start (SYMM_GPU=1 starts it at "
                   "shmem_init)", call, env->net->name);
    atomic_store(&P.stop, 0);
    if (pthread_create(&P.thread, NULL, proxy_main, NULL) != 0)
        env->fatal("%s: cannot start the GPU proxy's thread", call);
    P.running = 1;
    *ring = (symm_px_ring_t *)P.ring_dev;
    *head = (unsigned long long *)P.head;
}

void symm_px_quiet(const char *call)
{
    uint64_t mine;

    (void)call;
    if (!P.running)
        return;
    pthread_mutex_lock(&P.hlock);
    mine = ++P.hq_asked;
    P.hq_hhead = atomic_load((_Atomic unsigned long long *)&P.hhead);
    while (P.hq_done < mine)
        pthread_cond_wait(&P.hcond, &P.hlock);
    pthread_mutex_unlock(&P.hlock);
}

void symm_px_rma(const char *call, void *dest, const void *src, size_t n, int pe,
                 symm_rma_op_t op)
{
    const int wait = symm_rma_mode(op) == SYMM_TL_WAIT;
    symm_px_req_t q = {.op = symm_rma_is_put(op) ? SYMM_PX_PUT : SYMM_PX_GET,
                       .pe = pe,
                       .flags = wait ? SYMM_PX_ANSWER : 0,
                       .dst = (uintptr_t)dest,
                       .src = (uintptr_t)src,
                       .len = n};
    unsigned long long idx;

    if (!P.running)
        P.env.fatal("%s(pe=%d): the GPU proxy does not run", call, pe);
    idx = symm_px_post_host(P.hring, &P.hhead, &q);
    if (wait)
        symm_px_await_host(P.hring, idx);
}

void symm_px_stop(const char *call)
{
    item_t *l;

    if (!P.running)
        return;
    atomic_store_explicit(&P.stop, 1, memory_order_release);
    pthread_join(P.thread, NULL);
    P.running = 0;
    for (l = take_all(); l;) {
        item_t *n = l->next;
        free(l);
        l = n;
    }
    for (int pe = 0; pe < P.env.size; pe++)
        for (l = P.early[pe]; l;) {
            item_t *n = l->next;
            free(l);
            l = n;
        }
    symm_px_cons_fini(&P.cons);
    symm_px_cons_fini(&P.hcons);
    free(P.hring);
    P.hring = NULL;
    SYMM_CU_CHECK(call, symm_cu.cuMemFree(P.head));
    SYMM_CU_CHECK(call, symm_cu.cuMemFreeHost(P.stage));
    SYMM_CU_CHECK(call, symm_cu.cuMemFreeHost(P.ring));
    SYMM_CU_CHECK(call, symm_cu.cuStreamDestroy(P.s));
    free(P.sent);
    free(P.acked);
    free(P.applied);
    free(P.early);
    free(P.ack_due);
    P.sent = P.acked = P.applied = NULL;
    P.early = NULL;
    P.ack_due = NULL;
}
