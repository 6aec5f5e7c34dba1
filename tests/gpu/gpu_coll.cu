/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Barriers and collectives: the device barrier and sync in thread, warp and block scope; the
 * block-scope collectives (alltoall, fcollect, broadcast, reductions) at sizes of both
 * protocols; and every stream operation: put, get, put_signal, signal_op and
 * signal_wait_until, quiet, barrier and sync, and the collectives on stream, from a few bytes
 * to 16 MiB, with exact checks of every element.
 */
#include "../harness.h"

/* ---- Device barrier: in round k every PE stores k into slot [k & 1][me] of every PE, passes
 * a barrier, and checks that every PE's store arrived. */
__global__ void barriers(int *slots, int rounds, unsigned long long *errs)
{
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    const unsigned tid = threadIdx.x;

    for (int k = 1; k <= rounds; k++) {
        int *row = slots + (k & 1) * npes;
        if (tid == 0)
            for (int pe = 0; pe < npes; pe++)
                shmem_int_p(&row[me], k, pe);
        switch (k % 6) {
        case 0:
            if (tid == 0)
                shmem_barrier_all();
            __syncthreads();
            break;
        case 1:
            if (tid < 32)
                shmemx_barrier_all_warp();
            __syncthreads();
            break;
        case 2:
            shmemx_barrier_all_block();
            break;
        case 3:
            if (tid == 0) {
                shmem_quiet();
                shmem_sync_all();
            }
            __syncthreads();
            break;
        case 4:
            /* A sync does not complete puts: quiet first, before any thread syncs. */
            if (tid == 0)
                shmem_quiet();
            __syncthreads();
            if (tid >= 32 && tid < 64)
                shmemx_sync_all_warp();
            __syncthreads();
            break;
        default:
            if (tid == 0)
                shmem_quiet();
            __syncthreads();
            shmemx_sync_all_block();
            break;
        }
        for (int pe = tid; pe < npes; pe += blockDim.x)
            DEXPECT(errs, ((volatile int *)row)[pe] == k, "barrier round %d: pe %d wrote %d", k,
                    pe, ((volatile int *)row)[pe]);
    }
}

/* ---- Values ---------------------------------------------------------------------------------- */
__host__ __device__ static inline unsigned char bval(int pe, size_t i)
{
    return (unsigned char)(pe * 29 + i * 13 + (i >> 9));
}
__host__ __device__ static inline int ival(int pe, size_t i)
{
    return (int)((pe + 3) * 1000003u + (unsigned)i * 7919u);
}

__global__ void fill_bytes(unsigned char *p, size_t n, int pe, int salt)
{
    for (size_t i = threadIdx.x + (size_t)blockIdx.x * blockDim.x; i < n;
         i += (size_t)blockDim.x * gridDim.x)
        p[i] = bval(pe + salt, i);
}

__global__ void fill_ints(int *p, size_t n, int pe)
{
    for (size_t i = threadIdx.x + (size_t)blockIdx.x * blockDim.x; i < n;
         i += (size_t)blockDim.x * gridDim.x)
        p[i] = ival(pe, i);
}

__global__ void fill_doubles(double *p, size_t n, int pe)
{
    for (size_t i = threadIdx.x + (size_t)blockIdx.x * blockDim.x; i < n;
         i += (size_t)blockDim.x * gridDim.x)
        p[i] = (double)((pe + 1) * 0.5 + (double)(i % 1000));
}

enum { ALLTOALL, FCOLLECT, BROADCAST };

/* dest after an exchange of nbytes per PE (broadcast root: npes - 1). */
__global__ void check_bytes(const unsigned char *dest, size_t nbytes, int kind, int npes, int me,
                            unsigned long long *errs, int salt)
{
    size_t total = kind == BROADCAST ? nbytes : nbytes * npes;
    for (size_t i = threadIdx.x + (size_t)blockIdx.x * blockDim.x; i < total;
         i += (size_t)blockDim.x * gridDim.x) {
        int from = kind == BROADCAST ? npes - 1 : (int)(i / nbytes);
        size_t j = kind == ALLTOALL ? me * nbytes + i % nbytes : i % nbytes;
        unsigned char want = bval(from + salt, kind == BROADCAST ? i : j);
        DEXPECT(errs, dest[i] == want, "kind %d nbytes %llu: byte %llu is %d, want %d", kind,
                (unsigned long long)nbytes, (unsigned long long)i, dest[i], want);
    }
}

/* Reductions over every PE's ival / dval. */
__global__ void check_reduce(const int *isum, const int *imax, const unsigned *uxor,
                             const double *dsum, size_t n, int npes, unsigned long long *errs)
{
    for (size_t i = threadIdx.x + (size_t)blockIdx.x * blockDim.x; i < n;
         i += (size_t)blockDim.x * gridDim.x) {
        int s = 0, m = ival(0, i);
        unsigned x = 0;
        double d = 0;
        for (int pe = 0; pe < npes; pe++) {
            s += ival(pe, i);
            m = ival(pe, i) > m ? ival(pe, i) : m;
            x ^= (unsigned)ival(pe, i);
            d += (double)((pe + 1) * 0.5 + (double)(i % 1000));
        }
        DEXPECT(errs, isum[i] == s && imax[i] == m && (!uxor || uxor[i] == x) && dsum[i] == d,
                "reduce n %llu index %llu", (unsigned long long)n, (unsigned long long)i);
    }
}

/* Block-scope collectives: one block runs them one after the other. */
__global__ void block_colls(unsigned char *dest, const unsigned char *src, size_t nbytes,
                            int *isum, int *imax, unsigned *uxor, double *dsum, const int *isrc,
                            const double *dsrc, size_t n, int which)
{
    switch (which) {
    case ALLTOALL:
        shmemx_alltoallmem_block(SHMEM_TEAM_WORLD, dest, src, nbytes);
        break;
    case FCOLLECT:
        shmemx_fcollectmem_block(SHMEM_TEAM_WORLD, dest, src, nbytes);
        break;
    case BROADCAST:
        shmemx_broadcastmem_block(SHMEM_TEAM_WORLD, dest, src, nbytes, shmem_n_pes() - 1);
        break;
    default:
        shmemx_int_sum_reduce_block(SHMEM_TEAM_WORLD, isum, isrc, n);
        shmemx_int_max_reduce_block(SHMEM_TEAM_WORLD, imax, isrc, n);
        shmemx_uint_xor_reduce_block(SHMEM_TEAM_WORLD, uxor, (const unsigned *)isrc, n);
        shmemx_double_sum_reduce_block(SHMEM_TEAM_WORLD, dsum, dsrc, n);
        break;
    }
}

/* ---- Stream RMA: a put with signal, then on the same stream a wait for the left
 * neighbour's signal and a check of its data; all enqueued without the host waiting. */
__global__ void check_stream_data(const unsigned char *buf, size_t n, int from, int salt,
                                  unsigned long long *errs)
{
    for (size_t i = threadIdx.x + (size_t)blockIdx.x * blockDim.x; i < n;
         i += (size_t)blockDim.x * gridDim.x)
        DEXPECT(errs, buf[i] == bval(from + salt, i), "stream data byte %llu of %llu",
                (unsigned long long)i, (unsigned long long)n);
}

static void stream_rma(cudaStream_t s)
{
    const int me = shmem_my_pe(), npes = shmem_n_pes(), right = (me + 1) % npes,
              left = (me + npes - 1) % npes;
    const size_t sizes[] = {1, 100, 4096, 65535, 65536, 1 << 20, 3 << 20};
    const size_t max = 3 << 20;
    unsigned char *buf = (unsigned char *)shmemx_malloc_device(2 * max), *src;
    uint64_t *sig = (uint64_t *)shmemx_calloc_device(2, sizeof(uint64_t));

    CUDA_CHECK(cudaMalloc(&src, max));
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        size_t n = sizes[k];
        fill_bytes<<<64, 256, 0, s>>>(src, n, me, (int)k);
        shmemx_putmem_signal_on_stream(buf, src, n, &sig[0], k + 1, SHMEM_SIGNAL_SET, right, s);
        shmemx_signal_wait_until_on_stream(&sig[0], SHMEM_CMP_EQ, k + 1, s);
        check_stream_data<<<64, 256, 0, s>>>(buf, n, left, (int)k, test_dev_errors);
        shmemx_barrier_all_on_stream(s);
        /* Plain put, quiet, then a signal op: the signal follows the data. */
        fill_bytes<<<64, 256, 0, s>>>(src, n, me, (int)k + 100);
        shmemx_putmem_on_stream(buf + max, src, n, right, s);
        shmemx_quiet_on_stream(s);
        shmemx_signal_op_on_stream(&sig[1], 1, SHMEM_SIGNAL_ADD, right, s);
        shmemx_signal_wait_until_on_stream(&sig[1], SHMEM_CMP_GE, k + 1, s);
        check_stream_data<<<64, 256, 0, s>>>(buf + max, n, left, (int)k + 100, test_dev_errors);
        /* Get back what this PE put on the right neighbour. */
        CUDA_CHECK(cudaMemsetAsync(src, 0, n, s));
        shmemx_getmem_on_stream(src, buf + max, n, right, s);
        check_stream_data<<<64, 256, 0, s>>>(src, n, me, (int)k + 100, test_dev_errors);
        shmemx_sync_all_on_stream(s);
    }
    CUDA_CHECK(cudaStreamSynchronize(s));
    test_gpu_collect("stream rma");
    shmem_barrier_all();
    CUDA_CHECK(cudaFree(src));
    shmemx_free_device(sig);
    shmemx_free_device(buf);
}

/* ---- Collectives, block scope and on stream -------------------------------------------------- */
static void collectives(cudaStream_t s, int on_stream)
{
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    const size_t sizes[] = {1, 8, 1000, 32768, 300000, 2 << 20, 16 << 20};
    const size_t nsizes = on_stream ? 7 : 6;
    const size_t max = 16 << 20;
    unsigned char *dest = (unsigned char *)shmemx_malloc_device(max * npes);
    unsigned char *src = (unsigned char *)shmemx_malloc_device(max * npes);
    const char *what = on_stream ? "collectives on stream" : "block collectives";

    for (size_t k = 0; k < nsizes; k++) {
        size_t nb = sizes[k];
        for (int kind = ALLTOALL; kind <= BROADCAST; kind++) {
            size_t total = kind == BROADCAST ? nb : nb * npes;
            /* PE p's source byte i is bval(p, i) (alltoall: nb bytes for each PE). */
            fill_bytes<<<128, 256, 0, s>>>(src, kind == ALLTOALL ? nb * npes : nb, me, 0);
            CUDA_CHECK(cudaMemsetAsync(dest, 0xee, total, s));
            if (on_stream) {
                if (kind == ALLTOALL)
                    shmemx_alltoallmem_on_stream(SHMEM_TEAM_WORLD, dest, src, nb, s);
                else if (kind == FCOLLECT)
                    shmemx_fcollectmem_on_stream(SHMEM_TEAM_WORLD, dest, src, nb, s);
                else
                    shmemx_broadcastmem_on_stream(SHMEM_TEAM_WORLD, dest, src, nb, npes - 1, s);
            } else {
                block_colls<<<1, 512, 0, s>>>(dest, src, nb, NULL, NULL, NULL, NULL, NULL, NULL,
                                              0, kind);
                CUDA_CHECK(cudaGetLastError());
            }
            check_bytes<<<128, 256, 0, s>>>(dest, nb, kind, npes, me, test_dev_errors, 0);
            CUDA_CHECK(cudaStreamSynchronize(s));
            test_gpu_collect(what);
        }
        /* Reductions: int sum and max, uint xor, double sum over nb / 4 elements. */
        size_t n = nb / 4 ? nb / 4 : 1;
        if (n * 8 * 4 > max * npes)
            continue;
        int *isrc = (int *)src, *isum = (int *)dest, *imax = isum + n;
        unsigned *uxor = (unsigned *)(imax + n);
        double *dsrc = (double *)(src + ((n * sizeof(int) + 255) & ~(size_t)255));
        double *dsum = (double *)((char *)dest + ((3 * n * sizeof(int) + 255) & ~(size_t)255));
        fill_ints<<<128, 256, 0, s>>>(isrc, n, me);
        fill_doubles<<<128, 256, 0, s>>>(dsrc, n, me);
        if (on_stream) {
            shmemx_int_sum_reduce_on_stream(SHMEM_TEAM_WORLD, isum, isrc, n, s);
            shmemx_int_max_reduce_on_stream(SHMEM_TEAM_WORLD, imax, isrc, n, s);
            shmemx_uint_xor_reduce_on_stream(SHMEM_TEAM_WORLD, uxor, (const unsigned *)isrc, n,
                                             s);
            shmemx_double_sum_reduce_on_stream(SHMEM_TEAM_WORLD, dsum, dsrc, n, s);
        } else {
            block_colls<<<1, 512, 0, s>>>(NULL, NULL, 0, isum, imax, uxor, dsum, isrc, dsrc, n,
                                          3);
            CUDA_CHECK(cudaGetLastError());
        }
        check_reduce<<<128, 256, 0, s>>>(isum, imax, uxor, dsum, n, npes, test_dev_errors);
        CUDA_CHECK(cudaStreamSynchronize(s));
        test_gpu_collect(what);
        /* In place. */
        if (on_stream) {
            fill_ints<<<128, 256, 0, s>>>(isrc, n, me);
            shmemx_int_sum_reduce_on_stream(SHMEM_TEAM_WORLD, isrc, isrc, n, s);
            shmemx_int_max_reduce_on_stream(SHMEM_TEAM_WORLD, imax, isrc, 0, s);
            CUDA_CHECK(cudaStreamSynchronize(s));
            int *h = (int *)malloc(n * sizeof(int));
            CUDA_CHECK(cudaMemcpy(h, isrc, n * sizeof(int), cudaMemcpyDeviceToHost));
            for (size_t i = 0; i < n; i++) {
                int want = 0;
                for (int pe = 0; pe < npes; pe++)
                    want += ival(pe, i);
                EXPECT(h[i] == want, "in-place sum n %zu index %zu: %d, want %d", n, i, h[i],
                       want);
                if (h[i] != want)
                    break;
            }
            free(h);
        }
        shmem_barrier_all();
    }
    shmemx_free_device(src);
    shmemx_free_device(dest);
}

int main(void)
{
    cudaStream_t s;

    test_gpu_init();
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int *slots = (int *)shmemx_calloc_device(2 * shmem_n_pes(), sizeof(int));
    barriers<<<1, 128>>>(slots, 600, test_dev_errors);
    KERNEL_CHECK();
    test_gpu_collect("barriers");
    shmemx_free_device(slots);

    stream_rma(s);
    collectives(s, 0);
    collectives(s, 1);
    CUDA_CHECK(cudaStreamDestroy(s));
    return test_finish("gpu_coll");
}
