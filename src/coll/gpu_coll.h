/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * What the start and end, the allocation calls and the host collectives ask of the GPU part in
 * coll: the device heap's start and end (coll/devheap.c), its collective allocation
 * (coll/devalloc.c) and collectives on device-heap buffers (coll/on_stream.c). Built without
 * CUDA, coll/nocuda.c answers: nothing to start, no address is in a device heap, and what needs
 * one ends the job with a message.
 */
#ifndef SYMM_COLL_GPU_H
#define SYMM_COLL_GPU_H

#include <stddef.h>

/* At shmem_init, after the host heap and the network: starts the GPU part with its device heap
 * when the job uses GPUs from the start (core/gpu.h's symm_gpu_at_init); nothing otherwise.
 * Collective. */
void symm_devheap_init(void);
/* At shmem_finalize, before the network goes: ends the GPU part and releases its device heap;
 * nothing when the part has not started. Collective. */
void symm_devheap_fini(void);
/* A collective allocation in the device heap (shmem_malloc_with_hints with a device hint);
 * starts the GPU part if needed; fatal where the build has no GPU part. */
void *symm_gpu_malloc(const char *call, size_t size, size_t align);
/* Whether addr lies in this PE's device heap (0 when the GPU part has not started): host
 * collectives on device-heap buffers run on the GPU. */
int symm_gpu_holds(const void *addr);
/* A host collective on device-heap buffers (team `team`, a shmem_team_t): the stream form's
 * kernels on the GPU part's own stream, waited for, so the call is complete on return as any
 * host collective. SYMM_GPU_BCAST (root a team index; nbytes in all), SYMM_GPU_FCOLLECT and
 * SYMM_GPU_ALLTOALL (nbytes per PE). Reductions: elements of row `type` of the type table,
 * operator `op` (a symm_type_t and a symm_op_t of coll/coll.h). Fatal, naming call, for what
 * the GPU cannot do. */
enum { SYMM_GPU_BCAST, SYMM_GPU_FCOLLECT, SYMM_GPU_ALLTOALL };
void symm_gpu_host_coll(const char *call, int what, void *team, void *dest, const void *source,
                        size_t nbytes, int root);
void symm_gpu_host_reduce(const char *call, void *team, void *dest, const void *source,
                          size_t nreduce, int type, int op);
/* The same for reduce-scatter (coll/rscatter.c): nreduce elements in dest, a block of nreduce
 * per member in source. */
void symm_gpu_host_rscatter(const char *call, void *team, void *dest, const void *source,
                            size_t nreduce, int type, int op);

#endif
