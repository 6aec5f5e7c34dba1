/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * What the other folders ask of the GPU part in core (core/gpu.c). Built without CUDA,
 * core/gpu_none.c answers: the part never starts, no address is in a device heap. Every hook
 * is cheap and does nothing until the GPU part has started, so the callers may call them
 * unconditionally. The part's start and end, with the device heap they set up, and the
 * collectives' hooks are coll/gpu_coll.h's; what the GPU part's files above core ask of core
 * besides is core/gpu_cuda.h's.
 */
#ifndef SYMM_CORE_GPU_H
#define SYMM_CORE_GPU_H

#include <stddef.h>

#include "base/status.h"
#include "tl/tl.h"

/* Whether the GPU part starts at shmem_init (SYMM_GPU=1, or the program has device code): asked
 * before the network starts, so that the part's proxy has the network's active messages, and
 * by the start itself (coll/gpu_coll.h's symm_devheap_init). */
int symm_gpu_at_init(void);
/* Copies n bytes between local memory and pe's device heap; op is a symm_rma_op_t (tl/tl.h):
 * a put copies src (local) to dest (symmetric, in the device heap), a get src (symmetric) to
 * dest (local). The _nbi kinds may return once the copy is queued (the source may be reused,
 * as the copy engine has taken a pageable source or the device copy is ordered before any
 * later copy); the copy is complete after the next symm_gpu_quiet. Returns SYMM_ERR_INVALID
 * when the symmetric side is not in the device heap. */
symm_status_t symm_gpu_rma(symm_rma_op_t op, void *dest, const void *src, size_t n, int pe);
/* Completes every copy an _nbi symm_gpu_rma queued: for shmem_quiet, shmem_ctx_quiet, shmem_fence
 * and the barriers that include a quiet. Cheap when nothing is queued. */
void symm_gpu_quiet(void);
/* Ends the job when a kernel of this PE failed (a device check or a fault); for long host
 * waits (barriers, wait_until) to call now and then, so that no PE waits for a dead GPU.
 * A few microseconds; nothing when the GPU part has not started. */
void symm_gpu_poll(const char *call);
/* The address, in this process, of addr on pe when addr lies in the device heap, else NULL
 * (for shmem_ptr and shmem_addr_accessible; pe must be in range). */
void *symm_gpu_ptr(const void *addr, int pe);
/* A team this PE belongs to was created (before the split's closing barrier) or destroyed:
 * kernels find teams in a table on the device (the world and shared teams need none). */
struct symm_team;
void symm_gpu_team_add(const struct symm_team *t);
void symm_gpu_team_remove(const struct symm_team *t);

#endif
