/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * NVSHMEM source compatibility: a program written for NVSHMEM builds against symm with its
 * includes unchanged (<nvshmem.h>, <nvshmemx.h>) and runs under symmrun.
 *
 * Names. Every routine and type of symm's OpenSHMEM API, on the host and in kernels, answers
 * to its NVSHMEM name as well: nvshmem_NAME is shmem_NAME and nvshmemx_NAME is shmemx_NAME
 * (nvshmem_int_p, nvshmemx_putmem_block, nvshmemx_float_sum_reduce_on_stream, ...); those
 * with a team parameter take NVSHMEM's integer team (below). The list, symm/nvshmem_names.h,
 * is generated from symm's own headers
 * (cmake/nvshmem_names.cmake), and a test checks that it follows them. A .cu file gets the
 * device API (symm/device.cuh) with it; a host-only file gets shmem.h, shmemx.h and
 * shmemx_gpu.h.
 *
 * Where NVSHMEM means something else than OpenSHMEM, this header maps it:
 *  - nvshmem_malloc, _calloc, _align and _free allocate on the device heap (symmetric GPU
 *    memory): shmemx_malloc_device and its family.
 *  - nvshmem_team_t is an int32_t index, as NVSHMEM's: NVSHMEM_TEAM_WORLD (0),
 *    NVSHMEM_TEAM_SHARED (1), NVSHMEMX_TEAM_NODE (2, the shared team: in symm the PEs that
 *    share memory are those of a node), NVSHMEM_TEAM_INVALID (-1), split teams from
 *    NVSHMEM_TEAMS_MIN on. NVSHMEM_CMP_*, NVSHMEM_SIGNAL_SET and _ADD, NVSHMEM_THREAD_*.
 *  - nvshmem_barrier(team): a barrier on a team (quiet, then sync), on the host and in
 *    kernels; OpenSHMEM's shmem_barrier is the active-set form.
 *  - nvshmemx_signal_op(sig_addr, signal, sig_op, pe), host and device.
 *  - Prototypes are NVSHMEM's, return and parameter types, but for the deliberate differences
 *    that tests/nvshmem/differences.txt lists (tests/nvshmem/prototypes.sh checks them all).
 *  - nvshmemx_collective_launch(func, grid, block, args, shared_mem, stream).
 *  - nvshmemx_init_attr(flags, attr): with a unique id (nvshmemx_get_uniqueid,
 *    nvshmemx_set_attr_uniqueid_args) the processes of any launcher form the job; with an MPI
 *    communicator (attr.mpi_comm = &comm) its ranks are the PEs; each PE on its node rank's
 *    GPU, as NVSHMEM programs that call cudaSetDevice(nvshmem_team_my_pe(NVSHMEMX_TEAM_NODE))
 *    or pick the GPU by OMPI_COMM_WORLD_LOCAL_RANK expect.
 *  - nvshmem_TYPE_OP_reducescatter: shmemx_TYPE_OP_reducescatter (shmemx.h).
 *  - half and bfloat16 (symm/nvtypes.h): CUDA's types where cuda_fp16.h and cuda_bf16.h are
 *    on the include path of a C++ file, else 16-bit structs of the same layout.
 *
 * Host collectives on device memory (nvshmem_int_sum_reduce, _broadcast, _fcollect, _alltoall
 * from the host) run on the GPU and are complete on return, as in NVSHMEM (docs/gpu.md).
 *
 * Includes. As NVSHMEM's header does, this one brings in cuda.h and cuda_runtime.h (and the
 * device API in a .cu file) where the CUDA headers are on the include path. A host-only file
 * without them still gets every host routine; what needs a CUDA type that C cannot declare
 * without those headers (nvshmemx_collective_launch and its grid-size query, which take dim3)
 * expands to an undeclared name saying so.
 *
 * Collectives in kernels at thread, warp and block scope (nvshmem_int_fcollect by one thread,
 * nvshmemx_int64_sum_reduce_warp, nvshmemx_int_sum_reducescatter_block, ...), as symm's
 * device API has them (symm/device.cuh).
 *
 * Not there: multicast (nvshmemx_mc_ptr answers NULL, as NVSHMEM does where multicast is off).
 * Teams made from a team unique id (nvshmemx_team_init) are arithmetic progressions of PEs, as
 * every symm team is: members that are not end the job with a message naming them.
 */
#ifndef SYMM_NVSHMEM_H
#define SYMM_NVSHMEM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__has_include)
#if __has_include(<cuda.h>) && __has_include(<cuda_runtime.h>)
#include <cuda.h>
#include <cuda_runtime.h>
#endif
#endif

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
/* Teams are integers, as NVSHMEM's: the predefined ones (a zero-initialised handle is the
 * world), then the split teams. Every NVSHMEM name of a routine with a team parameter passes
 * the team as SHMEMX_TEAM_OF_INDEX(team) (symm/nvshmem_names.h); the splits return the index
 * (shmemx_team_index). NVSHMEMX_TEAM_NODE is the shared team: in symm the PEs that share
 * memory are those of a node. NVSHMEMX_TEAM_SAME_MYPE_NODE is the PEs whose place in their node
 * is this PE's, one a node (nodes of equal PE counts, as NVSHMEM asks). NVSHMEM's internal
 * teams (NVSHMEMI_) are not there: a routine given their index ends the job naming it. */
typedef int32_t nvshmem_team_t;
typedef nvshmem_team_t nvshmemx_team_t;
typedef enum {
    NVSHMEM_TEAM_INVALID = -1,
    NVSHMEM_TEAM_WORLD = 0,
    NVSHMEM_TEAM_WORLD_INDEX = 0,
    NVSHMEM_TEAM_SHARED = 1,
    NVSHMEM_TEAM_SHARED_INDEX = 1,
    NVSHMEMX_TEAM_NODE = 2,
    NVSHMEM_TEAM_NODE_INDEX = 2,
    NVSHMEMX_TEAM_SAME_MYPE_NODE = 3,
    NVSHMEM_TEAM_SAME_MYPE_NODE_INDEX = 3,
    NVSHMEMI_TEAM_SAME_GPU = 4,
    NVSHMEM_TEAM_SAME_GPU_INDEX = 4,
    NVSHMEMI_TEAM_GPU_LEADERS = 5,
    NVSHMEM_TEAM_GPU_LEADERS_INDEX = 5,
    NVSHMEM_TEAMS_MIN = 6,
    NVSHMEM_TEAM_INDEX_MAX = 0x7fffffff
} nvshmem_team_id_t;

#define NVSHMEM_CMP_EQ SHMEM_CMP_EQ
#define NVSHMEM_CMP_NE SHMEM_CMP_NE
#define NVSHMEM_CMP_GT SHMEM_CMP_GT
#define NVSHMEM_CMP_GE SHMEM_CMP_GE
#define NVSHMEM_CMP_LT SHMEM_CMP_LT
#define NVSHMEM_CMP_LE SHMEM_CMP_LE
#define NVSHMEM_CMP_SENTINEL 0x7fffffff

#define NVSHMEM_SIGNAL_SET SHMEM_SIGNAL_SET
#define NVSHMEM_SIGNAL_ADD SHMEM_SIGNAL_ADD

#define NVSHMEM_THREAD_SINGLE SHMEM_THREAD_SINGLE
#define NVSHMEM_THREAD_FUNNELED SHMEM_THREAD_FUNNELED
#define NVSHMEM_THREAD_SERIALIZED SHMEM_THREAD_SERIALIZED
#define NVSHMEM_THREAD_MULTIPLE SHMEM_THREAD_MULTIPLE
#define NVSHMEM_THREAD_TYPE_SENTINEL 0x7fffffff

/* NVSHMEM_MAJOR_VERSION and _MINOR_VERSION are the OpenSHMEM version the library implements
 * (symm: 1.5); the vendor version is the NVSHMEM release whose API symm provides, which is what
 * programs test to use a newer call. */
#define NVSHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define NVSHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define NVSHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define NVSHMEM_VENDOR_STRING SHMEM_VENDOR_STRING
#define NVSHMEM_VENDOR_MAJOR_VERSION 3
#define NVSHMEM_VENDOR_MINOR_VERSION 4
#define NVSHMEM_VENDOR_PATCH_VERSION 5
#define NVSHMEM_VENDOR_PACKAGE_VERSION 0
#define NVSHMEM_VENDOR_VERSION                                                                   \
    (NVSHMEM_VENDOR_MAJOR_VERSION * 10000 + NVSHMEM_VENDOR_MINOR_VERSION * 100 +                 \
     NVSHMEM_VENDOR_PATCH_VERSION)

/* The status codes of the calls that return one. */
enum nvshmemx_status {
    NVSHMEMX_SUCCESS = 0,
    NVSHMEMX_ERROR_INVALID_VALUE,
    NVSHMEMX_ERROR_OUT_OF_MEMORY,
    NVSHMEMX_ERROR_NOT_SUPPORTED,
    NVSHMEMX_ERROR_SYMMETRY,
    NVSHMEMX_ERROR_GPU_NOT_SELECTED,
    NVSHMEMX_ERROR_COLLECTIVE_LAUNCH_FAILED,
    NVSHMEMX_ERROR_INTERNAL,
    NVSHMEMX_ERROR_SENTINEL = 0x7fffffff
};
/* NVSHMEM's programs (its performance tests) print errors through this one. */
#define NVSHMEMI_ERROR_PRINT(...)                                                                \
    (fprintf(stderr, "%s:%s:%d: ", __FILE__, __func__, __LINE__), fprintf(stderr, __VA_ARGS__),  \
     fprintf(stderr, "\n"))

/* Comparison and signal operators are plain ints here (NVSHMEM_CMP_EQ is SHMEM_CMP_EQ). */
typedef int nvshmemx_cmp_type_t;
typedef int nvshmemx_signal_op_t;

/* What nvshmemx_init_status answers. */
typedef enum {
    NVSHMEM_STATUS_NOT_INITIALIZED = 0,
    NVSHMEM_STATUS_IS_BOOTSTRAPPED,
    NVSHMEM_STATUS_IS_INITIALIZED,
    NVSHMEM_STATUS_LIMITED_MPG,
    NVSHMEM_STATUS_FULL_MPG,
    NVSHMEM_STATUS_INVALID = 0x7fffffff
} nvshmemx_init_status_t;

/* ---- The symmetric heap of NVSHMEM is in GPU memory ---------------------------------------- */
#define nvshmem_malloc shmemx_malloc_device
#define nvshmem_calloc shmemx_calloc_device
#define nvshmem_align shmemx_align_device
#define nvshmem_free shmemx_free_device
#define nvshmem_realloc shmemx_realloc_device

/* No multicast: as NVSHMEM where NVLink multicast is off. */
SYMM_NV_FN void *nvshmemx_mc_ptr(nvshmem_team_t team, const void *ptr)
{
    (void)team;
    (void)ptr;
    return NULL;
}

/* Buffers outside the heap (nvshmemx_buffer_register, _unregister, _unregister_all) and
 * kernels loaded through the driver (nvshmemx_cumodule_init, _finalize, nvshmemx_culibrary_init,
 * _finalize) are shmemx_gpu.h's, under their NVSHMEM names. */

/* ---- Start ---------------------------------------------------------------------------------- */
/* nvshmemx_init_attr, nvshmemx_get_uniqueid, nvshmemx_set_attr_uniqueid_args and their types
 * are shmemx_'s (shmemx.h), with NVSHMEM's layouts: a unique id joins processes of any
 * launcher (torchrun, mp.spawn), an MPI communicator (MPI_COMM_WORLD or a part of it) makes
 * its ranks the PEs. */
#define NVSHMEMX_INIT_THREAD_PES SHMEMX_INIT_THREAD_PES
#define NVSHMEMX_INIT_WITH_MPI_COMM SHMEMX_INIT_WITH_MPI_COMM
#define NVSHMEMX_INIT_WITH_SHMEM SHMEMX_INIT_WITH_SHMEM
#define NVSHMEMX_INIT_WITH_UNIQUEID SHMEMX_INIT_WITH_UNIQUEID
#define NVSHMEMX_INIT_MAX (-0x7fffffff - 1) /* 1 << 31, as NVSHMEM has it */
#define NVSHMEMX_UNIQUEID_INITIALIZER SHMEMX_UNIQUEID_INITIALIZER
#define NVSHMEMX_UNIQUEID_ARGS_INITIALIZER SHMEMX_UNIQUEID_ARGS_INITIALIZER
#define NVSHMEMX_INIT_ATTR_INITIALIZER SHMEMX_INIT_ATTR_INITIALIZER
#define NVSHMEMX_INIT_ARGS_INITIALIZER                                                           \
    {(1 << 16) + (int)sizeof(shmemx_init_args_t), SHMEMX_UNIQUEID_ARGS_INITIALIZER, {0}}
#define NVSHMEM_INIT_ATTR_VER 1
#define nvshmemx_uniqueid_v1 shmemx_uniqueid_t
#define nvshmemx_uniqueid_args_v1 shmemx_uniqueid_args_t
#define nvshmemx_init_args_v1 shmemx_init_args_t
#define nvshmemx_init_attr_v1 shmemx_init_attr_t

/* attr->mpi_comm points to the program's MPI_Comm (NVSHMEMX_INIT_WITH_MPI_COMM). */
static inline int nvshmemx_set_attr_mpi_comm_args(void *mpi_comm, shmemx_init_attr_t *nvshmem_attr)
{
    nvshmem_attr->mpi_comm = mpi_comm;
    return 0;
}

/* NVSHMEM's host library alone (the device library is linked into NVSHMEM programs by -rdc): in
 * symm one library serves both, so these start and end it. The callback type is NVSHMEM's; symm
 * calls none. */
typedef void (*nvshmemx_device_lib_init_cb)(void **dev_state_ptr, void **transport_dev_state_ptr);
static inline int nvshmemx_hostlib_init_attr(unsigned int flags, shmemx_init_attr_t *attr)
{
    return shmemx_init_attr(flags, attr);
}
static inline void nvshmemx_hostlib_finalize(void)
{
    shmem_finalize();
}

static inline int nvshmemx_init_status(void)
{
    int initialized = 0;

    shmemx_query_initialized(&initialized);
    return initialized ? NVSHMEM_STATUS_IS_INITIALIZED : NVSHMEM_STATUS_NOT_INITIALIZED;
}

/* ---- Version -------------------------------------------------------------------------------- */
SYMM_NV_FN void nvshmemx_vendor_get_version_info(int *major, int *minor, int *patch)
{
    *major = NVSHMEM_VENDOR_MAJOR_VERSION;
    *minor = NVSHMEM_VENDOR_MINOR_VERSION;
    *patch = NVSHMEM_VENDOR_PATCH_VERSION;
}

/* ---- Teams ------------------------------------------------------------------------------------
 * NVSHMEM's team configuration (version 2, 64 bytes; version 1 has no unique id). A split
 * takes num_contexts where the mask has NVSHMEM_TEAM_CONFIG_MASK_NUM_CONTEXTS; nvshmemx_team_init
 * takes the team's unique id from it (shmemx_team_init). */
typedef uint64_t nvshmemx_team_uniqueid_t;
typedef struct {
    int version;
    int num_contexts;
    nvshmemx_team_uniqueid_t uniqueid;
    char padding[48];
} nvshmem_team_config_v2;
typedef struct {
    int version;
    int num_contexts;
    char padding[56];
} nvshmem_team_config_v1;
typedef nvshmem_team_config_v2 nvshmem_team_config_t;
#define NVSHMEM_TEAM_UNIQUID_INITIALIZER 0xFFFFFFFFFFFFFFFFull
#define NVSHMEM_TEAM_CONFIG_INITIALIZER                                                          \
    {(2 << 16) + (int)sizeof(nvshmem_team_config_t), -1, NVSHMEM_TEAM_UNIQUID_INITIALIZER, {0}}
#define NVSHMEM_TEAM_CONFIG_MASK_NUM_CONTEXTS SHMEM_TEAM_NUM_CONTEXTS
#define NVSHMEM_TEAM_CONFIG_MASK_UNIQUEID 0x2L

static inline shmem_team_config_t symm_nv_team_config(const nvshmem_team_config_t *config,
                                                      long mask)
{
    shmem_team_config_t c = {0};

    if (config && (mask & NVSHMEM_TEAM_CONFIG_MASK_NUM_CONTEXTS))
        c.num_contexts = config->num_contexts;
    return c;
}

static inline void nvshmem_team_get_config(nvshmem_team_t team, nvshmem_team_config_t *config)
{
    shmem_team_config_t c = {0};
    nvshmem_team_config_t v = NVSHMEM_TEAM_CONFIG_INITIALIZER;

    shmem_team_get_config(SHMEMX_TEAM_OF_INDEX(team), SHMEM_TEAM_NUM_CONTEXTS, &c);
    v.num_contexts = c.num_contexts;
    *config = v;
}

static inline int nvshmem_team_split_strided(nvshmem_team_t parent_team, int PE_start,
                                             int PE_stride, int PE_size,
                                             const nvshmem_team_config_t *config,
                                             long config_mask, nvshmem_team_t *new_team)
{
    shmem_team_config_t c = symm_nv_team_config(config, config_mask);
    shmem_team_t t = SHMEM_TEAM_INVALID;
    int rc = shmem_team_split_strided(SHMEMX_TEAM_OF_INDEX(parent_team), PE_start, PE_stride,
                                      PE_size, &c, config_mask & SHMEM_TEAM_NUM_CONTEXTS, &t);

    *new_team = shmemx_team_index(t);
    return rc;
}

static inline int nvshmemx_team_init(nvshmem_team_t *team, nvshmem_team_config_t *config,
                                     long config_mask, int npes, int pe_idx_in_team)
{
    shmem_team_config_t c = symm_nv_team_config(config, config_mask);
    shmem_team_t t = SHMEM_TEAM_INVALID;
    int rc = shmemx_team_init(config ? config->uniqueid : NVSHMEM_TEAM_UNIQUID_INITIALIZER, npes,
                              pe_idx_in_team, &c, config_mask & SHMEM_TEAM_NUM_CONTEXTS, &t);

    *team = shmemx_team_index(t);
    return rc;
}

static inline int nvshmem_team_split_2d(nvshmem_team_t parent_team, int xrange,
                                        const nvshmem_team_config_t *xaxis_config,
                                        long xaxis_mask, nvshmem_team_t *xaxis_team,
                                        const nvshmem_team_config_t *yaxis_config,
                                        long yaxis_mask, nvshmem_team_t *yaxis_team)
{
    shmem_team_config_t x = symm_nv_team_config(xaxis_config, xaxis_mask);
    shmem_team_config_t y = symm_nv_team_config(yaxis_config, yaxis_mask);
    shmem_team_t tx = SHMEM_TEAM_INVALID, ty = SHMEM_TEAM_INVALID;
    int rc = shmem_team_split_2d(SHMEMX_TEAM_OF_INDEX(parent_team), xrange, &x,
                                 xaxis_mask & SHMEM_TEAM_NUM_CONTEXTS, &tx, &y,
                                 yaxis_mask & SHMEM_TEAM_NUM_CONTEXTS, &ty);

    *xaxis_team = shmemx_team_index(tx);
    *yaxis_team = shmemx_team_index(ty);
    return rc;
}

#ifndef __CUDA_ARCH__
/* The team a context was made from, as an index. */
static inline int nvshmem_ctx_get_team(shmem_ctx_t ctx, nvshmem_team_t *team)
{
    shmem_team_t t = SHMEM_TEAM_INVALID;
    int rc = shmem_ctx_get_team(ctx, &t);

    *team = shmemx_team_index(t);
    return rc;
}
#endif

/* ---- Team barrier and signal operation ------------------------------------------------------ */
SYMM_NV_FN int symm_nv_barrier(nvshmem_team_t team)
{
#ifdef __CUDA_ARCH__
    return shmemx_barrier(SHMEMX_TEAM_OF_INDEX(team));
#else
    shmem_quiet();
    return shmem_team_sync(SHMEMX_TEAM_OF_INDEX(team));
#endif
}
#define nvshmem_barrier symm_nv_barrier
/* nvshmem_sync(team) is the team's sync (OpenSHMEM's shmem_sync has a second, active-set form). */
#define nvshmem_sync(team) shmem_team_sync(SHMEMX_TEAM_OF_INDEX(team))

SYMM_NV_FN void symm_nv_signal_op(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
    if (sig_op == SHMEM_SIGNAL_SET)
        shmem_signal_set(sig_addr, signal, pe);
    else
        shmem_signal_add(sig_addr, signal, pe);
}
#define nvshmemx_signal_op symm_nv_signal_op

/* NVSHMEM's signal fetch takes a pointer to non-const (OpenSHMEM's, to const). */
SYMM_NV_FN uint64_t symm_nv_signal_fetch(uint64_t *sig_addr)
{
    return shmem_signal_fetch(sig_addr);
}
#define nvshmem_signal_fetch symm_nv_signal_fetch

#ifdef __CUDACC__
/* NVSHMEM 3.4 also declares nvshmemx_put6_signal_warp, _block and their _nbi forms, whose size
 * list says 6 where it means 16: they put nelems * (6 / 8) bytes, none, then update the
 * signal. Here too, so that a program naming them builds and behaves as it does there. */
#define SYMM_NV_PUT6_SIGNAL(SUFFIX)                                                              \
    static __device__ inline void nvshmemx_put6_signal##SUFFIX(                                 \
        void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal,     \
        int sig_op, int pe)                                                                     \
    {                                                                                           \
        (void)nelems;                                                                           \
        shmemx_putmem_signal##SUFFIX(dest, source, 0, sig_addr, signal, sig_op, pe);            \
    }
SYMM_NV_PUT6_SIGNAL(_warp)
SYMM_NV_PUT6_SIGNAL(_block)
SYMM_NV_PUT6_SIGNAL(_nbi_warp)
SYMM_NV_PUT6_SIGNAL(_nbi_block)
#undef SYMM_NV_PUT6_SIGNAL
#endif

#ifdef SYMM_HAVE_COLLECTIVE_LAUNCH
#define nvshmemx_collective_launch shmemx_collective_launch
#define nvshmemx_collective_launch_query_gridsize shmemx_collective_launch_query_gridsize
#else
#define nvshmemx_collective_launch nvshmemx_collective_launch_needs_cuda_runtime_h
#define nvshmemx_collective_launch_query_gridsize                                                \
    nvshmemx_collective_launch_query_gridsize_needs_cuda_runtime_h
#endif

/* ---- half and bfloat16 ------------------------------------------------------------------------
 * RMA, collectives, reductions and reduce-scatters, on the host and on a stream (symm/nvtypes.h
 * says what the types are where CUDA's headers are absent). */
#include "symm/nvtypes.h"

#endif
