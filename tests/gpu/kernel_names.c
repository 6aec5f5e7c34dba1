/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Prints the name of every library kernel the host looks up, one a line: tl/cuda/cuda.h's
 * SYMM_CUDA_KERNELS; the waits as api/stream.c names them, for every row of the type table
 * with device forms and the wait routines; the reductions and reduce-scatters as
 * coll/on_stream.c names them, for every kind of SYMM_GPU_KINDS and every operator the kind
 * has. The test gpu_kernel_names (cmake/kernel_names.cmake) checks that exactly one module of
 * the library's kernels defines each.
 */
#include <shmem.h>
#include <stdio.h>

#include "tl/cuda/cuda.h"

#define FIXED(k) puts("symm_k_" #k);
#define WAIT(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN,      \
             TOALL, TOBIT, OLD, DEV)                                                             \
    SYMM_IF_##DEV(SYMM_IF_##WAIT(                                                                \
        printf("symm_k_wait_%c%zu\n", !((T)0 < (T)-1) ? 'i' : 'u', 8 * sizeof(T));))
#define OP(KIND, T, OP) puts("symm_k_reduce_" #KIND "_" #OP "\nsymm_k_rscatter_" #KIND "_" #OP);
#define KIND_OPS(A, KIND, T, BIT)                                                                \
    SYMM_IF_##BIT(SYMM_OPS_BITWISE(OP, KIND, T)) SYMM_OPS_MINMAX(OP, KIND, T)                   \
        SYMM_OPS_SUMPROD(OP, KIND, T)

int main(void)
{
    SYMM_CUDA_KERNELS(FIXED)
    SYMM_TYPE_TABLE(WAIT, _)
    SYMM_GPU_KINDS(KIND_OPS, _)
    SYMM_GPU_KINDS_NV(KIND_OPS, _)
    return 0;
}
