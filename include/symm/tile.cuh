/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * NVSHMEM 3.4's tile collectives (nvshmemx::tile_sum_allreduce, _max_, _min_, the reduce
 * forms with a root, tile_allgather and tile_collective_wait), at thread, warp, warpgroup (128
 * threads) and block scope, on the tiles of device_host/nvshmem_tensor.h (half, bfloat16 and
 * float; any two-dimensional layout).
 *
 * NVSHMEM runs them with NVLink multicast only. symm never uses multicast: every PE reaches the
 * team's other members through their mappings in the device window, as every device routine
 * does, so the members must be PEs of this node.
 *  - allreduce: each PE reads every member's source tile and writes the result into its own
 *    destination (16-bit types combine in float, members in team order, so every PE gets the
 *    same bits); reduce: the root alone does.
 *  - allgather: each PE writes its source tile into every member's destination tile at the
 *    same positions (the program points each PE's destination at that PE's part of the
 *    gathered tile).
 * The algorithm names keep their completion rules: after a PUSH algorithm,
 * tile_collective_wait syncs the team (every member's writes have landed when it returns);
 * after a PULL one, it orders the group's own writes. Sources must be ready on every member
 * before the call, as with NVSHMEM. start_coord and boundary (tuples of two ints, or an empty
 * struct for none) leave out the elements whose coordinates start_coord + (i0, i1) are not
 * below boundary. flag is not used (NVSHMEM requires 0).
 */
#ifndef SYMM_TILE_CUH
#define SYMM_TILE_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "../device_host/nvshmem_tensor.h"
#include "symm/device.cuh"

/* ---- Tiles -------------------------------------------------------------------------------- */
template <int D, class Tuple> SYMM_DEV long symm_tile_at(const Tuple &t)
{
    return (long)(int)cuda::std::get<D>(t);
}

/* Whether start + (i0, i1) is below boundary (always, for an empty tuple type). */
template <class Coord> SYMM_DEV bool symm_tile_inside(const Coord &start, const Coord &bound,
                                                      long i0, long i1)
{
    if constexpr (cuda::std::is_empty<Coord>::value) {
        return true;
    } else {
        return symm_tile_at<0>(start) + i0 < symm_tile_at<0>(bound) &&
               symm_tile_at<1>(start) + i1 < symm_tile_at<1>(bound);
    }
}

template <class Tile> SYMM_DEV long symm_tile_offset(const Tile &t, long i0, long i1)
{
    return i0 * symm_tile_at<0>(t.stride()) + i1 * symm_tile_at<1>(t.stride());
}

/* f(i0, i1) for every element of the source tile's shape inside the boundary, spread over the
 * group's threads, the source's contiguous dimension fastest. */
template <int S, class Tile, class Coord, class F>
SYMM_DEV void symm_tile_each(const Tile &src, const Coord &start, const Coord &bound, F f)
{
    const long n0 = symm_tile_at<0>(src.shape()), n1 = symm_tile_at<1>(src.shape());
    const bool dim0_fast = symm_tile_at<0>(src.stride()) == 1;

    for (long k = symm_dev_tid<S>(); k < n0 * n1; k += symm_dev_nth<S>()) {
        long i0 = dim0_fast ? k % n0 : k / n1, i1 = dim0_fast ? k / n0 : k % n1;
        if (symm_tile_inside(start, bound, i0, i1))
            f(i0, i1);
    }
}

/* Ends the kernel unless every member of t maps data (is a PE of this node). */
SYMM_DEV void symm_tile_near(const char *call, const void *data, const symm_dev_tv_t &t)
{
    for (int i = 0; i < t.size; i++) {
        int pe = t.start + i * t.stride;
        if (symm_dev_ptr(data, pe) == NULL)
            symm_dev_fail(SYMM_DEV_ERR_FAR, call, pe, data, 0);
    }
}

/* Member i's address of p, an address of this PE's heap. */
template <typename T> SYMM_DEV T *symm_tile_peer(T *p, const symm_dev_tv_t &t, int i)
{
    return symm_dev_xlate(p, t.start + i * t.stride);
}

template <typename T> struct symm_tile_acc {
    typedef T type;
};
template <> struct symm_tile_acc<__half> {
    typedef float type;
};
template <> struct symm_tile_acc<__nv_bfloat16> {
    typedef float type;
};

/* dst = the members' src combined by OP, in team order, on this PE. */
template <int S, int OP, class Src, class Dst, class Coord>
SYMM_DEV void symm_tile_reduce(const char *call, const void *team, const Src &src,
                               const Dst &dst, const Coord &start, const Coord &bound, int root)
{
    typedef typename Src::value_type T;
    typedef typename symm_tile_acc<T>::type A;
    const symm_dev_tv_t t = symm_dev_team(call, team);

    if (root >= t.size)
        symm_dev_fail(SYMM_DEV_ERR_ARG, call, t.me, src.data(), (size_t)root);
    if (root >= 0 && root != t.me)
        return;
    symm_tile_near(call, src.data(), t);
    symm_tile_each<S>(src, start, bound, [&](long i0, long i1) {
        const T *at = src.data() + symm_tile_offset(src, i0, i1);
        A acc = (A)symm_dev_ldcg(symm_tile_peer(at, t, 0));
        for (int i = 1; i < t.size; i++)
            acc = symm_dev_combine<OP, A>(acc, (A)symm_dev_ldcg(symm_tile_peer(at, t, i)));
        dst.data()[symm_tile_offset(dst, i0, i1)] = (T)acc;
    });
}

template <int S, class Src, class Dst, class Coord>
SYMM_DEV void symm_tile_allgather(const char *call, const void *team, const Src &src,
                                  const Dst &dst, const Coord &start, const Coord &bound)
{
    const symm_dev_tv_t t = symm_dev_team(call, team);

    symm_tile_near(call, dst.data(), t);
    symm_tile_each<S>(src, start, bound, [&](long i0, long i1) {
        const auto v = src.data()[symm_tile_offset(src, i0, i1)];
        auto *at = dst.data() + symm_tile_offset(dst, i0, i1);
        for (int k = 0; k < t.size; k++) /* from this PE on, so members spread their stores */
            *symm_tile_peer(at, t, (t.me + k) % t.size) = v;
    });
}

template <int S, nvshmemx::tile_coll_algo_t algo>
SYMM_DEV void symm_tile_wait(const char *call, const void *team)
{
    symm_dev_sync<S>();
    if (algo == nvshmemx::NVLS_ONE_SHOT_PUSH_NBI || algo == nvshmemx::NVLS_TWO_SHOT_PUSH_NBI) {
        if (symm_dev_tid<S>() == 0) {
            symm_dev_fence_sys();
            symm_dev_team_barrier<SYMM_THREAD>(symm_dev_team(call, team), false);
        }
    } else {
        __threadfence();
    }
    symm_dev_sync<S>();
}

/* ---- NVSHMEM's names ----------------------------------------------------------------------- */
namespace nvshmemx {

#define SYMM_TILE_REDUCE(OP, SUFFIX, S)                                                          \
    template <typename src_tensor_t, typename dst_tensor_t, typename tuple_t,                   \
              nvshmemx::tile_coll_algo_t algo>                                                  \
    __device__ inline int tile_##OP##_allreduce##SUFFIX(nvshmem_team_t team, src_tensor_t src,    \
                                                        dst_tensor_t dst, tuple_t start_coord,  \
                                                        tuple_t boundary, uint64_t flag)        \
    {                                                                                           \
        (void)flag;                                                                             \
        symm_tile_reduce<S, SYMM_DEV_OP_##OP>("tile_" #OP "_allreduce" #SUFFIX,                \
                                              SHMEMX_TEAM_OF_INDEX(team), src, dst,             \
                                              start_coord, boundary, -1);                       \
        return 0;                                                                               \
    }                                                                                           \
    /* With a root argument, which an allreduce does not use: every member gets the result. */  \
    template <typename src_tensor_t, typename dst_tensor_t, typename tuple_t,                   \
              nvshmemx::tile_coll_algo_t algo>                                                  \
    __device__ inline int tile_##OP##_allreduce##SUFFIX(nvshmem_team_t team, src_tensor_t src,    \
                                                        dst_tensor_t dst, tuple_t start_coord,  \
                                                        tuple_t boundary, int root,             \
                                                        uint64_t flag)                          \
    {                                                                                           \
        (void)root;                                                                             \
        return tile_##OP##_allreduce##SUFFIX<src_tensor_t, dst_tensor_t, tuple_t, algo>(        \
            team, src, dst, start_coord, boundary, flag);                                       \
    }                                                                                           \
    template <typename src_tensor_t, typename dst_tensor_t, typename tuple_t,                   \
              nvshmemx::tile_coll_algo_t algo>                                                  \
    __device__ inline int tile_##OP##_reduce##SUFFIX(nvshmem_team_t team, src_tensor_t src,       \
                                                     dst_tensor_t dst, tuple_t start_coord,     \
                                                     tuple_t boundary, int root, uint64_t flag) \
    {                                                                                           \
        (void)flag;                                                                             \
        if (root < 0)                                                                           \
            symm_dev_fail(SYMM_DEV_ERR_ARG, "tile_" #OP "_reduce" #SUFFIX, symm_dev_c.my_pe,     \
                          src.data(), (size_t)root);                                            \
        symm_tile_reduce<S, SYMM_DEV_OP_##OP>("tile_" #OP "_reduce" #SUFFIX,                   \
                                              SHMEMX_TEAM_OF_INDEX(team), src, dst,             \
                                              start_coord, boundary, root);                     \
        return 0;                                                                               \
    }

#define SYMM_TILE_SCOPE(SUFFIX, S)                                                               \
    SYMM_TILE_REDUCE(sum, SUFFIX, S)                                                            \
    SYMM_TILE_REDUCE(max, SUFFIX, S)                                                            \
    SYMM_TILE_REDUCE(min, SUFFIX, S)                                                            \
    template <typename src_tensor_t, typename dst_tensor_t, typename tuple_t,                   \
              nvshmemx::tile_coll_algo_t algo>                                                  \
    __device__ inline int tile_allgather##SUFFIX(nvshmem_team_t team, src_tensor_t src,           \
                                                 dst_tensor_t dst, tuple_t start_coord,         \
                                                 tuple_t boundary, uint64_t flag)               \
    {                                                                                           \
        (void)flag;                                                                             \
        symm_tile_allgather<S>("tile_allgather" #SUFFIX, SHMEMX_TEAM_OF_INDEX(team), src, dst,  \
                               start_coord,                                                     \
                               boundary);                                                       \
        return 0;                                                                               \
    }                                                                                           \
    template <nvshmemx::tile_coll_algo_t algo>                                                  \
    __device__ inline int tile_collective_wait##SUFFIX(nvshmem_team_t team, uint64_t flag)        \
    {                                                                                           \
        (void)flag;                                                                             \
        symm_tile_wait<S, algo>("tile_collective_wait" #SUFFIX, SHMEMX_TEAM_OF_INDEX(team));    \
        return 0;                                                                               \
    }

SYMM_TILE_SCOPE(, SYMM_THREAD)
SYMM_TILE_SCOPE(_warp, SYMM_WARP)
SYMM_TILE_SCOPE(_warpgroup, SYMM_WARPGROUP)
SYMM_TILE_SCOPE(_block, SYMM_BLOCK)
#undef SYMM_TILE_SCOPE
#undef SYMM_TILE_REDUCE

} // namespace nvshmemx

#endif
