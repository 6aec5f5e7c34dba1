/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The device heap: malloc, calloc (zeroed), align, free and reuse at the same offset on every
 * PE; growth over many allocations with every byte reachable from the peers; a 1 GiB block
 * right after start, written at both ends by the neighbour; a request larger than the heap
 * and one larger than the GPU's memory fail on every PE alike and leave the heap usable.
 * Usage: gpu_heap [--small]   (--small: the job runs with SYMM_DEVICE_HEAP_SIZE=256M; with a
 * heap larger than 210 GiB the GPU runs out of memory first, which is checked too)
 */
#include "../harness.h"

static long offsets[64]; /* symmetric (a global) */

__global__ void touch(unsigned char **blocks, const size_t *sizes, int nblocks, int salt)
{
    const int me = shmem_my_pe(), right = (me + 1) % shmem_n_pes();
    for (int b = 0; b < nblocks; b++) {
        size_t n = sizes[b];
        /* Both ends and a stride through the middle. */
        for (size_t i = threadIdx.x; i < 64 && i < n; i += blockDim.x) {
            shmem_uchar_p(blocks[b] + i, (unsigned char)(me + salt + b + i), right);
            shmem_uchar_p(blocks[b] + n - 1 - i, (unsigned char)(me + salt + b + i + 1), right);
        }
    }
    shmem_quiet();
    __syncthreads();
    if (threadIdx.x == 0)
        shmem_barrier_all();
}

__global__ void verify(unsigned char **blocks, const size_t *sizes, int nblocks, int salt,
                       unsigned long long *errs)
{
    const int me = shmem_my_pe(), npes = shmem_n_pes(), left = (me + npes - 1) % npes;
    for (int b = 0; b < nblocks; b++) {
        size_t n = sizes[b];
        for (size_t i = threadIdx.x; i < 64 && i < n / 2; i += blockDim.x) {
            DEXPECT(errs, blocks[b][i] == (unsigned char)(left + salt + b + i), "block %d head", b);
            DEXPECT(errs, blocks[b][n - 1 - i] == (unsigned char)(left + salt + b + i + 1),
                    "block %d tail", b);
        }
    }
}

static void touch_all(unsigned char **host_blocks, const size_t *host_sizes, int n, int salt)
{
    unsigned char **blocks;
    size_t *sizes;

    CUDA_CHECK(cudaMalloc(&blocks, n * sizeof(*blocks)));
    CUDA_CHECK(cudaMalloc(&sizes, n * sizeof(*sizes)));
    CUDA_CHECK(cudaMemcpy(blocks, host_blocks, n * sizeof(*blocks), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(sizes, host_sizes, n * sizeof(*sizes), cudaMemcpyHostToDevice));
    shmem_barrier_all();
    touch<<<1, 64>>>(blocks, sizes, n, salt);
    KERNEL_CHECK();
    verify<<<1, 64>>>(blocks, sizes, n, salt, test_dev_errors);
    KERNEL_CHECK();
    test_gpu_collect("touch");
    shmem_barrier_all();
    CUDA_CHECK(cudaFree(blocks));
    CUDA_CHECK(cudaFree(sizes));
}

int main(int argc, char **argv)
{
    int small = argc > 1 && strcmp(argv[1], "--small") == 0;

    test_gpu_init();
    /* A first block of 1 GiB (or 128 MiB on a small heap). */
    size_t big = small ? (128u << 20) : (1u << 30);
    unsigned char *b = (unsigned char *)shmemx_malloc_device(big);
    EXPECT(b != NULL, "malloc_device(%zu)", big);
    touch_all(&b, &big, 1, 1);

    /* Many blocks of mixed sizes: the heap grows in steps. */
    enum { NB = 40 };
    unsigned char *blocks[NB];
    size_t sizes[NB];
    for (int i = 0; i < NB; i++) {
        sizes[i] = (size_t)((i * 7919) % 97 + 1) << (i % 3 ? 10 : 16);
        blocks[i] = (unsigned char *)(i % 4 == 3 ? shmemx_align_device(1u << 21, sizes[i])
                                                 : shmemx_malloc_device(sizes[i]));
        EXPECT(blocks[i] != NULL, "block %d of %zu bytes", i, sizes[i]);
        if (i % 4 == 3)
            EXPECT(((uintptr_t)blocks[i] & ((1u << 21) - 1)) == 0, "align_device: %p",
                   (void *)blocks[i]);
        offsets[i] = (char *)blocks[i] - (char *)shmemx_device_heap_base(shmem_my_pe());
    }
    /* Same offsets on every PE. */
    shmem_barrier_all();
    for (int i = 0; i < NB; i++)
        EXPECT(offsets[i] == shmem_long_g(&offsets[i], 0), "offset of block %d: %ld here, %ld on "
               "pe 0", i, offsets[i], shmem_long_g(&offsets[i], 0));
    touch_all(blocks, sizes, NB, 2);
    for (int i = 0; i < NB; i += 2)
        shmemx_free_device(blocks[i]);
    /* Freed space is reused: the first fit again. */
    unsigned char *again = (unsigned char *)shmemx_malloc_device(sizes[0]);
    EXPECT(again == blocks[0], "reuse after free: %p, was %p", (void *)again, (void *)blocks[0]);
    shmemx_free_device(again);

    /* calloc: zero even where a freed block left bytes. */
    size_t zn = 3 << 20;
    unsigned char *z = (unsigned char *)shmemx_calloc_device(zn, 1);
    unsigned char *h = (unsigned char *)malloc(zn);
    CUDA_CHECK(cudaMemcpy(h, z, zn, cudaMemcpyDeviceToHost));
    size_t nz = 0;
    for (size_t i = 0; i < zn; i++)
        nz += h[i] != 0;
    EXPECT(nz == 0, "calloc_device: %zu non-zero bytes", nz);
    free(h);
    shmemx_free_device(z);

    /* Too large for the heap, then too large for the GPU: NULL everywhere, heap still fine. */
    void *huge = shmemx_malloc_device(shmemx_device_heap_size() + (1u << 20));
    EXPECT(huge == NULL, "an allocation beyond the heap returned %p", huge);
    if (shmemx_device_heap_size() > ((size_t)210 << 30)) { /* run with a heap beyond the GPU */
        void *oom = shmemx_malloc_device((size_t)200 << 30);
        EXPECT(oom == NULL, "an allocation beyond the GPU's memory returned %p", oom);
    }
    void *after = shmemx_malloc_device(1 << 20);
    EXPECT(after != NULL, "allocation after a failed one");
    shmemx_free_device(after);
    EXPECT(shmemx_malloc_device(0) == NULL, "malloc_device(0)");
    shmemx_free_device(NULL);

    for (int i = 1; i < NB; i += 2)
        shmemx_free_device(blocks[i]);
    shmemx_free_device(b);
    return test_finish(small ? "gpu_heap --small" : "gpu_heap");
}
