/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * symm: the OpenSHMEM 1.5 C API.
 *
 * Every process of a job is a PE. A collective allocation (shmem_malloc) returns on every PE a
 * block at the same offset of its symmetric heap; global and static variables of the program
 * are symmetric too. Any PE reads and writes any PE's symmetric objects by (address, pe), with
 * no action of the target PE. Typed routines exist for every type of the type table
 * (symm/types.def); sized (8, 16, 32, 64, 128 bits) and byte (mem) forms beside them. The
 * typed and sized declarations, each with its signature and what it does, are in
 * the headers symm/gen/shmem_*.h that the sections below include, generated from the table.
 */
#ifndef SHMEM_H
#define SHMEM_H

#include <stddef.h>
#include <stdint.h>

#include "symm/types.def"

#ifdef __cplusplus
#include <complex>
extern "C" {
#endif

/* ---- Library constants ------------------------------------------------------------------ */
#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 5
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define SHMEM_MAX_NAME_LEN 256
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define SHMEM_VENDOR_STRING "symm 0.1.0"
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING
#define SHMEM_VENDOR_MAJOR_VERSION 0
#define SHMEM_VENDOR_MINOR_VERSION 1
#define SHMEM_VENDOR_PATCH_VERSION 0

#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_GE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_LE 5
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE

#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE (1L << 1)

/* ---- Contexts ----------------------------------------------------------------------------
 * A context orders and completes its own operations: shmem_ctx_quiet(ctx) completes only the
 * operations issued on ctx. Operations on SHMEM_CTX_INVALID do nothing. */
typedef struct symm_ctx *shmem_ctx_t;
extern struct symm_ctx symm_ctx_default;
#define SHMEM_CTX_DEFAULT (&symm_ctx_default)
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)
#define SHMEM_CTX_SERIALIZED (1L << 0)
#define SHMEM_CTX_PRIVATE (1L << 1)
#define SHMEM_CTX_NOSTORE (1L << 2)

/* ---- Setup, exit and queries -------------------------------------------------------------
 * shmem_init and shmem_finalize are collective. A program started without symmrun is a job of
 * one PE. shmem_finalize is also run at exit if the program did not call it. */
void shmem_init(void);
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
void shmem_finalize(void);
void shmem_global_exit(int status);
int shmem_my_pe(void);
int shmem_n_pes(void);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void *addr, int pe);
/* The address of `dest` on `pe` if this PE can reach it by load and store, else NULL. */
void *shmem_ptr(const void *dest, int pe);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);

/* Deprecated names, kept for older codes. */
void start_pes(int npes);
int _my_pe(void);
int _num_pes(void);

/* ---- Symmetric memory management -----------------------------------------------------------
 * Collective: every PE calls them in the same order with the same arguments. shmem_malloc,
 * shmem_calloc, shmem_align and shmem_malloc_with_hints end with a barrier; shmem_free starts
 * with one; shmem_realloc has both. A request that cannot be satisfied returns NULL on every
 * PE (never a block on some PEs only); size 0 returns NULL. */
void *shmem_malloc(size_t size);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_realloc(void *ptr, size_t size);
void *shmem_malloc_with_hints(size_t size, long hints);
void shmem_free(void *ptr);

/* Deprecated names. */
void *shmalloc(size_t size);
void *shmemalign(size_t alignment, size_t size);
void *shrealloc(void *ptr, size_t size);
void shfree(void *ptr);

/* ---- Remote memory access ----------------------------------------------------------------
 * put/get: blocking; put returns when the source buffer may be reused (delivery is completed by
 * shmem_quiet), get returns when the data has arrived. p/g: single elements. iput/iget: strided
 * (strides in elements, of the target first). _nbi: non-blocking, the buffers may be touched
 * only after shmem_quiet. shmem_fence orders puts to each PE; shmem_quiet completes all
 * outstanding puts of the context. */
/* Typed forms (shmem_TYPE_put, ...) for every type of the table with RMA, and sized forms
 * (shmem_put64, ...) that move elements of 8, 16, 32, 64 or 128 bits; mem forms move bytes. */
#include "symm/gen/shmem_rma.h"

void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nbytes, int pe);
void shmem_putmem(void *dest, const void *source, size_t nbytes, int pe);
void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nbytes, int pe);
void shmem_getmem(void *dest, const void *source, size_t nbytes, int pe);
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nbytes,
                          int pe);
void shmem_putmem_nbi(void *dest, const void *source, size_t nbytes, int pe);
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nbytes,
                          int pe);
void shmem_getmem_nbi(void *dest, const void *source, size_t nbytes, int pe);

/* ---- Memory ordering -------------------------------------------------------------------- */
void shmem_fence(void);
void shmem_quiet(void);
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_ctx_quiet(shmem_ctx_t ctx);

/* ---- Barriers ------------------------------------------------------------------------------
 * shmem_barrier_all: completes this PE's outstanding puts (as shmem_quiet) and waits until
 * every PE has arrived. shmem_sync_all waits without completing puts. */
void shmem_barrier_all(void);
void shmem_sync_all(void);

/* ---- Contexts ----------------------------------------------------------------------------
 * shmem_ctx_create returns 0 and a new context in *ctx, or non-zero and SHMEM_CTX_INVALID.
 * Using a destroyed context is an error. */
int shmem_ctx_create(long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);

/* ---- Atomic memory operations ------------------------------------------------------------
 * Atomic with respect to every other atomic on the same object from any PE. The non-fetching
 * forms and the _nbi fetching forms complete at shmem_quiet (to a load/store peer they are
 * complete on return). */
/* Typed forms for the types of the table with AMO (fetch_inc, inc, fetch_add, add,
 * compare_swap), EXT (fetch, set, swap) and BIT (fetch_and, and, ... xor), and the deprecated
 * names of OpenSHMEM 1.3 (shmem_int_fadd, ...) for those with OLD. */
#include "symm/gen/shmem_amo.h"
long shmem_swap(long *dest, long value, int pe);

/* ---- Signals -------------------------------------------------------------------------------
 * put_signal: the data is delivered, then the signal word is updated (SHMEM_SIGNAL_SET or
 * SHMEM_SIGNAL_ADD): a PE that sees the signal sees the data. */
#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1
/* Typed (shmem_TYPE_put_signal), sized (shmem_put64_signal) and byte (shmem_putmem_signal)
 * forms, blocking and _nbi. */
#include "symm/gen/shmem_signal.h"
uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);
void shmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);

/* ---- Point-to-point synchronization --------------------------------------------------------
 * wait_until blocks until the local symmetric object satisfies `object cmp cmp_value`
 * (SHMEM_CMP_*); test returns at once. In the array forms a non-zero status[i] excludes ivars[i]
 * (status may be NULL); _any returns the index of a satisfied element (SIZE_MAX when none can
 * be), _some stores the satisfied indices and returns their count; _vector forms compare
 * element i with cmp_values[i]. */
/* Typed forms for every type of the table with WAIT. */
#include "symm/gen/shmem_wait.h"
void shmem_wait(long *ivar, long cmp_value);
void shmem_wait_until(long *ivar, int cmp, long cmp_value);

/* ---- Distributed locks ---------------------------------------------------------------------
 * `lock` is a symmetric long, zero before first use. Waiting PEs are served in arrival
 * order. */
void shmem_set_lock(long *lock);
int shmem_test_lock(long *lock);
void shmem_clear_lock(long *lock);

/* ---- Teams ---------------------------------------------------------------------------------
 * A team is an ordered set of PEs; SHMEM_TEAM_WORLD holds all, SHMEM_TEAM_SHARED those that
 * share memory with this PE. Splits are collective over the parent team; a PE that is not in
 * the new team gets SHMEM_TEAM_INVALID. */
typedef struct symm_team *shmem_team_t;
extern struct symm_team symm_team_world;
extern struct symm_team symm_team_shared;
#define SHMEM_TEAM_WORLD (&symm_team_world)
#define SHMEM_TEAM_SHARED (&symm_team_shared)
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)
typedef struct {
    int num_contexts;
} shmem_team_config_t;
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

int shmem_team_my_pe(shmem_team_t team);
int shmem_team_n_pes(shmem_team_t team);
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team);
int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
                        const shmem_team_config_t *xaxis_config, long xaxis_mask,
                        shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team);
void shmem_team_destroy(shmem_team_t team);
int shmem_team_sync(shmem_team_t team);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);
/* OpenSHMEM 1.6: shmem_ptr with the PE numbered in `team`. */
void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe);

/* ---- Collectives ---------------------------------------------------------------------------
 * Collective over the team: every PE of the team calls with the same counts and root. Source
 * and destination are symmetric. Each returns 0 on success. broadcast copies the root's source
 * to dest on every PE of the team (the root's too); fcollect concatenates equal blocks in team
 * order, collect blocks of any size; alltoall sends block j of source to PE j; reductions
 * combine element-wise in team order, so every PE gets bit-identical results.
 * shmem_sync(team) is shmem_team_sync(team) (see shmem_sync below for its other form). */
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems);

/* The complex types of the sum and product reductions: float _Complex and double _Complex in
 * C; in C++ std::complex<float> and std::complex<double>, which have the same layout (the real
 * part, then the imaginary part) and are passed the same way, by address. */
#ifdef __cplusplus
typedef std::complex<float> symm_complexf_t;
typedef std::complex<double> symm_complexd_t;
#else
typedef float _Complex symm_complexf_t;
typedef double _Complex symm_complexd_t;
#endif
/* Typed forms: broadcast, collect, fcollect, alltoall and alltoalls for every type of the
 * table with RMA; shmem_TYPE_OP_reduce for the operators its columns give it (and, or, xor
 * where BITRED; max, min where MINMAX; sum, prod where SUMPROD, the complex types too). */
#include "symm/gen/shmem_coll.h"

/* ---- Active-set collectives (deprecated in OpenSHMEM 1.5, still supported) -----------------
 * The active set is PE_start + i * 2^logPE_stride, i < PE_size. pSync is a symmetric array of
 * the given size, all SHMEM_SYNC_VALUE before first use; it is left so again on return. */
#define SHMEM_SYNC_VALUE 0L
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define SHMEM_BARRIER_SYNC_SIZE 4
#define SHMEM_BCAST_SYNC_SIZE 4
#define SHMEM_COLLECT_SYNC_SIZE 4
#define SHMEM_REDUCE_SYNC_SIZE 4
#define SHMEM_ALLTOALL_SYNC_SIZE 4
#define SHMEM_ALLTOALLS_SYNC_SIZE 4
#define SHMEM_SYNC_SIZE 4
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 1
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
/* OpenSHMEM 1.5 gives two routines the name shmem_sync: the team synchronisation,
 * shmem_sync(team) (shmem_team_sync), and the deprecated active-set form below, which waits
 * for the PEs of the set without completing puts. The library's symbol shmem_sync is the
 * active-set routine, as in other implementations; the macro picks by the number of
 * arguments, in C and C++. */
void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync);
#define SYMM_SYNC_PICK(_1, _2, _3, _4, NAME, ...) NAME
#define shmem_sync(...)                                                                        \
    SYMM_SYNC_PICK(__VA_ARGS__, shmem_sync, symm_sync_arity, symm_sync_arity, shmem_team_sync, \
                   symm_sync_arity)(__VA_ARGS__)
void shmem_broadcast32(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long *pSync);
void shmem_broadcast64(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long *pSync);
void shmem_collect32(void *dest, const void *source, size_t nelems, int PE_start,
                     int logPE_stride, int PE_size, long *pSync);
void shmem_collect64(void *dest, const void *source, size_t nelems, int PE_start,
                     int logPE_stride, int PE_size, long *pSync);
void shmem_fcollect32(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync);
void shmem_fcollect64(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync);
void shmem_alltoall32(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync);
void shmem_alltoall64(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync);
void shmem_alltoalls32(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_alltoalls64(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync);
/* Typed reductions (shmem_int_sum_to_all, ...): and, or, xor for the types of the table with
 * TOBIT; the MINMAX and SUMPROD operators of those with TOALL. */
#include "symm/gen/shmem_active.h"

/* ---- Profiling interface -------------------------------------------------------------------
 * Every routine named shmem_X above and in shmemx.h answers to pshmem_X too (pshmem.h), which
 * is always the library's own: a profiling tool defines shmem_X and calls pshmem_X from it.
 * shmem_pcontrol is the tool's to define; the library's does nothing, for any level (0:
 * profiling off, 1: on, the default, 2: buffers flushed, others as the tool defines) and any
 * arguments after it. */
void shmem_pcontrol(const int level, ...);

/* ---- C11 type-generic selectors ------------------------------------------------------------
 * shmem_put(dest, source, nelems, pe) picks shmem_TYPE_put from the type of *dest; the same
 * names with a leading context argument pick the shmem_ctx_ forms. Atomics, signals and waits
 * pick by the type of their first pointer, team collectives by the type of *dest. Each family
 * takes the rows whose column is set and GEN (the bitwise families BGEN too). */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus) && \
    !defined(SYMM_BUILDING)
#define SYMM_SEL_ANY_0(...)
#define SYMM_SEL_ANY_1(...) __VA_ARGS__
#define SYMM_SEL_BIT_00(...)
#define SYMM_SEL_BIT_10(...) __VA_ARGS__
#define SYMM_SEL_BIT_01(...) __VA_ARGS__
/* SYMM_ROW_<FAMILY>[_CTX](OP, row...): the association of one row, or nothing. */
#define SYMM_ROW_(P, COL, SEL, OP, NAME, T) SYMM_SEL_##SEL(SYMM_IF_##COL(T: P##NAME##_##OP, ))
#define SYMM_ROW_FAMILY(FAM, P, OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD,  \
                        GEN, BGEN, SCAN, ...)                                                   \
    SYMM_ROW_FAMILY_##FAM(P, OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD,    \
                          GEN, BGEN, SCAN)
#define SYMM_ROW_FAMILY_RMA(P, OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD,   \
                            GEN, BGEN, SCAN)                                                    \
    SYMM_ROW_(P, RMA, ANY_##GEN, OP, NAME, T)
#define SYMM_ROW_FAMILY_AMO(P, OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD,   \
                            GEN, BGEN, SCAN)                                                    \
    SYMM_ROW_(P, AMO, ANY_##GEN, OP, NAME, T)
#define SYMM_ROW_FAMILY_EXT(P, OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD,   \
                            GEN, BGEN, SCAN)                                                    \
    SYMM_ROW_(P, EXT, ANY_##GEN, OP, NAME, T)
#define SYMM_ROW_FAMILY_BIT(P, OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD,   \
                            GEN, BGEN, SCAN)                                                    \
    SYMM_ROW_(P, BIT, BIT_##GEN##BGEN, OP, NAME, T)
#define SYMM_ROW_FAMILY_WAIT(P, OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD,  \
                             GEN, BGEN, SCAN)                                                   \
    SYMM_ROW_(P, WAIT, ANY_##GEN, OP, NAME, T)
#define SYMM_ROW_FAMILY_BITRED(P, OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX,         \
                               SUMPROD, GEN, BGEN, SCAN)                                        \
    SYMM_ROW_(P, BITRED, BIT_##GEN##BGEN, OP, NAME, T)
#define SYMM_ROW_FAMILY_MINMAX(P, OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX,         \
                               SUMPROD, GEN, BGEN, SCAN)                                        \
    SYMM_ROW_(P, MINMAX, ANY_##GEN, OP, NAME, T)
#define SYMM_ROW_FAMILY_SUMPROD(P, OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX,        \
                                SUMPROD, GEN, BGEN, SCAN)                                       \
    SYMM_ROW_(P, SUMPROD, ANY_##GEN, OP, NAME, T)
#define SYMM_ROW_FAMILY_SCAN(P, OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD,  \
                             GEN, BGEN, SCAN)                                                   \
    SYMM_ROW_(P, SCAN, ANY_##GEN, OP, NAME, T)
/* The table's rows for one family, as a macro of the table's shape: A is (FAMILY, PREFIX, OP). */
#define SYMM_ROW_PICK(A, ...) SYMM_ROW_PICK_(SYMM_ROW_FAMILY, SYMM_ROW_UNPAREN A, __VA_ARGS__)
#define SYMM_ROW_PICK_(M, ...) M(__VA_ARGS__)
#define SYMM_ROW_UNPAREN(...) __VA_ARGS__
/* The routine of family FAM named P<TYPE>_OP for the type of expression E. */
#define SYMM_PICK(E, FAM, P, OP)                                                                 \
    _Generic((E), SYMM_TYPE_TABLE(SYMM_ROW_PICK, (FAM, P, OP)) default: symm_generic_no_such_type)

/* N arguments call the plain form, N + 1 the ctx form: the (N + 2)-th of
 * (arguments..., ctx form, plain form) is the one. */
#define SYMM_SEL_2(a, b, c, x, ...) x
#define SYMM_SEL_3(a, b, c, d, x, ...) x
#define SYMM_SEL_4(a, b, c, d, e, x, ...) x
#define SYMM_SEL_5(a, b, c, d, e, f, x, ...) x
#define SYMM_SEL_6(a, b, c, d, e, f, g, x, ...) x
#define SYMM_SEL_7(a, b, c, d, e, f, g, h, x, ...) x
#define SYMM_SEL_N(N, ...) SYMM_SEL_##N(__VA_ARGS__)
#define SYMM_CTX_PICK(N, FAM, OP, ...)                                                           \
    SYMM_SEL_N(N, __VA_ARGS__, SYMM_CTX_FORM, SYMM_PLAIN_FORM, ~)(FAM, OP, __VA_ARGS__)
#define SYMM_PLAIN_FORM(FAM, OP, first, ...)                                                    \
    SYMM_PICK(*(first), FAM, shmem_, OP)(first, __VA_ARGS__)
#define SYMM_CTX_FORM(FAM, OP, ctx, first, ...)                                                  \
    SYMM_PICK(*(first), FAM, shmem_ctx_, OP)(ctx, first, __VA_ARGS__)

/* Remote memory access and put with signal: N is the count of the plain form's arguments. */
#define shmem_put(...) SYMM_CTX_PICK(4, RMA, put, __VA_ARGS__)
#define shmem_get(...) SYMM_CTX_PICK(4, RMA, get, __VA_ARGS__)
#define shmem_put_nbi(...) SYMM_CTX_PICK(4, RMA, put_nbi, __VA_ARGS__)
#define shmem_get_nbi(...) SYMM_CTX_PICK(4, RMA, get_nbi, __VA_ARGS__)
#define shmem_p(...) SYMM_CTX_PICK(3, RMA, p, __VA_ARGS__)
#define shmem_g(...) SYMM_CTX_PICK(2, RMA, g, __VA_ARGS__)
#define shmem_iput(...) SYMM_CTX_PICK(6, RMA, iput, __VA_ARGS__)
#define shmem_iget(...) SYMM_CTX_PICK(6, RMA, iget, __VA_ARGS__)
#define shmem_put_signal(...) SYMM_CTX_PICK(7, RMA, put_signal, __VA_ARGS__)
#define shmem_put_signal_nbi(...) SYMM_CTX_PICK(7, RMA, put_signal_nbi, __VA_ARGS__)

/* Atomics. */
#define shmem_atomic_fetch(...) SYMM_CTX_PICK(2, EXT, atomic_fetch, __VA_ARGS__)
#define shmem_atomic_set(...) SYMM_CTX_PICK(3, EXT, atomic_set, __VA_ARGS__)
#define shmem_atomic_swap(...) SYMM_CTX_PICK(3, EXT, atomic_swap, __VA_ARGS__)
#define shmem_atomic_fetch_nbi(...) SYMM_CTX_PICK(3, EXT, atomic_fetch_nbi, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...) SYMM_CTX_PICK(4, EXT, atomic_swap_nbi, __VA_ARGS__)
#define shmem_atomic_compare_swap(...) SYMM_CTX_PICK(4, AMO, atomic_compare_swap, __VA_ARGS__)
#define shmem_atomic_fetch_inc(...) SYMM_CTX_PICK(2, AMO, atomic_fetch_inc, __VA_ARGS__)
#define shmem_atomic_inc(...) SYMM_CTX_PICK(2, AMO, atomic_inc, __VA_ARGS__)
#define shmem_atomic_fetch_add(...) SYMM_CTX_PICK(3, AMO, atomic_fetch_add, __VA_ARGS__)
#define shmem_atomic_add(...) SYMM_CTX_PICK(3, AMO, atomic_add, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...)                                                       \
    SYMM_CTX_PICK(5, AMO, atomic_compare_swap_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...) SYMM_CTX_PICK(3, AMO, atomic_fetch_inc_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...) SYMM_CTX_PICK(4, AMO, atomic_fetch_add_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_and(...) SYMM_CTX_PICK(3, BIT, atomic_fetch_and, __VA_ARGS__)
#define shmem_atomic_and(...) SYMM_CTX_PICK(3, BIT, atomic_and, __VA_ARGS__)
#define shmem_atomic_fetch_or(...) SYMM_CTX_PICK(3, BIT, atomic_fetch_or, __VA_ARGS__)
#define shmem_atomic_or(...) SYMM_CTX_PICK(3, BIT, atomic_or, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...) SYMM_CTX_PICK(3, BIT, atomic_fetch_xor, __VA_ARGS__)
#define shmem_atomic_xor(...) SYMM_CTX_PICK(3, BIT, atomic_xor, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...) SYMM_CTX_PICK(4, BIT, atomic_fetch_and_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...) SYMM_CTX_PICK(4, BIT, atomic_fetch_or_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...) SYMM_CTX_PICK(4, BIT, atomic_fetch_xor_nbi, __VA_ARGS__)

/* Waits and tests (no ctx forms). */
#define SYMM_WAIT_PICK(OP, first, ...) SYMM_PICK(*(first), WAIT, shmem_, OP)(first, __VA_ARGS__)
#define shmem_wait_until(...) SYMM_WAIT_PICK(wait_until, __VA_ARGS__)
#define shmem_wait_until_all(...) SYMM_WAIT_PICK(wait_until_all, __VA_ARGS__)
#define shmem_wait_until_any(...) SYMM_WAIT_PICK(wait_until_any, __VA_ARGS__)
#define shmem_wait_until_some(...) SYMM_WAIT_PICK(wait_until_some, __VA_ARGS__)
#define shmem_wait_until_all_vector(...) SYMM_WAIT_PICK(wait_until_all_vector, __VA_ARGS__)
#define shmem_wait_until_any_vector(...) SYMM_WAIT_PICK(wait_until_any_vector, __VA_ARGS__)
#define shmem_wait_until_some_vector(...) SYMM_WAIT_PICK(wait_until_some_vector, __VA_ARGS__)
#define shmem_test(...) SYMM_WAIT_PICK(test, __VA_ARGS__)
#define shmem_test_all(...) SYMM_WAIT_PICK(test_all, __VA_ARGS__)
#define shmem_test_any(...) SYMM_WAIT_PICK(test_any, __VA_ARGS__)
#define shmem_test_some(...) SYMM_WAIT_PICK(test_some, __VA_ARGS__)
#define shmem_test_all_vector(...) SYMM_WAIT_PICK(test_all_vector, __VA_ARGS__)
#define shmem_test_any_vector(...) SYMM_WAIT_PICK(test_any_vector, __VA_ARGS__)
#define shmem_test_some_vector(...) SYMM_WAIT_PICK(test_some_vector, __VA_ARGS__)

/* Team collectives pick by the type of *dest. */
#define SYMM_TEAM_PICK(FAM, OP, team, dest, ...)                                                 \
    SYMM_PICK(*(dest), FAM, shmem_, OP)(team, dest, __VA_ARGS__)
#define shmem_broadcast(...) SYMM_TEAM_PICK(RMA, broadcast, __VA_ARGS__)
#define shmem_collect(...) SYMM_TEAM_PICK(RMA, collect, __VA_ARGS__)
#define shmem_fcollect(...) SYMM_TEAM_PICK(RMA, fcollect, __VA_ARGS__)
#define shmem_alltoall(...) SYMM_TEAM_PICK(RMA, alltoall, __VA_ARGS__)
#define shmem_alltoalls(...) SYMM_TEAM_PICK(RMA, alltoalls, __VA_ARGS__)
#define shmem_and_reduce(...) SYMM_TEAM_PICK(BITRED, and_reduce, __VA_ARGS__)
#define shmem_or_reduce(...) SYMM_TEAM_PICK(BITRED, or_reduce, __VA_ARGS__)
#define shmem_xor_reduce(...) SYMM_TEAM_PICK(BITRED, xor_reduce, __VA_ARGS__)
#define shmem_max_reduce(...) SYMM_TEAM_PICK(MINMAX, max_reduce, __VA_ARGS__)
#define shmem_min_reduce(...) SYMM_TEAM_PICK(MINMAX, min_reduce, __VA_ARGS__)
#define shmem_sum_reduce(...) SYMM_TEAM_PICK(SUMPROD, sum_reduce, __VA_ARGS__)
#define shmem_prod_reduce(...) SYMM_TEAM_PICK(SUMPROD, prod_reduce, __VA_ARGS__)
/* Named in the error a compiler gives for a type without a typed routine. */
void symm_generic_no_such_type(void);
#endif

#ifdef __cplusplus
}

/* ---- C++ overloads -------------------------------------------------------------------------
 * In C++ the generic names of the C11 selectors above (shmem_put, shmem_p, shmem_iget, the
 * _nbi and context forms, put_signal, the atomics, wait_until and test and their families, the
 * team collectives and reductions) are overloads over the same rows: the pointer's type picks
 * the typed routine, and a pointer of a type without one is a compile error (no conversion);
 * values convert to the row's type as arguments of the typed routine do. Host code: kernels
 * call the typed names. */
#include "symm/gen/shmem_cxx.h"

/* GNU C++ (-std=gnu++NN, not -std=c++NN) has float _Complex and double _Complex as C has, and
 * programs written for other implementations pass them to the complex reductions: overloads
 * take them to the same routines. nvcc's front end defines __GNUC__ but has no such types in
 * C++, so CUDA sources go without them. */
#if defined(__GNUC__) && !defined(__STRICT_ANSI__) && !defined(__CUDACC__)
/* T is the row's std::complex type; T::value_type _Complex the GNU type of the same layout. */
#define SYMM_GNU_COMPLEX_REDUCE(NAME, T, OP)                                                     \
    __extension__ inline int shmem_##NAME##_##OP##_reduce(                                      \
        shmem_team_t team, T::value_type _Complex *dest, const T::value_type _Complex *source,  \
        size_t nreduce)                                                                         \
    {                                                                                           \
        return shmem_##NAME##_##OP##_reduce(team, reinterpret_cast<T *>(dest),                  \
                                            reinterpret_cast<const T *>(source), nreduce);      \
    }
#define SYMM_GNU_COMPLEX_TO_ALL(NAME, T, OP)                                                     \
    __extension__ inline void shmem_##NAME##_##OP##_to_all(                                     \
        T::value_type _Complex *dest, const T::value_type _Complex *source, int nreduce,        \
        int PE_start, int logPE_stride, int PE_size, T::value_type _Complex *pWrk, long *pSync) \
    {                                                                                           \
        shmem_##NAME##_##OP##_to_all(reinterpret_cast<T *>(dest),                               \
                                     reinterpret_cast<const T *>(source), nreduce, PE_start,    \
                                     logPE_stride, PE_size, reinterpret_cast<T *>(pWrk), pSync);\
    }
#define SYMM_GNU_COMPLEX_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN,  \
                             BGEN, SCAN, TOALL, TOBIT, OLD, DEV)                                \
    SYMM_IF_##SUMPROD(SYMM_OPS_SUMPROD(SYMM_GNU_COMPLEX_REDUCE, NAME, T))                       \
    SYMM_IF_##TOALL(SYMM_OPS_SUMPROD(SYMM_GNU_COMPLEX_TO_ALL, NAME, T))
SYMM_TYPE_TABLE_COMPLEX(SYMM_GNU_COMPLEX_ROW, _)
#endif
#endif
#endif
