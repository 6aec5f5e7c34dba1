/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The process-wide state of a PE and the address arithmetic of the flat window.
 *
 * Every process reserves one range of virtual addresses, the heap window, with one slot of
 * `stride` bytes per PE. Its own heap lies in its own slot; the heap of every PE it can reach
 * by load/store lies in that PE's slot. A symmetric address is therefore translated, never
 * looked up: peer = addr - my_slot + slot(pe). The program's writable data segment (globals
 * and statics) has a window of its own, built the same way.
 */
#ifndef SYMM_STATE_H
#define SYMM_STATE_H

#include <stdatomic.h>
#include <stdint.h>
#include <stddef.h>

#include "shmem.h"
#include "boot/boot.h"
#include "core/alloc.h"
#include "core/params.h"

#define SYMM_LIKELY(x) __builtin_expect(!!(x), 1)
#define SYMM_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define SYMM_CACHELINE 64
/* For the few helpers on every RMA and AMO path. */
#define SYMM_INLINE static inline __attribute__((always_inline))
#define SYMM_EXPORT __attribute__((visibility("default")))

static inline void symm_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Copies that move (read plus write) more than symm_cache_share() bytes go past the cache
 * (core/copy.c); symm_copy_stream ends with the store fence, the _nofence form leaves
 * symm_copy_stream_fence to the caller. Smaller copies of SYMM_SWEEP_BYTES or more alternate
 * direction call to call (symm_copy_swept: forward, or backwards when `back`);
 * symm_copy_large picks the way for a copy of SYMM_SWEEP_BYTES or more. */
#define SYMM_SWEEP_BYTES (256u << 10)
/* symm_copy_setup finds the cache sizes as SYMM_CACHE_INFO (`info`) says and sets the share of
 * each of `pes` PEs; with no size found the share is SYMM_CACHE_UNKNOWN: the collectives never
 * stream, symm_copy_large only past 32 MiB. symm_cache_sizes: the L2 and last-level sizes found
 * (0: none). */
#define SYMM_CACHE_UNKNOWN (SIZE_MAX / 4)
symm_status_t symm_copy_setup(const char *info, int pes, char *why, size_t why_len);
void symm_cache_sizes(size_t *l2, size_t *llc);
size_t symm_cache_share(void);
void symm_copy_stream(void *dest, const void *src, size_t n);
void symm_copy_stream_nofence(void *dest, const void *src, size_t n);
void symm_copy_stream_fence(void);
void symm_copy_swept(void *dest, const void *src, size_t n, int back);
void symm_copy_large(void *dest, const void *src, size_t n);

SYMM_INLINE size_t symm_round_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

/* A full fence. On x86-64 a locked no-op below the stack pointer: the compiler's own choice,
 * `lock or` on the top of the stack, stalls on the return address a call has just stored
 * there (16 ns against 11.5 ns measured). The red zone is not in use at a call boundary. */
SYMM_INLINE void symm_full_fence(void)
{
#if defined(__x86_64__)
    __asm__ __volatile__("lock orq $0, -64(%%rsp)" ::: "memory", "cc");
#else
    atomic_thread_fence(memory_order_seq_cst);
#endif
}

/* How this PE reaches another: its heap is mapped in the window, or over the network. */
#define SYMM_REACH_WINDOW 1
#define SYMM_REACH_NET 2

/* Size of the internal part after the user part of every heap (library state that peers
 * reach). */
#define SYMM_INTERNAL_SIZE (16u << 20)
#define SYMM_HEAP_ALIGN (2u << 20)
/* Every heap slot starts at a multiple of this, so an offset aligned to any power of two up to
 * it is an address so aligned on every PE (shmem_align). Costs only address space. */
#define SYMM_SLOT_ALIGN (1ul << 30)
#define SYMM_BARRIER_ROUNDS 32

typedef struct symm_word {
    _Atomic uint32_t v;
    char pad[SYMM_CACHELINE - sizeof(uint32_t)];
} symm_word_t;

/* Agreement record of one collective allocation, compared across PEs. */
typedef struct symm_alloc_rec {
    uint64_t seq;
    uint64_t size;
    uint64_t align;
    int64_t result;  /* offset, or -1 when this PE could not allocate */
} symm_alloc_rec_t;

/* Agreement records of a set of PEs combined: the least and the most of each field (seq, size,
 * align) with a PE that holds it, and the least PE that could not allocate (INT32_MAX: none). */
typedef struct symm_alloc_sum {
    uint64_t lo[3], hi[3];
    int32_t lo_pe[3], hi_pe[3];
    int32_t short_pe;
    int32_t pad;
} symm_alloc_sum_t;

#define SYMM_AGREE_ROUNDS 32

/* The internal part of every heap, at the same offset on every PE. */
/* Synchronisation state of one team on one PE, at the same offset on every PE. Teams own
 * slots; the world team has slot 0. */
#define SYMM_TEAM_SLOTS 64
/* Team unique ids a PE may have made whose members have not all met yet. */
#define SYMM_TEAM_UIDS 64
#define SYMM_SCRATCH (64u << 10)
/* Cells: parts of up to SYMM_CELL_BYTES travel in one cache line with the epoch that publishes
 * them, a ring of SYMM_CELLS per PE (cell[e % SYMM_CELLS] at epoch e). */
#define SYMM_CELLS 16
#define SYMM_CELL_BYTES (SYMM_CACHELINE - sizeof(uint32_t))
typedef struct symm_slot {
    /* Dissemination barrier: round k is signalled by team PE (me - 2^k). */
    symm_word_t bar[SYMM_BARRIER_ROUNDS];
    /* Central barrier, used on the team's PE 0 only: arrivals, release epoch, its sleepers. */
    symm_word_t arrive;
    symm_word_t release;
    symm_word_t release_sleepers;
    /* Central barrier, on the first member of each group of PEs that share a CPU: its
     * arrivals. */
    symm_word_t garrive;
    /* Collectives: `posted` is the epoch of the last collective this PE entered (its part is
     * in a cell or scratch buffer of that epoch or, for large data, in its own buffers, and it
     * has finished reading everything of earlier epochs); `done` the epoch of the last one
     * whose reads it finished. */
    symm_word_t posted;
    symm_word_t done;
    symm_word_t argued;  /* under SHMEM_DEBUG: epoch whose arguments are in args[] */
    /* With more PEs than CPUs: the CPU this PE ran on when it last entered a collective or a
     * barrier, and the epoch of the last barrier it arrived at. */
    symm_word_t cpu;
    symm_word_t arrived;
    /* Teams that span nodes, on a node's first member: the barrier epoch of the last
     * collective whose parts from other nodes it fetched for the node's other members. */
    symm_word_t relay;
    /* Teams that span nodes: the parts other members pushed to this PE so far (small
     * collectives); the team's `landed` is how many it has taken. */
    symm_word_t landed;
    /* Data first, at the line's start (aligned for every element type), the epoch last. */
    struct symm_cell {
        unsigned char data[SYMM_CELL_BYTES];
        _Atomic uint32_t epoch;
    } __attribute__((aligned(SYMM_CACHELINE))) cell[SYMM_CELLS];
    /* What each collective call was asked (compared across PEs under SHMEM_DEBUG), and the
     * element count of collect, by epoch parity. */
    struct {
        uint64_t op;
        uint64_t nelems;
        int64_t root;
        uint64_t count;
    } args[2] __attribute__((aligned(SYMM_CACHELINE)));
    /* Parts of up to SYMM_SCRATCH bytes, by epoch parity. */
    char scratch[2][SYMM_SCRATCH] __attribute__((aligned(SYMM_CACHELINE)));
} symm_slot_t;
_Static_assert(sizeof(struct symm_cell) == SYMM_CACHELINE, "a cell is one cache line");

/* The internal part of every heap, at the same offset on every PE. */
typedef struct symm_internal {
    /* Sleep/wake: a waiter that stops spinning counts itself in `sleepers` and sleeps on
     * `doorbell`; whoever writes to this PE rings the doorbell when sleepers is non-zero. */
    symm_word_t sleepers;
    symm_word_t doorbell;
    /* What the sleepers wait on: an object of PE `pe` at symmetric offsets [lo, hi) (pe -1:
     * anything), so that writes elsewhere do not wake them; `rung` is set by the first writer
     * that rings while they sleep, so a burst of writes costs one system call. */
    struct {
        _Atomic int32_t pe;
        _Atomic uint32_t rung;
        _Atomic uint64_t lo;
        _Atomic uint64_t hi;
    } watch __attribute__((aligned(SYMM_CACHELINE)));
    /* Per-call records of collective allocations, by call parity. */
    symm_alloc_rec_t alloc_rec[2] __attribute__((aligned(SYMM_CACHELINE)));
    /* Across nodes (coll/heap.c): round k's summary from the node leader 2^k before this one,
     * counted in agree_cnt[k]; a leader's result, which its node reads once agree_done reaches
     * the call's number. */
    symm_alloc_sum_t agree_in[SYMM_AGREE_ROUNDS] __attribute__((aligned(SYMM_CACHELINE)));
    symm_word_t agree_cnt[SYMM_AGREE_ROUNDS];
    symm_alloc_sum_t agree_out __attribute__((aligned(SYMM_CACHELINE)));
    symm_word_t agree_done;
    symm_slot_t slot[SYMM_TEAM_SLOTS] __attribute__((aligned(4096)));
    /* Teams made from a unique id (coll/team.c): where the members of each id this PE made
     * meet, by the id's count, and this PE's offer to the team it is joining. */
    struct symm_uid_rec {
        _Atomic uint64_t uid;
        _Atomic int32_t pe0;    /* the world PEs of the team's members 0 and 1 */
        _Atomic int32_t pe1;
        _Atomic uint32_t arrived;
        _Atomic uint32_t ready;
    } team_uid[SYMM_TEAM_UIDS] __attribute__((aligned(SYMM_CACHELINE)));
    struct {
        uint64_t uid;
        uint64_t free;          /* team slots free on this PE */
        uint64_t hwm;           /* its highest epoch */
    } team_offer __attribute__((aligned(SYMM_CACHELINE)));
} symm_internal_t;
_Static_assert(sizeof(symm_internal_t) <= SYMM_INTERNAL_SIZE, "internal part too large");

/* A communication context. Contexts are never freed: a destroyed one keeps its memory with
 * magic SYMM_CTX_DEAD, so that its later use is reported instead of being undefined. Under
 * SHMEM_DEBUG a private context (SHMEM_CTX_PRIVATE) has magic SYMM_CTX_OWNED and its creator's
 * thread id, so that its every use takes the slow check, which compares the caller's. */
#define SYMM_CTX_LIVE 0x53594d4du
#define SYMM_CTX_OWNED 0x53594d50u
#define SYMM_CTX_DEAD 0xdeadc7c7u
struct symm_ctx {
    uint32_t magic;
    long options;
    struct symm_team *team;
    void *net;           /* the network transport's channel (tl/tl.h), made on first use */
    uint64_t thread;     /* SYMM_CTX_OWNED: the creator's thread id (symm_thread_id) */
};

/* 0 for SHMEM_CTX_INVALID (the operation does nothing), 1 for a live context; fatal for a
 * destroyed or unknown one, or a private one used by another thread (under SHMEM_DEBUG). */
SYMM_INLINE int symm_ctx_ok(shmem_ctx_t ctx, const char *call)
{
    extern int symm_ctx_check(shmem_ctx_t ctx, const char *call);

    if (SYMM_UNLIKELY(ctx == SHMEM_CTX_INVALID))
        return 0;
    if (SYMM_UNLIKELY(ctx->magic != SYMM_CTX_LIVE))
        return symm_ctx_check(ctx, call);
    return 1;
}

/* A team: PEs start + i * stride (world numbers) for i in [0, size). Teams are not freed: a
 * destroyed one keeps its memory with magic SYMM_TEAM_DEAD so that its use is reported. */
#define SYMM_TEAM_LIVE 0x5445414du
#define SYMM_TEAM_DEAD 0xdeadbeefu
struct symm_team {
    uint32_t magic;
    int start;
    int stride;
    int size;
    int me;              /* this PE's index in the team */
    int slot;
    uint32_t bar_epoch;  /* barriers so far */
    /* With more PEs than CPUs: bar_epoch when this PE last entered a broadcast whose root ran on
     * its CPU (the barrier after such a one gives the CPU up early, sync/barrier.c). */
    uint32_t mate_root_bar;
    uint32_t coll_epoch; /* collectives so far */
    uint32_t landed;     /* parts pushed to this PE that it has taken (teams across nodes) */
    /* Teams across nodes: small broadcasts since the team's last barrier (each lands in cell
     * [unsynced] of the receivers' slots), and how many each of this PE's cells has taken. */
    uint32_t unsynced;
    uint32_t boxed[SYMM_CELLS];
    uint32_t sweeps;     /* cache-sized copying collectives so far (their direction) */
    long config_mask;
    int num_contexts;
    const char *name;
    /* Teams whose members span nodes (net != 0) synchronise hierarchically: the members of
     * each node through the slot of the node's first member (`lead`, a team index; `local`
     * members on this node), the first members of all nodes among themselves (`leaders`,
     * team indices, `nlead` of them; `lead_idx` this PE's place there, or -1). */
    int net;
    int lead;
    int local;
    int nlead;
    int lead_idx;
    int *leaders;
};
typedef struct symm_team symm_team_t;

SYMM_INLINE int symm_team_pe(const symm_team_t *t, int idx)
{
    return t->start + idx * t->stride;
}

/* What a PE tells every other at start, in the bootstrap's first exchange. */
typedef struct symm_card {
    uint64_t heap_len; /* its heap: user part and internal part */
    uint64_t data_len; /* its shared data segment, 0: none */
    uint64_t cpus[16]; /* the CPUs it may run on (a cpu_set_t) */
} symm_card_t;

typedef struct symm_state {
    int initialized;           /* 1 between shmem_init and shmem_finalize */
    int finalized;
    int my_pe;
    int n_pes;
    int thread_level;
    int oversubscribed;        /* more PEs on this node than CPUs */
    /* Nodes: PEs of one node map each other's memory; other nodes are reached over the
     * network transport (tl/). node[pe] numbers them; `net` is set when there is more than
     * one. */
    int n_nodes;
    int my_node;
    int *node;
    int net;
    int win_first;             /* this node's PEs, [win_first, win_first + win_n), consecutive: */
    int win_n;                 /* the window reaches them (win_n 0 before start, after the end) */
    char host[64];
    const symm_boot_ops_t *boot;
    symm_card_t *cards;        /* every PE's, from the bootstrap's start until the heap is up */
    symm_params_t params;

    /* Heap window. */
    char *heap_win;            /* slot 0 */
    size_t stride;             /* bytes between slots */
    char *heap_base;           /* my slot */
    size_t heap_len;           /* user part + internal part */
    size_t internal_off;       /* where the internal part starts (the user part's size) */
    int heap_fd;
    unsigned char *reach;      /* reach[pe]: SYMM_REACH_WINDOW or SYMM_REACH_NET */
    symm_alloc_t alloc;
    uint64_t alloc_seq;        /* collective allocation calls so far */
    size_t prefaulted;         /* heap offset below which peers' pages are mapped */

    /* Data window (globals and statics). */
    char *data_lo;             /* my segment */
    size_t data_len;
    char *data_win;
    size_t data_stride;

    uint64_t slots_used;       /* team slots this PE has in use */
    symm_team_t *slot_team[SYMM_TEAM_SLOTS]; /* the live team of each slot in use */
    uint32_t epoch_hwm;        /* highest barrier or collective epoch this PE has used */
    uint32_t team_uids;        /* team unique ids this PE has made */
    int gpu_queued;            /* host copies to device heaps wait for the next quiet */
    long spin_ns;              /* how long a wait spins before yielding */
    int yields;
} symm_state_t;

extern symm_state_t symm_g;

SYMM_INLINE symm_internal_t *symm_internal(int pe)
{
    return (symm_internal_t *)(symm_g.heap_win + (size_t)pe * symm_g.stride + symm_g.internal_off);
}

/* A new context of team (options checked; 1 and SHMEM_CTX_INVALID when out of memory). */
int symm_ctx_create(const char *call, long options, struct symm_team *team, shmem_ctx_t *ctx);

/* The world number of PE `pe` of a context's team: a context made from a team numbers PEs in
 * that team. */
SYMM_INLINE int symm_ctx_pe(shmem_ctx_t ctx, int pe, const char *call)
{
    extern void symm_ctx_pe_bad(shmem_ctx_t ctx, int pe, const char *call)
        __attribute__((noreturn));
    const symm_team_t *t = ctx->team;

    if (SYMM_LIKELY(t == &symm_team_world))
        return pe;
    if (SYMM_UNLIKELY((unsigned)pe >= (unsigned)t->size))
        symm_ctx_pe_bad(ctx, pe, call);
    return t->start + pe * t->stride;
}

/* The slot of team t on the team's PE idx. */
SYMM_INLINE symm_slot_t *symm_slot(const symm_team_t *t, int idx)
{
    return &symm_internal(symm_team_pe(t, idx))->slot[t->slot];
}

/* Address of addr on pe when addr lies in the user part of this PE's heap, else NULL: the
 * library's internal part is not user memory, and a stray put there is reported. */
SYMM_INLINE char *symm_heap_xlate(const void *addr, size_t len, int pe)
{
    uintptr_t off = (uintptr_t)addr - (uintptr_t)symm_g.heap_base;

    if (SYMM_LIKELY(off < symm_g.internal_off && len <= symm_g.internal_off - off))
        return symm_g.heap_win + (size_t)pe * symm_g.stride + off;
    return NULL;
}

SYMM_INLINE char *symm_data_xlate(const void *addr, size_t len, int pe)
{
    uintptr_t off = (uintptr_t)addr - (uintptr_t)symm_g.data_lo;

    if (off < symm_g.data_len && len <= symm_g.data_len - off)
        return pe == symm_g.my_pe ? (char *)addr
                                  : symm_g.data_win + (size_t)pe * symm_g.data_stride + off;
    return NULL;
}

/* Translates a symmetric address, or NULL when addr is not symmetric or pe is unreachable. */
SYMM_INLINE char *symm_xlate(const void *addr, size_t len, int pe)
{
    char *p = symm_heap_xlate(addr, len, pe);

    if (SYMM_LIKELY(p != NULL))
        return p;
    return symm_data_xlate(addr, len, pe);
}

/* Host-heap address of addr on pe, or NULL (pe outside this node's PEs, or addr not in the host
 * heap). The PEs of a node are consecutive, so one compare tells both that pe is in range and
 * that the window reaches it, as cheap as the range check alone. */
SYMM_INLINE char *symm_xlate_fast(const void *addr, size_t len, int pe)
{
    if (SYMM_LIKELY((unsigned)(pe - symm_g.win_first) < (unsigned)symm_g.win_n))
        return symm_heap_xlate(addr, len, pe);
    return NULL;
}

/* ---- Errors (log.c) ---------------------------------------------------------------------
 * symm_fatal prints "symm: [pe N host pid] <message>" and brings the whole job down. */
void symm_fatal(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void symm_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void symm_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Fails with "call: called before shmem_init" unless the library is initialised. */
void symm_check_init(const char *call);
/* shmem_ptr's answer for a pe in range: the address of addr on pe through the window (host or
 * device heap, data segment), or NULL. */
void *symm_ptr(const void *addr, int pe);
/* Translation with argument checks for RMA and AMO entry points; fatal on a bad argument. */
char *symm_xlate_slow(const char *call, const void *addr, size_t len, int pe);

SYMM_INLINE char *symm_xlate_checked(const char *call, const void *addr, size_t len, int pe)
{
    char *p = symm_xlate_fast(addr, len, pe);

    return SYMM_LIKELY(p != NULL) ? p : symm_xlate_slow(call, addr, len, pe);
}
/* ---- Routes (route.c): what the inline fast paths do not serve ------------------------------
 * The RMA copies that the fast path does not serve: globals, device heaps, PEs of other nodes,
 * bad arguments. A put's dest is symmetric on pe, a get's src; the _nbi kinds may leave a copy
 * queued until the next quiet. Nothing to do for n == 0. */
enum { SYMM_GET = 0, SYMM_PUT = 1, SYMM_GET_NBI = 2, SYMM_PUT_NBI = 3 };
void symm_rma_slow(shmem_ctx_t ctx, const char *call, void *dest, const void *src, size_t n,
                   int pe, int kind);
/* The target of an AMO of `size` bytes at addr on pe that the fast path missed: its window
 * address (data segment), or NULL when pe is on another node (use symm_amo_net); fatal for a
 * bad argument. */
void *symm_amo_target(const char *call, const void *addr, size_t size, int pe);
/* An AMO on pe's word at (this PE's) symmetric address addr over the network; op is a
 * symm_amo_op_t (tl/tl.h). Returns the old value when fetch is set. */
uint64_t symm_amo_net(shmem_ctx_t ctx, const char *call, int op, const void *addr, size_t size,
                      uint64_t value, uint64_t cond, int pe, int fetch);
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
uint64_t symm_peer_amo(int op, const void *addr, size_t size, uint64_t value, int pe, int fetch);
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

/* ---- Start and end (api/init.c) -------------------------------------------------------- */
void symm_init(const char *call, int requested);
void symm_finalize(void);

/* ---- Heap (heap.c) ---------------------------------------------------------------------- */
/* Before the bootstrap: sizes the heap, shares the data segment, fills the card's part. */
void symm_heap_card(symm_card_t *card);
symm_status_t symm_heap_init(void);
void symm_heap_fini(void);
/* Backs [from, to) of the heap on this PE (peers 0, before an allocation's barrier) or maps
 * the peers' pages (peers 1, after it). */
void symm_heap_prefault(size_t from, size_t to, int peers);
/* ---- Collective allocation (coll/heap.c) ------------------------------------------------- */
void *symm_heap_malloc(const char *call, size_t size, size_t align);
void symm_heap_free(const char *call, void *ptr);
void *symm_heap_realloc(const char *call, void *ptr, size_t size);
/* The agreement step of every collective allocation (host or device heap): publishes
 * (size, align, result), runs a barrier, checks every PE's record (fatal on a mismatch) and
 * returns the first PE whose result is negative, or -1. */
int symm_heap_agree(const char *call, uint64_t size, uint64_t align, int64_t result);

/* ---- Data segment (dataseg.c) ---------------------------------------------------------- */
/* Re-backs the program's writable data with a shareable file; fd is -1 when not possible. */
symm_status_t symm_dataseg_share(int *fd, char **lo, size_t *len);
symm_status_t symm_dataseg_map_peers(const int *fds, const size_t *lens);
void symm_dataseg_fini(void);

/* ---- Teams (team.c; splits in coll/team.c) ---------------------------------------------- */
void symm_team_init(void);
int symm_team_predefined(const symm_team_t *t); /* world, shared, same place in the node */
/* Whether t's members are groups of `per` consecutive members, one group a node. */
int symm_team_node_blocks(const symm_team_t *t, int per);
/* Makes *t the team of world PEs start + i * stride, i < size, this PE being member me. */
void symm_team_set(symm_team_t *t, int start, int stride, int size, int me, int slot,
                   const char *name);
/* The team behind a handle (symm's, or SHMEMX_TEAM_OF_INDEX of an index), or fatal
 * ("call(team=...): invalid/destroyed team"). */
symm_team_t *symm_team_get(shmem_team_t team, const char *call);
/* The team's index (shmemx_team_index). */
int symm_team_index(const symm_team_t *t);

/* ---- Synchronisation (sync/) ------------------------------------------------------------- */
void symm_barrier_world(void);
/* Barrier of a team: with quiet (barrier) or without (sync) is the caller's business. */
void symm_team_barrier(symm_team_t *t);
/* Wakes the team's members on this node (but this PE) that may sleep waiting on w, a word of
 * this PE's that they read through the window. */
void symm_team_wake_node(symm_team_t *t, _Atomic uint32_t *w);
/* Before the bootstrap: the card's CPUs. */
void symm_wait_card(symm_card_t *card);
void symm_wait_init(void);
/* Where a pointer into this process's windows points: (PE, symmetric offset); offsets in the
 * data segment carry SYMM_DATA_OFF. pe -1 when it is in neither. */
#define SYMM_DATA_OFF (1ULL << 62)
void symm_locate(const void *p, int *pe, uint64_t *off);
void symm_wake_slow(int pe, const void *p, size_t len);

/* After writing len bytes at p (a window address of object owner `owner`'s memory), wakes PE
 * pe if it sleeps waiting on them. The sleeper publishes its sleep before re-checking its
 * condition; this check follows the write; both sequentially consistent, so no wake-up is
 * lost. */
SYMM_INLINE void symm_wake(int pe, const void *p, size_t len)
{
    symm_internal_t *in = symm_internal(pe);

    if (SYMM_UNLIKELY(atomic_load_explicit(&in->sleepers.v, memory_order_seq_cst) != 0))
        symm_wake_slow(pe, p, len);
}
/* Relaxed form for plain puts: no fence between the data and the check, so a sleeper may miss
 * it and wake at the end of its bounded sleep instead. */
SYMM_INLINE void symm_wake_hint(int pe, const void *p, size_t len)
{
    symm_internal_t *in = symm_internal(pe);

    if (SYMM_UNLIKELY(atomic_load_explicit(&in->sleepers.v, memory_order_relaxed) != 0))
        symm_wake_slow(pe, p, len);
}
/* Sleeps until word changes from `seen` or a bounded time passes. */
void symm_wait_sleep(_Atomic uint32_t *word, uint32_t seen);
void symm_futex_wake(void *word);
/* Waits until ready(arg) is true: spins, yields, then sleeps on this PE's doorbell, watching
 * the len bytes at p (a window address; NULL: anything). */
void symm_wait_for(int (*ready)(const void *arg), const void *arg, const void *p, size_t len);
/* Waits until *w - target >= 0 (wrapping compare). */
void symm_wait_reach(_Atomic uint32_t *w, uint32_t target);

#endif
