/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * RMA and signals on a CUDA stream: the host checks the arguments (always), then enqueues one
 * launch of a library kernel (tl/cuda/kernels_rma.cu, kernels_sync.cu) or one copy. Small puts
 * and gets are a kernel of stores or loads through the window; from 64 KiB on, the copy engines
 * (cuMemcpyAsync to the peer's window address) move the data faster than SMs. Barriers and
 * collectives on a stream are coll/on_stream.c's. On a stream, a put to a PE of this node is
 * complete when the stream reaches the following work, blocking or not, so an _nbi form is the
 * same enqueue as its blocking form; the typed and sized forms funnel into the byte forms here.
 *
 * A PE of another node is reached through the proxy (tl/proxy), from a one-thread kernel
 * (symm_k_far) that posts the device API's request: the stream moves on once the proxy has
 * taken a put's source or a get's data is here, and delivery is complete at the next
 * shmemx_quiet_on_stream or stream barrier (or the host's quiet), as NVSHMEM defines it.
 */
#include <stdio.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/devheap.h"
#include "tl/proxy/proxy.h"
#include <shmemx_gpu.h>

#define COPY_ENGINE_MIN (64u << 10)

/* Whether pe's device heap is in the window (a PE of this node); else the proxy reaches it. */
static int check_pe(const char *call, const void *addr, int pe)
{
    if ((unsigned)pe >= (unsigned)symm_g.n_pes)
        symm_fatal("%s(addr=%p, pe=%d): pe %d is out of range (the job has %d PEs, 0..%d)", call,
                   addr, pe, pe, symm_g.n_pes, symm_g.n_pes - 1);
    return (unsigned)(pe - symm_g.win_first) < (unsigned)symm_g.win_n;
}

/* One request to a PE of another node, posted by symm_k_far on the stream. */
static void far(const char *call, unsigned op, void *dest, const void *src, size_t n, int pe,
                uint64_t *sig, unsigned long long value, int sig_op, CUstream s)
{
    void *args[] = {&op, &dest, &src, &n, &pe, &sig, &value, &sig_op};
    symm_cuda_launch(call, symm_cuda_g.k_far, 1, 1, s, args);
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
static void rma(const char *call, void *dest, const void *source, size_t n, int pe,
                symm_rma_op_t op, CUstream s)
{
    const int put = symm_rma_is_put(op);
    const void *sym = put ? dest : source;
    char *peer;

    symm_gpu_need(call);
    int near = check_pe(call, sym, pe);
    symm_devheap_check(call, put ? "dest" : "source", sym, n);
    if (n == 0)
        return;
    if (!near) {
        far(call, put ? SYMM_PX_PUT : SYMM_PX_GET, dest, source, n, pe, NULL, 0, 0, s);
        return;
    }
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
    rma("shmemx_putmem_on_stream", dest, source, nelems, pe, SYMM_PUT, stream);
}

SYMM_EXPORT void shmemx_getmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                                         struct CUstream_st *stream)
{
    rma("shmemx_getmem_on_stream", dest, source, nelems, pe, SYMM_GET, stream);
}

/* Data (kernel stores, or a copy-engine copy that the stream completes before the next
 * work), then the signal in one kernel. */
static void put_signal(const char *call, void *dest, const void *source, size_t n,
                       uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, CUstream s)
{
    char *peer = NULL, *sig;
    unsigned long long value = signal;

    symm_gpu_need(call);
    int near = check_pe(call, sig_addr, pe);
    check_signal(call, sig_addr, sig_op);
    if (dest)
        symm_devheap_check(call, "dest", dest, n);
    if (!near) {
        far(call, dest ? SYMM_PX_PUT_SIGNAL : SYMM_PX_AMO, dest, source, n, pe, sig_addr, value,
            sig_op, s);
        return;
    }
    if (dest)
        peer = symm_cuda_xlate(dest, pe);
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
    /* Every put to a PE of this node enqueued before on the stream is complete when its kernel
     * or copy finishes, which is before anything later on the stream starts; the proxy's
     * requests are complete when it answers a quiet. */
    symm_gpu_need("shmemx_quiet_on_stream");
    if (symm_px_running())
        far("shmemx_quiet_on_stream", SYMM_PX_QUIET, NULL, NULL, 0, symm_g.my_pe, NULL, 0, 0,
            stream);
}

/* ---- Typed, sized and non-blocking forms ------------------------------------------------------ */
/* The bits of a value of `size` bytes in the low bytes of a word (the kernels' argument). */
static unsigned long long bits_of(const void *value, size_t size)
{
    unsigned long long v = 0;

    memcpy(&v, value, size);
    return v;
}

SYMM_EXPORT void shmemx_putmem_nbi_on_stream(void *dest, const void *source, size_t nelems,
                                             int pe, struct CUstream_st *stream)
{
    rma("shmemx_putmem_nbi_on_stream", dest, source, nelems, pe, SYMM_PUT, stream);
}

SYMM_EXPORT void shmemx_getmem_nbi_on_stream(void *dest, const void *source, size_t nelems,
                                             int pe, struct CUstream_st *stream)
{
    rma("shmemx_getmem_nbi_on_stream", dest, source, nelems, pe, SYMM_GET, stream);
}

SYMM_EXPORT void shmemx_putmem_signal_nbi_on_stream(void *dest, const void *source,
                                                    size_t nelems, uint64_t *sig_addr,
                                                    uint64_t signal, int sig_op, int pe,
                                                    struct CUstream_st *stream)
{
    put_signal("shmemx_putmem_signal_nbi_on_stream", dest, source, nelems, sig_addr, signal,
               sig_op, pe, stream);
}

/* p: one thread stores the value (taken now, into the kernel's arguments). */
static void p(const char *call, void *dest, unsigned long long value, unsigned size, int pe,
              CUstream s)
{
    char *peer;

    symm_gpu_need(call);
    int near = check_pe(call, dest, pe);
    if ((uintptr_t)dest & (size - 1))
        symm_fatal("%s(dest=%p): not aligned to the element's %u bytes", call, dest, size);
    symm_devheap_check(call, "dest", dest, size);
    if (!near) {
        far(call, SYMM_PX_P, dest, NULL, size, pe, NULL, value, 0, s);
        return;
    }
    peer = symm_cuda_xlate(dest, pe);
    void *args[] = {&peer, &value, &size};
    symm_cuda_launch(call, symm_cuda_g.k_p, 1, 1, s, args);
}

/* g: the stream's earlier work first (it may write the value), then a read through the copy
 * stream into *out, or through the proxy from a PE of another node. */
static void g(const char *call, void *out, const void *source, size_t size, int pe, CUstream s)
{
    symm_gpu_need(call);
    int near = check_pe(call, source, pe);
    symm_devheap_check(call, "source", source, size);
    symm_cuda_bind(call);
    SYMM_CU_CHECK(call, symm_cu.cuStreamSynchronize(s));
    if (!near) {
        symm_px_rma(call, out, source, size, pe, SYMM_GET);
        return;
    }
    SYMM_CU_CHECK(call, symm_cu.cuMemcpyAsync((CUdeviceptr)out,
                                              (CUdeviceptr)symm_cuda_xlate(source, pe), size,
                                              symm_cuda_g.copy));
    SYMM_CU_CHECK(call, symm_cu.cuStreamSynchronize(symm_cuda_g.copy));
}

/* iput and iget: element i between dest + i * dst and source + i * sst (in elements of esize
 * bytes, a power of two up to 16), copied in the widest words that addresses and strides
 * allow. */
static void strided(const char *call, void *dest, const void *source, ptrdiff_t dst,
                    ptrdiff_t sst, size_t nelems, size_t esize, int pe, symm_rma_op_t op,
                    CUstream s)
{
    int put = symm_rma_is_put(op); /* the far kernel's argument */
    const void *sym = put ? dest : source;
    ptrdiff_t stride = put ? dst : sst;
    long long ds = (long long)dst * (long long)esize, ss = (long long)sst * (long long)esize;
    unsigned w = (unsigned)esize, k;
    size_t extent, grid;
    char *peer;

    symm_gpu_need(call);
    int near = check_pe(call, sym, pe);
    if (dst < 1 || sst < 1)
        symm_fatal("%s(dst=%td, sst=%td): the strides must be at least 1", call, dst, sst);
    if (nelems == 0)
        return;
    extent = symm_coll_bytes(call, symm_coll_bytes(call, nelems - 1, (size_t)stride), esize);
    if (extent > SIZE_MAX - esize)
        symm_fatal("%s(nelems=%zu): the strided range overflows the address space", call,
                   nelems);
    symm_devheap_check(call, put ? "dest" : "source", sym, extent + esize);
    if (!near) {
        void *args[] = {&put, &dest, &source, &dst, &sst, &nelems, &esize, &pe};
        symm_cuda_launch(call, symm_cuda_g.k_far_strided, 1, 256, s, args);
        return;
    }
    peer = symm_cuda_xlate(sym, pe);
    char *d = put ? peer : dest;
    const char *src = put ? source : peer;
    while (w > 1 && (((uintptr_t)d | (uintptr_t)src | (uintptr_t)ds | (uintptr_t)ss) & (w - 1)))
        w >>= 1;
    k = (unsigned)esize / w;
    grid = (nelems + 511) / 512;
    if (grid > 132)
        grid = 132;
    void *args[] = {&d, &src, &ds, &ss, &w, &k, &nelems};
    symm_cuda_launch(call, symm_cuda_g.k_strided, (unsigned)grid, 512, s, args);
}

/* The waits: symm_k_wait_KIND of the element's size and signedness (looked up on first use),
 * one thread polling ivars in this PE's device heap. */
static CUfunction k_wait[2][4]; /* [signed][log2 of the size] */

static void wait(const char *call, void *ivars, size_t n, const int *status, int cmp,
                 unsigned long long value, const void *values, size_t size, int is_signed,
                 CUstream s)
{
    int lg = size == 8 ? 3 : size == 4 ? 2 : size == 2 ? 1 : 0;
    CUfunction *f = &k_wait[is_signed][lg];

    symm_gpu_need(call);
    if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE)
        symm_fatal("%s(ivars=%p, cmp=%d): unknown comparison (SHMEM_CMP_EQ..SHMEM_CMP_LE)", call,
                   ivars, cmp);
    if ((uintptr_t)ivars & (size - 1))
        symm_fatal("%s(ivars=%p): not aligned to the element's %zu bytes", call, ivars, size);
    symm_devheap_check(call, "ivars", ivars, symm_coll_bytes(call, n, size));
    if (n == 0)
        return;
    if (!*f) {
        char name[32];
        snprintf(name, sizeof(name), "symm_k_wait_%c%zu", is_signed ? 'i' : 'u', 8 * size);
        symm_cuda_bind(call);
        *f = symm_cuda_kernel(call, name);
    }
    void *args[] = {&ivars, &n, &status, &cmp, &value, &values};
    symm_cuda_launch(call, *f, 1, 32, s, args);
}

/* The typed and sized forms (shmemx_TYPE_put_on_stream, ...), written by cmake/gen_api.c. */
#include "api/gen/typed_rma_stream.c"
