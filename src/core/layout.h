/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The internal part of every heap (library state that peers reach, at the same offset on every
 * PE): the sleep/wake words, the allocation records, the team slots, the team ids' meeting
 * records.
 */
#ifndef SYMM_CORE_LAYOUT_H
#define SYMM_CORE_LAYOUT_H

#include <stdatomic.h>
#include <stdint.h>
#include "base/base.h"

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
/* Members of a team whose CPU and barrier epoch its PE 0 keeps side by side (mate[k][i], k one
 * of SYMM_MATE_CPU, SYMM_MATE_ARRIVED). */
#define SYMM_MATES 512
#define SYMM_MATE_CPU 0
#define SYMM_MATE_ARRIVED 1
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
    /* With more PEs than CPUs, in a team of more than SYMM_MATES members: the CPU this PE ran
     * on when it last entered a collective or a barrier, and the epoch of the last barrier it
     * arrived at (smaller teams keep them on the team's PE 0, in `mate`). */
    symm_word_t cpu;
    symm_word_t arrived;
    /* Teams that span nodes, on a node's first member: the barrier epoch of the last
     * collective whose parts from other nodes it fetched for the node's other members. */
    symm_word_t relay;
    /* Teams that span nodes: the parts other members pushed to this PE so far (small
     * collectives); the team's `landed` is how many it has taken. */
    symm_word_t landed;
    /* With more PEs than CPUs, on the team's PE 0 of a team of at most SYMM_MATES members:
     * each member's CPU and last barrier epoch as above, side by side, so that a wait beside
     * CPU-mates reads pages of this PE's, not a page of every member's. The CPUs, which
     * rarely change, apart from the epochs, which every barrier writes. */
    _Atomic uint32_t mate[2][SYMM_MATES] __attribute__((aligned(SYMM_CACHELINE)));
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
    /* Teams made from a unique id (coll/split.c): where the members of each id this PE made
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

#endif
