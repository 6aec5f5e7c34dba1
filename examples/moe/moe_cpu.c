/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * MoE dispatch and combine on CPU PEs (moe_cpu.h). One symmetric block, carved by symm/ep.h:
 * the count exchange's two arrays, the dispatch channel buffer, the combine channel buffer.
 *
 * A dispatched token is one record: its index on the source, its topk experts and weights,
 * then its hidden vector; a combined one is a hidden vector of partial sums, in the order the
 * tokens were dispatched (both sides know it).
 *
 * Reuse without barriers: signals carry the round's number (every PE counts its dispatches
 * and its combines), and a slot is written again only when its reader has moved on. Dispatch
 * starts with the count exchange, a collective: when it returns on a PE, every PE has entered
 * this dispatch, so it has finished reading the dispatch slots of the last one, and (as a PE
 * dispatches only after its combine) the combine slots of the last combine.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shmem.h>
#include <shmemx.h>

#include "moe_cpu.h"

static size_t round16(size_t v)
{
    return (v + 15) & ~(size_t)15;
}

/* A record's head: source index, topk experts, topk weights. */
static size_t head_bytes(int topk)
{
    return round16(sizeof(int32_t) + (size_t)topk * (sizeof(int32_t) + sizeof(float)));
}

static void die(const moe_buffer_t *b, const char *call, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));

static void die(const moe_buffer_t *b, const char *call, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    fprintf(stderr, "moe: [pe %d] %s: %s\n", b->me, call, msg);
    fflush(stderr);
    shmem_global_exit(1);
    exit(1);
}

static void *xcalloc(const moe_buffer_t *b, size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);

    if (p == NULL)
        die(b, "moe", "out of memory (%zu x %zu bytes)", n, size);
    return p;
}

/* The regions, in the same order on every PE (measured first, then carved in the block). */
static void carve(shmemx_ep_cursor_t *c, moe_buffer_t *b)
{
    size_t counts = (size_t)b->n * (size_t)b->per_pe * sizeof(int32_t);
    size_t cap = ((size_t)b->max_tokens + (size_t)b->channels - 1) / (size_t)b->channels;

    b->cnt_send = shmemx_ep_carve(c, counts, SHMEMX_EP_ALIGN);
    b->cnt_recv = shmemx_ep_carve(c, counts, SHMEMX_EP_ALIGN);
    b->disp = shmemx_ep_chan(c, b->channels, b->n, b->me, cap * b->rec, SHMEMX_EP_SEND);
    b->comb = shmemx_ep_chan(c, b->channels, b->n, b->me,
                             cap * (size_t)b->hidden * sizeof(float), SHMEMX_EP_SEND);
}

int moe_buffer_init(moe_buffer_t *b, int max_tokens, int hidden, int experts, int topk,
                    int channels, int symmetric)
{
    shmemx_ep_cursor_t c;
    size_t size;

    memset(b, 0, sizeof(*b));
    b->max_tokens = max_tokens;
    b->hidden = hidden;
    b->experts = experts;
    b->topk = topk;
    b->channels = channels;
    b->symmetric = symmetric;
    b->n = shmem_n_pes();
    b->me = shmem_my_pe();
    b->local = experts / b->n;
    b->per_pe = channels * (1 + b->local);
    b->rec = head_bytes(topk) + round16((size_t)hidden * sizeof(float));
    c = shmemx_ep_cursor(NULL, 0);
    carve(&c, b);
    b->block = shmemx_ep_malloc(&c, 0);
    if (b->block == NULL)
        return -1;
    size = c.used;
    c = shmemx_ep_cursor(b->block, size);
    carve(&c, b);
    shmemx_ep_check("moe_buffer_init", &c);
    shmemx_ep_view_init(&b->view, b->block, size);
    /* Signals start below every round's number; no peer signals before the barrier. */
    memset(b->disp.sig, 0, (size_t)channels * (size_t)b->n * sizeof(uint64_t));
    memset(b->comb.sig, 0, (size_t)channels * (size_t)b->n * sizeof(uint64_t));
    shmem_barrier_all();
    return 0;
}

void moe_buffer_fini(moe_buffer_t *b)
{
    shmem_free(b->block);
    b->block = NULL;
}

void moe_recv_free(moe_recv_t *r)
{
    free(r->x);
    free(r->expert_off);
    free(r->src_pe);
    free(r->src_idx);
    free(r->weight);
    free(r->rcount);
    free(r->rows_of);
    free(r->scount);
    free(r->soff);
    free(r->sidx);
    memset(r, 0, sizeof(*r));
}

/* The tokens of channel c: [chan_first(c), chan_first(c + 1)). At most ceil(tokens / channels),
 * so a slot of ceil(max_tokens / channels) records holds them. */
static int chan_first(int tokens, int channels, int c)
{
    return (int)((long)tokens * c / channels);
}

/* The slot ch of `chan` that this PE fills on pe: in the peer's memory through the view, or,
 * when the view does not reach pe (another node) or `symmetric` is set, its own send slot. */
static char *slot_for(const moe_buffer_t *b, const shmemx_ep_chan_t *chan, int ch, int pe,
                      int *direct)
{
    char *p = b->symmetric ? NULL
                           : (char *)shmemx_ep_peer(&b->view, shmemx_ep_remote_slot(chan, ch), pe);

    *direct = p != NULL;
    return p ? p : (char *)shmemx_ep_send_slot(chan, ch, pe);
}

/* Publishes `bytes` written into slot ch for pe: a signal after the stores, or a put of the
 * staged bytes with the signal. Signals carry the round. */
static void post(const shmemx_ep_chan_t *chan, int ch, int pe, int direct, const void *staged,
                 size_t bytes, uint64_t round)
{
    if (direct) {
        atomic_thread_fence(memory_order_release);
        shmem_signal_set(shmemx_ep_remote_signal(chan, ch), round, pe);
    } else {
        shmem_putmem_signal(shmemx_ep_remote_slot(chan, ch), staged, bytes,
                            shmemx_ep_remote_signal(chan, ch), round, SHMEM_SIGNAL_SET, pe);
    }
}

/* Waits until slot ch of `chan` from pe holds this round's data, and returns it. */
static const void *arrived(const shmemx_ep_chan_t *chan, int ch, int pe, uint64_t round)
{
    shmem_signal_wait_until(shmemx_ep_signal(chan, ch, pe), SHMEM_CMP_GE, round);
    return shmemx_ep_recv_slot(chan, ch, pe);
}

/* Counts what goes where: the count exchange's row for every PE, and the sender's list of
 * tokens per (channel, destination). */
static void count(moe_buffer_t *b, int tokens, const int *topk_idx, moe_recv_t *r)
{
    const int n = b->n, C = b->channels, K = b->topk, L = b->local;
    int *fill = xcalloc(b, (size_t)C * n, sizeof(int));
    unsigned char *to = xcalloc(b, (size_t)n, 1);

    memset(b->cnt_send, 0, (size_t)n * b->per_pe * sizeof(int32_t));
    r->scount = xcalloc(b, (size_t)C * n, sizeof(int));
    r->soff = xcalloc(b, (size_t)C * n + 1, sizeof(int));
    for (int pass = 0; pass < 2; pass++) {
        for (int c = 0; c < C; c++) {
            for (int t = chan_first(tokens, C, c); t < chan_first(tokens, C, c + 1); t++) {
                memset(to, 0, (size_t)n);
                for (int k = 0; k < K; k++) {
                    int e = topk_idx[(size_t)t * K + k];
                    if (e < 0)
                        continue;
                    to[e / L] = 1;
                    if (pass == 0)
                        b->cnt_send[(e / L) * b->per_pe + C + c * L + e % L]++;
                }
                for (int d = 0; d < n; d++) {
                    if (!to[d])
                        continue;
                    if (pass == 1) {
                        r->sidx[r->soff[c * n + d] + fill[c * n + d]++] = t;
                        continue;
                    }
                    b->cnt_send[d * b->per_pe + c]++;
                    r->scount[c * n + d]++;
                }
            }
        }
        if (pass == 0) {
            for (int i = 0; i < C * n; i++)
                r->soff[i + 1] = r->soff[i] + r->scount[i];
            r->sidx = xcalloc(b, (size_t)r->soff[C * n], sizeof(int));
        }
    }
    free(fill);
    free(to);
}

static void send_tokens(moe_buffer_t *b, const float *x, const int *topk_idx,
                        const float *topk_weight, const moe_recv_t *r)
{
    const int n = b->n, C = b->channels, K = b->topk;
    const size_t head = head_bytes(K), row = (size_t)b->hidden * sizeof(float);

    for (int c = 0; c < C; c++) {
        for (int i = 1; i <= n; i++) {
            int d = (b->me + i) % n, cnt = r->scount[c * n + d], direct;
            if (cnt == 0)
                continue;
            char *slot = slot_for(b, &b->disp, c, d, &direct);
            for (int j = 0; j < cnt; j++) {
                int t = r->sidx[r->soff[c * n + d] + j];
                char *rec = slot + (size_t)j * b->rec;
                int32_t src = t;
                memcpy(rec, &src, sizeof(src));
                memcpy(rec + sizeof(int32_t), topk_idx + (size_t)t * K, K * sizeof(int32_t));
                memcpy(rec + sizeof(int32_t) * (1 + K), topk_weight + (size_t)t * K,
                       K * sizeof(float));
                memcpy(rec + head, x + (size_t)t * b->hidden, row);
            }
            post(&b->disp, c, d, direct, slot, (size_t)cnt * b->rec, b->disp_epoch);
        }
    }
}

/* Lays out the rows from the counts, waits for each (source, channel) and unpacks it: rows of
 * expert el in the order (source, channel, token), which is (source, token). */
static void receive_tokens(moe_buffer_t *b, moe_recv_t *r)
{
    const char *call = "moe_dispatch";
    const int n = b->n, C = b->channels, K = b->topk, L = b->local, H = b->hidden;
    const size_t head = head_bytes(K);
    int *next, g = 0;

    r->expert_off = xcalloc(b, (size_t)L + 1, sizeof(int));
    r->rcount = xcalloc(b, (size_t)n * C, sizeof(int));
    for (int s = 0; s < n; s++) {
        const int32_t *cnt = b->cnt_recv + (size_t)s * b->per_pe;
        for (int c = 0; c < C; c++) {
            r->rcount[s * C + c] = cnt[c];
            r->rtok += cnt[c];
            for (int el = 0; el < L; el++)
                r->expert_off[el + 1] += cnt[C + c * L + el];
        }
    }
    for (int el = 0; el < L; el++)
        r->expert_off[el + 1] += r->expert_off[el];
    r->rows = r->expert_off[L];
    r->x = xcalloc(b, (size_t)r->rows * H, sizeof(float));
    r->src_pe = xcalloc(b, (size_t)r->rows, sizeof(int));
    r->src_idx = xcalloc(b, (size_t)r->rows, sizeof(int));
    r->weight = xcalloc(b, (size_t)r->rows, sizeof(float));
    r->rows_of = xcalloc(b, (size_t)r->rtok * K, sizeof(int));
    next = xcalloc(b, (size_t)L, sizeof(int));
    memcpy(next, r->expert_off, (size_t)L * sizeof(int));
    for (int s = 0; s < n; s++) {
        for (int c = 0; c < C; c++) {
            int cnt = r->rcount[s * C + c];
            if (cnt == 0)
                continue;
            const char *slot = arrived(&b->disp, c, s, b->disp_epoch);
            for (int j = 0; j < cnt; j++, g++) {
                const char *rec = slot + (size_t)j * b->rec;
                int32_t src, e;
                float w;
                memcpy(&src, rec, sizeof(src));
                for (int k = 0; k < K; k++) {
                    memcpy(&e, rec + sizeof(int32_t) * (1 + k), sizeof(e));
                    memcpy(&w, rec + sizeof(int32_t) * (1 + K) + sizeof(float) * k, sizeof(w));
                    int el = e - b->me * L, row;
                    r->rows_of[(size_t)g * K + k] = -1;
                    if (e < 0 || el < 0 || el >= L)
                        continue;
                    row = next[el]++;
                    if (row >= r->expert_off[el + 1])
                        die(b, call, "the tokens from pe %d, channel %d hold more rows of "
                            "expert %d than its counts said", s, c, (int)e);
                    memcpy(r->x + (size_t)row * H, rec + head, (size_t)H * sizeof(float));
                    r->src_pe[row] = s;
                    r->src_idx[row] = src;
                    r->weight[row] = w;
                    r->rows_of[(size_t)g * K + k] = row;
                }
            }
        }
    }
    for (int el = 0; el < L; el++)
        if (next[el] != r->expert_off[el + 1])
            die(b, call, "expert %d got %d rows, the counts said %d", b->me * L + el,
                next[el] - r->expert_off[el], r->expert_off[el + 1] - r->expert_off[el]);
    free(next);
}

void moe_dispatch(moe_buffer_t *b, int tokens, const float *x, const int *topk_idx,
                  const float *topk_weight, moe_recv_t *r)
{
    const char *call = "moe_dispatch";

    if (tokens < 0 || tokens > b->max_tokens)
        die(b, call, "tokens=%d: the buffer holds 0 to %d tokens a PE", tokens, b->max_tokens);
    for (long i = 0; i < (long)tokens * b->topk; i++)
        if (topk_idx[i] < -1 || topk_idx[i] >= b->experts)
            die(b, call, "topk_idx[%ld][%ld] = %d is not an expert (0..%d, or -1 for none)",
                i / b->topk, i % b->topk, topk_idx[i], b->experts - 1);
    memset(r, 0, sizeof(*r));
    r->tokens = tokens;
    b->disp_epoch++;
    count(b, tokens, topk_idx, r);
    shmem_alltoallmem(SHMEM_TEAM_WORLD, b->cnt_recv, b->cnt_send,
                      (size_t)b->per_pe * sizeof(int32_t));
    send_tokens(b, x, topk_idx, topk_weight, r);
    receive_tokens(b, r);
}

void moe_combine(moe_buffer_t *b, const float *y, const moe_recv_t *r, float *out)
{
    const int n = b->n, C = b->channels, K = b->topk, H = b->hidden;
    int *first = xcalloc(b, (size_t)n * C + 1, sizeof(int));

    b->comb_epoch++;
    /* Each received token's partial: its rows here, weighted, summed in topk order. */
    for (int i = 0; i < n * C; i++)
        first[i + 1] = first[i] + r->rcount[i];
    for (int i = 1; i <= n; i++) {
        int s = (b->me + i) % n;
        for (int c = 0; c < C; c++) {
            int cnt = r->rcount[s * C + c], direct;
            if (cnt == 0)
                continue;
            float *slot = (float *)slot_for(b, &b->comb, c, s, &direct);
            for (int j = 0; j < cnt; j++) {
                const int *rows = r->rows_of + (size_t)(first[s * C + c] + j) * K;
                float *p = slot + (size_t)j * H;
                memset(p, 0, (size_t)H * sizeof(float));
                for (int k = 0; k < K; k++) {
                    if (rows[k] < 0)
                        continue;
                    const float *yr = y + (size_t)rows[k] * H, w = r->weight[rows[k]];
                    for (int h = 0; h < H; h++)
                        p[h] += w * yr[h];
                }
            }
            post(&b->comb, c, s, direct, slot, (size_t)cnt * H * sizeof(float), b->comb_epoch);
        }
    }
    free(first);
    /* The partials of every destination, added in the tokens' order. */
    memset(out, 0, (size_t)r->tokens * H * sizeof(float));
    for (int c = 0; c < C; c++) {
        for (int d = 0; d < n; d++) {
            int cnt = r->scount[c * n + d];
            if (cnt == 0)
                continue;
            const float *p = arrived(&b->comb, c, d, b->comb_epoch);
            for (int j = 0; j < cnt; j++) {
                float *o = out + (size_t)r->sidx[r->soff[c * n + d] + j] * H;
                for (int h = 0; h < H; h++)
                    o[h] += p[(size_t)j * H + h];
            }
        }
    }
}
