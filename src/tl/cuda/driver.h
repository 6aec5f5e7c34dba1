/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The CUDA driver, loaded at run time: libsymm links no CUDA library, so it loads and runs
 * where no driver exists (a CPU-only job never touches this). symm_cu holds one pointer per
 * driver function the GPU part calls, found with cuGetProcAddress for the CUDA 12.0 ABI, so
 * any driver from 12.0 on serves. Types come from cuda.h at build time only.
 */
#ifndef SYMM_TL_CUDA_DRIVER_H
#define SYMM_TL_CUDA_DRIVER_H

#include <cuda.h>

#include "base/status.h"

/* Every driver function used. A name that cuda.h maps to a versioned symbol (cuMemGetInfo ->
 * cuMemGetInfo_v2) is looked up by its plain name, which is what cuGetProcAddress expects. */
#define SYMM_CU_FUNCTIONS(X)                                                                     \
    X(cuInit)                                                                                   \
    X(cuGetErrorName)                                                                           \
    X(cuGetErrorString)                                                                         \
    X(cuDeviceGetCount)                                                                         \
    X(cuDeviceGet)                                                                              \
    X(cuDeviceGetAttribute)                                                                     \
    X(cuDeviceGetName)                                                                          \
    X(cuDevicePrimaryCtxRetain)                                                                 \
    X(cuDevicePrimaryCtxRelease)                                                                \
    X(cuCtxGetCurrent)                                                                          \
    X(cuCtxGetDevice)                                                                           \
    X(cuCtxSetCurrent)                                                                          \
    X(cuCtxSynchronize)                                                                         \
    X(cuMemGetAllocationGranularity)                                                            \
    X(cuMemCreate)                                                                              \
    X(cuMemRelease)                                                                             \
    X(cuMemMap)                                                                                 \
    X(cuMemUnmap)                                                                               \
    X(cuMemSetAccess)                                                                           \
    X(cuMemAddressReserve)                                                                      \
    X(cuMemAddressFree)                                                                         \
    X(cuMemExportToShareableHandle)                                                             \
    X(cuMemImportFromShareableHandle)                                                           \
    X(cuMemGetInfo)                                                                             \
    X(cuMemGetAddressRange)                                                                     \
    X(cuMemRetainAllocationHandle)                                                              \
    X(cuMemGetAllocationPropertiesFromHandle)                                                   \
    X(cuMemcpyAsync)                                                                            \
    X(cuMemcpyHtoD)                                                                             \
    X(cuMemsetD8Async)                                                                          \
    X(cuMemHostAlloc)                                                                           \
    X(cuMemHostGetDevicePointer)                                                                \
    X(cuMemFreeHost)                                                                            \
    X(cuMemAlloc)                                                                               \
    X(cuMemFree)                                                                                \
    X(cuStreamCreate)                                                                           \
    X(cuStreamDestroy)                                                                          \
    X(cuStreamSynchronize)                                                                      \
    X(cuStreamQuery)                                                                            \
    X(cuModuleLoadData)                                                                         \
    X(cuModuleUnload)                                                                           \
    X(cuModuleGetFunction)                                                                      \
    X(cuModuleGetGlobal)                                                                        \
    X(cuLibraryGetGlobal)                                                                       \
    X(cuMemHostRegister)                                                                        \
    X(cuMemHostUnregister)                                                                      \
    X(cuPointerGetAttributes)                                                                   \
    X(cuLaunchKernel)

/* Functions a driver may lack (cuFuncLoad and the module's function list came with CUDA
 * 12.4, cuFuncGetName with 12.3), NULL where it has none. */
#define SYMM_CU_OPTIONAL(X)                                                                      \
    X(cuModuleGetLoadingMode)                                                                   \
    X(cuModuleGetFunctionCount)                                                                 \
    X(cuModuleEnumerateFunctions)                                                               \
    X(cuFuncGetName)                                                                            \
    X(cuFuncLoad)

typedef struct symm_cu {
#define SYMM_CU_FIELD(f) __typeof__(&f) f;
    SYMM_CU_FUNCTIONS(SYMM_CU_FIELD)
    SYMM_CU_OPTIONAL(SYMM_CU_FIELD)
#undef SYMM_CU_FIELD
} symm_cu_t;

extern symm_cu_t symm_cu;

/* Loads libcuda.so.1 and every function above; on failure *why says what is missing. */
symm_status_t symm_cu_load(char *why, size_t why_len);

/* "NAME (description)" of a driver result, for messages. */
const char *symm_cu_str(CUresult r, char *buf, size_t len);

#endif
