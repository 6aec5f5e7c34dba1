/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * bench_gpu: the GPU benchmark, one source for two libraries. Built against symm (the
 * default) or, with -DBENCH_NVSHMEM, against NVSHMEM's API; the names differ only by prefix,
 * so every row runs the same kernel and the same timing in both builds. Two PEs, one GPU
 * each: one-sided rows run on PE 0 towards PE 1 while PE 1 waits; two-sided rows (ping-pong,
 * barriers, collectives) run on both. Device loops are timed with CUDA events around a kernel
 * that runs the iterations itself; stream rows time a host loop of enqueues, as an
 * application issuing them back to back sees it. Each row: warm-up, then TRIALS timed runs;
 * the median is printed.
 * Output, PE 0: `row=NAME bytes=N value=V unit=U`, one line per row.
 *
 * Usage: bench_gpu [ROW...]     rows whose name starts with one of the arguments (default all)
 *        bench_gpu start        init, allocate 1 GiB of device heap, finalize (timed outside)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <algorithm>
#include <vector>

#ifdef BENCH_NVSHMEM
#include <mpi.h>
#include <nvshmem.h>
#include <nvshmemx.h>
#define LIB "nvshmem"
#define S(name) nvshmem_##name
#define SX(name) nvshmemx_##name
#define CMP_EQ NVSHMEM_CMP_EQ
#define SIGNAL_SET NVSHMEM_SIGNAL_SET
#define TEAM_WORLD NVSHMEM_TEAM_WORLD
#define TEAM_T nvshmem_team_t
#define DEV_MALLOC nvshmem_malloc
#define DEV_FREE nvshmem_free
#define COLLECTIVE_LAUNCH nvshmemx_collective_launch
#else
#include <shmem.h>
#include <shmemx_gpu.h>
#include <symm/device.cuh>
#define LIB "symm"
#define S(name) shmem_##name
#define SX(name) shmemx_##name
#define CMP_EQ SHMEM_CMP_EQ
#define SIGNAL_SET SHMEM_SIGNAL_SET
#define TEAM_WORLD SHMEM_TEAM_WORLD
#define TEAM_T shmem_team_t
#define DEV_MALLOC shmemx_malloc_device
#define DEV_FREE shmemx_free_device
#define COLLECTIVE_LAUNCH shmemx_collective_launch
#endif

#define TRIALS 7

#define CK(expr)                                                                                 \
    do {                                                                                        \
        cudaError_t e_ = (expr);                                                                \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "bench_gpu: %s:%d: %s: %s\n", __FILE__, __LINE__, #expr,            \
                    cudaGetErrorString(e_));                                                    \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

static int me, npes, peer;
static cudaStream_t stream;
static cudaEvent_t ev0, ev1;

/* ---- Start and end ---------------------------------------------------------------------- */
static void start(int *argc, char ***argv)
{
#ifdef BENCH_NVSHMEM
    int rank, nranks;
    const char *lr = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    CK(cudaSetDevice(lr ? atoi(lr) : rank));
    nvshmemx_uniqueid_t id = NVSHMEMX_UNIQUEID_INITIALIZER;
    if (rank == 0)
        nvshmemx_get_uniqueid(&id);
    MPI_Bcast(&id, sizeof(id), MPI_UINT8_T, 0, MPI_COMM_WORLD);
    nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
    nvshmemx_set_attr_uniqueid_args(rank, nranks, &id, &attr);
    nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr);
#else
    (void)argc;
    (void)argv;
    shmem_init();
    CK(cudaSetDevice(shmemx_gpu_device()));
#endif
    me = S(my_pe)();
    npes = S(n_pes)();
    peer = (me + 1) % npes;
}

static void finish(void)
{
    S(barrier_all)();
#ifdef BENCH_NVSHMEM
    nvshmem_finalize();
    MPI_Finalize();
#else
    shmem_finalize();
#endif
}

/* ---- Timing ------------------------------------------------------------------------------- */
static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

static void report(const char *row, size_t bytes, double value, const char *unit)
{
    if (me == 0) {
        printf("row=%s bytes=%zu value=%.3f unit=%s lib=%s\n", row, bytes, value, unit, LIB);
        fflush(stdout);
    }
}

/* Launches kernel<<<grid, block>>>(args...) on every PE that calls it, all blocks resident. */
template <typename... A> static void launch(void (*k)(A...), int grid, int block, A... args)
{
    void *argv[] = {(void *)&args...};
    CK((cudaError_t)COLLECTIVE_LAUNCH((const void *)k, dim3(grid), dim3(block), argv, 0, stream));
}

/* Microseconds of one launch on PE 0 (events around it); every PE launches. */
template <typename... A> static double timed(void (*k)(A...), int grid, int block, A... args)
{
    S(barrier_all)();
    CK(cudaEventRecord(ev0, stream));
    launch(k, grid, block, args...);
    CK(cudaEventRecord(ev1, stream));
    CK(cudaEventSynchronize(ev1));
    CK(cudaGetLastError());
    float ms;
    CK(cudaEventElapsedTime(&ms, ev0, ev1));
    return ms * 1e3;
}

/* ---- Kernels ------------------------------------------------------------------------------ */
/* Blocks of the grid wait for one another between iterations, as NVSHMEM's shmem_put_bw does. */
__device__ static void grid_sync(unsigned *counter, int i)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        unsigned c = atomicInc(counter, 0xffffffffu);
        if (c == gridDim.x * (unsigned)(i + 1) - 1)
            atomicAdd(counter + 1, 1u);
        while (*(volatile unsigned *)(counter + 1) != (unsigned)(i + 1))
            ;
    }
    __syncthreads();
}

__global__ void __launch_bounds__(1024)
    put_bw(char *data, unsigned *counter, size_t len, int pe, int iters, int get)
{
    size_t per = len / gridDim.x;
    char *p = data + blockIdx.x * per;
    for (int i = 0; i < iters; i++) {
        if (get)
            SX(getmem_nbi_block)(p, p, per, pe);
        else
            SX(putmem_nbi_block)(p, p, per, pe);
        grid_sync(counter, i);
    }
    if (threadIdx.x == 0)
        S(quiet)();
}

__global__ void p_latency(int *dest, int pe, int iters)
{
    for (int i = 0; i < iters; i++) {
        S(int_p)(dest, i, pe);
        S(quiet)();
    }
}

__global__ void g_latency(long *src, int pe, int iters, long mask, long *out)
{
    long sum = 0;
    for (int i = 0; i < iters; i++)
        sum += S(long_g)(src + (sum & mask), pe);
    *out = sum;
}

/* put + quiet of `bytes`, by one thread, one warp or one block. */
__global__ void put_latency(char *dest, const char *src, size_t bytes, int pe, int iters,
                            int scope)
{
    for (int i = 0; i < iters; i++) {
        if (scope == 0) {
            S(putmem)(dest, src, bytes, pe);
        } else if (scope == 1) {
            SX(putmem_warp)(dest, src, bytes, pe);
        } else {
            SX(putmem_block)(dest, src, bytes, pe);
        }
        S(quiet)();
    }
}

__global__ void p_pingpong(int *flag, int pe, int iters, int base)
{
    for (int i = base + 1; i <= base + iters; i++) {
        if (S(my_pe)() == 0) {
            S(int_p)(flag, i, pe);
            S(int_wait_until)(flag, CMP_EQ, i);
        } else {
            S(int_wait_until)(flag, CMP_EQ, i);
            S(int_p)(flag, i, pe);
        }
    }
}

__global__ void signal_pingpong(char *buf, uint64_t *sig, size_t bytes, int pe, int iters,
                                int base)
{
    for (int i = base + 1; i <= base + iters; i++) {
        if (S(my_pe)() == 0) {
            S(putmem_signal)(buf, buf + 4096, bytes, sig, i, SIGNAL_SET, pe);
            S(signal_wait_until)(sig, CMP_EQ, i);
        } else {
            S(signal_wait_until)(sig, CMP_EQ, i);
            S(putmem_signal)(buf, buf + 4096, bytes, sig, i, SIGNAL_SET, pe);
        }
    }
}

__global__ void amo_pingpong(int *ctr, int pe, int iters, int base)
{
    for (int i = base + 1; i <= base + iters; i++) {
        if (S(my_pe)() == 0) {
            S(int_atomic_inc)(ctr, pe);
            S(int_wait_until)(ctr, CMP_EQ, i);
        } else {
            S(int_wait_until)(ctr, CMP_EQ, i);
            S(int_atomic_inc)(ctr, pe);
        }
    }
}

__global__ void barrier_loop(int iters, int scope)
{
    for (int i = 0; i < iters; i++) {
        if (scope == 0)
            S(barrier_all)();
        else if (scope == 1)
            SX(barrier_all_warp)();
        else
            SX(barrier_all_block)();
    }
}

__global__ void __launch_bounds__(1024)
    block_coll(char *dest, const char *src, size_t bytes, int iters, int fcollect)
{
    for (int i = 0; i < iters; i++) {
        if (fcollect)
            SX(fcollectmem_block)(TEAM_WORLD, dest, src, bytes);
        else
            SX(alltoallmem_block)(TEAM_WORLD, dest, src, bytes);
    }
}


/* ---- Rows --------------------------------------------------------------------------------- */
static char *big;            /* 512 MiB, symmetric */
static char *cdst, *csrc;    /* collectives: 16 MiB per PE each, symmetric */
static char *small_buf;      /* 64 KiB, symmetric */
static uint64_t *sig;
static int *flag;
static unsigned *counter;    /* grid sync, local */
static long *gout;

#ifndef BENCH_NVSHMEM
/* ---- Experiments (symm build only): the primitives behind the rows, to choose among. ----- */
template <int POLL> __device__ unsigned long long xpoll(const unsigned long long *p)
{
    unsigned long long v;
    if (POLL == 0)
        asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    else if (POLL == 1)
        asm volatile("ld.volatile.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    else if (POLL == 2)
        asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    else
        asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

/* Wait for *p == v with K relaxed loads in flight, issued GAP cycles apart, then an acquire
 * fence: the change is seen within about a K-th of a load's latency of its arrival. */
template <int K, int GAP> __device__ void xwait(const unsigned long long *p, unsigned long long v)
{
    if (K == 1) {
        while (xpoll<0>(p) != v)
            ;
        return;
    }
    unsigned long long r[K];
    long long t0 = clock64();
#pragma unroll
    for (int k = 0; k < K; k++) {
        while (clock64() - t0 < (long long)k * GAP)
            ;
        asm volatile("ld.relaxed.sys.global.u64 %0, [%1];" : "=l"(r[k]) : "l"(p) : "memory");
    }
    for (;;) {
#pragma unroll
        for (int k = 0; k < K; k++) {
            if (r[k] == v) {
                asm volatile("fence.acq_rel.sys;" ::: "memory");
                return;
            }
            asm volatile("ld.relaxed.sys.global.u64 %0, [%1];" : "=l"(r[k]) : "l"(p) : "memory");
        }
    }
}

/* Cycles of one relaxed system-scope load of a local word (a chain of dependent loads). */
__global__ void x_lat(unsigned long long *w, int n, long long *out)
{
    unsigned long long v = 0;
    long long t0 = clock64();
    for (int i = 0; i < n; i++) {
        const unsigned long long *q = w + (v == 0x123456789abcull);
        asm volatile("ld.relaxed.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(q) : "memory");
    }
    out[0] = (clock64() - t0) / n + (long long)(v == 0x123456789abcull);
}

/* Ping-pong: a red.add (OP 0) or a store (OP 1) to the peer's word, then a wait on the own. */
template <int OP, int K, int GAP>
__global__ void x_pp(unsigned long long *w, int pe, int iters, int base)
{
    unsigned long long *r = (unsigned long long *)shmem_ptr(w, pe);
    for (int i = base + 1; i <= base + iters; i++) {
        if (shmem_my_pe() != 0)
            xwait<K, GAP>(w, (unsigned long long)i);
        if (OP == 0)
            asm volatile("red.relaxed.sys.global.add.u64 [%0], 1;" ::"l"(r) : "memory");
        else
            asm volatile("st.relaxed.sys.global.u64 [%0], %1;" ::"l"(r), "l"((unsigned long long)i)
                         : "memory");
        if (shmem_my_pe() == 0)
            xwait<K, GAP>(w, (unsigned long long)i);
    }
}

/* Ping-pong of 8 data bytes and a st.release signal, waits as xwait<K, GAP>. */
template <int K, int GAP>
__global__ void x_signal(unsigned long long *data, unsigned long long *sig, int pe, int iters,
                         int base)
{
    unsigned long long *rd = (unsigned long long *)shmem_ptr(data, pe);
    unsigned long long *rs = (unsigned long long *)shmem_ptr(sig, pe);
    for (int i = base + 1; i <= base + iters; i++) {
        if (shmem_my_pe() != 0)
            xwait<K, GAP>(sig, (unsigned long long)i);
        *(volatile unsigned long long *)rd = i;
        asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(rs), "l"((unsigned long long)i)
                     : "memory");
        if (shmem_my_pe() == 0)
            xwait<K, GAP>(sig, (unsigned long long)i);
    }
}

static void experiments(void)
{
    unsigned long long *w = (unsigned long long *)flag + 2; /* 16-byte aligned words of flag */
    const int iters = 10000;
    {
        long long *out, cyc = 0;
        CK(cudaMalloc(&out, 8));
        x_lat<<<1, 1, 0, stream>>>(w, 10000, out);
        CK(cudaMemcpy(&cyc, out, 8, cudaMemcpyDeviceToHost));
        CK(cudaFree(out));
        report("x_local_load_cycles", 8, (double)cyc, "cycles");
    }
    typedef void (*pp_t)(unsigned long long *, int, int, int);
    struct {
        const char *name;
        pp_t k;
    } pp[] = {{"x_amo_k1", x_pp<0, 1, 0>},        {"x_amo_k2_g128", x_pp<0, 2, 128>},
              {"x_amo_k2_g256", x_pp<0, 2, 256>}, {"x_amo_k4_g64", x_pp<0, 4, 64>},
              {"x_amo_k4_g128", x_pp<0, 4, 128>}, {"x_amo_k8_g48", x_pp<0, 8, 48>},
              {"x_p_k1", x_pp<1, 1, 0>},          {"x_p_k4_g64", x_pp<1, 4, 64>},
              {"x_p_k4_g128", x_pp<1, 4, 128>}};
    for (auto &x : pp) {
        std::vector<double> t;
        CK(cudaMemset(w, 0, 8));
        S(barrier_all)();
        for (int trial = 0; trial <= 5; trial++) {
            double us = timed(x.k, 1, 1, w, peer, iters, trial * iters);
            if (trial)
                t.push_back(us / iters);
        }
        report(x.name, 8, median(t), "us");
    }
    typedef void (*sg_t)(unsigned long long *, unsigned long long *, int, int, int);
    struct {
        const char *name;
        sg_t k;
    } sg[] = {{"x_signal_k1", x_signal<1, 0>},
              {"x_signal_k4_g64", x_signal<4, 64>},
              {"x_signal_k4_g128", x_signal<4, 128>}};
    for (auto &x : sg) {
        std::vector<double> t;
        CK(cudaMemset(w, 0, 16));
        S(barrier_all)();
        for (int trial = 0; trial <= 5; trial++) {
            double us = timed(x.k, 1, 1, w + 1, w, peer, iters, trial * iters);
            if (trial)
                t.push_back(us / iters);
        }
        report(x.name, 8, median(t), "us");
    }
}
#endif

static int want(int argc, char **argv, const char *row)
{
    if (argc <= 1)
        return 1;
    for (int i = 1; i < argc; i++)
        if (strncmp(row, argv[i], strlen(argv[i])) == 0)
            return 1;
    return 0;
}

static void row_bw(const char *row, int get, const size_t *sizes, int n)
{
    for (int k = 0; k < n; k++) {
        size_t len = sizes[k];
        int iters = (int)std::max<size_t>(10, std::min<size_t>(400, (256u << 20) / len * 4));
        std::vector<double> t;
        for (int trial = 0; trial <= TRIALS; trial++) {
            CK(cudaMemset(counter, 0, 2 * sizeof(unsigned)));
            S(barrier_all)();
            if (me == 0) {
                CK(cudaEventRecord(ev0, stream));
                put_bw<<<32, 1024, 0, stream>>>(big, counter, len, peer, iters, get);
                CK(cudaEventRecord(ev1, stream));
                CK(cudaEventSynchronize(ev1));
                CK(cudaGetLastError());
                float ms;
                CK(cudaEventElapsedTime(&ms, ev0, ev1));
                if (trial)
                    t.push_back(ms * 1e3);
            }
            S(barrier_all)();
        }
        if (me == 0)
            report(row, len, (double)len * iters / median(t) / 1e3, "GB/s");
    }
}

int main(int argc, char **argv)
{
    start(&argc, &argv);
    if (argc > 1 && strcmp(argv[1], "start") == 0) {
        void *p = DEV_MALLOC((size_t)1 << 30);
        if (!p) {
            fprintf(stderr, "bench_gpu start: the 1 GiB allocation failed\n");
            return 1;
        }
        CK(cudaMemset(p, 0, 4096));
        DEV_FREE(p);
        finish();
        return 0;
    }
    if (npes < 2) {
        fprintf(stderr, "bench_gpu: needs 2 PEs\n");
        return 1;
    }
    CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CK(cudaEventCreate(&ev0));
    CK(cudaEventCreate(&ev1));
    big = (char *)DEV_MALLOC(512u << 20);
    cdst = (char *)DEV_MALLOC((size_t)(16u << 20) * npes);
    csrc = (char *)DEV_MALLOC((size_t)(16u << 20) * npes);
    small_buf = (char *)DEV_MALLOC(64 << 10);
    sig = (uint64_t *)DEV_MALLOC(64);
    flag = (int *)DEV_MALLOC(64);
    if (!big || !cdst || !csrc || !small_buf || !sig || !flag) {
        fprintf(stderr, "bench_gpu: device allocation failed\n");
        return 1;
    }
    CK(cudaMemset(big, 1, 512u << 20));
    CK(cudaMemset(cdst, 0, (size_t)(16u << 20) * npes));
    CK(cudaMemset(csrc, 2, (size_t)(16u << 20) * npes));
    CK(cudaMemset(small_buf, 3, 64 << 10));
    CK(cudaMemset(sig, 0, 64));
    CK(cudaMemset(flag, 0, 64));
    CK(cudaMalloc(&counter, 2 * sizeof(unsigned)));
    CK(cudaMalloc(&gout, sizeof(long)));
    CK(cudaDeviceSynchronize());
    S(barrier_all)();

    if (want(argc, argv, "put_bw")) {
        const size_t sizes[] = {128u << 10, 512u << 10, 2u << 20, 8u << 20, 32u << 20, 512u << 20};
        row_bw("put_bw", 0, sizes, 6);
    }
    if (want(argc, argv, "get_bw")) {
        const size_t sizes[] = {2u << 20, 16u << 20, 128u << 20};
        row_bw("get_bw", 1, sizes, 3);
    }
    if (want(argc, argv, "p_latency")) {
        std::vector<double> t;
        const int iters = 20000;
        for (int trial = 0; trial <= TRIALS; trial++) {
            S(barrier_all)();
            if (me == 0) {
                CK(cudaEventRecord(ev0, stream));
                p_latency<<<1, 1, 0, stream>>>(flag + 8, peer, iters);
                CK(cudaEventRecord(ev1, stream));
                CK(cudaEventSynchronize(ev1));
                float ms;
                CK(cudaEventElapsedTime(&ms, ev0, ev1));
                if (trial)
                    t.push_back(ms * 1e3 / iters);
            }
        }
        S(barrier_all)();
        report("p_latency", 4, me == 0 ? median(t) : 0, "us");
    }
    if (want(argc, argv, "g_latency")) {
        std::vector<double> t;
        const int iters = 20000;
        for (int trial = 0; trial <= TRIALS; trial++) {
            S(barrier_all)();
            if (me == 0) {
                CK(cudaEventRecord(ev0, stream));
                g_latency<<<1, 1, 0, stream>>>((long *)small_buf, peer, iters, 0L, gout);
                CK(cudaEventRecord(ev1, stream));
                CK(cudaEventSynchronize(ev1));
                float ms;
                CK(cudaEventElapsedTime(&ms, ev0, ev1));
                if (trial)
                    t.push_back(ms * 1e3 / iters);
            }
        }
        S(barrier_all)();
        report("g_latency", 8, me == 0 ? median(t) : 0, "us");
    }
    if (want(argc, argv, "put_latency")) {
        static const char *names[] = {"put_latency_thread", "put_latency_warp",
                                      "put_latency_block"};
        for (int scope = 0; scope < 3; scope++) {
            std::vector<double> t;
            const int iters = 10000;
            for (int trial = 0; trial <= TRIALS; trial++) {
                S(barrier_all)();
                if (me == 0) {
                    CK(cudaEventRecord(ev0, stream));
                    put_latency<<<1, scope == 0 ? 1 : scope == 1 ? 32 : 256, 0, stream>>>(
                        small_buf, small_buf + 8192, 8, peer, iters, scope);
                    CK(cudaEventRecord(ev1, stream));
                    CK(cudaEventSynchronize(ev1));
                    float ms;
                    CK(cudaEventElapsedTime(&ms, ev0, ev1));
                    if (trial)
                        t.push_back(ms * 1e3 / iters);
                }
            }
            S(barrier_all)();
            report(names[scope], 8, me == 0 ? median(t) : 0, "us");
        }
    }
    if (want(argc, argv, "p_pingpong")) {
        std::vector<double> t;
        const int iters = 10000;
        CK(cudaMemset(flag, 0, sizeof(int)));
        for (int trial = 0; trial <= TRIALS; trial++) {
            double us = timed(p_pingpong, 1, 1, flag, peer, iters, trial * iters);
            if (trial)
                t.push_back(us / iters);
        }
        report("p_pingpong", 4, median(t), "us");
    }
    if (want(argc, argv, "signal_pingpong")) {
        const size_t sizes[] = {8, 64};
        for (int k = 0; k < 2; k++) {
            std::vector<double> t;
            const int iters = 10000;
            CK(cudaMemset(sig, 0, 8));
            S(barrier_all)();
            for (int trial = 0; trial <= TRIALS; trial++) {
                double us = timed(signal_pingpong, 1, 1, small_buf, sig, sizes[k], peer, iters,
                                  trial * iters);
                if (trial)
                    t.push_back(us / iters);
            }
            report("signal_pingpong", sizes[k], median(t), "us");
        }
    }
    if (want(argc, argv, "amo_pingpong")) {
        std::vector<double> t;
        const int iters = 10000;
        CK(cudaMemset(flag + 4, 0, sizeof(int)));
        S(barrier_all)();
        for (int trial = 0; trial <= TRIALS; trial++) {
            double us = timed(amo_pingpong, 1, 1, flag + 4, peer, iters, trial * iters);
            if (trial)
                t.push_back(us / iters);
        }
        report("amo_pingpong", 4, median(t), "us");
    }
    if (want(argc, argv, "barrier")) {
        static const char *names[] = {"barrier_thread", "barrier_warp", "barrier_block"};
        for (int scope = 0; scope < 3; scope++) {
            std::vector<double> t;
            const int iters = 10000;
            for (int trial = 0; trial <= TRIALS; trial++) {
                double us = timed(barrier_loop, 1, scope == 0 ? 1 : scope == 1 ? 32 : 256, iters,
                                  scope);
                if (trial)
                    t.push_back(us / iters);
            }
            report(names[scope], 0, median(t), "us");
        }
    }
    /* Stream rows: a host loop of enqueues between two events. */
#define STREAM_ROW(NAME, BYTES, ITERS, UNIT_BW, CALL)                                            \
    do {                                                                                        \
        std::vector<double> t;                                                                  \
        for (int trial = 0; trial <= TRIALS; trial++) {                                         \
            CK(cudaStreamSynchronize(stream));                                                  \
            S(barrier_all)();                                                                   \
            CK(cudaEventRecord(ev0, stream));                                                   \
            for (int i = 0; i < (ITERS); i++)                                                   \
                CALL;                                                                           \
            CK(cudaEventRecord(ev1, stream));                                                   \
            CK(cudaEventSynchronize(ev1));                                                      \
            CK(cudaGetLastError());                                                             \
            float ms;                                                                           \
            CK(cudaEventElapsedTime(&ms, ev0, ev1));                                            \
            if (trial)                                                                          \
                t.push_back(ms * 1e3 / (ITERS));                                                \
        }                                                                                       \
        double us = median(t);                                                                  \
        if (UNIT_BW)                                                                            \
            report(NAME, BYTES, (double)(BYTES) / us / 1e3, "GB/s");                            \
        else                                                                                    \
            report(NAME, BYTES, us, "us");                                                      \
    } while (0)

    if (want(argc, argv, "barrier_on_stream"))
        STREAM_ROW("barrier_on_stream", 0, 2000, 0, SX(barrier_all_on_stream)(stream));
    if (want(argc, argv, "alltoall_on_stream")) {
        const size_t sizes[] = {8, 64, 512, 4096, 32768};
        for (int k = 0; k < 5; k++)
            STREAM_ROW("alltoall_on_stream", sizes[k], 1000, 0,
                       SX(alltoallmem_on_stream)(TEAM_WORLD, cdst, csrc, sizes[k], stream));
        const size_t bw[] = {2u << 20, 16u << 20};
        for (int k = 0; k < 2; k++)
            STREAM_ROW("alltoall_on_stream_bw", bw[k] * npes, 50, 1,
                       SX(alltoallmem_on_stream)(TEAM_WORLD, cdst, csrc, bw[k], stream));
        /* The same on a team split from the world (every PE, a team of its own). */
        TEAM_T team;
        S(team_split_strided)(TEAM_WORLD, 0, 1, npes, NULL, 0, &team);
        for (int k = 0; k < 2; k++)
            STREAM_ROW("alltoall_on_stream_bw_split_team", bw[k] * npes, 50, 1,
                       SX(alltoallmem_on_stream)(team, cdst, csrc, bw[k], stream));
        S(team_destroy)(team);
    }
    if (want(argc, argv, "broadcast_on_stream")) {
        STREAM_ROW("broadcast_on_stream", 64, 1000, 0,
                   SX(broadcastmem_on_stream)(TEAM_WORLD, cdst, csrc, 64, 0, stream));
        STREAM_ROW("broadcast_on_stream_bw", 16u << 20, 50, 1,
                   SX(broadcastmem_on_stream)(TEAM_WORLD, cdst, csrc, 16u << 20, 0, stream));
    }
    if (want(argc, argv, "reduce_on_stream")) {
        const size_t sizes[] = {8, 64, 512, 4096, 32768};
        for (int k = 0; k < 5; k++)
            STREAM_ROW("int_sum_reduce_on_stream", sizes[k], 1000, 0,
                       SX(int_sum_reduce_on_stream)(TEAM_WORLD, (int *)cdst, (int *)csrc,
                                                    sizes[k] / 4, stream));
        STREAM_ROW("int_sum_reduce_on_stream_bw", 16u << 20, 50, 1,
                   SX(int_sum_reduce_on_stream)(TEAM_WORLD, (int *)cdst, (int *)csrc,
                                                (16u << 20) / 4, stream));
    }
    if (want(argc, argv, "block_alltoall") || want(argc, argv, "block_fcollect")) {
        const struct {
            const char *name;
            size_t bytes;
            int fcollect;
            int iters;
        } rows[] = {{"block_alltoall", 4096, 0, 2000},
                    {"block_alltoall", 2u << 20, 0, 20},
                    {"block_fcollect", 64, 1, 2000},
                    {"block_fcollect", 16u << 20, 1, 5}};
        for (int k = 0; k < 4; k++) {
            if (!want(argc, argv, rows[k].name))
                continue;
            std::vector<double> t;
            for (int trial = 0; trial <= TRIALS; trial++) {
                double us = timed(block_coll, 1, 1024, cdst, (const char *)csrc, rows[k].bytes,
                                  rows[k].iters, rows[k].fcollect);
                if (trial)
                    t.push_back(us / rows[k].iters);
            }
            double us = median(t);
            if (rows[k].bytes >= (1u << 20))
                report(rows[k].name, rows[k].bytes, (double)rows[k].bytes * npes / us / 1e3,
                       "GB/s");
            else
                report(rows[k].name, rows[k].bytes, us, "us");
        }
    }
#ifndef BENCH_NVSHMEM
    if (argc > 1 && strcmp(argv[1], "x") == 0)
        experiments();
#endif
    /* Host-initiated puts from device memory to the peer's device heap. */
    if (want(argc, argv, "host_put")) {
        const size_t sizes[] = {4, 1u << 20, 4u << 20};
        for (int k = 0; k < 3; k++) {
            std::vector<double> t;
            const int iters = sizes[k] < 4096 ? 5000 : 300;
            for (int trial = 0; trial <= TRIALS; trial++) {
                S(barrier_all)();
                if (me == 0) {
                    double t0 = now_us();
                    for (int i = 0; i < iters; i++) {
                        S(putmem)(big, big + (256u << 20), sizes[k], peer);
                        S(quiet)();
                    }
                    if (trial)
                        t.push_back((now_us() - t0) / iters);
                }
            }
            S(barrier_all)();
            report("host_put_latency", sizes[k], me == 0 ? median(t) : 0, "us");
        }
        const size_t bw[] = {1u << 20, 4u << 20};
        for (int k = 0; k < 2; k++) {
            std::vector<double> t;
            const int iters = 300;
            for (int trial = 0; trial <= TRIALS; trial++) {
                S(barrier_all)();
                if (me == 0) {
                    double t0 = now_us();
                    for (int i = 0; i < iters; i++)
                        S(putmem_nbi)(big, big + (256u << 20), bw[k], peer);
                    S(quiet)();
                    if (trial)
                        t.push_back((now_us() - t0) / iters);
                }
            }
            S(barrier_all)();
            report("host_put_bw", bw[k], me == 0 ? (double)bw[k] / median(t) / 1e3 : 0, "GB/s");
        }
    }
    CK(cudaDeviceSynchronize());
    DEV_FREE(flag);
    DEV_FREE(sig);
    DEV_FREE(small_buf);
    DEV_FREE(csrc);
    DEV_FREE(cdst);
    DEV_FREE(big);
    finish();
    return 0;
}
