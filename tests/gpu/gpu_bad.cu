/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Bad calls, each of which must end the job with one line in the house format naming the call
 * and the bad value (tests/gpu/run.sh runs every mode through tests/run_expect_fail.sh).
 * Compiled with SYMM_DEVICE_DEBUG, so device calls check their arguments. The far_ modes run
 * with the last PE on another node (symmrun --nodes 2): the others wait for it in a kernel's
 * barrier, through the proxy, while its kernel faults (far_fault) or it dies (far_kill).
 * Usage: gpu_bad MODE
 */
#include <shmem.h>
#include <shmemx_gpu.h>
#include <symm/device.cuh>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__global__ void bad_p_pe(int *p, int pe)
{
    shmem_int_p(p, 1, pe);
}

__global__ void bad_fault(int *p)
{
    *(volatile int *)((char *)p + ((size_t)1 << 46)) = 1;
}

__global__ void wait_barrier(void)
{
    shmem_barrier_all();
}

__global__ void bad_team(int *dest, const int *src)
{
    shmemx_int_sum_reduce_block((shmem_team_t)dest, dest, src, 1);
}

__global__ void bad_team_sync(shmem_team_t team)
{
    shmem_team_sync(team);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int *buf, *local;

    if (strcmp(mode, "before_init") == 0) {
        shmemx_malloc_device(64);
        return 0;
    }
    shmem_init();
    const int npes = shmem_n_pes(), last = npes - 1;
    if (strcmp(mode, "gpu_off") == 0) {
        shmemx_malloc_device(64);
        return 0;
    }
    if (strcmp(mode, "malloc_mismatch") == 0) {
        shmemx_malloc_device(shmem_my_pe() == 0 ? 1 << 20 : 2 << 20);
        return 0;
    }
    buf = (int *)shmemx_malloc_device(1 << 20);
    cudaMalloc(&local, 4096);
    shmem_team_t gone = SHMEM_TEAM_INVALID;
    if (strcmp(mode, "device_team_destroyed") == 0) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &gone);
        shmem_team_destroy(gone);
    }
    shmem_barrier_all();
    if (shmem_my_pe() != last) {
        /* The others wait (far_: in a kernel, for the last PE); the job must come down anyway. */
        if (strncmp(mode, "far_", 4) == 0) {
            wait_barrier<<<1, 1>>>();
            cudaDeviceSynchronize();
        }
        shmem_barrier_all();
        shmem_finalize();
        return 0;
    }
    if (strcmp(mode, "host_out_of_heap") == 0) {
        long v = 1;
        char *end = (char *)shmemx_device_heap_base(last) + shmemx_device_heap_size();
        shmem_putmem(end - 4, &v, 8, 0);
    } else if (strcmp(mode, "stream_pe") == 0) {
        shmemx_putmem_on_stream(buf, local, 8, npes, 0);
    } else if (strcmp(mode, "stream_addr") == 0) {
        shmemx_putmem_on_stream(local, buf, 8, 0, 0);
    } else if (strcmp(mode, "host_coll_device") == 0) {
        shmem_collectmem(SHMEM_TEAM_WORLD, buf, buf, 8);
    } else if (strcmp(mode, "host_reduce_device_type") == 0) {
        shmem_longdouble_sum_reduce(SHMEM_TEAM_WORLD, (long double *)buf, (long double *)buf, 1);
    } else if (strcmp(mode, "register_symmetric_bad") == 0) {
        shmemx_buffer_register_symmetric(local, 4096, 0);
    } else if (strcmp(mode, "free_bad") == 0) {
        shmemx_free_device(local);
    } else if (strcmp(mode, "device_pe") == 0) {
        bad_p_pe<<<1, 1>>>(buf, npes);
        cudaDeviceSynchronize();
        shmemx_barrier_all_on_stream(0);
    } else if (strcmp(mode, "device_addr") == 0) {
        bad_p_pe<<<1, 1>>>(local, 0);
        shmem_finalize();
    } else if (strcmp(mode, "device_team") == 0) {
        bad_team<<<1, 32>>>(buf, buf);
        shmem_finalize();
    } else if (strcmp(mode, "device_team_destroyed") == 0) {
        bad_team_sync<<<1, 1>>>(gone);
        shmem_finalize();
    } else if (strcmp(mode, "kernel_fault") == 0) {
        bad_fault<<<1, 1>>>(buf);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess)
            shmemx_gpu_fail("cudaDeviceSynchronize", cudaGetErrorString(e));
    } else if (strcmp(mode, "far_fault") == 0) {
        sleep(1); /* the others are in their kernels' barrier by now */
        bad_fault<<<1, 1>>>(buf);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess)
            shmemx_gpu_fail("cudaDeviceSynchronize", cudaGetErrorString(e));
    } else if (strcmp(mode, "far_kill") == 0) {
        sleep(1);
        raise(SIGKILL);
    } else if (strcmp(mode, "kernel_fault_unchecked") == 0) {
        bad_fault<<<1, 1>>>(buf);
        shmemx_barrier_all_on_stream(0);
        shmem_finalize();
    } else {
        fprintf(stderr, "gpu_bad: unknown mode '%s'\n", mode);
        return 2;
    }
    fprintf(stderr, "gpu_bad: mode '%s' was not caught\n", mode);
    return 3;
}
