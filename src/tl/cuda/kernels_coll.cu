/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The library's kernels of the collectives that move data without combining it: alltoall,
 * fcollect and broadcast. The world (tv.slot 0): `ll` is the stream epoch of the small protocol
 * (this kernel's blocks split its pairs), or 0 for the large protocol (block b is channel b).
 * A split team (tv.slot > 1): one block runs the block-scope collective of the team's slot
 * (small data), or block b is channel b of the team's channels (large data, two blocks or
 * more).
 */
#include "tl/cuda/kernels.cuh"

template <bool ALLTOALL>
static __device__ void symm_k_exchange(void *dest, const void *src, size_t nbytes,
                                       unsigned long long ll, symm_dev_tv_t tv)
{
    if (ll)
        symm_dev_ll_stream<SYMM_DEV_OP_sum, char>(
            ALLTOALL ? SYMM_COLL_ALLTOALL : SYMM_COLL_FCOLLECT, dest, src, nbytes, 0, ll);
    else if (tv.slot == 0 || gridDim.x > 1)
        symm_dev_exchange<SYMM_BLOCK, ALLTOALL>(symm_dev_cc_channel(tv, blockIdx.x), dest, src,
                                                nbytes, blockIdx.x, gridDim.x);
    else
        symm_dev_exchange<SYMM_BLOCK, ALLTOALL>(symm_dev_cc_block(tv), dest, src, nbytes, 0, 1);
}

extern "C" __global__ void __launch_bounds__(1024)
    symm_k_alltoall(void *dest, const void *src, size_t nbytes, unsigned long long ll,
                    symm_dev_tv_t tv)
{
    symm_k_exchange<true>(dest, src, nbytes, ll, tv);
}

extern "C" __global__ void __launch_bounds__(1024)
    symm_k_fcollect(void *dest, const void *src, size_t nbytes, unsigned long long ll,
                    symm_dev_tv_t tv)
{
    symm_k_exchange<false>(dest, src, nbytes, ll, tv);
}

extern "C" __global__ void __launch_bounds__(1024)
    symm_k_broadcast(void *dest, const void *src, size_t nbytes, int root, unsigned long long ll,
                     symm_dev_tv_t tv)
{
    if (ll)
        symm_dev_ll_stream<SYMM_DEV_OP_sum, char>(SYMM_COLL_BROADCAST, dest, src, nbytes, root,
                                                  ll);
    else if (tv.slot == 0 || gridDim.x > 1)
        symm_dev_broadcast<SYMM_BLOCK>(symm_dev_cc_channel(tv, blockIdx.x), dest, src, nbytes,
                                       root, blockIdx.x, gridDim.x);
    else
        symm_dev_broadcast<SYMM_BLOCK>(symm_dev_cc_block(tv), dest, src, nbytes, root, 0, 1);
}
