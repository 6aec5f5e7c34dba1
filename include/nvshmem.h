/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * NVSHMEM source compatibility: a program written for NVSHMEM builds against symm with its
 * includes unchanged (<nvshmem.h>, <nvshmemx.h>) and runs under symmrun.
 *
 * Names. Every routine and type of symm's OpenSHMEM API, on the host and in kernels, answers
 * to its NVSHMEM name as well: nvshmem_NAME is shmem_NAME and nvshmemx_NAME is shmemx_NAME
 * (nvshmem_int_p, nvshmemx_putmem_block, nvshmemx_float_sum_reduce_on_stream,
 * nvshmem_team_t, ...). The list, symm/nvshmem_names.h, is generated from symm's own headers
 * (cmake/nvshmem_names.cmake), and a test checks that it follows them. A .cu file gets the
 * device API (symm/device.cuh) with it; a host-only file gets shmem.h, shmemx.h and
 * shmemx_gpu.h.
 *
 * Where NVSHMEM means something else than OpenSHMEM, this header maps it:
 *  - nvshmem_malloc, _calloc, _align and _free allocate on the device heap (symmetric GPU
 *    memory): shmemx_malloc_device and its family.
 *  - NVSHMEM_TEAM_WORLD, NVSHMEM_TEAM_SHARED, NVSHMEM_TEAM_INVALID, and NVSHMEMX_TEAM_NODE,
 *    the PEs of this node (SHMEM_TEAM_SHARED: in symm the PEs that share memory are those of
 *    a node). NVSHMEM_CMP_*, NVSHMEM_SIGNAL_SET and _ADD, NVSHMEM_THREAD_*.
 *  - nvshmem_barrier(team): a barrier on a team (quiet, then sync), on the host and in
 *    kernels; OpenSHMEM's shmem_barrier is the active-set form.
 *  - nvshmemx_signal_op(sig_addr, signal, sig_op, pe), host and device.
 *  - nvshmemx_collective_launch(func, grid, block, args, shared_mem, stream).
 *  - nvshmemx_init_attr(flags, attr): with a unique id (nvshmemx_get_uniqueid,
 *    nvshmemx_set_attr_uniqueid_args) the processes of any launcher form the job; with an MPI
 *    communicator (attr.mpi_comm = &comm) its ranks are the PEs; each PE on its node rank's
 *    GPU, as NVSHMEM programs that call cudaSetDevice(nvshmem_team_my_pe(NVSHMEMX_TEAM_NODE))
 *    or pick the GPU by OMPI_COMM_WORLD_LOCAL_RANK expect.
 *
 * Host collectives on device memory (nvshmem_int_sum_reduce, _broadcast, _fcollect, _alltoall
 * from the host) run on the GPU and are complete on return, as in NVSHMEM (docs/gpu.md).
 *
 * Not (yet) there: collectives at thread and warp scope in kernels (block scope is there),
 * multicast (nvshmemx_mc_ptr), half and bfloat16 types, host buffer registration (a compile
 * error where a program names them).
 */
#ifndef SYMM_NVSHMEM_H
#define SYMM_NVSHMEM_H

#include <stdint.h>

#ifdef __CUDACC__
#include <symm/device.cuh>
#else
#include "shmem.h"
#include "shmemx_gpu.h"
#endif
#include "shmemx.h"
#include <symm/nvshmem_names.h>

#ifdef __CUDACC__
#define SYMM_NV_FN static __host__ __device__ inline
#else
#define SYMM_NV_FN static inline
#endif

/* ---- Constants ------------------------------------------------------------------------------ */
#define NVSHMEM_TEAM_WORLD SHMEM_TEAM_WORLD
#define NVSHMEM_TEAM_SHARED SHMEM_TEAM_SHARED
#define NVSHMEMX_TEAM_NODE SHMEM_TEAM_SHARED
#define NVSHMEM_TEAM_INVALID SHMEM_TEAM_INVALID

#define NVSHMEM_CMP_EQ SHMEM_CMP_EQ
#define NVSHMEM_CMP_NE SHMEM_CMP_NE
#define NVSHMEM_CMP_GT SHMEM_CMP_GT
#define NVSHMEM_CMP_GE SHMEM_CMP_GE
#define NVSHMEM_CMP_LT SHMEM_CMP_LT
#define NVSHMEM_CMP_LE SHMEM_CMP_LE

#define NVSHMEM_SIGNAL_SET SHMEM_SIGNAL_SET
#define NVSHMEM_SIGNAL_ADD SHMEM_SIGNAL_ADD

#define NVSHMEM_THREAD_SINGLE SHMEM_THREAD_SINGLE
#define NVSHMEM_THREAD_FUNNELED SHMEM_THREAD_FUNNELED
#define NVSHMEM_THREAD_SERIALIZED SHMEM_THREAD_SERIALIZED
#define NVSHMEM_THREAD_MULTIPLE SHMEM_THREAD_MULTIPLE

#define NVSHMEMX_SUCCESS 0

/* ---- The symmetric heap of NVSHMEM is in GPU memory ---------------------------------------- */
#define nvshmem_malloc shmemx_malloc_device
#define nvshmem_calloc shmemx_calloc_device
#define nvshmem_align shmemx_align_device
#define nvshmem_free shmemx_free_device

/* ---- Start ---------------------------------------------------------------------------------- */
/* nvshmemx_init_attr, nvshmemx_get_uniqueid, nvshmemx_set_attr_uniqueid_args and their types
 * are shmemx_'s (shmemx.h), with NVSHMEM's layouts: a unique id joins processes of any
 * launcher (torchrun, mp.spawn), an MPI communicator (MPI_COMM_WORLD or a part of it) makes
 * its ranks the PEs. */
#define NVSHMEMX_INIT_THREAD_PES SHMEMX_INIT_THREAD_PES
#define NVSHMEMX_INIT_WITH_MPI_COMM SHMEMX_INIT_WITH_MPI_COMM
#define NVSHMEMX_INIT_WITH_SHMEM SHMEMX_INIT_WITH_SHMEM
#define NVSHMEMX_INIT_WITH_UNIQUEID SHMEMX_INIT_WITH_UNIQUEID
#define NVSHMEMX_UNIQUEID_INITIALIZER SHMEMX_UNIQUEID_INITIALIZER
#define NVSHMEMX_UNIQUEID_ARGS_INITIALIZER SHMEMX_UNIQUEID_ARGS_INITIALIZER
#define NVSHMEMX_INIT_ATTR_INITIALIZER SHMEMX_INIT_ATTR_INITIALIZER

/* ---- Team barrier and signal operation ------------------------------------------------------ */
SYMM_NV_FN int symm_nv_barrier(shmem_team_t team)
{
#ifdef __CUDA_ARCH__
    shmemx_barrier(team);
    return 0;
#else
    shmem_quiet();
    return shmem_team_sync(team);
#endif
}
#define nvshmem_barrier symm_nv_barrier

SYMM_NV_FN void symm_nv_signal_op(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
    if (sig_op == SHMEM_SIGNAL_SET)
        shmem_signal_set(sig_addr, signal, pe);
    else
        shmem_signal_add(sig_addr, signal, pe);
}
#define nvshmemx_signal_op symm_nv_signal_op

#if defined(__CUDACC__) && defined(__cplusplus)
#define nvshmemx_collective_launch shmemx_collective_launch
#endif

#endif
