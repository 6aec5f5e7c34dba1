/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * symm device API: OpenSHMEM from CUDA kernels, header-only.
 *
 * Include this header (it includes shmem.h and shmemx_gpu.h) in every .cu file whose kernels
 * call the API. Nothing else is needed: no -rdc, no device library to link. The library
 * fills this file's copy of the device state when the GPU part starts (at shmem_init when the
 * program contains a file that includes this header, SYMM_GPU=auto), so kernels may call the
 * API once shmem_init has returned.
 *
 * Names. A kernel calls the host names: shmem_int_p, shmem_putmem, shmem_barrier_all, ...
 * In the device compilation pass (__CUDA_ARCH__ defined) this header defines each of them as
 * an inline function of the same name and C linkage; the host pass sees only the library's
 * declarations, so host code in the same file still calls the library. Group forms are named
 * shmemx_NAME_warp and shmemx_NAME_block: every thread of the warp or block calls them with
 * the same arguments, and the call is over for all of them when it returns. Collectives
 * exist at block scope. long double has no device forms; neither have the ctx forms.
 *
 * Where each family may be called and what completes it:
 *  - put, get, p, g, iput, iget, putmem, ... (thread, _warp, _block): blocking put returns
 *    when the source may be reused, get when the data is in dest; _nbi forms complete at
 *    shmem_quiet. Puts are delivered (visible to the target) at shmem_quiet or shmem_fence
 *    (ordering), or by a following signal or barrier, which include that ordering.
 *  - put_signal (thread, _warp, _block): data first, then the signal update (SHMEM_SIGNAL_SET
 *    or SHMEM_SIGNAL_ADD) with release order: a PE that sees the signal sees the data.
 *    signal_wait_until and wait_until/test (thread): acquire order on success.
 *  - atomics (thread): relaxed, atomic with respect to every atomic of any PE on the object.
 *  - shmem_fence, shmem_quiet (thread): order / complete the calling thread's puts and atomics.
 *  - shmem_barrier_all, shmem_sync_all (thread, _warp, _block), and on a team
 *    shmemx_barrier(team), shmem_team_sync(team) (thread), shmemx_barrier_warp/_block(team),
 *    shmemx_team_sync_warp/_block(team): one thread, warp or block per member; a barrier also
 *    completes the group's puts. A kernel whose blocks wait on each other or on other PEs
 *    needs all blocks resident: start it with shmemx_collective_launch.
 *  - shmemx_alltoallmem_block, _fcollectmem_block, _broadcastmem_block, their typed forms
 *    shmemx_TYPE_alltoall_block, _fcollect_block, _broadcast_block, and
 *    shmemx_TYPE_OP_reduce_block (OP: sum, prod, min, max, and, or, xor as the type table
 *    allows): one block per member, every member in the same order; on any team (PE_root is
 *    a team index). They return 0.
 *  - shmem_team_my_pe, shmem_team_n_pes, shmem_team_translate_pe: as on the host.
 *  A team is usable in kernels launched after shmem_team_split_* created it and until
 *  shmem_team_destroy; a handle that is not a live team of the calling PE (destroyed,
 *  SHMEM_TEAM_INVALID) ends the kernel with a report naming the call, in every build.
 *
 * Checks: compiled with -DSYMM_DEVICE_DEBUG (or -G), every call checks its PE, its address
 * (inside the device heap) and its arguments; a failed check records what went wrong and
 * traps, and the host library reports it in the job's error format and ends the job.
 */
#ifndef SYMM_DEVICE_CUH
#define SYMM_DEVICE_CUH

#ifndef __CUDACC__
#error "symm/device.cuh is CUDA code: compile this file with nvcc"
#endif

#include "../shmem.h"
#include <shmemx_gpu.h>

#include "symm/impl/amo.cuh"
#include "symm/impl/coll.cuh"

/* The team handles are host addresses: in device code they are read from the device state. */
#ifdef __CUDA_ARCH__
#undef SHMEM_TEAM_WORLD
#undef SHMEM_TEAM_SHARED
#define SHMEM_TEAM_WORLD ((shmem_team_t)symm_dev_c.team_world)
#define SHMEM_TEAM_SHARED ((shmem_team_t)symm_dev_c.team_shared)
#endif

/* ---- This file's state: registered with the library at start-up --------------------------- */
#ifndef SYMM_DEV_LIBRARY
static const char *symm_dev_set_state(const void *state, size_t len)
{
    cudaError_t err = cudaMemcpyToSymbol(symm_dev_c, state, len);

    return err == cudaSuccess ? NULL : cudaGetErrorString(err);
}
static int symm_dev_registered __attribute__((used)) =
    shmemx_gpu_register_module(symm_dev_set_state, SYMM_DEV_ABI);
#endif

#define SYMM_DEVX static __device__ __forceinline__

/* The typed group forms, collectives and reductions below, declared one by one. */
#include "symm/gen/device_group.cuh"

/* ---- Group forms (device-only names) -------------------------------------------------------
 * For every RMA type, the sized forms and mem: shmemx_PUT_warp, _block, shmemx_GET_warp,
 * _block, the _nbi forms and shmemx_PUT_signal[_nbi]_warp, _block, where PUT is int_put,
 * put32 or putmem (GET likewise). */
#define SYMM_DEVX_GROUP(PUT, GET, DT, ST, SIZE, WHO, S)                                          \
    SYMM_DEVX void shmemx_##PUT##_##WHO(DT *dest, const ST *source, size_t nelems, int pe)      \
    {                                                                                           \
        symm_dev_put<S, false>("shmemx_" #PUT "_" #WHO, dest, source, nelems * (SIZE), pe);     \
    }                                                                                           \
    SYMM_DEVX void shmemx_##GET##_##WHO(DT *dest, const ST *source, size_t nelems, int pe)      \
    {                                                                                           \
        symm_dev_get<S>("shmemx_" #GET "_" #WHO, dest, source, nelems * (SIZE), pe);            \
    }                                                                                           \
    SYMM_DEVX void shmemx_##PUT##_nbi_##WHO(DT *dest, const ST *source, size_t nelems, int pe)  \
    {                                                                                           \
        symm_dev_put<S, true>("shmemx_" #PUT "_nbi_" #WHO, dest, source, nelems * (SIZE), pe);  \
    }                                                                                           \
    SYMM_DEVX void shmemx_##GET##_nbi_##WHO(DT *dest, const ST *source, size_t nelems, int pe)  \
    {                                                                                           \
        symm_dev_get<S>("shmemx_" #GET "_nbi_" #WHO, dest, source, nelems * (SIZE), pe);        \
    }                                                                                           \
    SYMM_DEVX void shmemx_##PUT##_signal_##WHO(DT *dest, const ST *source, size_t nelems,       \
                                               uint64_t *sig_addr, uint64_t signal, int sig_op, \
                                               int pe)                                          \
    {                                                                                           \
        symm_dev_put_signal<S, false>("shmemx_" #PUT "_signal_" #WHO, dest, source,             \
                                      nelems * (SIZE), (unsigned long long *)sig_addr, signal,  \
                                      sig_op, pe);                                              \
    }                                                                                           \
    SYMM_DEVX void shmemx_##PUT##_signal_nbi_##WHO(DT *dest, const ST *source, size_t nelems,   \
                                                   uint64_t *sig_addr, uint64_t signal,         \
                                                   int sig_op, int pe)                          \
    {                                                                                           \
        symm_dev_put_signal<S, true>("shmemx_" #PUT "_signal_nbi_" #WHO, dest, source,          \
                                     nelems * (SIZE), (unsigned long long *)sig_addr, signal,   \
                                     sig_op, pe);                                               \
    }
#define SYMM_DEVX_GROUPS(PUT, GET, DT, ST, SIZE)                                                 \
    SYMM_DEVX_GROUP(PUT, GET, DT, ST, SIZE, warp, SYMM_WARP)                                    \
    SYMM_DEVX_GROUP(PUT, GET, DT, ST, SIZE, block, SYMM_BLOCK)

#define SYMM_DEVX_RMA_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN,    \
                          BGEN, SCAN, TOALL, TOBIT, OLD, DEV)                                   \
    SYMM_IF_##DEV(SYMM_IF_##RMA(SYMM_DEVX_GROUPS(NAME##_put, NAME##_get, T, T, sizeof(T))))
SYMM_TYPE_TABLE(SYMM_DEVX_RMA_ROW, _)
#define SYMM_DEVX_SIZED(BITS) SYMM_DEVX_GROUPS(put##BITS, get##BITS, void, void, BITS / 8)
SYMM_SIZES(SYMM_DEVX_SIZED)
SYMM_DEVX_GROUPS(putmem, getmem, void, void, 1)

/* ---- Collectives and reductions (block scope, any team) -----------------------------------
 * The mem forms move bytes; the typed forms (shmemx_TYPE_alltoall_block, _fcollect_block,
 * _broadcast_block, as OpenSHMEM's team forms and NVSHMEM's names have them) nelems elements. */
template <bool ALLTOALL>
SYMM_DEV int symm_dev_exchange_block(const char *call, shmem_team_t team, void *dest,
                                     const void *source, size_t nbytes)
{
    symm_dev_cc_t c = symm_dev_cc_block(symm_dev_team(call, team));
    symm_dev_exchange<ALLTOALL>(c, dest, source, nbytes, 0, 1);
    return 0;
}

SYMM_DEV int symm_dev_broadcast_block(const char *call, shmem_team_t team, void *dest,
                                      const void *source, size_t nbytes, int PE_root)
{
    symm_dev_tv_t t = symm_dev_team(call, team);
#if SYMM_DEV_CHECKS
    if ((unsigned)PE_root >= (unsigned)t.size)
        symm_dev_fail(SYMM_DEV_ERR_PE, call, PE_root, dest, nbytes);
#endif
    symm_dev_broadcast(symm_dev_cc_block(t), dest, source, nbytes, PE_root, 0, 1);
    return 0;
}

SYMM_DEVX int shmemx_alltoallmem_block(shmem_team_t team, void *dest, const void *source,
                                       size_t nelems)
{
    return symm_dev_exchange_block<true>("shmemx_alltoallmem_block", team, dest, source, nelems);
}

SYMM_DEVX int shmemx_fcollectmem_block(shmem_team_t team, void *dest, const void *source,
                                       size_t nelems)
{
    return symm_dev_exchange_block<false>("shmemx_fcollectmem_block", team, dest, source,
                                          nelems);
}

SYMM_DEVX int shmemx_broadcastmem_block(shmem_team_t team, void *dest, const void *source,
                                        size_t nelems, int PE_root)
{
    return symm_dev_broadcast_block("shmemx_broadcastmem_block", team, dest, source, nelems,
                                    PE_root);
}

#define SYMM_DEVX_COLL_TYPED(NAME, T)                                                            \
    SYMM_DEVX int shmemx_##NAME##_alltoall_block(shmem_team_t team, T *dest, const T *source,   \
                                                 size_t nelems)                                 \
    {                                                                                           \
        return symm_dev_exchange_block<true>("shmemx_" #NAME "_alltoall_block", team, dest,     \
                                             source, nelems * sizeof(T));                       \
    }                                                                                           \
    SYMM_DEVX int shmemx_##NAME##_fcollect_block(shmem_team_t team, T *dest, const T *source,   \
                                                 size_t nelems)                                 \
    {                                                                                           \
        return symm_dev_exchange_block<false>("shmemx_" #NAME "_fcollect_block", team, dest,    \
                                              source, nelems * sizeof(T));                      \
    }                                                                                           \
    SYMM_DEVX int shmemx_##NAME##_broadcast_block(shmem_team_t team, T *dest, const T *source,  \
                                                  size_t nelems, int PE_root)                   \
    {                                                                                           \
        return symm_dev_broadcast_block("shmemx_" #NAME "_broadcast_block", team, dest, source, \
                                        nelems * sizeof(T), PE_root);                           \
    }
#define SYMM_DEVX_COLL_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN,   \
                           BGEN, SCAN, TOALL, TOBIT, OLD, DEV)                                  \
    SYMM_IF_##DEV(SYMM_IF_##RMA(SYMM_DEVX_COLL_TYPED(NAME, T)))
SYMM_TYPE_TABLE(SYMM_DEVX_COLL_ROW, _)

#define SYMM_DEVX_REDUCE(NAME, T, OP)                                                            \
    SYMM_DEVX int shmemx_##NAME##_##OP##_reduce_block(shmem_team_t team, T *dest,               \
                                                      const T *source, size_t nreduce)          \
    {                                                                                           \
        symm_dev_cc_t c =                                                                       \
            symm_dev_cc_block(symm_dev_team("shmemx_" #NAME "_" #OP "_reduce_block", team));    \
        symm_dev_reduce<SYMM_DEV_OP_##OP, T>(c, dest, source, nreduce, 0, 1);                   \
        return 0;                                                                               \
    }
#define SYMM_DEVX_REDUCE_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN,\
                             BGEN, SCAN, TOALL, TOBIT, OLD, DEV)                                \
    SYMM_IF_##DEV(SYMM_IF_##BITRED(SYMM_OPS_BITWISE(SYMM_DEVX_REDUCE, NAME, T))                 \
                  SYMM_IF_##MINMAX(SYMM_OPS_MINMAX(SYMM_DEVX_REDUCE, NAME, T))                  \
                  SYMM_IF_##SUMPROD(SYMM_OPS_SUMPROD(SYMM_DEVX_REDUCE, NAME, T)))
SYMM_TYPE_TABLE(SYMM_DEVX_REDUCE_ROW, _)

/* ---- Barriers (warp and block; team forms) -------------------------------------------------- */
SYMM_DEVX void shmemx_barrier_all_warp(void)
{
    symm_dev_barrier<SYMM_WARP>(true);
}
SYMM_DEVX void shmemx_barrier_all_block(void)
{
    symm_dev_barrier<SYMM_BLOCK>(true);
}
SYMM_DEVX void shmemx_sync_all_warp(void)
{
    symm_dev_barrier<SYMM_WARP>(false);
}
SYMM_DEVX void shmemx_sync_all_block(void)
{
    symm_dev_barrier<SYMM_BLOCK>(false);
}

/* Team barrier (completes the group's puts, as barrier_all does) and team sync, by one thread,
 * warp or block of every member. */
#define SYMM_DEVX_TEAM_BARRIERS(WHO, S, SUFFIX)                                                  \
    SYMM_DEVX void shmemx_barrier##SUFFIX(shmem_team_t team)                                    \
    {                                                                                           \
        symm_dev_team_barrier<S>(symm_dev_team("shmemx_barrier" #SUFFIX, team), true);          \
    }                                                                                           \
    SYMM_DEVX int shmemx_team_sync##SUFFIX(shmem_team_t team)                                   \
    {                                                                                           \
        symm_dev_team_barrier<S>(symm_dev_team("shmemx_team_sync" #SUFFIX, team), false);       \
        return 0;                                                                               \
    }
SYMM_DEVX_TEAM_BARRIERS(thread, SYMM_THREAD, )
SYMM_DEVX_TEAM_BARRIERS(warp, SYMM_WARP, _warp)
SYMM_DEVX_TEAM_BARRIERS(block, SYMM_BLOCK, _block)

/* ---- Host names: device bodies, device pass only ------------------------------------------- */
#ifdef __CUDA_ARCH__
#pragma nv_diag_suppress 20039
#pragma nv_diag_suppress 20040
#include "symm/impl/api.cuh"
#pragma nv_diag_default 20039
#pragma nv_diag_default 20040
#endif

#endif
