/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/* NVSHMEM's extension header: with symm, everything is in nvshmem.h, but for the tile
 * collectives (symm/tile.cuh), which are C++17 device code. */
#ifndef SYMM_NVSHMEMX_H
#define SYMM_NVSHMEMX_H

#include "nvshmem.h"
#if defined(__CUDACC__) && defined(__cplusplus) && __cplusplus >= 201703L
#include "symm/tile.cuh"
#endif

#endif
