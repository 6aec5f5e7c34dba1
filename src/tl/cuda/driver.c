/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Loading the CUDA driver: dlopen("libcuda.so.1") once, then cuGetProcAddress for every
 * function of SYMM_CU_FUNCTIONS. Nothing here runs unless the GPU part starts.
 */
#include <dlfcn.h>
#include <stdio.h>

#include "tl/cuda/driver.h"

symm_cu_t symm_cu;

/* The ABI the function pointers are asked for: what cuda.h's prototypes of these functions
 * describe, for every driver from CUDA 12.0 on. */
#define SYMM_CU_ABI 12000
/* The ABI of SYMM_CU_OPTIONAL's functions, which came with CUDA 12.4. */
#define SYMM_CU_ABI_LATER 12040

typedef CUresult (*get_proc_t)(const char *, void **, int, cuuint64_t,
                               CUdriverProcAddressQueryResult *);

symm_status_t symm_cu_load(char *why, size_t why_len)
{
    static int loaded;
    void *lib;
    get_proc_t get_proc;
    CUdriverProcAddressQueryResult found;

    if (loaded)
        return SYMM_OK;
    lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(why, why_len, "cannot load the CUDA driver (libcuda.so.1): %s", dlerror());
        return SYMM_ERR_UNSUPPORTED;
    }
    get_proc = (get_proc_t)dlsym(lib, "cuGetProcAddress_v2");
    if (!get_proc) {
        snprintf(why, why_len, "the CUDA driver is older than CUDA 12 (no cuGetProcAddress_v2)");
        return SYMM_ERR_UNSUPPORTED;
    }
#define SYMM_CU_GET(f)                                                                           \
    if (get_proc(#f, (void **)&symm_cu.f, SYMM_CU_ABI, CU_GET_PROC_ADDRESS_DEFAULT, &found) !=  \
            CUDA_SUCCESS ||                                                                     \
        symm_cu.f == NULL) {                                                                    \
        snprintf(why, why_len, "the CUDA driver has no %s", #f);                                \
        return SYMM_ERR_UNSUPPORTED;                                                            \
    }
    SYMM_CU_FUNCTIONS(SYMM_CU_GET)
#undef SYMM_CU_GET
#define SYMM_CU_GET_OPTIONAL(f)                                                                  \
    if (get_proc(#f, (void **)&symm_cu.f, SYMM_CU_ABI_LATER, CU_GET_PROC_ADDRESS_DEFAULT,       \
                 &found) != CUDA_SUCCESS)                                                       \
        symm_cu.f = NULL;
    SYMM_CU_OPTIONAL(SYMM_CU_GET_OPTIONAL)
#undef SYMM_CU_GET_OPTIONAL
    loaded = 1;
    return SYMM_OK;
}

const char *symm_cu_str(CUresult r, char *buf, size_t len)
{
    const char *name = NULL, *text = NULL;

    if (symm_cu.cuGetErrorName)
        symm_cu.cuGetErrorName(r, &name);
    if (symm_cu.cuGetErrorString)
        symm_cu.cuGetErrorString(r, &text);
    if (name && text)
        snprintf(buf, len, "%s (%s)", name, text);
    else
        snprintf(buf, len, "CUDA error %d", (int)r);
    return buf;
}
