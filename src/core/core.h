/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * src/core: the runtime under the synchronisation and the collectives: the PE's state
 * (state.h), the internal part of the heaps (layout.h), the inline fast paths of the flat
 * window (fastpath.h), contexts (ctx.c), the team object (team.c), the allocator (alloc.c),
 * the data segment (dataseg.c), copies (copy.c), the routes of what the fast paths do not
 * serve (route.c), waking sleepers (wake.c), the host watch (watch.c), settings (params.c),
 * the logger and the fatal path (log.c), and the GPU part's host side: the device, its
 * kernels and proxy, and the team table on the device (gpu.c, gpu_cuda.h, or gpu_none.c
 * without CUDA). The host heap that the window maps, and the device heap, are coll's. It
 * calls down into tl and boot, which it starts and lends the fatal path and the bootstrap's
 * exchanges; it calls nothing of sync, coll or api. This header gathers the core's headers for
 * the folders above, one a concern.
 */
#ifndef SYMM_CORE_H
#define SYMM_CORE_H

#include "core/alloc.h"
#include "core/copy.h"
#include "core/ctx.h"
#include "core/dataseg.h"
#include "core/fastpath.h"
#include "core/gpu.h"
#include "core/layout.h"
#include "core/log.h"
#include "core/net.h"
#include "base/params.h"
#include "core/route.h"
#include "core/state.h"
#include "core/team.h"
#include "core/wake.h"
#include "core/watch.h"

#endif
