/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The collective allocation calls on the device heap (coll/devheap.c backs it, core/alloc.c
 * places blocks). A call agrees across PEs as a host-heap call does (coll/heap.c): every PE
 * places the block and backs it before the agreement's barrier, so a PE whose GPU is short of
 * memory makes the call return NULL on every PE, and the new chunk is mapped at every PE only
 * after it.
 */
#include <stdio.h>

#include "coll/coll.h"
#include "coll/gpu_coll.h"
#include "coll/devheap.h"

static void *dev_malloc(const char *call, size_t size, size_t align)
{
    size_t off = 0;
    int64_t result;
    int grown = 0, short_pe;
    char why[256] = "";

    symm_check_init(call);
    symm_devheap_start(call);
    if (align & (align - 1))
        symm_fatal("%s(alignment=%zu, size=%zu): alignment is not a power of two", call, align,
                   size);
    if (size == 0) {
        symm_barrier_world();
        return NULL;
    }
    result = symm_alloc_get(&symm_devheap_g.alloc, size, align, &off) == SYMM_OK ? (int64_t)off
                                                                                  : -1;
    if (result < 0)
        snprintf(why, sizeof(why), "SYMM_DEVICE_HEAP_SIZE is %zu bytes, %zu in use",
                 symm_devheap_g.size, symm_devheap_g.alloc.in_use);
    if (result >= 0 && symm_devheap_grow(call, off + size, &grown, why, sizeof(why)) != SYMM_OK) {
        symm_alloc_put(&symm_devheap_g.alloc, off);
        result = -1;
    }
    short_pe = symm_heap_agree(call, size, align, result);
    if (short_pe >= 0) {
        if (grown)
            symm_devheap_shrink(call);
        if (result >= 0)
            symm_alloc_put(&symm_devheap_g.alloc, off);
        if (short_pe == symm_g.my_pe)
            symm_warn("%s(size=%zu): the device heap of pe %d cannot hold the block (%s); the "
                      "call returns NULL on every PE", call, size, short_pe, why);
        else if (symm_g.params.debug)
            symm_warn("%s(size=%zu): the device heap of pe %d cannot hold the block; the call "
                      "returns NULL on every PE", call, size, short_pe);
        return NULL;
    }
    if (grown)
        symm_devheap_share(call);
    return symm_cuda_g.base + off;
}

void *symm_gpu_malloc(const char *call, size_t size, size_t align)
{
    return dev_malloc(call, size, align);
}

SYMM_EXPORT void *shmemx_malloc_device(size_t size)
{
    return dev_malloc("shmemx_malloc_device", size, 0);
}

SYMM_EXPORT void *shmemx_align_device(size_t alignment, size_t size)
{
    if (alignment == 0)
        symm_fatal("shmemx_align_device(alignment=0, size=%zu): alignment must be a power of two",
                   size);
    return dev_malloc("shmemx_align_device", size, alignment);
}

SYMM_EXPORT void *shmemx_calloc_device(size_t count, size_t size)
{
    const char *call = "shmemx_calloc_device";
    void *p;

    if (size && count > SIZE_MAX / size)
        symm_fatal("%s(count=%zu, size=%zu): the product overflows", call, count, size);
    p = dev_malloc(call, count * size, 0);
    if (p) {
        /* Zero before any peer may write: the barrier inside malloc ran before this. */
        SYMM_CU_CHECK(call, symm_cu.cuMemsetD8Async((CUdeviceptr)p, 0, count * size,
                                                    symm_cuda_g.copy));
        SYMM_CU_CHECK(call, symm_cu.cuStreamSynchronize(symm_cuda_g.copy));
        symm_barrier_world();
    }
    return p;
}

SYMM_EXPORT void shmemx_free_device(void *ptr)
{
    const char *call = "shmemx_free_device";
    uintptr_t off = (uintptr_t)ptr - (uintptr_t)symm_cuda_g.base;

    symm_check_init(call);
    if (ptr != NULL && (!symm_cuda_g.started || off >= symm_devheap_g.size ||
                        symm_alloc_size_of(&symm_devheap_g.alloc, off) == 0))
        symm_fatal("%s(ptr=%p): not a block returned by a device heap allocation", call, ptr);
    if (symm_cuda_g.started) {
        symm_cuda_bind(call);
        SYMM_CU_CHECK(call, symm_cu.cuCtxSynchronize());
    }
    symm_barrier_world();
    if (ptr != NULL)
        symm_alloc_put(&symm_devheap_g.alloc, off);
}

/* A new block, the old contents copied by this PE's GPU, then the old block freed (its barrier
 * also keeps every PE from returning before all have copied). */
SYMM_EXPORT void *shmemx_realloc_device(void *ptr, size_t size)
{
    const char *call = "shmemx_realloc_device";
    uintptr_t off = (uintptr_t)ptr - (uintptr_t)symm_cuda_g.base;
    size_t old = 0;
    void *p;

    symm_check_init(call);
    if (ptr == NULL)
        return dev_malloc(call, size, 0);
    if (!symm_cuda_g.started || off >= symm_devheap_g.size ||
        (old = symm_alloc_size_of(&symm_devheap_g.alloc, off)) == 0)
        symm_fatal("%s(ptr=%p, size=%zu): not a block returned by a device heap allocation", call,
                   ptr, size);
    if (size == 0) {
        shmemx_free_device(ptr);
        return NULL;
    }
    p = dev_malloc(call, size, 0);
    if (p == NULL)
        return NULL;
    SYMM_CU_CHECK(call, symm_cu.cuMemcpyAsync((CUdeviceptr)p, (CUdeviceptr)ptr,
                                              old < size ? old : size, symm_cuda_g.copy));
    shmemx_free_device(ptr);
    return p;
}

/* The registered part is placed as the heap is, so the buffer's offset is the same on every
 * PE; the agreement also checks that every PE passed the same size. */
SYMM_EXPORT void *shmemx_buffer_register_symmetric(void *buf_ptr, size_t size, int flags)
{
    const char *call = "shmemx_buffer_register_symmetric";
    size_t off = 0, len;
    int64_t result;
    int short_pe;

    (void)flags; /* none is defined */
    symm_check_init(call);
    symm_devheap_start(call);
    symm_cuda_bind(call);
    if (size == 0 || buf_ptr == NULL)
        symm_fatal("%s(buf_ptr=%p, size=%zu): %s", call, buf_ptr, size,
                   size == 0 ? "the size is 0" : "the buffer is NULL");
    symm_devheap_register_check(call, buf_ptr, size);
    len = symm_round_up(size, symm_devheap_g.gran);
    result = symm_alloc_get(&symm_devheap_g.reg, len, symm_devheap_g.gran, &off) == SYMM_OK
                 ? (int64_t)off
                 : -1;
    short_pe = symm_heap_agree(call, size, 0, result);
    if (short_pe >= 0) {
        if (result >= 0)
            symm_alloc_put(&symm_devheap_g.reg, off);
        if (short_pe == symm_g.my_pe)
            symm_warn("%s(size=%zu): SYMM_DEVICE_REGISTER_SIZE is %zu bytes, %zu in use: the call "
                      "returns NULL on every PE", call, size, symm_devheap_g.reg_size,
                      symm_devheap_g.reg.in_use);
        return NULL;
    }
    symm_devheap_register(call, buf_ptr, len, off);
    symm_barrier_world();
    return symm_cuda_g.base + off;
}

SYMM_EXPORT int shmemx_buffer_unregister_symmetric(void *mmap_ptr, size_t size)
{
    const char *call = "shmemx_buffer_unregister_symmetric";
    uintptr_t off = (uintptr_t)mmap_ptr - (uintptr_t)symm_cuda_g.base;

    symm_check_init(call);
    if (!symm_cuda_g.started || symm_alloc_size_of(&symm_devheap_g.reg, off) == 0)
        symm_fatal("%s(mmap_ptr=%p, size=%zu): not an address that "
                   "shmemx_buffer_register_symmetric returned", call, mmap_ptr, size);
    symm_cuda_bind(call);
    SYMM_CU_CHECK(call, symm_cu.cuCtxSynchronize());
    symm_barrier_world();
    if (symm_devheap_unregister(call, off) != SYMM_OK)
        symm_fatal("%s(mmap_ptr=%p): not registered", call, mmap_ptr);
    symm_alloc_put(&symm_devheap_g.reg, off);
    return 0;
}
