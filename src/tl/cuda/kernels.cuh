/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * What the library's kernel units (kernels_*.cu) share: the device API's bodies (symm/impl),
 * with each unit's own copy of the device state (symm_dev_c, a named constant the library
 * fills in every module). Each unit is a module of its own, so that nvcc builds them side by
 * side (cmake/gpu.cmake); the host looks a kernel up in whichever module holds it
 * (tl/cuda/cuda.c). The host has checked every argument.
 *
 * Every kernel bounds its block at 1024 threads, so that the compiler keeps to the registers
 * such a block may use (the collectives run 1024-thread blocks).
 */
#ifndef SYMM_TL_CUDA_KERNELS_CUH
#define SYMM_TL_CUDA_KERNELS_CUH

#define SYMM_DEV_LIBRARY 1

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <shmem.h>

#include "symm/impl/amo.cuh"
#include "symm/impl/coll.cuh"

#endif
