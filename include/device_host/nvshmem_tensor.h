/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * NVSHMEM 3.4's tile types, under the path NVSHMEM's programs include them by: a tile is a
 * two-dimensional view of symmetric memory, a pointer and a layout (a shape and a stride, each
 * a tuple of two extents that are ints or compile-time ConstInts). The tile collectives that
 * take them are symm/tile.cuh's. C++17, CUDA's libcu++ (cuda/std).
 */
#ifndef SYMM_NVSHMEM_TENSOR_H
#define SYMM_NVSHMEM_TENSOR_H

#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <limits.h>

/* An extent known at compile time. */
template <int v> struct ConstInt : cuda::std::integral_constant<int, v> {
    __host__ __device__ constexpr operator int() const
    {
        return v;
    }
};

namespace nvshmemx {

template <class... Extents> using shape = cuda::std::tuple<Extents...>;
template <class... Extents> using stride = cuda::std::tuple<Extents...>;

template <class... Extents>
__host__ __device__ constexpr shape<Extents...> make_shape(Extents const &...e)
{
    return {e...};
}

template <class... Extents>
__host__ __device__ constexpr stride<Extents...> make_stride(Extents const &...e)
{
    return {e...};
}

template <class Shape, class Stride> struct Layout {
    Shape shape_;
    Stride stride_;

    __host__ __device__ constexpr Layout(Shape const &sh = {}, Stride const &st = {})
        : shape_(sh), stride_(st)
    {
    }
    __host__ __device__ constexpr Shape shape() const
    {
        return shape_;
    }
    __host__ __device__ constexpr Stride stride() const
    {
        return stride_;
    }
};

template <class Shape, class Stride>
__host__ __device__ constexpr Layout<Shape, Stride> make_layout(Shape const &sh, Stride const &st)
{
    return Layout<Shape, Stride>(sh, st);
}

/* Element (i0, i1) is at data()[i0 * stride<0> + i1 * stride<1>]. */
template <typename T, class LayoutT> struct Tensor {
    using value_type = T;
    using layout_type = LayoutT;
    T *_data;
    const LayoutT _layout;

    __host__ __device__ constexpr Tensor(T *data, LayoutT layout) : _data(data), _layout(layout)
    {
    }
    Tensor(LayoutT layout) : _data(NULL), _layout(layout)
    {
    }
    __host__ __device__ constexpr LayoutT layout() const
    {
        return _layout;
    }
    __host__ __device__ T *data()
    {
        return _data;
    }
    __host__ __device__ T *data() const
    {
        return _data;
    }
    __host__ __device__ constexpr decltype(_layout.stride()) stride() const
    {
        return _layout.stride();
    }
    __host__ __device__ constexpr decltype(_layout.shape()) shape() const
    {
        return _layout.shape();
    }
};

/* NVSHMEM's algorithms are all NVLink multicast ones; symm runs every one of them over the
 * peers' mappings (symm/tile.cuh says how), with the same completion rules. */
typedef enum {
    NVLS_ONE_SHOT_PUSH_NBI = 0,
    NVLS_ONE_SHOT_PULL_NBI = 1,
    NVLS_TWO_SHOT_PUSH_NBI = 2,
    NVLS_TWO_SHOT_PULL_NBI = 3,
    NVSHMEMI_TILE_ALGO_SENTINEL = INT_MAX
} tile_coll_algo_t;

} // namespace nvshmemx

#endif
