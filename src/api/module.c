/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Modules and libraries that the program loads through the driver (shmemx_cumodule_init and its
 * kin): each has its own copy of the device state, found by name, symm_dev_c, which is the name
 * of the file-static copy in a module built without -rdc (with -rdc nvcc renames statics after
 * the file), and of the library's own. Giving a module its copy starts the GPU part with its
 * device heap (coll/devheap.c) if it has not started. The state does not change after the part
 * starts (core/gpu.c), so one write is all a module needs and finalize forgets nothing.
 */
#include "coll/devheap.h"
#include <shmemx_gpu.h>

static const char state_name[] = "symm_dev_c";

static int write_state(const char *call, const void *handle, CUdeviceptr g, size_t len)
{
    if (len != sizeof(symm_dev_state_t)) {
        symm_warn("%s(%p): the module was built against another device state (%zu bytes, this "
                  "library's is %zu)", call, handle, len, sizeof(symm_dev_state_t));
        return 1; /* NVSHMEMX_ERROR_INVALID_VALUE */
    }
    SYMM_CU_CHECK(call, symm_cu.cuMemcpyHtoD(g, symm_gpu_state(), len));
    return 0;
}

static int no_state(const char *call, const void *handle)
{
    symm_warn("%s(%p): the module has no symm device state (no code of it includes "
              "symm/device.cuh or nvshmem.h, or it was built with -rdc, which renames it)",
              call, handle);
    return 1;
}

SYMM_EXPORT int shmemx_cumodule_init(struct CUmod_st *module)
{
    const char *call = "shmemx_cumodule_init";
    CUdeviceptr g;
    size_t len;

    symm_check_init(call);
    symm_devheap_start(call);
    symm_cuda_bind(call);
    if (symm_cu.cuModuleGetGlobal(&g, &len, module, state_name) != CUDA_SUCCESS)
        return no_state(call, module);
    return write_state(call, module, g, len);
}

SYMM_EXPORT int shmemx_culibrary_init(struct CUlib_st *library)
{
    const char *call = "shmemx_culibrary_init";
    CUdeviceptr g;
    size_t len;

    symm_check_init(call);
    symm_devheap_start(call);
    symm_cuda_bind(call);
    if (symm_cu.cuLibraryGetGlobal(&g, &len, library, state_name) != CUDA_SUCCESS)
        return no_state(call, library);
    return write_state(call, library, g, len);
}

SYMM_EXPORT int shmemx_cumodule_finalize(struct CUmod_st *module)
{
    (void)module;
    symm_check_init("shmemx_cumodule_finalize");
    return 0;
}

SYMM_EXPORT int shmemx_culibrary_finalize(struct CUlib_st *library)
{
    (void)library;
    symm_check_init("shmemx_culibrary_finalize");
    return 0;
}
