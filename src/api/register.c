/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Buffers outside the symmetric heaps that the program registers (shmemx_buffer_register):
 * device memory needs nothing to be a local source or destination of the GPU's copies and
 * kernels; pageable host memory is pinned and mapped (cuMemHostRegister) so that the copy
 * engines and kernels reach it. The table holds every registration, pinned or not, so that
 * unregister undoes exactly what register did.
 */
#include <pthread.h>
#include <stdlib.h>

#include "coll/devheap.h"
#include <shmemx_gpu.h>

enum { INVALID_VALUE = 1, INTERNAL = 7 }; /* NVSHMEMX_ERROR_* of nvshmem.h */

typedef struct reg {
    char *addr;
    size_t len;
    int pinned; /* this call pinned it: unregister unpins it */
} reg_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static reg_t *regs;
static size_t nregs, cap;

/* Pins addr unless the driver already knows it (device memory, memory pinned by the program):
 * 0 not pinned here, 1 pinned, -1 refused. */
static int pin(const char *call, void *addr, size_t len)
{
    unsigned type = 0;
    CUpointer_attribute what = CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
    void *into = &type;
    CUresult r;
    char err[160];

    /* The plural form answers type 0 for memory the driver does not know, where the singular
     * one fails (an error that compute-sanitizer reports). */
    if (symm_cu.cuPointerGetAttributes(1, &what, &into, (CUdeviceptr)addr) == CUDA_SUCCESS &&
        type != 0)
        return 0;
    r = symm_cu.cuMemHostRegister(addr, len,
                                  CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP);
    if (r != CUDA_SUCCESS) {
        symm_warn("%s(addr=%p, length=%zu): the driver cannot pin the range: %s", call, addr, len,
                  symm_cu_str(r, err, sizeof(err)));
        return -1;
    }
    return 1;
}

SYMM_EXPORT int shmemx_buffer_register(void *addr, size_t length)
{
    const char *call = "shmemx_buffer_register";
    char *a = addr;
    int pinned, rc = 0;

    symm_gpu_need(call);
    if (!addr || !length) {
        symm_warn("%s(addr=%p, length=%zu): an empty range", call, addr, length);
        return INVALID_VALUE;
    }
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nregs; i++)
        if (a < regs[i].addr + regs[i].len && regs[i].addr < a + length) {
            symm_warn("%s(addr=%p, length=%zu): overlaps the registered range %p..%p", call, addr,
                      length, (void *)regs[i].addr, (void *)(regs[i].addr + regs[i].len));
            rc = INVALID_VALUE;
            goto out;
        }
    if (nregs == cap) {
        size_t n = cap ? 2 * cap : 16;
        reg_t *r = realloc(regs, n * sizeof(*r));
        if (!r)
            symm_fatal("%s(addr=%p, length=%zu): out of memory", call, addr, length);
        regs = r;
        cap = n;
    }
    symm_cuda_bind(call);
    pinned = pin(call, addr, length);
    if (pinned < 0) {
        rc = INTERNAL;
        goto out;
    }
    regs[nregs++] = (reg_t){.addr = a, .len = length, .pinned = pinned};
out:
    pthread_mutex_unlock(&lock);
    return rc;
}

static void drop(const char *call, size_t i)
{
    CUresult r;
    char err[160];

    if (regs[i].pinned && (r = symm_cu.cuMemHostUnregister(regs[i].addr)) != CUDA_SUCCESS)
        symm_warn("%s(addr=%p): the driver cannot unpin the range: %s", call,
                  (void *)regs[i].addr, symm_cu_str(r, err, sizeof(err)));
    regs[i] = regs[--nregs];
}

SYMM_EXPORT int shmemx_buffer_unregister(void *addr)
{
    const char *call = "shmemx_buffer_unregister";
    int rc = INVALID_VALUE;

    symm_gpu_need(call);
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nregs; i++)
        if (regs[i].addr == (char *)addr) {
            symm_cuda_bind(call);
            drop(call, i);
            rc = 0;
            break;
        }
    pthread_mutex_unlock(&lock);
    if (rc)
        symm_warn("%s(addr=%p): not a registered buffer", call, addr);
    return rc;
}

SYMM_EXPORT void shmemx_buffer_unregister_all(void)
{
    const char *call = "shmemx_buffer_unregister_all";

    symm_gpu_need(call);
    pthread_mutex_lock(&lock);
    if (nregs)
        symm_cuda_bind(call);
    while (nregs)
        drop(call, nregs - 1);
    pthread_mutex_unlock(&lock);
}
