/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Kernels that gpu_nvcompat loads as a module (built with -cubin, no -rdc, loaded with
 * cuModuleLoad and given its device state by nvshmemx_cumodule_init), as NVSHMEM programs that
 * load their kernels at run time do.
 */
#include <nvshmem.h>

/* Stores base + this PE's number into dest on the right neighbour. */
extern "C" __global__ void module_p(int *dest, int base)
{
    int me = nvshmem_my_pe();

    nvshmem_int_p(dest, base + me, (me + 1) % nvshmem_n_pes());
}
