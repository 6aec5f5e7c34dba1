/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * RMA and signals on a CUDA stream: the host checks the arguments (always), then enqueues one
 * launch of a library kernel (tl/cuda/kernels.cu) or one copy. Small puts and gets are a kernel
 * of stores or loads through the window; from 64 KiB on, the copy engines (cuMemcpyAsync to the
 * peer's window address) move the data faster than SMs. Barriers and collectives on a stream
 * are coll/stream.c's.
 */
#include "core/devheap.h"
#include <shmemx_gpu.h>

#define COPY_ENGINE_MIN (64u << 10)

static void check_pe(const char *call, const void *addr, int pe)
{
    if ((unsigned)pe >= (unsigned)symm_g.n_pes)
        symm_fatal("%s(addr=%p, pe=%d): pe %d is out of range (the job has %d PEs, 0..%d)", call,
                   addr, pe, pe, symm_g.n_pes, symm_g.n_pes - 1);
}

static void check_signal(const char *call, const uint64_t *sig_addr, int sig_op)
{
    if ((uintptr_t)sig_addr & 7)
        symm_fatal("%s(sig_addr=%p): signal address is not 8-byte aligned", call,
                   (const void *)sig_addr);
    symm_devheap_check(call, "sig_addr", sig_addr, 8);
    if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
        symm_fatal("%s(sig_addr=%p, sig_op=%d): unknown signal operation (SHMEM_SIGNAL_SET %d, "
                   "SHMEM_SIGNAL_ADD %d)", call, (const void *)sig_addr, sig_op,
                   SHMEM_SIGNAL_SET, SHMEM_SIGNAL_ADD);
}

/* ---- RMA ------------------------------------------------------------------------------------ */
static void rma(const char *call, void *dest, const void *source, size_t n, int pe, int put,
                CUstream s)
{
    const void *sym = put ? dest : source;
    char *peer;

    symm_gpu_need(call);
    check_pe(call, sym, pe);
    symm_devheap_check(call, put ? "dest" : "source", sym, n);
    if (n == 0)
        return;
    peer = symm_cuda_xlate(sym, pe);
    if (n >= COPY_ENGINE_MIN) {
        SYMM_CU_CHECK(call, symm_cu.cuMemcpyAsync((CUdeviceptr)(put ? peer : dest),
                                                  (CUdeviceptr)(put ? source : peer), n, s));
        return;
    }
    void *d = put ? peer : dest;
    const void *src = put ? source : peer;
    void *args[] = {&d, &src, &n};
    symm_cuda_launch(call, put ? symm_cuda_g.k_put : symm_cuda_g.k_get, 1, 512, s, args);
}

SYMM_EXPORT void shmemx_putmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                                         struct CUstream_st *stream)
{
    rma("shmemx_putmem_on_stream", dest, source, nelems, pe, 1, stream);
}

SYMM_EXPORT void shmemx_getmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                                         struct CUstream_st *stream)
{
    rma("shmemx_getmem_on_stream", dest, source, nelems, pe, 0, stream);
}

/* Data (kernel stores, or a copy-engine copy that the stream completes before the next
 * work), then the signal in one kernel. */
static void put_signal(const char *call, void *dest, const void *source, size_t n,
                       uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, CUstream s)
{
    char *peer = NULL, *sig;
    unsigned long long value = signal;

    symm_gpu_need(call);
    check_pe(call, sig_addr, pe);
    check_signal(call, sig_addr, sig_op);
    if (dest) {
        symm_devheap_check(call, "dest", dest, n);
        peer = symm_cuda_xlate(dest, pe);
    }
    if (n >= COPY_ENGINE_MIN) {
        SYMM_CU_CHECK(call, symm_cu.cuMemcpyAsync((CUdeviceptr)peer, (CUdeviceptr)source, n, s));
        n = 0;
    }
    sig = symm_cuda_xlate(sig_addr, pe);
    void *args[] = {&peer, &source, &n, &sig, &value, &sig_op};
    symm_cuda_launch(call, symm_cuda_g.k_put_signal, 1, n ? 512 : 32, s, args);
}

SYMM_EXPORT void shmemx_putmem_signal_on_stream(void *dest, const void *source, size_t nelems,
                                                uint64_t *sig_addr, uint64_t signal, int sig_op,
                                                int pe, struct CUstream_st *stream)
{
    put_signal("shmemx_putmem_signal_on_stream", dest, source, nelems, sig_addr, signal, sig_op,
               pe, stream);
}

SYMM_EXPORT void shmemx_signal_op_on_stream(uint64_t *sig_addr, uint64_t signal, int sig_op,
                                            int pe, struct CUstream_st *stream)
{
    put_signal("shmemx_signal_op_on_stream", NULL, NULL, 0, sig_addr, signal, sig_op, pe, stream);
}

SYMM_EXPORT void shmemx_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp,
                                                    uint64_t cmp_value,
                                                    struct CUstream_st *stream)
{
    const char *call = "shmemx_signal_wait_until_on_stream";
    unsigned long long value = cmp_value;

    symm_gpu_need(call);
    if ((uintptr_t)sig_addr & 7)
        symm_fatal("%s(sig_addr=%p): signal address is not 8-byte aligned", call,
                   (void *)sig_addr);
    symm_devheap_check(call, "sig_addr", sig_addr, 8);
    if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE)
        symm_fatal("%s(sig_addr=%p, cmp=%d): unknown comparison (SHMEM_CMP_EQ..SHMEM_CMP_LE)",
                   call, (void *)sig_addr, cmp);
    void *args[] = {&sig_addr, &cmp, &value};
    symm_cuda_launch(call, symm_cuda_g.k_signal_wait, 1, 32, stream, args);
}

SYMM_EXPORT void shmemx_quiet_on_stream(struct CUstream_st *stream)
{
    /* Every put enqueued before on the stream is complete when its kernel or copy finishes,
     * which is before anything later on the stream starts. */
    symm_gpu_need("shmemx_quiet_on_stream");
}
