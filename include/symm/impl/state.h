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
#define SYMM_DEV_ABI 1

/* Most PEs of one GPU job (flag arrays are sized by it). */
#define SYMM_DEV_MAX_PES 128
/* Most blocks ("channels") one collective kernel spreads over. */
#define SYMM_DEV_CHANNELS 32
/* Bytes of one collective scratch buffer; there are two, used by epoch parity. */
#define SYMM_DEV_SCRATCH (1u << 20)
/* Bytes at the start of every device heap reserved for the library (three 2 MiB granules). */
#define SYMM_DEV_INTERNAL_SIZE (6u << 20)

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
#define SYMM_DEV_ERR_TEAM 5     /* team other than the world team */
#define SYMM_DEV_ERR_ARG 6      /* other bad argument (cmp, sig_op, root) */

typedef struct symm_dev_state {
    char *win;                /* device window: slot of PE 0 */
    char *base;               /* this PE's slot */
    unsigned long long stride; /* bytes between slots */
    unsigned long long size;  /* bytes of a device heap, internal part included */
    symm_dev_err_t *err;      /* host-mapped error record */
    void *team_world;         /* the host's SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED handles */
    void *team_shared;
    int my_pe;
    int n_pes;
    int abi;                  /* SYMM_DEV_ABI once the state is set, 0 before */
    int pad;
} symm_dev_state_t;

/* One word a 128-byte line: flags polled by one PE and written by another stay apart. */
typedef struct symm_dev_line {
    unsigned long long v;
    unsigned long long pad[15];
} symm_dev_line_t;

typedef struct symm_dev_internal {
    /* Barriers of the world so far, and collectives so far per channel (this PE only). */
    symm_dev_line_t bar_epoch;
    symm_dev_line_t coll_epoch[SYMM_DEV_CHANNELS];
    /* bar[src]: the barrier epoch PE src reached. */
    unsigned long long bar[SYMM_DEV_MAX_PES];
    /* ready[ch][src]: PE src entered collective epoch (its buffers are ready); done[ch][src]:
     * PE src delivered its part of that collective to this PE. */
    unsigned long long ready[SYMM_DEV_CHANNELS][SYMM_DEV_MAX_PES];
    unsigned long long done[SYMM_DEV_CHANNELS][SYMM_DEV_MAX_PES];
    /* Small collectives: peers push their parts here, into buffer (epoch & 1); the second half
     * of a buffer is this PE's staging. Block-scope collectives count epochs in coll_epoch[0];
     * the library's stream kernels, whose many blocks cannot share a device counter, take
     * theirs from the host (one count per PE, the same on every PE) and use stream_scratch. */
    char scratch[2][SYMM_DEV_SCRATCH] __attribute__((aligned(256)));
    char stream_scratch[2][SYMM_DEV_SCRATCH] __attribute__((aligned(256)));
} symm_dev_internal_t;

#ifdef __cplusplus
static_assert(sizeof(symm_dev_internal_t) <= SYMM_DEV_INTERNAL_SIZE, "internal part too large");
#else
_Static_assert(sizeof(symm_dev_internal_t) <= SYMM_DEV_INTERNAL_SIZE, "internal part too large");
#endif

#endif
