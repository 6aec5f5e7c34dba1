/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The device heap of a GPU PE, beside the host heap (coll/heapmap.c): its window, the chunks that
 * back it, its allocator, the buffers registered in it, its queries, and the GPU part's start
 * and end, which set it up and release it between the halves that core/gpu.c does (the device
 * and context before the window, the kernels and the device state after). The collective
 * allocation calls, which agree across PEs, are coll/devalloc.c's; the table of teams that the
 * heap's internal part holds is core/gpu.c's.
 *
 * The window is one cuMemAddressReserve of n_pes * stride device addresses; this PE's heap is
 * its slot, and every peer's heap is mapped into the peer's slot (the CUDA transport maps them,
 * tl/cuda/cuda.c), so a peer address is addr + (pe - me) * stride on host and device alike.
 * The heap is backed by chunks: cuMemCreate (POSIX file descriptor handle), mapped into the own
 * slot, then shared with every PE. Allocation is deterministic (the same offsets on every PE),
 * so every PE grows its heap in the same call by the same chunk: the chunk is created before the
 * allocation's agreement barrier (a PE whose GPU is short of memory makes the call fail on
 * every PE) and shared after it. Chunks grow the heap by at least a quarter of its backed size,
 * which keeps their number logarithmic, and are not given back before finalize.
 *
 * Above the heap each slot has room (SYMM_DEVICE_REGISTER_SIZE) for buffers the program
 * allocated itself and registers as symmetric: each is mapped there, at the same offset in
 * every PE's slot, from its own allocation handle, so the program's address of the buffer and
 * the slot's address reach the same memory.
 */
#include <stdio.h>
#include <stdlib.h>

#include "coll/devheap.h"
#include "coll/gpu_coll.h"
#include <shmemx_gpu.h>

symm_devheap_t symm_devheap_g;

/* One piece of this PE's device heap: [off, off + len), backed by one cuMemCreate handle and
 * mapped at that offset of every PE's slot in every process of the node. */
typedef struct chunk {
    size_t off;
    size_t len;
    CUmemGenericAllocationHandle handle;
} chunk_t;

static chunk_t *chunks;
static size_t nchunks, chunks_cap;

/* The registered buffers: their ranges (which symm_cuda_g.reg shows) and handles. */
static symm_cuda_range_t *regs;
static CUmemGenericAllocationHandle *reg_handles;
static size_t nregs, regs_cap;

/* ---- Chunks ---------------------------------------------------------------------------------- */
static void set_access(const char *call, char *at, size_t len)
{
    CUmemAccessDesc acc = {.location = {.type = CU_MEM_LOCATION_TYPE_DEVICE,
                                        .id = symm_cuda_g.dev},
                           .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE};

    SYMM_CU_CHECK(call, symm_cu.cuMemSetAccess((CUdeviceptr)at, len, &acc, 1));
}

/* Creates [backed, top) of this PE's heap and maps it in the own slot. SYMM_ERR_NOMEM when the
 * GPU has not the memory (nothing changed then); *why says so. */
static symm_status_t grow_local(const char *call, size_t top, char *why, size_t why_len)
{
    CUmemAllocationProp prop = {.type = CU_MEM_ALLOCATION_TYPE_PINNED,
                                .requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
                                .location = {.type = CU_MEM_LOCATION_TYPE_DEVICE,
                                             .id = symm_cuda_g.dev}};
    size_t off = symm_cuda_g.backed, len = top - off;
    CUmemGenericAllocationHandle h;
    CUresult r;

    if (nchunks == chunks_cap) {
        size_t cap = chunks_cap ? 2 * chunks_cap : 16;
        chunk_t *c = realloc(chunks, cap * sizeof(*c));
        if (!c) {
            snprintf(why, why_len, "out of host memory");
            return SYMM_ERR_NOMEM;
        }
        chunks = c;
        chunks_cap = cap;
    }
    r = symm_cu.cuMemCreate(&h, len, &prop, 0);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
        size_t free_b = 0, total = 0;
        symm_cu.cuMemGetInfo(&free_b, &total);
        snprintf(why, why_len, "GPU %d has %zu MiB free, %zu MiB more were needed",
                 symm_cuda_g.ordinal, free_b >> 20, len >> 20);
        return SYMM_ERR_NOMEM;
    }
    SYMM_CU_CHECK(call, r);
    SYMM_CU_CHECK(call, symm_cu.cuMemMap((CUdeviceptr)(symm_cuda_g.base + off), len, 0, h, 0));
    set_access(call, symm_cuda_g.base + off, len);
    chunks[nchunks++] = (chunk_t){.off = off, .len = len, .handle = h};
    symm_cuda_g.backed = top;
    return SYMM_OK;
}

symm_status_t symm_devheap_grow(const char *call, size_t top, int *grew, char *why,
                                size_t why_len)
{
    size_t backed = symm_cuda_g.backed, gran = symm_devheap_g.gran, target;
    symm_status_t st;

    *grew = 0;
    if (top <= backed)
        return SYMM_OK;
    target = symm_round_up(top, gran);
    if (target < backed + backed / 4)
        target = symm_round_up(backed + backed / 4, gran);
    if (target > symm_devheap_g.size)
        target = symm_devheap_g.size;
    st = grow_local(call, target, why, why_len);
    *grew = st == SYMM_OK;
    return st;
}

void symm_devheap_shrink(const char *call)
{
    chunk_t *c = &chunks[--nchunks];

    SYMM_CU_CHECK(call, symm_cu.cuMemUnmap((CUdeviceptr)(symm_cuda_g.base + c->off), c->len));
    SYMM_CU_CHECK(call, symm_cu.cuMemRelease(c->handle));
    symm_cuda_g.backed = c->off;
}

void symm_devheap_share(const char *call)
{
    const chunk_t *c = &chunks[nchunks - 1];

    symm_cuda_share(call, c->handle, c->off, c->len);
}

void symm_devheap_check(const char *call, const char *what, const void *addr, size_t n)
{
    if (!symm_cuda_local(addr, n))
        symm_fatal("%s(%s=%p, bytes=%zu): [%p, %p) is not in the device heap (%p..%p)", call, what,
                   addr, n, addr, (const void *)((const char *)addr + n),
                   (void *)symm_cuda_g.base, (void *)(symm_cuda_g.base + symm_cuda_g.backed));
}

/* ---- Buffers registered as symmetric --------------------------------------------------------- */
void symm_devheap_register_check(const char *call, void *buf, size_t len)
{
    CUdeviceptr start = 0;
    size_t size = 0;
    CUmemGenericAllocationHandle h;
    CUmemAllocationProp prop = {0};

    if (symm_cu.cuMemGetAddressRange(&start, &size, (CUdeviceptr)buf) != CUDA_SUCCESS ||
        symm_cu.cuMemRetainAllocationHandle(&h, buf) != CUDA_SUCCESS)
        symm_fatal("%s(buf_ptr=%p, size=%zu): not memory mapped with cuMemCreate and cuMemMap "
                   "on this PE's GPU", call, buf, len);
    SYMM_CU_CHECK(call, symm_cu.cuMemGetAllocationPropertiesFromHandle(&prop, h));
    SYMM_CU_CHECK(call, symm_cu.cuMemRelease(h));
    if ((void *)start != buf)
        symm_fatal("%s(buf_ptr=%p, size=%zu): not the start of its allocation (%p)", call, buf,
                   len, (void *)start);
    if (symm_round_up(len, symm_devheap_g.gran) > size)
        symm_fatal("%s(buf_ptr=%p, size=%zu): the allocation has %zu bytes, %zu are mapped (the "
                   "size rounded up to the granularity, %zu bytes)", call, buf, len, size,
                   symm_round_up(len, symm_devheap_g.gran), symm_devheap_g.gran);
    if (prop.location.type != CU_MEM_LOCATION_TYPE_DEVICE || prop.location.id != symm_cuda_g.dev)
        symm_fatal("%s(buf_ptr=%p, size=%zu): the memory is not on this PE's GPU (%d)", call, buf,
                   len, symm_cuda_g.ordinal);
    if (!(prop.requestedHandleTypes & CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR))
        symm_fatal("%s(buf_ptr=%p, size=%zu): the allocation cannot be shared with the other "
                   "PEs: cuMemCreate was not asked for CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR",
                   call, buf, len);
}

void symm_devheap_register(const char *call, void *buf, size_t len, size_t off)
{
    CUmemGenericAllocationHandle h;

    len = symm_round_up(len, symm_devheap_g.gran);
    if (nregs == regs_cap) {
        size_t cap = regs_cap ? 2 * regs_cap : 8;
        symm_cuda_range_t *r = realloc(regs, cap * sizeof(*r));
        CUmemGenericAllocationHandle *hs = r ? realloc(reg_handles, cap * sizeof(*hs)) : NULL;
        if (r)
            regs = r;
        if (!hs)
            symm_fatal("%s: out of host memory", call);
        reg_handles = hs;
        regs_cap = cap;
    }
    SYMM_CU_CHECK(call, symm_cu.cuMemRetainAllocationHandle(&h, buf));
    SYMM_CU_CHECK(call, symm_cu.cuMemMap((CUdeviceptr)(symm_cuda_g.base + off), len, 0, h, 0));
    set_access(call, symm_cuda_g.base + off, len);
    symm_cuda_share(call, h, off, len);
    regs[nregs] = (symm_cuda_range_t){.off = off, .len = len};
    reg_handles[nregs++] = h;
    symm_cuda_g.reg = regs;
    symm_cuda_g.nreg = nregs;
}

symm_status_t symm_devheap_unregister(const char *call, size_t off)
{
    for (size_t i = 0; i < nregs; i++) {
        if (regs[i].off != off)
            continue;
        symm_cuda_unmap(call, off, regs[i].len);
        SYMM_CU_CHECK(call, symm_cu.cuMemRelease(reg_handles[i]));
        regs[i] = regs[--nregs];
        reg_handles[i] = reg_handles[nregs];
        symm_cuda_g.nreg = nregs;
        return SYMM_OK;
    }
    return SYMM_ERR_INVALID;
}

/* ---- Start and end ------------------------------------------------------------------------- */
/* Every PE must reserve the same heap and registration sizes. */
static void agree_size(const char *call)
{
    uint64_t mine[2] = {symm_devheap_g.size, symm_devheap_g.reg_size};
    uint64_t *all = malloc(sizeof(mine) * symm_g.n_pes);
    static const char *const names[2] = {"SYMM_DEVICE_HEAP_SIZE", "SYMM_DEVICE_REGISTER_SIZE"};

    if (!all || symm_g.boot->allgather(mine, sizeof(mine), all) != SYMM_OK)
        symm_fatal("%s: cannot agree on the device heap size with the other PEs", call);
    for (int pe = 0; pe < symm_g.n_pes; pe++)
        for (int i = 0; i < 2; i++)
            if (all[2 * pe + i] != mine[i])
                symm_fatal("%s: %s differs across PEs: this PE has %llu bytes, pe %d %llu", call,
                           names[i], (unsigned long long)mine[i], pe,
                           (unsigned long long)all[2 * pe + i]);
    free(all);
}

/* Reserves the window, backs the internal part (zeroed, the team table written) and maps it at
 * every PE. */
static void window_init(const char *call)
{
    CUmemAllocationProp prop = {.type = CU_MEM_ALLOCATION_TYPE_PINNED,
                                .requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
                                .location = {.type = CU_MEM_LOCATION_TYPE_DEVICE,
                                             .id = symm_cuda_g.dev}};
    symm_devheap_t *d = &symm_devheap_g;
    char why[256];
    CUdeviceptr win;

    d->size = symm_g.params.device_heap_size;
    d->reg_size = symm_g.params.device_register_size;
    SYMM_CU_CHECK(call, symm_cu.cuMemGetAllocationGranularity(&d->gran, &prop,
                                                              CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    d->size = symm_round_up(d->size < SYMM_DEV_INTERNAL_SIZE + d->gran
                                ? SYMM_DEV_INTERNAL_SIZE + d->gran
                                : d->size,
                            d->gran);
    d->reg_size = symm_round_up(d->reg_size, d->gran);
    agree_size(call);
    symm_cuda_g.stride = d->size + d->reg_size;
    SYMM_CU_CHECK(call, symm_cu.cuMemAddressReserve(&win, (size_t)symm_g.n_pes * symm_cuda_g.stride,
                                                    d->gran, 0, 0));
    symm_cuda_g.win = (char *)win;
    symm_cuda_g.base = symm_cuda_g.win + (size_t)symm_g.my_pe * symm_cuda_g.stride;
    if (symm_alloc_init(&d->alloc, SYMM_DEV_INTERNAL_SIZE, d->size - SYMM_DEV_INTERNAL_SIZE) !=
            SYMM_OK ||
        symm_alloc_init(&d->reg, d->size, d->reg_size) != SYMM_OK)
        symm_fatal("%s: out of host memory", call);

    /* The internal part: zero before any peer can see it. */
    if (grow_local(call, symm_round_up(SYMM_DEV_INTERNAL_SIZE, d->gran), why, sizeof(why)) !=
        SYMM_OK)
        symm_fatal("%s: cannot back the device heap's first %u bytes: %s", call,
                   SYMM_DEV_INTERNAL_SIZE, why);
    SYMM_CU_CHECK(call, symm_cu.cuMemsetD8Async((CUdeviceptr)symm_cuda_g.base, 0,
                                                symm_cuda_g.backed, symm_cuda_g.copy));
    SYMM_CU_CHECK(call, symm_cu.cuStreamSynchronize(symm_cuda_g.copy));
    symm_gpu_team_upload(call);
    symm_devheap_share(call);
}

/* Unmaps and releases every chunk and registered buffer, frees the window. */
static void window_fini(const char *call)
{
    while (nregs > 0)
        symm_devheap_unregister(call, regs[nregs - 1].off);
    free(regs);
    free(reg_handles);
    regs = NULL;
    reg_handles = NULL;
    regs_cap = 0;
    for (size_t i = nchunks; i-- > 0;) {
        symm_cuda_unmap(call, chunks[i].off, chunks[i].len);
        SYMM_CU_CHECK(call, symm_cu.cuMemRelease(chunks[i].handle));
    }
    SYMM_CU_CHECK(call, symm_cu.cuMemAddressFree((CUdeviceptr)symm_cuda_g.win,
                                                 (size_t)symm_g.n_pes * symm_cuda_g.stride));
    symm_alloc_fini(&symm_devheap_g.alloc);
    symm_alloc_fini(&symm_devheap_g.reg);
    free(chunks);
    chunks = NULL;
    nchunks = chunks_cap = 0;
    symm_cuda_g.backed = 0;
}

void symm_devheap_start(const char *call)
{
    int ngpus;

    if (symm_gpu_open(call, &ngpus))
        return;
    window_init(call);
    symm_gpu_ready(call);
    symm_info("%s: GPU %d of %d, device heap of %zu MiB a PE at %p", call, symm_cuda_g.ordinal,
              ngpus, symm_devheap_g.size >> 20, (void *)symm_cuda_g.win);
}

void symm_devheap_init(void)
{
    if (symm_gpu_at_init())
        symm_devheap_start("shmem_init");
}

void symm_devheap_fini(void)
{
    const char *call = "shmem_finalize";

    if (!symm_gpu_stop(call))
        return;
    window_fini(call);
    symm_gpu_close(call);
}

/* ---- Queries ------------------------------------------------------------------------------ */
SYMM_EXPORT void *shmemx_device_heap_base(int pe)
{
    symm_check_init("shmemx_device_heap_base");
    if ((unsigned)pe >= (unsigned)symm_g.n_pes)
        symm_fatal("shmemx_device_heap_base(pe=%d): pe %d is out of range (the job has %d PEs, "
                   "0..%d)", pe, pe, symm_g.n_pes, symm_g.n_pes - 1);
    return symm_cuda_g.started ? symm_cuda_g.win + (size_t)pe * symm_cuda_g.stride : NULL;
}

/* Before the start, the size the setting asks for; after it, the size rounded as the start
 * rounded it. */
SYMM_EXPORT size_t shmemx_device_heap_size(void)
{
    size_t size;

    symm_check_init("shmemx_device_heap_size");
    size = symm_devheap_g.size ? symm_devheap_g.size : symm_g.params.device_heap_size;
    return size > SYMM_DEV_INTERNAL_SIZE ? size - SYMM_DEV_INTERNAL_SIZE : 0;
}
