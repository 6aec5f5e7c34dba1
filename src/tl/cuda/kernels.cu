/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The library's own kernels, behind the _on_stream calls: compiled by nvcc into a fat binary
 * that libsymm carries and loads through the driver at GPU start. They run the device API's
 * bodies (symm/impl), with this module's copy of the device state (symm_dev_c, a named
 * constant the library fills). The host has checked every argument.
 */
#define SYMM_DEV_LIBRARY 1

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <shmem.h>

#include "symm/impl/amo.cuh"
#include "symm/impl/coll.cuh"

/* Every kernel bounds its block at 1024 threads, so that the compiler keeps to the registers
 * such a block may use (the collectives run 1024-thread blocks). */

/* Copies through the window; every thread of the grid takes a share. */
extern "C" __global__ void __launch_bounds__(1024) symm_k_put(char *dst, const char *src,
                                                               size_t n)
{
    symm_dev_copy<false>(dst, src, n, blockIdx.x * blockDim.x + threadIdx.x,
                         gridDim.x * blockDim.x);
}

extern "C" __global__ void __launch_bounds__(1024) symm_k_get(char *dst, const char *src,
                                                               size_t n)
{
    symm_dev_copy<true>(dst, src, n, blockIdx.x * blockDim.x + threadIdx.x,
                        gridDim.x * blockDim.x);
}

/* One block: the data (if any), then the signal on the peer's word (sig is its window
 * address), released after the block's stores. */
extern "C" __global__ void __launch_bounds__(1024)
    symm_k_put_signal(char *dst, const char *src, size_t n, unsigned long long *sig,
                      unsigned long long value, int sig_op)
{
    if (n)
        symm_dev_copy<false>(dst, src, n, threadIdx.x, blockDim.x);
    __syncthreads();
    if (threadIdx.x == 0) {
        if (sig_op == SHMEM_SIGNAL_ADD)
            symm_dev_red_release_add(sig, value);
        else
            symm_dev_st_release(sig, value);
    }
}

extern "C" __global__ void symm_k_signal_wait(unsigned long long *sig, int cmp,
                                              unsigned long long value)
{
    if (threadIdx.x == 0)
        symm_dev_wait("shmemx_signal_wait_until_on_stream", sig, cmp, value);
}

/* One thread: stores the size low bytes of value (1, 2, 4 or 8, as the element's type) at
 * dst, the peer's window address. */
extern "C" __global__ void symm_k_p(void *dst, unsigned long long value, unsigned size)
{
    if (size == 8)
        *(unsigned long long *)dst = value;
    else if (size == 4)
        *(unsigned *)dst = (unsigned)value;
    else if (size == 2)
        *(unsigned short *)dst = (unsigned short)value;
    else
        *(unsigned char *)dst = (unsigned char)value;
}

/* Strided copy of n elements, each k words of wsize bytes (1, 2, 4, 8 or 16; the host picks
 * the widest that the addresses and strides allow): element i from src + i * sstride to
 * dst + i * dstride (strides in bytes); every thread of the grid takes a share. */
template <typename W>
static __device__ void strided_copy(char *dst, const char *src, long long dstride,
                                    long long sstride, size_t n, unsigned k)
{
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        for (unsigned j = 0; j < k; j++)
            ((W *)(dst + (long long)i * dstride))[j] =
                ((const W *)(src + (long long)i * sstride))[j];
}

extern "C" __global__ void __launch_bounds__(1024)
    symm_k_strided(char *dst, const char *src, long long dstride, long long sstride,
                   unsigned wsize, unsigned k, size_t n)
{
    if (wsize == 16)
        strided_copy<uint4>(dst, src, dstride, sstride, n, k);
    else if (wsize == 8)
        strided_copy<unsigned long long>(dst, src, dstride, sstride, n, k);
    else if (wsize == 4)
        strided_copy<unsigned>(dst, src, dstride, sstride, n, k);
    else if (wsize == 2)
        strided_copy<unsigned short>(dst, src, dstride, sstride, n, k);
    else
        strided_copy<unsigned char>(dst, src, dstride, sstride, n, k);
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

/* Collectives. The world (tv.slot 0): `ll` is the stream epoch of the small protocol (this
 * kernel's blocks split its pairs), or 0 for the large protocol (block b is channel b). A split
 * team (tv.slot > 1): one block runs the block-scope collective of the team's slot (small
 * data), or block b is channel b of the team's channels (large data, two blocks or more). */
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

/* symm_k_reduce_KIND_OP for every kind of the type table's SYMM_GPU_KINDS and every operator
 * the kind has. */
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
#define SYMM_K_REDUCE_KIND(A, KIND, T, BIT)                                                      \
    SYMM_IF_##BIT(SYMM_OPS_BITWISE(SYMM_K_REDUCE, KIND, T))                                     \
    SYMM_OPS_MINMAX(SYMM_K_REDUCE, KIND, T) SYMM_OPS_SUMPROD(SYMM_K_REDUCE, KIND, T)
SYMM_GPU_KINDS(SYMM_K_REDUCE_KIND, _)
SYMM_GPU_KINDS_NV(SYMM_K_REDUCE_KIND, _)

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
#define SYMM_K_RSCATTER_KIND(A, KIND, T, BIT)                                                    \
    SYMM_IF_##BIT(SYMM_OPS_BITWISE(SYMM_K_RSCATTER, KIND, T))                                   \
    SYMM_OPS_MINMAX(SYMM_K_RSCATTER, KIND, T) SYMM_OPS_SUMPROD(SYMM_K_RSCATTER, KIND, T)
SYMM_GPU_KINDS(SYMM_K_RSCATTER_KIND, _) SYMM_GPU_KINDS_NV(SYMM_K_RSCATTER_KIND, _)

/* Stream operations on a PE of another node: the device API's proxy path, from one thread.
 * op is the proxy's (symm/impl/proxy.h): PUT, GET, PUT_SIGNAL and P of n bytes, AMO (a
 * signal: SET or ADD of value on sig), QUIET. A put returns when the proxy has taken the
 * source, a get when the data is here; delivery is complete at the next quiet (which a stream
 * barrier runs too). */
extern "C" __global__ void symm_k_far(unsigned op, char *dest, const char *src, size_t n,
                                      int pe, unsigned long long *sig, unsigned long long value,
                                      int sig_op)
{
    if (op == SYMM_PX_PUT)
        symm_dev_px_rma<SYMM_THREAD, false, SYMM_PX_PUT>(dest, src, n, pe);
    else if (op == SYMM_PX_GET)
        symm_dev_px_rma<SYMM_THREAD, false, SYMM_PX_GET>(dest, src, n, pe);
    else if (op == SYMM_PX_PUT_SIGNAL)
        symm_dev_px_put_signal<SYMM_THREAD, false>(dest, src, n, sig, value, sig_op, pe);
    else if (op == SYMM_PX_P)
        symm_dev_px_p(dest, value, n, pe);
    else if (op == SYMM_PX_AMO)
        symm_dev_signal_op("", sig, value, sig_op, pe);
    else
        symm_dev_px_quiet();
}

/* Strided RMA on a PE of another node: the device API's iput or iget, one block. */
extern "C" __global__ void symm_k_far_strided(int put, char *dest, const char *src,
                                              ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                                              size_t size, int pe)
{
    if (put)
        symm_dev_iput<SYMM_BLOCK>("", dest, src, dst, sst, nelems, size, pe);
    else
        symm_dev_iget<SYMM_BLOCK>("", dest, src, dst, sst, nelems, size, pe);
}

/* The proxy's atomic on a word of this PE's device heap, asked by a PE of another node
 * (tl/proxy): the old value into *old, host memory the device maps. One thread. */
template <typename U>
static __device__ U symm_k_amo_op(unsigned op, U *p, U value, U cond)
{
    switch (op) {
    case SYMM_PX_AMO_SWAP:
        return atomicExch_system(p, value);
    case SYMM_PX_AMO_CSWAP:
        return atomicCAS_system(p, cond, value);
    case SYMM_PX_AMO_ADD:
        return atomicAdd_system(p, value);
    case SYMM_PX_AMO_AND:
        return atomicAnd_system(p, value);
    case SYMM_PX_AMO_OR:
        return atomicOr_system(p, value);
    case SYMM_PX_AMO_XOR:
        return atomicXor_system(p, value);
    default:
        return *(volatile U *)p;
    }
}

extern "C" __global__ void symm_k_amo(void *p, unsigned op, unsigned size,
                                      unsigned long long value, unsigned long long cond,
                                      unsigned long long *old)
{
    if (size == 4)
        *old = symm_k_amo_op<unsigned>(op, (unsigned *)p, (unsigned)value, (unsigned)cond);
    else
        *old = symm_k_amo_op<unsigned long long>(op, (unsigned long long *)p, value, cond);
    __threadfence_system();
}
