/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The library's kernels of reductions and reduce-scatters on a stream, symm_k_reduce_KIND_OP
 * and symm_k_rscatter_KIND_OP, for every kind of the type table's SYMM_GPU_KINDS and every
 * operator the kind has. They are most of the library's GPU code, so nvcc builds this file six
 * times side by side (cmake/gpu.cmake), one module for each pair of SYMM_K_STEM (SYMM_K_REDUCE
 * or SYMM_K_RSCATTER) and SYMM_K_OPS (SYMM_K_BITWISE, SYMM_K_MINMAX or SYMM_K_SUMPROD).
 */
#include "tl/cuda/kernels.cuh"

#if !defined(SYMM_K_STEM) || !defined(SYMM_K_OPS)
#error "kernels_reduce.cu is built by cmake/gpu.cmake with SYMM_K_STEM and SYMM_K_OPS set"
#endif

/* symm_k_reduce_KIND_OP. The world (tv.slot 0): `ll` is the stream epoch of the small
 * protocol (this kernel's blocks split its pairs), or 0 for the large protocol (block b is
 * channel b). A split team (tv.slot > 1): one block runs the block-scope reduction of the
 * team's slot (small data), or block b is channel b of the team's channels (large data, two
 * blocks or more). */
#define SYMM_K_REDUCE(KIND, T, OP)                                                               \
    extern "C" __global__ void __launch_bounds__(1024) symm_k_reduce_##KIND##_##OP(             \
        T *dest, const T *src, size_t n, unsigned long long ll, symm_dev_tv_t tv)               \
    {                                                                                           \
        if (ll)                                                                                 \
            symm_dev_ll_stream<SYMM_DEV_OP_##OP, T>(SYMM_COLL_REDUCE, dest, src, n * sizeof(T), \
                                                    0, ll);                                     \
        else if (tv.slot == 0 || gridDim.x > 1)                                                 \
            symm_dev_reduce<SYMM_BLOCK, SYMM_DEV_OP_##OP, T>(                                   \
                symm_dev_cc_channel(tv, blockIdx.x), dest, src, n, blockIdx.x, gridDim.x);      \
        else                                                                                    \
            symm_dev_reduce<SYMM_BLOCK, SYMM_DEV_OP_##OP, T>(symm_dev_cc_block(tv), dest, src,  \
                                                             n, 0, 1);                          \
    }

/* symm_k_rscatter_KIND_OP: dest[k] = block tv.me of source, element k, combined over the
 * members in team order, read through the window (a barrier before made the sources complete,
 * one after keeps them until every member has read). A team that spans nodes: one block runs
 * the device reduce-scatter, barriers included. */
#define SYMM_K_RSCATTER(KIND, T, OP)                                                             \
    extern "C" __global__ void __launch_bounds__(1024) symm_k_rscatter_##KIND##_##OP(           \
        T *dest, const T *src, size_t n, symm_dev_tv_t tv)                                      \
    {                                                                                           \
        const T *mine = src + (size_t)tv.me * n;                                                \
        if (!symm_dev_team_near(tv)) {                                                          \
            symm_dev_reducescatter<SYMM_BLOCK, SYMM_DEV_OP_##OP, T>(                            \
                tv.slot == 0 ? symm_dev_cc_channel(tv, 0) : symm_dev_cc_block(tv), dest, src, \
                n, 0, 1);                                                                       \
            return;                                                                             \
        }                                                                                       \
        for (size_t k = blockIdx.x * blockDim.x + threadIdx.x; k < n;                           \
             k += (size_t)gridDim.x * blockDim.x) {                                             \
            T acc = *symm_dev_xlate(mine + k, tv.start);                                        \
            for (int i = 1; i < tv.size; i++)                                                   \
                acc = symm_dev_combine<SYMM_DEV_OP_##OP, T>(                                    \
                    acc, *symm_dev_xlate(mine + k, tv.start + i * tv.stride));                  \
            dest[k] = acc;                                                                      \
        }                                                                                       \
    }

/* X(A, KIND, T, BIT) of SYMM_GPU_KINDS: the kernels A of one operator family for the kind, the
 * bitwise operators for the kinds that have them. */
#define SYMM_K_BITWISE(A, KIND, T, BIT) SYMM_IF_##BIT(SYMM_OPS_BITWISE(A, KIND, T))
#define SYMM_K_MINMAX(A, KIND, T, BIT) SYMM_OPS_MINMAX(A, KIND, T)
#define SYMM_K_SUMPROD(A, KIND, T, BIT) SYMM_OPS_SUMPROD(A, KIND, T)
SYMM_GPU_KINDS(SYMM_K_OPS, SYMM_K_STEM)
SYMM_GPU_KINDS_NV(SYMM_K_OPS, SYMM_K_STEM)
