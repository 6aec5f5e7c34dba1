/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * symm extensions to OpenSHMEM (shmemx_ prefix).
 */
#ifndef SHMEMX_H
#define SHMEMX_H

#include "shmem.h"
#include "shmemx_gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where the symmetric heap of `pe` starts in this process (the heap window's slot of pe), or
 * NULL when pe cannot be reached by load/store. A block's offset, addr - shmemx_heap_base(me),
 * is the same on every PE. */
void *shmemx_heap_base(int pe);

/* shmem_malloc_with_hints: the block lives in the device heap (GPU memory of every PE). With
 * the standard hints only beside it: among bits the library does not know (as in
 * ~SHMEM_MALLOC_ATOMICS_REMOTE from a program written for another implementation) it is
 * ignored with them, and the block is host memory. */
#define SHMEMX_MALLOC_DEVICE (1L << 16)

/* Bytes each PE may allocate from its symmetric heap (SHMEM_SYMMETRIC_SIZE). */
size_t shmemx_heap_size(void);

/* ---- Starting under any launcher: a unique id or an MPI communicator -------------------------
 * Processes started by symmrun, mpirun or srun call shmem_init. Processes started by anything
 * else (torchrun, mp.spawn, a script) join one job through a unique id: one of them makes it
 * (shmemx_get_uniqueid), the program hands it to the others (through torch.distributed, a
 * file, MPI), and every process calls shmemx_set_attr_uniqueid_args(rank, nranks, &id, &attr)
 * and shmemx_init_attr(SHMEMX_INIT_WITH_UNIQUEID, &attr). A program that called MPI_Init
 * passes a communicator instead (attr.mpi_comm = &comm, SHMEMX_INIT_WITH_MPI_COMM), all of
 * MPI_COMM_WORLD or a part of it; its ranks become the PEs. The layouts are NVSHMEM 3.4's. */
typedef struct {
    int version;
    char internal[124];
} shmemx_uniqueid_t;
#define SHMEMX_UNIQUEID_INITIALIZER {(1 << 16) + 128, {0}}

typedef struct {
    int version;
    shmemx_uniqueid_t *id;
    int myrank;
    int nranks;
} shmemx_uniqueid_args_t;
#define SHMEMX_UNIQUEID_ARGS_INITIALIZER {(1 << 16) + (int)sizeof(shmemx_uniqueid_args_t), 0, -1, -1}

typedef struct {
    int version;
    shmemx_uniqueid_args_t uid_args;
    char content[96];
} shmemx_init_args_t;

typedef struct {
    int version;
    void *mpi_comm; /* points to an MPI_Comm */
    shmemx_init_args_t args;
} shmemx_init_attr_t;
#define SHMEMX_INIT_ATTR_INITIALIZER {(1 << 16) + (int)sizeof(shmemx_init_attr_t), 0, {0, {0, 0, -1, -1}, {0}}}

#define SHMEMX_INIT_THREAD_PES 1
#define SHMEMX_INIT_WITH_MPI_COMM (1 << 1)
#define SHMEMX_INIT_WITH_SHMEM (1 << 2)
#define SHMEMX_INIT_WITH_UNIQUEID (1 << 3)

/* A fresh id; the calling process serves the job's start, so it must be one of the job. */
int shmemx_get_uniqueid(shmemx_uniqueid_t *id);
int shmemx_set_attr_uniqueid_args(int myrank, int nranks, const shmemx_uniqueid_t *id,
                                  shmemx_init_attr_t *attr);
/* Starts the job as shmem_init does, joined by the unique id or the MPI communicator that
 * `flags` names (SHMEMX_INIT_WITH_SHMEM: as shmem_init). Returns 0. */
int shmemx_init_attr(unsigned int flags, shmemx_init_attr_t *attr);

/* OpenSHMEM 1.6: *initialized is 1 between shmem_init (or shmemx_init_attr) and
 * shmem_finalize, else 0. Any thread, at any time. */
void shmemx_query_initialized(int *initialized);

/* Teams whose members know only an id, not a parent team (NVSHMEM's nvshmemx_team_init).
 * shmemx_team_get_uniqueid makes an id (any PE, not collective; the program passes it to the
 * members, e.g. over MPI); shmemx_team_init is collective over the npes members, each passing
 * the id and its index in the team, and sets *new_team (config and config_mask as in a split).
 * The members must be world PEs start + i * stride (member i), as every symm team is; others
 * end the job with a message. Returns 0, or -1 (and SHMEM_TEAM_INVALID on every member) when
 * no team slot is free on some member. */
int shmemx_team_get_uniqueid(uint64_t *uniqueid);
int shmemx_team_init(uint64_t uniqueid, int npes, int pe_idx_in_team,
                     const shmem_team_config_t *config, long config_mask,
                     shmem_team_t *new_team);

/* Teams by index, as NVSHMEM numbers them (nvshmem.h): 0 the world, 1 the shared team, 2 the
 * node's (the shared team in symm), 3 the PEs at this PE's place in their nodes, split teams
 * from 6 on, -1 invalid. Every routine that
 * takes a team takes SHMEMX_TEAM_OF_INDEX(index) too (host and device; -1 gives
 * SHMEM_TEAM_INVALID); shmemx_team_index is the index of a team (host). */
#define SHMEMX_TEAM_OF_INDEX(index) ((shmem_team_t)(intptr_t)((index) + 1))
int shmemx_team_index(shmem_team_t team);

/* Reduce-scatter, as NVSHMEM's reducescatter: source holds one block of nreduce elements per
 * PE of team; dest (nreduce elements) on team PE i gets block i of every member's source
 * reduced by the operator, combined in team order. Collective over team; source symmetric,
 * dest local (it may overlap source on the host heap, not on the device heap); buffers in the
 * device heap run on the GPU (the integer, float and double rows). Returns 0. */
#include "symm/gen/shmemx_rscatter.h"

/* OpenSHMEM 1.6 scans over a team: dest on team PE i holds source summed over PEs 0..i
 * (inscan) or 0..i-1 (exscan; zero on PE 0). Collective; returns 0. */
#include "symm/gen/shmemx_scan.h"

/* ---- Sandia OpenSHMEM's extensions ---------------------------------------------------------
 * Programs written for Sandia OpenSHMEM's shmemx.h build against these names, where symm has
 * the feature:
 *  - Block-strided RMA: shmemx_TYPE_ibput(target, source, tst, sst, bsize, nblocks, pe) copies
 *    nblocks blocks of bsize elements, block i from source + i * sst to target + i * tst on pe
 *    (strides in elements, each at least bsize); shmemx_TYPE_ibget copies from source on pe
 *    into target. Blocking, as put and get. Typed for every type of the table with RMA, by
 *    element size (shmemx_ibput8 ... shmemx_ibget128), and in context forms (shmemx_ctx_...).
 *  - shmemx_TYPE_sum_inscan and shmemx_TYPE_sum_exscan: the scans above.
 *  - shmemx_signal_add, shmemx_signal_set and their context forms: shmem_signal_add and
 *    shmem_signal_set.
 *  - shmemx_register_gettid(fn): fn names the calling thread from then on, where symm asks
 *    which thread calls (a non-zero id; NULL goes back to the operating system's thread id).
 *    Under SHMEM_DEBUG=1 a context made with SHMEM_CTX_PRIVATE records its creator, and its
 *    use by another thread ends the job with a message naming both. */
#include "symm/gen/shmemx_sos.h"
void shmemx_signal_add(uint64_t *sig_addr, uint64_t signal, int pe);
void shmemx_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
void shmemx_signal_set(uint64_t *sig_addr, uint64_t signal, int pe);
void shmemx_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
void shmemx_register_gettid(uint64_t (*gettid_fn)(void));

/* Their generic names in C11: shmemx_ibput and shmemx_ibget (with or without a leading
 * context), shmemx_sum_inscan and shmemx_sum_exscan (by the type of *dest), shmemx_signal_add
 * and shmemx_signal_set (with or without a leading context). */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus) && \
    !defined(SYMM_BUILDING)
#define SYMM_X_PLAIN_FORM(FAM, OP, first, ...)                                                   \
    SYMM_PICK(*(first), FAM, shmemx_, OP)(first, __VA_ARGS__)
#define SYMM_X_CTX_FORM(FAM, OP, ctx, first, ...)                                                \
    SYMM_PICK(*(first), FAM, shmemx_ctx_, OP)(ctx, first, __VA_ARGS__)
#define SYMM_X_CTX_PICK(N, FAM, OP, ...)                                                         \
    SYMM_SEL_N(N, __VA_ARGS__, SYMM_X_CTX_FORM, SYMM_X_PLAIN_FORM, ~)(FAM, OP, __VA_ARGS__)
#define shmemx_ibput(...) SYMM_X_CTX_PICK(7, RMA, ibput, __VA_ARGS__)
#define shmemx_ibget(...) SYMM_X_CTX_PICK(7, RMA, ibget, __VA_ARGS__)
#define SYMM_X_TEAM_PICK(OP, team, dest, ...)                                                    \
    SYMM_PICK(*(dest), SCAN, shmemx_, OP)(team, dest, __VA_ARGS__)
#define shmemx_sum_inscan(...) SYMM_X_TEAM_PICK(sum_inscan, __VA_ARGS__)
#define shmemx_sum_exscan(...) SYMM_X_TEAM_PICK(sum_exscan, __VA_ARGS__)
#define SYMM_X_SIGNAL_PICK(a, b, c, d, NAME, ...) NAME
#define shmemx_signal_add(...)                                                                   \
    SYMM_X_SIGNAL_PICK(__VA_ARGS__, shmemx_ctx_signal_add, shmemx_signal_add, ~)(__VA_ARGS__)
#define shmemx_signal_set(...)                                                                   \
    SYMM_X_SIGNAL_PICK(__VA_ARGS__, shmemx_ctx_signal_set, shmemx_signal_set, ~)(__VA_ARGS__)
#endif

#ifdef __cplusplus
}

/* Their generic names in C++: overloads over the same rows (shmemx_ibput, shmemx_ibget,
 * shmemx_sum_inscan, shmemx_sum_exscan), and the context forms of the signal calls. */
#include "symm/gen/shmemx_cxx.h"
inline void shmemx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    shmemx_ctx_signal_add(ctx, sig_addr, signal, pe);
}
inline void shmemx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    shmemx_ctx_signal_set(ctx, sig_addr, signal, pe);
}
#endif
#endif
