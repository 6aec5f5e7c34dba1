/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Where an operation goes when the inline fast path (a host-heap address of a PE on this node:
 * a memcpy or an atomic through the window) does not take it. One classification names the
 * target: the heap's user part, its internal part (the library's own words), the data segment,
 * a device heap, or nothing symmetric; and the peer is either mapped in the window
 * (SYMM_REACH_WINDOW) or on another node (SYMM_REACH_NET), which the network transport
 * (tl/tl.h) reaches by (PE, segment, offset).
 *
 * Nodes: a job of one host is one node unless SYMM_NODES (symmrun --nodes) cuts it into
 * virtual nodes, groups of consecutive PEs that share nothing but the network path, so the
 * whole path between nodes runs and is tested on one machine.
 *
 * Registration (core/net.h): the transport reaches the parts of the heap registered with it,
 * which grow with the heap's high-water mark, extent by extent, in the allocation step.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gpu.h"
#include "core/net.h"
#include "core/core.h"
#include "tl/tl.h"

typedef enum { ADDR_BAD, ADDR_USER, ADDR_INTERNAL, ADDR_DATA, ADDR_DEVICE } addr_kind_t;

/* Where one operation's (address, PE) goes, found once per operation: what the address is in
 * this PE's memory, its segment and offset, and the peer's side: over the network (net), or
 * the address of the same byte on pe through the window (p; NULL for device memory, which the
 * GPU part reaches, for a bad address, and for a PE the window does not reach). */
typedef struct symm_route {
    addr_kind_t kind;
    int net;
    int pe;
    symm_tl_seg_t seg;
    uint64_t off;
    char *p;
} symm_route_t;

/* Classifies addr (len bytes, this PE's memory) for pe, a PE of the job; checks nothing. */
static void route_of(const void *addr, size_t len, int pe, symm_route_t *r)
{
    uintptr_t h = (uintptr_t)addr - (uintptr_t)symm_g.heap_base;
    uintptr_t d = (uintptr_t)addr - (uintptr_t)symm_g.data_lo;
    int win = symm_g.reach[pe] == SYMM_REACH_WINDOW;

    r->pe = pe;
    r->net = symm_g.reach[pe] == SYMM_REACH_NET;
    r->seg = SYMM_SEG_HEAP;
    r->off = 0;
    r->p = NULL;
    if (h < symm_g.heap_len && len <= symm_g.heap_len - h) {
        r->off = h;
        r->kind = h < symm_g.internal_off && len <= symm_g.internal_off - h ? ADDR_USER
                                                                             : ADDR_INTERNAL;
        if (win)
            r->p = symm_g.heap_win + (size_t)pe * symm_g.stride + h;
    } else if (d < symm_g.data_len && len <= symm_g.data_len - d) {
        r->seg = SYMM_SEG_DATA;
        r->off = d;
        r->kind = ADDR_DATA;
        if (win)
            r->p = pe == symm_g.my_pe ? (char *)addr
                                      : symm_g.data_win + (size_t)pe * symm_g.data_stride + d;
    } else {
        r->kind = symm_gpu_ptr(addr, symm_g.my_pe) ? ADDR_DEVICE : ADDR_BAD;
    }
}

/* The route of a call's argument: the library is started and pe is a PE of the job (fatal
 * otherwise, naming the call); the address is classified, not yet judged. */
static void route(const char *call, const void *addr, size_t len, int pe, symm_route_t *r)
{
    symm_check_init(call);
    if ((unsigned)pe >= (unsigned)symm_g.n_pes)
        symm_fatal("%s(addr=%p, pe=%d): pe %d is out of range (the job has %d PEs, 0..%d)", call,
                   addr, pe, pe, symm_g.n_pes, symm_g.n_pes - 1);
    route_of(addr, len, pe, r);
}

/* Whether the route names user memory (heap's user part or data segment). */
static int user_memory(const symm_route_t *r)
{
    return r->kind == ADDR_USER || r->kind == ADDR_DATA;
}

static void not_symmetric(const char *call, const void *addr, size_t len, int pe)
{
    symm_fatal("%s(addr=%p, bytes=%zu, pe=%d): [%p, %p) is not symmetric memory (heap %p..%p)",
               call, addr, len, pe, addr, (const void *)((const char *)addr + len),
               (void *)symm_g.heap_base, (void *)(symm_g.heap_base + symm_g.internal_off));
}

/* Reports what is wrong with a route that the operation cannot take. */
static __attribute__((noreturn)) void route_bad(const char *call, const void *addr, size_t len,
                                                const symm_route_t *r)
{
    if (r->net && r->kind == ADDR_DEVICE)
        symm_fatal("%s(addr=%p, pe=%d): pe %d is on another node, where device memory is "
                   "reached by put and get only", call, addr, r->pe, r->pe);
    if (!user_memory(r))
        not_symmetric(call, addr, len, r->pe);
    symm_fatal("%s(addr=%p, pe=%d): pe %d cannot be reached by load and store from this PE",
               call, addr, r->pe, r->pe);
}

static void **chan(shmem_ctx_t ctx)
{
    return &ctx->net;
}

void symm_rma_slow(shmem_ctx_t ctx, const char *call, void *dest, const void *src, size_t n,
                   int pe, symm_rma_op_t op)
{
    const int put = symm_rma_is_put(op);
    const void *sym = put ? dest : src;
    symm_route_t r;

    route(call, sym, n, pe, &r);
    if (n == 0)
        return;
    if (r.kind == ADDR_DEVICE) {
        /* The GPU part: the copy engine on the node, the proxy to another node. */
        if (symm_gpu_rma(op, dest, src, n, pe) != SYMM_OK)
            route_bad(call, sym, n, &r);
        return;
    }
    if (!user_memory(&r) || (!r.net && !r.p))
        route_bad(call, sym, n, &r);
    if (r.net) {
        if (put)
            symm_tl_net->put(chan(ctx), call, pe, r.seg, r.off, src, n, symm_rma_mode(op));
        else
            symm_tl_net->get(chan(ctx), call, pe, r.seg, r.off, dest, n, symm_rma_mode(op));
    } else if (put) {
        memcpy(r.p, src, n);
        symm_wake_hint(pe, r.p, n);
    } else {
        memcpy(dest, r.p, n);
    }
}

char *symm_xlate_slow(const char *call, const void *addr, size_t len, int pe)
{
    symm_route_t r;

    route(call, addr, len, pe, &r);
    if (!user_memory(&r))
        not_symmetric(call, addr, len, pe);
    if (!r.p)
        route_bad(call, addr, len, &r);
    return r.p;
}

void *symm_ptr(const void *addr, int pe)
{
    char *p;

    if (symm_g.reach[pe] != SYMM_REACH_WINDOW)
        return NULL;
    p = symm_xlate(addr, 1, pe);
    return p ? p : symm_gpu_ptr(addr, pe);
}

void *symm_amo_target(const char *call, const void *addr, size_t size, int pe,
                      symm_tl_amo_t *net)
{
    symm_route_t r;

    route(call, addr, size, pe, &r);
    if (!user_memory(&r) || (!r.net && !r.p))
        route_bad(call, addr, size, &r);
    if (r.net)
        *net = (symm_tl_amo_t){.pe = pe, .seg = r.seg, .off = r.off, .size = size};
    return r.p;
}

uint64_t symm_amo_net(shmem_ctx_t ctx, const char *call, const symm_tl_amo_t *a,
                      symm_tl_mode_t mode)
{
    return symm_tl_net->amo(chan(ctx), call, a, mode);
}

/* ---- The library's own accesses -------------------------------------------------------------- */
/* The route of addr (this PE's heap, internal part included, or data segment) to pe. */
static void peer_route(const char *call, const void *addr, size_t n, int pe, symm_route_t *r)
{
    route_of(addr, n, pe, r);
    if (r->kind != ADDR_USER && r->kind != ADDR_INTERNAL && r->kind != ADDR_DATA)
        symm_fatal("%s(addr=%p, bytes=%zu): not in this PE's heap or data segment", call, addr,
                   n);
}

static void peer_get(void *dest, const void *addr, size_t n, int pe, symm_rma_op_t op)
{
    symm_route_t r;

    if (n == 0)
        return;
    peer_route("symm_peer_get", addr, n, pe, &r);
    if (!r.net)
        memcpy(dest, r.p, n);
    else
        symm_tl_net->get(chan(SHMEM_CTX_DEFAULT), "symm_peer_get", pe, r.seg, r.off, dest, n,
                         symm_rma_mode(op));
}

void symm_peer_get(void *dest, const void *addr, size_t n, int pe)
{
    peer_get(dest, addr, n, pe, SYMM_GET);
}

void symm_peer_get_nbi(void *dest, const void *addr, size_t n, int pe)
{
    peer_get(dest, addr, n, pe, SYMM_GET_NBI);
}

void symm_peer_put(const void *addr, const void *src, size_t n, int pe)
{
    symm_route_t r;

    if (n == 0)
        return;
    peer_route("symm_peer_put", addr, n, pe, &r);
    if (!r.net) {
        memcpy(r.p, src, n);
        symm_wake(pe, r.p, n);
    } else {
        symm_tl_net->put(chan(SHMEM_CTX_DEFAULT), "symm_peer_put", pe, r.seg, r.off, src, n,
                         SYMM_TL_WAIT);
    }
}

size_t symm_peer_note_max(void)
{
    return !symm_g.net ? SIZE_MAX : symm_tl_net->put_note ? SYMM_TL_NOTE_MAX : 0;
}

int symm_peer_put_note(const void *addr, const void *src, size_t n, _Atomic uint32_t *count,
                       int pe)
{
    symm_route_t r, c;

    if (symm_g.reach[pe] == SYMM_REACH_NET && (!symm_tl_net->put_note || n > SYMM_TL_NOTE_MAX))
        return 0;
    peer_route("symm_peer_put_note", addr, n ? n : 1, pe, &r);
    peer_route("symm_peer_put_note", (const void *)count, sizeof(*count), pe, &c);
    if (r.net) {
        symm_tl_net->put_note(chan(SHMEM_CTX_DEFAULT), "symm_peer_put_note", pe, r.seg, r.off,
                              src, n, c.seg, c.off);
        return 1;
    }
    memcpy(r.p, src, n);
    atomic_fetch_add_explicit((_Atomic uint32_t *)c.p, 1, memory_order_seq_cst);
    symm_wake(pe, c.p, sizeof(*count));
    return 1;
}

void symm_peer_flag(const void *addr, uint32_t value, int pe)
{
    symm_route_t r;

    peer_route("symm_peer_flag", addr, sizeof(value), pe, &r);
    if (!r.net) {
        atomic_store_explicit((_Atomic uint32_t *)r.p, value, memory_order_seq_cst);
        symm_wake(pe, r.p, sizeof(value));
    } else {
        symm_tl_net->put(chan(SHMEM_CTX_DEFAULT), "symm_peer_flag", pe, r.seg, r.off, &value,
                         sizeof(value), SYMM_TL_FLAG);
    }
}

/* Every operation but SET returns the old value. */
uint64_t symm_peer_amo(symm_amo_op_t op, const void *addr, size_t size, uint64_t value, int pe)
{
    symm_tl_amo_t a = {.op = op, .pe = pe, .size = size, .value = value};
    symm_route_t r;
    char *p;
    uint64_t v = 0;

    peer_route("symm_peer_amo", addr, size, pe, &r);
    if (r.net) {
        a.seg = r.seg;
        a.off = r.off;
        return symm_tl_net->amo(chan(SHMEM_CTX_DEFAULT), "symm_peer_amo", &a,
                                op == SYMM_AMO_SET ? SYMM_TL_NBI : SYMM_TL_WAIT);
    }
    p = r.p;
    switch (op) {
    case SYMM_AMO_ADD:
        v = size == 4 ? __atomic_fetch_add((uint32_t *)p, (uint32_t)value, __ATOMIC_SEQ_CST)
                      : __atomic_fetch_add((uint64_t *)p, value, __ATOMIC_SEQ_CST);
        break;
    case SYMM_AMO_SET:
    case SYMM_AMO_SWAP:
        v = size == 4 ? __atomic_exchange_n((uint32_t *)p, (uint32_t)value, __ATOMIC_SEQ_CST)
                      : __atomic_exchange_n((uint64_t *)p, value, __ATOMIC_SEQ_CST);
        break;
    case SYMM_AMO_FETCH:
        v = size == 4 ? __atomic_load_n((uint32_t *)p, __ATOMIC_SEQ_CST)
                      : __atomic_load_n((uint64_t *)p, __ATOMIC_SEQ_CST);
        break;
    default:
        symm_fatal("symm_peer_amo(op=%d): not an operation of the library's own", op);
    }
    if (op != SYMM_AMO_FETCH)
        symm_wake(pe, p, size);
    return v;
}

/* ---- Nodes and the network transport ------------------------------------------------------- */
void symm_nodes_init(void)
{
    long k = symm_g.params.nodes;
    int n = symm_g.n_pes, hosts = 1;
    const int *host = symm_g.boot->host;

    for (int pe = 0; host && pe < n; pe++)
        if (host[pe] + 1 > hosts)
            hosts = host[pe] + 1;
    if (k > n)
        symm_fatal("shmem_init: SYMM_NODES=%ld asks for more nodes than the job has PEs (%d)", k,
                   n);
    if (k > 1 && hosts > 1)
        symm_fatal("shmem_init: SYMM_NODES=%ld cuts a job of one host into virtual nodes, and "
                   "this job runs on %d hosts", k, hosts);
    symm_g.n_nodes = k > 1 ? (int)k : hosts;
    symm_g.node = malloc((size_t)n * sizeof(int));
    if (!symm_g.node)
        symm_fatal("shmem_init: out of memory for %d node numbers", n);
    /* Virtual node j holds PEs [ceil(j n / K), ceil((j + 1) n / K)), as symmrun --nodes
     * numbers them; hosts are nodes as they come, each a run of consecutive PEs. */
    for (int pe = 0; pe < n; pe++) {
        symm_g.node[pe] = hosts > 1 ? host[pe] : (int)((long)pe * symm_g.n_nodes / n);
        if (pe > 0 && symm_g.node[pe] < symm_g.node[pe - 1]) {
            int q = 0;

            while (symm_g.node[q] != symm_g.node[pe])
                q++;
            symm_fatal("shmem_init: the PEs of a host must be consecutive ranks: pe %d runs on "
                       "the host of pe %d, and pe %d between them on another (place ranks by "
                       "slot or block: mpirun --map-by slot, srun --distribution=block)", pe, q,
                       pe - 1);
        }
    }
    symm_g.my_node = symm_g.node[symm_g.my_pe];
    symm_g.net = symm_g.n_nodes > 1;
    symm_g.win_first = symm_g.my_pe;
    while (symm_g.win_first > 0 && symm_g.node[symm_g.win_first - 1] == symm_g.my_node)
        symm_g.win_first--;
    symm_g.win_n = symm_g.my_pe - symm_g.win_first + 1;
    while (symm_g.win_first + symm_g.win_n < n &&
           symm_g.node[symm_g.win_first + symm_g.win_n] == symm_g.my_node)
        symm_g.win_n++;
    /* A PE that waits is the one that serves its peers' operations over transports that need
     * the target to progress (TCP): with a CPU of its own it spins, progressing, for as long
     * as it waits (as OpenSHMEM implementations over UCX do); the transport's progress thread
     * serves the peers while the PE computes. */
    if (symm_g.net && symm_g.params.spin_us < 0 && !symm_g.oversubscribed)
        symm_g.spin_ns = LONG_MAX / 2;
}

static __attribute__((noreturn)) void tl_fatal(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    symm_fatal("%s", msg);
}

/* Data from a peer landed while this PE's waiters may sleep. */
static void arrived(void)
{
    symm_wake(symm_g.my_pe, NULL, 0);
}

/* The user part of the heap registered at start; each later extent at least doubles the
 * registered part, so a heap of any size has a handful. */
#define NET_FIRST ((size_t)4 << 20)
static size_t net_top; /* [0, net_top) of the user part is registered */

/* What the core sends along in the transport's start exchange (its first allgatherv). */
static struct {
    const void *mine;
    size_t len;
    char *all;
} rider;

/* The transport's allgatherv; the first carries the rider in front of each record, which is
 * taken out before the transport sees them. */
static symm_status_t allgatherv(const void *in, size_t len, void **out, size_t *lens)
{
    const size_t k = rider.len, n = (size_t)symm_g.n_pes;
    char *buf, *all = NULL;
    size_t from = 0, to = 0;
    symm_status_t st;

    if (!k)
        return symm_boot_allgatherv(symm_g.boot, in, len, out, lens);
    rider.len = 0;
    buf = malloc(k + len);
    rider.all = malloc(n * k);
    if (!buf || !rider.all) {
        free(buf);
        return SYMM_ERR_NOMEM;
    }
    memcpy(buf, rider.mine, k);
    memcpy(buf + k, in, len);
    st = symm_boot_allgatherv(symm_g.boot, buf, k + len, (void **)&all, lens);
    free(buf);
    for (size_t pe = 0; st == SYMM_OK && pe < n; pe++) {
        if (lens[pe] < k) {
            st = SYMM_ERR_BOOT;
            break;
        }
        memcpy(rider.all + pe * k, all + from, k);
        memmove(all + to, all + from + k, lens[pe] - k);
        from += lens[pe];
        lens[pe] -= k;
        to += lens[pe];
    }
    if (st != SYMM_OK) {
        free(all);
        return st;
    }
    *out = all;
    return SYMM_OK;
}

void symm_net_open(void)
{
    const char *lib;
    char why[256];

    if (symm_tl_choose(&symm_g.params, &lib, why, sizeof(why)) == SYMM_OK)
        symm_tl_net->open(lib);
}

const char *symm_net_describe(void)
{
    return symm_tl_net->describe();
}

symm_status_t symm_net_init(const void *mine, size_t len, void **riders, char *why,
                            size_t why_len)
{
    size_t first = symm_g.internal_off < NET_FIRST ? symm_g.internal_off : NET_FIRST;
    symm_tl_range_t reg[] = {
        {.seg = SYMM_SEG_HEAP, .off = 0, .len = first},
        {.seg = SYMM_SEG_HEAP, .off = symm_g.internal_off,
         .len = symm_g.heap_len - symm_g.internal_off},
        {.seg = SYMM_SEG_DATA, .off = 0, .len = symm_g.data_len},
    };
    unsigned char *net;
    symm_tl_env_t env;
    const char *lib;
    symm_status_t st;

    *riders = NULL;
    if (!symm_g.net)
        return SYMM_OK;
    st = symm_tl_choose(&symm_g.params, &lib, why, why_len);
    if (st != SYMM_OK)
        return st;
    rider.mine = mine;
    rider.len = len;
    rider.all = NULL;
    net = calloc(symm_g.n_pes, 1);
    if (!net)
        return SYMM_ERR_NOMEM;
    for (int pe = 0; pe < symm_g.n_pes; pe++)
        net[pe] = symm_g.reach[pe] == SYMM_REACH_NET;
    env = (symm_tl_env_t){
        .lib = lib,
        .atomics = symm_g.params.ofi_atomics,
        .rank = symm_g.my_pe,
        .size = symm_g.n_pes,
        .threads = symm_g.thread_level == SHMEM_THREAD_MULTIPLE,
        .crowded = symm_g.oversubscribed,
        .net = net,
        .base = {symm_g.heap_base, symm_g.data_len ? symm_g.data_lo : NULL},
        .len = {symm_g.heap_len, symm_g.data_len},
        .reg = reg,
        .nreg = (int)(sizeof(reg) / sizeof(reg[0])),
        .allgatherv = allgatherv,
        .fatal = tl_fatal,
        .log = symm_log,
        .arrived = arrived,
        .default_chan = &symm_ctx_default.net,
        .am = symm_gpu_at_init(),
    };
    st = symm_tl_net->init(&env, why, why_len);
    free(net);
    rider.len = 0;
    if (st == SYMM_OK)
        net_top = first;
    if (st == SYMM_OK && len && !rider.all) {
        snprintf(why, why_len, "the network transport made no start exchange");
        st = SYMM_ERR_BOOT;
    }
    if (st != SYMM_OK) {
        free(rider.all);
        rider.all = NULL;
    }
    *riders = rider.all;
    rider.all = NULL;
    return st;
}

void symm_net_fini(void)
{
    if (symm_g.net)
        symm_tl_net->fini();
    net_top = 0;
}

/* This PE's key of the extent that allocation call seq registered, by call parity (a peer may
 * still read one call's record while this PE publishes the next one's), in the internal part
 * of the heap after the library's own state, so peers read it over the network. */
typedef struct net_key_rec {
    uint64_t seq;
    uint64_t lo, hi;
    uint64_t len;
    unsigned char key[4096 - 4 * sizeof(uint64_t)];
} net_key_rec_t;
#define NET_RECS_OFF ((sizeof(symm_internal_t) + 4095) / 4096 * 4096)
_Static_assert(NET_RECS_OFF + 2 * sizeof(net_key_rec_t) <= SYMM_INTERNAL_SIZE,
               "the network key records fit in the internal part");

static net_key_rec_t *net_rec(uint64_t seq)
{
    return (net_key_rec_t *)((char *)symm_internal(symm_g.my_pe) + NET_RECS_OFF) + (seq & 1);
}

symm_status_t symm_net_heap_grow(const char *call, uint64_t seq, size_t top, int *grew)
{
    net_key_rec_t *rec = net_rec(seq);
    size_t hi = symm_round_up(top, SYMM_HEAP_ALIGN), len = 0;
    symm_tl_range_t r = {.seg = SYMM_SEG_HEAP, .off = net_top};
    char why[256] = "";

    if (!symm_g.net || top <= net_top) {
        *grew = 0;
        return SYMM_OK;
    }
    hi = hi < 2 * net_top ? 2 * net_top : hi;
    hi = hi > symm_g.internal_off ? symm_g.internal_off : hi;
    r.len = hi - net_top;
    if (symm_tl_net->extent_reg(&r, rec->key, sizeof(rec->key), &len, why, sizeof(why)) !=
        SYMM_OK) {
        symm_warn("%s: heap bytes [%#zx, %#zx) cannot be registered with the network (%s); the "
                  "call returns NULL on every PE", call, net_top, hi, why);
        return SYMM_ERR_SYS;
    }
    rec->seq = seq;
    rec->lo = net_top;
    rec->hi = hi;
    rec->len = len;
    symm_info("%s: heap bytes [%#zx, %#zx) registered with the network", call, net_top, hi);
    *grew = 1;
    return SYMM_OK;
}

/* The peers' records of call seq, read together; fatal when one is not of the same extent. */
static void net_read_keys(const char *call, uint64_t seq, net_key_rec_t *all, const void **keys,
                          size_t *lens)
{
    const net_key_rec_t *mine = net_rec(seq);

    for (int pe = 0; pe < symm_g.n_pes; pe++)
        if (symm_g.reach[pe] == SYMM_REACH_NET)
            symm_peer_get_nbi(&all[pe], mine, sizeof(*all), pe);
    symm_net_quiet(SHMEM_CTX_DEFAULT);
    for (int pe = 0; pe < symm_g.n_pes; pe++) {
        const net_key_rec_t *r = &all[pe];
        if (symm_g.reach[pe] != SYMM_REACH_NET)
            continue;
        if (r->seq != seq || r->lo != mine->lo || r->hi != mine->hi || r->len > sizeof(r->key))
            symm_fatal("%s: collective allocation #%llu registers heap bytes [%#llx, %#llx) with "
                       "the network on this PE, and pe %d published bytes [%#llx, %#llx) of "
                       "call #%llu", call, (unsigned long long)seq,
                       (unsigned long long)mine->lo, (unsigned long long)mine->hi, pe,
                       (unsigned long long)r->lo, (unsigned long long)r->hi,
                       (unsigned long long)r->seq);
        keys[pe] = r->key;
        lens[pe] = r->len;
    }
}

void symm_net_heap_agree(const char *call, uint64_t seq, int ok)
{
    const net_key_rec_t *mine = net_rec(seq);
    int n = symm_g.n_pes;
    net_key_rec_t *all;
    const void **keys;
    size_t *lens;
    char why[256] = "";

    if (!ok) {
        symm_tl_net->extent_drop();
        return;
    }
    all = malloc((size_t)n * sizeof(*all));
    keys = calloc(n, sizeof(*keys));
    lens = calloc(n, sizeof(*lens));
    if (!all || !keys || !lens)
        symm_fatal("%s: out of memory for the network keys of %d PEs", call, n);
    net_read_keys(call, seq, all, keys, lens);
    if (symm_tl_net->extent_keys(keys, lens, why, sizeof(why)) != SYMM_OK)
        symm_fatal("%s: the network keys of heap bytes [%#llx, %#llx) cannot be used: %s", call,
                   (unsigned long long)mine->lo, (unsigned long long)mine->hi, why);
    net_top = mine->hi;
    free(all);
    free(keys);
    free(lens);
}

size_t symm_net_heap_registered(void)
{
    return symm_g.net ? symm_tl_net->registered(SYMM_SEG_HEAP) : 0;
}

int symm_net_progress_slow(void)
{
    return symm_tl_net->progress();
}

void symm_net_rest(int on)
{
    if (symm_g.net)
        symm_tl_net->rest(on);
}

void symm_net_quiet(shmem_ctx_t ctx)
{
    if (symm_g.net)
        symm_tl_net->quiet(chan(ctx), 0);
}

void symm_net_quiet_all(void)
{
    if (symm_g.net)
        symm_tl_net->quiet(chan(SHMEM_CTX_DEFAULT), 1);
}

void symm_net_fence(shmem_ctx_t ctx)
{
    if (symm_g.net)
        symm_tl_net->fence(chan(ctx));
}

void symm_net_ctx_release(shmem_ctx_t ctx)
{
    if (symm_g.net)
        symm_tl_net->chan_release(chan(ctx));
}
