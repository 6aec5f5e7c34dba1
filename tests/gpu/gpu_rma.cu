/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Device RMA for every type of the type table (long double aside), in thread, warp and block
 * scope: put, get, their _nbi forms, p, g, iput and iget; the sized forms and mem; shmem_ptr;
 * then host RMA (shmem.h calls from the host) on device-heap addresses, from the main thread
 * and from another. Also run at 2 PEs in 2 virtual nodes, where the proxy carries it all. Every PE writes to its right neighbour and reads from it, with values that
 * name the writer and the index, and every element is checked exactly.
 */
#include <pthread.h>

#include "../harness.h"

#define N 300 /* elements per region: not a multiple of any vector width */

/* The value PE `pe` writes at index i, in every type (below 120: exact in every row). */
template <typename T> __host__ __device__ T val(int pe, size_t i, int salt)
{
    return (T)((pe * 37 + i * 3 + salt * 11 + 1) % 120);
}

template <typename T> __global__ void fill(T *p, size_t n, int pe, int salt)
{
    for (size_t i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += blockDim.x * gridDim.x)
        p[i] = val<T>(pe, i, salt);
}

/* sym: 6N elements (symmetric); src: N (local); dst: 4N (local). One block of 128 threads. */
#define RMA_KERNEL(NAME, T)                                                                      \
    __global__ void rma_##NAME(T *sym, const T *src, T *dst, unsigned long long *errs)         \
    {                                                                                           \
        const int me = shmem_my_pe(), npes = shmem_n_pes();                                     \
        const int right = (me + 1) % npes, left = (me + npes - 1) % npes;                       \
        const unsigned tid = threadIdx.x;                                                       \
        if (tid == 0)                                                                           \
            shmem_##NAME##_put(sym, src, N, right);                                             \
        if (tid < 32)                                                                           \
            shmemx_##NAME##_put_warp(sym + N, src, N, right);                                   \
        shmemx_##NAME##_put_nbi_block(sym + 2 * N, src, N, right);                              \
        if (tid == 32) {                                                                        \
            for (size_t i = 0; i < N; i++)                                                      \
                shmem_##NAME##_p(sym + 3 * N + i, val<T>(me, i, 0), right);                     \
            shmem_##NAME##_put_nbi(sym + 4 * N, src, N, right);                                 \
            shmem_##NAME##_iput(sym + 5 * N, src, 2, 1, N / 2, right);                          \
            shmem_quiet();                                                                      \
        }                                                                                       \
        shmemx_barrier_all_block();                                                             \
        for (size_t i = tid; i < 5 * N; i += blockDim.x)                                        \
            DEXPECT(errs, sym[i] == val<T>(left, i % N, 0), #NAME " put region %d index %d",    \
                    (int)(i / N), (int)(i % N));                                                \
        for (size_t i = tid; i < N / 2; i += blockDim.x)                                        \
            DEXPECT(errs, sym[5 * N + 2 * i] == val<T>(left, i, 0), #NAME " iput index %d",     \
                    (int)i);                                                                    \
        shmemx_barrier_all_block();                                                             \
        /* Gets: the right neighbour's regions hold what this PE wrote. */                      \
        if (tid == 0)                                                                           \
            shmem_##NAME##_get(dst, sym, N, right);                                             \
        if (tid >= 32 && tid < 64)                                                              \
            shmemx_##NAME##_get_warp(dst + N, sym + N, N, right);                               \
        shmemx_##NAME##_get_nbi_block(dst + 2 * N, sym + 2 * N, N, right);                      \
        if (tid == 64) {                                                                        \
            for (size_t i = 0; i < N / 2; i++)                                                  \
                dst[3 * N + i] = shmem_##NAME##_g(sym + 3 * N + i, right);                      \
            shmem_##NAME##_iget(dst + 3 * N + N / 2, sym + 5 * N, 1, 2, N / 2, right);          \
            shmem_##NAME##_get_nbi(dst + 3 * N + N - 1, sym + 4 * N, 1, right);                 \
            shmem_quiet();                                                                      \
        }                                                                                       \
        __syncthreads();                                                                        \
        for (size_t i = tid; i < 3 * N; i += blockDim.x)                                        \
            DEXPECT(errs, dst[i] == val<T>(me, i % N, 0), #NAME " get region %d index %d",      \
                    (int)(i / N), (int)(i % N));                                                \
        for (size_t i = tid; i < N / 2; i += blockDim.x) {                                      \
            DEXPECT(errs, dst[3 * N + i] == val<T>(me, i, 0), #NAME " g index %d", (int)i);     \
            DEXPECT(errs, i == N / 2 - 1 || dst[3 * N + N / 2 + i] == val<T>(me, i, 0),         \
                    #NAME " iget index %d", (int)i);                                            \
        }                                                                                       \
        if (tid == 0)                                                                           \
            DEXPECT(errs, dst[4 * N - 1] == val<T>(me, 0, 0), #NAME " get_nbi");                \
        /* NULL for a PE of another node (SHMEM_TEAM_SHARED is this node's). */              \
        DEXPECT(errs,                                                                           \
                shmem_ptr(sym, right) ==                                                        \
                    (shmem_team_translate_pe(SHMEM_TEAM_WORLD, right, SHMEM_TEAM_SHARED) < 0    \
                         ? NULL                                                                 \
                         : (char *)sym + ((long long)right - me) *                              \
                                             ((char *)shmem_ptr(sym, 1 % npes) -                \
                                              (char *)shmem_ptr(sym, 0))),                      \
                #NAME " shmem_ptr");                                                            \
    }

#define RMA_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN,  \
                TOALL, TOBIT, OLD, DEV)                                                         \
    SYMM_IF_##DEV(SYMM_IF_##RMA(RMA_KERNEL(NAME, T)))
SYMM_TYPE_TABLE(RMA_ROW, _)

template <typename T>
static void run_type(const char *name, void (*kernel)(T *, const T *, T *, unsigned long long *))
{
    T *sym = (T *)shmemx_malloc_device(6 * N * sizeof(T)), *src, *dst;

    EXPECT(sym != NULL, "%s: shmemx_malloc_device", name);
    CUDA_CHECK(cudaMalloc(&src, N * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&dst, 4 * N * sizeof(T)));
    CUDA_CHECK(cudaMemset(sym, 0xff, 6 * N * sizeof(T)));
    CUDA_CHECK(cudaMemset(dst, 0xff, 4 * N * sizeof(T)));
    fill<T><<<1, 128>>>(src, N, shmem_my_pe(), 0);
    KERNEL_CHECK();
    shmem_barrier_all();
    kernel<<<1, 128>>>(sym, src, dst, test_dev_errors);
    KERNEL_CHECK();
    test_gpu_collect(name);
    shmem_barrier_all();
    CUDA_CHECK(cudaFree(src));
    CUDA_CHECK(cudaFree(dst));
    shmemx_free_device(sym);
}

/* Sized and mem forms, on bytes: every form writes its own region of the right neighbour. */
#define SIZED_PUTS(BITS, K)                                                                      \
    if (tid == 0)                                                                               \
        shmem_put##BITS(sym + (K) * 1024, src, 1024 / (BITS / 8), right);                       \
    if (tid < 32)                                                                               \
        shmemx_put##BITS##_warp(sym + ((K) + 5) * 1024, src, 1024 / (BITS / 8), right);         \
    shmemx_put##BITS##_nbi_block(sym + ((K) + 10) * 1024, src, 1024 / (BITS / 8), right);

__global__ void sized(unsigned char *sym, const unsigned char *src, unsigned char *dst,
                      unsigned long long *errs)
{
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    const unsigned tid = threadIdx.x;

    SIZED_PUTS(8, 0)
    SIZED_PUTS(16, 1)
    SIZED_PUTS(32, 2)
    SIZED_PUTS(64, 3)
    SIZED_PUTS(128, 4)
    if (tid == 0)
        shmem_putmem(sym + 15 * 1024 + 3, src + 3, 1021, right); /* unaligned start */
    if (tid < 32)
        shmemx_putmem_warp(sym + 16 * 1024, src, 1024, right);
    shmemx_putmem_nbi_block(sym + 17 * 1024 + 1, src + 1, 1023, right);
    if (tid == 0)
        shmem_putmem(sym + 15 * 1024, src, 3, right);
    if (tid == 1)
        shmem_putmem_nbi(sym + 17 * 1024, src, 1, right);
    shmem_quiet();
    shmemx_barrier_all_block();
    for (unsigned i = tid; i < 18 * 1024; i += blockDim.x)
        DEXPECT(errs, sym[i] == val<unsigned char>(left, i % 1024, 0), "sized put byte %u", i);
    shmemx_barrier_all_block();
    if (tid == 0)
        shmem_getmem(dst, sym, 1024, right);
    if (tid >= 32 && tid < 64)
        shmemx_getmem_warp(dst + 1024, sym + 1024, 1024, right);
    shmemx_get64_block(dst + 2048, sym + 2048, 128, right);
    if (tid == 5)
        shmem_get32_nbi(dst + 3072 + 4, sym + 3072 + 4, 255, right);
    if (tid == 6)
        shmem_get8(dst + 3072, sym + 3072, 4, right);
    shmem_quiet();
    __syncthreads();
    for (unsigned i = tid; i < 4096; i += blockDim.x)
        DEXPECT(errs, dst[i] == val<unsigned char>(me, i % 1024, 0), "sized get byte %u", i);
}

/* Host RMA on device memory: shmem.h calls with device-heap addresses. */
static void host_rma(void)
{
    const int me = shmem_my_pe(), npes = shmem_n_pes(), right = (me + 1) % npes,
              left = (me + npes - 1) % npes;
    long *sym = (long *)shmemx_malloc_device(4096 * sizeof(long));
    long *host = (long *)malloc(4096 * sizeof(long)), *back = (long *)malloc(4096 * sizeof(long));
    long *dev;

    CUDA_CHECK(cudaMalloc(&dev, 4096 * sizeof(long)));
    for (int i = 0; i < 4096; i++)
        host[i] = val<long>(me, i, 1) + 1000 * me;
    CUDA_CHECK(cudaMemcpy(dev, host, 4096 * sizeof(long), cudaMemcpyHostToDevice));
    shmem_long_put(sym, host, 1024, right);             /* host source */
    shmem_putmem(sym + 1024, dev + 1024, 1024 * sizeof(long), right); /* device source */
    shmem_long_p(sym + 2048, 4242 + me, right);
    shmem_long_iput(sym + 2050, host, 2, 1, 8, right);
    shmem_barrier_all();
    CUDA_CHECK(cudaMemcpy(back, sym, 4096 * sizeof(long), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 2048; i++)
        EXPECT(back[i] == val<long>(left, i, 1) + 1000 * left, "host put [%d]: %ld", i, back[i]);
    EXPECT(back[2048] == 4242 + left, "host p: %ld", back[2048]);
    for (int i = 0; i < 8; i++)
        EXPECT(back[2050 + 2 * i] == val<long>(left, i, 1) + 1000 * left, "host iput [%d]", i);
    shmem_barrier_all();
    memset(back, 0, 4096 * sizeof(long));
    shmem_long_get(back, sym, 1024, right);
    for (int i = 0; i < 1024; i++)
        EXPECT(back[i] == val<long>(me, i, 1) + 1000 * me, "host get [%d]: %ld", i, back[i]);
    EXPECT(shmem_long_g(sym + 2048, right) == 4242 + me, "host g");
    shmem_getmem(dev, sym + 1024, 1024 * sizeof(long), right); /* device destination */
    CUDA_CHECK(cudaMemcpy(back, dev, 1024 * sizeof(long), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 1024; i++)
        EXPECT(back[i] == val<long>(me, 1024 + i, 1) + 1000 * me, "host getmem [%d]", i);
    /* shmem_ptr on the host: the address a kernel of this PE uses for the peer's block (NULL
     * while the core does not ask the GPU part; see docs/gpu.md). */
    void *p = shmem_ptr(sym, right);
    EXPECT(p == NULL || (char *)p - (char *)shmemx_device_heap_base(right) ==
                            (char *)sym - (char *)shmemx_device_heap_base(me),
           "shmem_ptr(right) %p", p);
    shmem_barrier_all();
    CUDA_CHECK(cudaFree(dev));
    free(host);
    free(back);
    shmemx_free_device(sym);
}

/* Host RMA on device memory from a thread the library has not seen (while the main thread waits
 * for it): no CUDA context is current there, so each call must bind the device itself. */
struct other_args {
    long *sym, *dev;
};

static void *other_thread(void *p)
{
    struct other_args *a = (struct other_args *)p;
    const int me = shmem_my_pe(), right = (me + 1) % shmem_n_pes();
    long v[64];

    for (int i = 0; i < 64; i++)
        v[i] = val<long>(me, i, 2) + 1000 * me;
    shmem_long_put(a->sym, v, 64, right);                     /* host source, blocking */
    shmem_putmem_nbi(a->sym + 64, v, 64 * sizeof(long), right); /* queued for the quiet */
    shmem_quiet();
    /* Stream operations reach this node's PEs only: a host put, from device memory, to another
     * node's. */
    if (shmem_team_translate_pe(SHMEM_TEAM_WORLD, right, SHMEM_TEAM_SHARED) >= 0) {
        shmemx_putmem_on_stream(a->sym + 128, a->dev, 64 * sizeof(long), right, NULL);
        shmemx_quiet_on_stream(NULL);
    } else {
        shmem_putmem(a->sym + 128, a->dev, 64 * sizeof(long), right);
    }
    return NULL;
}

static void host_rma_thread(void)
{
    const int me = shmem_my_pe(), npes = shmem_n_pes(), left = (me + npes - 1) % npes;
    struct other_args a;
    long back[192], v[64];
    pthread_t th;

    a.sym = (long *)shmemx_calloc_device(192, sizeof(long));
    CUDA_CHECK(cudaMalloc(&a.dev, 64 * sizeof(long)));
    for (int i = 0; i < 64; i++)
        v[i] = val<long>(me, i, 2) + 1000 * me;
    CUDA_CHECK(cudaMemcpy(a.dev, v, sizeof(v), cudaMemcpyHostToDevice));
    EXPECT(pthread_create(&th, NULL, other_thread, &a) == 0, "pthread_create");
    pthread_join(th, NULL);
    CUDA_CHECK(cudaDeviceSynchronize());
    shmem_barrier_all();
    CUDA_CHECK(cudaMemcpy(back, a.sym, sizeof(back), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 192; i++)
        EXPECT(back[i] == val<long>(left, i % 64, 2) + 1000 * left,
               "host put from another thread [%d]: %ld", i, back[i]);
    shmem_barrier_all();
    CUDA_CHECK(cudaFree(a.dev));
    shmemx_free_device(a.sym);
}

int main(void)
{
    test_gpu_init();
#define RUN_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN,  \
                TOALL, TOBIT, OLD, DEV)                                                         \
    SYMM_IF_##DEV(SYMM_IF_##RMA(run_type<T>(#NAME, rma_##NAME);))
    SYMM_TYPE_TABLE(RUN_ROW, _)

    unsigned char *sym = (unsigned char *)shmemx_malloc_device(18 * 1024), *src, *dst;
    CUDA_CHECK(cudaMalloc(&src, 1024));
    CUDA_CHECK(cudaMalloc(&dst, 4096));
    CUDA_CHECK(cudaMemset(sym, 0xff, 18 * 1024));
    fill<unsigned char><<<1, 128>>>(src, 1024, shmem_my_pe(), 0);
    KERNEL_CHECK();
    shmem_barrier_all();
    sized<<<1, 128>>>(sym, src, dst, test_dev_errors);
    KERNEL_CHECK();
    test_gpu_collect("sized");
    shmem_barrier_all();
    shmemx_free_device(sym);

    host_rma();
    host_rma_thread();
    return test_finish("gpu_rma");
}
