/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The GPU part's state, shared by its files: this PE's device and context, the device window
 * (one reserved range of device addresses, one slot per PE, the same arithmetic as the host
 * heap window), the chunks backing this PE's device heap, the library's kernel module and
 * the device state it publishes.
 */
#ifndef SYMM_GPU_INT_H
#define SYMM_GPU_INT_H

#include <cuda.h>

#include "coll/coll.h"
#include "core/state.h"
#include "gpu/driver.h"
#include "gpu/gpu.h"
#include "symm/impl/state.h"
#include <shmemx_gpu.h>

/* One piece of this PE's device heap: [off, off + len), backed by one cuMemCreate handle and
 * mapped at that offset of every PE's slot in every process of the node. */
typedef struct symm_gpu_chunk {
    size_t off;
    size_t len;
    CUmemGenericAllocationHandle handle;
} symm_gpu_chunk_t;

/* The library kernels with a fixed name (kernels.cu). */
#define SYMM_GPU_KERNELS(X)                                                                      \
    X(put)                                                                                      \
    X(get)                                                                                      \
    X(put_signal)                                                                               \
    X(signal_wait)                                                                              \
    X(barrier)                                                                                  \
    X(alltoall)                                                                                 \
    X(fcollect)                                                                                 \
    X(broadcast)

/* Reductions: kernel symm_k_reduce_KIND_OP, for the kinds of the type table (SYMM_GPU_KINDS):
 * SYMM_GPU_KIND_i8, ... SYMM_GPU_NKINDS. */
#define SYMM_GPU_KIND_ID(A, KIND, T, BIT) SYMM_GPU_KIND_##KIND,
enum { SYMM_GPU_KINDS(SYMM_GPU_KIND_ID, _) SYMM_GPU_NKINDS };

typedef struct symm_gpu {
    int started;
    int mode;                  /* SYMM_GPU: -1 auto, 0 off, 1 at init */
    const char *device_list;   /* SYMM_GPU_DEVICE, or NULL */
    size_t heap_size;          /* SYMM_DEVICE_HEAP_SIZE, rounded to the granularity */

    int ordinal;               /* CUDA device index, -1 before start */
    CUdevice dev;
    CUcontext ctx;
    CUstream copy;             /* host-initiated copies */
    int queued;                /* copies of _nbi calls not yet waited for */
    unsigned long long ll_epoch; /* small collectives enqueued on streams so far */
    CUmodule module;
    int sms;

    char *win;                 /* device window: slot of PE 0 */
    size_t stride;
    char *base;                /* this PE's slot */
    size_t gran;
    size_t backed;             /* bytes of this PE's heap backed by chunks */
    symm_alloc_t alloc;
    symm_gpu_chunk_t *chunks;
    size_t nchunks;
    size_t chunks_cap;

    symm_dev_state_t state;
    symm_dev_err_t *err;       /* host view of the device error record */

#define SYMM_GPU_KERNEL_FIELD(k) CUfunction k_##k;
    SYMM_GPU_KERNELS(SYMM_GPU_KERNEL_FIELD)
#undef SYMM_GPU_KERNEL_FIELD
    CUfunction k_reduce[SYMM_GPU_NKINDS][SYMM_OP_COUNT];
} symm_gpu_t;

extern symm_gpu_t symm_gpu_g;

/* Starts the GPU part if it has not started (collective); fatal when it cannot. */
void symm_gpu_start(const char *call);
/* Fatal unless the GPU part has started; binds the device to the calling thread. */
void symm_gpu_need(const char *call);
/* Makes the device's primary context current on the calling thread, which may be any thread
 * of the PE (one thread-local read when it already is). Every host entry into the GPU part
 * that reaches the driver after the start calls it. */
void symm_gpu_bind(const char *call);
/* Ends the job over a failed driver call: names call and what failed, and, when a kernel of
 * this PE failed a device check or faulted, what the kernel reported. */
void symm_gpu_cu_fail(const char *call, const char *what, CUresult r) __attribute__((noreturn));

#define SYMM_CU_CHECK(call, expr)                                                                \
    do {                                                                                        \
        CUresult r_ = (expr);                                                                   \
        if (SYMM_UNLIKELY(r_ != CUDA_SUCCESS))                                                  \
            symm_gpu_cu_fail(call, #expr, r_);                                                  \
    } while (0)

/* This PE's address for [addr, addr + n) when it lies in the backed device heap, else NULL. */
SYMM_INLINE char *symm_gpu_local(const void *addr, size_t n)
{
    uintptr_t off = (uintptr_t)addr - (uintptr_t)symm_gpu_g.base;

    if (symm_gpu_g.started && off < symm_gpu_g.backed && n <= symm_gpu_g.backed - off)
        return (char *)addr;
    return NULL;
}

SYMM_INLINE char *symm_gpu_xlate(const void *addr, int pe)
{
    return (char *)addr + ((ptrdiff_t)pe - symm_g.my_pe) * (ptrdiff_t)symm_gpu_g.stride;
}

#endif
