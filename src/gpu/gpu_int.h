/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The GPU part's state, shared by its files: its settings, the chunks backing this PE's device
 * heap and its allocator, and the device state it publishes; the device, the device window and
 * the library's kernels are the CUDA transport's (tl/cuda/cuda.h).
 */
#ifndef SYMM_GPU_INT_H
#define SYMM_GPU_INT_H

#include <cuda.h>

#include "coll/coll.h"
#include "core/state.h"
#include "gpu/gpu.h"
#include "symm/impl/state.h"
#include "tl/cuda/cuda.h"
#include <shmemx_gpu.h>

/* One piece of this PE's device heap: [off, off + len), backed by one cuMemCreate handle and
 * mapped at that offset of every PE's slot in every process of the node. */
typedef struct symm_gpu_chunk {
    size_t off;
    size_t len;
    CUmemGenericAllocationHandle handle;
} symm_gpu_chunk_t;

/* Reductions: kernel symm_k_reduce_KIND_OP, for the kinds of the type table (SYMM_GPU_KINDS):
 * SYMM_GPU_KIND_i8, ... SYMM_GPU_NKINDS. */
#define SYMM_GPU_KIND_ID(A, KIND, T, BIT) SYMM_GPU_KIND_##KIND,
enum { SYMM_GPU_KINDS(SYMM_GPU_KIND_ID, _) SYMM_GPU_NKINDS };

typedef struct symm_gpu {
    int mode;                  /* SYMM_GPU: -1 auto, 0 off, 1 at init */
    const char *device_list;   /* SYMM_GPU_DEVICE, or NULL */
    size_t heap_size;          /* SYMM_DEVICE_HEAP_SIZE, rounded to the granularity */

    unsigned long long ll_epoch; /* small collectives enqueued on streams so far */
    size_t gran;
    symm_alloc_t alloc;
    symm_gpu_chunk_t *chunks;
    size_t nchunks;
    size_t chunks_cap;

    symm_dev_state_t state;
    CUfunction k_reduce[SYMM_GPU_NKINDS][SYMM_OP_COUNT];
} symm_gpu_t;

extern symm_gpu_t symm_gpu_g;

/* Starts the GPU part if it has not started (collective); fatal when it cannot. */
void symm_gpu_start(const char *call);
/* Fatal unless the GPU part has started; binds the device to the calling thread. */
void symm_gpu_need(const char *call);

#endif
