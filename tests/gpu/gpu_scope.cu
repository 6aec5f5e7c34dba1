/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Collectives in kernels at every scope: one thread (the host names, shmem_int_alltoall,
 * shmem_int_sum_reduce, ...), one warp (shmemx_*_warp, called by the second warp of the block)
 * and one block (shmemx_*_block) per PE, on the world, on a split team of every PE (its own
 * slot and smaller scratch) and on a team of the last PE alone: alltoall, fcollect, broadcast,
 * int sum, uint xor and double max reductions, int sum and uint xor reduce-scatter at sizes of
 * both protocols, and maxloc of double2 (ties go to the smallest location); shmem_sync(team)
 * and the warpgroup barrier with data checks; strided put and get (iput, iget: typed and
 * sized) of a warp and of a block; and half and bfloat16 reduction, reduce-scatter, fcollect
 * and put by a warp and a block.
 */
#include "../harness.h"

enum { THREAD, WARP, BLOCK };
enum { ALLTOALL, FCOLLECT, BROADCAST, REDUCE, SCATTER, MAXLOC, NKINDS };
static const char *const scope_names[] = {"thread", "warp", "block"};
static const char *const kind_names[] = {"alltoall", "fcollect", "broadcast",
                                         "reduce",   "reducescatter", "maxloc"};

__host__ __device__ static inline int ival(int pe, size_t i)
{
    return (int)((pe + 3) * 1000003u + (unsigned)i * 7919u);
}
__host__ __device__ static inline double dval(int pe, size_t i)
{
    return (double)((pe * 7 + i) % 11) - 5.0;
}

/* The buffers of one case; every PE's src holds n elements for each member (alltoall,
 * reduce-scatter) or n elements. */
typedef struct {
    int *isrc, *isum, *iout;
    unsigned *usrc, *uxor;
    double *dsrc, *dmax;
    double2 *msrc, *mout;
} bufs_t;

__global__ void fill(bufs_t b, size_t n, int size, int pe)
{
    for (size_t i = threadIdx.x + (size_t)blockIdx.x * blockDim.x; i < n * size;
         i += (size_t)blockDim.x * gridDim.x) {
        b.isrc[i] = ival(pe, i);
        b.usrc[i] = (unsigned)ival(pe + 17, i);
        if (i < n) {
            b.dsrc[i] = dval(pe, i);
            b.msrc[i] = make_double2((double)((pe + i) % 3), (double)(pe * 1000 + i));
        }
    }
}

/* One collective of `kind` by the group of scope S: thread 0, the second warp, or the block. */
template <int S> __global__ void coll(shmem_team_t team, int kind, bufs_t b, size_t n, int root)
{
    if ((S == THREAD && threadIdx.x != 0) || (S == WARP && threadIdx.x / 32 != 1))
        return;
    switch (kind) {
    case ALLTOALL:
        if (S == THREAD)
            shmem_int_alltoall(team, b.iout, b.isrc, n);
        else if (S == WARP)
            shmemx_int_alltoall_warp(team, b.iout, b.isrc, n);
        else
            shmemx_int_alltoall_block(team, b.iout, b.isrc, n);
        break;
    case FCOLLECT:
        if (S == THREAD)
            shmem_fcollectmem(team, b.iout, b.isrc, n * sizeof(int));
        else if (S == WARP)
            shmemx_int_fcollect_warp(team, b.iout, b.isrc, n);
        else
            shmemx_fcollectmem_block(team, b.iout, b.isrc, n * sizeof(int));
        break;
    case BROADCAST:
        if (S == THREAD)
            shmem_int_broadcast(team, b.iout, b.isrc, n, root);
        else if (S == WARP)
            shmemx_broadcastmem_warp(team, b.iout, b.isrc, n * sizeof(int), root);
        else
            shmemx_int_broadcast_block(team, b.iout, b.isrc, n, root);
        break;
    case REDUCE:
        if (S == THREAD) {
            shmem_int_sum_reduce(team, b.isum, b.isrc, n);
            shmem_uint_xor_reduce(team, b.uxor, b.usrc, n);
            shmem_double_max_reduce(team, b.dmax, b.dsrc, n);
        } else if (S == WARP) {
            shmemx_int_sum_reduce_warp(team, b.isum, b.isrc, n);
            shmemx_uint_xor_reduce_warp(team, b.uxor, b.usrc, n);
            shmemx_double_max_reduce_warp(team, b.dmax, b.dsrc, n);
        } else {
            shmemx_int_sum_reduce_block(team, b.isum, b.isrc, n);
            shmemx_uint_xor_reduce_block(team, b.uxor, b.usrc, n);
            shmemx_double_max_reduce_block(team, b.dmax, b.dsrc, n);
        }
        break;
    case SCATTER:
        if (S == THREAD) {
            shmemx_int_sum_reducescatter(team, b.isum, b.isrc, n);
            shmemx_uint_xor_reducescatter(team, b.uxor, b.usrc, n);
        } else if (S == WARP) {
            shmemx_int_sum_reducescatter_warp(team, b.isum, b.isrc, n);
            shmemx_uint_xor_reducescatter_warp(team, b.uxor, b.usrc, n);
        } else {
            shmemx_int_sum_reducescatter_block(team, b.isum, b.isrc, n);
            shmemx_uint_xor_reducescatter_block(team, b.uxor, b.usrc, n);
        }
        break;
    default:
        if (S == BLOCK)
            shmemx_double2_maxloc_reduce_block(team, b.mout, b.msrc, n);
        break;
    }
}

/* The results on team member me (world PE start + i for member i). */
__global__ void check(int kind, bufs_t b, size_t n, int size, int start, int me, int root,
                      unsigned long long *errs)
{
    const size_t total = kind == ALLTOALL || kind == FCOLLECT ? n * size : n;

    for (size_t i = threadIdx.x + (size_t)blockIdx.x * blockDim.x; i < total;
         i += (size_t)blockDim.x * gridDim.x) {
        const size_t k = i / n, j = i % n;
        if (kind == ALLTOALL || kind == FCOLLECT || kind == BROADCAST) {
            int want = kind == ALLTOALL    ? ival(start + (int)k, me * n + j)
                       : kind == FCOLLECT ? ival(start + (int)k, j)
                                          : ival(start + root, i);
            DEXPECT(errs, b.iout[i] == want, "%s n %llu: element %llu is %d, want %d",
                    kind == ALLTOALL ? "alltoall" : kind == FCOLLECT ? "fcollect" : "broadcast",
                    (unsigned long long)n, (unsigned long long)i, b.iout[i], want);
            continue;
        }
        if (kind == MAXLOC) {
            double2 want = make_double2(-1, 0);
            for (int m = 0; m < size; m++) {
                double x = (double)((start + m + i) % 3), y = (double)((start + m) * 1000 + i);
                if (x > want.x || (x == want.x && y < want.y))
                    want = make_double2(x, y);
            }
            DEXPECT(errs, b.mout[i].x == want.x && b.mout[i].y == want.y,
                    "maxloc n %llu: element %llu is (%g, %g), want (%g, %g)",
                    (unsigned long long)n, (unsigned long long)i, b.mout[i].x, b.mout[i].y,
                    want.x, want.y);
            continue;
        }
        /* reduce: element i of every source; reduce-scatter: element me * n + i. */
        const size_t at = kind == SCATTER ? me * n + i : i;
        int s = 0;
        unsigned x = 0;
        double d = dval(start, i);
        for (int m = 0; m < size; m++) {
            s += ival(start + m, at);
            x ^= (unsigned)ival(start + m + 17, at);
            d = dval(start + m, i) > d ? dval(start + m, i) : d;
        }
        DEXPECT(errs, b.isum[i] == s && b.uxor[i] == x && (kind == SCATTER || b.dmax[i] == d),
                "%s n %llu: element %llu is %d %u %g, want %d %u %g",
                kind == SCATTER ? "reducescatter" : "reduce", (unsigned long long)n,
                (unsigned long long)i, b.isum[i], b.uxor[i], b.dmax[i], s, x, d);
    }
}

static void run_case(shmem_team_t team, int scope, int kind, const bufs_t &b, size_t n,
                     int start)
{
    const int size = shmem_team_n_pes(team), me = shmem_team_my_pe(team), root = size - 1;
    char what[128];

    if (kind == MAXLOC && scope != BLOCK)
        return;
    fill<<<64, 256>>>(b, n, size, start + me);
    CUDA_CHECK(cudaMemset(b.iout, 0xee, n * size * sizeof(int)));
    CUDA_CHECK(cudaMemset(b.isum, 0xee, n * sizeof(int)));
    CUDA_CHECK(cudaMemset(b.uxor, 0xee, n * sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(b.dmax, 0xee, n * sizeof(double)));
    CUDA_CHECK(cudaMemset(b.mout, 0xee, n * sizeof(double2)));
    CUDA_CHECK(cudaDeviceSynchronize());
    shmem_team_sync(team);
    if (scope == THREAD)
        coll<THREAD><<<1, 64>>>(team, kind, b, n, root);
    else if (scope == WARP)
        coll<WARP><<<1, 64>>>(team, kind, b, n, root);
    else
        coll<BLOCK><<<1, 256>>>(team, kind, b, n, root);
    KERNEL_CHECK();
    check<<<64, 256>>>(kind, b, n, size, start, me, root, test_dev_errors);
    snprintf(what, sizeof(what), "%s %s n %zu, team of %d from pe %d", scope_names[scope],
             kind_names[kind], n, size, start);
    test_gpu_collect(what);
}

/* ---- Team sync and the warpgroup barrier: in round k every member stores k into row[k & 1]
 * [its index] of every member, passes the barrier (thread 0 by shmem_sync after a quiet, or
 * the second warpgroup of the block), and checks every member's store. */
__global__ void syncs(shmem_team_t team, int *slots, int rounds, unsigned long long *errs)
{
    const int me = shmem_team_my_pe(team), size = shmem_team_n_pes(team);
    const unsigned tid = threadIdx.x;

    for (int k = 1; k <= rounds; k++) {
        int *row = slots + (k & 1) * size;
        if (k & 1) {
            if (tid == 0) {
                for (int m = 0; m < size; m++)
                    shmem_int_p(&row[me], k, shmem_team_translate_pe(team, m, SHMEM_TEAM_WORLD));
                shmem_quiet();
                shmem_sync(team);
            }
        } else if (tid >= 128) {
            /* The stores come from the warpgroup's last warp, not the one that signals. */
            for (int m = (int)tid - 224; m >= 0 && m < size; m += 32)
                shmem_int_p(&row[me], k, shmem_team_translate_pe(team, m, SHMEM_TEAM_WORLD));
            shmemx_barrier_warpgroup(team);
        }
        __syncthreads();
        for (int m = tid; m < size; m += blockDim.x)
            DEXPECT(errs, ((volatile int *)row)[m] == k, "sync round %d: member %d wrote %d", k,
                    m, ((volatile int *)row)[m]);
        __syncthreads();
    }
}

/* ---- Strided RMA of a group: to the right neighbour every 2nd element of dest from every 3rd
 * of source (iput), and back from the left neighbour's source into every 2nd of get (iget);
 * typed (int) and sized (64 bits). */
template <int S>
__global__ void strided(int *idst, const int *isrc, int *iget, long long *ldst,
                        const long long *lsrc, long long *lget, size_t n, int right, int left)
{
    if (S == WARP && threadIdx.x / 32 != 1)
        return;
    if (S == WARP) {
        shmemx_int_iput_warp(idst, isrc, 2, 3, n, right);
        shmemx_iput64_warp(ldst, lsrc, 2, 3, n, right);
        shmemx_int_iget_warp(iget, isrc, 2, 3, n, left);
        shmemx_iget64_warp(lget, lsrc, 2, 3, n, left);
    } else {
        shmemx_int_iput_block(idst, isrc, 2, 3, n, right);
        shmemx_iput64_block(ldst, lsrc, 2, 3, n, right);
        shmemx_int_iget_block(iget, isrc, 2, 3, n, left);
        shmemx_iget64_block(lget, lsrc, 2, 3, n, left);
    }
}

__global__ void fill_strided(int *isrc, long long *lsrc, size_t n, int pe)
{
    for (size_t i = threadIdx.x; i < 3 * n; i += blockDim.x) {
        isrc[i] = ival(pe, i);
        lsrc[i] = (long long)ival(pe, i) << 20;
    }
}

/* After the barrier: dest (from the left neighbour) and get (from the left neighbour's
 * source) hold element 3i of that PE's source at 2i, and the 0x55 fill in between. */
__global__ void check_strided(const int *idst, const int *iget, const long long *ldst,
                              const long long *lget, size_t n, int left,
                              unsigned long long *errs)
{
    for (size_t i = threadIdx.x; i < 2 * n; i += blockDim.x) {
        const bool hit = i % 2 == 0;
        const int iw = hit ? ival(left, 3 * (i / 2)) : 0x55555555;
        const long long lw = hit ? (long long)ival(left, 3 * (i / 2)) << 20 : 0x5555555555555555;
        DEXPECT(errs, idst[i] == iw && iget[i] == iw && ldst[i] == lw && lget[i] == lw,
                "strided n %llu element %llu: %d %d %lld %lld, want %d %lld",
                (unsigned long long)n, (unsigned long long)i, idst[i], iget[i], ldst[i],
                lget[i], iw, lw);
    }
}

static void strided_rma(void)
{
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    const size_t n = 1000;
    int *isrc = (int *)shmemx_malloc_device(3 * n * sizeof(int));
    int *idst = (int *)shmemx_malloc_device(2 * n * sizeof(int)), *iget;
    long long *lsrc = (long long *)shmemx_malloc_device(3 * n * sizeof(long long));
    long long *ldst = (long long *)shmemx_malloc_device(2 * n * sizeof(long long)), *lget;

    CUDA_CHECK(cudaMalloc(&iget, 2 * n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&lget, 2 * n * sizeof(long long)));
    for (int scope = WARP; scope <= BLOCK; scope++) {
        fill_strided<<<1, 256>>>(isrc, lsrc, n, me);
        CUDA_CHECK(cudaMemset(idst, 0x55, 2 * n * sizeof(int)));
        CUDA_CHECK(cudaMemset(iget, 0x55, 2 * n * sizeof(int)));
        CUDA_CHECK(cudaMemset(ldst, 0x55, 2 * n * sizeof(long long)));
        CUDA_CHECK(cudaMemset(lget, 0x55, 2 * n * sizeof(long long)));
        CUDA_CHECK(cudaDeviceSynchronize());
        shmem_barrier_all();
        if (scope == WARP)
            strided<WARP><<<1, 64>>>(idst, isrc, iget, ldst, lsrc, lget, n, right, left);
        else
            strided<BLOCK><<<1, 256>>>(idst, isrc, iget, ldst, lsrc, lget, n, right, left);
        KERNEL_CHECK();
        shmem_barrier_all();
        check_strided<<<1, 256>>>(idst, iget, ldst, lget, n, left, test_dev_errors);
        test_gpu_collect(scope == WARP ? "iput/iget warp" : "iput/iget block");
    }
    shmem_barrier_all();
    CUDA_CHECK(cudaFree(iget));
    CUDA_CHECK(cudaFree(lget));
    shmemx_free_device(ldst);
    shmemx_free_device(lsrc);
    shmemx_free_device(idst);
    shmemx_free_device(isrc);
}

/* ---- half and bfloat16 by a warp and a block (world): a warp's half sum reduction and
 * fcollect and put to the right neighbour, a block's bfloat16 max reduce-scatter; small
 * integers, exact in both types. */
__host__ __device__ static inline float hval(int pe, size_t i)
{
    return (float)((pe + i) % 8);
}
__host__ __device__ static inline float bval16(int pe, size_t i)
{
    return (float)((pe * 3 + i) % 16);
}

__global__ void fill16(half *hsrc, __nv_bfloat16 *bsrc, size_t n, int npes, int pe)
{
    for (size_t i = threadIdx.x; i < n * npes; i += blockDim.x) {
        if (i < n)
            hsrc[i] = __float2half(hval(pe, i));
        bsrc[i] = __float2bfloat16(bval16(pe, i));
    }
}

__global__ void coll16(half *hsum, half *hall, half *hput, const half *hsrc, __nv_bfloat16 *bdst,
                       const __nv_bfloat16 *bsrc, size_t n, int right)
{
    if (threadIdx.x < 32) {
        shmemx_half_sum_reduce_warp(SHMEM_TEAM_WORLD, hsum, hsrc, n);
        shmemx_half_fcollect_warp(SHMEM_TEAM_WORLD, hall, hsrc, n);
        shmemx_half_put_warp(hput, hsrc, n, right);
    }
    __syncthreads();
    shmemx_bfloat16_max_reducescatter_block(SHMEM_TEAM_WORLD, bdst, bsrc, n);
}

__global__ void check16(const half *hsum, const half *hall, const half *hput,
                        const __nv_bfloat16 *bdst, size_t n, int npes, int me, int left,
                        unsigned long long *errs)
{
    for (size_t i = threadIdx.x; i < n; i += blockDim.x) {
        float s = 0, m = 0;
        for (int p = 0; p < npes; p++) {
            s += hval(p, i);
            m = bval16(p, me * n + i) > m ? bval16(p, me * n + i) : m;
            DEXPECT(errs, __half2float(hall[p * n + i]) == hval(p, i),
                    "half fcollect [%d][%llu]: %g", p, (unsigned long long)i,
                    __half2float(hall[p * n + i]));
        }
        DEXPECT(errs, __half2float(hsum[i]) == s && __bfloat162float(bdst[i]) == m &&
                          __half2float(hput[i]) == hval(left, i),
                "16-bit element %llu: sum %g (want %g), max %g (want %g), put %g (want %g)",
                (unsigned long long)i, __half2float(hsum[i]), s, __bfloat162float(bdst[i]), m,
                __half2float(hput[i]), hval(left, i));
    }
}

static void sixteen_bit(void)
{
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    const size_t n = 300;
    half *h = (half *)shmemx_malloc_device((3 + npes) * n * sizeof(half));
    __nv_bfloat16 *b = (__nv_bfloat16 *)shmemx_malloc_device((1 + npes) * n * sizeof(*b));

    REQUIRE(h && b, "device allocation failed");
    fill16<<<1, 256>>>(h, b + n, n, npes, me);
    CUDA_CHECK(cudaMemset(h + n, 0, (2 + npes) * n * sizeof(half)));
    CUDA_CHECK(cudaDeviceSynchronize());
    shmem_barrier_all();
    coll16<<<1, 128>>>(h + n, h + 3 * n, h + 2 * n, h, b, b + n, n, (me + 1) % npes);
    KERNEL_CHECK();
    shmem_barrier_all();
    check16<<<1, 256>>>(h + n, h + 3 * n, h + 2 * n, b, n, npes, me, (me + npes - 1) % npes,
                        test_dev_errors);
    test_gpu_collect("half and bfloat16 by a warp and a block");
    shmem_barrier_all();
    shmemx_free_device(b);
    shmemx_free_device(h);
}

int main(void)
{
    const size_t sizes[] = {5, 1000, 70000};
    const size_t max = 70000;
    int npes, me;
    shmem_team_t all, last, teams[3];
    int starts[3];
    bufs_t b;

    test_gpu_init();
    npes = shmem_n_pes();
    me = shmem_my_pe();
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &all);
    shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, 1, 1, NULL, 0, &last);
    REQUIRE(all != SHMEM_TEAM_INVALID && (me == npes - 1) == (last != SHMEM_TEAM_INVALID),
            "splits failed");
    teams[0] = SHMEM_TEAM_WORLD;
    teams[1] = all;
    teams[2] = last;
    starts[0] = starts[1] = 0;
    starts[2] = npes - 1;

    b.isrc = (int *)shmemx_malloc_device(max * npes * sizeof(int));
    b.isum = (int *)shmemx_malloc_device(max * sizeof(int));
    b.iout = (int *)shmemx_malloc_device(max * npes * sizeof(int));
    b.usrc = (unsigned *)shmemx_malloc_device(max * npes * sizeof(unsigned));
    b.uxor = (unsigned *)shmemx_malloc_device(max * sizeof(unsigned));
    b.dsrc = (double *)shmemx_malloc_device(max * sizeof(double));
    b.dmax = (double *)shmemx_malloc_device(max * sizeof(double));
    b.msrc = (double2 *)shmemx_malloc_device(max * sizeof(double2));
    b.mout = (double2 *)shmemx_malloc_device(max * sizeof(double2));
    REQUIRE(b.isrc && b.isum && b.iout && b.usrc && b.uxor && b.dsrc && b.dmax && b.msrc &&
                b.mout,
            "device allocation failed");

    for (int t = 0; t < 3; t++) {
        if (teams[t] == SHMEM_TEAM_INVALID)
            continue;
        for (int scope = THREAD; scope <= BLOCK; scope++)
            for (int kind = 0; kind < NKINDS; kind++)
                for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
                    run_case(teams[t], scope, kind, b, sizes[k], starts[t]);
    }

    for (int t = 0; t < 2; t++) {
        const int size = shmem_team_n_pes(teams[t]);
        int *slots = (int *)shmemx_calloc_device(2 * size, sizeof(int));
        syncs<<<1, 256>>>(teams[t], slots, 200, test_dev_errors);
        KERNEL_CHECK();
        test_gpu_collect(t ? "sync and warpgroup barrier, split team" : "sync and warpgroup "
                                                                         "barrier, world");
        shmemx_free_device(slots);
    }
    strided_rma();
    sixteen_bit();

    shmem_barrier_all();
    shmemx_free_device(b.mout);
    shmemx_free_device(b.msrc);
    shmemx_free_device(b.dmax);
    shmemx_free_device(b.dsrc);
    shmemx_free_device(b.uxor);
    shmemx_free_device(b.usrc);
    shmemx_free_device(b.iout);
    shmemx_free_device(b.isum);
    shmemx_free_device(b.isrc);
    if (last != SHMEM_TEAM_INVALID)
        shmem_team_destroy(last);
    shmem_team_destroy(all);
    return test_finish("gpu_scope");
}
