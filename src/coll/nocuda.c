/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/* The collectives' GPU hooks of a build without CUDA (coll/gpu_coll.h): no device heap exists, so no
 * address is in one, and what needs one ends the job with a message. */
#include "coll/gpu_coll.h"
#include "core/core.h"

void symm_devheap_init(void)
{
}

void symm_devheap_fini(void)
{
}

void *symm_gpu_malloc(const char *call, size_t size, size_t align)
{
    symm_fatal("%s(size=%zu): this symm was built without CUDA: there is no device heap", call,
               size);
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
