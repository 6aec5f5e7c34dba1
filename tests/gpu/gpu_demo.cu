/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * symm on GPUs in one page: every PE takes a GPU, allocates a symmetric block in GPU memory,
 * and a kernel passes a token around the ring of PEs with put-with-signal (each PE's kernel
 * waits for its left neighbour's signal, adds its PE number, and signals its right
 * neighbour); then the host sums a vector over all PEs on a CUDA stream and checks it.
 *
 *   symmrun -n 2 gpu_demo
 */
#include <stdio.h>

#include <shmem.h>
#include <shmemx_gpu.h>
#include <symm/device.cuh>

/* One thread: wait for the token, add this PE, pass it on. PE 0 starts and ends the ring. */
__global__ void ring(long *token, uint64_t *sig)
{
    int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n;

    if (me != 0)
        shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1);
    long next = (me == 0 ? 0 : token[0]) + me;
    shmem_long_put_signal(token, &next, 1, sig, 1, SHMEM_SIGNAL_SET, right);
    if (me == 0)
        shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1);
}

__global__ void fill(int *v, size_t n, int me)
{
    for (size_t i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += blockDim.x * gridDim.x)
        v[i] = me + (int)i;
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    cudaStream_t s;
    cudaSetDevice(shmemx_gpu_device());
    cudaStreamCreate(&s);

    long *token = (long *)shmemx_calloc_device(1, sizeof(long));
    uint64_t *sig = (uint64_t *)shmemx_calloc_device(1, sizeof(uint64_t));
    ring<<<1, 1, 0, s>>>(token, sig);

    const size_t len = 1 << 20;
    int *v = (int *)shmemx_malloc_device(len * sizeof(int));
    int *sum = (int *)shmemx_malloc_device(len * sizeof(int));
    fill<<<128, 256, 0, s>>>(v, len, me);
    shmemx_int_sum_reduce_on_stream(SHMEM_TEAM_WORLD, sum, v, len, s);
    cudaStreamSynchronize(s);

    long got;
    int last;
    cudaMemcpy(&got, token, sizeof(got), cudaMemcpyDeviceToHost);
    cudaMemcpy(&last, sum + len - 1, sizeof(last), cudaMemcpyDeviceToHost);
    int want = n * (int)(len - 1) + n * (n - 1) / 2;
    if (me == 0)
        printf("gpu_demo: %d PEs, one GPU each; the ring's token came back as %ld (want %ld); "
               "the sum of %zu ints over every GPU ends in %d (want %d): %s\n", n, got,
               (long)n * (n - 1) / 2, len, last, want,
               got == (long)n * (n - 1) / 2 && last == want ? "ok" : "WRONG");
    /* The token ends on PE 0; the sum is everywhere. */
    int ok = (me != 0 || got == (long)n * (n - 1) / 2) && last == want;
    shmemx_free_device(sum);
    shmemx_free_device(v);
    shmemx_free_device(sig);
    shmemx_free_device(token);
    cudaStreamDestroy(s);
    shmem_finalize();
    return ok ? 0 : 1;
}
