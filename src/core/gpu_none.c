/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/* The core GPU hooks of a build without CUDA (core/gpu.h): the GPU part never starts, no device
 * heap exists. The device heap's and the collectives' hooks are coll/nocuda.c's. */
#include "core/gpu.h"
#include "core/core.h"

int symm_gpu_at_init(void)
{
    return 0;
}

symm_status_t symm_gpu_rma(symm_rma_op_t op, void *dest, const void *src, size_t n, int pe)
{
    return SYMM_ERR_INVALID;
}

void *symm_gpu_ptr(const void *addr, int pe)
{
    return NULL;
}

void symm_gpu_quiet(void)
{
}

void symm_gpu_poll(const char *call)
{
}

void symm_gpu_team_add(const struct symm_team *t)
{
}

void symm_gpu_team_remove(const struct symm_team *t)
{
}
