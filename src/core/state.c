/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/* The process-wide state of a PE (core/state.h). */
#include "core/core.h"

symm_state_t symm_g = {.my_pe = -1, .heap_fd = -1};
