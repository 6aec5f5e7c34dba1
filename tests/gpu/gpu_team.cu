/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Teams on the device: shmem_team_my_pe, _n_pes and _translate_pe in a kernel against the
 * host's answers; team barriers and syncs (thread, warp, block) with data checks; block-scope
 * collectives (fcollect, alltoall, broadcast, int sum and max) on split teams at sizes of both
 * protocols, and the same on a stream (shmemx_*_on_stream, shmemx_barrier_on_stream,
 * shmemx_team_sync_on_stream); two teams' collectives at once in two blocks of one kernel; a
 * team destroyed and split again (the reused slot must start clean); a PE outside a team
 * holds SHMEM_TEAM_INVALID, for which the queries return -1.
 */
#include "../harness.h"

__host__ __device__ static inline unsigned char bval(int pe, size_t i, int salt)
{
    return (unsigned char)(pe * 29 + i * 13 + (i >> 9) + salt * 101);
}
__host__ __device__ static inline int ival(int pe, size_t i, int salt)
{
    return (int)((pe + 3) * 1000003u + (unsigned)i * 7919u + (unsigned)salt * 31u);
}

/* out: my_pe, n_pes, then the world PE of every member (translate to the world team), and the
 * team index of every world PE (translate from the world team). */
__global__ void queries(shmem_team_t team, int *out, int npes)
{
    out[0] = shmem_team_my_pe(team);
    out[1] = shmem_team_n_pes(team);
    for (int i = 0; i < npes; i++) {
        out[2 + i] = shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD);
        out[2 + npes + i] = shmem_team_translate_pe(SHMEM_TEAM_WORLD, i, team);
    }
}

static void check_queries(shmem_team_t team, const char *what)
{
    const int npes = shmem_n_pes();
    int *d, *h = (int *)malloc(sizeof(int) * (2 + 2 * npes));

    CUDA_CHECK(cudaMalloc(&d, sizeof(int) * (2 + 2 * npes)));
    queries<<<1, 1>>>(team, d, npes);
    KERNEL_CHECK();
    CUDA_CHECK(cudaMemcpy(h, d, sizeof(int) * (2 + 2 * npes), cudaMemcpyDeviceToHost));
    EXPECT(h[0] == shmem_team_my_pe(team), "%s: device team_my_pe %d, host %d", what, h[0],
           shmem_team_my_pe(team));
    EXPECT(h[1] == shmem_team_n_pes(team), "%s: device team_n_pes %d, host %d", what, h[1],
           shmem_team_n_pes(team));
    for (int i = 0; i < npes; i++) {
        int to = shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD);
        int from = shmem_team_translate_pe(SHMEM_TEAM_WORLD, i, team);
        EXPECT(h[2 + i] == to, "%s: device translate(team, %d, world) %d, host %d", what, i,
               h[2 + i], to);
        EXPECT(h[2 + npes + i] == from, "%s: device translate(world, %d, team) %d, host %d",
               what, i, h[2 + npes + i], from);
    }
    CUDA_CHECK(cudaFree(d));
    free(h);
}

/* In round k every member stores k into row[k & 1][its index] of every member, passes a team
 * barrier or sync (by round: thread, warp, block barrier; thread, warp, block sync after a
 * quiet), and checks that every member's store arrived. */
__global__ void team_barriers(shmem_team_t team, int *rows, int rounds, unsigned long long *errs)
{
    const int me = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
    const unsigned tid = threadIdx.x;

    for (int k = 1; k <= rounds; k++) {
        int *row = rows + (k & 1) * n;
        if (tid == 0)
            for (int i = 0; i < n; i++)
                shmem_int_p(&row[me], k, shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD));
        /* A sync does not complete puts: quiet first, before any thread syncs. */
        if (k % 6 >= 3) {
            if (tid == 0)
                shmem_quiet();
            __syncthreads();
        }
        switch (k % 6) {
        case 0:
            if (tid == 0)
                shmemx_barrier(team);
            break;
        case 1:
            if (tid < 32)
                shmemx_barrier_warp(team);
            break;
        case 2:
            shmemx_barrier_block(team);
            break;
        case 3:
            if (tid == 0)
                shmem_team_sync(team);
            break;
        case 4:
            if (tid >= 32 && tid < 64)
                shmemx_team_sync_warp(team);
            break;
        default:
            shmemx_team_sync_block(team);
            break;
        }
        __syncthreads();
        for (int i = tid; i < n; i += blockDim.x)
            DEXPECT(errs, ((volatile int *)row)[i] == k,
                    "team barrier round %d: member %d wrote %d", k, i, ((volatile int *)row)[i]);
        __syncthreads();
    }
}

/* Buffers of one team's collectives; src holds this PE's parts, dest the results. */
typedef struct bufs {
    unsigned char *src;
    unsigned char *dest;
    int *isrc;
    int *isum;
    int *imax;
} bufs_t;

/* Threads first, first + step, ... of the caller's share the loops of fill and check. */
__device__ static void fill(shmem_team_t team, bufs_t b, size_t nb, size_t n, int salt,
                            size_t first, size_t step)
{
    const int me = shmem_team_translate_pe(team, shmem_team_my_pe(team), SHMEM_TEAM_WORLD);
    const int members = shmem_team_n_pes(team);

    for (size_t i = first; i < nb * members; i += step)
        b.src[i] = bval(me, i, salt);
    for (size_t i = first; i < n; i += step)
        b.isrc[i] = ival(me, i, salt);
    __syncthreads();
}

enum { FCOLLECT, ALLTOALL, BROADCAST, REDUCE };

/* The result of collective `which` in b.dest (or b.isum and b.imax) after a round of nb bytes. */
__device__ static void check(shmem_team_t team, bufs_t b, size_t nb, int salt, int which,
                             unsigned long long *errs, size_t first, size_t step)
{
    const int me = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
    const int root = n - 1, rootpe = shmem_team_translate_pe(team, root, SHMEM_TEAM_WORLD);
    const size_t ni = nb / 4 ? nb / 4 : 1;

    if (which == FCOLLECT) {
        for (size_t i = first; i < nb * n; i += step) {
            int from = shmem_team_translate_pe(team, (int)(i / nb), SHMEM_TEAM_WORLD);
            DEXPECT(errs, b.dest[i] == bval(from, i % nb, salt),
                    "fcollect nb %llu byte %llu: %d want %d", (unsigned long long)nb,
                    (unsigned long long)i, b.dest[i], bval(from, i % nb, salt));
        }
    } else if (which == ALLTOALL) {
        for (size_t i = first; i < nb * n; i += step) {
            int from = shmem_team_translate_pe(team, (int)(i / nb), SHMEM_TEAM_WORLD);
            unsigned char want = bval(from, (size_t)me * nb + i % nb, salt);
            DEXPECT(errs, b.dest[i] == want, "alltoall nb %llu byte %llu: %d want %d",
                    (unsigned long long)nb, (unsigned long long)i, b.dest[i], want);
        }
    } else if (which == BROADCAST) {
        for (size_t i = first; i < nb; i += step)
            DEXPECT(errs, b.dest[i] == bval(rootpe, i, salt),
                    "broadcast nb %llu byte %llu: %d want %d", (unsigned long long)nb,
                    (unsigned long long)i, b.dest[i], bval(rootpe, i, salt));
    } else {
        for (size_t i = first; i < ni; i += step) {
            int s = 0, m = 0;
            for (int j = 0; j < n; j++) {
                int v = ival(shmem_team_translate_pe(team, j, SHMEM_TEAM_WORLD), i, salt);
                s = (int)((unsigned)s + (unsigned)v);
                m = j == 0 || v > m ? v : m;
            }
            DEXPECT(errs, b.isum[i] == s && b.imax[i] == m,
                    "reduce n %llu index %llu: %d %d want %d %d", (unsigned long long)ni,
                    (unsigned long long)i, b.isum[i], b.imax[i], s, m);
        }
    }
    __syncthreads();
}

/* One round of every block collective on team, each followed by its check. */
__device__ static void colls(shmem_team_t team, bufs_t b, size_t nb, int salt,
                             unsigned long long *errs)
{
    const int n = shmem_team_n_pes(team);
    const size_t ni = nb / 4 ? nb / 4 : 1;

    fill(team, b, nb, ni, salt, threadIdx.x, blockDim.x);
    shmemx_fcollectmem_block(team, b.dest, b.src, nb);
    check(team, b, nb, salt, FCOLLECT, errs, threadIdx.x, blockDim.x);
    shmemx_alltoallmem_block(team, b.dest, b.src, nb);
    check(team, b, nb, salt, ALLTOALL, errs, threadIdx.x, blockDim.x);
    shmemx_broadcastmem_block(team, b.dest, b.src, nb, n - 1);
    check(team, b, nb, salt, BROADCAST, errs, threadIdx.x, blockDim.x);
    shmemx_int_sum_reduce_block(team, b.isum, b.isrc, ni);
    shmemx_int_max_reduce_block(team, b.imax, b.isrc, ni);
    check(team, b, nb, salt, REDUCE, errs, threadIdx.x, blockDim.x);
}

__global__ void fill_k(shmem_team_t team, bufs_t b, size_t nb, int salt)
{
    fill(team, b, nb, nb / 4 ? nb / 4 : 1, salt, blockIdx.x * (size_t)blockDim.x + threadIdx.x,
         (size_t)gridDim.x * blockDim.x);
}

__global__ void check_k(shmem_team_t team, bufs_t b, size_t nb, int salt, int which,
                        unsigned long long *errs)
{
    check(team, b, nb, salt, which, errs, blockIdx.x * (size_t)blockDim.x + threadIdx.x,
          (size_t)gridDim.x * blockDim.x);
}

/* Block b runs rounds of collectives on teams[b] (two teams at once with two blocks). */
__global__ void team_colls(const shmem_team_t *teams, const bufs_t *b, int salt,
                           unsigned long long *errs)
{
    const size_t sizes[] = {8, 1000, 5000, 40000};

    for (int k = 0; k < 4; k++)
        colls(teams[blockIdx.x], b[blockIdx.x], sizes[k], salt + k, errs);
}

#define MAXB 40000

/* Buffers for parts of up to maxb bytes. */
static bufs_t bufs_new(size_t maxb)
{
    const int n = shmem_n_pes();
    bufs_t b;

    b.src = (unsigned char *)shmemx_malloc_device(maxb * n);
    b.dest = (unsigned char *)shmemx_malloc_device(maxb * n);
    b.isrc = (int *)shmemx_malloc_device(maxb);
    b.isum = (int *)shmemx_malloc_device(maxb);
    b.imax = (int *)shmemx_malloc_device(maxb);
    return b;
}

static void bufs_free(bufs_t b)
{
    shmemx_free_device(b.imax);
    shmemx_free_device(b.isum);
    shmemx_free_device(b.isrc);
    shmemx_free_device(b.dest);
    shmemx_free_device(b.src);
}

/* Collectives on up to two teams this PE belongs to, at once when two. */
static void run_colls(shmem_team_t a, shmem_team_t b, int salt, const char *what)
{
    shmem_team_t *teams;
    bufs_t *bb;
    const int nb = b == SHMEM_TEAM_INVALID ? 1 : 2;

    CUDA_CHECK(cudaMallocManaged(&teams, sizeof(shmem_team_t) * 2));
    CUDA_CHECK(cudaMallocManaged(&bb, sizeof(bufs_t) * 2));
    teams[0] = a;
    teams[1] = b;
    bb[0] = bufs_new(MAXB);
    bb[1] = bufs_new(MAXB);
    if (a != SHMEM_TEAM_INVALID) {
        team_colls<<<nb, 256>>>(teams, bb, salt, test_dev_errors);
        KERNEL_CHECK();
    }
    test_gpu_collect(what);
    bufs_free(bb[1]);
    bufs_free(bb[0]);
    CUDA_CHECK(cudaFree(bb));
    CUDA_CHECK(cudaFree(teams));
}

static void run_barriers(shmem_team_t team, const char *what)
{
    int *rows = (int *)shmemx_calloc_device(2 * shmem_n_pes(), sizeof(int));

    if (team != SHMEM_TEAM_INVALID) {
        team_barriers<<<1, 128>>>(team, rows, 120, test_dev_errors);
        KERNEL_CHECK();
    }
    test_gpu_collect(what);
    shmemx_free_device(rows);
}

/* The same collectives on a stream, enqueued by the host, checks on the same stream; up to 3
 * MiB parts, so that a split team's large collectives spread over several channels. */
static void stream_colls(shmem_team_t team, int salt, cudaStream_t s, const char *what)
{
    const size_t sizes[] = {8, 1000, 5000, 40000, (3u << 20) + 24};
    bufs_t b = bufs_new((3u << 20) + 24);

    for (int k = 0; k < 5 && team != SHMEM_TEAM_INVALID; k++) {
        const size_t nb = sizes[k], ni = nb / 4 ? nb / 4 : 1;
        const int sl = salt + k;
        fill_k<<<64, 256, 0, s>>>(team, b, nb, sl);
        shmemx_fcollectmem_on_stream(team, b.dest, b.src, nb, s);
        check_k<<<64, 256, 0, s>>>(team, b, nb, sl, FCOLLECT, test_dev_errors);
        shmemx_alltoallmem_on_stream(team, b.dest, b.src, nb, s);
        check_k<<<64, 256, 0, s>>>(team, b, nb, sl, ALLTOALL, test_dev_errors);
        shmemx_broadcastmem_on_stream(team, b.dest, b.src, nb, shmem_team_n_pes(team) - 1, s);
        check_k<<<64, 256, 0, s>>>(team, b, nb, sl, BROADCAST, test_dev_errors);
        shmemx_int_sum_reduce_on_stream(team, b.isum, b.isrc, ni, s);
        shmemx_int_max_reduce_on_stream(team, b.imax, b.isrc, ni, s);
        check_k<<<64, 256, 0, s>>>(team, b, nb, sl, REDUCE, test_dev_errors);
        CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaStreamSynchronize(s));
    test_gpu_collect(what);
    bufs_free(b);
}

/* Round k: every member stores k into row[k & 1][its index] of every member from a kernel,
 * then a team barrier on the stream (or a quiet and a team sync), then a check kernel. */
__global__ void store_row(shmem_team_t team, int *rows, int k)
{
    const int me = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
    for (int i = 0; i < n; i++)
        shmem_int_p(&rows[(k & 1) * n + me], k, shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD));
}

__global__ void check_row(shmem_team_t team, const int *rows, int k, unsigned long long *errs)
{
    const int n = shmem_team_n_pes(team);
    for (int i = 0; i < n; i++)
        DEXPECT(errs, ((volatile const int *)rows)[(k & 1) * n + i] == k,
                "stream team barrier round %d: member %d wrote %d", k, i,
                ((volatile const int *)rows)[(k & 1) * n + i]);
}

static void stream_barriers(shmem_team_t team, cudaStream_t s, const char *what)
{
    int *rows = (int *)shmemx_calloc_device(2 * shmem_n_pes(), sizeof(int));

    for (int k = 1; k <= 40 && team != SHMEM_TEAM_INVALID; k++) {
        store_row<<<1, 1, 0, s>>>(team, rows, k);
        if (k & 1) {
            shmemx_barrier_on_stream(team, s);
        } else {
            shmemx_quiet_on_stream(s);
            shmemx_team_sync_on_stream(team, s);
        }
        check_row<<<1, 1, 0, s>>>(team, rows, k, test_dev_errors);
    }
    CUDA_CHECK(cudaStreamSynchronize(s));
    test_gpu_collect(what);
    shmemx_free_device(rows);
}

int main(void)
{
    shmem_team_t all, last, x, y;

    test_gpu_init();
    const int npes = shmem_n_pes();

    /* Every PE, in a slot of its own; the last PE alone (others: SHMEM_TEAM_INVALID). */
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &all);
    shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, 1, 1, NULL, 0, &last);
    shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &x, NULL, 0, &y);
    EXPECT(all != SHMEM_TEAM_INVALID && x != SHMEM_TEAM_INVALID && y != SHMEM_TEAM_INVALID,
           "splits failed");
    EXPECT((last != SHMEM_TEAM_INVALID) == (shmem_my_pe() == npes - 1),
           "the last PE's team is on the wrong PEs");

    check_queries(all, "team of all");
    check_queries(last, "team of the last PE");
    check_queries(x, "x team");
    check_queries(y, "y team");
    check_queries(SHMEM_TEAM_WORLD, "world");

    run_barriers(all, "barriers, team of all");
    run_barriers(x, "barriers, x team");
    run_barriers(y, "barriers, y team");
    run_barriers(last, "barriers, team of the last PE");

    run_colls(all, SHMEM_TEAM_INVALID, 0, "collectives, team of all");
    run_colls(x, y, 10, "collectives, x and y teams at once");
    run_colls(all, SHMEM_TEAM_WORLD, 20, "collectives, team of all and the world at once");
    run_colls(last, SHMEM_TEAM_INVALID, 30, "collectives, team of the last PE");

    cudaStream_t s;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    stream_colls(all, 50, s, "collectives on stream, team of all");
    stream_colls(x, 60, s, "collectives on stream, x team");
    stream_colls(y, 70, s, "collectives on stream, y team");
    stream_colls(last, 80, s, "collectives on stream, team of the last PE");
    stream_colls(SHMEM_TEAM_SHARED, 90, s, "collectives on stream, shared team");
    stream_barriers(all, s, "barriers on stream, team of all");
    stream_barriers(y, s, "barriers on stream, y team");
    stream_barriers(SHMEM_TEAM_WORLD, s, "barriers on stream, world");
    CUDA_CHECK(cudaStreamDestroy(s));

    /* A new team in the slot of a destroyed one starts clean (other data: other salt). */
    shmem_team_destroy(all);
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &all);
    check_queries(all, "team of all, split again");
    run_colls(all, SHMEM_TEAM_INVALID, 40, "collectives, team of all split again");
    run_barriers(all, "barriers, team of all split again");

    shmem_team_destroy(all);
    shmem_team_destroy(x);
    shmem_team_destroy(y);
    if (last != SHMEM_TEAM_INVALID)
        shmem_team_destroy(last);
    return test_finish("gpu_team");
}
