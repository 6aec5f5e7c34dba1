/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * MoE dispatch and combine on CPU PEs: every PE routes its tokens to the top-k of E experts
 * spread evenly over the PEs, dispatches them, runs its experts (a toy function per expert) on
 * what it received, and combines the outputs back, for --iters rounds over one buffer.
 *
 *   symmrun -n 4 build/examples/moe/moe --check [--tokens T --hidden H --experts E --topk K]
 *
 * With --check every PE compares what it received with what the routing of every PE says,
 * and its combined tokens with a reference computed locally; the job exits 0 only when all
 * agree. --routing one sends every token to one expert, local keeps every token on its own
 * PE; --counts uneven and zero give the PEs different numbers of tokens; --symmetric sends
 * through the symmetric buffer and puts even inside a node (docs/ep.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <shmem.h>

#include "moe_case.h"
#include "moe_cpu.h"

static long errors_all; /* globals are symmetric: the reduction's buffers */
static long errors_mine;

typedef struct view {
    const float *data;
    int hidden;
} view_t;

static float at_row(const void *ctx, long row, int h)
{
    const view_t *v = ctx;

    return v->data[(size_t)row * (size_t)v->hidden + (size_t)h];
}

static float at_token(const void *ctx, int t, int h)
{
    return at_row(ctx, t, h);
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One round: this PE's tokens and routing, dispatch, experts, combine; the checks. */
static long round_trip(moe_buffer_t *b, const moe_args_t *a, int iter, double *secs)
{
    const int me = shmem_my_pe(), n = shmem_n_pes(), H = a->hidden, K = a->topk;
    const int tokens = moe_tokens_of(a, me, n);
    float *x = malloc(((size_t)tokens * H + 1) * sizeof(float));
    float *w = malloc(((size_t)tokens * K + 1) * sizeof(float));
    float *out = malloc(((size_t)tokens * H + 1) * sizeof(float));
    int *idx = malloc(((size_t)tokens * K + 1) * sizeof(int));
    float *y;
    moe_recv_t r;
    long errors = 0;
    double t0;

    for (int t = 0; t < tokens; t++) {
        moe_route(a, iter, me, n, t, idx + (size_t)t * K, w + (size_t)t * K);
        for (int h = 0; h < H; h++)
            x[(size_t)t * H + h] = moe_x(a, iter, me, t, h);
    }
    shmem_barrier_all();
    t0 = now();
    moe_dispatch(b, tokens, x, idx, w, &r);
    *secs += now() - t0;
    y = malloc(((size_t)r.rows * H + 1) * sizeof(float));
    for (int el = 0; el < b->local; el++)
        for (long row = r.expert_off[el]; row < r.expert_off[el + 1]; row++)
            for (int h = 0; h < H; h++)
                y[row * H + h] = moe_expert(me * b->local + el, r.x[row * H + h]);
    t0 = now();
    moe_combine(b, y, &r, out);
    *secs += now() - t0;
    if (a->check) {
        view_t rv = {r.x, H}, ov = {out, H};
        errors += moe_check_dispatch(a, iter, me, n, r.expert_off, r.src_pe, r.src_idx,
                                     r.weight, at_row, &rv);
        errors += moe_check_combine(a, iter, me, n, at_token, &ov, 0.0);
    }
    moe_recv_free(&r);
    free(x);
    free(w);
    free(out);
    free(idx);
    free(y);
    return errors;
}

int main(int argc, char **argv)
{
    moe_args_t a;
    moe_buffer_t b;
    double secs = 0.0;
    int me, n, rc;

    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    if (moe_parse(argc, argv, me, n, &a, 2) != 0) {
        shmem_finalize();
        return 2;
    }
    if (moe_buffer_init(&b, a.tokens, a.hidden, a.experts, a.topk, a.channels, a.symmetric)) {
        if (me == 0)
            fprintf(stderr, "moe: the symmetric heap cannot hold the buffers "
                    "(SHMEM_SYMMETRIC_SIZE sets its size)\n");
        shmem_finalize();
        return 1;
    }
    for (int iter = 0; iter < a.iters; iter++)
        errors_mine += round_trip(&b, &a, iter, &secs);
    moe_buffer_fini(&b);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &errors_all, &errors_mine, 1);
    rc = moe_report("moe", &a, me, n,
                    a.symmetric ? "puts only" : "stores inside a node, puts across",
                    1e3 * secs / a.iters, errors_all);
    shmem_finalize();
    return rc;
}
