/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/* The GPU hooks of a build without CUDA (core/gpu.h, coll/gpu.h): no device heap exists. */
#include "coll/gpu.h"
#include "core/gpu.h"
#include "core/state.h"

symm_status_t symm_gpu_init(void)
{
    return SYMM_OK;
}

int symm_gpu_at_init(void)
{
    return 0;
}

void symm_gpu_fini(void)
{
}

symm_status_t symm_gpu_rma(void *dest, const void *src, size_t n, int pe, int put)
{
    return SYMM_ERR_INVALID;
}

void *symm_gpu_ptr(const void *addr, int pe)
{
    return NULL;
}

symm_status_t symm_gpu_rma_nbi(void *dest, const void *src, size_t n, int pe, int put)
{
    return SYMM_ERR_INVALID;
}

void symm_gpu_quiet(void)
{
}

void *symm_gpu_malloc(const char *call, size_t size, size_t align)
{
    symm_fatal("%s(size=%zu): this symm was built without CUDA: there is no device heap", call,
               size);
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

int symm_gpu_holds(const void *addr)
{
    return 0;
}

void symm_gpu_host_coll(const char *call, int what, void *team, void *dest, const void *source,
                        size_t nbytes, int root)
{
    symm_fatal("%s: this symm was built without CUDA: there is no device heap", call);
}

void symm_gpu_host_reduce(const char *call, void *team, void *dest, const void *source,
                          size_t nreduce, int type, int op)
{
    symm_fatal("%s: this symm was built without CUDA: there is no device heap", call);
}

void symm_gpu_host_rscatter(const char *call, void *team, void *dest, const void *source,
                            size_t nreduce, int type, int op)
{
    symm_fatal("%s: this symm was built without CUDA: there is no device heap", call);
}
