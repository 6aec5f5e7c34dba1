/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The process-wide state of a PE (symm_g): who it is, its node and its peers', its windows and
 * the slots of its teams. Its neighbours by concern: the internal part of the heaps
 * (core/layout.h), teams (core/team.h), contexts (core/ctx.h), the inline fast paths of the
 * window (core/fastpath.h), routes (core/route.h), waking (core/wake.h), errors and the
 * logger (core/log.h), copies (core/copy.h), the data segment (core/dataseg.h); core/core.h
 * gathers them.
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
#include "base/base.h"
#include "boot/boot.h"
#include "core/alloc.h"
#include "core/layout.h"
#include "base/params.h"
#include "core/team.h"

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

/* The slot of team t on the team's PE idx. */
SYMM_INLINE symm_slot_t *symm_slot(const symm_team_t *t, int idx)
{
    return &symm_internal(symm_team_pe(t, idx))->slot[t->slot];
}

#endif
