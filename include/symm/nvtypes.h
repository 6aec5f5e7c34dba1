/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * NVSHMEM's half and bfloat16 routines (nvshmem.h includes this; shmem.h never does, so the
 * OpenSHMEM side knows nothing of them). The types are CUDA's: in C++ where cuda_fp16.h and
 * cuda_bf16.h are on the include path (every .cu file), half and __nv_bfloat16 as those headers
 * define them, as NVSHMEM's nvshmem.h gives them to every includer. C has no such types (CUDA's
 * headers give C only __half_raw and __nv_bfloat16_raw), nor does a file without the CUDA
 * headers: there half and __nv_bfloat16 are 16-bit structs of the same layout (the IEEE
 * binary16 word, the upper half of a float's word), so the routines can be named and called
 * with the bits. Data moves as 16-bit words; reductions compute in float and round to nearest
 * even, on the CPU and on the GPU alike.
 */
#ifndef SYMM_NVTYPES_H
#define SYMM_NVTYPES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__cplusplus) && defined(__has_include)
#if __has_include(<cuda_fp16.h>) && __has_include(<cuda_bf16.h>)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#define SYMM_NV_CUDA_FP16 1
#endif
#endif
#ifndef SYMM_NV_CUDA_FP16
typedef struct {
    unsigned short x;
} half;
typedef struct {
    unsigned short x;
} __nv_bfloat16;
#endif

#ifndef SYMM_NV_HOST
#define SYMM_NV_HOST static inline
#endif

/* The 16-bit word of a value, and a value from its word. */
SYMM_NV_FN uint16_t symm_nv_bits(const void *value)
{
    uint16_t b;

    memcpy(&b, value, sizeof(b));
    return b;
}
SYMM_NV_FN void symm_nv_from_bits(void *value, uint16_t bits)
{
    memcpy(value, &bits, sizeof(bits));
}
#define SYMM_NV_BITS(v) symm_nv_bits(&(v))
#define SYMM_NV_FROM_BITS(r, bits) symm_nv_from_bits(&(r), (bits))

#ifdef __cplusplus
extern "C" {
#endif
#include "gen/nvshmem_nv.h"
#ifdef __cplusplus
}
#endif

#endif
