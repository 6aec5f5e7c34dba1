/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Device operations on PEs of another node, through the proxy: run at 2 PEs in 2 groups
 * (`symmrun -n 2 --nodes 2`; the PEs may share one GPU with SYMM_GPU_DEVICE=0), where neither
 * maps the other's device heap. Every PE works on its right neighbour (the other PE):
 * shmem_ptr is NULL; put, put_nbi, get, get_nbi, p, g, iput, iget in thread, warp and block
 * scope, a put and a get larger than the proxy's staging piece; atomics (fetching and not)
 * from many threads; put_signal, whose data must be there when the signal is (SET and ADD,
 * many rounds each way); signal ops; a barrier in a loop; a kernel that posts far more
 * requests than the ring holds; a kernel that ends with requests in flight, completed by the
 * host's shmem_quiet; host RMA on the peer's device heap. On a job of one node it checks the
 * same values through the window.
 */
#include <time.h>

#include "../harness.h"

#define N 1000
#define BIG ((3u << 20) + 12345) /* more than two staging pieces */

__host__ __device__ long val(int pe, size_t i, int salt)
{
    return (long)(pe * 1000003L + (long)i * 7 + salt * 100000007L + 1);
}

__global__ void fill(long *p, size_t n, int pe, int salt)
{
    for (size_t i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += blockDim.x * gridDim.x)
        p[i] = val(pe, i, salt);
}

__global__ void fill_bytes(unsigned char *p, size_t n, int pe)
{
    for (size_t i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += blockDim.x * gridDim.x)
        p[i] = (unsigned char)(i * 31 + pe * 7 + 1);
}

/* sym: 8N (symmetric); src: N; dst: 4N. One block of 128 threads. */
__global__ void rma(long *sym, const long *src, long *dst, int far, unsigned long long *errs)
{
    const int me = shmem_my_pe(), right = (me + 1) % shmem_n_pes(),
              left = (me + shmem_n_pes() - 1) % shmem_n_pes();
    const unsigned tid = threadIdx.x;

    if (tid == 0)
        DEXPECT(errs, (shmem_ptr(sym, right) == NULL) == (far != 0), "shmem_ptr(right) %p",
                shmem_ptr(sym, right));
    if (tid == 0)
        shmem_long_put(sym, src, N, right);
    if (tid < 32)
        shmemx_long_put_warp(sym + N, src, N, right);
    shmemx_long_put_nbi_block(sym + 2 * N, src, N, right);
    if (tid == 32) {
        for (size_t i = 0; i < N; i++)
            shmem_long_p(sym + 3 * N + i, val(me, i, 0), right);
        shmem_long_put_nbi(sym + 4 * N, src, N, right);
        shmem_long_iput(sym + 5 * N, src, 2, 1, N / 2, right);
        shmem_int_p((int *)(sym + 6 * N), 77 + me, right);
        shmem_putmem(sym + 7 * N, src, 0, right); /* nothing */
    }
    shmem_quiet();
    shmemx_barrier_all_block();
    for (size_t i = tid; i < 5 * N; i += blockDim.x)
        DEXPECT(errs, sym[i] == val(left, i % N, 0), "put region %d index %d: %ld", (int)(i / N),
                (int)(i % N), sym[i]);
    for (size_t i = tid; i < N / 2; i += blockDim.x)
        DEXPECT(errs, sym[5 * N + 2 * i] == val(left, i, 0), "iput index %d", (int)i);
    if (tid == 0)
        DEXPECT(errs, *(int *)(sym + 6 * N) == 77 + left, "int p: %d", *(int *)(sym + 6 * N));
    shmemx_barrier_all_block();
    if (tid == 0)
        shmem_long_get(dst, sym, N, right);
    if (tid >= 32 && tid < 64)
        shmemx_long_get_warp(dst + N, sym + N, N, right);
    shmemx_long_get_nbi_block(dst + 2 * N, sym + 2 * N, N, right);
    if (tid == 64) {
        for (size_t i = 0; i < N / 2; i++)
            dst[3 * N + i] = shmem_long_g(sym + 3 * N + i, right);
        shmem_long_iget(dst + 3 * N + N / 2, sym + 5 * N, 1, 2, N / 2 - 1, right);
        shmem_long_get_nbi(dst + 4 * N - 1, sym + 4 * N, 1, right);
    }
    shmem_quiet();
    __syncthreads();
    for (size_t i = tid; i < 3 * N; i += blockDim.x)
        DEXPECT(errs, dst[i] == val(me, i % N, 0), "get region %d index %d: %ld", (int)(i / N),
                (int)(i % N), dst[i]);
    for (size_t i = tid; i < N / 2; i += blockDim.x) {
        DEXPECT(errs, dst[3 * N + i] == val(me, i, 0), "g index %d", (int)i);
        DEXPECT(errs, i == N / 2 - 1 || dst[3 * N + N / 2 + i] == val(me, i, 0), "iget index %d",
                (int)i);
    }
    if (tid == 0) {
        DEXPECT(errs, dst[4 * N - 1] == val(me, 0, 0), "get_nbi");
        DEXPECT(errs, shmem_int_g((int *)(sym + 6 * N), right) == 77 + me, "int g");
    }
}

/* A put and a get of BIG bytes (in pieces), one thread each. */
__global__ void big(unsigned char *sym, const unsigned char *src, unsigned char *dst)
{
    const int right = (shmem_my_pe() + 1) % shmem_n_pes();

    shmem_putmem(sym, src, BIG, right);
    shmem_barrier_all();
    shmem_getmem(dst, sym, BIG, right);
}

/* Atomics on the right neighbour's words, from 4 blocks of 128 threads. w: 16 words. */
__global__ void amo(long *w, int *iw, unsigned long long *seen, unsigned long long *errs)
{
    const int right = (shmem_my_pe() + 1) % shmem_n_pes();
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, nt = gridDim.x * blockDim.x;
    long old;

    shmem_long_atomic_add(&w[0], 3, right);
    old = shmem_long_atomic_fetch_add(&w[1], 1, right);
    DEXPECT(errs, old >= 0 && old < (long)nt, "fetch_add returned %ld", old);
    if (old >= 0 && old < (long)nt)
        atomicAdd(&seen[old], 1ull);
    shmem_long_atomic_inc(&w[2], right);
    shmem_int_atomic_add(&iw[0], 2, right);
    shmem_ulong_atomic_or((unsigned long *)&w[3], 1UL << (t % 63), right);
    if (t == 0) {
        shmem_long_atomic_set(&w[4], 4242, right);
        shmem_quiet();
        DEXPECT(errs, shmem_long_atomic_fetch(&w[4], right) == 4242, "set then fetch");
        DEXPECT(errs, shmem_long_atomic_swap(&w[4], 7, right) == 4242, "swap");
        DEXPECT(errs, shmem_long_atomic_compare_swap(&w[4], 6, 9, right) == 7, "cswap miss");
        DEXPECT(errs, shmem_long_atomic_compare_swap(&w[4], 7, 9, right) == 7, "cswap hit");
        DEXPECT(errs, shmem_long_atomic_fetch(&w[4], right) == 9, "after cswap");
        DEXPECT(errs, shmem_uint_atomic_fetch_xor((unsigned *)&iw[1], 5u, right) == 0,
                "int fetch_xor");
        DEXPECT(errs, shmem_uint_atomic_fetch_and((unsigned *)&iw[1], 4u, right) == 5,
                "int fetch_and");
        DEXPECT(errs, shmem_int_atomic_fetch(&iw[1], right) == 4, "int after and");
        shmem_uint64_atomic_set((uint64_t *)&w[5], 1ull << 40, right);
        shmem_uint64_atomic_fetch_inc_nbi((uint64_t *)&w[6], (uint64_t *)&w[5], right);
    }
}

/* put_signal, ROUNDS rounds of ping-pong: in round r the sender puts D longs of value r and
 * signals (SET r, or ADD 1); the receiver waits for the signal and checks every word. */
#define ROUNDS 40
#define D 4096
__global__ void pingpong(long *data, uint64_t *sig, int add, unsigned long long *errs)
{
    const int me = shmem_my_pe(), right = (me + 1) % shmem_n_pes();
    __shared__ long round;

    for (int r = 1; r <= ROUNDS; r++) {
        const int sender = r % 2 == me % 2;
        if (sender) {
            for (int i = threadIdx.x; i < D; i += blockDim.x)
                data[D + i] = r * 100000L + i; /* the source, in the symmetric buffer's top */
            __syncthreads();
            if (r % 3 == 0)
                shmemx_long_put_signal_block(data, data + D, D, sig, add ? 1 : r,
                                             add ? SHMEM_SIGNAL_ADD : SHMEM_SIGNAL_SET, right);
            else if (threadIdx.x == 0)
                shmem_long_put_signal_nbi(data, data + D, D, sig, add ? 1 : r,
                                          add ? SHMEM_SIGNAL_ADD : SHMEM_SIGNAL_SET, right);
            __syncthreads();
            if (threadIdx.x == 0)
                shmem_quiet();
        } else {
            if (threadIdx.x == 0)
                round = (long)shmem_signal_wait_until(sig, SHMEM_CMP_GE, add ? (r + 1) / 2 : r);
            __syncthreads();
            for (int i = threadIdx.x; i < D; i += blockDim.x)
                DEXPECT(errs, data[i] == r * 100000L + i, "round %d: data[%d] = %ld (signal %ld)",
                        r, i, data[i], round);
            __syncthreads();
        }
    }
}

/* Signal ops and a barrier in a loop: in round r each PE sets word r of the peer, adds to its
 * counter, meets it in a barrier and checks its own. */
__global__ void barrier_loop(long *w, uint64_t *sig, unsigned long long *errs)
{
    const int me = shmem_my_pe(), right = (me + 1) % shmem_n_pes(),
              left = (me + shmem_n_pes() - 1) % shmem_n_pes();

    for (int r = 0; r < 50; r++) {
        shmem_long_p(&w[r], r * 10 + me, right);
        shmem_signal_add(sig, 2, right);
        shmem_barrier_all();
        DEXPECT(errs, w[r] == r * 10 + left, "barrier round %d: %ld", r, w[r]);
        DEXPECT(errs, shmem_signal_fetch(sig) == (uint64_t)(2 * (r + 1)), "signal round %d", r);
        shmem_barrier_all();
    }
    shmem_signal_set(sig + 1, 99, right);
    shmem_barrier_all();
    DEXPECT(errs, shmem_signal_fetch(sig + 1) == 99, "signal_set");
}

/* Far more requests than the ring holds: every thread of 32 x 256 puts 4 words with p. */
#define FLOOD_WORDS (32 * 256 * 4)
__global__ void flood(long *w)
{
    const int me = shmem_my_pe(), right = (me + 1) % shmem_n_pes();
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;

    for (int k = 0; k < 4; k++)
        shmem_long_p(&w[t * 4 + k], val(me, t * 4 + k, 3), right);
}

/* Requests left in flight when the kernel ends: the host's quiet completes them. */
__global__ void leave(long *sym, const long *src)
{
    const int right = (shmem_my_pe() + 1) % shmem_n_pes();

    shmemx_long_put_nbi_block(sym, src, N, right);
    if (threadIdx.x == 0)
        for (int i = 0; i < 64; i++)
            shmem_long_p(sym + N + i, val(shmem_my_pe(), i, 4), right);
}

/* Wall-clock milliseconds, for the phases' times that PE 0 prints. */
static double now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double t0;
static void phase(const char *what, double per, const char *unit)
{
    double t = now_ms() - t0;

    if (shmem_my_pe() == 0)
        printf("gpu_proxy time: %-28s %9.2f ms%s%.2f %s\n", what, t, per > 0 ? "  " : "",
               per > 0 ? t * 1e3 / per : 0.0, per > 0 ? unit : "");
}

static long *host_copy(const long *dev, size_t n)
{
    long *h = (long *)malloc(n * sizeof(long));

    CUDA_CHECK(cudaMemcpy(h, dev, n * sizeof(long), cudaMemcpyDeviceToHost));
    return h;
}

int main(void)
{
    test_gpu_init();
    const int me = shmem_my_pe(), npes = shmem_n_pes(), right = (me + 1) % npes,
              left = (me + npes - 1) % npes;
    long *sym = (long *)shmemx_calloc_device(8 * N, sizeof(long)), *src, *dst, *h;
    const int far = shmem_ptr(sym, right) == NULL;

    printf("[pe %d] right neighbour %d is %s\n", me, right, far ? "on another node" : "mapped");
    CUDA_CHECK(cudaMalloc(&src, N * sizeof(long)));
    CUDA_CHECK(cudaMalloc(&dst, 4 * N * sizeof(long)));
    fill<<<4, 128>>>(src, N, me, 0);
    KERNEL_CHECK();
    shmem_barrier_all();
    t0 = now_ms();
    rma<<<1, 128>>>(sym, src, dst, far, test_dev_errors);
    KERNEL_CHECK();
    phase("rma kernel", 0, "");
    test_gpu_collect("rma");
    shmem_barrier_all();

    /* Large put and get. */
    unsigned char *bsym = (unsigned char *)shmemx_malloc_device(BIG), *bsrc, *bdst;
    CUDA_CHECK(cudaMalloc(&bsrc, BIG));
    CUDA_CHECK(cudaMalloc(&bdst, BIG));
    fill_bytes<<<64, 256>>>(bsrc, BIG, me);
    KERNEL_CHECK();
    shmem_barrier_all();
    t0 = now_ms();
    big<<<1, 1>>>(bsym, bsrc, bdst);
    KERNEL_CHECK();
    phase("3 MiB put, barrier, 3 MiB get", 0, "");
    unsigned char *hb = (unsigned char *)malloc(BIG), *hd = (unsigned char *)malloc(BIG);
    CUDA_CHECK(cudaMemcpy(hb, bsym, BIG, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hd, bdst, BIG, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t i = 0; i < BIG; i++) {
        bad += hb[i] != (unsigned char)(i * 31 + left * 7 + 1);
        bad += hd[i] != (unsigned char)(i * 31 + me * 7 + 1);
    }
    EXPECT(bad == 0, "big put and get: %zu bytes wrong", bad);
    free(hb);
    free(hd);
    shmem_barrier_all();

    /* Atomics. */
    long *w = (long *)shmemx_calloc_device(16, sizeof(long));
    int *iw = (int *)shmemx_calloc_device(4, sizeof(int));
    unsigned long long *seen;
    CUDA_CHECK(cudaMalloc(&seen, 512 * sizeof(*seen)));
    CUDA_CHECK(cudaMemset(seen, 0, 512 * sizeof(*seen)));
    shmem_barrier_all();
    t0 = now_ms();
    amo<<<4, 128>>>(w, iw, seen, test_dev_errors);
    KERNEL_CHECK();
    phase("atomics (3072 + 12)", 3084, "us per atomic");
    test_gpu_collect("amo");
    shmem_barrier_all();
    h = host_copy(w, 16);
    int hiw[4];
    CUDA_CHECK(cudaMemcpy(hiw, iw, sizeof(hiw), cudaMemcpyDeviceToHost));
    EXPECT(h[0] == 3 * 512 && h[1] == 512 && h[2] == 512, "add %ld fetch_add %ld inc %ld", h[0],
           h[1], h[2]);
    EXPECT(hiw[0] == 2 * 512, "int add %d", hiw[0]);
    EXPECT(h[3] == (long)((1UL << 63) - 1), "or %#lx", h[3]);
    EXPECT(h[5] == (1L << 40) + 1 && h[6] == (1L << 40), "fetch_inc_nbi: %ld %ld", h[5], h[6]);
    unsigned long long hs[512];
    CUDA_CHECK(cudaMemcpy(hs, seen, sizeof(hs), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 512; i++)
        EXPECT(hs[i] == 1, "fetch_add value %d returned %llu times", i, hs[i]);
    free(h);

    /* put_signal ordering, SET and ADD. */
    long *data = (long *)shmemx_calloc_device(2 * D, sizeof(long));
    uint64_t *sig = (uint64_t *)shmemx_calloc_device(4, sizeof(uint64_t));
    for (int add = 0; add < 2 && npes == 2; add++) {
        CUDA_CHECK(cudaMemset(sig, 0, 4 * sizeof(uint64_t)));
        CUDA_CHECK(cudaDeviceSynchronize()); /* before a peer may signal */
        shmem_barrier_all();
        t0 = now_ms();
        pingpong<<<1, 256>>>(data, sig, add, test_dev_errors);
        KERNEL_CHECK();
        phase(add ? "put_signal 32 KiB, ADD" : "put_signal 32 KiB, SET", ROUNDS,
              "us a one-way trip");
        test_gpu_collect(add ? "put_signal add" : "put_signal set");
        shmem_barrier_all();
    }

    /* Barrier and signal ops in a loop. */
    long *bw = (long *)shmemx_calloc_device(64, sizeof(long));
    CUDA_CHECK(cudaMemset(sig, 0, 4 * sizeof(uint64_t)));
    CUDA_CHECK(cudaDeviceSynchronize()); /* before a peer may signal */
    shmem_barrier_all();
    t0 = now_ms();
    barrier_loop<<<1, 1>>>(bw, sig, test_dev_errors);
    KERNEL_CHECK();
    phase("p, signal_add, 2 barriers x 50", 100, "us a barrier (with p and signal)");
    test_gpu_collect("barrier");
    shmem_barrier_all();

    /* A full ring. */
    long *fw = (long *)shmemx_calloc_device(FLOOD_WORDS, sizeof(long));
    shmem_barrier_all();
    t0 = now_ms();
    flood<<<32, 256>>>(fw);
    KERNEL_CHECK();
    shmem_quiet();
    phase("32768 p from one kernel", FLOOD_WORDS, "us a p");
    shmem_barrier_all();
    h = host_copy(fw, FLOOD_WORDS);
    bad = 0;
    for (size_t i = 0; i < FLOOD_WORDS; i++)
        bad += h[i] != val(left, i, 3);
    EXPECT(bad == 0, "flood: %zu of %d words wrong", bad, FLOOD_WORDS);
    free(h);

    /* A kernel that ends with requests in flight. */
    CUDA_CHECK(cudaMemset(sym, 0, 8 * N * sizeof(long)));
    CUDA_CHECK(cudaDeviceSynchronize()); /* before the peer writes */
    shmem_barrier_all();
    leave<<<1, 128>>>(sym, src);
    KERNEL_CHECK();
    shmem_quiet();
    shmem_barrier_all();
    h = host_copy(sym, N + 64);
    bad = 0;
    for (size_t i = 0; i < N; i++)
        bad += h[i] != val(left, i, 0);
    for (size_t i = 0; i < 64; i++)
        bad += h[N + i] != val(left, i, 4);
    EXPECT(bad == 0, "requests left in flight: %zu words wrong", bad);
    free(h);
    shmem_barrier_all();

    /* Host RMA on the peer's device heap. */
    long hv[N], back[N];
    for (int i = 0; i < N; i++)
        hv[i] = val(me, i, 5);
    shmem_long_put(sym, hv, N, right);
    shmem_putmem_nbi(sym + N, src, N * sizeof(long), right);
    shmem_barrier_all();
    h = host_copy(sym, 2 * N);
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += (h[i] != val(left, i, 5)) + (h[N + i] != val(left, i, 0));
    EXPECT(bad == 0, "host put to the device heap: %zu words wrong", bad);
    free(h);
    shmem_barrier_all();
    shmem_long_get(back, sym, N, right);
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += back[i] != val(me, i, 5);
    shmem_getmem(dst, sym + N, N * sizeof(long), right);
    h = host_copy(dst, N);
    for (int i = 0; i < N; i++)
        bad += h[i] != val(me, i, 0);
    EXPECT(bad == 0, "host get from the device heap: %zu words wrong", bad);
    free(h);
    shmem_barrier_all();

    CUDA_CHECK(cudaFree(src));
    CUDA_CHECK(cudaFree(dst));
    CUDA_CHECK(cudaFree(bsrc));
    CUDA_CHECK(cudaFree(bdst));
    CUDA_CHECK(cudaFree(seen));
    return test_finish("gpu_proxy");
}
