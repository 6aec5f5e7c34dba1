/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * MoE dispatch and combine on GPU PEs, in bfloat16: the exchange of the CPU example (moe.c,
 * moe_cpu.c) as three kernels a round on one stream, with no host synchronisation between
 * them: dispatch, the experts, combine. Dispatch and combine run one block per channel (a
 * channel is a contiguous range of a PE's tokens), and use the device API only: tokens and
 * partial outputs are stored straight into the peers' slots through a view of the device block
 * (symm/ep.h), and each (channel, peer) is published by one signal.
 *
 *   symmrun -n 2 build/examples/moe/moe_gpu --check [--tokens T --hidden H --experts E --topk K]
 *
 * The same flags and checks as moe (the combined tokens are compared within bfloat16's
 * rounding). The PEs must share a node: the view reaches peers by NVLink (or PCIe) mappings.
 * With --bench [--warmup W] it times the phases instead of checking them (see bench() below;
 * bench/moe/run.sh runs it).
 *
 * Rounds without barriers. Each round uses the buffers of its parity, and its signals carry
 * the round's number. A PE writes a peer's slot of parity p in round r + 2 only after its own
 * dispatch of round r + 1 has seen that peer's counts of round r + 1 (every dispatch block waits
 * for every peer's counts), which the peer sends only once its kernels of round r are done.
 * The dispatch and combine blocks wait on other blocks and PEs, so they are started with
 * shmemx_collective_launch (every block resident).
 */
#include <cuda_bf16.h>

#include <shmemx.h>
#include <symm/device.cuh>
#include <symm/ep.h>

#include "moe_case.h"

typedef __nv_bfloat16 bf16;

#define THREADS 256
#define MAX_PES 64 /* a token's destinations are a 64-bit mask */

/* A CUDA call that fails ends the job in symm's error format. */
static void cuda_check(cudaError_t e, const char *expr, int line)
{
    char what[256];

    if (e == cudaSuccess)
        return;
    snprintf(what, sizeof(what), "moe_gpu.cu:%d: %s", line, cudaGetErrorString(e));
    shmemx_gpu_fail(expr, what);
}
#define CUDA_CHECK(expr) cuda_check((expr), #expr, __LINE__)

/* Everything the kernels need, passed by value. */
typedef struct gpu_moe {
    int n, me, local, topk, hidden, channels, cap;
    size_t rec, head;                 /* bytes of a dispatched token, of its head */
    size_t size;                      /* bytes of the symmetric block */
    shmemx_ep_chan_t cnt[2];          /* counts: tokens, then rows per expert (by parity) */
    shmemx_ep_chan_t disp[2];         /* tokens */
    shmemx_ep_chan_t comb[2];         /* partial outputs */
    shmemx_ep_view_t view;
    /* This PE's memory. */
    const bf16 *x;                    /* tokens x hidden */
    const int *idx;                   /* tokens x topk */
    const float *w;                   /* tokens x topk */
    bf16 *recv_x, *y;                 /* rows x hidden */
    int *src_pe, *src_idx;            /* per row */
    float *weight;                    /* per row */
    int *expert_off;                  /* local + 1 */
    int *tok_rows;                    /* received tokens x topk: the row of each, or -1 */
    int *recv_first, *recv_n;         /* channels x n: first received token of (c, s), count */
    int *sidx, *scount;               /* channels x n x cap: tokens sent to (c, d); counts */
    float *acc;                       /* tokens x hidden */
    bf16 *out;                        /* tokens x hidden */
} gpu_moe_t;

static size_t round16(size_t v)
{
    return (v + 15) & ~(size_t)15;
}

/* A warp copies one row of h bfloat16 (16 bytes at a time when rows allow it); REMOTE: the
 * source was written by another GPU, read past L1. */
template <bool REMOTE> __device__ void copy_row(bf16 *dst, const bf16 *src, int h, int lane)
{
    if ((h * sizeof(bf16)) % 16 == 0) {
        uint4 *d = (uint4 *)dst;
        const uint4 *s = (const uint4 *)src;
        for (int i = lane; i < h * (int)sizeof(bf16) / 16; i += 32)
            d[i] = REMOTE ? __ldcg(s + i) : s[i];
    } else {
        unsigned short *d = (unsigned short *)dst;
        const unsigned short *s = (const unsigned short *)src;
        for (int i = lane; i < h; i += 32)
            d[i] = REMOTE ? __ldcg(s + i) : s[i];
    }
}

__device__ int channel_first(int tokens, int channels, int c)
{
    return (int)((long long)tokens * c / channels);
}

/* Shared memory of a dispatch block: rows per expert and tokens per PE of its channel; where
 * the rows from each PE start per local expert; the first received token from each PE; the
 * experts' offsets. */
static size_t dispatch_shared(int n, int experts, int local)
{
    return sizeof(int) * ((size_t)experts * 2 + (size_t)n * 2 + (size_t)local + 1);
}

__global__ void dispatch_kernel(gpu_moe_t g, int tokens, unsigned long long round)
{
    extern __shared__ int sh[];
    const int c = blockIdx.x, n = g.n, L = g.local, K = g.topk, H = g.hidden, E = n * L;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, nwarps = blockDim.x / 32;
    const int f = channel_first(tokens, g.channels, c);
    const int l = channel_first(tokens, g.channels, c + 1);
    const shmemx_ep_chan_t *cnt = &g.cnt[round & 1], *disp = &g.disp[round & 1];
    int *rows_s = sh, *ntok_s = rows_s + E, *base = ntok_s + n, *first = base + E;
    int *off_s = first + n;

    for (int i = threadIdx.x; i < E + n; i += blockDim.x)
        sh[i] = 0;
    __syncthreads();
    /* Count, and list each destination's tokens in order: one thread, as a channel's tokens
     * are few next to the bytes they carry. */
    if (threadIdx.x == 0) {
        for (int t = f; t < l; t++) {
            unsigned long long to = 0;
            for (int k = 0; k < K; k++) {
                int e = g.idx[t * K + k];
                if (e < 0)
                    continue;
                rows_s[e]++;
                to |= 1ull << (e / L);
            }
            for (int d = 0; d < n; d++)
                if ((to >> d) & 1)
                    g.sidx[((size_t)c * n + d) * g.cap + ntok_s[d]++] = t;
        }
        for (int d = 0; d < n; d++)
            g.scount[c * n + d] = ntok_s[d];
    }
    __syncthreads();

    /* Counts to every PE: its tokens of this channel, then its rows per expert. */
    for (int d = 0; d < n; d++) {
        int *slot = (int *)shmemx_ep_peer(&g.view, shmemx_ep_remote_slot(cnt, c), d);
        for (int i = threadIdx.x; i <= L; i += blockDim.x)
            slot[i] = i == 0 ? ntok_s[d] : rows_s[d * L + i - 1];
        __syncthreads();
        if (threadIdx.x == 0)
            shmem_signal_set(shmemx_ep_remote_signal(cnt, c), round, d);
    }

    /* Tokens: each once to every PE that holds one of its experts, a warp a token. */
    for (int i = 1; i <= n; i++) {
        const int d = (g.me + i) % n, m = ntok_s[d];
        if (m == 0)
            continue;
        char *slot = (char *)shmemx_ep_peer(&g.view, shmemx_ep_remote_slot(disp, c), d);
        for (int j = warp; j < m; j += nwarps) {
            const int t = g.sidx[((size_t)c * n + d) * g.cap + j];
            char *rec = slot + (size_t)j * g.rec;
            int *head = (int *)rec;
            for (int k = lane; k <= 2 * K; k += 32)
                head[k] = k == 0 ? t : k <= K ? g.idx[t * K + k - 1]
                                             : __float_as_int(g.w[t * K + k - 1 - K]);
            copy_row<false>((bf16 *)(rec + g.head), g.x + (size_t)t * H, H, lane);
        }
        __syncthreads();
        if (threadIdx.x == 0)
            shmem_signal_set(shmemx_ep_remote_signal(disp, c), round, d);
    }

    /* Every channel's counts from every PE: the experts' offsets need them all. */
    for (int i = threadIdx.x; i < g.channels * n; i += blockDim.x)
        shmem_signal_wait_until(shmemx_ep_signal(cnt, i / n, i % n), SHMEM_CMP_GE, round);
    __syncthreads();
    for (int el = threadIdx.x; el < L; el += blockDim.x) {
        int total = 0;
        for (int s = 0; s < n; s++)
            for (int cc = 0; cc < g.channels; cc++)
                total += __ldcg((const int *)shmemx_ep_recv_slot(cnt, cc, s) + 1 + el);
        off_s[el + 1] = total;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        off_s[0] = 0;
        for (int el = 0; el < L; el++)
            off_s[el + 1] += off_s[el];
        /* first[s]: received tokens before (s, c), in (source, channel) order. */
        for (int s = 0, before = 0; s < n; s++)
            for (int cc = 0; cc < g.channels; cc++) {
                if (cc == c)
                    first[s] = before;
                before += __ldcg((const int *)shmemx_ep_recv_slot(cnt, cc, s));
            }
    }
    __syncthreads();
    /* base[s][el]: the first row of (s, c) for expert el, rows ordered by (source, channel). */
    for (int el = threadIdx.x; el < L; el += blockDim.x) {
        int row = off_s[el];
        for (int s = 0; s < n; s++)
            for (int cc = 0; cc < g.channels; cc++) {
                if (cc == c)
                    base[s * L + el] = row;
                row += __ldcg((const int *)shmemx_ep_recv_slot(cnt, cc, s) + 1 + el);
            }
    }
    if (c == 0)
        for (int el = threadIdx.x; el <= L; el += blockDim.x)
            g.expert_off[el] = off_s[el];
    __syncthreads();

    /* What (s, c) sent: rows placed by one thread, copied by warps. */
    for (int s = 0; s < n; s++) {
        const int m = __ldcg((const int *)shmemx_ep_recv_slot(cnt, c, s));
        const char *slot = (const char *)shmemx_ep_recv_slot(disp, c, s);
        if (threadIdx.x == 0) {
            g.recv_first[c * n + s] = first[s];
            g.recv_n[c * n + s] = m;
        }
        if (m == 0)
            continue;
        if (threadIdx.x == 0) {
            shmem_signal_wait_until(shmemx_ep_signal(disp, c, s), SHMEM_CMP_GE, round);
            for (int j = 0; j < m; j++) {
                const int *head = (const int *)(slot + (size_t)j * g.rec);
                int *rows = g.tok_rows + (size_t)(first[s] + j) * K;
                for (int k = 0; k < K; k++) {
                    int e = __ldcg(head + 1 + k), el = e - g.me * L, row = -1;
                    if (e >= 0 && el >= 0 && el < L) {
                        row = base[s * L + el]++;
                        g.src_pe[row] = s;
                        g.src_idx[row] = __ldcg(head);
                        g.weight[row] = __int_as_float(__ldcg(head + 1 + K + k));
                    }
                    rows[k] = row;
                }
            }
        }
        __syncthreads();
        for (int j = warp; j < m; j += nwarps) {
            const int *rows = g.tok_rows + (size_t)(first[s] + j) * K;
            for (int k = 0; k < K; k++)
                if (rows[k] >= 0)
                    copy_row<true>(g.recv_x + (size_t)rows[k] * H,
                                   (const bf16 *)(slot + (size_t)j * g.rec + g.head), H, lane);
        }
    }
}

/* The experts, on every row received: expert e of row r from the offsets. */
__global__ void expert_kernel(gpu_moe_t g)
{
    const int L = g.local, H = g.hidden;
    const long long total = (long long)g.expert_off[L] * H;

    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total;
         i += (long long)gridDim.x * blockDim.x) {
        int row = (int)(i / H), el = 0;
        while (g.expert_off[el + 1] <= row)
            el++;
        g.y[i] = __float2bfloat16(moe_expert(g.me * L + el, __bfloat162float(g.recv_x[i])));
    }
}

__global__ void combine_kernel(gpu_moe_t g, int tokens, unsigned long long round)
{
    const int c = blockIdx.x, n = g.n, K = g.topk, H = g.hidden;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, nwarps = blockDim.x / 32;
    const int f = channel_first(tokens, g.channels, c);
    const int l = channel_first(tokens, g.channels, c + 1);
    const shmemx_ep_chan_t *comb = &g.comb[round & 1];

    /* Partials back to the sources: per received token, its rows here times their weights,
     * summed in topk order. */
    for (int i = 1; i <= n; i++) {
        const int s = (g.me + i) % n, m = g.recv_n[c * n + s];
        if (m == 0)
            continue;
        bf16 *slot = (bf16 *)shmemx_ep_peer(&g.view, shmemx_ep_remote_slot(comb, c), s);
        for (int j = warp; j < m; j += nwarps) {
            const int *rows = g.tok_rows + (size_t)(g.recv_first[c * n + s] + j) * K;
            for (int h = lane; h < H; h += 32) {
                float acc = 0.0f;
                for (int k = 0; k < K; k++)
                    if (rows[k] >= 0)
                        acc += g.weight[rows[k]] * __bfloat162float(g.y[(size_t)rows[k] * H + h]);
                slot[(size_t)j * H + h] = __float2bfloat16(acc);
            }
        }
        __syncthreads();
        if (threadIdx.x == 0)
            shmem_signal_set(shmemx_ep_remote_signal(comb, c), round, s);
    }

    /* This channel's tokens: the partials of every destination, added in PE order. */
    for (long long i = threadIdx.x; i < (long long)(l - f) * H; i += blockDim.x)
        g.acc[(size_t)f * H + i] = 0.0f;
    __syncthreads();
    for (int d = 0; d < n; d++) {
        const int m = g.scount[c * n + d];
        const bf16 *slot = (const bf16 *)shmemx_ep_recv_slot(comb, c, d);
        if (m == 0)
            continue;
        if (threadIdx.x == 0)
            shmem_signal_wait_until(shmemx_ep_signal(comb, c, d), SHMEM_CMP_GE, round);
        __syncthreads();
        for (int j = warp; j < m; j += nwarps) {
            float *o = g.acc + (size_t)g.sidx[((size_t)c * n + d) * g.cap + j] * H;
            for (int h = lane; h < H; h += 32)
                o[h] += __bfloat162float(__ldcg(slot + (size_t)j * H + h));
        }
        __syncthreads();
    }
    for (long long i = threadIdx.x; i < (long long)(l - f) * H; i += blockDim.x)
        g.out[(size_t)f * H + i] = __float2bfloat16(g.acc[(size_t)f * H + i]);
}

static void carve(shmemx_ep_cursor_t *cur, gpu_moe_t *g)
{
    for (int p = 0; p < 2; p++) {
        g->cnt[p] = shmemx_ep_chan(cur, g->channels, g->n, g->me,
                                   (size_t)(1 + g->local) * sizeof(int), 0);
        g->disp[p] = shmemx_ep_chan(cur, g->channels, g->n, g->me, (size_t)g->cap * g->rec, 0);
        g->comb[p] = shmemx_ep_chan(cur, g->channels, g->n, g->me,
                                    (size_t)g->cap * g->hidden * sizeof(bf16), 0);
    }
}

template <typename T> static T *dev_alloc(size_t count)
{
    void *p = NULL;

    CUDA_CHECK(cudaMalloc(&p, (count ? count : 1) * sizeof(T)));
    return (T *)p;
}

/* The symmetric block and this PE's buffers; NULL block when a heap is too small. */
static void *setup(gpu_moe_t *g, const moe_args_t *a)
{
    shmemx_ep_cursor_t cur = shmemx_ep_cursor(NULL, 0);
    size_t rows = (size_t)g->n * a->tokens * (a->topk < g->local ? a->topk : g->local);
    size_t size;
    void *block;

    g->head = round16(sizeof(int) * (1 + 2 * (size_t)a->topk));
    g->rec = g->head + round16((size_t)a->hidden * sizeof(bf16));
    carve(&cur, g);
    block = shmemx_ep_malloc(&cur, SHMEMX_MALLOC_DEVICE);
    if (block == NULL)
        return NULL;
    size = cur.used;
    cur = shmemx_ep_cursor(block, size);
    carve(&cur, g);
    shmemx_ep_check("moe_gpu", &cur);
    g->size = size;
    shmemx_ep_view_init(&g->view, block, size);
    for (int pe = 0; pe < g->n; pe++)
        if (shmemx_ep_peer(&g->view, block, pe) == NULL)
            shmemx_gpu_fail("moe_gpu", "a PE of this job is on another node: the GPU example "
                                       "reaches its peers through the node's mappings only");
    /* Signals start below every round's number; no peer signals before the barrier. */
    CUDA_CHECK(cudaMemset(block, 0, size));
    CUDA_CHECK(cudaDeviceSynchronize());
    g->x = dev_alloc<bf16>((size_t)a->tokens * a->hidden);
    g->idx = dev_alloc<int>((size_t)a->tokens * a->topk);
    g->w = dev_alloc<float>((size_t)a->tokens * a->topk);
    g->recv_x = dev_alloc<bf16>(rows * a->hidden);
    g->y = dev_alloc<bf16>(rows * a->hidden);
    g->src_pe = dev_alloc<int>(rows);
    g->src_idx = dev_alloc<int>(rows);
    g->weight = dev_alloc<float>(rows);
    g->expert_off = dev_alloc<int>((size_t)g->local + 1);
    g->tok_rows = dev_alloc<int>((size_t)g->n * a->tokens * a->topk);
    g->recv_first = dev_alloc<int>((size_t)g->channels * g->n);
    g->recv_n = dev_alloc<int>((size_t)g->channels * g->n);
    g->sidx = dev_alloc<int>((size_t)g->channels * g->n * g->cap);
    g->scount = dev_alloc<int>((size_t)g->channels * g->n);
    g->acc = dev_alloc<float>((size_t)a->tokens * a->hidden);
    g->out = dev_alloc<bf16>((size_t)a->tokens * a->hidden);
    shmem_barrier_all();
    return block;
}

static void teardown(gpu_moe_t *g, void *block)
{
    void *bufs[] = {(void *)g->x, (void *)g->idx, (void *)g->w, g->recv_x, g->y, g->src_pe,
                    g->src_idx, g->weight, g->expert_off, g->tok_rows, g->recv_first, g->recv_n,
                    g->sidx, g->scount, g->acc, g->out};

    for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++)
        CUDA_CHECK(cudaFree(bufs[i]));
    shmemx_free_device(block);
}

/* The host's copies of what a round produced, for the checks. */
typedef struct result {
    int hidden;
    int *expert_off, *src_pe, *src_idx;
    float *weight, *x, *out;
} result_t;

static float row_at(const void *ctx, long row, int h)
{
    const result_t *r = (const result_t *)ctx;
    return r->x[(size_t)row * r->hidden + h];
}

static float out_at(const void *ctx, int t, int h)
{
    const result_t *r = (const result_t *)ctx;
    return r->out[(size_t)t * r->hidden + h];
}

static float *to_float(const bf16 *dev, size_t count)
{
    bf16 *h = (bf16 *)malloc((count ? count : 1) * sizeof(bf16));
    float *f = (float *)malloc((count ? count : 1) * sizeof(float));

    CUDA_CHECK(cudaMemcpy(h, dev, count * sizeof(bf16), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < count; i++)
        f[i] = __bfloat162float(h[i]);
    free(h);
    return f;
}

template <typename T> static T *to_host(const T *dev, size_t count)
{
    T *h = (T *)malloc((count ? count : 1) * sizeof(T));

    CUDA_CHECK(cudaMemcpy(h, dev, count * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

static long check_round(const gpu_moe_t *g, const moe_args_t *a, int iter, int tokens)
{
    result_t r;
    long errors;
    int rows;

    r.hidden = a->hidden;
    r.expert_off = to_host(g->expert_off, (size_t)g->local + 1);
    rows = r.expert_off[g->local];
    r.src_pe = to_host(g->src_pe, rows);
    r.src_idx = to_host(g->src_idx, rows);
    r.weight = to_host(g->weight, rows);
    r.x = to_float(g->recv_x, (size_t)rows * a->hidden);
    r.out = to_float(g->out, (size_t)tokens * a->hidden);
    errors = moe_check_dispatch(a, iter, g->me, g->n, r.expert_off, r.src_pe, r.src_idx,
                                r.weight, row_at, &r);
    /* Partials travel in bfloat16: 8 bits of mantissa each. */
    errors += moe_check_combine(a, iter, g->me, g->n, out_at, &r, 1.0 / 64);
    free(r.expert_off);
    free(r.src_pe);
    free(r.src_idx);
    free(r.weight);
    free(r.x);
    free(r.out);
    return errors;
}

/* This PE's tokens and routing of round `iter` to the GPU; idx (tokens x topk) keeps the
 * routing on the host. */
static void upload(gpu_moe_t *g, const moe_args_t *a, int iter, int tokens, int *idx)
{
    const int K = a->topk, H = a->hidden;
    bf16 *x = (bf16 *)malloc(((size_t)tokens * H + 1) * sizeof(bf16));
    float *w = (float *)malloc(((size_t)tokens * K + 1) * sizeof(float));

    for (int t = 0; t < tokens; t++) {
        moe_route(a, iter, g->me, g->n, t, idx + (size_t)t * K, w + (size_t)t * K);
        for (int h = 0; h < H; h++)
            x[(size_t)t * H + h] = __float2bfloat16(moe_x(a, iter, g->me, t, h));
    }
    CUDA_CHECK(cudaMemcpy((void *)g->x, x, (size_t)tokens * H * sizeof(bf16),
                          cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy((void *)g->idx, idx, (size_t)tokens * K * sizeof(int),
                          cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy((void *)g->w, w, (size_t)tokens * K * sizeof(float),
                          cudaMemcpyHostToDevice));
    free(x);
    free(w);
}

/* Dispatch, experts and combine of round `round` on the stream; ev[0..3] (may be NULL) are
 * recorded before dispatch, between the kernels and after combine. */
static void launch_round(gpu_moe_t *g, const moe_args_t *a, int tokens, unsigned long long round,
                         cudaStream_t st, cudaEvent_t *ev)
{
    size_t shared = dispatch_shared(g->n, g->n * g->local, g->local);
    void *args[] = {g, (void *)&tokens, &round};

    if (ev)
        CUDA_CHECK(cudaEventRecord(ev[0], st));
    CUDA_CHECK((cudaError_t)shmemx_collective_launch((const void *)dispatch_kernel,
                                                     dim3(a->channels), dim3(THREADS), args,
                                                     shared, st));
    if (ev)
        CUDA_CHECK(cudaEventRecord(ev[1], st));
    expert_kernel<<<264, THREADS, 0, st>>>(*g);
    CUDA_CHECK(cudaGetLastError());
    if (ev)
        CUDA_CHECK(cudaEventRecord(ev[2], st));
    CUDA_CHECK((cudaError_t)shmemx_collective_launch((const void *)combine_kernel,
                                                     dim3(a->channels), dim3(THREADS), args, 0,
                                                     st));
    if (ev)
        CUDA_CHECK(cudaEventRecord(ev[3], st));
}

/* One round: this PE's tokens to the GPU, then dispatch, experts and combine on the stream. */
static float round_trip(gpu_moe_t *g, const moe_args_t *a, int iter, cudaStream_t st)
{
    const int tokens = moe_tokens_of(a, g->me, g->n);
    int *idx = (int *)malloc(((size_t)tokens * a->topk + 1) * sizeof(int));
    float ms = 0.0f;
    cudaEvent_t t0, t1;

    upload(g, a, iter, tokens, idx);
    CUDA_CHECK(cudaEventCreate(&t0));
    CUDA_CHECK(cudaEventCreate(&t1));
    CUDA_CHECK(cudaEventRecord(t0, st));
    launch_round(g, a, tokens, (unsigned long long)iter + 1, st, NULL);
    CUDA_CHECK(cudaEventRecord(t1, st));
    CUDA_CHECK(cudaEventSynchronize(t1));
    CUDA_CHECK(cudaEventElapsedTime(&ms, t0, t1));
    CUDA_CHECK(cudaEventDestroy(t0));
    CUDA_CHECK(cudaEventDestroy(t1));
    free(idx);
    return ms;
}

/*
 * --bench [--warmup W]: W rounds (5), then --iters rounds timed by events between the
 * kernels, all on one stream with no host synchronisation, over the tokens of round 0. Then
 * the peer-store ceiling: a kernel on every SM that only stores the same bytes into the next
 * PE's block through the view, W + --iters times. The bytes counted are those stored into
 * other PEs' slots (at 1 PE, into its own): a record (head and token) per (token, destination
 * PE) in dispatch, a bfloat16 row per (token, destination PE) in combine. PE 0 prints one
 * line of key=value pairs, the times the largest over the PEs.
 */
__global__ void store_kernel(uint4 *dst, const uint4 *src, size_t count)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
         i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

/* Microseconds a launch of the store kernel takes on average over `iters` after `warmup`,
 * every PE starting together. */
static double ceiling_us(const gpu_moe_t *g, void *block, size_t bytes, int warmup, int iters,
                         cudaStream_t st)
{
    uint4 *dst = (uint4 *)shmemx_ep_peer(&g->view, block, (g->me + 1) % g->n);
    size_t count = round16(bytes) / 16;
    uint4 *src = dev_alloc<uint4>(count);
    cudaEvent_t t0, t1;
    int sms = 0;
    float ms = 0.0f;

    if (round16(bytes) > g->size)
        shmemx_gpu_fail("moe_gpu --bench", "the ceiling's bytes do not fit the peer's block");
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount,
                                      shmemx_gpu_device()));
    CUDA_CHECK(cudaMemset(src, 0x5a, count * 16));
    CUDA_CHECK(cudaEventCreate(&t0));
    CUDA_CHECK(cudaEventCreate(&t1));
    CUDA_CHECK(cudaStreamSynchronize(st));
    shmem_barrier_all();
    for (int r = 0; r < warmup + iters; r++) {
        if (r == warmup)
            CUDA_CHECK(cudaEventRecord(t0, st));
        store_kernel<<<sms * 4, THREADS, 0, st>>>(dst, src, count);
        CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaEventRecord(t1, st));
    CUDA_CHECK(cudaEventSynchronize(t1));
    CUDA_CHECK(cudaEventElapsedTime(&ms, t0, t1));
    CUDA_CHECK(cudaEventDestroy(t0));
    CUDA_CHECK(cudaEventDestroy(t1));
    CUDA_CHECK(cudaFree(src));
    shmem_barrier_all();
    return 1e3 * ms / iters;
}

static double bench_in[5], bench_out[5]; /* symmetric: the reduction's buffers */

static void bench(gpu_moe_t *g, const moe_args_t *a, void *block, int warmup, cudaStream_t st)
{
    const int tokens = moe_tokens_of(a, g->me, g->n), K = a->topk, total = warmup + a->iters;
    int *idx = (int *)malloc(((size_t)tokens * K + 1) * sizeof(int));
    cudaEvent_t *ev = (cudaEvent_t *)malloc(sizeof(cudaEvent_t) * 4 * (size_t)total);
    size_t sends = 0, disp_bytes, comb_bytes;

    upload(g, a, 0, tokens, idx);
    for (int t = 0; t < tokens; t++) {
        unsigned long long to = 0;
        for (int k = 0; k < K; k++)
            if (idx[(size_t)t * K + k] >= 0)
                to |= 1ull << (idx[(size_t)t * K + k] / g->local);
        for (int d = 0; d < g->n; d++)
            if (((to >> d) & 1) && (d != g->me || g->n == 1))
                sends++;
    }
    disp_bytes = sends * g->rec;
    comb_bytes = sends * (size_t)a->hidden * sizeof(bf16);
    for (int i = 0; i < 4 * total; i++)
        CUDA_CHECK(cudaEventCreate(&ev[i]));
    CUDA_CHECK(cudaDeviceSynchronize());
    shmem_barrier_all();
    for (int r = 0; r < total; r++)
        launch_round(g, a, tokens, (unsigned long long)r + 1, st, ev + 4 * r);
    CUDA_CHECK(cudaStreamSynchronize(st));
    memset(bench_in, 0, sizeof(bench_in));
    for (int r = warmup; r < total; r++)
        for (int p = 0; p < 3; p++) {
            float ms = 0.0f;
            CUDA_CHECK(cudaEventElapsedTime(&ms, ev[4 * r + p], ev[4 * r + p + 1]));
            bench_in[p] += 1e3 * ms / a->iters;
        }
    for (int i = 0; i < 4 * total; i++)
        CUDA_CHECK(cudaEventDestroy(ev[i]));
    shmem_barrier_all();
    bench_in[3] = ceiling_us(g, block, disp_bytes, warmup, a->iters, st);
    bench_in[4] = ceiling_us(g, block, comb_bytes, warmup, a->iters, st);
    shmem_double_max_reduce(SHMEM_TEAM_WORLD, bench_out, bench_in, 5);
    if (g->me == 0) {
        printf("moe_gpu bench: pes=%d tokens=%d hidden=%d experts=%d topk=%d channels=%d "
               "warmup=%d iters=%d dispatch_us=%.2f expert_us=%.2f combine_us=%.2f "
               "dispatch_bytes=%zu combine_bytes=%zu dispatch_gbs=%.2f combine_gbs=%.2f "
               "ceiling_dispatch_us=%.2f ceiling_combine_us=%.2f ceiling_dispatch_gbs=%.2f "
               "ceiling_combine_gbs=%.2f\n",
               g->n, tokens, a->hidden, a->experts, K, a->channels, warmup, a->iters,
               bench_out[0], bench_out[1], bench_out[2], disp_bytes, comb_bytes,
               disp_bytes / bench_out[0] / 1e3, comb_bytes / bench_out[2] / 1e3, bench_out[3],
               bench_out[4], disp_bytes / bench_out[3] / 1e3, comb_bytes / bench_out[4] / 1e3);
        fflush(stdout);
    }
    free(ev);
    free(idx);
}

/* Takes --bench and --warmup W out of argv (moe_parse knows the rest); -1 on a bad W. */
static int take_bench(int *argc, char **argv, int *on, int *warmup)
{
    int out = 1;

    *on = 0;
    *warmup = 5;
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--bench") == 0) {
            *on = 1;
        } else if (strcmp(argv[i], "--warmup") == 0) {
            char *end = NULL;
            long v = i + 1 < *argc ? strtol(argv[i + 1], &end, 10) : -1;
            if (end == NULL || *end || v < 0 || v > 1000000)
                return -1;
            *warmup = (int)v;
            i++;
        } else {
            argv[out++] = argv[i];
        }
    }
    *argc = out;
    return 0;
}

static long errors_all; /* globals are symmetric: the reduction's buffers */
static long errors_mine;

int main(int argc, char **argv)
{
    moe_args_t a;
    gpu_moe_t g;
    cudaStream_t st;
    double ms = 0.0;
    void *block;
    int rc, bench_on, warmup;

    shmem_init();
    memset(&g, 0, sizeof(g));
    g.me = shmem_my_pe();
    g.n = shmem_n_pes();
    if (take_bench(&argc, argv, &bench_on, &warmup) != 0) {
        if (g.me == 0)
            fprintf(stderr, "%s: --warmup takes a number of rounds from 0\n", argv[0]);
        shmem_finalize();
        return 2;
    }
    if (moe_parse(argc, argv, g.me, g.n, &a, 4) != 0) {
        shmem_finalize();
        return 2;
    }
    if (g.n > MAX_PES || a.symmetric || (bench_on && a.check)) {
        if (g.me == 0)
            fprintf(stderr, "%s: %s\n", argv[0],
                    a.symmetric     ? "--symmetric is the CPU example's"
                    : g.n > MAX_PES ? "more than 64 PEs"
                                    : "--bench and --check are separate runs");
        shmem_finalize();
        return 2;
    }
    if (shmemx_gpu_device() < 0)
        shmemx_gpu_fail("moe_gpu", "the GPU part did not start at shmem_init");
    CUDA_CHECK(cudaSetDevice(shmemx_gpu_device()));
    CUDA_CHECK(cudaStreamCreate(&st));
    g.local = a.experts / g.n;
    g.topk = a.topk;
    g.hidden = a.hidden;
    g.channels = a.channels;
    g.cap = (a.tokens + a.channels - 1) / a.channels;
    block = setup(&g, &a);
    if (block == NULL) {
        if (g.me == 0)
            fprintf(stderr, "moe_gpu: the device heap cannot hold the buffers "
                    "(SYMM_DEVICE_HEAP_SIZE sets its size)\n");
        shmem_finalize();
        return 1;
    }
    if (bench_on) {
        bench(&g, &a, block, warmup, st);
        teardown(&g, block);
        CUDA_CHECK(cudaStreamDestroy(st));
        shmem_finalize();
        return 0;
    }
    for (int iter = 0; iter < a.iters; iter++) {
        ms += round_trip(&g, &a, iter, st);
        if (a.check)
            errors_mine += check_round(&g, &a, iter, moe_tokens_of(&a, g.me, g.n));
    }
    shmem_barrier_all();
    teardown(&g, block);
    CUDA_CHECK(cudaStreamDestroy(st));
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &errors_all, &errors_mine, 1);
    rc = moe_report("moe_gpu", &a, g.me, g.n, "bfloat16", ms / a.iters, errors_all);
    shmem_finalize();
    return rc;
}
