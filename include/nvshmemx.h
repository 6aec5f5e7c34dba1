/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/* NVSHMEM's extension header: with symm, everything is in nvshmem.h. */
#ifndef SYMM_NVSHMEMX_H
#define SYMM_NVSHMEMX_H

#include "nvshmem.h"

#endif
