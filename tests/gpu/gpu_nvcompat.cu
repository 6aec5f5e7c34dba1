/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The host and stream side of NVSHMEM 3.4's API, called by its NVSHMEM names: the version and
 * status queries, the team configuration struct, teams from a unique id, nvshmem_realloc,
 * registered buffers outside the heap (pageable host memory and cudaMalloc memory as local
 * sources and destinations of stream RMA), buffers the program made with cuMemCreate
 * registered as symmetric, a module loaded with cuModuleLoad and given its state by
 * nvshmemx_cumodule_init, the collective launch's grid-size query, and for every type with
 * device forms the typed calls on a stream: put, get, their _nbi forms, p, g, iput, iget, put
 * with signal (and _nbi), alltoall, broadcast, fcollect, the waits, and every reduce-scatter
 * operator (on the stream and from the host on device memory); half and bfloat16 (RMA, p in a
 * kernel, collectives, reductions); the sized forms and the _nbi mem forms; the tile
 * collectives in kernels. Every PE writes to its right neighbour or reads from it, values
 * name the writer and the index, and every element is checked exactly.
 *   gpu_nvcompat MODULE.cubin
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <cuda_runtime.h>
#include <nvshmem.h>
#include <nvshmemx.h>

#include "../harness.h"

#define N 300 /* elements per PE and region */

/* The value PE pe has at index i (below 120: exact in every type). */
template <typename T> static T val(int pe, size_t i)
{
    return (T)((pe * 37 + i * 3 + 1) % 120);
}

static cudaStream_t st;
static int me, npes, right, left;

static void sync_all(void)
{
    nvshmemx_barrier_all_on_stream(st);
    CUDA_CHECK(cudaStreamSynchronize(st));
}

/* Host copy of n elements of a device buffer. */
template <typename T> static void fetch(T *host, const T *dev, size_t n)
{
    CUDA_CHECK(cudaMemcpy(host, dev, n * sizeof(T), cudaMemcpyDeviceToHost));
}

/* dst cleared on every PE (and the clear ordered before any peer writes). */
template <typename T> static void clear(T *dst, size_t n)
{
    CUDA_CHECK(cudaMemset(dst, 0, n * sizeof(T)));
    CUDA_CHECK(cudaDeviceSynchronize());
    nvshmem_barrier_all();
}

/* Counts the elements h[i], i < n, that differ from expect_expr (of i); reports the first. */
#define CHECK_RUN(what, h, n, expect_expr)                                                       \
    do {                                                                                        \
        size_t bad_ = 0, at_ = 0;                                                               \
        for (size_t i = 0; i < (n); i++)                                                        \
            if (!((h)[i] == (expect_expr)) && !bad_++)                                          \
                at_ = i;                                                                        \
        EXPECT(bad_ == 0, "%s: %zu of %zu elements wrong, the first at %zu", what, bad_,        \
               (size_t)(n), at_);                                                               \
    } while (0)

/* ---- Typed calls on a stream, for every type with device forms ------------------------------ */
#define TYPED(NAME, T)                                                                           \
    static void typed_##NAME(void)                                                              \
    {                                                                                           \
        const size_t all = (size_t)N * npes;                                                    \
        T *src = (T *)nvshmem_malloc(all * sizeof(T)), *dst = (T *)nvshmem_malloc(all * sizeof(T)); \
        uint64_t *sig = (uint64_t *)nvshmem_calloc(1, sizeof(uint64_t));                         \
        T *h = (T *)malloc(all * sizeof(T));                                                    \
        REQUIRE(src && dst && sig && h, #NAME ": allocation failed");                           \
        for (size_t i = 0; i < all; i++)                                                        \
            h[i] = val<T>(me, i);                                                               \
        CUDA_CHECK(cudaMemcpy(src, h, all * sizeof(T), cudaMemcpyHostToDevice));                \
        clear(dst, all);                                                                        \
        nvshmemx_##NAME##_put_on_stream(dst, src, N, right, st);                                \
        nvshmemx_##NAME##_put_nbi_on_stream(dst + N / 2, src + N / 2, N / 2, right, st);        \
        sync_all();                                                                             \
        fetch(h, dst, N);                                                                       \
        CHECK_RUN(#NAME "_put_on_stream", h, N, val<T>(left, i));                               \
        clear(dst, all);                                                                        \
        nvshmemx_##NAME##_get_on_stream(dst, src, N / 2, right, st);                            \
        nvshmemx_##NAME##_get_nbi_on_stream(dst + N / 2, src + N / 2, N - N / 2, right, st);    \
        CUDA_CHECK(cudaStreamSynchronize(st));                                                  \
        fetch(h, dst, N);                                                                       \
        CHECK_RUN(#NAME "_get_on_stream", h, N, val<T>(right, i));                              \
        clear(dst, all);                                                                        \
        nvshmemx_##NAME##_p_on_stream(dst + 7, val<T>(me, 70), right, st);                      \
        sync_all();                                                                             \
        fetch(h, dst, 8);                                                                       \
        EXPECT(h[7] == val<T>(left, 70) && h[6] == (T)0, #NAME "_p_on_stream");                 \
        T g = nvshmemx_##NAME##_g_on_stream(src + 11, right, st);                               \
        EXPECT(g == val<T>(right, 11), #NAME "_g_on_stream");                                   \
        clear(dst, all);                                                                        \
        /* dst[3k] on the right = src[2k] here, k < N / 3 */                                    \
        nvshmemx_##NAME##_iput_on_stream(dst, src, 3, 2, N / 3, right, st);                     \
        sync_all();                                                                             \
        fetch(h, dst, N);                                                                       \
        CHECK_RUN(#NAME "_iput_on_stream", h, N,                                                \
                  i % 3 == 0 && i / 3 < N / 3 ? val<T>(left, 2 * (i / 3)) : (T)0);              \
        clear(dst, all);                                                                        \
        /* dst[2k] here = src[3k] on the right */                                               \
        nvshmemx_##NAME##_iget_on_stream(dst, src, 2, 3, N / 3, right, st);                     \
        CUDA_CHECK(cudaStreamSynchronize(st));                                                  \
        fetch(h, dst, N);                                                                       \
        CHECK_RUN(#NAME "_iget_on_stream", h, N,                                                \
                  i % 2 == 0 && i / 2 < N / 3 ? val<T>(right, 3 * (i / 2)) : (T)0);             \
        clear(dst, all);                                                                        \
        nvshmemx_##NAME##_put_signal_on_stream(dst, src, N / 2, sig, 1, NVSHMEM_SIGNAL_ADD,     \
                                               right, st);                                      \
        nvshmemx_##NAME##_put_signal_nbi_on_stream(dst + N / 2, src + N / 2, N - N / 2, sig, 1, \
                                                   NVSHMEM_SIGNAL_ADD, right, st);              \
        nvshmemx_signal_wait_until_on_stream(sig, NVSHMEM_CMP_EQ, 2, st);                       \
        CUDA_CHECK(cudaStreamSynchronize(st));                                                  \
        fetch(h, dst, N);                                                                       \
        CHECK_RUN(#NAME "_put_signal_on_stream", h, N, val<T>(left, i));                        \
        clear(dst, all);                                                                        \
        nvshmemx_##NAME##_alltoall_on_stream(NVSHMEM_TEAM_WORLD, dst, src, N, st);              \
        CUDA_CHECK(cudaStreamSynchronize(st));                                                  \
        fetch(h, dst, all);                                                                     \
        CHECK_RUN(#NAME "_alltoall_on_stream", h, all, val<T>((int)(i / N), me * N + i % N));   \
        clear(dst, all);                                                                        \
        nvshmemx_##NAME##_fcollect_on_stream(NVSHMEM_TEAM_WORLD, dst, src, N, st);              \
        CUDA_CHECK(cudaStreamSynchronize(st));                                                  \
        fetch(h, dst, all);                                                                     \
        CHECK_RUN(#NAME "_fcollect_on_stream", h, all, val<T>((int)(i / N), i % N));            \
        clear(dst, all);                                                                        \
        nvshmemx_##NAME##_broadcast_on_stream(NVSHMEM_TEAM_WORLD, dst, src, N, npes - 1, st);   \
        CUDA_CHECK(cudaStreamSynchronize(st));                                                  \
        fetch(h, dst, N);                                                                       \
        CHECK_RUN(#NAME "_broadcast_on_stream", h, N, val<T>(npes - 1, i));                     \
        nvshmem_barrier_all();                                                                  \
        free(h);                                                                                \
        nvshmem_free(sig);                                                                      \
        nvshmem_free(dst);                                                                      \
        nvshmem_free(src);                                                                      \
    }

/* The waits: the left neighbour stores 5 into flags[0..3] with p_on_stream; this PE's stream
 * waits for one flag, for all (flags[2] masked by status), and for all against a vector. */
#define WAITS(NAME, T)                                                                           \
    static void waits_##NAME(void)                                                              \
    {                                                                                           \
        T *flags = (T *)nvshmem_calloc(4, sizeof(T));                                           \
        T *cmp_values, got[4];                                                                  \
        int *status, host_status[4] = {0, 0, 1, 0};                                             \
        const T five = (T)5, host_cmp[4] = {(T)5, (T)5, (T)0, (T)5};                            \
        CUDA_CHECK(cudaMalloc(&status, sizeof(host_status)));                                   \
        CUDA_CHECK(cudaMalloc(&cmp_values, sizeof(host_cmp)));                                  \
        CUDA_CHECK(cudaMemcpy(status, host_status, sizeof(host_status), cudaMemcpyHostToDevice)); \
        CUDA_CHECK(cudaMemcpy(cmp_values, host_cmp, sizeof(host_cmp), cudaMemcpyHostToDevice)); \
        nvshmem_barrier_all();                                                                  \
        nvshmemx_##NAME##_p_on_stream(flags, five, right, st);                                  \
        nvshmemx_##NAME##_wait_until_on_stream(flags, NVSHMEM_CMP_EQ, five, st);                \
        nvshmemx_##NAME##_p_on_stream(flags + 1, five, right, st);                              \
        nvshmemx_##NAME##_p_on_stream(flags + 3, five, right, st);                              \
        nvshmemx_##NAME##_wait_until_all_on_stream(flags, 4, status, NVSHMEM_CMP_GE, five, st); \
        nvshmemx_##NAME##_wait_until_all_vector_on_stream(flags, 4, status, NVSHMEM_CMP_EQ,     \
                                                          cmp_values, st);                      \
        CUDA_CHECK(cudaStreamSynchronize(st));                                                  \
        fetch(got, flags, 4);                                                                   \
        EXPECT(got[0] == five && got[1] == five && got[2] == (T)0 && got[3] == five,            \
               #NAME "_wait_until_on_stream");                                                  \
        nvshmem_barrier_all();                                                                  \
        CUDA_CHECK(cudaFree(cmp_values));                                                       \
        CUDA_CHECK(cudaFree(status));                                                           \
        nvshmem_free(flags);                                                                    \
    }

/* Reduce-scatter of block size N: team PE i gets block i of every PE's source reduced. The
 * values keep every result exact in every type at 8 PEs: val() for max, min and the bitwise
 * operators; below 15 for sums; 1 or 2 (at most three 2s) for products. */
template <typename T> static T rs_val(int op, int pe, size_t i)
{
    if (op == 'p')
        return (T)((pe + i) % 3 == 0 ? 2 : 1);
    if (op == 's')
        return (T)((pe + i) % 15);
    return val<T>(pe, i);
}

template <typename T> static T rs_want(int op, size_t i)
{
    T acc = rs_val<T>(op, 0, i);
    for (int p = 1; p < npes; p++) {
        T v = rs_val<T>(op, p, i);
        if (op == 's')
            acc = (T)(acc + v);
        else if (op == 'p')
            acc = (T)(acc * v);
        else if (op == 'M')
            acc = v > acc ? v : acc;
        else if (op == 'm')
            acc = v < acc ? v : acc;
    }
    return acc;
}

template <typename T> static T rs_want_bits(int op, size_t i)
{
    unsigned long long acc = (unsigned long long)val<T>(0, i);
    for (int p = 1; p < npes; p++) {
        unsigned long long v = (unsigned long long)val<T>(p, i);
        acc = op == '&' ? acc & v : op == '|' ? acc | v : acc ^ v;
    }
    return (T)acc;
}

template <typename T>
static void rs_case(const char *what, int op, int host, int bits,
                    int (*fn)(nvshmem_team_t, T *, const T *, size_t, cudaStream_t))
{
    const size_t all = (size_t)N * npes;
    T *src = (T *)nvshmem_malloc(all * sizeof(T)), *dst = (T *)nvshmem_malloc(N * sizeof(T));
    T *h = (T *)malloc(all * sizeof(T));

    REQUIRE(src && dst && h, "%s: allocation failed", what);
    for (size_t i = 0; i < all; i++)
        h[i] = rs_val<T>(op, me, i);
    CUDA_CHECK(cudaMemcpy(src, h, all * sizeof(T), cudaMemcpyHostToDevice));
    clear(dst, N);
    EXPECT(fn(NVSHMEM_TEAM_WORLD, dst, src, N, host ? NULL : st) == 0, "%s returned non-zero",
           what);
    CUDA_CHECK(cudaStreamSynchronize(st));
    fetch(h, dst, N);
    if (bits)
        CHECK_RUN(what, h, N, rs_want_bits<T>(op, me * N + i));
    else
        CHECK_RUN(what, h, N, rs_want<T>(op, me * N + i));
    nvshmem_barrier_all();
    free(h);
    nvshmem_free(dst);
    nvshmem_free(src);
}

/* Each operator on the stream, and from the host (a host call on device-heap buffers). */
#define RS_OP(NAME, T, OP, CODE, BITS)                                                           \
    {                                                                                           \
        struct on_stream {                                                                      \
            static int f(nvshmem_team_t t, T *d, const T *s, size_t n, cudaStream_t q)          \
            {                                                                                   \
                return nvshmemx_##NAME##_##OP##_reducescatter_on_stream(t, d, s, n, q);         \
            }                                                                                   \
            static int h(nvshmem_team_t t, T *d, const T *s, size_t n, cudaStream_t)            \
            {                                                                                   \
                return nvshmem_##NAME##_##OP##_reducescatter(t, d, s, n);                       \
            }                                                                                   \
        };                                                                                      \
        rs_case<T>(#NAME "_" #OP "_reducescatter_on_stream", CODE, 0, BITS, on_stream::f);      \
        rs_case<T>("host " #NAME "_" #OP "_reducescatter", CODE, 1, BITS, on_stream::h);        \
    }
#define RS_BIT(NAME, T, OP) RS_OP(NAME, T, OP, #OP[0] == 'a' ? '&' : #OP[0] == 'o' ? '|' : '^', 1)
#define RS_MINMAX(NAME, T, OP) RS_OP(NAME, T, OP, #OP[1] == 'a' ? 'M' : 'm', 0)
#define RS_SUMPROD(NAME, T, OP) RS_OP(NAME, T, OP, #OP[0], 0)
#define RSCATTER(NAME, T, BITRED, MINMAX, SUMPROD)                                               \
    static void rscatter_##NAME(void)                                                           \
    {                                                                                           \
        SYMM_IF_##BITRED(SYMM_OPS_BITWISE(RS_BIT, NAME, T))                                     \
        SYMM_IF_##MINMAX(SYMM_OPS_MINMAX(RS_MINMAX, NAME, T))                                   \
        SYMM_IF_##SUMPROD(SYMM_OPS_SUMPROD(RS_SUMPROD, NAME, T))                                \
    }

#define ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN, TOALL, \
            TOBIT, OLD, DEV)                                                                    \
    SYMM_IF_##DEV(SYMM_IF_##RMA(TYPED(NAME, T)) SYMM_IF_##WAIT(WAITS(NAME, T))                 \
                  RSCATTER(NAME, T, BITRED, MINMAX, SUMPROD))
SYMM_TYPE_TABLE(ROW, _)

#define RUN_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN,   \
                TOALL, TOBIT, OLD, DEV)                                                         \
    SYMM_IF_##DEV(SYMM_IF_##RMA(typed_##NAME();) SYMM_IF_##WAIT(waits_##NAME();)               \
                  rscatter_##NAME();)

/* ---- half and bfloat16 --------------------------------------------------------------------------
 * NVSHMEM's 16-bit floating-point types: host RMA on device memory, p in a kernel and on a
 * stream, g, iget, collectives on the host and on a stream, reductions and reduce-scatters.
 * Values are multiples of 0.5 below 16, so every sum over 8 PEs is exact in both formats;
 * results are compared as 16-bit words. */
static half to16(float f, half *)
{
    return __float2half(f);
}
static __nv_bfloat16 to16(float f, __nv_bfloat16 *)
{
    return __float2bfloat16(f);
}
static unsigned short bits16(const void *p)
{
    unsigned short b;
    memcpy(&b, p, sizeof(b));
    return b;
}
static float f16val(int pe, size_t i)
{
    return (float)((pe * 7 + i) % 32) * 0.5f;
}
/* The word of value f in T. */
template <typename T> static unsigned short w16(float f)
{
    T v = to16(f, (T *)NULL);
    return bits16(&v);
}
static float f16sum(size_t i)
{
    float s = 0;
    for (int p = 0; p < npes; p++)
        s += f16val(p, i);
    return s;
}
static float f16max(size_t i)
{
    float m = f16val(0, i);
    for (int p = 1; p < npes; p++)
        m = f16val(p, i) > m ? f16val(p, i) : m;
    return m;
}

#define SIXTEEN(NAME, T)                                                                         \
    __global__ void p16_##NAME(T *dest, T v, int pe)                                            \
    {                                                                                           \
        nvshmem_##NAME##_p(dest, v, pe);                                                        \
    }                                                                                           \
    static void sixteen_##NAME(void)                                                            \
    {                                                                                           \
        const size_t all = (size_t)N * npes;                                                    \
        T *src = (T *)nvshmem_malloc(all * sizeof(T)), *dst = (T *)nvshmem_malloc(all * sizeof(T)); \
        T *v = (T *)malloc(all * sizeof(T));                                                    \
        unsigned short *h = (unsigned short *)malloc(all * sizeof(unsigned short));             \
        REQUIRE(src && dst && v && h, #NAME ": allocation failed");                             \
        for (size_t i = 0; i < all; i++)                                                        \
            v[i] = to16(f16val(me, i), (T *)NULL);                                              \
        CUDA_CHECK(cudaMemcpy(src, v, all * sizeof(T), cudaMemcpyHostToDevice));                \
        clear(dst, all);                                                                        \
        nvshmem_##NAME##_put(dst, src, N / 2, right);                                           \
        nvshmemx_##NAME##_put_on_stream(dst + N / 2, src + N / 2, N - N / 2, right, st);        \
        sync_all();                                                                             \
        fetch(h, (unsigned short *)dst, N);                                                     \
        CHECK_RUN(#NAME "_put, _put_on_stream", h, N, w16<T>(f16val(left, i)));                 \
        clear(dst, all);                                                                        \
        p16_##NAME<<<1, 1, 0, st>>>(dst + 3, v[33], right);                                     \
        nvshmemx_##NAME##_p_on_stream(dst + 4, v[44], right, st);                               \
        sync_all();                                                                             \
        fetch(h, (unsigned short *)dst, 5);                                                     \
        EXPECT(h[3] == w16<T>(f16val(left, 33)) && h[4] == w16<T>(f16val(left, 44)) && !h[2],   \
               #NAME "_p in a kernel, _p_on_stream");                                           \
        T g = nvshmem_##NAME##_g(src + 5, right);                                               \
        EXPECT(bits16(&g) == w16<T>(f16val(right, 5)), #NAME "_g");                             \
        g = nvshmemx_##NAME##_g_on_stream(src + 6, right, st);                                  \
        EXPECT(bits16(&g) == w16<T>(f16val(right, 6)), #NAME "_g_on_stream");                   \
        clear(dst, all);                                                                        \
        nvshmem_##NAME##_iget(dst, src, 2, 3, N / 3, right);                                    \
        fetch(h, (unsigned short *)dst, N);                                                     \
        CHECK_RUN(#NAME "_iget", h, N,                                                          \
                  i % 2 == 0 && i / 2 < N / 3 ? w16<T>(f16val(right, 3 * (i / 2))) : 0);        \
        clear(dst, all);                                                                        \
        nvshmemx_##NAME##_fcollect_on_stream(NVSHMEM_TEAM_WORLD, dst, src, N, st);              \
        CUDA_CHECK(cudaStreamSynchronize(st));                                                  \
        fetch(h, (unsigned short *)dst, all);                                                   \
        CHECK_RUN(#NAME "_fcollect_on_stream", h, all, w16<T>(f16val((int)(i / N), i % N)));    \
        clear(dst, all);                                                                        \
        nvshmem_##NAME##_alltoall(NVSHMEM_TEAM_WORLD, dst, src, N);                             \
        fetch(h, (unsigned short *)dst, all);                                                   \
        CHECK_RUN(#NAME "_alltoall", h, all,                                                    \
                  w16<T>(f16val((int)(i / N), me * N + i % N)));                                \
        clear(dst, all);                                                                        \
        nvshmemx_##NAME##_sum_reduce_on_stream(NVSHMEM_TEAM_WORLD, dst, src, N, st);            \
        CUDA_CHECK(cudaStreamSynchronize(st));                                                  \
        fetch(h, (unsigned short *)dst, N);                                                     \
        CHECK_RUN(#NAME "_sum_reduce_on_stream", h, N, w16<T>(f16sum(i)));                      \
        clear(dst, all);                                                                        \
        nvshmem_##NAME##_max_reduce(NVSHMEM_TEAM_WORLD, dst, src, N);                           \
        fetch(h, (unsigned short *)dst, N);                                                     \
        CHECK_RUN("host " #NAME "_max_reduce", h, N, w16<T>(f16max(i)));                        \
        clear(dst, all);                                                                        \
        nvshmemx_##NAME##_sum_reducescatter_on_stream(NVSHMEM_TEAM_WORLD, dst, src, N, st);     \
        CUDA_CHECK(cudaStreamSynchronize(st));                                                  \
        fetch(h, (unsigned short *)dst, N);                                                     \
        CHECK_RUN(#NAME "_sum_reducescatter_on_stream", h, N, w16<T>(f16sum(me * N + i)));      \
        nvshmem_barrier_all();                                                                  \
        free(h);                                                                                \
        free(v);                                                                                \
        nvshmem_free(dst);                                                                      \
        nvshmem_free(src);                                                                      \
    }
SIXTEEN(half, half)
SIXTEEN(bfloat16, __nv_bfloat16)

/* ---- Sized forms and the _nbi mem forms ---------------------------------------------------- */
#define R 256 /* bytes per region */

static void sized(void)
{
    const size_t bytes = (size_t)R * 16;
    unsigned char *src = (unsigned char *)nvshmem_malloc(bytes);
    unsigned char *dst = (unsigned char *)nvshmem_malloc(bytes);
    uint64_t *sig = (uint64_t *)nvshmem_calloc(1, sizeof(uint64_t));
    unsigned char *h = (unsigned char *)malloc(bytes);

    REQUIRE(src && dst && sig && h, "sized: allocation failed");
    for (size_t i = 0; i < bytes; i++)
        h[i] = val<unsigned char>(me, i);
    CUDA_CHECK(cudaMemcpy(src, h, bytes, cudaMemcpyHostToDevice));
    clear(dst, bytes);
    nvshmemx_put32_on_stream(dst, src, R / 4, right, st);
    nvshmemx_put64_nbi_on_stream(dst + R, src + R, R / 8, right, st);
    nvshmemx_putmem_nbi_on_stream(dst + 2 * R, src + 2 * R, R, right, st);
    nvshmemx_put128_signal_on_stream(dst + 3 * R, src + 3 * R, R / 16, sig, 1, NVSHMEM_SIGNAL_ADD,
                                     right, st);
    nvshmemx_putmem_signal_nbi_on_stream(dst + 4 * R, src + 4 * R, R, sig, 1, NVSHMEM_SIGNAL_ADD,
                                         right, st);
    nvshmemx_put16_signal_nbi_on_stream(dst + 5 * R, src + 5 * R, R / 2, sig, 1,
                                        NVSHMEM_SIGNAL_ADD, right, st);
    nvshmemx_signal_wait_until_on_stream(sig, NVSHMEM_CMP_EQ, 3, st);
    sync_all();
    fetch(h, dst, 6 * R);
    CHECK_RUN("put32, put64_nbi, putmem_nbi, put128_signal, putmem_signal_nbi, put16_signal_nbi "
              "on stream", h, 6 * R, val<unsigned char>(left, i));
    clear(dst, bytes);
    nvshmemx_get8_on_stream(dst, src, R, right, st);
    nvshmemx_get16_nbi_on_stream(dst + R, src + R, R / 2, right, st);
    nvshmemx_getmem_nbi_on_stream(dst + 2 * R, src + 2 * R, R, right, st);
    CUDA_CHECK(cudaStreamSynchronize(st));
    fetch(h, dst, 3 * R);
    CHECK_RUN("get8, get16_nbi, getmem_nbi on stream", h, 3 * R, val<unsigned char>(right, i));
    clear(dst, bytes);
    /* 16-byte elements: dst element 2k on the right = src element 3k here, k < R / 16 */
    nvshmemx_iput128_on_stream(dst, src, 2, 3, R / 16, right, st);
    sync_all();
    fetch(h, dst, bytes);
    CHECK_RUN("iput128_on_stream", h, bytes,
              (i / 16) % 2 == 0 && i / 32 < R / 16 ? val<unsigned char>(left, (i / 32) * 48 + i % 16)
                                                    : (unsigned char)0);
    clear(dst, bytes);
    /* 8-byte elements: dst element k here = src element 2k on the right, k < R / 8 */
    nvshmemx_iget64_on_stream(dst, src, 1, 2, R / 8, right, st);
    CUDA_CHECK(cudaStreamSynchronize(st));
    fetch(h, dst, R);
    CHECK_RUN("iget64_on_stream", h, R, val<unsigned char>(right, (i / 8) * 16 + i % 8));
    nvshmem_barrier_all();
    free(h);
    nvshmem_free(sig);
    nvshmem_free(dst);
    nvshmem_free(src);
}

/* ---- Registered buffers --------------------------------------------------------------------- */
/* n bytes from a pageable host buffer (registered) to the right neighbour's heap and back, and
 * the same from cudaMalloc memory; small (a kernel) and large (a copy engine). */
static void registered(size_t n)
{
    unsigned char *sym = (unsigned char *)nvshmem_malloc(n);
    unsigned char *host = (unsigned char *)malloc(n), *back = (unsigned char *)malloc(n);
    unsigned char *dev;
    char what[96];

    REQUIRE(sym && host && back, "registered(%zu): allocation failed", n);
    CUDA_CHECK(cudaMalloc(&dev, n));
    for (size_t i = 0; i < n; i++)
        host[i] = val<unsigned char>(me, i);
    EXPECT(nvshmemx_buffer_register(host, n) == 0, "buffer_register(host, %zu)", n);
    EXPECT(nvshmemx_buffer_register(dev, n) == 0, "buffer_register(cudaMalloc, %zu)", n);
    EXPECT(nvshmemx_buffer_register(host + 1, 1) != 0, "buffer_register of an overlap");
    clear(sym, n);
    nvshmemx_putmem_on_stream(sym, host, n, right, st);
    sync_all();
    memset(host, 0, n);
    nvshmemx_getmem_on_stream(host, sym, n, me, st);
    nvshmemx_getmem_on_stream(dev, sym, n, me, st);
    CUDA_CHECK(cudaStreamSynchronize(st));
    CUDA_CHECK(cudaMemcpy(back, dev, n, cudaMemcpyDeviceToHost));
    snprintf(what, sizeof(what), "registered host buffer, %zu bytes", n);
    CHECK_RUN(what, host, n, val<unsigned char>(left, i));
    snprintf(what, sizeof(what), "registered device buffer, %zu bytes", n);
    CHECK_RUN(what, back, n, val<unsigned char>(left, i));
    EXPECT(nvshmemx_buffer_unregister(host) == 0, "buffer_unregister(host)");
    EXPECT(nvshmemx_buffer_unregister(host) != 0, "buffer_unregister twice");
    nvshmemx_buffer_unregister_all();
    EXPECT(nvshmemx_buffer_unregister(dev) != 0, "buffer_unregister after unregister_all");
    nvshmem_barrier_all();
    CUDA_CHECK(cudaFree(dev));
    free(back);
    free(host);
    nvshmem_free(sym);
}

/* ---- Buffers registered as symmetric ------------------------------------------------------- */
__global__ void put_block(void *dest, const void *src, size_t n, int pe)
{
    nvshmemx_putmem_block(dest, src, n, pe);
    nvshmem_quiet();
}

/* A buffer of n bytes made with cuMemCreate, as NVSHMEM's programs make it; *h its handle. */
static void *vmm_alloc(size_t n, CUmemGenericAllocationHandle *h, size_t *len)
{
    CUmemAllocationProp prop = {};
    CUmemAccessDesc acc = {};
    CUdeviceptr p;
    size_t gran = 0;

    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = shmemx_gpu_device();
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    REQUIRE(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) ==
                CUDA_SUCCESS, "cuMemGetAllocationGranularity");
    *len = (n + gran - 1) / gran * gran;
    REQUIRE(cuMemCreate(h, *len, &prop, 0) == CUDA_SUCCESS, "cuMemCreate(%zu)", *len);
    REQUIRE(cuMemAddressReserve(&p, *len, 0, 0, 0) == CUDA_SUCCESS, "cuMemAddressReserve");
    REQUIRE(cuMemMap(p, *len, 0, *h, 0) == CUDA_SUCCESS, "cuMemMap");
    acc.location = prop.location;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    REQUIRE(cuMemSetAccess(p, *len, &acc, 1) == CUDA_SUCCESS, "cuMemSetAccess");
    return (void *)p;
}

static void vmm_free(void *p, CUmemGenericAllocationHandle h, size_t len)
{
    REQUIRE(cuMemUnmap((CUdeviceptr)p, len) == CUDA_SUCCESS &&
                cuMemAddressFree((CUdeviceptr)p, len) == CUDA_SUCCESS &&
                cuMemRelease(h) == CUDA_SUCCESS,
            "freeing a cuMemCreate buffer");
}

/* Each PE registers a buffer of 2 n ints (not a multiple of the granularity) and a second
 * one. The first half of the buffer, written through the program's own address, is read by
 * the left neighbour through the registered address (a stream get); a kernel puts into the
 * second half of the right neighbour's; both land in the memory of the program's buffer. The
 * registered address is the same offset on every PE, reachable by nvshmem_ptr, and its room is
 * given back by unregister. */
static void registered_symmetric(size_t n)
{
    const size_t bytes = 2 * n * sizeof(int) + 12;
    CUmemGenericAllocationHandle h1, h2;
    size_t len1, len2;
    int *buf = (int *)vmm_alloc(bytes, &h1, &len1), *other = (int *)vmm_alloc(4096, &h2, &len2);
    int *hv = (int *)malloc(2 * n * sizeof(int)), *got = (int *)nvshmem_malloc(n * sizeof(int));
    long *offs = (long *)nvshmem_malloc(sizeof(long)), *hoffs = (long *)malloc(npes * sizeof(long));
    char what[96];

    REQUIRE(hv && got && offs && hoffs, "registered_symmetric(%zu): allocation failed", n);
    for (size_t i = 0; i < n; i++)
        hv[i] = val<int>(me, i);
    CUDA_CHECK(cudaMemcpy(buf, hv, n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(buf + n, 0, n * sizeof(int)));
    CUDA_CHECK(cudaDeviceSynchronize());
    int *reg = (int *)nvshmemx_buffer_register_symmetric(buf, bytes, 0);
    int *reg2 = (int *)nvshmemx_buffer_register_symmetric(other, 4096, 0);
    REQUIRE(reg != NULL && reg2 != NULL, "buffer_register_symmetric returned NULL");
    EXPECT(reg != buf && reg2 != reg, "registered addresses %p, %p for buffers %p, %p", reg, reg2,
           buf, other);
    EXPECT(nvshmem_ptr(reg, me) == reg, "nvshmem_ptr(registered, me) %p, expected %p",
           nvshmem_ptr(reg, me), reg);

    /* The same offset on every PE. */
    long mine = (long)((char *)reg - (char *)shmemx_device_heap_base(me));
    CUDA_CHECK(cudaMemcpy(offs, &mine, sizeof(mine), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaDeviceSynchronize());
    nvshmem_barrier_all();
    for (int pe = 0; pe < npes; pe++) {
        nvshmem_getmem(&hoffs[pe], offs, sizeof(long), pe);
        EXPECT(hoffs[pe] == mine, "registered offset on pe %d: %ld, here %ld", pe, hoffs[pe],
               mine);
    }

    /* Read the right neighbour's first half; put into its second half from a kernel. */
    nvshmemx_getmem_on_stream(got, reg, n * sizeof(int), right, st);
    put_block<<<1, 256, 0, st>>>(reg + n, reg, n * sizeof(int), right);
    sync_all();
    fetch(hv, got, n);
    snprintf(what, sizeof(what), "get from a registered buffer, %zu ints", n);
    CHECK_RUN(what, hv, n, val<int>(right, i));
    fetch(hv, buf + n, n);
    snprintf(what, sizeof(what), "put into a registered buffer, %zu ints", n);
    CHECK_RUN(what, hv, n, val<int>(left, i));

    EXPECT(nvshmemx_buffer_unregister_symmetric(reg, bytes) == 0, "buffer_unregister_symmetric");
    int *again = (int *)nvshmemx_buffer_register_symmetric(buf, bytes, 0);
    EXPECT(again == reg, "registering again: %p, the room given back was at %p", again, reg);
    EXPECT(nvshmemx_buffer_unregister_symmetric(again, bytes) == 0 &&
               nvshmemx_buffer_unregister_symmetric(reg2, 4096) == 0,
           "buffer_unregister_symmetric");
    vmm_free(buf, h1, len1);
    vmm_free(other, h2, len2);
    free(hoffs);
    free(hv);
    nvshmem_free(offs);
    nvshmem_free(got);
}

/* ---- Tile collectives ------------------------------------------------------------------------
 * Tiles of TR x TC elements, dimension 0 or 1 contiguous, at every scope, against host
 * arithmetic: allreduce by sum, max and min with a push and a pull algorithm, a boundary that
 * leaves elements out, reduce to a root, and allgather into every PE's part of a gathered tile.
 * Source values are small integers, exact in half and bfloat16. */
enum { TR = 20, TC = 12 };

static float tval(int pe, int i0, int i1)
{
    return (float)((pe * 7 + i0 * 3 + i1 * 5) % 23) - 9.0f;
}

struct no_coord {};

/* The group of SCOPE (0 thread, 1 warp, 2 warpgroup, 3 block) is the block's first threads. */
template <int SCOPE> static __device__ bool in_group(void)
{
    return SCOPE == 3 || threadIdx.x < (SCOPE == 0 ? 1u : SCOPE == 1 ? 32u : 128u);
}

#define TILE_SCOPED(SCOPE, CALL)                                                                 \
    do {                                                                                        \
        if (SCOPE == 0)                                                                         \
            CALL();                                                                             \
        else if (SCOPE == 1)                                                                    \
            CALL(_warp);                                                                        \
        else if (SCOPE == 2)                                                                    \
            CALL(_warpgroup);                                                                   \
        else                                                                                    \
            CALL(_block);                                                                       \
    } while (0)

/* OP 0 sum, 1 max, 2 min; root >= 0: reduce (sum or min) to root. */
template <int SCOPE, int OP, nvshmemx::tile_coll_algo_t A, typename Tile, typename Coord>
__global__ void tile_reduce_kernel(nvshmem_team_t team, Tile src, Tile dst, Coord start,
                                   Coord bound, int root)
{
    if (!in_group<SCOPE>())
        return;
#define TILE_REDUCE(SUF)                                                                         \
    do {                                                                                        \
        if (root >= 0 && OP == 0)                                                               \
            nvshmemx::tile_sum_reduce##SUF<Tile, Tile, Coord, A>(team, src, dst, start, bound,   \
                                                                 root, 0);                      \
        else if (root >= 0)                                                                     \
            nvshmemx::tile_min_reduce##SUF<Tile, Tile, Coord, A>(team, src, dst, start, bound,   \
                                                                 root, 0);                      \
        else if (OP == 0)                                                                       \
            nvshmemx::tile_sum_allreduce##SUF<Tile, Tile, Coord, A>(team, src, dst, start,       \
                                                                    bound, 0);                  \
        else if (OP == 1)                                                                       \
            nvshmemx::tile_max_allreduce##SUF<Tile, Tile, Coord, A>(team, src, dst, start,       \
                                                                    bound, 0, 0);               \
        else                                                                                    \
            nvshmemx::tile_min_allreduce##SUF<Tile, Tile, Coord, A>(team, src, dst, start,       \
                                                                    bound, 0);                  \
        nvshmemx::tile_collective_wait##SUF<A>(team, 0);                                        \
    } while (0)
    TILE_SCOPED(SCOPE, TILE_REDUCE);
#undef TILE_REDUCE
}

template <int SCOPE, typename Tile>
__global__ void tile_gather_kernel(nvshmem_team_t team, Tile src, Tile dst)
{
    const nvshmemx::tile_coll_algo_t A = nvshmemx::NVLS_ONE_SHOT_PUSH_NBI;
    no_coord none;

    if (!in_group<SCOPE>())
        return;
#define TILE_GATHER(SUF)                                                                         \
    do {                                                                                        \
        nvshmemx::tile_allgather##SUF<Tile, Tile, no_coord, A>(team, src, dst, none, none, 0);  \
        nvshmemx::tile_collective_wait##SUF<A>(team, 0);                                        \
    } while (0)
    TILE_SCOPED(SCOPE, TILE_GATHER);
#undef TILE_GATHER
}

template <int OP, nvshmemx::tile_coll_algo_t A, int SCOPE, typename Tile, typename Coord>
static void tile_launch(Tile s, Tile d, Coord start, Coord bound, int root)
{
    tile_reduce_kernel<SCOPE, OP, A, Tile, Coord>
        <<<1, SCOPE == 3 ? 256 : 160, 0, st>>>(NVSHMEM_TEAM_WORLD, s, d, start, bound, root);
}

template <typename T, int SCOPE, bool DIM0> static void tile_case(const char *tname)
{
    const size_t n = (size_t)TR * TC;
    T *src = (T *)nvshmem_malloc(n * sizeof(T)), *dst = (T *)nvshmem_malloc(n * npes * sizeof(T));
    T *h = (T *)malloc(n * npes * sizeof(T));
    char what[128];
    /* Element (i0, i1) of a TR x TC tile with leading dimension ld. */
    auto at = [](int i0, int i1, int ld) {
        return DIM0 ? (size_t)i0 + (size_t)i1 * ld : (size_t)i0 * ld + i1;
    };
    auto tile_layout = [](int ld) {
        return nvshmemx::make_layout(nvshmemx::make_shape(ConstInt<TR>{}, (int)TC),
                                     DIM0 ? nvshmemx::make_stride(1, ld)
                                          : nvshmemx::make_stride(ld, 1));
    };
    const int ld = DIM0 ? TR : TC;
    typedef nvshmemx::Tensor<T, decltype(tile_layout(0))> Tile;
    typedef cuda::std::tuple<int, int> Coord;
    constexpr nvshmemx::tile_coll_algo_t PUSH = nvshmemx::NVLS_TWO_SHOT_PUSH_NBI;
    constexpr nvshmemx::tile_coll_algo_t PULL = nvshmemx::NVLS_ONE_SHOT_PULL_NBI;

    REQUIRE(src && dst && h, "tile_case: allocation failed");
    for (int i0 = 0; i0 < TR; i0++)
        for (int i1 = 0; i1 < TC; i1++)
            h[at(i0, i1, ld)] = (T)tval(me, i0, i1);
    CUDA_CHECK(cudaMemcpy(src, h, n * sizeof(T), cudaMemcpyHostToDevice));
    for (int op = 0; op < 3; op++)
        for (int algo = 0; algo < 2; algo++)
            for (int mode = 0; mode < 3; mode++) { /* whole tile, bounded, reduce to PE 0 */
                const int root = mode == 2 ? 0 : -1;
                const Coord start(mode == 1 ? 3 : 0, mode == 1 ? 2 : 0);
                const Coord bound(mode == 1 ? 15 : TR, mode == 1 ? 9 : TC);
                const Tile s(src, tile_layout(ld)), d(dst, tile_layout(ld));
                size_t bad = 0, first = 0;

                if (mode == 2 && op == 1)
                    continue;
                for (size_t i = 0; i < n; i++)
                    h[i] = (T)100.0f;
                CUDA_CHECK(cudaMemcpy(dst, h, n * sizeof(T), cudaMemcpyHostToDevice));
                CUDA_CHECK(cudaDeviceSynchronize());
                nvshmem_barrier_all();
                if (algo == 0 && op == 0)
                    tile_launch<0, PUSH, SCOPE>(s, d, start, bound, root);
                else if (algo == 0 && op == 1)
                    tile_launch<1, PUSH, SCOPE>(s, d, start, bound, root);
                else if (algo == 0)
                    tile_launch<2, PUSH, SCOPE>(s, d, start, bound, root);
                else if (op == 0)
                    tile_launch<0, PULL, SCOPE>(s, d, start, bound, root);
                else if (op == 1)
                    tile_launch<1, PULL, SCOPE>(s, d, start, bound, root);
                else
                    tile_launch<2, PULL, SCOPE>(s, d, start, bound, root);
                CUDA_CHECK(cudaStreamSynchronize(st));
                nvshmem_barrier_all();
                fetch(h, dst, n);
                for (int i0 = 0; i0 < TR; i0++)
                    for (int i1 = 0; i1 < TC; i1++) {
                        const bool in = mode != 1 || (i0 + 3 < 15 && i1 + 2 < 9);
                        float want = 100.0f;
                        if (in && (root < 0 || me == root)) {
                            want = tval(0, i0, i1);
                            for (int pe = 1; pe < npes; pe++) {
                                float v = tval(pe, i0, i1);
                                want = op == 0   ? want + v
                                       : op == 1 ? fmaxf(want, v)
                                                 : fminf(want, v);
                            }
                        }
                        if ((float)h[at(i0, i1, ld)] != want && !bad++)
                            first = at(i0, i1, ld);
                    }
                snprintf(what, sizeof(what), "tile %s %s, scope %d, dim %d contiguous, algo %d, %s",
                         tname, op == 0 ? "sum" : op == 1 ? "max" : "min", SCOPE, DIM0 ? 0 : 1,
                         algo, mode == 0 ? "whole" : mode == 1 ? "bounded" : "reduce to 0");
                EXPECT(bad == 0, "%s: %zu of %zu elements wrong, the first at %zu", what, bad, n,
                       first);
            }

    /* allgather into every PE's part of the gathered tile: with dimension 0 contiguous, PE p's
     * part is rows [p * TR, (p + 1) * TR) of an (npes * TR) x TC tile; else its p-th block of
     * TR rows of TC. */
    const int gld = DIM0 ? TR * npes : TC;
    size_t bad = 0, first = 0;
    CUDA_CHECK(cudaMemset(dst, 0, n * npes * sizeof(T)));
    CUDA_CHECK(cudaDeviceSynchronize());
    nvshmem_barrier_all();
    tile_gather_kernel<SCOPE, Tile><<<1, SCOPE == 3 ? 256 : 160, 0, st>>>(
        NVSHMEM_TEAM_WORLD, Tile(src, tile_layout(ld)),
        Tile(dst + (DIM0 ? (size_t)me * TR : (size_t)me * n), tile_layout(gld)));
    CUDA_CHECK(cudaStreamSynchronize(st));
    nvshmem_barrier_all();
    fetch(h, dst, n * npes);
    for (int pe = 0; pe < npes; pe++)
        for (int i0 = 0; i0 < TR; i0++)
            for (int i1 = 0; i1 < TC; i1++) {
                size_t k = (DIM0 ? (size_t)pe * TR : (size_t)pe * n) + at(i0, i1, gld);
                if ((float)h[k] != tval(pe, i0, i1) && !bad++)
                    first = k;
            }
    snprintf(what, sizeof(what), "tile %s allgather, scope %d, dim %d contiguous", tname, SCOPE,
             DIM0 ? 0 : 1);
    EXPECT(bad == 0, "%s: %zu of %zu elements wrong, the first at %zu", what, bad, n * npes,
           first);
    free(h);
    nvshmem_free(dst);
    nvshmem_free(src);
}

/* ---- realloc, teams, versions, the module ------------------------------------------------- */
/* A split team and a zero-initialised one (the world) as kernel arguments: queries, a barrier
 * and a reduction on the split team. */
__global__ void int_teams(nvshmem_team_t team, int *out)
{
    nvshmem_team_t world = 0;

    if (threadIdx.x == 0) {
        out[0] = nvshmem_team_my_pe(team);
        out[1] = nvshmem_team_n_pes(team);
        out[2] = nvshmem_team_my_pe(world);
        out[3] = nvshmem_team_n_pes(world);
        nvshmem_barrier(team);
    }
    __syncwarp();
    nvshmemx_int_sum_reduce_warp(team, out + 1, out + 1, 0);
}

static void heap_and_teams(void)
{
    int *a = (int *)nvshmem_malloc(N * sizeof(int)), *b, h[2 * N];
    nvshmem_team_config_t config = NVSHMEM_TEAM_CONFIG_INITIALIZER, got;
    nvshmem_team_t team;

    for (int i = 0; i < N; i++)
        h[i] = val<int>(me, i);
    CUDA_CHECK(cudaMemcpy(a, h, N * sizeof(int), cudaMemcpyHostToDevice));
    b = (int *)nvshmem_realloc(a, 2 * N * sizeof(int));
    REQUIRE(b != NULL, "nvshmem_realloc returned NULL");
    nvshmemx_int_put_on_stream(b + N, b, N, right, st);
    sync_all();
    fetch(h, b, 2 * N);
    CHECK_RUN("nvshmem_realloc keeps the contents", h, N, val<int>(me, i));
    CHECK_RUN("nvshmem_realloc block usable by peers", h + N, N, val<int>(left, i));
    nvshmem_free(b);

    EXPECT(sizeof(nvshmem_team_config_t) == 64 && sizeof(nvshmem_team_config_v1) == 64,
           "team config: %zu bytes", sizeof(nvshmem_team_config_t));
    config.num_contexts = 2;
    EXPECT(nvshmem_team_split_strided(NVSHMEM_TEAM_WORLD, 0, 1, npes, &config,
                                      NVSHMEM_TEAM_CONFIG_MASK_NUM_CONTEXTS, &team) == 0 &&
               team != NVSHMEM_TEAM_INVALID,
           "team_split_strided with a config");
    memset(&got, 0xff, sizeof(got));
    nvshmem_team_get_config(team, &got);
    EXPECT(got.num_contexts == 2 && got.version == (2 << 16) + 64 &&
               got.uniqueid == NVSHMEM_TEAM_UNIQUID_INITIALIZER,
           "team_get_config: num_contexts %d, version %#x", got.num_contexts, got.version);
    /* Teams are NVSHMEM's integers: a zero-initialised one is the world, a split team's index
     * is past the predefined ones, and a kernel takes either as an int. */
    nvshmem_team_t zero;
    memset(&zero, 0, sizeof(zero));
    EXPECT(sizeof(nvshmem_team_t) == 4 && zero == NVSHMEM_TEAM_WORLD &&
               nvshmem_team_n_pes(zero) == npes && nvshmem_team_my_pe(zero) == me &&
               team >= NVSHMEM_TEAMS_MIN && NVSHMEM_TEAM_INVALID == -1 &&
               nvshmem_team_my_pe(NVSHMEM_TEAM_INVALID) == -1,
           "integer teams: zero %d, split %d", (int)zero, (int)team);
    EXPECT(nvshmem_team_translate_pe(team, me, NVSHMEM_TEAM_WORLD) == me &&
               nvshmem_team_n_pes(NVSHMEMX_TEAM_NODE) == nvshmem_team_n_pes(NVSHMEM_TEAM_SHARED),
           "integer teams: translate, node");
    int *got_dev = (int *)nvshmem_calloc(4, sizeof(int)), got_host[4];
    int_teams<<<1, 32, 0, st>>>(team, got_dev);
    CUDA_CHECK(cudaStreamSynchronize(st));
    CUDA_CHECK(cudaMemcpy(got_host, got_dev, sizeof(got_host), cudaMemcpyDeviceToHost));
    EXPECT(got_host[0] == me && got_host[1] == npes && got_host[2] == me && got_host[3] == npes,
           "integer teams in a kernel: split %d of %d, world %d of %d", got_host[0], got_host[1],
           got_host[2], got_host[3]);
    /* The PEs at this PE's place in their nodes (the GPU jobs' nodes have equal PE counts). */
    const nvshmem_team_t same = NVSHMEMX_TEAM_SAME_MYPE_NODE;
    CUDA_CHECK(cudaMemset(got_dev, 0xff, sizeof(got_host)));
    int_teams<<<1, 32, 0, st>>>(same, got_dev);
    CUDA_CHECK(cudaStreamSynchronize(st));
    CUDA_CHECK(cudaMemcpy(got_host, got_dev, sizeof(got_host), cudaMemcpyDeviceToHost));
    EXPECT(got_host[0] == nvshmem_team_my_pe(same) && got_host[1] == nvshmem_team_n_pes(same) &&
               got_host[1] == npes / nvshmem_team_n_pes(NVSHMEMX_TEAM_NODE),
           "NVSHMEMX_TEAM_SAME_MYPE_NODE in a kernel: %d of %d", got_host[0], got_host[1]);
    nvshmem_free(got_dev);
    nvshmem_team_destroy(team);

    /* A team from a unique id that PE 0 makes and every PE reads from it. */
    uint64_t *uidbuf = (uint64_t *)nvshmem_malloc(sizeof(uint64_t));
    nvshmem_team_config_t uc = NVSHMEM_TEAM_CONFIG_INITIALIZER;
    if (me == 0) {
        EXPECT(nvshmemx_team_get_uniqueid(&uc.uniqueid) == 0, "team_get_uniqueid");
        CUDA_CHECK(cudaMemcpy(uidbuf, &uc.uniqueid, sizeof(uint64_t), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaDeviceSynchronize());
    }
    nvshmem_barrier_all();
    nvshmem_getmem(&uc.uniqueid, uidbuf, sizeof(uint64_t), 0);
    team = NVSHMEM_TEAM_INVALID;
    EXPECT(nvshmemx_team_init(&team, &uc, NVSHMEM_TEAM_CONFIG_MASK_UNIQUEID, npes, me) == 0 &&
               nvshmem_team_n_pes(team) == npes && nvshmem_team_my_pe(team) == me,
           "nvshmemx_team_init of every PE");
    nvshmem_team_sync(team);
    nvshmem_team_destroy(team);
    nvshmem_free(uidbuf);

    int major = 0, minor = 0, patch = 0;
    nvshmemx_vendor_get_version_info(&major, &minor, &patch);
    EXPECT(major * 10000 + minor * 100 + patch == NVSHMEM_VENDOR_VERSION &&
               NVSHMEM_VENDOR_VERSION == 30405,
           "vendor version %d.%d.%d", major, minor, patch);
    nvshmem_info_get_version(&major, &minor);
    EXPECT(major == NVSHMEM_MAJOR_VERSION && minor == NVSHMEM_MINOR_VERSION,
           "info_get_version %d.%d", major, minor);
    char name[NVSHMEM_MAX_NAME_LEN];
    nvshmem_info_get_name(name);
    EXPECT(strcmp(name, NVSHMEM_VENDOR_STRING) == 0, "info_get_name '%s'", name);
    EXPECT(nvshmemx_init_status() == NVSHMEM_STATUS_IS_INITIALIZED, "init_status");
    EXPECT(nvshmemx_mc_ptr(NVSHMEM_TEAM_WORLD, &got) == NULL, "mc_ptr is NULL");
}

__global__ void grid_sized(int *x)
{
    if (threadIdx.x == 0)
        atomicAdd(x, 1);
}

static void module(const char *path)
{
    CUmodule mod;
    CUfunction f;
    int *dest = (int *)nvshmem_calloc(1, sizeof(int)), got = -1, base = 1000, grid = 0;
    void *args[] = {&dest, &base};

    REQUIRE(cuModuleLoad(&mod, path) == CUDA_SUCCESS, "cuModuleLoad(%s)", path);
    EXPECT(nvshmemx_cumodule_init(mod) == 0, "cumodule_init");
    REQUIRE(cuModuleGetFunction(&f, mod, "module_p") == CUDA_SUCCESS, "module_p");
    REQUIRE(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, st, args, NULL) == CUDA_SUCCESS,
            "cuLaunchKernel");
    sync_all();
    fetch(&got, dest, 1);
    EXPECT(got == base + left, "a kernel of the module: %d, expected %d", got, base + left);
    EXPECT(nvshmemx_cumodule_finalize(mod) == 0, "cumodule_finalize");
    cuModuleUnload(mod);

    void *none[] = {&dest};
    EXPECT(nvshmemx_collective_launch_query_gridsize((const void *)grid_sized, dim3(256), none, 0,
                                                     &grid) == 0 && grid > 0,
           "collective_launch_query_gridsize: %d", grid);
    nvshmem_barrier_all();
    nvshmem_free(dest);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gpu_nvcompat MODULE.cubin\n");
        return 2;
    }
    REQUIRE(nvshmemx_init_status() == NVSHMEM_STATUS_NOT_INITIALIZED, "init_status before init");
    nvshmem_init();
    me = nvshmem_my_pe();
    npes = nvshmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    /* The PE's GPU (PEs may share one under SYMM_GPU_DEVICE). */
    CUDA_CHECK(cudaSetDevice(shmemx_gpu_device()));
    CUDA_CHECK(cudaStreamCreate(&st));

    SYMM_TYPE_TABLE(RUN_ROW, _)
    sixteen_half();
    sixteen_bfloat16();
    sized();
    registered(1000);
    registered(1 << 20);
    registered_symmetric(1000);
    registered_symmetric(600000);
    /* Tile collectives run over the node's mappings, as NVSHMEM's do (docs/gpu.md). */
    if (nvshmem_team_n_pes(NVSHMEMX_TEAM_NODE) == npes) {
        tile_case<float, 0, true>("float");
        tile_case<half, 1, true>("half");
        tile_case<__nv_bfloat16, 2, false>("bfloat16");
        tile_case<float, 3, false>("float");
        tile_case<half, 3, true>("half");
    }
    heap_and_teams();
    module(argv[1]);

    int status = test_report("gpu_nvcompat");
    CUDA_CHECK(cudaStreamDestroy(st));
    nvshmem_finalize();
    return status;
}
