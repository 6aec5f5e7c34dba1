/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The library's kernels of RMA on a stream (puts, gets, put with signal, p, strided copies),
 * of stream operations on PEs of other nodes (through the proxy), and the proxy's atomics on
 * this PE's device heap.
 */
#include "tl/cuda/kernels.cuh"

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
