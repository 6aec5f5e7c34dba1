/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The ofi transport: PEs of other nodes (real or virtual) reached through libfabric's reliable
 * datagram endpoints (FI_EP_RDM) and their RMA, atomic and message interfaces. The networks
 * that UCX does not serve come this way: HPE Slingshot (cxi), AWS EFA (efa), Intel's and
 * Cornelis' fabrics (psm3, opx), and every host with libfabric's tcp or shm providers.
 *
 * libfabric is loaded when a job first needs it (only fi_getinfo, fi_fabric, fi_freeinfo,
 * fi_dupinfo and fi_strerror are symbols; everything else goes through the objects' ops). The
 * provider is libfabric's choice, or FI_PROVIDER's.
 *
 * Channels: every context's channel is an endpoint of its own with its own completion queue;
 * the default context's is the target endpoint, whose address the peers reach and on which
 * messages to this PE arrive. Every operation asks for a completion: a blocking one waits for
 * its own (a context on the stack), an issued one is counted, and quiet waits until the
 * channel's completions catch up with its count. Puts ask for delivery completion, so a
 * completed put is in the target's memory; a small blocking put is copied to a bounce buffer
 * of the channel first and returns at once, and a larger one, where the provider orders reads
 * after writes, returns once its data has left, a counted read of its last byte behind it.
 *
 * Progress: messages are handled, and over providers whose data moves only when the target
 * reads its completion queue (tcp and shm, FI_PROGRESS_MANUAL) data lands, only as the target
 * endpoint's queue is read: the progress thread of tl/serve.c reads it whenever the PE is busy
 * elsewhere, as the ucx transport's does (sleeping on the queue's descriptor where PEs
 * outnumber CPUs, else looking every 200 us); a waiting PE reads it itself.
 *
 * Registration: each extent of a segment is one memory region, its key agreed at allocation
 * (the provider's where FI_MR_PROV_KEY, else the extent's number), bound to the target
 * endpoint where FI_MR_ENDPOINT; a remote address is the virtual address where
 * FI_MR_VIRT_ADDR, else the offset in the region.
 *
 * Messages (the library's flags and notes, atomics the provider lacks, and active messages of
 * the proxy) are sends to the peer's target endpoint, received into two large buffers
 * (FI_MULTI_RECV) and handed to their handler in whichever thread reads the queue.
 *
 * Atomics: native where the provider has every operation of a word size (FI_ATOMIC), else
 * performed by the target as a message, with the CPU's atomic instructions (so they are atomic
 * against the PEs that reach the same word through the window), and always answered, so that
 * quiet covers the ones that return nothing. SYMM_OFI_ATOMICS chooses.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include "tl/serve.h"
#include "tl/tl.h"

#define FI_VERSION_WANTED FI_VERSION(1, 9)
#define MAX_EXTENTS 64
#define AM_IDS 16
#define AM_FLAG AM_IDS       /* a library flag */
#define AM_NOTE (AM_IDS + 1) /* data and a count */
#define AM_AMO (AM_IDS + 2)  /* an atomic the target performs */
#define AM_REPLY (AM_IDS + 3) /* its answer */
/* The largest message: an active message of the proxy (1 MiB of data and its header). */
#define AM_MAX ((1u << 20) + 256)
#define RECV_BUF (8u * AM_MAX)
/* Blocking puts up to this size are copied and return at once; a channel has BOUNCES. */
#define BOUNCE 16384
#define BOUNCES 32
/* Receive queue depths asked of the provider: the target endpoint's, and a context's. */
#define TARGET_RX 256
#define CTX_RX 16

static struct {
    int (*fi_getinfo)(uint32_t, const char *, const char *, uint64_t, const struct fi_info *,
                      struct fi_info **);
    void (*fi_freeinfo)(struct fi_info *);
    struct fi_info *(*fi_dupinfo)(const struct fi_info *);
    int (*fi_fabric)(struct fi_fabric_attr *, struct fid_fabric **, void *);
    const char *(*fi_strerror)(int);
} F;

/* What a completion's context is. */
typedef enum { OP_WAIT, OP_COUNT, OP_BOUNCE, OP_RECV } op_kind_t;

typedef struct op {
    op_kind_t kind;
    _Atomic int done;
    struct chan *ch;
    uint64_t value; /* an emulated atomic's answer */
} op_t;

typedef struct bounce {
    op_t op;
    _Atomic int busy;
    char buf[BOUNCE];
} bounce_t;

typedef struct chan {
    struct fid_ep *ep;
    struct fid_cq *cq;
    op_t count;                    /* the context of counted operations */
    _Atomic uint64_t posted, done; /* counted operations, and their completions */
    _Atomic uint64_t asked, answered; /* emulated atomics sent, and answers come */
    bounce_t *bounce;
    unsigned next_bounce;
    char scratch; /* where the read behind a large put lands */
} chan_t;

typedef struct extent {
    symm_tl_seg_t seg;
    uint64_t lo, hi;
    struct fid_mr *mr;
    uint64_t *key;  /* [pe] */
    uint64_t *addr; /* [pe]: the remote address of lo */
    unsigned char *has; /* [pe]: pe has something there */
} extent_t;

/* A message's head, then hlen bytes of header, then len bytes of data. */
typedef struct am_head {
    uint32_t id;
    uint32_t hlen;
    uint64_t len;
} am_head_t;

typedef struct flag_msg {
    uint64_t off;
    uint32_t value;
    uint32_t seg;
} flag_msg_t;

typedef struct note_msg {
    uint64_t off, coff;
    uint32_t seg, cseg;
} note_msg_t;

typedef struct amo_msg {
    uint64_t off, value, cond;
    uint64_t token; /* the waiting op_t, or the channel's counter with its low bit set */
    int32_t src;
    uint32_t seg, op, size;
} amo_msg_t;

typedef struct reply_msg {
    uint64_t token, value;
} reply_msg_t;

typedef struct recv_buf {
    op_t op;
    char *buf;
} recv_buf_t;

static struct {
    symm_tl_env_t env;
    void *lib;
    struct fi_info *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_av *av;
    chan_t target;
    fi_addr_t *addr;   /* [pe] */
    uint64_t *base;    /* [pe * SYMM_SEGS + seg] */
    unsigned char *net;
    extent_t ext[MAX_EXTENTS];
    _Atomic int next;
    int pending;
    int virt_addr, prov_key, mr_endpoint;
    uint64_t put_flags;
    int raw; /* a read behind a write returns what the write left (FI_ORDER_RAW) */
    int native[2];     /* atomics of 4 and of 8 bytes are the provider's */
    recv_buf_t recv[2];
    symm_tl_am_cb_t am[AM_IDS];
    symm_tl_serve_t srv; /* the progress thread */
    _Atomic int closing;
    pthread_mutex_t lock; /* channels' creation, list and spares */
    chan_t **chans;
    int nchans;
    chan_t **spare;
    int nspare;
    char prov[64];
} O = {.lock = PTHREAD_MUTEX_INITIALIZER, .srv = {.wakefd = -1}};

static const char *err_str(int rc)
{
    return F.fi_strerror ? F.fi_strerror(rc < 0 ? -rc : rc) : "libfabric error";
}

static void check(ssize_t rc, const char *call, const char *what, int pe)
{
    if (rc != 0)
        O.env.fatal("%s(pe=%d): the libfabric %s failed: %s", call, pe, what, err_str((int)rc));
}

static inline void active(void)
{
    symm_tl_serve_active(&O.srv);
}

static symm_status_t load(const char *lib, char *why, size_t why_len)
{
    void *h = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);

    if (!h) {
        snprintf(why, why_len, "PEs on other nodes over ofi need libfabric, and %s cannot be "
                 "loaded (%s); install it (Debian: libfabric1) or name it in SYMM_OFI_LIB", lib,
                 dlerror());
        return SYMM_ERR_UNSUPPORTED;
    }
    *(void **)&F.fi_getinfo = dlsym(h, "fi_getinfo");
    *(void **)&F.fi_freeinfo = dlsym(h, "fi_freeinfo");
    *(void **)&F.fi_dupinfo = dlsym(h, "fi_dupinfo");
    *(void **)&F.fi_fabric = dlsym(h, "fi_fabric");
    *(void **)&F.fi_strerror = dlsym(h, "fi_strerror");
    if (!F.fi_getinfo || !F.fi_freeinfo || !F.fi_dupinfo || !F.fi_fabric || !F.fi_strerror) {
        snprintf(why, why_len, "the libfabric found (%s) lacks fi_getinfo or its kin", lib);
        return SYMM_ERR_UNSUPPORTED;
    }
    O.lib = h;
    return SYMM_OK;
}

/* ---- Completions ------------------------------------------------------------------------ */
static void am_dispatch(const char *msg, size_t len);

static void post_recv(recv_buf_t *r)
{
    struct iovec iov = {.iov_base = r->buf, .iov_len = RECV_BUF};
    struct fi_msg m = {.msg_iov = &iov, .iov_count = 1, .addr = FI_ADDR_UNSPEC, .context = &r->op};
    ssize_t rc;

    while ((rc = fi_recvmsg(O.target.ep, &m, FI_MULTI_RECV)) == -FI_EAGAIN)
        fi_cq_read(O.target.cq, NULL, 0);
    check(rc, "shmem_init", "receive", O.env.rank);
}

static void completed(const struct fi_cq_data_entry *e)
{
    op_t *op = e->op_context;

    if (!op)
        return;
    switch (op->kind) {
    case OP_RECV:
        if (e->flags & FI_RECV && e->len)
            am_dispatch(e->buf, e->len);
        if (e->flags & FI_MULTI_RECV)
            post_recv((recv_buf_t *)op);
        return;
    case OP_WAIT:
        atomic_store_explicit(&op->done, 1, memory_order_release);
        return;
    case OP_BOUNCE:
        atomic_store_explicit(&((bounce_t *)op)->busy, 0, memory_order_release);
        break;
    case OP_COUNT:
        break;
    }
    atomic_fetch_add_explicit(&op->ch->done, 1, memory_order_release);
}

static __attribute__((noinline)) void failed(chan_t *ch)
{
    struct fi_cq_err_entry e = {0};
    char buf[256] = "";

    if (fi_cq_readerr(ch->cq, &e, 0) < 0)
        O.env.fatal("symm_ofi: a libfabric operation of pe %d failed, and its error cannot be read", O.env.rank);
    if (e.err == FI_ECANCELED)
        return;
    O.env.fatal("symm_ofi: a network operation of pe %d failed: %s (%s)", O.env.rank,
                err_str(e.err),
                fi_cq_strerror(ch->cq, e.prov_errno, e.err_data, buf, sizeof(buf)));
}

/* Reads ch's completions; the number read. */
static int drain(chan_t *ch)
{
    struct fi_cq_data_entry e[16];
    ssize_t n = fi_cq_read(ch->cq, e, 16);

    if (n == -FI_EAGAIN)
        return 0;
    if (n == -FI_EAVAIL) {
        failed(ch);
        return 1;
    }
    if (n < 0)
        O.env.fatal("symm_ofi: reading the completion queue failed: %s", err_str((int)n));
    for (ssize_t i = 0; i < n; i++)
        completed(&e[i]);
    return (int)n;
}

/* The target endpoint: what peers send and do to this PE. A context's endpoint receives only
 * the answers to its own operations, which whoever waits for them reads. */
static int progress_all(void)
{
    active();
    return drain(&O.target);
}

/* Serves the network until *flag is nonzero (a blocked PE still answers its peers). */
static void wait_flag(chan_t *ch, _Atomic int *flag)
{
    for (unsigned polls = 0; !atomic_load_explicit(flag, memory_order_acquire); polls++) {
        int n = ch != &O.target ? drain(ch) : 0;
        if (!(n + progress_all()) && O.env.crowded && polls >= 16)
            sched_yield();
    }
}

/* Until every counted operation and emulated atomic of ch has completed. */
static void wait_all(chan_t *ch)
{
    for (unsigned polls = 0;
         atomic_load_explicit(&ch->done, memory_order_acquire) !=
             atomic_load_explicit(&ch->posted, memory_order_relaxed) ||
         atomic_load_explicit(&ch->answered, memory_order_acquire) !=
             atomic_load_explicit(&ch->asked, memory_order_relaxed);
         polls++) {
        int n = ch != &O.target ? drain(ch) : 0;
        if (!(n + progress_all()) && O.env.crowded && polls >= 16)
            sched_yield();
    }
}

/* Posts an operation into rc: retried while the provider's queues are full, serving
 * meanwhile. */
#define POST(rc, ch, expr)                                                                         \
    do {                                                                                           \
        while (((rc) = (expr)) == -FI_EAGAIN) {                                                    \
            progress_all();                                                                        \
            drain(ch);                                                                             \
        }                                                                                          \
    } while (0)

/* ---- Channels ---------------------------------------------------------------------------- */
static symm_status_t chan_open(chan_t *ch)
{
    /* Only where PEs outnumber CPUs does the target's queue get a descriptor to sleep on: a
     * queue with a wait object costs each operation the provider's signalling (ofi_rxm over
     * tcp: 2 us of a 14 us put + quiet, g or fetch-and-add), and a PE with a CPU of its own
     * spins in its waits, so its progress thread serves only while the PE is away. */
    struct fi_cq_attr ca = {.format = FI_CQ_FORMAT_DATA, .size = 0,
                            .wait_obj = ch == &O.target && O.env.crowded ? FI_WAIT_FD
                                                                         : FI_WAIT_NONE};
    int rc;

    ch->count = (op_t){.kind = OP_COUNT, .ch = ch};
    rc = fi_cq_open(O.domain, &ca, &ch->cq, NULL);
    if (rc && ca.wait_obj != FI_WAIT_NONE) {
        ca.wait_obj = FI_WAIT_NONE;
        rc = fi_cq_open(O.domain, &ca, &ch->cq, NULL);
    }
    /* A context's endpoint receives only answers: a few receive buffers (the provider's
     * default, thousands of its eager buffers, is megabytes to clear for every context). */
    O.info->rx_attr->size = ch == &O.target ? TARGET_RX : CTX_RX;
    if (rc || fi_endpoint(O.domain, O.info, &ch->ep, NULL) ||
        fi_ep_bind(ch->ep, &O.av->fid, 0) ||
        fi_ep_bind(ch->ep, &ch->cq->fid, FI_TRANSMIT | FI_RECV) || fi_enable(ch->ep))
        return SYMM_ERR_SYS;
    ch->bounce = calloc(BOUNCES, sizeof(*ch->bounce));
    if (!ch->bounce)
        return SYMM_ERR_NOMEM;
    for (int i = 0; i < BOUNCES; i++)
        ch->bounce[i].op = (op_t){.kind = OP_BOUNCE, .ch = ch};
    return SYMM_OK;
}

static void chan_close(chan_t *ch)
{
    if (ch->ep)
        fi_close(&ch->ep->fid);
    if (ch->cq)
        fi_close(&ch->cq->fid);
    free(ch->bounce);
    *ch = (chan_t){0};
}

/* A context's channel, opened on its first operation (or a destroyed context's). */
static chan_t *chan_of(void **chan)
{
    chan_t *ch = atomic_load_explicit((_Atomic(void *) *)chan, memory_order_acquire);

    active();
    if (ch)
        return ch;
    pthread_mutex_lock(&O.lock);
    ch = *chan;
    if (!ch && O.nspare)
        ch = O.spare[--O.nspare];
    if (!ch) {
        chan_t **grown = realloc(O.chans, (size_t)(O.nchans + 1) * sizeof(*grown));
        ch = calloc(1, sizeof(*ch));
        if (!grown || !ch || chan_open(ch) != SYMM_OK)
            O.env.fatal("shmem_ctx_create: cannot open a libfabric endpoint for a context");
        O.chans = grown;
        O.chans[O.nchans++] = ch;
    }
    atomic_store_explicit((_Atomic(void *) *)chan, ch, memory_order_release);
    pthread_mutex_unlock(&O.lock);
    return ch;
}

/* The progress thread's turn (tl/serve.c): the target endpoint's queue. */
static int ofi_serve(void)
{
    return drain(&O.target) ? 2 : 0;
}

static int ofi_arm(void)
{
    struct fid *f = &O.target.cq->fid;

    return fi_trywait(O.fabric, &f, 1) == FI_SUCCESS;
}

/* ---- Messages ---------------------------------------------------------------------------- */
/* Sends a message to pe's target endpoint: returns when hdr and data may be reused. */
static void am_send(chan_t *ch, const char *call, int pe, unsigned id, const void *hdr,
                    size_t hlen, const void *data, size_t len)
{
    am_head_t h = {.id = id, .hlen = (uint32_t)hlen, .len = len};
    size_t total = sizeof(h) + hlen + len;
    char small[BOUNCE], *buf = total <= sizeof(small) ? small : malloc(total);
    op_t op = {.kind = OP_WAIT};
    ssize_t rc;

    if (!buf || total > AM_MAX)
        O.env.fatal("%s(pe=%d): a message of %zu bytes (at most %u)", call, pe, total, AM_MAX);
    memcpy(buf, &h, sizeof(h));
    memcpy(buf + sizeof(h), hdr, hlen);
    if (len)
        memcpy(buf + sizeof(h) + hlen, data, len);
    if (total <= O.info->tx_attr->inject_size) {
        struct iovec iov = {.iov_base = buf, .iov_len = total};
        struct fi_msg m = {.msg_iov = &iov, .iov_count = 1, .addr = O.addr[pe],
                           .context = &ch->count};
        /* Counted, so that quiet knows it has landed (finalize's last flags). */
        atomic_fetch_add_explicit(&ch->posted, 1, memory_order_relaxed);
        POST(rc, ch, fi_sendmsg(ch->ep, &m, FI_INJECT | O.put_flags));
        check(rc, call, "send", pe);
        return;
    }
    POST(rc, ch, fi_send(ch->ep, buf, total, NULL, O.addr[pe], &op));
    check(rc, call, "send", pe);
    wait_flag(ch, &op.done);
    if (buf != small)
        free(buf);
}

/* An atomic a peer asked for, with the CPU's atomic instructions; the old value. */
#define APPLY(T)                                                                                   \
    do {                                                                                           \
        _Atomic T *w = (_Atomic T *)p;                                                             \
        T v = (T)m->value, c = (T)m->cond;                                                         \
        switch (m->op) {                                                                           \
        case SYMM_AMO_ADD: return atomic_fetch_add(w, v);                                          \
        case SYMM_AMO_AND: return atomic_fetch_and(w, v);                                          \
        case SYMM_AMO_OR: return atomic_fetch_or(w, v);                                            \
        case SYMM_AMO_XOR: return atomic_fetch_xor(w, v);                                          \
        case SYMM_AMO_SWAP: case SYMM_AMO_SET: return atomic_exchange(w, v);                       \
        case SYMM_AMO_CSWAP: atomic_compare_exchange_strong(w, &c, v); return c;                   \
        default: return atomic_load(w);                                                            \
        }                                                                                          \
    } while (0)

static uint64_t apply(const amo_msg_t *m)
{
    void *p;

    if ((m->size != 4 && m->size != 8) ||
        !symm_tl_in_segment(&O.env, m->seg, m->off, m->size) || m->off % m->size ||
        m->op > SYMM_AMO_SET)
        O.env.fatal("symm_ofi: pe %d asks for an atomic of %u bytes at offset %#llx of "
                    "segment %u", m->src, m->size, (unsigned long long)m->off, m->seg);
    p = (char *)O.env.base[m->seg] + m->off;
    if (m->size == 4)
        APPLY(uint32_t);
    APPLY(uint64_t);
}

static void reply_recv(const reply_msg_t *m)
{
    if (m->token & 1) {
        chan_t *ch = (chan_t *)(uintptr_t)(m->token & ~(uint64_t)1);
        atomic_fetch_add_explicit(&ch->answered, 1, memory_order_release);
        return;
    }
    op_t *op = (op_t *)(uintptr_t)m->token;
    op->value = m->value;
    atomic_store_explicit(&op->done, 1, memory_order_release);
}

static void am_dispatch(const char *msg, size_t len)
{
    am_head_t h;
    const char *hdr = msg + sizeof(h);

    if (len < sizeof(h))
        O.env.fatal("symm_ofi: a message of %zu bytes arrived", len);
    memcpy(&h, msg, sizeof(h));
    if (sizeof(h) + h.hlen + h.len != len)
        O.env.fatal("symm_ofi: a message of %zu bytes says %u + %llu", len, h.hlen,
                    (unsigned long long)h.len);
    if (h.id < AM_IDS && O.am[h.id]) {
        O.am[h.id](hdr, h.hlen, hdr + h.hlen, h.len);
        return;
    }
    /* The library's own messages: their header copied out, as it lies at any alignment. */
    union {
        flag_msg_t flag;
        note_msg_t note;
        amo_msg_t amo;
        reply_msg_t reply;
    } m;
    static const size_t size[] = {[0] = sizeof(flag_msg_t), [1] = sizeof(note_msg_t),
                                  [2] = sizeof(amo_msg_t), [3] = sizeof(reply_msg_t)};
    if (h.id < AM_FLAG || h.id > AM_REPLY || h.hlen != size[h.id - AM_FLAG])
        O.env.fatal("symm_ofi: a message of kind %u with a header of %u bytes arrived", h.id,
                    h.hlen);
    memcpy(&m, hdr, h.hlen);
    switch (h.id) {
    case AM_FLAG:
        symm_tl_flag_apply(&O.env, m.flag.seg, m.flag.off, m.flag.value);
        break;
    case AM_NOTE:
        symm_tl_note_apply(&O.env, m.note.seg, m.note.off, hdr + h.hlen, h.len, m.note.cseg,
                           m.note.coff);
        break;
    case AM_AMO: {
        reply_msg_t r = {.token = m.amo.token, .value = apply(&m.amo)};
        if (m.amo.src < 0 || m.amo.src >= O.env.size || !O.net[m.amo.src])
            O.env.fatal("symm_ofi: an atomic from pe %d arrived", m.amo.src);
        am_send(&O.target, "symm_ofi", m.amo.src, AM_REPLY, &r, sizeof(r), NULL, 0);
        break;
    }
    default:
        reply_recv(&m.reply);
    }
}

/* ---- Start ------------------------------------------------------------------------------- */
/* The provider libfabric puts first for what every operation needs; then the same provider
 * with atomics, where it has them and they are wanted. */
static symm_status_t pick(const char *atomics, char *why, size_t why_len)
{
    struct fi_info *hints = F.fi_dupinfo(NULL), *with = NULL;
    const char *prov = getenv("FI_PROVIDER");
    int rc;

    if (!hints)
        return SYMM_ERR_NOMEM;
    /* ofi_rxm posts this many eager buffers (16 KiB each) for every connection: its default,
     * 128, is 2 MiB to clear for each, and each context's endpoint connects anew. The user's
     * setting wins. */
    setenv("FI_OFI_RXM_MSG_RX_SIZE", "64", 0);
    hints->caps = FI_RMA | FI_MSG | FI_MULTI_RECV;
    hints->ep_attr->type = FI_EP_RDM;
    hints->mode = 0;
    hints->domain_attr->threading = FI_THREAD_SAFE;
    hints->domain_attr->mr_mode =
        FI_MR_VIRT_ADDR | FI_MR_PROV_KEY | FI_MR_ENDPOINT | FI_MR_ALLOCATED;
    hints->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
    rc = F.fi_getinfo(FI_VERSION_WANTED, NULL, NULL, 0, hints, &O.info);
    if (!rc && strcmp(atomics, "am") && !(O.info->caps & FI_ATOMIC)) {
        hints->caps |= FI_ATOMIC;
        hints->fabric_attr->prov_name = strdup(O.info->fabric_attr->prov_name);
        if (hints->fabric_attr->prov_name &&
            !F.fi_getinfo(FI_VERSION_WANTED, NULL, NULL, 0, hints, &with)) {
            F.fi_freeinfo(O.info);
            O.info = with;
        }
    }
    F.fi_freeinfo(hints);
    if (rc) {
        O.info = NULL;
        snprintf(why, why_len, "libfabric has no provider of reliable datagrams with RMA and "
                 "delivery completion%s%s (%s)", prov ? " among FI_PROVIDER=" : "",
                 prov ? prov : "", err_str(rc));
        return SYMM_ERR_UNSUPPORTED;
    }
    snprintf(O.prov, sizeof(O.prov), "%s", O.info->fabric_attr->prov_name);
    O.virt_addr = !!(O.info->domain_attr->mr_mode & FI_MR_VIRT_ADDR);
    O.prov_key = !!(O.info->domain_attr->mr_mode & FI_MR_PROV_KEY);
    O.mr_endpoint = !!(O.info->domain_attr->mr_mode & FI_MR_ENDPOINT);
    O.put_flags = FI_COMPLETION | FI_DELIVERY_COMPLETE;
    O.raw = (O.info->tx_attr->msg_order & FI_ORDER_RAW) &&
            (O.info->rx_attr->msg_order & FI_ORDER_RAW) && O.info->ep_attr->max_order_raw_size;
    return SYMM_OK;
}

/* Whether the provider is one of libfabric's software ones (its atomics are performed by the
 * target's progress: over tcp and shm they lost updates beside the PEs that reach the same
 * words through the window, and hung with several endpoints a PE), which auto leaves out. */
static int software(void)
{
    static const char *const soft[] = {"tcp", "shm", "udp", "sockets", "ofi_rxm", "ofi_rxd"};

    for (size_t i = 0; i < sizeof(soft) / sizeof(soft[0]); i++)
        if (strstr(O.prov, soft[i]))
            return 1;
    return 0;
}

/* Whether the provider performs every atomic of a word size: the others go as messages. */
static int natively(enum fi_datatype dt)
{
    static const enum fi_op plain[] = {FI_SUM, FI_BAND, FI_BOR, FI_BXOR, FI_ATOMIC_WRITE};
    static const enum fi_op fetching[] = {FI_SUM, FI_BAND, FI_BOR, FI_BXOR, FI_ATOMIC_WRITE,
                                          FI_ATOMIC_READ};
    size_t count;

    if (!(O.info->caps & FI_ATOMIC))
        return 0;
    for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
        if (fi_atomicvalid(O.target.ep, dt, plain[i], &count) || count < 1)
            return 0;
    for (size_t i = 0; i < sizeof(fetching) / sizeof(fetching[0]); i++)
        if (fi_fetch_atomicvalid(O.target.ep, dt, fetching[i], &count) || count < 1)
            return 0;
    return !fi_compare_atomicvalid(O.target.ep, dt, FI_CSWAP, &count) && count >= 1;
}

static symm_status_t start(const char *lib, const char *atomics, char *why, size_t why_len)
{
    struct fi_av_attr aa = {.type = FI_AV_TABLE};
    symm_status_t st;

    if (O.domain)
        return SYMM_OK;
    if (!O.lib && (st = load(lib, why, why_len)) != SYMM_OK)
        return st;
    if (!O.info && (st = pick(atomics, why, why_len)) != SYMM_OK)
        return st;
    if (F.fi_fabric(O.info->fabric_attr, &O.fabric, NULL) ||
        fi_domain(O.fabric, O.info, &O.domain, NULL) ||
        fi_av_open(O.domain, &aa, &O.av, NULL)) {
        snprintf(why, why_len, "libfabric's %s provider did not open its domain", O.prov);
        return SYMM_ERR_SYS;
    }
    return SYMM_OK;
}

static symm_status_t ofi_open(const char *lib)
{
    char why[256];

    return start(lib, "auto", why, sizeof(why));
}

/* Registers r as extent i and says its key and remote address (nothing for an empty r). */
static int map(int i, const symm_tl_range_t *r, uint64_t rec[2])
{
    extent_t *e = &O.ext[i];
    void *p = (char *)O.env.base[r->seg] + r->off;
    int rc;

    *e = (extent_t){.seg = r->seg, .lo = r->off, .hi = r->off + r->len};
    rec[0] = rec[1] = 0;
    if (r->len == 0)
        return 0;
    rc = fi_mr_reg(O.domain, p, r->len, FI_REMOTE_READ | FI_REMOTE_WRITE, 0,
                   O.prov_key ? 0 : (uint64_t)i + 1, 0, &e->mr, NULL);
    if (!rc && O.mr_endpoint && !(rc = fi_mr_bind(e->mr, &O.target.ep->fid, 0)))
        rc = fi_mr_enable(e->mr);
    if (rc) {
        if (e->mr)
            fi_close(&e->mr->fid);
        e->mr = NULL;
        return rc;
    }
    rec[0] = fi_mr_key(e->mr);
    rec[1] = O.virt_addr ? (uint64_t)(uintptr_t)p : 0;
    return 0;
}

/* Keeps every reached PE's key of extent i: recs[pe], 16 bytes each (none: lens[pe] 0). */
static symm_status_t keep_keys(int i, const void *const *recs, const size_t *lens)
{
    extent_t *e = &O.ext[i];
    size_t n = (size_t)O.env.size;

    e->key = calloc(n, sizeof(*e->key));
    e->addr = calloc(n, sizeof(*e->addr));
    e->has = calloc(n, 1);
    if (!e->key || !e->addr || !e->has)
        return SYMM_ERR_NOMEM;
    for (size_t pe = 0; pe < n; pe++) {
        uint64_t rec[3];
        if (!O.net[pe] || !lens[pe])
            continue;
        if (lens[pe] != sizeof(rec))
            return SYMM_ERR_INVALID;
        memcpy(rec, recs[pe], sizeof(rec));
        e->key[pe] = rec[0];
        e->addr[pe] = rec[1];
        e->has[pe] = (unsigned char)rec[2];
    }
    return SYMM_OK;
}

/* The start's exchange, one allgather: each PE's segment addresses, its target endpoint's
 * name, and the key and address of every part init registers. */
static symm_status_t exchange(void)
{
    const int n = O.env.size, m = O.env.nreg;
    const size_t head = SYMM_SEGS * 8 + 8 + (size_t)m * 24;
    size_t alen = 0, *rlen = malloc(n * sizeof(size_t)), rec;
    char *buf = NULL, *all = NULL, *names = NULL;
    const void **kp = malloc(n * sizeof(*kp));
    size_t *kl = malloc(n * sizeof(*kl));
    symm_status_t st = SYMM_ERR_NOMEM;

    O.base = malloc((size_t)n * SYMM_SEGS * sizeof(*O.base));
    O.addr = malloc((size_t)n * sizeof(*O.addr));
    if (!rlen || !kp || !kl || !O.base || !O.addr)
        goto out;
    fi_getname(&O.target.ep->fid, NULL, &alen);
    rec = head + alen;
    buf = calloc(1, rec);
    if (!buf)
        goto out;
    st = SYMM_ERR_SYS;
    if (fi_getname(&O.target.ep->fid, buf + head, &alen))
        goto out;
    for (int s = 0; s < SYMM_SEGS; s++) {
        uint64_t b = O.env.len[s] ? (uintptr_t)O.env.base[s] : 0;
        memcpy(buf + 8 * s, &b, 8);
    }
    memcpy(buf + SYMM_SEGS * 8, &(uint64_t){alen}, 8);
    for (int i = 0; i < m; i++) {
        uint64_t k[3];
        if (map(i, &O.env.reg[i], k))
            goto out;
        k[2] = O.env.reg[i].len != 0;
        memcpy(buf + SYMM_SEGS * 8 + 8 + 24 * (size_t)i, k, sizeof(k));
    }
    st = O.env.allgatherv(buf, rec, (void **)&all, rlen);
    if (st != SYMM_OK)
        goto out;
    st = SYMM_ERR_NOMEM;
    names = malloc((size_t)n * alen);
    if (!names)
        goto out;
    size_t at = 0;
    for (int pe = 0; pe < n; pe++) {
        uint64_t a;
        if (rlen[pe] != rec)
            O.env.fatal("shmem_init: pe %d's libfabric record has %zu bytes, not %zu (one "
                        "provider for the whole job: FI_PROVIDER)", pe, rlen[pe], rec);
        memcpy(O.base + (size_t)pe * SYMM_SEGS, all + at, SYMM_SEGS * 8);
        memcpy(&a, all + at + SYMM_SEGS * 8, 8);
        if (a != alen)
            O.env.fatal("shmem_init: pe %d's libfabric address has %llu bytes, not %zu", pe,
                        (unsigned long long)a, alen);
        memcpy(names + (size_t)pe * alen, all + at + head, alen);
        at += rlen[pe];
    }
    st = SYMM_ERR_SYS;
    if (fi_av_insert(O.av, names, (size_t)n, O.addr, 0, NULL) != n)
        goto out;
    st = SYMM_OK;
    for (int i = 0; st == SYMM_OK && i < m; i++) {
        at = 0;
        for (int pe = 0; pe < n; pe++) {
            kp[pe] = all + at + SYMM_SEGS * 8 + 8 + 24 * (size_t)i;
            kl[pe] = 24;
            at += rlen[pe];
        }
        st = keep_keys(i, kp, kl);
    }
    if (st == SYMM_OK)
        atomic_store_explicit(&O.next, m, memory_order_release);
out:
    free(rlen);
    free(kp);
    free(kl);
    free(buf);
    free(all);
    free(names);
    return st;
}

static symm_status_t ofi_init(const symm_tl_env_t *env, char *why, size_t why_len)
{
    symm_status_t st;

    O.env = *env;
    O.net = malloc(env->size);
    if (!O.net)
        return SYMM_ERR_NOMEM;
    memcpy(O.net, env->net, env->size);
    O.env.net = O.net;
    if ((st = start(env->lib, env->atomics ? env->atomics : "auto", why, why_len)) != SYMM_OK)
        return st;
    if (chan_open(&O.target) != SYMM_OK) {
        snprintf(why, why_len, "libfabric's %s provider did not open an endpoint", O.prov);
        return SYMM_ERR_SYS;
    }
    const char *want = env->atomics ? env->atomics : "auto";
    for (int s = 0; s < 2; s++)
        O.native[s] = (!strcmp(want, "native") || (!strcmp(want, "auto") && !software())) &&
                      natively(s ? FI_UINT64 : FI_UINT32);
    if (!O.native[0] || !O.native[1])
        O.native[0] = O.native[1] = 0;
    if (!strcmp(want, "native") && (!O.native[0] || !O.native[1])) {
        snprintf(why, why_len, "SYMM_OFI_ATOMICS=native, and libfabric's %s provider lacks "
                 "some atomic of 4 or 8 bytes", O.prov);
        return SYMM_ERR_UNSUPPORTED;
    }
    for (int i = 0; i < 2; i++) {
        O.recv[i] = (recv_buf_t){.op = {.kind = OP_RECV}, .buf = malloc(RECV_BUF)};
        if (!O.recv[i].buf)
            return SYMM_ERR_NOMEM;
    }
    size_t min = AM_MAX;
    if (fi_setopt(&O.target.ep->fid, FI_OPT_ENDPOINT, FI_OPT_MIN_MULTI_RECV, &min,
                  sizeof(min))) {
        snprintf(why, why_len, "libfabric's %s provider cannot receive into large buffers",
                 O.prov);
        return SYMM_ERR_UNSUPPORTED;
    }
    post_recv(&O.recv[0]);
    post_recv(&O.recv[1]);
    st = exchange();
    O.env.reg = NULL;
    O.env.nreg = 0;
    if (st != SYMM_OK) {
        snprintf(why, why_len, "libfabric could not connect the PEs (%s)",
                 st == SYMM_ERR_NOMEM ? "out of memory" : "a libfabric call or the bootstrap "
                 "failed");
        return st;
    }
    O.srv = (symm_tl_serve_t){.serve = ofi_serve, .arm = ofi_arm, .fd = -1, .env = &O.env,
                              .wakefd = -1};
    if (fi_control(&O.target.cq->fid, FI_GETWAIT, &O.srv.fd))
        O.srv.fd = -1;
    /* Messages are handled only as the queue is read, whatever the provider's progress. */
    if (symm_tl_serve_start(&O.srv) != SYMM_OK) {
        snprintf(why, why_len, "cannot start the libfabric progress thread");
        return SYMM_ERR_SYS;
    }
    env->log(SYMM_LEVEL_INFO, "ofi: provider %s, atomics %s", O.prov,
             O.native[0] && O.native[1] ? "native" : "as messages");
    *env->default_chan = &O.target;
    return SYMM_OK;
}

static void ofi_fini(void)
{
    symm_tl_serve_stop(&O.srv);
    for (int i = 0; i < O.nchans; i++) {
        chan_close(O.chans[i]);
        free(O.chans[i]);
    }
    O.nchans = O.nspare = 0;
    free(O.chans);
    free(O.spare);
    O.chans = O.spare = NULL;
    for (int i = 0; i < MAX_EXTENTS; i++) {
        if (O.ext[i].mr)
            fi_close(&O.ext[i].mr->fid);
        free(O.ext[i].key);
        free(O.ext[i].addr);
        free(O.ext[i].has);
        O.ext[i] = (extent_t){0};
    }
    chan_close(&O.target);
    if (O.av)
        fi_close(&O.av->fid);
    if (O.domain)
        fi_close(&O.domain->fid);
    if (O.fabric)
        fi_close(&O.fabric->fid);
    O.av = NULL;
    O.domain = NULL;
    O.fabric = NULL;
    for (int i = 0; i < 2; i++) {
        free(O.recv[i].buf);
        O.recv[i].buf = NULL;
    }
    if (O.info)
        F.fi_freeinfo(O.info);
    O.info = NULL;
    free(O.base);
    free(O.addr);
    free(O.net);
    O.base = NULL;
    O.addr = NULL;
    O.net = NULL;
    atomic_store_explicit(&O.next, 0, memory_order_relaxed);
    atomic_store_explicit(&O.closing, 0, memory_order_relaxed);
    O.pending = 0;
}

/* ---- Extents ----------------------------------------------------------------------------- */
static symm_status_t ofi_extent_reg(const symm_tl_range_t *r, void *key, size_t key_cap,
                                    size_t *key_len, char *why, size_t why_len)
{
    int i = atomic_load_explicit(&O.next, memory_order_relaxed), rc;
    uint64_t rec[3];

    if (O.pending || i == MAX_EXTENTS || key_cap < sizeof(rec)) {
        snprintf(why, why_len, "%s", O.pending ? "another extent is pending"
                                               : "no room for more extents");
        return SYMM_ERR_INVALID;
    }
    if ((rc = map(i, r, rec))) {
        snprintf(why, why_len, "libfabric cannot register it: %s", err_str(rc));
        return SYMM_ERR_SYS;
    }
    rec[2] = r->len != 0;
    memcpy(key, rec, sizeof(rec));
    *key_len = sizeof(rec);
    O.pending = 1;
    return SYMM_OK;
}

static symm_status_t ofi_extent_keys(const void *const *keys, const size_t *lens, char *why,
                                     size_t why_len)
{
    int i = atomic_load_explicit(&O.next, memory_order_relaxed);
    symm_status_t st = O.pending ? keep_keys(i, keys, lens) : SYMM_ERR_INVALID;

    if (st != SYMM_OK) {
        snprintf(why, why_len, "%s", st == SYMM_ERR_NOMEM ? "out of memory"
                                                        : "a peer's key is malformed");
        return st;
    }
    O.pending = 0;
    atomic_store_explicit(&O.next, i + 1, memory_order_release);
    return SYMM_OK;
}

static void ofi_extent_drop(void)
{
    extent_t *e = &O.ext[atomic_load_explicit(&O.next, memory_order_relaxed)];

    if (!O.pending)
        return;
    if (e->mr)
        fi_close(&e->mr->fid);
    *e = (extent_t){0};
    O.pending = 0;
}

static size_t ofi_registered(symm_tl_seg_t seg)
{
    int next = atomic_load_explicit(&O.next, memory_order_acquire);
    size_t sum = 0;

    for (int i = 0; i < next; i++)
        if (O.ext[i].seg == seg && O.ext[i].mr)
            sum += O.ext[i].hi - O.ext[i].lo;
    return sum;
}

/* pe's extent that holds offset off of seg: its key, the remote address of off, and in *part
 * the bytes of [off, off + n) inside it; fatal when no registered extent holds off. */
static uint64_t target(const char *call, int pe, symm_tl_seg_t seg, uint64_t off, size_t n,
                       uint64_t *raddr, size_t *part)
{
    int next = atomic_load_explicit(&O.next, memory_order_acquire);

    if (!O.net[pe])
        O.env.fatal("%s(pe=%d): pe %d is not reached over the network", call, pe, pe);
    for (int i = 0; i < next; i++) {
        const extent_t *e = &O.ext[i];
        if (e->seg != seg || off < e->lo || off >= e->hi)
            continue;
        if (!e->has[pe])
            break;
        *part = n < e->hi - off ? n : e->hi - off;
        *raddr = O.virt_addr ? O.base[pe * SYMM_SEGS + seg] + off : e->addr[pe] + off - e->lo;
        return e->key[pe];
    }
    if (seg == SYMM_SEG_DATA)
        O.env.fatal("%s(pe=%d): pe %d has no symmetric data segment to reach over the network",
                    call, pe, pe);
    O.env.fatal("%s(pe=%d): offset %#llx of the symmetric heap is not registered with the "
                "network: no symmetric allocation holds it", call, pe, (unsigned long long)off);
}

/* A free bounce buffer of ch, served for until one is. */
static bounce_t *bounce_of(chan_t *ch)
{
    for (;;) {
        for (unsigned k = 0; k < BOUNCES; k++) {
            bounce_t *b = &ch->bounce[(ch->next_bounce + k) % BOUNCES];
            int idle = 0;
            if (atomic_load_explicit(&b->busy, memory_order_acquire) ||
                !atomic_compare_exchange_strong(&b->busy, &idle, 1))
                continue;
            ch->next_bounce = (ch->next_bounce + k + 1) % BOUNCES;
            return b;
        }
        drain(ch);
        progress_all();
    }
}

static void rma(chan_t *ch, const char *call, int pe, symm_tl_seg_t seg, uint64_t off, char *buf,
                size_t n, symm_rma_op_t op)
{
    const int put = symm_rma_is_put(op), wait = symm_rma_mode(op) == SYMM_TL_WAIT;
    size_t part;

    for (; n > 0; buf += part, off += part, n -= part) {
        uint64_t raddr, key = target(call, pe, seg, off, n, &raddr, &part);
        struct iovec iov = {.iov_base = buf, .iov_len = part};
        struct fi_rma_iov riov = {.addr = raddr, .len = part, .key = key};
        struct fi_msg_rma m = {.msg_iov = &iov, .iov_count = 1, .addr = O.addr[pe],
                               .rma_iov = &riov, .rma_iov_count = 1};
        op_t op1 = {.kind = OP_WAIT, .ch = ch};
        ssize_t rc;

        if (put && wait && part <= BOUNCE) {
            bounce_t *b = bounce_of(ch);
            memcpy(b->buf, buf, part);
            iov.iov_base = b->buf;
            m.context = &b->op;
            atomic_fetch_add_explicit(&ch->posted, 1, memory_order_relaxed);
            POST(rc, ch, fi_writemsg(ch->ep, &m, O.put_flags));
            check(rc, call, "put", pe);
            continue;
        }
        if (put && wait && O.raw) {
            /* Awaited until its data has left, which frees the source; a read of its last
             * byte behind it, counted, is done once the data is in pe's memory, for quiet.
             * Blocking puts in a row then overlap, where a delivery completion would cost a
             * round trip after each, as the provider's own stream of writes shows (a window
             * of one write with transmit completion, bench/ofi_rtt.c). */
            struct iovec liov = {.iov_base = &ch->scratch, .iov_len = 1};
            struct fi_rma_iov lriov = {.addr = raddr + part - 1, .len = 1, .key = key};
            struct fi_msg_rma r = {.msg_iov = &liov, .iov_count = 1, .addr = O.addr[pe],
                                   .rma_iov = &lriov, .rma_iov_count = 1,
                                   .context = &ch->count};
            m.context = &op1;
            POST(rc, ch, fi_writemsg(ch->ep, &m, FI_COMPLETION | FI_TRANSMIT_COMPLETE));
            check(rc, call, "put", pe);
            atomic_fetch_add_explicit(&ch->posted, 1, memory_order_relaxed);
            POST(rc, ch, fi_readmsg(ch->ep, &r, FI_COMPLETION));
            check(rc, call, "put", pe);
            wait_flag(ch, &op1.done);
            continue;
        }
        m.context = wait ? &op1 : &ch->count;
        if (!wait)
            atomic_fetch_add_explicit(&ch->posted, 1, memory_order_relaxed);
        POST(rc, ch, put ? fi_writemsg(ch->ep, &m, O.put_flags)
                          : fi_readmsg(ch->ep, &m, FI_COMPLETION));
        check(rc, call, put ? "put" : "get", pe);
        if (wait)
            wait_flag(ch, &op1.done);
    }
}

static void ofi_put(void **chan, const char *call, int pe, symm_tl_seg_t seg, uint64_t off,
                    const void *src, size_t n, symm_tl_mode_t mode)
{
    chan_t *ch = chan_of(chan);

    if (mode == SYMM_TL_FLAG && n == sizeof(uint32_t)) {
        flag_msg_t m = {.off = off, .seg = seg};
        memcpy(&m.value, src, sizeof(m.value));
        am_send(ch, call, pe, AM_FLAG, &m, sizeof(m), NULL, 0);
        return;
    }
    rma(ch, call, pe, seg, off, (char *)src, n, mode == SYMM_TL_NBI ? SYMM_PUT_NBI : SYMM_PUT);
}

static void ofi_get(void **chan, const char *call, int pe, symm_tl_seg_t seg, uint64_t off,
                    void *dest, size_t n, symm_tl_mode_t mode)
{
    rma(chan_of(chan), call, pe, seg, off, dest, n,
        mode == SYMM_TL_NBI ? SYMM_GET_NBI : SYMM_GET);
}

static void ofi_put_note(void **chan, const char *call, int pe, symm_tl_seg_t seg, uint64_t off,
                         const void *src, size_t n, symm_tl_seg_t cseg, uint64_t coff)
{
    note_msg_t m = {.off = off, .coff = coff, .seg = seg, .cseg = cseg};

    am_send(chan_of(chan), call, pe, AM_NOTE, &m, sizeof(m), src, n);
}

/* An atomic the provider performs. */
static uint64_t amo_native(chan_t *ch, const char *call, const symm_tl_amo_t *a, int reply)
{
    static const enum fi_op ops[] = {
        [SYMM_AMO_ADD] = FI_SUM,           [SYMM_AMO_AND] = FI_BAND,
        [SYMM_AMO_OR] = FI_BOR,            [SYMM_AMO_XOR] = FI_BXOR,
        [SYMM_AMO_SWAP] = FI_ATOMIC_WRITE, [SYMM_AMO_CSWAP] = FI_CSWAP,
        [SYMM_AMO_FETCH] = FI_ATOMIC_READ, [SYMM_AMO_SET] = FI_ATOMIC_WRITE,
    };
    const enum fi_datatype dt = a->size == 4 ? FI_UINT32 : FI_UINT64;
    union {
        uint64_t u64;
        uint32_t u32;
    } in = {0}, cmp = {0}, out = {0};
    uint64_t raddr, key;
    size_t part;
    op_t op = {.kind = OP_WAIT, .ch = ch};
    void *ctx = reply ? (void *)&op : (void *)&ch->count;
    fi_addr_t to = O.addr[a->pe];
    ssize_t rc;

    key = target(call, a->pe, a->seg, a->off, a->size, &raddr, &part);
    if (a->size == 4) {
        in.u32 = (uint32_t)a->value;
        cmp.u32 = (uint32_t)a->cond;
    } else {
        in.u64 = a->value;
        cmp.u64 = a->cond;
    }
    if (!reply)
        atomic_fetch_add_explicit(&ch->posted, 1, memory_order_relaxed);
    if (a->op == SYMM_AMO_CSWAP)
        POST(rc, ch, fi_compare_atomic(ch->ep, &in, 1, NULL, &cmp, NULL, &out, NULL, to, raddr,
                                        key, dt, FI_CSWAP, ctx));
    else if (reply)
        POST(rc, ch, fi_fetch_atomic(ch->ep, &in, 1, NULL, &out, NULL, to, raddr, key, dt,
                                      ops[a->op], ctx));
    else {
        /* Returns before it completes: the operand is copied (FI_INJECT), and counted. */
        struct fi_ioc ioc = {.addr = &in, .count = 1};
        struct fi_rma_ioc rioc = {.addr = raddr, .count = 1, .key = key};
        struct fi_msg_atomic m = {.msg_iov = &ioc, .iov_count = 1, .addr = to,
                                  .rma_iov = &rioc, .rma_iov_count = 1, .datatype = dt,
                                  .op = ops[a->op], .context = ctx};
        POST(rc, ch, fi_atomicmsg(ch->ep, &m, FI_INJECT | O.put_flags));
    }
    check(rc, call, "atomic", a->pe);
    if (!reply)
        return 0;
    wait_flag(ch, &op.done);
    return a->size == 4 ? out.u32 : out.u64;
}

/* An atomic the target performs, as a message answered with its old value. */
static uint64_t amo_message(chan_t *ch, const char *call, const symm_tl_amo_t *a, int reply)
{
    op_t op = {.kind = OP_WAIT, .ch = ch};
    amo_msg_t m = {.off = a->off, .value = a->value, .cond = a->cond, .src = O.env.rank,
                   .seg = a->seg, .op = a->op, .size = (uint32_t)a->size};
    uint64_t raddr;
    size_t part;

    target(call, a->pe, a->seg, a->off, a->size, &raddr, &part);
    if (a->off % a->size)
        O.env.fatal("%s(pe=%d): offset %#llx is not aligned to %zu bytes", call, a->pe,
                    (unsigned long long)a->off, a->size);
    if (reply) {
        m.token = (uint64_t)(uintptr_t)&op;
    } else {
        m.token = (uint64_t)(uintptr_t)ch | 1;
        atomic_fetch_add_explicit(&ch->asked, 1, memory_order_relaxed);
    }
    am_send(ch, call, a->pe, AM_AMO, &m, sizeof(m), NULL, 0);
    if (!reply)
        return 0;
    wait_flag(ch, &op.done);
    return a->size == 4 ? (uint32_t)op.value : op.value;
}

static uint64_t ofi_amo(void **chan, const char *call, const symm_tl_amo_t *a,
                        symm_tl_mode_t mode)
{
    chan_t *ch = chan_of(chan);
    int reply = mode == SYMM_TL_WAIT || a->op == SYMM_AMO_SWAP || a->op == SYMM_AMO_CSWAP ||
                a->op == SYMM_AMO_FETCH;

    return O.native[a->size == 8] ? amo_native(ch, call, a, reply)
                                  : amo_message(ch, call, a, reply);
}

/* Fence is quiet: the completions say the operations are in the target's memory. */
static void ofi_quiet(void **chan, int all)
{
    chan_t *ch;

    if (!O.domain || !(ch = atomic_load_explicit((_Atomic(void *) *)chan, memory_order_acquire)))
        return;
    active();
    if (all)
        atomic_store_explicit(&O.closing, 1, memory_order_release);
    wait_all(ch);
    for (int i = 0; all && i < O.nchans; i++)
        wait_all(O.chans[i]);
}

static void ofi_fence(void **chan)
{
    ofi_quiet(chan, 0);
}

static int ofi_progress(void)
{
    return O.domain ? progress_all() : 0;
}

static void ofi_rest(int on)
{
    symm_tl_serve_rest(&O.srv, on);
}

static void ofi_chan_release(void **chan)
{
    chan_t *ch = *chan, **grown;

    if (!ch || ch == &O.target)
        return;
    wait_all(ch);
    *chan = NULL;
    pthread_mutex_lock(&O.lock);
    grown = realloc(O.spare, (size_t)(O.nspare + 1) * sizeof(*grown));
    if (!grown)
        O.env.fatal("shmem_ctx_destroy: out of memory for a context's libfabric endpoint");
    O.spare = grown;
    O.spare[O.nspare++] = ch;
    pthread_mutex_unlock(&O.lock);
}

static symm_status_t ofi_am_handler(unsigned id, symm_tl_am_cb_t cb)
{
    if (!O.domain || !O.env.am || id >= AM_IDS)
        return SYMM_ERR_INVALID;
    O.am[id] = cb;
    return SYMM_OK;
}

static void ofi_am_send(void **chan, const char *call, int pe, unsigned id, const void *hdr,
                        size_t hlen, const void *data, size_t len)
{
    am_send(chan_of(chan), call, pe, id, hdr, hlen, data, len);
}

static const char *ofi_describe(void)
{
    static char d[128];

    snprintf(d, sizeof(d), "ofi, provider %s, atomics %s", O.prov,
             O.native[0] && O.native[1] ? "native" : "as messages");
    return d;
}

const symm_tl_ops_t symm_tl_ofi = {
    .name = "ofi",
    .init = ofi_init,
    .open = ofi_open,
    .fini = ofi_fini,
    .extent_reg = ofi_extent_reg,
    .extent_keys = ofi_extent_keys,
    .extent_drop = ofi_extent_drop,
    .registered = ofi_registered,
    .put = ofi_put,
    .get = ofi_get,
    .put_note = ofi_put_note,
    .amo = ofi_amo,
    .fence = ofi_fence,
    .quiet = ofi_quiet,
    .progress = ofi_progress,
    .rest = ofi_rest,
    .chan_release = ofi_chan_release,
    .am_handler = ofi_am_handler,
    .am_send = ofi_am_send,
    .describe = ofi_describe,
};
