/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * An NVSHMEM program, written against NVSHMEM's headers and names only, built against symm.
 * Each PE picks its GPU by its rank on the node, as NVSHMEM programs do; then: the ring shift
 * of NVSHMEM's guide (nvshmem_int_p, barrier_all_on_stream), a put-with-signal ring in a
 * kernel, block-scope put and team reduction in kernels, device atomics, a team barrier in a
 * kernel started by nvshmemx_collective_launch, nvshmemx_signal_op, stream put, quiet,
 * reduction and alltoall, host collectives on device memory (reduction, broadcast, fcollect,
 * alltoall), typed block-scope collectives, collectives by one thread and by a warp and a
 * block reduce-scatter, NVSHMEM's put6 signal forms, a split team, nvshmem_ptr, and the host
 * barrier on a team. Every result is checked exactly. The program's own calls are NVSHMEM's;
 * the checks and the report line are the test harness's (tests/harness.h, included after the
 * NVSHMEM headers, so that those alone must declare what the program calls).
 */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>
#include <nvshmem.h>
#include <nvshmemx.h>

#include "../harness.h"

#define N 1000 /* ints reduced and exchanged per PE */

__global__ void simple_shift(int *destination)
{
    int mype = nvshmem_my_pe(), npes = nvshmem_n_pes();

    nvshmem_int_p(destination, mype, (mype + 1) % npes);
}

/* PE 0 starts a token; each PE adds its number and signals its right neighbour. */
__global__ void signal_ring(long *token, uint64_t *sig)
{
    int me = nvshmem_my_pe(), n = nvshmem_n_pes();
    long next;

    if (me != 0)
        nvshmem_signal_wait_until(sig, NVSHMEM_CMP_EQ, 1);
    next = (me == 0 ? 100 : token[0]) + me;
    nvshmem_long_put_signal(token, &next, 1, sig, 1, NVSHMEM_SIGNAL_SET, (me + 1) % n);
    if (me == 0)
        nvshmem_signal_wait_until(sig, NVSHMEM_CMP_EQ, 1);
}

/* One block: puts src into the right neighbour's dest, adds me + 1 to every PE's counter,
 * raises flag on every PE with nvshmemx_signal_op, then reduces src over the world. */
__global__ void block_ops(int *dest, const int *src, int *sum, unsigned long long *ctr,
                          uint64_t *flag)
{
    int me = nvshmem_my_pe(), n = nvshmem_n_pes();

    nvshmemx_putmem_block(dest, src, N * sizeof(int), (me + 1) % n);
    if (threadIdx.x < (unsigned)n) {
        nvshmem_ulonglong_atomic_add(ctr, (unsigned long long)me + 1, (int)threadIdx.x);
        nvshmemx_signal_op(flag, 1, NVSHMEM_SIGNAL_ADD, (int)threadIdx.x);
    }
    nvshmemx_barrier_all_block();
    nvshmemx_int_sum_reduce_block(NVSHMEM_TEAM_WORLD, sum, src, N);
}

/* Typed block-scope collectives: fcollect of src into all, broadcast from the last PE into
 * dest, alltoall of a2a into a2b. */
__global__ void block_typed(int *all, int *dest, int *a2b, const int *src, const int *a2a)
{
    const int n = nvshmem_n_pes();

    nvshmemx_int_fcollect_block(NVSHMEM_TEAM_WORLD, all, src, N);
    nvshmemx_int_broadcast_block(NVSHMEM_TEAM_WORLD, dest, src, N, n - 1);
    nvshmemx_int_alltoall_block(NVSHMEM_TEAM_WORLD, a2b, a2a, N);
}

/* Other scopes: one thread fcollects, a warp reduces, the block reduce-scatters a2a. */
__global__ void scoped(int *all, int *sum, int *part, const int *src, const int *a2a)
{
    if (threadIdx.x == 0)
        nvshmem_int_fcollect(NVSHMEM_TEAM_WORLD, all, src, N);
    __syncthreads();
    if (threadIdx.x < 32)
        nvshmemx_int_sum_reduce_warp(NVSHMEM_TEAM_WORLD, sum, src, N);
    __syncthreads();
    nvshmemx_int_sum_reducescatter_block(NVSHMEM_TEAM_WORLD, part, a2a, N);
}

/* NVSHMEM's put6 forms move nothing (6 / 8 bytes an element) and update the signal. */
__global__ void put6(int *dest, const int *src, uint64_t *sig, int pe)
{
    nvshmemx_put6_signal_block(dest, src, N, sig, 7, NVSHMEM_SIGNAL_SET, pe);
}

/* Every block of the grid passes a team barrier: all blocks must be resident. */
__global__ void grid_barrier(nvshmem_team_t team, int *seen)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        nvshmem_barrier(team);
        atomicAdd(seen, 1);
    }
}

int main(void)
{
    int mype, npes, mype_node, msg = -1;
    cudaStream_t stream;

    nvshmem_init();
    mype = nvshmem_my_pe();
    npes = nvshmem_n_pes();
    mype_node = nvshmem_team_my_pe(NVSHMEMX_TEAM_NODE);
    CUDA_CHECK(cudaSetDevice(mype_node));
    CUDA_CHECK(cudaStreamCreate(&stream));
    const int left = (mype + npes - 1) % npes, right = (mype + 1) % npes;

    /* The guide's first program. */
    int *destination = (int *)nvshmem_malloc(sizeof(int));
    simple_shift<<<1, 1, 0, stream>>>(destination);
    nvshmemx_barrier_all_on_stream(stream);
    CUDA_CHECK(cudaMemcpyAsync(&msg, destination, sizeof(int), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    EXPECT(msg == left, "simple_shift: received %d, expected %d", msg, left);

    /* Put with signal around the ring. */
    long *token = (long *)nvshmem_calloc(1, sizeof(long));
    uint64_t *sig = (uint64_t *)nvshmem_calloc(1, sizeof(uint64_t));
    long got = 0;
    signal_ring<<<1, 1, 0, stream>>>(token, sig);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    nvshmem_barrier_all();
    CUDA_CHECK(cudaMemcpy(&got, token, sizeof(long), cudaMemcpyDeviceToHost));
    long want = 100 + (mype == 0 ? (long)npes * (npes - 1) / 2 : (long)mype * (mype - 1) / 2);
    EXPECT(got == want, "signal ring: token %ld, expected %ld", got, want);

    /* Block-scope put, atomics, signal_op and reduction in one kernel. */
    int *src = (int *)nvshmem_malloc(N * sizeof(int));
    int *dest = (int *)nvshmem_malloc(N * sizeof(int));
    int *sum = (int *)nvshmem_malloc(N * sizeof(int));
    unsigned long long *ctr = (unsigned long long *)nvshmem_calloc(1, sizeof(unsigned long long));
    uint64_t *flag = (uint64_t *)nvshmem_calloc(1, sizeof(uint64_t));
    int *host = (int *)malloc(N * npes * sizeof(int));
    for (int i = 0; i < N; i++)
        host[i] = mype * 1000 + i;
    CUDA_CHECK(cudaMemcpy(src, host, N * sizeof(int), cudaMemcpyHostToDevice));
    nvshmem_barrier_all();
    block_ops<<<1, 256, 0, stream>>>(dest, src, sum, ctr, flag);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    nvshmem_barrier_all();
    CUDA_CHECK(cudaMemcpy(host, dest, N * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        EXPECT(host[i] == left * 1000 + i, "putmem_block [%d]: %d", i, host[i]);
    CUDA_CHECK(cudaMemcpy(host, sum, N * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        EXPECT(host[i] == 1000 * npes * (npes - 1) / 2 + npes * i, "sum_reduce_block [%d]: %d", i,
               host[i]);
    unsigned long long c = 0;
    uint64_t f = 0;
    CUDA_CHECK(cudaMemcpy(&c, ctr, sizeof(c), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&f, flag, sizeof(f), cudaMemcpyDeviceToHost));
    EXPECT(c == (unsigned long long)npes * (npes + 1) / 2, "atomic_add: %llu", c);
    EXPECT(f == (uint64_t)npes, "signal_op: %llu", (unsigned long long)f);

    /* On stream: put and quiet, reduction, alltoall. */
    nvshmemx_putmem_on_stream(dest, src, N * sizeof(int), right, stream);
    nvshmemx_quiet_on_stream(stream);
    nvshmemx_barrier_all_on_stream(stream);
    nvshmemx_int_max_reduce_on_stream(NVSHMEM_TEAM_WORLD, sum, src, N, stream);
    int *a2a = (int *)nvshmem_malloc(N * npes * sizeof(int));
    int *a2b = (int *)nvshmem_malloc(N * npes * sizeof(int));
    for (int i = 0; i < N * npes; i++)
        host[i] = mype * 100000 + i;
    CUDA_CHECK(cudaMemcpyAsync(a2a, host, N * npes * sizeof(int), cudaMemcpyHostToDevice,
                               stream));
    nvshmemx_alltoallmem_on_stream(NVSHMEM_TEAM_WORLD, a2b, a2a, N * sizeof(int), stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaMemcpy(host, a2b, N * npes * sizeof(int), cudaMemcpyDeviceToHost));
    for (int p = 0; p < npes; p++)
        for (int i = 0; i < N; i++)
            EXPECT(host[p * N + i] == p * 100000 + mype * N + i, "alltoall [%d][%d]: %d", p, i,
                   host[p * N + i]);
    CUDA_CHECK(cudaMemcpy(host, dest, N * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        EXPECT(host[i] == left * 1000 + i, "putmem_on_stream [%d]: %d", i, host[i]);
    CUDA_CHECK(cudaMemcpy(host, sum, N * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        EXPECT(host[i] == (npes - 1) * 1000 + i, "max_reduce_on_stream [%d]: %d", i, host[i]);

    /* Host collectives on device memory, on the world and (below) on a split team. */
    nvshmem_barrier_all();
    nvshmem_int_sum_reduce(NVSHMEM_TEAM_WORLD, sum, src, N);
    CUDA_CHECK(cudaMemcpy(host, sum, N * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        EXPECT(host[i] == 1000 * npes * (npes - 1) / 2 + npes * i, "host sum_reduce [%d]: %d", i,
               host[i]);
    nvshmem_int_broadcast(NVSHMEM_TEAM_WORLD, dest, src, N, npes - 1);
    CUDA_CHECK(cudaMemcpy(host, dest, N * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        EXPECT(host[i] == (npes - 1) * 1000 + i, "host broadcast [%d]: %d", i, host[i]);
    nvshmem_int_fcollect(NVSHMEM_TEAM_WORLD, a2b, src, N);
    CUDA_CHECK(cudaMemcpy(host, a2b, N * npes * sizeof(int), cudaMemcpyDeviceToHost));
    for (int p = 0; p < npes; p++)
        for (int i = 0; i < N; i++)
            EXPECT(host[p * N + i] == p * 1000 + i, "host fcollect [%d][%d]: %d", p, i,
                   host[p * N + i]);
    nvshmem_int_alltoall(NVSHMEM_TEAM_WORLD, a2b, a2a, N);
    CUDA_CHECK(cudaMemcpy(host, a2b, N * npes * sizeof(int), cudaMemcpyDeviceToHost));
    for (int p = 0; p < npes; p++)
        for (int i = 0; i < N; i++)
            EXPECT(host[p * N + i] == p * 100000 + mype * N + i, "host alltoall [%d][%d]: %d", p,
                   i, host[p * N + i]);

    /* The typed block-scope forms; `all` is a2b's twin for the fcollect. */
    int *all = (int *)nvshmem_malloc(N * npes * sizeof(int));
    CUDA_CHECK(cudaMemset(dest, 0, N * sizeof(int)));
    CUDA_CHECK(cudaMemset(all, 0, N * npes * sizeof(int)));
    CUDA_CHECK(cudaMemset(a2b, 0, N * npes * sizeof(int)));
    CUDA_CHECK(cudaDeviceSynchronize());
    nvshmem_barrier_all();
    block_typed<<<1, 256, 0, stream>>>(all, dest, a2b, src, a2a);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    nvshmem_barrier_all();
    CUDA_CHECK(cudaMemcpy(host, all, N * npes * sizeof(int), cudaMemcpyDeviceToHost));
    for (int p = 0; p < npes; p++)
        for (int i = 0; i < N; i++)
            EXPECT(host[p * N + i] == p * 1000 + i, "int_fcollect_block [%d][%d]: %d", p, i,
                   host[p * N + i]);
    CUDA_CHECK(cudaMemcpy(host, dest, N * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        EXPECT(host[i] == (npes - 1) * 1000 + i, "int_broadcast_block [%d]: %d", i, host[i]);
    CUDA_CHECK(cudaMemcpy(host, a2b, N * npes * sizeof(int), cudaMemcpyDeviceToHost));
    for (int p = 0; p < npes; p++)
        for (int i = 0; i < N; i++)
            EXPECT(host[p * N + i] == p * 100000 + mype * N + i, "int_alltoall_block [%d][%d]: %d",
                   p, i, host[p * N + i]);

    /* Thread and warp scope, and reduce-scatter: this PE's part of every PE's a2a. */
    CUDA_CHECK(cudaMemset(all, 0, N * npes * sizeof(int)));
    CUDA_CHECK(cudaMemset(sum, 0, N * sizeof(int)));
    CUDA_CHECK(cudaMemset(dest, 0, N * sizeof(int)));
    CUDA_CHECK(cudaDeviceSynchronize());
    nvshmem_barrier_all();
    scoped<<<1, 128, 0, stream>>>(all, sum, dest, src, a2a);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    nvshmem_barrier_all();
    CUDA_CHECK(cudaMemcpy(host, all, N * npes * sizeof(int), cudaMemcpyDeviceToHost));
    for (int p = 0; p < npes; p++)
        for (int i = 0; i < N; i++)
            EXPECT(host[p * N + i] == p * 1000 + i, "int_fcollect [%d][%d]: %d", p, i,
                   host[p * N + i]);
    CUDA_CHECK(cudaMemcpy(host, sum, N * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        EXPECT(host[i] == 1000 * npes * (npes - 1) / 2 + npes * i, "sum_reduce_warp [%d]: %d", i,
               host[i]);
    CUDA_CHECK(cudaMemcpy(host, dest, N * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        EXPECT(host[i] == 100000 * npes * (npes - 1) / 2 + npes * (mype * N + i),
               "sum_reducescatter_block [%d]: %d", i, host[i]);

    /* put6 with signal to the right neighbour: dest stays zero, the flag reads 7. */
    CUDA_CHECK(cudaMemset(dest, 0, N * sizeof(int)));
    CUDA_CHECK(cudaDeviceSynchronize());
    nvshmem_barrier_all();
    put6<<<1, 64, 0, stream>>>(dest, src, flag, right);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    nvshmem_barrier_all();
    CUDA_CHECK(cudaMemcpy(host, dest, N * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&f, flag, sizeof(f), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        EXPECT(host[i] == 0, "put6_signal_block moved data [%d]: %d", i, host[i]);
    EXPECT(f == 7, "put6_signal_block signal: %llu", (unsigned long long)f);
    nvshmem_free(all);

    /* A split team: a kernel of 8 blocks passes its barrier, then the host's. */
    nvshmem_team_t team = NVSHMEM_TEAM_INVALID;
    nvshmem_team_split_strided(NVSHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &team);
    EXPECT(team != NVSHMEM_TEAM_INVALID, "team_split_strided gave no team");
    EXPECT(nvshmem_team_n_pes(team) == npes && nvshmem_team_my_pe(team) == mype,
           "split team: %d PEs, me %d", nvshmem_team_n_pes(team), nvshmem_team_my_pe(team));
    int *seen;
    CUDA_CHECK(cudaMalloc(&seen, sizeof(int)));
    CUDA_CHECK(cudaMemset(seen, 0, sizeof(int)));
    void *args[] = {&team, &seen};
    int rc = nvshmemx_collective_launch((const void *)grid_barrier, dim3(8), dim3(32), args, 0,
                                        stream);
    EXPECT(rc == 0, "collective_launch: %d", rc);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    int s = 0;
    CUDA_CHECK(cudaMemcpy(&s, seen, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(s == 1, "barrier kernel: %d", s);
    EXPECT(nvshmem_barrier(team) == 0, "host barrier on the team");
    nvshmem_int_min_reduce(team, sum, src, N);
    CUDA_CHECK(cudaMemcpy(host, sum, N * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        EXPECT(host[i] == i, "host min_reduce on the split team [%d]: %d", i, host[i]);
    nvshmem_team_destroy(team);

    /* A PE of this node maps the block; one of another node does not (the proxy reaches it). */
    for (int p = 0; p < npes; p++) {
        const bool near = nvshmem_team_translate_pe(NVSHMEM_TEAM_WORLD, p, NVSHMEMX_TEAM_NODE) >= 0;
        EXPECT((nvshmem_ptr(destination, p) != NULL) == near, "nvshmem_ptr(pe %d) is %p, pe %s",
               p, nvshmem_ptr(destination, p), near ? "of this node" : "of another node");
    }

    int status = test_report("gpu_nvshmem");
    CUDA_CHECK(cudaFree(seen));
    free(host);
    nvshmem_free(a2b);
    nvshmem_free(a2a);
    nvshmem_free(flag);
    nvshmem_free(ctr);
    nvshmem_free(sum);
    nvshmem_free(dest);
    nvshmem_free(src);
    nvshmem_free(sig);
    nvshmem_free(token);
    nvshmem_free(destination);
    CUDA_CHECK(cudaStreamDestroy(stream));
    nvshmem_finalize();
    return status;
}
