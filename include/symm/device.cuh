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
 * exist at every scope: thread (the host names), warp and block. NVSHMEM's half and bfloat16
 * (SYMM_TYPE_TABLE_NV, CUDA's types) have the warp and block forms too. long double has no
 * device forms; neither have the ctx forms.
 *
 * Where each family may be called and what completes it:
 *  - put, get, p, g, iput, iget, putmem, ... (thread, _warp, _block; no iputmem): blocking
 *    put returns when the source may be reused, get when the data is in dest; _nbi forms
 *    complete at shmem_quiet. Puts are delivered (visible to the target) at shmem_quiet or
 *    shmem_fence (ordering), or by a following signal or barrier, which include that ordering.
 *  - put_signal (thread, _warp, _block): data first, then the signal update (SHMEM_SIGNAL_SET
 *    or SHMEM_SIGNAL_ADD) with release order: a PE that sees the signal sees the data.
 *    signal_wait_until and wait_until/test (thread): acquire order on success.
 *  - atomics (thread): relaxed, atomic with respect to every atomic of any PE on the object.
 *  - shmem_fence, shmem_quiet (thread): order / complete the calling thread's puts and atomics.
 *  - shmem_barrier_all, shmem_sync_all (thread, _warp, _block), and on a team
 *    shmemx_barrier(team), shmem_team_sync(team), shmem_sync(team) (thread),
 *    shmemx_barrier_warp/_block/_warpgroup(team), shmemx_team_sync_warp/_block(team): one
 *    thread, warp, warpgroup (four warps, 128 threads) or block per member; a barrier also
 *    completes the group's puts; the team forms return 0. A kernel whose blocks wait on each
 *    other or on other PEs needs all blocks resident: start it with shmemx_collective_launch.
 *  - collectives: shmem_alltoallmem, _fcollectmem, _broadcastmem, the typed
 *    shmem_TYPE_alltoall, _fcollect, _broadcast and shmem_TYPE_OP_reduce (thread), and the
 *    same names with _warp and _block (shmemx_alltoallmem_warp, shmemx_TYPE_OP_reduce_block,
 *    ...; OP: sum, prod, min, max, and, or, xor as the type table allows);
 *    reduce-scatter, shmemx_TYPE_OP_reducescatter (thread; shmemx.h's name, NVSHMEM's
 *    nvshmem_TYPE_OP_reducescatter), _warp and _block (dest of team PE i: part i, nreduce
 *    elements, of the reduction of every PE's source of n_pes * nreduce elements); and
 *    shmemx_double2_maxloc_reduce_block (x the value, y its location; of equal values the
 *    smallest location). One thread, warp or block per member, every member in the same order
 *    whatever the scope; on any team (PE_root is a team index). They return 0.
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
#include "../shmemx.h"

/* half and __nv_bfloat16, NVSHMEM's 16-bit rows (SYMM_TYPE_TABLE_NV): CUDA's types. The test
 * is for the header scans that preprocess this file without CUDA's include path. */
#if defined(__has_include)
#if __has_include(<cuda_fp16.h>)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif
#endif

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
 * put32 or putmem (GET likewise); and, except for mem, the strided forms shmemx_int_iput_warp,
 * shmemx_iget64_block, ... */
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
        symm_dev_get<S, true>("shmemx_" #GET "_nbi_" #WHO, dest, source, nelems * (SIZE), pe);  \
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
/* The strided forms: shmemx_TYPE_iput_warp, _block, shmemx_iput64_warp, ... (no mem form). */
#define SYMM_DEVX_STRIDED(IPUT, IGET, DT, ST, SIZE, WHO, S)                                      \
    SYMM_DEVX void shmemx_##IPUT##_##WHO(DT *dest, const ST *source, ptrdiff_t dst,             \
                                         ptrdiff_t sst, size_t nelems, int pe)                  \
    {                                                                                           \
        symm_dev_iput<S>("shmemx_" #IPUT "_" #WHO, dest, source, dst, sst, nelems, SIZE, pe);   \
    }                                                                                           \
    SYMM_DEVX void shmemx_##IGET##_##WHO(DT *dest, const ST *source, ptrdiff_t dst,             \
                                         ptrdiff_t sst, size_t nelems, int pe)                  \
    {                                                                                           \
        symm_dev_iget<S>("shmemx_" #IGET "_" #WHO, dest, source, dst, sst, nelems, SIZE, pe);   \
    }
#define SYMM_DEVX_STRIDEDS(IPUT, IGET, DT, ST, SIZE)                                             \
    SYMM_DEVX_STRIDED(IPUT, IGET, DT, ST, SIZE, warp, SYMM_WARP)                                \
    SYMM_DEVX_STRIDED(IPUT, IGET, DT, ST, SIZE, block, SYMM_BLOCK)

#define SYMM_DEVX_RMA_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN,    \
                          BGEN, SCAN, TOALL, TOBIT, OLD, DEV)                                   \
    SYMM_IF_##DEV(SYMM_IF_##RMA(SYMM_DEVX_GROUPS(NAME##_put, NAME##_get, T, T, sizeof(T))       \
                                    SYMM_DEVX_STRIDEDS(NAME##_iput, NAME##_iget, T, T,          \
                                                       sizeof(T))))
SYMM_TYPE_TABLE(SYMM_DEVX_RMA_ROW, _)
SYMM_TYPE_TABLE_NV(SYMM_DEVX_RMA_ROW, _)
#define SYMM_DEVX_SIZED(BITS)                                                                    \
    SYMM_DEVX_GROUPS(put##BITS, get##BITS, void, void, BITS / 8)                                \
    SYMM_DEVX_STRIDEDS(iput##BITS, iget##BITS, void, void, BITS / 8)
SYMM_SIZES(SYMM_DEVX_SIZED)
SYMM_DEVX_GROUPS(putmem, getmem, void, void, 1)

/* ---- Collectives and reductions (warp and block scope, any team) ----------------------------
 * The mem forms move bytes; the typed forms (shmemx_TYPE_alltoall_warp, _fcollect_block,
 * _broadcast_warp, ..., as NVSHMEM's names have them) nelems elements; the reductions
 * shmemx_TYPE_OP_reduce_warp, _block and shmemx_TYPE_OP_reducescatter_warp, _block the
 * operators of the type table's columns. The thread-scope forms are the host names
 * (shmem_int_sum_reduce, shmemx_int_sum_reducescatter, ..., in impl/api.cuh). */
#define SYMM_DEVX_COLL_MEM(WHO, S)                                                               \
    SYMM_DEVX int shmemx_alltoallmem_##WHO(shmem_team_t team, void *dest, const void *source,   \
                                           size_t nelems)                                       \
    {                                                                                           \
        return symm_dev_exchange_group<S, true>("shmemx_alltoallmem_" #WHO, team, dest, source, \
                                                nelems);                                        \
    }                                                                                           \
    SYMM_DEVX int shmemx_fcollectmem_##WHO(shmem_team_t team, void *dest, const void *source,   \
                                           size_t nelems)                                       \
    {                                                                                           \
        return symm_dev_exchange_group<S, false>("shmemx_fcollectmem_" #WHO, team, dest,        \
                                                 source, nelems);                               \
    }                                                                                           \
    SYMM_DEVX int shmemx_broadcastmem_##WHO(shmem_team_t team, void *dest, const void *source,  \
                                            size_t nelems, int PE_root)                         \
    {                                                                                           \
        return symm_dev_broadcast_group<S>("shmemx_broadcastmem_" #WHO, team, dest, source,     \
                                           nelems, PE_root);                                    \
    }
SYMM_DEVX_COLL_MEM(warp, SYMM_WARP)
SYMM_DEVX_COLL_MEM(block, SYMM_BLOCK)

#define SYMM_DEVX_COLL_TYPED(NAME, T, WHO, S)                                                    \
    SYMM_DEVX int shmemx_##NAME##_alltoall_##WHO(shmem_team_t team, T *dest, const T *source,   \
                                                 size_t nelems)                                 \
    {                                                                                           \
        return symm_dev_exchange_group<S, true>("shmemx_" #NAME "_alltoall_" #WHO, team, dest,  \
                                                source, nelems * sizeof(T));                    \
    }                                                                                           \
    SYMM_DEVX int shmemx_##NAME##_fcollect_##WHO(shmem_team_t team, T *dest, const T *source,   \
                                                 size_t nelems)                                 \
    {                                                                                           \
        return symm_dev_exchange_group<S, false>("shmemx_" #NAME "_fcollect_" #WHO, team, dest, \
                                                 source, nelems * sizeof(T));                   \
    }                                                                                           \
    SYMM_DEVX int shmemx_##NAME##_broadcast_##WHO(shmem_team_t team, T *dest, const T *source,  \
                                                  size_t nelems, int PE_root)                   \
    {                                                                                           \
        return symm_dev_broadcast_group<S>("shmemx_" #NAME "_broadcast_" #WHO, team, dest,      \
                                           source, nelems * sizeof(T), PE_root);                \
    }
#define SYMM_DEVX_COLL_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN,   \
                           BGEN, SCAN, TOALL, TOBIT, OLD, DEV)                                  \
    SYMM_IF_##DEV(SYMM_IF_##RMA(SYMM_DEVX_COLL_TYPED(NAME, T, warp, SYMM_WARP)                  \
                                    SYMM_DEVX_COLL_TYPED(NAME, T, block, SYMM_BLOCK)))
SYMM_TYPE_TABLE(SYMM_DEVX_COLL_ROW, _)
SYMM_TYPE_TABLE_NV(SYMM_DEVX_COLL_ROW, _)

#define SYMM_DEVX_REDUCE_WHO(NAME, T, OP, WHO, S)                                                \
    SYMM_DEVX int shmemx_##NAME##_##OP##_reduce_##WHO(shmem_team_t team, T *dest,               \
                                                      const T *source, size_t nreduce)          \
    {                                                                                           \
        return symm_dev_reduce_group<S, SYMM_DEV_OP_##OP, T>(                                   \
            "shmemx_" #NAME "_" #OP "_reduce_" #WHO, team, dest, source, nreduce);              \
    }                                                                                           \
    SYMM_DEVX int shmemx_##NAME##_##OP##_reducescatter_##WHO(shmem_team_t team, T *dest,        \
                                                             const T *source, size_t nreduce)   \
    {                                                                                           \
        return symm_dev_reducescatter_group<S, SYMM_DEV_OP_##OP, T>(                            \
            "shmemx_" #NAME "_" #OP "_reducescatter_" #WHO, team, dest, source, nreduce);       \
    }
#define SYMM_DEVX_REDUCE(NAME, T, OP)                                                            \
    SYMM_DEVX_REDUCE_WHO(NAME, T, OP, warp, SYMM_WARP)                                          \
    SYMM_DEVX_REDUCE_WHO(NAME, T, OP, block, SYMM_BLOCK)
#define SYMM_DEVX_REDUCE_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN,\
                             BGEN, SCAN, TOALL, TOBIT, OLD, DEV)                                \
    SYMM_DEV_ROW_OPS(SYMM_DEVX_REDUCE, NAME, T, BITRED, MINMAX, SUMPROD, DEV)
SYMM_TYPE_TABLE(SYMM_DEVX_REDUCE_ROW, _)
SYMM_TYPE_TABLE_NV(SYMM_DEVX_REDUCE_ROW, _)

/* maxloc of (value, location) pairs: dest[i] is the pair of the largest x of every PE's
 * source[i]; of equal values, the one with the smallest y. */
SYMM_DEVX int shmemx_double2_maxloc_reduce_block(shmem_team_t team, double2 *dest,
                                                 const double2 *source, size_t nreduce)
{
    return symm_dev_reduce_group<SYMM_BLOCK, SYMM_DEV_OP_maxloc, double2>(
        "shmemx_double2_maxloc_reduce_block", team, dest, source, nreduce);
}

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
 * warp or block of every member. They return 0, as NVSHMEM's do. */
#define SYMM_DEVX_TEAM_BARRIERS(WHO, S, SUFFIX)                                                  \
    SYMM_DEVX int shmemx_barrier##SUFFIX(shmem_team_t team)                                     \
    {                                                                                           \
        symm_dev_team_barrier<S>(symm_dev_team("shmemx_barrier" #SUFFIX, team), true);          \
        return 0;                                                                               \
    }                                                                                           \
    SYMM_DEVX int shmemx_team_sync##SUFFIX(shmem_team_t team)                                   \
    {                                                                                           \
        symm_dev_team_barrier<S>(symm_dev_team("shmemx_team_sync" #SUFFIX, team), false);       \
        return 0;                                                                               \
    }
SYMM_DEVX_TEAM_BARRIERS(thread, SYMM_THREAD, )
SYMM_DEVX_TEAM_BARRIERS(warp, SYMM_WARP, _warp)
SYMM_DEVX_TEAM_BARRIERS(block, SYMM_BLOCK, _block)

/* The team barrier by a warpgroup: four consecutive warps of the block (its threads 128 * k to
 * 128 * k + 127; the block's size a multiple of 128), as NVSHMEM has it. The warpgroup meets
 * at its named barrier, its first warp runs the team barrier (the barrier's release covers
 * what the other warps stored before they met), and the warpgroup meets again. */
SYMM_DEVX int shmemx_barrier_warpgroup(shmem_team_t team)
{
    const unsigned tid = symm_dev_tid<SYMM_BLOCK>(), id = 1 + tid / 128;
    symm_dev_tv_t t = symm_dev_team("shmemx_barrier_warpgroup", team);

    asm volatile("bar.sync %0, 128;" ::"r"(id) : "memory");
    if (tid % 128 < 32)
        symm_dev_team_barrier<SYMM_WARP>(t, true);
    asm volatile("bar.sync %0, 128;" ::"r"(id) : "memory");
    return 0;
}

/* ---- Host names: device bodies, device pass only ------------------------------------------- */
#ifdef __CUDA_ARCH__
#pragma nv_diag_suppress 20039
#pragma nv_diag_suppress 20040
#include "symm/impl/api.cuh"
#pragma nv_diag_default 20039
#pragma nv_diag_default 20040
#endif

#endif
