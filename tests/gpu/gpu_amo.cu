/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Device atomics for every row of the type table that has them (standard, extended and
 * bitwise, blocking and _nbi), signals (put_signal in thread, warp and block scope, signal
 * add/set/fetch, signal_wait_until, with data checked after the signal), and the wait_until
 * and test families. Counts are exact: every PE hits every PE from a block of threads.
 */
#include "../harness.h"

#define K 64 /* threads of a block that hit each PE */

/* c: 8 words of T on every PE (symmetric), zero at start. */
#define AMO_KERNEL(NAME, T)                                                                      \
    __global__ void amo_##NAME(T *c, T *fetched, unsigned long long *errs)                     \
    {                                                                                           \
        const int npes = shmem_n_pes();                                                         \
        const unsigned tid = threadIdx.x;                                                       \
        for (int pe = 0; pe < npes; pe++) {                                                     \
            shmem_##NAME##_atomic_add(&c[0], (T)1, pe);                                         \
            shmem_##NAME##_atomic_inc(&c[1], pe);                                               \
            T old = shmem_##NAME##_atomic_fetch_inc(&c[2], pe);                                 \
            DEXPECT(errs, old < (T)(npes * K), #NAME " fetch_inc returned %lld",                \
                    (long long)old);                                                            \
            shmem_##NAME##_atomic_fetch_add(&c[5], (T)2, pe);                                   \
            T cur = shmem_##NAME##_atomic_fetch(&c[3], pe);                                     \
            for (;;) {                                                                          \
                T prev = shmem_##NAME##_atomic_compare_swap(&c[3], cur, (T)(cur + 1), pe);      \
                if (prev == cur)                                                                \
                    break;                                                                      \
                cur = prev;                                                                     \
            }                                                                                   \
            shmem_##NAME##_atomic_fetch_add_nbi(&fetched[tid], &c[6], (T)1, pe);                \
            shmem_##NAME##_atomic_fetch_inc_nbi(&fetched[K + tid], &c[7], pe);                  \
        }                                                                                       \
        T v = (T)0;                                                                             \
        shmem_##NAME##_atomic_compare_swap_nbi(&v, &c[4], (T)0, (T)0, 0);                       \
        shmem_quiet();                                                                          \
        shmemx_barrier_all_block();                                                             \
        const T total = (T)(npes * K);                                                          \
        if (tid == 0) {                                                                         \
            DEXPECT(errs, c[0] == total && c[1] == total && c[2] == total && c[3] == total &&   \
                              c[5] == (T)(2 * total) && c[6] == total && c[7] == total,         \
                    #NAME " counts %lld %lld %lld %lld %lld %lld %lld (want %lld)",             \
                    (long long)c[0], (long long)c[1], (long long)c[2], (long long)c[3],         \
                    (long long)c[5], (long long)c[6], (long long)c[7], (long long)total);       \
        }                                                                                       \
        DEXPECT(errs, fetched[tid] < total && fetched[K + tid] < total, #NAME " nbi fetch");    \
    }

/* fetch, set, swap and their _nbi forms: every PE sets its right neighbour's word. */
#define EXT_KERNEL(NAME, T)                                                                      \
    __global__ void ext_##NAME(T *c, unsigned long long *errs)                                  \
    {                                                                                           \
        const int me = shmem_my_pe(), npes = shmem_n_pes();                                     \
        const int right = (me + 1) % npes, left = (me + npes - 1) % npes;                       \
        T got = (T)0;                                                                           \
        shmem_##NAME##_atomic_set(&c[0], (T)(me + 1), right);                                   \
        shmem_barrier_all();                                                                    \
        /* The left neighbour may have swapped it already. */                                  \
        got = shmem_##NAME##_atomic_fetch(&c[0], me);                                           \
        DEXPECT(errs, got == (T)(left + 1) || got == (T)(left + 10), #NAME " set");              \
        got = (T)0;                                                                             \
        DEXPECT(errs, shmem_##NAME##_atomic_swap(&c[0], (T)(me + 10), right) == (T)(me + 1),    \
                #NAME " swap");                                                                 \
        shmem_##NAME##_atomic_swap_nbi(&got, &c[1], (T)(me + 20), right);                       \
        shmem_quiet();                                                                          \
        DEXPECT(errs, got == (T)0, #NAME " swap_nbi");                                          \
        shmem_barrier_all();                                                                    \
        shmem_##NAME##_atomic_fetch_nbi(&got, &c[1], right);                                    \
        shmem_quiet();                                                                          \
        DEXPECT(errs, got == (T)(me + 20) && c[0] == (T)(left + 10), #NAME " fetch_nbi");       \
        shmem_barrier_all();                                                                    \
    }

/* and, or, xor: every PE sets its bit on PE 0, then on every PE. c[0..2] start at 0, ~0, 0. */
#define BIT_KERNEL(NAME, T)                                                                      \
    __global__ void bit_##NAME(T *c, unsigned long long *errs)                                  \
    {                                                                                           \
        const int me = shmem_my_pe(), npes = shmem_n_pes();                                     \
        const T bit = (T)((T)1 << (me % (8 * sizeof(T))));                                      \
        T f = (T)0, all = (T)0;                                                                 \
        for (int pe = 0; pe < npes; pe++) {                                                     \
            all = (T)(all | (T)((T)1 << (pe % (8 * sizeof(T)))));                               \
            shmem_##NAME##_atomic_or(&c[0], bit, pe);                                           \
            shmem_##NAME##_atomic_fetch_and(&c[1], (T)~bit, pe);                                \
            shmem_##NAME##_atomic_xor(&c[2], bit, pe);                                          \
            shmem_##NAME##_atomic_fetch_or(&c[3], bit, pe);                                     \
            shmem_##NAME##_atomic_and(&c[4], (T)~bit, pe);                                      \
            shmem_##NAME##_atomic_fetch_xor(&c[5], bit, pe);                                    \
            shmem_##NAME##_atomic_fetch_or_nbi(&f, &c[6], bit, pe);                             \
            shmem_##NAME##_atomic_fetch_and_nbi(&f, &c[7], (T)~bit, pe);                        \
            shmem_##NAME##_atomic_fetch_xor_nbi(&f, &c[8], bit, pe);                            \
        }                                                                                       \
        shmem_barrier_all();                                                                    \
        DEXPECT(errs, c[0] == all && c[1] == (T)~all && c[2] == all && c[3] == all &&           \
                          c[4] == (T)~all && c[5] == all && c[6] == all && c[7] == (T)~all &&   \
                          c[8] == all,                                                          \
                #NAME " bitwise");                                                              \
    }

#define AMO_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)              \
    SYMM_IF_##AMO(AMO_KERNEL(NAME, T)) SYMM_IF_##EXT(EXT_KERNEL(NAME, T))                      \
        SYMM_IF_##BIT(BIT_KERNEL(NAME, T))
SYMM_TYPES(AMO_ROW, _)

/* Waits: the left neighbour sets ivars[0..3] of this PE to 1..4, one after the other. */
#define WAIT_KERNEL(NAME, T)                                                                     \
    __global__ void wait_##NAME(T *iv, unsigned long long *errs)                                \
    {                                                                                           \
        const int me = shmem_my_pe(), npes = shmem_n_pes(), right = (me + 1) % npes;            \
        size_t idx[4];                                                                          \
        int status[4] = {0, 1, 0, 0};                                                           \
        T want[4] = {(T)1, (T)2, (T)3, (T)4};                                                   \
        for (int i = 0; i < 4; i++) {                                                           \
            shmem_##NAME##_p(&iv[i], (T)(i + 1), right);                                        \
            shmem_fence();                                                                      \
        }                                                                                       \
        shmem_##NAME##_wait_until(&iv[0], SHMEM_CMP_EQ, (T)1);                                  \
        shmem_##NAME##_wait_until_all(iv, 4, NULL, SHMEM_CMP_GE, (T)1);                         \
        size_t any = shmem_##NAME##_wait_until_any(iv, 4, status, SHMEM_CMP_GT, (T)2);          \
        DEXPECT(errs, any == 2 || any == 3, #NAME " wait_until_any %d", (int)any);              \
        size_t some = shmem_##NAME##_wait_until_some(iv, 4, idx, status, SHMEM_CMP_LE, (T)3);   \
        DEXPECT(errs, some == 2 && idx[0] == 0 && idx[1] == 2, #NAME " wait_until_some");       \
        shmem_##NAME##_wait_until_all_vector(iv, 4, NULL, SHMEM_CMP_EQ, want);                  \
        DEXPECT(errs, shmem_##NAME##_wait_until_any_vector(iv, 4, status, SHMEM_CMP_EQ, want)   \
                          == 0, #NAME " any_vector");                                           \
        DEXPECT(errs, shmem_##NAME##_wait_until_some_vector(iv, 4, idx, NULL, SHMEM_CMP_EQ,     \
                                                            want) == 4, #NAME " some_vector");  \
        DEXPECT(errs, shmem_##NAME##_test(&iv[3], SHMEM_CMP_NE, (T)4) == 0, #NAME " test");     \
        DEXPECT(errs, shmem_##NAME##_test_all(iv, 4, status, SHMEM_CMP_LT, (T)5), #NAME " ta"); \
        DEXPECT(errs, shmem_##NAME##_test_any(iv, 4, NULL, SHMEM_CMP_GT, (T)4) == SIZE_MAX,     \
                #NAME " test_any");                                                             \
        DEXPECT(errs, shmem_##NAME##_test_some(iv, 4, idx, NULL, SHMEM_CMP_GE, (T)3) == 2,      \
                #NAME " test_some");                                                            \
        DEXPECT(errs, shmem_##NAME##_test_all_vector(iv, 4, NULL, SHMEM_CMP_EQ, want),          \
                #NAME " test_all_vector");                                                      \
        DEXPECT(errs, shmem_##NAME##_test_any_vector(iv, 4, status, SHMEM_CMP_NE, want) ==      \
                          SIZE_MAX, #NAME " test_any_vector");                                  \
        DEXPECT(errs, shmem_##NAME##_test_some_vector(iv, 4, idx, NULL, SHMEM_CMP_GE, want)     \
                          == 4, #NAME " test_some_vector");                                     \
        shmem_##NAME##_wait(&iv[3], (T)0);                                                      \
        shmem_barrier_all();                                                                    \
    }
#define WAIT_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)             \
    SYMM_IF_##WAIT(WAIT_KERNEL(NAME, T))
SYMM_TYPES(WAIT_ROW, _)

/* Signals: ITER rounds; in round r every PE puts `len` bytes to its right neighbour with a
 * signal of r (thread: SET; warp, block: ADD of 1), and checks its left neighbour's data as
 * soon as the signal says it is there. buf: 3 * MAXB bytes, sig: 4 words. */
#define ITER 50
#define MAXB (64 << 10)
__device__ unsigned char sval(int pe, int r, size_t i)
{
    return (unsigned char)(pe * 31 + r * 7 + i);
}

__global__ void signals(unsigned char *buf, uint64_t *sig, unsigned char *src, size_t len,
                        unsigned long long *errs)
{
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    const unsigned tid = threadIdx.x;

    for (int r = 1; r <= ITER; r++) {
        for (size_t i = tid; i < len; i += blockDim.x)
            src[i] = sval(me, r, i);
        __syncthreads();
        if (tid == 0)
            shmem_putmem_signal(buf, src, len, &sig[0], r, SHMEM_SIGNAL_SET, right);
        if (tid < 32)
            shmemx_putmem_signal_warp(buf + MAXB, src, len, &sig[1], 1, SHMEM_SIGNAL_ADD, right);
        shmemx_putmem_signal_nbi_block(buf + 2 * MAXB, src, len, &sig[2], 1, SHMEM_SIGNAL_ADD,
                                       right);
        if (tid == 0) {
            DEXPECT(errs, shmem_signal_wait_until(&sig[0], SHMEM_CMP_GE, r) == (uint64_t)r,
                    "signal SET round %d", r);
            shmem_signal_wait_until(&sig[1], SHMEM_CMP_EQ, r);
            shmem_uint64_wait_until(&sig[2], SHMEM_CMP_EQ, r);
        }
        __syncthreads();
        for (size_t i = tid; i < len; i += blockDim.x) {
            unsigned char v = sval(left, r, i);
            DEXPECT(errs, buf[i] == v && buf[MAXB + i] == v && buf[2 * MAXB + i] == v,
                    "signal data round %d byte %d", r, (int)i);
        }
        /* Nobody overwrites buf before its owner has read it. */
        shmemx_barrier_all_block();
    }
    if (tid == 0) {
        shmem_signal_add(&sig[3], 5, right);
        shmem_signal_set(&sig[3], 7, me);
        shmem_barrier_all();
        uint64_t v = shmem_signal_fetch(&sig[3]);
        DEXPECT(errs, v == 7 || v == 12, "signal_add/set/fetch %llu", (unsigned long long)v);
    }
}

template <typename T> static T *alloc_zero(size_t n)
{
    T *p = (T *)shmemx_calloc_device(n, sizeof(T));
    EXPECT(p != NULL, "calloc_device");
    return p;
}

int main(void)
{
    test_gpu_init();
#define RUN_AMO(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)              \
    SYMM_IF_##AMO({                                                                             \
        T *c = alloc_zero<T>(8), *f;                                                            \
        CUDA_CHECK(cudaMalloc(&f, 2 * K * sizeof(T)));                                          \
        amo_##NAME<<<1, K>>>(c, f, test_dev_errors);                                            \
        KERNEL_CHECK();                                                                         \
        test_gpu_collect("amo " #NAME);                                                         \
        CUDA_CHECK(cudaFree(f));                                                                \
        shmemx_free_device(c);                                                                  \
    })                                                                                          \
    SYMM_IF_##EXT({                                                                             \
        T *c = alloc_zero<T>(2);                                                                \
        ext_##NAME<<<1, 1>>>(c, test_dev_errors);                                               \
        KERNEL_CHECK();                                                                         \
        test_gpu_collect("ext " #NAME);                                                         \
        shmemx_free_device(c);                                                                  \
    })                                                                                          \
    SYMM_IF_##BIT({                                                                             \
        T *c = alloc_zero<T>(9);                                                                \
        for (int i = 1; i < 9; i += 3)                                                          \
            CUDA_CHECK(cudaMemset(c + i, 0xff, sizeof(T)));                                     \
        /* The memsets may still run: peers' atomics must not meet them. */                     \
        CUDA_CHECK(cudaDeviceSynchronize());                                                    \
        shmem_barrier_all();                                                                    \
        bit_##NAME<<<1, 1>>>(c, test_dev_errors);                                               \
        KERNEL_CHECK();                                                                         \
        test_gpu_collect("bit " #NAME);                                                         \
        shmemx_free_device(c);                                                                  \
    })                                                                                          \
    SYMM_IF_##WAIT({                                                                            \
        T *iv = alloc_zero<T>(4);                                                               \
        wait_##NAME<<<1, 1>>>(iv, test_dev_errors);                                             \
        KERNEL_CHECK();                                                                         \
        test_gpu_collect("wait " #NAME);                                                        \
        shmemx_free_device(iv);                                                                 \
    })
    SYMM_TYPES(RUN_AMO, _)

    const size_t lens[] = {1, 8, 1000, 4096, MAXB};
    unsigned char *buf = (unsigned char *)shmemx_malloc_device(3 * MAXB), *src;
    CUDA_CHECK(cudaMalloc(&src, MAXB));
    for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
        uint64_t *sig = alloc_zero<uint64_t>(4);
        signals<<<1, 256>>>(buf, sig, src, lens[k], test_dev_errors);
        KERNEL_CHECK();
        test_gpu_collect("signals");
        shmemx_free_device(sig);
    }
    CUDA_CHECK(cudaFree(src));
    shmemx_free_device(buf);
    return test_finish("gpu_amo");
}
