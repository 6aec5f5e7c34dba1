/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * What the host library and device code share about a GPU PE: the device state (a few words
 * the library writes into constant memory of every module that uses the device API) and the
 * layout of the internal part at the start of every device heap, where the library's own
 * synchronisation lives at the same offset on every PE. Plain C, so that the host library
 * (C11) and device code (CUDA C++) read one definition.
 *
 * The internal part holds counters that only this PE's kernels touch (epochs) and flag arrays
 * that peers write, indexed by the writing PE: a PE never shares a word with another writer,
 * so every flag is a plain store of a growing epoch and no atomic read-modify-write crosses
 * NVLink in a barrier or collective.
 */
#ifndef SYMM_IMPL_STATE_H
#define SYMM_IMPL_STATE_H

/* Bump when symm_dev_state_t or symm_dev_internal_t change: a module compiled against another
 * layout is refused at registration. */
#define SYMM_DEV_ABI 4

/* Most PEs of one GPU job (flag arrays are sized by it). */
#define SYMM_DEV_MAX_PES 128
/* Most blocks ("channels") one collective kernel spreads over: on the world, and on a split
 * team. */
#define SYMM_DEV_CHANNELS 32
#define SYMM_DEV_TEAM_CHANNELS 32
/* Team slots (the host's: SHMEM_TEAM_WORLD has slot 0, SHMEM_TEAM_SHARED slot 1), and the
 * entries of the table that finds a team's slot from its handle (twice as many, so that a
 * lookup ends at an empty entry after a probe or two). */
#define SYMM_DEV_TEAMS 64
#define SYMM_DEV_TEAM_TABLE 128
/* Bytes of one collective scratch buffer; there are two, used by epoch parity. The world's
 * block collectives and the stream kernels have SYMM_DEV_SCRATCH each; every other team slot
 * SYMM_DEV_TEAM_SCRATCH. */
#define SYMM_DEV_SCRATCH (1u << 20)
#define SYMM_DEV_TEAM_SCRATCH (32u << 10)
/* Bytes at the start of every device heap reserved for the library (seven 2 MiB granules). */
#define SYMM_DEV_INTERNAL_SIZE (14u << 20)

/* Written by a device check that fails, into host memory the device can write: the host
 * formats the message when the failed kernel surfaces as a CUDA error. */
typedef struct symm_dev_err {
    volatile int set;        /* 0, then 1 once a kernel filled the record */
    int what;                /* SYMM_DEV_ERR_* */
    int pe;
    int n_pes;
    unsigned long long addr;
    unsigned long long bytes;
    char call[48];
} symm_dev_err_t;

#define SYMM_DEV_ERR_PE 1       /* pe out of range */
#define SYMM_DEV_ERR_ADDR 2     /* address outside the device heap */
#define SYMM_DEV_ERR_INIT 3     /* device state not set: used before shmem_init / GPU start */
#define SYMM_DEV_ERR_ALIGN 4    /* misaligned signal or atomic address */
#define SYMM_DEV_ERR_TEAM 5     /* not a live team on this PE */
#define SYMM_DEV_ERR_ARG 6      /* other bad argument (cmp, sig_op, root) */
#define SYMM_DEV_ERR_FAR 7      /* a PE of another node where only this node's are reached */

typedef struct symm_dev_state {
    char *win;                /* device window: slot of PE 0 */
    char *base;               /* this PE's slot */
    unsigned long long stride; /* bytes between slots */
    unsigned long long size;  /* bytes of a slot that symmetric addresses name: the device */
                              /* heap (internal part included) and the registered buffers */
    symm_dev_err_t *err;      /* host-mapped error record */
    void *team_world;         /* the host's SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED handles */
    void *team_shared;
    struct symm_px_ring *ring; /* the proxy's request ring (host memory mapped for the device), */
    unsigned long long *ring_head; /* and its producers' counter (device memory); NULL when */
                              /* every PE is on this node */
    int my_pe;
    int n_pes;
    int node_first;           /* the PEs whose heaps the window maps: this node's, */
    int node_count;           /* [node_first, node_first + node_count); the others: the proxy */
    int abi;                  /* SYMM_DEV_ABI once the state is set, 0 before */
    int pad;
} symm_dev_state_t;

/* One word a 128-byte line: flags polled by one PE and written by another stay apart. */
typedef struct symm_dev_line {
    unsigned long long v;
    unsigned long long pad[15];
} symm_dev_line_t;

/* Where the entry of handle h starts its probe in the team table: the top bits of a
 * multiplicative hash (host and device compute it alike). */
#define SYMM_DEV_TEAM_HASH(h)                                                                    \
    ((unsigned)((((unsigned long long)(h) >> 4) * 0x9E3779B97F4A7C15ull) >> 57))

/* A team as this PE's kernels see it: the host's handle on this PE (0: a free entry, 1: a
 * removed one) and the team's members, world PEs start + i * stride for i in [0, size). */
typedef struct symm_dev_team {
    unsigned long long handle;
    int slot;
    int start;
    int stride;
    int size;
    int me;
    int pad;
} symm_dev_team_t;

/* A team as one call sees it: its slot and members (world PEs start + i * stride, i in
 * [0, size)), and the caller's index. */
typedef struct symm_dev_tv {
    int slot;
    int start;
    int stride;
    int size;
    int me;
} symm_dev_tv_t;

typedef struct symm_dev_internal {
    /* The teams this PE belongs to, by handle (open addressing from a hash of the handle);
     * written by the host when a team is created or destroyed, read by kernels. */
    symm_dev_team_t teams[SYMM_DEV_TEAM_TABLE];
    /* Barriers and block-scope collectives so far, per team slot; collectives so far per
     * channel of the stream kernels (world). This PE only. */
    unsigned long long bar_epoch[SYMM_DEV_TEAMS];
    unsigned long long coll_epoch[SYMM_DEV_TEAMS];
    symm_dev_line_t chan_epoch[SYMM_DEV_CHANNELS];
    /* bar[slot][i]: the barrier epoch team member i reached. tready/tdone: as ready/done for
     * the block-scope collectives of the team in that slot, by member index. */
    unsigned long long bar[SYMM_DEV_TEAMS][SYMM_DEV_MAX_PES];
    unsigned long long tready[SYMM_DEV_TEAMS][SYMM_DEV_MAX_PES];
    unsigned long long tdone[SYMM_DEV_TEAMS][SYMM_DEV_MAX_PES];
    /* Stream kernels: ready[ch][src]: PE src entered collective epoch (its buffers are ready);
     * done[ch][src]: PE src delivered its part of that collective to this PE. The same for the
     * channels of a split team's stream kernels, by slot and member index, with their epoch
     * counts. */
    unsigned long long ready[SYMM_DEV_CHANNELS][SYMM_DEV_MAX_PES];
    unsigned long long done[SYMM_DEV_CHANNELS][SYMM_DEV_MAX_PES];
    unsigned long long tch_epoch[SYMM_DEV_TEAMS][SYMM_DEV_TEAM_CHANNELS];
    unsigned long long tch_ready[SYMM_DEV_TEAMS][SYMM_DEV_TEAM_CHANNELS][SYMM_DEV_MAX_PES];
    unsigned long long tch_done[SYMM_DEV_TEAMS][SYMM_DEV_TEAM_CHANNELS][SYMM_DEV_MAX_PES];
    /* Small collectives: peers push their parts here, into buffer (epoch & 1); the second half
     * of a buffer is this PE's staging. scratch: the world's block-scope collectives;
     * stream_scratch: the library's stream kernels, whose many blocks cannot share a device
     * counter and take their epochs from the host (one count per PE, the same on every PE);
     * team_scratch[slot]: the block-scope collectives of the other teams. */
    char scratch[2][SYMM_DEV_SCRATCH] __attribute__((aligned(256)));
    char stream_scratch[2][SYMM_DEV_SCRATCH] __attribute__((aligned(256)));
    char team_scratch[SYMM_DEV_TEAMS][2][SYMM_DEV_TEAM_SCRATCH] __attribute__((aligned(256)));
} symm_dev_internal_t;

#ifdef __cplusplus
static_assert(sizeof(symm_dev_internal_t) <= SYMM_DEV_INTERNAL_SIZE, "internal part too large");
#else
_Static_assert(sizeof(symm_dev_internal_t) <= SYMM_DEV_INTERNAL_SIZE, "internal part too large");
#endif

#endif
