/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/* The GPU hooks of a build without CUDA: no device heap exists. */
#include "gpu/gpu.h"

symm_status_t symm_gpu_init(void)
{
    return SYMM_OK;
}

void symm_gpu_fini(void)
{
}

symm_status_t symm_gpu_rma(void *dest, const void *src, size_t n, int pe, int put)
{
    return SYMM_ERR_INVALID;
}
