/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The library's kernels of synchronisation on a stream: the signal wait, the waits of the
 * point-to-point routines and the team barrier.
 */
#include "tl/cuda/kernels.cuh"

extern "C" __global__ void symm_k_signal_wait(unsigned long long *sig, int cmp,
                                              unsigned long long value)
{
    if (threadIdx.x == 0)
        symm_dev_wait("shmemx_signal_wait_until_on_stream", sig, cmp, value);
}

/* One thread: waits until every ivars[i] (status[i] zero, or no status) satisfies cmp with
 * value, or with values[i] when values is not NULL; symm_k_wait_KIND for the integer kinds of
 * the wait routines. */
#define SYMM_K_WAIT(KIND, T)                                                                     \
    extern "C" __global__ void symm_k_wait_##KIND(T *ivars, size_t n, const int *status,        \
                                                  int cmp, T value, const T *values)            \
    {                                                                                           \
        if (threadIdx.x == 0)                                                                   \
            symm_dev_wait_all("shmemx_wait_until_on_stream", ivars, n, status, cmp,             \
                              values ? values : &value, values != NULL);                        \
    }
SYMM_K_WAIT(i16, short)
SYMM_K_WAIT(u16, unsigned short)
SYMM_K_WAIT(i32, int)
SYMM_K_WAIT(u32, unsigned int)
SYMM_K_WAIT(i64, long long)
SYMM_K_WAIT(u64, unsigned long long)

/* One warp: a barrier (quiet) or sync of team tv. */
extern "C" __global__ void symm_k_barrier(int quiet, symm_dev_tv_t tv)
{
    symm_dev_team_barrier<SYMM_WARP>(tv, quiet != 0);
}
