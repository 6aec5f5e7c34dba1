/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * symm: the OpenSHMEM 1.5 C API.
 *
 * Every process of a job is a PE. A collective allocation (shmem_malloc) returns on every PE a
 * block at the same offset of its symmetric heap; global and static variables of the program
 * are symmetric too. Any PE reads and writes any PE's symmetric objects by (address, pe), with
 * no action of the target PE. Typed routines exist for every type of the type table
 * (symm/types.def); sized (8, 16, 32, 64, 128 bits) and byte (mem) forms beside them.
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
#define SYMM_DECL_RMA(NAME, T)                                                                   \
    void shmem_ctx_##NAME##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,       \
                                int pe);                                                        \
    void shmem_##NAME##_put(T *dest, const T *source, size_t nelems, int pe);                   \
    void shmem_ctx_##NAME##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,       \
                                int pe);                                                        \
    void shmem_##NAME##_get(T *dest, const T *source, size_t nelems, int pe);                   \
    void shmem_ctx_##NAME##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,   \
                                    int pe);                                                    \
    void shmem_##NAME##_put_nbi(T *dest, const T *source, size_t nelems, int pe);               \
    void shmem_ctx_##NAME##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,   \
                                    int pe);                                                    \
    void shmem_##NAME##_get_nbi(T *dest, const T *source, size_t nelems, int pe);               \
    void shmem_ctx_##NAME##_p(shmem_ctx_t ctx, T *dest, T value, int pe);                       \
    void shmem_##NAME##_p(T *dest, T value, int pe);                                            \
    T shmem_ctx_##NAME##_g(shmem_ctx_t ctx, const T *source, int pe);                           \
    T shmem_##NAME##_g(const T *source, int pe);                                                \
    void shmem_ctx_##NAME##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,      \
                                 ptrdiff_t sst, size_t nelems, int pe);                         \
    void shmem_##NAME##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,            \
                             size_t nelems, int pe);                                            \
    void shmem_ctx_##NAME##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,      \
                                 ptrdiff_t sst, size_t nelems, int pe);                         \
    void shmem_##NAME##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,            \
                             size_t nelems, int pe);

#define SYMM_DECL_RMA_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)  \
    SYMM_IF_##RMA(SYMM_DECL_RMA(NAME, T))
SYMM_TYPES(SYMM_DECL_RMA_ROW, _)

/* Sized forms move elements of SIZE bits; mem forms move bytes. */
#define SYMM_DECL_SIZED(SIZE)                                                                   \
    void shmem_ctx_put##SIZE(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,     \
                             int pe);                                                           \
    void shmem_put##SIZE(void *dest, const void *source, size_t nelems, int pe);                \
    void shmem_ctx_get##SIZE(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,     \
                             int pe);                                                           \
    void shmem_get##SIZE(void *dest, const void *source, size_t nelems, int pe);                \
    void shmem_ctx_put##SIZE##_nbi(shmem_ctx_t ctx, void *dest, const void *source,             \
                                   size_t nelems, int pe);                                      \
    void shmem_put##SIZE##_nbi(void *dest, const void *source, size_t nelems, int pe);          \
    void shmem_ctx_get##SIZE##_nbi(shmem_ctx_t ctx, void *dest, const void *source,             \
                                   size_t nelems, int pe);                                      \
    void shmem_get##SIZE##_nbi(void *dest, const void *source, size_t nelems, int pe);          \
    void shmem_ctx_iput##SIZE(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,   \
                              ptrdiff_t sst, size_t nelems, int pe);                            \
    void shmem_iput##SIZE(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,         \
                          size_t nelems, int pe);                                               \
    void shmem_ctx_iget##SIZE(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,   \
                              ptrdiff_t sst, size_t nelems, int pe);                            \
    void shmem_iget##SIZE(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,         \
                          size_t nelems, int pe);
#define SYMM_SIZES(X) X(8) X(16) X(32) X(64) X(128)
SYMM_SIZES(SYMM_DECL_SIZED)

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
#define SYMM_DECL_AMO_EXT(NAME, T)                                                               \
    T shmem_ctx_##NAME##_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe);                 \
    T shmem_##NAME##_atomic_fetch(const T *source, int pe);                                     \
    void shmem_ctx_##NAME##_atomic_set(shmem_ctx_t ctx, T *dest, T value, int pe);              \
    void shmem_##NAME##_atomic_set(T *dest, T value, int pe);                                   \
    T shmem_ctx_##NAME##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe);                \
    T shmem_##NAME##_atomic_swap(T *dest, T value, int pe);                                     \
    void shmem_ctx_##NAME##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, const T *source,        \
                                             int pe);                                           \
    void shmem_##NAME##_atomic_fetch_nbi(T *fetch, const T *source, int pe);                    \
    void shmem_ctx_##NAME##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value,        \
                                            int pe);                                            \
    void shmem_##NAME##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe);
#define SYMM_DECL_AMO_STD(NAME, T)                                                               \
    T shmem_ctx_##NAME##_atomic_compare_swap(shmem_ctx_t ctx, T *dest, T cond, T value, int pe);\
    T shmem_##NAME##_atomic_compare_swap(T *dest, T cond, T value, int pe);                     \
    T shmem_ctx_##NAME##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe);                    \
    T shmem_##NAME##_atomic_fetch_inc(T *dest, int pe);                                         \
    void shmem_ctx_##NAME##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe);                       \
    void shmem_##NAME##_atomic_inc(T *dest, int pe);                                            \
    T shmem_ctx_##NAME##_atomic_fetch_add(shmem_ctx_t ctx, T *dest, T value, int pe);           \
    T shmem_##NAME##_atomic_fetch_add(T *dest, T value, int pe);                                \
    void shmem_ctx_##NAME##_atomic_add(shmem_ctx_t ctx, T *dest, T value, int pe);              \
    void shmem_##NAME##_atomic_add(T *dest, T value, int pe);                                   \
    void shmem_ctx_##NAME##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T cond, \
                                                    T value, int pe);                           \
    void shmem_##NAME##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe);    \
    void shmem_ctx_##NAME##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, T *dest, int pe);   \
    void shmem_##NAME##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe);                        \
    void shmem_ctx_##NAME##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value,   \
                                                 int pe);                                       \
    void shmem_##NAME##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe);
#define SYMM_DECL_AMO_BIT1(NAME, T, OP)                                                          \
    T shmem_ctx_##NAME##_atomic_fetch_##OP(shmem_ctx_t ctx, T *dest, T value, int pe);          \
    T shmem_##NAME##_atomic_fetch_##OP(T *dest, T value, int pe);                               \
    void shmem_ctx_##NAME##_atomic_##OP(shmem_ctx_t ctx, T *dest, T value, int pe);             \
    void shmem_##NAME##_atomic_##OP(T *dest, T value, int pe);                                  \
    void shmem_ctx_##NAME##_atomic_fetch_##OP##_nbi(shmem_ctx_t ctx, T *fetch, T *dest,         \
                                                    T value, int pe);                           \
    void shmem_##NAME##_atomic_fetch_##OP##_nbi(T *fetch, T *dest, T value, int pe);
#define SYMM_DECL_AMO_BIT(NAME, T)                                                               \
    SYMM_DECL_AMO_BIT1(NAME, T, and) SYMM_DECL_AMO_BIT1(NAME, T, or)                           \
    SYMM_DECL_AMO_BIT1(NAME, T, xor)
#define SYMM_DECL_AMO_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)  \
    SYMM_IF_##EXT(SYMM_DECL_AMO_EXT(NAME, T)) SYMM_IF_##AMO(SYMM_DECL_AMO_STD(NAME, T))       \
    SYMM_IF_##BIT(SYMM_DECL_AMO_BIT(NAME, T))
SYMM_TYPES(SYMM_DECL_AMO_ROW, _)

/* Deprecated atomic names (OpenSHMEM 1.3), for int, long and long long (and float and double
 * for swap, fetch and set). */
#define SYMM_DECL_AMO_OLD_INT(NAME, T)                                                           \
    T shmem_##NAME##_cswap(T *dest, T cond, T value, int pe);                                   \
    T shmem_##NAME##_fadd(T *dest, T value, int pe);                                            \
    T shmem_##NAME##_finc(T *dest, int pe);                                                     \
    void shmem_##NAME##_add(T *dest, T value, int pe);                                          \
    void shmem_##NAME##_inc(T *dest, int pe);
#define SYMM_DECL_AMO_OLD_ANY(NAME, T)                                                           \
    T shmem_##NAME##_swap(T *dest, T value, int pe);                                            \
    T shmem_##NAME##_fetch(const T *source, int pe);                                            \
    void shmem_##NAME##_set(T *dest, T value, int pe);
SYMM_DECL_AMO_OLD_INT(int, int)
SYMM_DECL_AMO_OLD_INT(long, long)
SYMM_DECL_AMO_OLD_INT(longlong, long long)
SYMM_DECL_AMO_OLD_ANY(int, int)
SYMM_DECL_AMO_OLD_ANY(long, long)
SYMM_DECL_AMO_OLD_ANY(longlong, long long)
SYMM_DECL_AMO_OLD_ANY(float, float)
SYMM_DECL_AMO_OLD_ANY(double, double)
long shmem_swap(long *dest, long value, int pe);

/* ---- Signals -------------------------------------------------------------------------------
 * put_signal: the data is delivered, then the signal word is updated (SHMEM_SIGNAL_SET or
 * SHMEM_SIGNAL_ADD): a PE that sees the signal sees the data. */
#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1
#define SYMM_DECL_PUT_SIGNAL(NAME, T)                                                            \
    void shmem_ctx_##NAME##_put_signal(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,\
                                       uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);\
    void shmem_##NAME##_put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, \
                                   uint64_t signal, int sig_op, int pe);                        \
    void shmem_ctx_##NAME##_put_signal_nbi(shmem_ctx_t ctx, T *dest, const T *source,           \
                                           size_t nelems, uint64_t *sig_addr, uint64_t signal,  \
                                           int sig_op, int pe);                                 \
    void shmem_##NAME##_put_signal_nbi(T *dest, const T *source, size_t nelems,                 \
                                       uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
#define SYMM_DECL_PUT_SIGNAL_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, \
                                 GEN)                                                           \
    SYMM_IF_##RMA(SYMM_DECL_PUT_SIGNAL(NAME, T))
SYMM_TYPES(SYMM_DECL_PUT_SIGNAL_ROW, _)
#define SYMM_DECL_PUT_SIGNAL_BITS(SIZE)                                                          \
    void shmem_ctx_put##SIZE##_signal(shmem_ctx_t ctx, void *dest, const void *source,          \
                                      size_t nelems, uint64_t *sig_addr, uint64_t signal,       \
                                      int sig_op, int pe);                                      \
    void shmem_put##SIZE##_signal(void *dest, const void *source, size_t nelems,                \
                                  uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);     \
    void shmem_ctx_put##SIZE##_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source,      \
                                          size_t nelems, uint64_t *sig_addr, uint64_t signal,   \
                                          int sig_op, int pe);                                  \
    void shmem_put##SIZE##_signal_nbi(void *dest, const void *source, size_t nelems,            \
                                      uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
SYMM_SIZES(SYMM_DECL_PUT_SIGNAL_BITS)
SYMM_DECL_PUT_SIGNAL_BITS(mem)
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
#define SYMM_DECL_WAIT(NAME, T)                                                                  \
    void shmem_##NAME##_wait_until(T *ivar, int cmp, T cmp_value);                              \
    void shmem_##NAME##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp,     \
                                       T cmp_value);                                            \
    size_t shmem_##NAME##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp,   \
                                         T cmp_value);                                          \
    size_t shmem_##NAME##_wait_until_some(T *ivars, size_t nelems, size_t *indices,             \
                                          const int *status, int cmp, T cmp_value);             \
    void shmem_##NAME##_wait_until_all_vector(T *ivars, size_t nelems, const int *status,       \
                                              int cmp, T *cmp_values);                          \
    size_t shmem_##NAME##_wait_until_any_vector(T *ivars, size_t nelems, const int *status,     \
                                                int cmp, T *cmp_values);                        \
    size_t shmem_##NAME##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices,      \
                                                 const int *status, int cmp, T *cmp_values);    \
    int shmem_##NAME##_test(T *ivar, int cmp, T cmp_value);                                     \
    int shmem_##NAME##_test_all(T *ivars, size_t nelems, const int *status, int cmp,            \
                                T cmp_value);                                                   \
    size_t shmem_##NAME##_test_any(T *ivars, size_t nelems, const int *status, int cmp,         \
                                   T cmp_value);                                                \
    size_t shmem_##NAME##_test_some(T *ivars, size_t nelems, size_t *indices, const int *status,\
                                    int cmp, T cmp_value);                                      \
    int shmem_##NAME##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp,     \
                                       T *cmp_values);                                          \
    size_t shmem_##NAME##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp,  \
                                          T *cmp_values);                                       \
    size_t shmem_##NAME##_test_some_vector(T *ivars, size_t nelems, size_t *indices,            \
                                           const int *status, int cmp, T *cmp_values);          \
    void shmem_##NAME##_wait(T *ivar, T cmp_value);
#define SYMM_DECL_WAIT_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN) \
    SYMM_IF_##WAIT(SYMM_DECL_WAIT(NAME, T))
SYMM_TYPES(SYMM_DECL_WAIT_ROW, _)
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
 * combine element-wise in team order, so every PE gets bit-identical results. */
int shmem_sync(shmem_team_t team);
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems);
#define SYMM_DECL_COLL(NAME, T)                                                                  \
    int shmem_##NAME##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems,    \
                                 int PE_root);                                                  \
    int shmem_##NAME##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems);     \
    int shmem_##NAME##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems);    \
    int shmem_##NAME##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems);    \
    int shmem_##NAME##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst,    \
                                 ptrdiff_t sst, size_t nelems);
#define SYMM_DECL_COLL_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN) \
    SYMM_IF_##RMA(SYMM_DECL_COLL(NAME, T))
SYMM_TYPES(SYMM_DECL_COLL_ROW, _)

#define SYMM_DECL_REDUCE(NAME, T, OP)                                                            \
    int shmem_##NAME##_##OP##_reduce(shmem_team_t team, T *dest, const T *source,               \
                                     size_t nreduce);
#define SYMM_DECL_REDUCE_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)\
    SYMM_IF_##BITRED(SYMM_DECL_REDUCE(NAME, T, and) SYMM_DECL_REDUCE(NAME, T, or)              \
                     SYMM_DECL_REDUCE(NAME, T, xor))                                            \
    SYMM_IF_##MINMAX(SYMM_DECL_REDUCE(NAME, T, max) SYMM_DECL_REDUCE(NAME, T, min))            \
    SYMM_IF_##SUMPROD(SYMM_DECL_REDUCE(NAME, T, sum) SYMM_DECL_REDUCE(NAME, T, prod))
SYMM_TYPES(SYMM_DECL_REDUCE_ROW, _)
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
SYMM_DECL_REDUCE(complexd, symm_complexd_t, sum)
SYMM_DECL_REDUCE(complexd, symm_complexd_t, prod)
SYMM_DECL_REDUCE(complexf, symm_complexf_t, sum)
SYMM_DECL_REDUCE(complexf, symm_complexf_t, prod)

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
#define SYMM_DECL_TO_ALL(NAME, T, OP)                                                            \
    void shmem_##NAME##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start,      \
                                      int logPE_stride, int PE_size, T *pWrk, long *pSync);
#define SYMM_DECL_TO_ALL_BIT(NAME, T)                                                            \
    SYMM_DECL_TO_ALL(NAME, T, and) SYMM_DECL_TO_ALL(NAME, T, or) SYMM_DECL_TO_ALL(NAME, T, xor)
#define SYMM_DECL_TO_ALL_ARITH(NAME, T)                                                          \
    SYMM_DECL_TO_ALL(NAME, T, max) SYMM_DECL_TO_ALL(NAME, T, min)                              \
    SYMM_DECL_TO_ALL(NAME, T, sum) SYMM_DECL_TO_ALL(NAME, T, prod)
SYMM_DECL_TO_ALL_BIT(short, short)
SYMM_DECL_TO_ALL_BIT(int, int)
SYMM_DECL_TO_ALL_BIT(long, long)
SYMM_DECL_TO_ALL_BIT(longlong, long long)
SYMM_DECL_TO_ALL_ARITH(short, short)
SYMM_DECL_TO_ALL_ARITH(int, int)
SYMM_DECL_TO_ALL_ARITH(long, long)
SYMM_DECL_TO_ALL_ARITH(longlong, long long)
SYMM_DECL_TO_ALL_ARITH(float, float)
SYMM_DECL_TO_ALL_ARITH(double, double)
SYMM_DECL_TO_ALL_ARITH(longdouble, long double)
SYMM_DECL_TO_ALL(complexd, symm_complexd_t, sum)
SYMM_DECL_TO_ALL(complexd, symm_complexd_t, prod)
SYMM_DECL_TO_ALL(complexf, symm_complexf_t, sum)
SYMM_DECL_TO_ALL(complexf, symm_complexf_t, prod)

/* ---- Profiling interface -------------------------------------------------------------------
 * Every routine named shmem_X above and in shmemx.h answers to pshmem_X too (pshmem.h), which
 * is always the library's own: a profiling tool defines shmem_X and calls pshmem_X from it.
 * shmem_pcontrol is the tool's to define; the library's does nothing, for any level (0:
 * profiling off, 1: on, the default, 2: buffers flushed, others as the tool defines) and any
 * arguments after it. */
void shmem_pcontrol(const int level, ...);

/* ---- C11 type-generic selectors ------------------------------------------------------------
 * shmem_put(dest, source, nelems, pe) picks shmem_TYPE_put from the type of *dest; the same
 * names with a leading context argument pick the shmem_ctx_ forms. */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus) && \
    !defined(SYMM_BUILDING)
#define SYMM_ARG5(a, b, c, d, e, ...) e
#define SYMM_ARG6(a, b, c, d, e, f, ...) f
#define SYMM_ARG8(a, b, c, d, e, f, g, h, ...) h
/* One association per row with GEN and RMA set; OP names the routine. */
#define SYMM_GEN_ROW(OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)       \
    SYMM_IF_##GEN(SYMM_IF_##RMA(T: shmem_##NAME##_##OP,))
#define SYMM_GEN_ROW_CTX(OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)   \
    SYMM_IF_##GEN(SYMM_IF_##RMA(T: shmem_ctx_##NAME##_##OP,))
#define SYMM_GEN_RMA(E, ROW, OP) _Generic((E), SYMM_TYPES(ROW, OP) default: symm_generic_no_such_type)
#define SYMM_ARG5(a, b, c, d, e, ...) e
#define SYMM_ARG6(a, b, c, d, e, f, ...) f
#define SYMM_ARG8(a, b, c, d, e, f, g, h, ...) h

/* Two forms per name, told apart by the number of arguments. */
#define SYMM_GEN_4(OP, d, s, n, pe) SYMM_GEN_RMA(*(d), SYMM_GEN_ROW, OP)(d, s, n, pe)
#define SYMM_GEN_5(OP, c, d, s, n, pe) SYMM_GEN_RMA(*(d), SYMM_GEN_ROW_CTX, OP)(c, d, s, n, pe)
#define symm_gen4_put(...) SYMM_GEN_4(put, __VA_ARGS__)
#define symm_gen5_put(...) SYMM_GEN_5(put, __VA_ARGS__)
#define symm_gen4_get(...) SYMM_GEN_4(get, __VA_ARGS__)
#define symm_gen5_get(...) SYMM_GEN_5(get, __VA_ARGS__)
#define symm_gen4_put_nbi(...) SYMM_GEN_4(put_nbi, __VA_ARGS__)
#define symm_gen5_put_nbi(...) SYMM_GEN_5(put_nbi, __VA_ARGS__)
#define symm_gen4_get_nbi(...) SYMM_GEN_4(get_nbi, __VA_ARGS__)
#define symm_gen5_get_nbi(...) SYMM_GEN_5(get_nbi, __VA_ARGS__)
#define shmem_put(...) SYMM_ARG6(__VA_ARGS__, symm_gen5_put, symm_gen4_put, ~)(__VA_ARGS__)
#define shmem_get(...) SYMM_ARG6(__VA_ARGS__, symm_gen5_get, symm_gen4_get, ~)(__VA_ARGS__)
#define shmem_put_nbi(...)                                                                       \
    SYMM_ARG6(__VA_ARGS__, symm_gen5_put_nbi, symm_gen4_put_nbi, ~)(__VA_ARGS__)
#define shmem_get_nbi(...)                                                                       \
    SYMM_ARG6(__VA_ARGS__, symm_gen5_get_nbi, symm_gen4_get_nbi, ~)(__VA_ARGS__)

#define symm_gen3_p(d, v, pe) SYMM_GEN_RMA(*(d), SYMM_GEN_ROW, p)(d, v, pe)
#define symm_gen4_p(c, d, v, pe) SYMM_GEN_RMA(*(d), SYMM_GEN_ROW_CTX, p)(c, d, v, pe)
#define shmem_p(...) SYMM_ARG5(__VA_ARGS__, symm_gen4_p, symm_gen3_p, ~)(__VA_ARGS__)
#define symm_gen2_g(s, pe) SYMM_GEN_RMA(*(s), SYMM_GEN_ROW, g)(s, pe)
#define symm_gen3_g(c, s, pe) SYMM_GEN_RMA(*(s), SYMM_GEN_ROW_CTX, g)(c, s, pe)
#define shmem_g(...) SYMM_ARG5(__VA_ARGS__, ~, symm_gen3_g, symm_gen2_g, ~)(__VA_ARGS__)

#define symm_gen6_iput(d, s, dst, sst, n, pe)                                                    \
    SYMM_GEN_RMA(*(d), SYMM_GEN_ROW, iput)(d, s, dst, sst, n, pe)
#define symm_gen7_iput(c, d, s, dst, sst, n, pe)                                                 \
    SYMM_GEN_RMA(*(d), SYMM_GEN_ROW_CTX, iput)(c, d, s, dst, sst, n, pe)
#define shmem_iput(...) SYMM_ARG8(__VA_ARGS__, symm_gen7_iput, symm_gen6_iput, ~)(__VA_ARGS__)
#define symm_gen6_iget(d, s, dst, sst, n, pe)                                                    \
    SYMM_GEN_RMA(*(d), SYMM_GEN_ROW, iget)(d, s, dst, sst, n, pe)
#define symm_gen7_iget(c, d, s, dst, sst, n, pe)                                                 \
    SYMM_GEN_RMA(*(d), SYMM_GEN_ROW_CTX, iget)(c, d, s, dst, sst, n, pe)
#define shmem_iget(...) SYMM_ARG8(__VA_ARGS__, symm_gen7_iget, symm_gen6_iget, ~)(__VA_ARGS__)

/* Atomics, signals and waits pick their routine the same way; each family keeps the rows
 * whose column is set. */
#define SYMM_ROW_EXT(OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN) \
    SYMM_IF_##GEN(SYMM_IF_##EXT(T: shmem_##NAME##_##OP,))
#define SYMM_ROWC_EXT(OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN) \
    SYMM_IF_##GEN(SYMM_IF_##EXT(T: shmem_ctx_##NAME##_##OP,))
#define SYMM_ROW_AMO(OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN) \
    SYMM_IF_##GEN(SYMM_IF_##AMO(T: shmem_##NAME##_##OP,))
#define SYMM_ROWC_AMO(OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN) \
    SYMM_IF_##GEN(SYMM_IF_##AMO(T: shmem_ctx_##NAME##_##OP,))
#define SYMM_ROW_BIT(OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN) \
    SYMM_IF_##GEN(SYMM_IF_##BIT(T: shmem_##NAME##_##OP,))
#define SYMM_ROWC_BIT(OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN) \
    SYMM_IF_##GEN(SYMM_IF_##BIT(T: shmem_ctx_##NAME##_##OP,))
#define SYMM_ROW_WAIT(OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN) \
    SYMM_IF_##GEN(SYMM_IF_##WAIT(T: shmem_##NAME##_##OP,))
#define SYMM_ROWC_WAIT(OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN) \
    SYMM_IF_##GEN(SYMM_IF_##WAIT(T: shmem_ctx_##NAME##_##OP,))
#define SYMM_ROW_RMA(OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN) \
    SYMM_IF_##GEN(SYMM_IF_##RMA(T: shmem_##NAME##_##OP,))
#define SYMM_ROWC_RMA(OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN) \
    SYMM_IF_##GEN(SYMM_IF_##RMA(T: shmem_ctx_##NAME##_##OP,))
#define SYMM_PICK(E, ROW, OP)                                                                   \
    _Generic((E), SYMM_TYPES(ROW, OP) ROW##_MORE(OP) default: symm_generic_no_such_type)
/* What a family adds to its rows: the types the standard defines it for that have no row of
 * their own in the selectors. int8_t, int16_t, int32_t and int64_t are signed char, short, int,
 * long or long long under another name, rows without bitwise routines, so the bitwise families
 * name them (the unsigned fixed-width types are always one of the unsigned rows); the complex
 * types have sums and products only. */
#define SYMM_MORE_FIXED(P, OP) int32_t: P##int32_##OP, int64_t: P##int64_##OP,
#define SYMM_ROW_BIT_MORE(OP) SYMM_MORE_FIXED(shmem_, OP)
#define SYMM_ROWC_BIT_MORE(OP) SYMM_MORE_FIXED(shmem_ctx_, OP)
#define SYMM_ROW_BITRED_MORE(OP)                                                                \
    int8_t: shmem_int8_##OP, int16_t: shmem_int16_##OP, SYMM_MORE_FIXED(shmem_, OP)
#define SYMM_ROW_SUMPROD_MORE(OP)                                                               \
    double _Complex: shmem_complexd_##OP, float _Complex: shmem_complexf_##OP,
#define SYMM_ROW_EXT_MORE(OP)
#define SYMM_ROWC_EXT_MORE(OP)
#define SYMM_ROW_AMO_MORE(OP)
#define SYMM_ROWC_AMO_MORE(OP)
#define SYMM_ROW_WAIT_MORE(OP)
#define SYMM_ROWC_WAIT_MORE(OP)
#define SYMM_ROW_RMA_MORE(OP)
#define SYMM_ROWC_RMA_MORE(OP)
#define SYMM_ROW_MINMAX_MORE(OP)
#define SYMM_ARGSEL4(x0, x1, x2, y, ...) y
#define SYMM_ARGSEL5(x0, x1, x2, x3, y, ...) y
#define SYMM_ARGSEL6(x0, x1, x2, x3, x4, y, ...) y
#define SYMM_ARGSEL7(x0, x1, x2, x3, x4, x5, y, ...) y
#define SYMM_ARGSEL9(x0, x1, x2, x3, x4, x5, x6, x7, y, ...) y
#define symm_g2_atomic_fetch(a0, a1) SYMM_PICK(*(a0), SYMM_ROW_EXT, atomic_fetch)(a0, a1)
#define symm_gc2_atomic_fetch(c, a0, a1) SYMM_PICK(*(a0), SYMM_ROWC_EXT, atomic_fetch)(c, a0, a1)
#define shmem_atomic_fetch(...) SYMM_ARGSEL4(__VA_ARGS__, symm_gc2_atomic_fetch, symm_g2_atomic_fetch, ~)(__VA_ARGS__)
#define symm_g3_atomic_set(a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROW_EXT, atomic_set)(a0, a1, a2)
#define symm_gc3_atomic_set(c, a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROWC_EXT, atomic_set)(c, a0, a1, a2)
#define shmem_atomic_set(...) SYMM_ARGSEL5(__VA_ARGS__, symm_gc3_atomic_set, symm_g3_atomic_set, ~)(__VA_ARGS__)
#define symm_g3_atomic_swap(a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROW_EXT, atomic_swap)(a0, a1, a2)
#define symm_gc3_atomic_swap(c, a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROWC_EXT, atomic_swap)(c, a0, a1, a2)
#define shmem_atomic_swap(...) SYMM_ARGSEL5(__VA_ARGS__, symm_gc3_atomic_swap, symm_g3_atomic_swap, ~)(__VA_ARGS__)
#define symm_g3_atomic_fetch_nbi(a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROW_EXT, atomic_fetch_nbi)(a0, a1, a2)
#define symm_gc3_atomic_fetch_nbi(c, a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROWC_EXT, atomic_fetch_nbi)(c, a0, a1, a2)
#define shmem_atomic_fetch_nbi(...) SYMM_ARGSEL5(__VA_ARGS__, symm_gc3_atomic_fetch_nbi, symm_g3_atomic_fetch_nbi, ~)(__VA_ARGS__)
#define symm_g4_atomic_swap_nbi(a0, a1, a2, a3) SYMM_PICK(*(a0), SYMM_ROW_EXT, atomic_swap_nbi)(a0, a1, a2, a3)
#define symm_gc4_atomic_swap_nbi(c, a0, a1, a2, a3) SYMM_PICK(*(a0), SYMM_ROWC_EXT, atomic_swap_nbi)(c, a0, a1, a2, a3)
#define shmem_atomic_swap_nbi(...) SYMM_ARGSEL6(__VA_ARGS__, symm_gc4_atomic_swap_nbi, symm_g4_atomic_swap_nbi, ~)(__VA_ARGS__)
#define symm_g4_atomic_compare_swap(a0, a1, a2, a3) SYMM_PICK(*(a0), SYMM_ROW_AMO, atomic_compare_swap)(a0, a1, a2, a3)
#define symm_gc4_atomic_compare_swap(c, a0, a1, a2, a3) SYMM_PICK(*(a0), SYMM_ROWC_AMO, atomic_compare_swap)(c, a0, a1, a2, a3)
#define shmem_atomic_compare_swap(...) SYMM_ARGSEL6(__VA_ARGS__, symm_gc4_atomic_compare_swap, symm_g4_atomic_compare_swap, ~)(__VA_ARGS__)
#define symm_g2_atomic_fetch_inc(a0, a1) SYMM_PICK(*(a0), SYMM_ROW_AMO, atomic_fetch_inc)(a0, a1)
#define symm_gc2_atomic_fetch_inc(c, a0, a1) SYMM_PICK(*(a0), SYMM_ROWC_AMO, atomic_fetch_inc)(c, a0, a1)
#define shmem_atomic_fetch_inc(...) SYMM_ARGSEL4(__VA_ARGS__, symm_gc2_atomic_fetch_inc, symm_g2_atomic_fetch_inc, ~)(__VA_ARGS__)
#define symm_g2_atomic_inc(a0, a1) SYMM_PICK(*(a0), SYMM_ROW_AMO, atomic_inc)(a0, a1)
#define symm_gc2_atomic_inc(c, a0, a1) SYMM_PICK(*(a0), SYMM_ROWC_AMO, atomic_inc)(c, a0, a1)
#define shmem_atomic_inc(...) SYMM_ARGSEL4(__VA_ARGS__, symm_gc2_atomic_inc, symm_g2_atomic_inc, ~)(__VA_ARGS__)
#define symm_g3_atomic_fetch_add(a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROW_AMO, atomic_fetch_add)(a0, a1, a2)
#define symm_gc3_atomic_fetch_add(c, a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROWC_AMO, atomic_fetch_add)(c, a0, a1, a2)
#define shmem_atomic_fetch_add(...) SYMM_ARGSEL5(__VA_ARGS__, symm_gc3_atomic_fetch_add, symm_g3_atomic_fetch_add, ~)(__VA_ARGS__)
#define symm_g3_atomic_add(a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROW_AMO, atomic_add)(a0, a1, a2)
#define symm_gc3_atomic_add(c, a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROWC_AMO, atomic_add)(c, a0, a1, a2)
#define shmem_atomic_add(...) SYMM_ARGSEL5(__VA_ARGS__, symm_gc3_atomic_add, symm_g3_atomic_add, ~)(__VA_ARGS__)
#define symm_g5_atomic_compare_swap_nbi(a0, a1, a2, a3, a4) SYMM_PICK(*(a0), SYMM_ROW_AMO, atomic_compare_swap_nbi)(a0, a1, a2, a3, a4)
#define symm_gc5_atomic_compare_swap_nbi(c, a0, a1, a2, a3, a4) SYMM_PICK(*(a0), SYMM_ROWC_AMO, atomic_compare_swap_nbi)(c, a0, a1, a2, a3, a4)
#define shmem_atomic_compare_swap_nbi(...) SYMM_ARGSEL7(__VA_ARGS__, symm_gc5_atomic_compare_swap_nbi, symm_g5_atomic_compare_swap_nbi, ~)(__VA_ARGS__)
#define symm_g3_atomic_fetch_inc_nbi(a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROW_AMO, atomic_fetch_inc_nbi)(a0, a1, a2)
#define symm_gc3_atomic_fetch_inc_nbi(c, a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROWC_AMO, atomic_fetch_inc_nbi)(c, a0, a1, a2)
#define shmem_atomic_fetch_inc_nbi(...) SYMM_ARGSEL5(__VA_ARGS__, symm_gc3_atomic_fetch_inc_nbi, symm_g3_atomic_fetch_inc_nbi, ~)(__VA_ARGS__)
#define symm_g4_atomic_fetch_add_nbi(a0, a1, a2, a3) SYMM_PICK(*(a0), SYMM_ROW_AMO, atomic_fetch_add_nbi)(a0, a1, a2, a3)
#define symm_gc4_atomic_fetch_add_nbi(c, a0, a1, a2, a3) SYMM_PICK(*(a0), SYMM_ROWC_AMO, atomic_fetch_add_nbi)(c, a0, a1, a2, a3)
#define shmem_atomic_fetch_add_nbi(...) SYMM_ARGSEL6(__VA_ARGS__, symm_gc4_atomic_fetch_add_nbi, symm_g4_atomic_fetch_add_nbi, ~)(__VA_ARGS__)
#define symm_g3_atomic_fetch_and(a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROW_BIT, atomic_fetch_and)(a0, a1, a2)
#define symm_gc3_atomic_fetch_and(c, a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROWC_BIT, atomic_fetch_and)(c, a0, a1, a2)
#define shmem_atomic_fetch_and(...) SYMM_ARGSEL5(__VA_ARGS__, symm_gc3_atomic_fetch_and, symm_g3_atomic_fetch_and, ~)(__VA_ARGS__)
#define symm_g3_atomic_and(a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROW_BIT, atomic_and)(a0, a1, a2)
#define symm_gc3_atomic_and(c, a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROWC_BIT, atomic_and)(c, a0, a1, a2)
#define shmem_atomic_and(...) SYMM_ARGSEL5(__VA_ARGS__, symm_gc3_atomic_and, symm_g3_atomic_and, ~)(__VA_ARGS__)
#define symm_g3_atomic_fetch_or(a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROW_BIT, atomic_fetch_or)(a0, a1, a2)
#define symm_gc3_atomic_fetch_or(c, a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROWC_BIT, atomic_fetch_or)(c, a0, a1, a2)
#define shmem_atomic_fetch_or(...) SYMM_ARGSEL5(__VA_ARGS__, symm_gc3_atomic_fetch_or, symm_g3_atomic_fetch_or, ~)(__VA_ARGS__)
#define symm_g3_atomic_or(a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROW_BIT, atomic_or)(a0, a1, a2)
#define symm_gc3_atomic_or(c, a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROWC_BIT, atomic_or)(c, a0, a1, a2)
#define shmem_atomic_or(...) SYMM_ARGSEL5(__VA_ARGS__, symm_gc3_atomic_or, symm_g3_atomic_or, ~)(__VA_ARGS__)
#define symm_g3_atomic_fetch_xor(a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROW_BIT, atomic_fetch_xor)(a0, a1, a2)
#define symm_gc3_atomic_fetch_xor(c, a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROWC_BIT, atomic_fetch_xor)(c, a0, a1, a2)
#define shmem_atomic_fetch_xor(...) SYMM_ARGSEL5(__VA_ARGS__, symm_gc3_atomic_fetch_xor, symm_g3_atomic_fetch_xor, ~)(__VA_ARGS__)
#define symm_g3_atomic_xor(a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROW_BIT, atomic_xor)(a0, a1, a2)
#define symm_gc3_atomic_xor(c, a0, a1, a2) SYMM_PICK(*(a0), SYMM_ROWC_BIT, atomic_xor)(c, a0, a1, a2)
#define shmem_atomic_xor(...) SYMM_ARGSEL5(__VA_ARGS__, symm_gc3_atomic_xor, symm_g3_atomic_xor, ~)(__VA_ARGS__)
#define symm_g4_atomic_fetch_and_nbi(a0, a1, a2, a3) SYMM_PICK(*(a0), SYMM_ROW_BIT, atomic_fetch_and_nbi)(a0, a1, a2, a3)
#define symm_gc4_atomic_fetch_and_nbi(c, a0, a1, a2, a3) SYMM_PICK(*(a0), SYMM_ROWC_BIT, atomic_fetch_and_nbi)(c, a0, a1, a2, a3)
#define shmem_atomic_fetch_and_nbi(...) SYMM_ARGSEL6(__VA_ARGS__, symm_gc4_atomic_fetch_and_nbi, symm_g4_atomic_fetch_and_nbi, ~)(__VA_ARGS__)
#define symm_g4_atomic_fetch_or_nbi(a0, a1, a2, a3) SYMM_PICK(*(a0), SYMM_ROW_BIT, atomic_fetch_or_nbi)(a0, a1, a2, a3)
#define symm_gc4_atomic_fetch_or_nbi(c, a0, a1, a2, a3) SYMM_PICK(*(a0), SYMM_ROWC_BIT, atomic_fetch_or_nbi)(c, a0, a1, a2, a3)
#define shmem_atomic_fetch_or_nbi(...) SYMM_ARGSEL6(__VA_ARGS__, symm_gc4_atomic_fetch_or_nbi, symm_g4_atomic_fetch_or_nbi, ~)(__VA_ARGS__)
#define symm_g4_atomic_fetch_xor_nbi(a0, a1, a2, a3) SYMM_PICK(*(a0), SYMM_ROW_BIT, atomic_fetch_xor_nbi)(a0, a1, a2, a3)
#define symm_gc4_atomic_fetch_xor_nbi(c, a0, a1, a2, a3) SYMM_PICK(*(a0), SYMM_ROWC_BIT, atomic_fetch_xor_nbi)(c, a0, a1, a2, a3)
#define shmem_atomic_fetch_xor_nbi(...) SYMM_ARGSEL6(__VA_ARGS__, symm_gc4_atomic_fetch_xor_nbi, symm_g4_atomic_fetch_xor_nbi, ~)(__VA_ARGS__)
#define shmem_wait_until(first, ...) SYMM_PICK(*(first), SYMM_ROW_WAIT, wait_until)(first, __VA_ARGS__)
#define shmem_wait_until_all(first, ...) SYMM_PICK(*(first), SYMM_ROW_WAIT, wait_until_all)(first, __VA_ARGS__)
#define shmem_wait_until_any(first, ...) SYMM_PICK(*(first), SYMM_ROW_WAIT, wait_until_any)(first, __VA_ARGS__)
#define shmem_wait_until_some(first, ...) SYMM_PICK(*(first), SYMM_ROW_WAIT, wait_until_some)(first, __VA_ARGS__)
#define shmem_wait_until_all_vector(first, ...) SYMM_PICK(*(first), SYMM_ROW_WAIT, wait_until_all_vector)(first, __VA_ARGS__)
#define shmem_wait_until_any_vector(first, ...) SYMM_PICK(*(first), SYMM_ROW_WAIT, wait_until_any_vector)(first, __VA_ARGS__)
#define shmem_wait_until_some_vector(first, ...) SYMM_PICK(*(first), SYMM_ROW_WAIT, wait_until_some_vector)(first, __VA_ARGS__)
#define shmem_test(first, ...) SYMM_PICK(*(first), SYMM_ROW_WAIT, test)(first, __VA_ARGS__)
#define shmem_test_all(first, ...) SYMM_PICK(*(first), SYMM_ROW_WAIT, test_all)(first, __VA_ARGS__)
#define shmem_test_any(first, ...) SYMM_PICK(*(first), SYMM_ROW_WAIT, test_any)(first, __VA_ARGS__)
#define shmem_test_some(first, ...) SYMM_PICK(*(first), SYMM_ROW_WAIT, test_some)(first, __VA_ARGS__)
#define shmem_test_all_vector(first, ...) SYMM_PICK(*(first), SYMM_ROW_WAIT, test_all_vector)(first, __VA_ARGS__)
#define shmem_test_any_vector(first, ...) SYMM_PICK(*(first), SYMM_ROW_WAIT, test_any_vector)(first, __VA_ARGS__)
#define shmem_test_some_vector(first, ...) SYMM_PICK(*(first), SYMM_ROW_WAIT, test_some_vector)(first, __VA_ARGS__)
#define symm_g7_put_signal(a0, a1, a2, a3, a4, a5, a6) SYMM_PICK(*(a0), SYMM_ROW_RMA, put_signal)(a0, a1, a2, a3, a4, a5, a6)
#define symm_gc7_put_signal(c, a0, a1, a2, a3, a4, a5, a6) SYMM_PICK(*(a0), SYMM_ROWC_RMA, put_signal)(c, a0, a1, a2, a3, a4, a5, a6)
#define shmem_put_signal(...) SYMM_ARGSEL9(__VA_ARGS__, symm_gc7_put_signal, symm_g7_put_signal, ~)(__VA_ARGS__)
#define symm_g7_put_signal_nbi(a0, a1, a2, a3, a4, a5, a6) SYMM_PICK(*(a0), SYMM_ROW_RMA, put_signal_nbi)(a0, a1, a2, a3, a4, a5, a6)
#define symm_gc7_put_signal_nbi(c, a0, a1, a2, a3, a4, a5, a6) SYMM_PICK(*(a0), SYMM_ROWC_RMA, put_signal_nbi)(c, a0, a1, a2, a3, a4, a5, a6)
#define shmem_put_signal_nbi(...) SYMM_ARGSEL9(__VA_ARGS__, symm_gc7_put_signal_nbi, symm_g7_put_signal_nbi, ~)(__VA_ARGS__)

/* Team collectives pick by the type of *dest. */
#define SYMM_ROW_BITRED(OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN) \
    SYMM_IF_##GEN(SYMM_IF_##BITRED(T: shmem_##NAME##_##OP,))
#define SYMM_ROW_MINMAX(OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN) \
    SYMM_IF_##GEN(SYMM_IF_##MINMAX(T: shmem_##NAME##_##OP,))
#define SYMM_ROW_SUMPROD(OP, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN) \
    SYMM_IF_##GEN(SYMM_IF_##SUMPROD(T: shmem_##NAME##_##OP,))
#define shmem_broadcast(team, dest, ...) SYMM_PICK(*(dest), SYMM_ROW_RMA, broadcast)(team, dest, __VA_ARGS__)
#define shmem_collect(team, dest, ...) SYMM_PICK(*(dest), SYMM_ROW_RMA, collect)(team, dest, __VA_ARGS__)
#define shmem_fcollect(team, dest, ...) SYMM_PICK(*(dest), SYMM_ROW_RMA, fcollect)(team, dest, __VA_ARGS__)
#define shmem_alltoall(team, dest, ...) SYMM_PICK(*(dest), SYMM_ROW_RMA, alltoall)(team, dest, __VA_ARGS__)
#define shmem_alltoalls(team, dest, ...) SYMM_PICK(*(dest), SYMM_ROW_RMA, alltoalls)(team, dest, __VA_ARGS__)
#define shmem_and_reduce(team, dest, ...) SYMM_PICK(*(dest), SYMM_ROW_BITRED, and_reduce)(team, dest, __VA_ARGS__)
#define shmem_or_reduce(team, dest, ...) SYMM_PICK(*(dest), SYMM_ROW_BITRED, or_reduce)(team, dest, __VA_ARGS__)
#define shmem_xor_reduce(team, dest, ...) SYMM_PICK(*(dest), SYMM_ROW_BITRED, xor_reduce)(team, dest, __VA_ARGS__)
#define shmem_max_reduce(team, dest, ...) SYMM_PICK(*(dest), SYMM_ROW_MINMAX, max_reduce)(team, dest, __VA_ARGS__)
#define shmem_min_reduce(team, dest, ...) SYMM_PICK(*(dest), SYMM_ROW_MINMAX, min_reduce)(team, dest, __VA_ARGS__)
#define shmem_sum_reduce(team, dest, ...) SYMM_PICK(*(dest), SYMM_ROW_SUMPROD, sum_reduce)(team, dest, __VA_ARGS__)
#define shmem_prod_reduce(team, dest, ...) SYMM_PICK(*(dest), SYMM_ROW_SUMPROD, prod_reduce)(team, dest, __VA_ARGS__)
/* Named in the error a compiler gives for a type without a typed routine. */
void symm_generic_no_such_type(void);
#endif

#ifdef __cplusplus
}

/* GNU C++ (-std=gnu++NN, not -std=c++NN) has float _Complex and double _Complex as C has, and
 * programs written for other implementations pass them to the complex reductions: overloads
 * take them to the same routines. */
#if defined(__GNUC__) && !defined(__STRICT_ANSI__)
#define SYMM_GNU_COMPLEX_REDUCE(NAME, T, OP)                                                    \
    __extension__ inline int shmem_##NAME##_##OP##_reduce(shmem_team_t team, T _Complex *dest,  \
                                                          const T _Complex *source,             \
                                                          size_t nreduce)                       \
    {                                                                                           \
        return shmem_##NAME##_##OP##_reduce(team, reinterpret_cast<symm_##NAME##_t *>(dest),    \
                                            reinterpret_cast<const symm_##NAME##_t *>(source),  \
                                            nreduce);                                           \
    }                                                                                           \
    __extension__ inline void shmem_##NAME##_##OP##_to_all(                                     \
        T _Complex *dest, const T _Complex *source, int nreduce, int PE_start, int logPE_stride,\
        int PE_size, T _Complex *pWrk, long *pSync)                                             \
    {                                                                                           \
        shmem_##NAME##_##OP##_to_all(reinterpret_cast<symm_##NAME##_t *>(dest),                 \
                                     reinterpret_cast<const symm_##NAME##_t *>(source), nreduce,\
                                     PE_start, logPE_stride, PE_size,                           \
                                     reinterpret_cast<symm_##NAME##_t *>(pWrk), pSync);         \
    }
SYMM_GNU_COMPLEX_REDUCE(complexf, float, sum)
SYMM_GNU_COMPLEX_REDUCE(complexf, float, prod)
SYMM_GNU_COMPLEX_REDUCE(complexd, double, sum)
SYMM_GNU_COMPLEX_REDUCE(complexd, double, prod)
#endif
#endif
#endif
