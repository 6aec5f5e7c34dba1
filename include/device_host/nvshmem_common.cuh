/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/* The path by which NVSHMEM's tile programs include the device API: nvshmem.h and the tile
 * collectives (symm/tile.cuh). */
#ifndef SYMM_NVSHMEM_COMMON_CUH
#define SYMM_NVSHMEM_COMMON_CUH

#include "../nvshmem.h"
#include "../symm/tile.cuh"

#endif
