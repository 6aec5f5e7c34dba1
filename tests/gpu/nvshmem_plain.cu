/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/* A CUDA file as a user writes it: compiled by nvcc with its defaults (GNU C++, no -std), with
 * another OpenSHMEM's include folder ahead of symm's on the path (test nvshmem_header_nvcc). */
#include <nvshmem.h>
#include <nvshmemx.h>

__global__ void ring(int *x)
{
    int me = nvshmem_my_pe(), n = nvshmem_n_pes();

    nvshmem_int_p(x, me, (me + 1) % n);
    nvshmem_barrier_all();
}

int main(void)
{
    nvshmem_init();
    int *x = (int *)nvshmem_malloc(sizeof(int));
    ring<<<1, 1>>>(x);
    nvshmemx_barrier_all_on_stream(0);
    nvshmem_free(x);
    nvshmem_finalize();
    return 0;
}
