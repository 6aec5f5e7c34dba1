/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * symm GPU extensions, host side: the device heap, operations enqueued on a CUDA stream, and
 * the collective launch. Plain C11 (a stream is a `struct CUstream_st *`, which is what
 * cudaStream_t and CUstream are), so a C program without CUDA headers can include it.
 * The device API (kernels) is symm/device.cuh.
 *
 * The GPU part. Every PE drives one GPU: by default the one whose index among the visible
 * GPUs (CUDA_VISIBLE_DEVICES) is the PE's rank on its node; SYMM_GPU_DEVICE overrides it
 * (one index for every PE, or a comma-separated list indexed by node rank). SYMM_GPU picks
 * when the part starts: `auto` (default) at shmem_init if the program contains code compiled
 * against symm/device.cuh, else at the first call below that needs it (a CPU-only program
 * never creates a CUDA context); `1` at shmem_init, failing there without a GPU for every PE;
 * `0` never (these calls then fail). Starting is collective, as are the calls that may start
 * it (allocation, collectives); a call that needs a started GPU part and cannot start it
 * (put_on_stream before any device allocation) is an error.
 *
 * The device heap. shmemx_malloc_device and friends are the collective allocation calls of
 * shmem.h on a second symmetric heap, in GPU memory: same order and same arguments on every
 * PE, a barrier inside, NULL on every PE when one PE cannot back the block (with a message
 * naming that PE). SYMM_DEVICE_HEAP_SIZE (default 64G) is the most each PE may allocate; it
 * only reserves addresses: GPU memory is taken in 2 MiB granules as allocations need it and
 * is not given back before shmem_finalize. Every host RMA routine of shmem.h accepts
 * device-heap addresses (a blocking copy through the GPU), and shmem_ptr returns the address a
 * kernel on this PE uses to reach a peer's block.
 *
 * Stream operations (_on_stream): enqueued on `stream` and performed in its order, without
 * the host waiting; a stream of NULL is the legacy default stream. The calls that are
 * collective on the host (barrier, collectives) must be enqueued by every PE in the same
 * order; their results are ready when the stream reaches the following work. quiet_on_stream
 * completes the stream's earlier puts: every put a kernel or copy earlier on the stream made
 * is complete when that work finishes, so it enqueues nothing. Collectives on stream run on
 * any team whose members all enqueue them, in the same order; large ones spread over several
 * blocks. On a split team a small one runs as the team's block-scope collective (device.cuh),
 * so a team's small stream collectives and its collectives in kernels are one sequence.
 */
#ifndef SHMEMX_GPU_H
#define SHMEMX_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "shmem.h"

#ifdef __cplusplus
extern "C" {
#endif

struct CUstream_st;

/* ---- Device heap ----------------------------------------------------------------------------
 * Collective. shmemx_align_device: alignment a power of two. shmemx_free_device waits until
 * this PE's GPU has finished its work (the block may be in use by a kernel), then runs a
 * barrier before the block is reused. */
void *shmemx_malloc_device(size_t size);
void *shmemx_calloc_device(size_t count, size_t size);
void *shmemx_align_device(size_t alignment, size_t size);
void shmemx_free_device(void *ptr);
/* shmemx_realloc_device: collective; the first min(old, new size) bytes move to the new block
 * (NULL ptr: allocates; size 0: frees and returns NULL; NULL on every PE, the old block kept,
 * when one PE cannot back the new one). */
void *shmemx_realloc_device(void *ptr, size_t size);
/* Where pe's device heap starts in this process's device window (NULL before the GPU part
 * starts), and the bytes each PE may allocate. */
void *shmemx_device_heap_base(int pe);
size_t shmemx_device_heap_size(void);
/* The CUDA device index (among the visible devices) of this PE's GPU, or -1 when the GPU part
 * has not started. A host thread of the program that launches kernels uses this device. */
int shmemx_gpu_device(void);

/* ---- Buffers outside the symmetric heaps -------------------------------------------------------
 * Memory this PE allocated itself (cudaMalloc, malloc, a torch tensor) is a valid local source
 * or destination of RMA on device-heap addresses (host calls, _on_stream calls, kernels) once
 * the GPU can reach it: device memory always can; host memory after shmemx_buffer_register,
 * which pins and maps it (cuMemHostRegister). Not collective. register returns 0, or
 * NVSHMEMX_ERROR_INVALID_VALUE (1) for a NULL or empty range or one that overlaps a registered
 * range, NVSHMEMX_ERROR_INTERNAL (7) when the driver refuses; unregister takes the address that
 * register was given and returns 0, or 1 when it was not registered; unregister_all drops every
 * registration. */
int shmemx_buffer_register(void *addr, size_t length);
int shmemx_buffer_unregister(void *addr);
void shmemx_buffer_unregister_all(void);

/* A buffer of this PE's GPU made symmetric: collective, every PE passes its own buffer of the
 * same size, allocated with cuMemCreate (asked for CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
 * mapped with cuMemMap, and passed at the start of its allocation. Returns the address of the
 * buffer in the device heap's window (the same memory as buf_ptr, and a symmetric address as
 * a device heap block's is), or NULL on every PE when one PE has no room left for it
 * (SYMM_DEVICE_REGISTER_SIZE). flags: none is defined. unregister_symmetric (collective)
 * takes the address register_symmetric returned and returns 0; the program frees its buffer
 * after. Not in a build without CUDA. */
void *shmemx_buffer_register_symmetric(void *buf_ptr, size_t size, int flags);
int shmemx_buffer_unregister_symmetric(void *mmap_ptr, size_t size);

/* ---- Kernels loaded through the driver ----------------------------------------------------------
 * A module (cuModuleLoad of a cubin or fatbin built from a file that includes symm/device.cuh or
 * nvshmem.h, without -rdc) or a library (cuLibraryLoad) has its own copy of the device state,
 * which no static initialiser of the program registers: these write it (starting the GPU part
 * if needed, so every PE calls them in the same order as other calls that may start it) and
 * forget it. Return 0, or NVSHMEMX_ERROR_INVALID_VALUE (1) when the module has no device state
 * (it does not use the device API), naming the module on stderr. */
struct CUmod_st;
struct CUlib_st;
int shmemx_cumodule_init(struct CUmod_st *module);
int shmemx_cumodule_finalize(struct CUmod_st *module);
int shmemx_culibrary_init(struct CUlib_st *library);
int shmemx_culibrary_finalize(struct CUlib_st *library);

/* ---- Stream operations --------------------------------------------------------------------- */
void shmemx_putmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                             struct CUstream_st *stream);
void shmemx_getmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                             struct CUstream_st *stream);
void shmemx_putmem_signal_on_stream(void *dest, const void *source, size_t nelems,
                                    uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
                                    struct CUstream_st *stream);
void shmemx_signal_op_on_stream(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
                                struct CUstream_st *stream);
void shmemx_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp, uint64_t cmp_value,
                                        struct CUstream_st *stream);
/* The _nbi forms: on a stream, the same enqueue as the blocking forms (complete when the
 * stream reaches the following work). */
void shmemx_putmem_nbi_on_stream(void *dest, const void *source, size_t nelems, int pe,
                                 struct CUstream_st *stream);
void shmemx_getmem_nbi_on_stream(void *dest, const void *source, size_t nelems, int pe,
                                 struct CUstream_st *stream);
void shmemx_putmem_signal_nbi_on_stream(void *dest, const void *source, size_t nelems,
                                        uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
                                        struct CUstream_st *stream);
void shmemx_quiet_on_stream(struct CUstream_st *stream);
void shmemx_barrier_all_on_stream(struct CUstream_st *stream);
void shmemx_sync_all_on_stream(struct CUstream_st *stream);
/* The barrier (completes the stream's earlier puts, as barrier_all) and sync of a team;
 * return 0. */
int shmemx_barrier_on_stream(shmem_team_t team, struct CUstream_st *stream);
int shmemx_team_sync_on_stream(shmem_team_t team, struct CUstream_st *stream);

/* Collectives on stream: as shmem_alltoallmem, shmem_fcollectmem, shmem_broadcastmem and the
 * typed reductions of shmem.h (nelems in bytes for the mem forms); source and dest in the
 * device heap; return 0. */
int shmemx_alltoallmem_on_stream(shmem_team_t team, void *dest, const void *source,
                                 size_t nelems, struct CUstream_st *stream);
int shmemx_fcollectmem_on_stream(shmem_team_t team, void *dest, const void *source,
                                 size_t nelems, struct CUstream_st *stream);
int shmemx_broadcastmem_on_stream(shmem_team_t team, void *dest, const void *source,
                                  size_t nelems, int PE_root, struct CUstream_st *stream);

/* For every type of the table with device forms (DEV): shmemx_TYPE_put_on_stream, _get_,
 * _put_nbi_, _get_nbi_, _p_, _g_, _iput_, _iget_, _put_signal_, _put_signal_nbi_on_stream and
 * the same by element size (shmemx_put64_on_stream, ...); shmemx_TYPE_alltoall_on_stream,
 * _fcollect_, _broadcast_, _OP_reduce_ and _OP_reducescatter_on_stream (shmemx.h's reduce-scatter)
 * with the operators its columns give it;
 * shmemx_TYPE_wait_until_on_stream, _wait_until_all_ and _wait_until_all_vector_on_stream for
 * the types of the wait routines. RMA and waits on device-heap addresses of pe (waits: this PE);
 * a strided copy's strides are at least 1. */
#include "symm/gen/shmemx_stream.h"

/* ---- For symm/device.cuh and the inline code below ------------------------------------------
 * register_module: a module's function that writes its copy of the device state; the library
 * calls it at GPU start (at once if already started). fail: ends the job with the house error
 * line "symm: [pe N host pid] call: what". */
int shmemx_gpu_register_module(const char *(*set_state)(const void *state, size_t len), int abi);
void shmemx_gpu_fail(const char *call, const char *what)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

#ifdef __cplusplus
}
#endif

/* ---- Collective launch (where cuda_runtime.h is included: CUDA C++, or C) ------------------
 * Launches a kernel whose blocks may wait on one another or on other PEs: all blocks resident
 * at once (a cooperative launch), or a fatal error naming the most blocks that fit. The query
 * gives the most blocks of `block` threads that a collective launch of func can have. */
#if defined(CUDART_VERSION)
#include <stdio.h>
#define SYMM_HAVE_COLLECTIVE_LAUNCH 1

static inline int shmemx_collective_launch_query_gridsize(const void *func, dim3 block,
                                                          void **args, size_t shared_mem,
                                                          int *gridsize)
{
    int dev = shmemx_gpu_device(), sms = 0, per_sm = 0;

    (void)args;
    if (dev < 0 || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, func,
                                                      (int)(block.x * block.y * block.z),
                                                      shared_mem) != cudaSuccess)
        return 7; /* NVSHMEMX_ERROR_INTERNAL */
    *gridsize = per_sm * sms;
    return 0;
}

static inline int shmemx_collective_launch(const void *func, dim3 grid, dim3 block, void **args,
                                           size_t shared_mem, cudaStream_t stream)
{
    int dev = shmemx_gpu_device(), sms = 0, per_sm = 0;
    unsigned long long want = (unsigned long long)grid.x * grid.y * grid.z;
    char why[160];

    if (dev < 0)
        shmemx_gpu_fail("shmemx_collective_launch", "the GPU part has not started (no device "
                                                    "allocation or GPU start yet)");
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, func,
                                                      (int)(block.x * block.y * block.z),
                                                      shared_mem) != cudaSuccess)
        shmemx_gpu_fail("shmemx_collective_launch", "cannot query the kernel's occupancy");
    if (want > (unsigned long long)per_sm * sms) {
        snprintf(why, sizeof(why), "%llu blocks cannot all be resident (at most %d of this "
                 "kernel fit: %d per multiprocessor, %d multiprocessors)", want, per_sm * sms,
                 per_sm, sms);
        shmemx_gpu_fail("shmemx_collective_launch", why);
    }
    return (int)cudaLaunchCooperativeKernel(func, grid, block, args, shared_mem, stream);
}
#endif

#endif
