/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * MoE dispatch and combine for CPU PEs (float), over the layouts of symm/ep.h. Experts are
 * spread evenly: PE p holds experts p * local .. (p + 1) * local - 1.
 *
 * dispatch: every PE exchanges its per-destination counts (tokens per channel, rows per
 * expert), then sends each token once to every PE that holds one of its experts, into the
 * receive slot of the token's channel (a channel is a contiguous range of tokens), with one
 * signal per channel and destination. The receiver gets the rows grouped by its local
 * experts, each with its source PE, source index and gate weight.
 * combine: each PE sums, per received token, its experts' outputs times their gate weights,
 * and sends that partial back into the channel's slot on the source PE, which adds the
 * partials of all destinations in the tokens' original order.
 *
 * Inside a node a sender stores straight into the peer's slot through the view; to other
 * nodes (or with `symmetric` set) it stages in its send half and puts with a signal. Both are
 * collective: every PE calls them the same number of times, in the same order.
 */
#ifndef MOE_CPU_H
#define MOE_CPU_H

#include <stdint.h>

#include <symm/ep.h>

typedef struct moe_buffer {
    int max_tokens, hidden, experts, topk, channels;
    int n, me, local;          /* PEs, this PE, experts per PE */
    int per_pe;                /* ints of the count exchange per PE: channels * (1 + local) */
    size_t rec;                /* bytes of one dispatched token */
    int symmetric;             /* every send through the send half and a put */
    int32_t *cnt_send;         /* n x per_pe: what this PE sends each PE */
    int32_t *cnt_recv;         /* n x per_pe: what each PE sends this PE */
    shmemx_ep_chan_t disp;     /* tokens out */
    shmemx_ep_chan_t comb;     /* partial outputs back */
    shmemx_ep_view_t view;
    void *block;
    uint64_t disp_epoch, comb_epoch;
} moe_buffer_t;

/* What a dispatch hands this PE, and what its combine needs. */
typedef struct moe_recv {
    int rows;                  /* rows received, all experts */
    float *x;                  /* rows x hidden, grouped by local expert */
    int *expert_off;           /* local + 1: rows of local expert el start at expert_off[el] */
    int *src_pe, *src_idx;     /* per row: where its token came from */
    float *weight;             /* per row: the gate weight of the row's expert */
    /* For combine. Receiver: tokens received from (s, c), and each received token's row per
     * k (-1: an expert elsewhere). Sender: tokens sent to (c, d) and which, in order. */
    int tokens, rtok;
    int *rcount, *rows_of;
    int *scount, *soff, *sidx;
} moe_recv_t;

/* Collective. Returns 0, or -1 on every PE when the heap is too small. */
int moe_buffer_init(moe_buffer_t *b, int max_tokens, int hidden, int experts, int topk,
                    int channels, int symmetric);
void moe_buffer_fini(moe_buffer_t *b);

/* x: tokens x hidden; topk_idx, topk_weight: tokens x topk (an index -1 is no expert). */
void moe_dispatch(moe_buffer_t *b, int tokens, const float *x, const int *topk_idx,
                  const float *topk_weight, moe_recv_t *r);
/* y: r->rows x hidden, the experts' outputs in the rows' order; out: tokens x hidden. */
void moe_combine(moe_buffer_t *b, const float *y, const moe_recv_t *r, float *out);
void moe_recv_free(moe_recv_t *r);

#endif
