/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * What every GPU test shares: CUDA error checks that end the job through symm's error path,
 * a device-side failure counter (kernels count and the host reads it), host-side EXPECT, and
 * the summary at the end (PE 0 prints one line for the job; every PE exits non-zero when any
 * PE failed). A test exits with 77 (skip) when no GPU is visible.
 */
#ifndef SYMM_GPU_TEST_H
#define SYMM_GPU_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shmem.h>
#include <shmemx_gpu.h>
#include <symm/device.cuh>

#define GPU_SKIP 77

#define CUDA_CHECK(expr)                                                                         \
    do {                                                                                        \
        cudaError_t e_ = (expr);                                                                \
        if (e_ != cudaSuccess) {                                                                \
            char w_[256];                                                                       \
            snprintf(w_, sizeof(w_), "%s:%d: %s", __FILE__, __LINE__, cudaGetErrorString(e_));  \
            shmemx_gpu_fail(#expr, w_);                                                         \
        }                                                                                       \
    } while (0)

/* After a launch: the launch itself, then the kernel's completion. */
#define KERNEL_CHECK()                                                                           \
    do {                                                                                        \
        CUDA_CHECK(cudaGetLastError());                                                         \
        CUDA_CHECK(cudaDeviceSynchronize());                                                    \
    } while (0)

static long gt_errors, gt_checks;
static unsigned long long *gt_dev_errors; /* device counter, pinned host memory */

#define EXPECT(cond, ...)                                                                        \
    do {                                                                                        \
        gt_checks++;                                                                            \
        if (!(cond)) {                                                                          \
            if (++gt_errors <= 20) {                                                            \
                fprintf(stderr, "FAIL [pe %d] %s:%d: ", shmem_my_pe(), __FILE__, __LINE__);     \
                fprintf(stderr, __VA_ARGS__);                                                   \
                fputc('\n', stderr);                                                            \
            }                                                                                   \
        }                                                                                       \
    } while (0)

/* In a kernel: count a failure (and print the first few). */
#define DEXPECT(errs, cond, fmt, ...)                                                            \
    do {                                                                                        \
        if (!(cond)) {                                                                          \
            if (atomicAdd((errs), 1ull) < 8)                                                    \
                printf("FAIL [pe %d] %s:%d: " fmt "\n", shmem_my_pe(), __FILE__, __LINE__,      \
                       ##__VA_ARGS__);                                                          \
        }                                                                                       \
    } while (0)

/* Starts the job; 77 when this machine has no GPU (the test is skipped, not failed). */
static inline void gt_init(void)
{
    int n = 0;

    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        printf("no GPU: skipped\n");
        exit(GPU_SKIP);
    }
    shmem_init();
    if (shmemx_gpu_device() < 0)
        shmemx_gpu_fail("gt_init", "the GPU part did not start at shmem_init");
    CUDA_CHECK(cudaSetDevice(shmemx_gpu_device()));
    CUDA_CHECK(cudaHostAlloc((void **)&gt_dev_errors, sizeof(*gt_dev_errors), cudaHostAllocMapped));
    *gt_dev_errors = 0;
}

/* The failures kernels counted so far, folded into the host count. */
static inline void gt_collect(const char *what)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    gt_checks++;
    if (*gt_dev_errors) {
        gt_errors += (long)*gt_dev_errors;
        fprintf(stderr, "FAIL [pe %d] %s: %llu device checks failed\n", shmem_my_pe(), what,
                *gt_dev_errors);
        *gt_dev_errors = 0;
    }
}

/* Collective: prints the job's summary on PE 0 and finalizes; returns the exit status. */
static inline int gt_finish(const char *name)
{
    static long total; /* symmetric */
    long mine = gt_errors;
    int me = shmem_my_pe(), n = shmem_n_pes();

    shmem_barrier_all();
    shmem_long_atomic_add(&total, mine, 0);
    shmem_barrier_all();
    if (me == 0) {
        printf("%s: %d PEs, %ld checks on pe 0, %ld failures in all\n", name, n, gt_checks,
               total);
        fflush(stdout);
    }
    mine = shmem_long_atomic_fetch(&total, 0);
    shmem_finalize();
    return (gt_errors || mine) ? 1 : 0;
}

#endif
