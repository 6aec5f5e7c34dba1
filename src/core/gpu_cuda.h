/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * What the GPU part's files above core, built with CUDA only, ask of core/gpu.c: the two halves
 * of the part's start and of its end, between which the device heap (coll/devheap.c) sets up
 * and releases its window, the check that the part has started, the device team table that the
 * heap's internal part holds, and the device state that modules loaded through the driver copy
 * (api/module.c). Brings in the CUDA transport's header (tl/cuda/cuda.h), which holds the
 * device, the device window and the library's kernels.
 */
#ifndef SYMM_CORE_GPU_CUDA_H
#define SYMM_CORE_GPU_CUDA_H

#include "core/gpu.h"
#include "core/core.h"
#include "tl/cuda/cuda.h"

/* The start's first half: the settings, this PE's device, its primary context (current on the
 * calling thread) and the copy stream. Returns 1 when the part has started already (the device
 * bound to the calling thread then); else 0, *ngpus the number of GPUs this PE sees. Fatal
 * when the PE cannot have its GPU. */
int symm_gpu_open(const char *call, int *ngpus);
/* The start's second half, once the device window is reserved and this PE's internal part is
 * backed and mapped at every PE: the error record, the library's kernels, the proxy to PEs of
 * other nodes, and the device state in the library's kernels and every module. The part has
 * started then. Collective. */
void symm_gpu_ready(const char *call);
/* The end's first half: 0 when the part has not started or the CUDA driver is gone (nothing
 * to end); else 1, every kernel and copy of this PE complete and the proxy stopped. Collective. */
int symm_gpu_stop(const char *call);
/* The end's second half, once the device heap is released: the library's kernels, the copy
 * stream, the error record and the context. */
void symm_gpu_close(const char *call);
/* Fatal unless the GPU part has started; binds the device to the calling thread. */
void symm_gpu_need(const char *call);
/* Writes the table of the teams this PE belongs to (core/gpu.h's symm_gpu_team_add) into the
 * internal part of this PE's device heap, at its start, once the part is zeroed. */
void symm_gpu_team_upload(const char *call);
/* The device state that the library's kernels and every module hold a copy of; set once the
 * part has started and unchanged after. */
const symm_dev_state_t *symm_gpu_state(void);

#endif
