/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * What the core asks of the GPU part. Built without CUDA (or run where no GPU is asked for),
 * gpu_none.c answers: nothing to set up, no address is in a device heap.
 */
#ifndef SYMM_GPU_H
#define SYMM_GPU_H

#include <stddef.h>

#include "core/status.h"

/* After the host heap is up: picks this PE's GPU and sets up the device heap window when the
 * job uses GPUs; returns SYMM_OK and does nothing otherwise. Collective. */
symm_status_t symm_gpu_init(void);
/* Collective, before the host heap goes. */
void symm_gpu_fini(void);
/* Copies n bytes between local memory and pe's device heap: put copies src (local) to dest
 * (symmetric, in the device heap), get copies src (symmetric) to dest (local). Returns
 * SYMM_ERR_INVALID when the symmetric side is not in the device heap. */
symm_status_t symm_gpu_rma(void *dest, const void *src, size_t n, int pe, int put);

#endif
