/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The CUDA transport: this PE's GPU (device, primary context, the library's copy stream and
 * its kernel module), the device window (one reserved range of device addresses, one slot per
 * PE, the same arithmetic as the host heap window) into which the peers' device heaps are
 * mapped over CUDA IPC, copies between host memory and device heaps, and the one error path of
 * the GPU part. The core starts the GPU (core/gpu.c) and lends the transport at start what it
 * needs of the job (symm_cuda_env_t), as it lends the network transport its own (tl/tl.h); the
 * device heap (coll/devheap.c) reserves the window and backs this PE's slot, and fills in
 * where they are (win, stride, base, backed, reg).
 */
#ifndef SYMM_TL_CUDA_H
#define SYMM_TL_CUDA_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "symm/impl/state.h"
#include "tl/tl.h"
#include "tl/cuda/driver.h"

/* The library kernels with a fixed name (kernels.cu). */
#define SYMM_CUDA_KERNELS(X)                                                                     \
    X(put)                                                                                      \
    X(get)                                                                                      \
    X(put_signal)                                                                               \
    X(signal_wait)                                                                              \
    X(p)                                                                                        \
    X(strided)                                                                                  \
    X(barrier)                                                                                  \
    X(alltoall)                                                                                 \
    X(fcollect)                                                                                 \
    X(broadcast)                                                                                \
    X(amo)                                                                                      \
    X(far)                                                                                      \
    X(far_strided)

/* What the core lends the transport: the job, the PEs whose heaps the window maps (this
 * node's, [first, first + count)), the bootstrap's passing of file descriptors among them, and
 * the one error path (prints "call: message" as every fatal error does and ends the job). */
typedef struct symm_cuda_env {
    int rank;
    int size;
    int first;
    int count;
    symm_status_t (*exchange_fds)(const int *fds, int n, int first, int count, int *out);
    const char *(*status_str)(symm_status_t status);
    __attribute__((noreturn, format(printf, 1, 2))) void (*fatal)(const char *fmt, ...);
} symm_cuda_env_t;

/* A range of a slot, as offsets. */
typedef struct symm_cuda_range {
    size_t off;
    size_t len;
} symm_cuda_range_t;

typedef struct symm_cuda {
    int started;               /* the device heap is up (the core's start sets it last) */
    int ordinal;               /* CUDA device index, -1 before start */
    CUdevice dev;
    CUcontext ctx;
    CUstream copy;             /* host-initiated copies */
    int queued;                /* copies of _nbi calls not yet waited for */
    CUmodule module;
    int sms;

    char *win;                 /* device window: slot of PE 0 */
    size_t stride;             /* bytes of a slot: the device heap, then registered buffers */
    char *base;                /* this PE's slot */
    size_t backed;             /* bytes of this PE's heap backed by chunks */
    const symm_cuda_range_t *reg; /* registered buffers' [off, off + len) of the slot */
    size_t nreg;

    symm_dev_err_t *err;       /* host view of the device error record */
    symm_cuda_env_t env;

#define SYMM_CUDA_KERNEL_FIELD(k) CUfunction k_##k;
    SYMM_CUDA_KERNELS(SYMM_CUDA_KERNEL_FIELD)
#undef SYMM_CUDA_KERNEL_FIELD
} symm_cuda_t;

extern symm_cuda_t symm_cuda_g;

/* Ends the job over a failed driver call: names call and what failed, and, when a kernel of
 * this PE failed a device check or faulted, what the kernel reported. */
void symm_cuda_fail(const char *call, const char *what, CUresult r) __attribute__((noreturn));
/* The device check's report, as "call(args) in a kernel: what", or NULL when no kernel of this
 * PE failed one. */
const char *symm_cuda_report(char *buf, size_t len);

#define SYMM_CU_CHECK(call, expr)                                                                \
    do {                                                                                        \
        CUresult r_ = (expr);                                                                   \
        if (__builtin_expect(r_ != CUDA_SUCCESS, 0))                                            \
            symm_cuda_fail(call, #expr, r_);                                                    \
    } while (0)

/* Makes the device's primary context current on the calling thread, which may be any thread
 * of the PE (one thread-local read when it already is). Every host entry into the GPU part
 * that reaches the driver after the start calls it. */
void symm_cuda_bind(const char *call);
/* The process is exiting and the CUDA driver shut down before symm (an exit after an error,
 * with the program's own CUDA teardown first): it released the GPU's resources already. */
int symm_cuda_gone(void);
/* Loads the library's kernels (the fat binary libsymm carries) on this PE's GPU. */
void symm_cuda_load_kernels(const char *call);
/* One launch of f on stream s: grid blocks of block threads. */
void symm_cuda_launch(const char *call, CUfunction f, unsigned grid, unsigned block, CUstream s,
                      void **args);

/* Collective over the window's PEs: every PE passes its piece [off, off + len) of its heap
 * (handle h, mapped in its own slot) to every other, which maps it into the owner's slot and
 * grants its own GPU access to it. */
void symm_cuda_share(const char *call, CUmemGenericAllocationHandle h, size_t off, size_t len);
/* Unmaps [off, off + len) of every PE's slot, the own one included. */
void symm_cuda_unmap(const char *call, size_t off, size_t len);

/* Copies n bytes between local memory and pe's device heap: a put copies src (local) to dest
 * (symmetric, in the device heap), a get src (symmetric) to dest (local), on the copy stream,
 * through the peer's window address. SYMM_PUT, SYMM_GET: complete on return; the _NBI kinds:
 * queued until symm_cuda_quiet. SYMM_ERR_INVALID when the symmetric side is not in the device
 * heap. */
symm_status_t symm_cuda_copy(void *dest, const void *src, size_t n, int pe, symm_rma_op_t op);
/* Completes every copy queued; cheap when none is. */
void symm_cuda_quiet(void);

/* This PE's address for [addr, addr + n) when it lies in the backed device heap or in one
 * buffer registered as symmetric, else NULL. */
static inline char *symm_cuda_local(const void *addr, size_t n)
{
    uintptr_t off = (uintptr_t)addr - (uintptr_t)symm_cuda_g.base;

    if (!symm_cuda_g.started)
        return NULL;
    if (off < symm_cuda_g.backed && n <= symm_cuda_g.backed - off)
        return (char *)addr;
    for (size_t i = 0; i < symm_cuda_g.nreg; i++) {
        const symm_cuda_range_t *r = &symm_cuda_g.reg[i];
        if (off - r->off < r->len && n <= r->len - (off - r->off))
            return (char *)addr;
    }
    return NULL;
}

/* The address on pe of addr, an address of this PE's device heap. */
static inline char *symm_cuda_xlate(const void *addr, int pe)
{
    return (char *)addr + ((ptrdiff_t)pe - symm_cuda_g.env.rank) * (ptrdiff_t)symm_cuda_g.stride;
}

#endif
