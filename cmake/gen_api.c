/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Writes the typed declarations of the public headers (include/symm/gen/): every routine
 * that the type table (symm/types.def) gives a type, spelled out with its signature and a
 * one-line comment, so that grep and editors find shmem_int_put and its parameters. Each
 * family below is a list of routines: the column a row must have, the return type, the name
 * (@ stands for the row's name, or the size of a sized form), the parameters (T stands for
 * the row's type) and what the routine does ($ stands for the operator's description, %
 * for its name; ^ and & for the get stem and the group of the device's group forms). A
 * family with context forms also has shmem_ctx_NAME(shmem_ctx_t ctx, ...) (shmemx_ctx_NAME for
 * shmemx_NAME). The same tables give the C++ overloads of the generic names (shmem_cxx.h,
 * shmemx_cxx.h): one per row that the family's C11 selector takes.
 *
 * Usage: gen_api DIR    writes DIR/shmem_rma.h, ... DIR/device_group.cuh
 * The build runs it for `cmake --build <dir> --target symm_api_headers` (into the source
 * tree) and for the test api_headers_fresh (into the build tree, then compared).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symm/types.def"

/* ---- The table, as data ---------------------------------------------------------------------- */
/* The columns after NAME and TYPE, in the table's order. */
/* clang-format off */
enum { RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN, TOALL, TOBIT, OLD, DEV,
       NCOLS };
/* clang-format on */

typedef struct row {
    const char *name, *type;
    int col[NCOLS];
} row_t;

#define ROW(A, NAME, T, ...) {#NAME, #T, {__VA_ARGS__}},
static const row_t rows[] = {SYMM_TYPE_TABLE(ROW, _)};
#define NROWS (sizeof(rows) / sizeof(rows[0]))
/* NVSHMEM's 16-bit floating-point rows (nvshmem.h only). */
static const row_t nv_rows[] = {SYMM_TYPE_TABLE_NV(ROW, _)};
#define NV_ROWS (sizeof(nv_rows) / sizeof(nv_rows[0]))

#define SIZE(S) #S,
static const char *const sizes[] = {SYMM_SIZES(SIZE)};
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

/* The operators by family, and the words the comments use for them. */
typedef struct op {
    const char *name, *what;
} op_t;
static const op_t op_words[] = {
    {"and", "bitwise AND"}, {"or", "bitwise OR"}, {"xor", "bitwise XOR"}, {"max", "maximum"},
    {"min", "minimum"},     {"sum", "sum"},       {"prod", "product"}};
#define OP_NAME(A, B, OP) #OP,
static const char *const ops_bitwise[] = {SYMM_OPS_BITWISE(OP_NAME, _, _) NULL};
static const char *const ops_minmax[] = {SYMM_OPS_MINMAX(OP_NAME, _, _) NULL};
static const char *const ops_sumprod[] = {SYMM_OPS_SUMPROD(OP_NAME, _, _) NULL};

/* ---- The families ---------------------------------------------------------------------------- */
typedef struct routine {
    const char *ret, *name, *params, *what;
} routine_t;

/* Blocking and non-blocking RMA, per element type (with context forms). */
static const routine_t rma[] = {
    {"void", "shmem_@_put", "T *dest, const T *source, size_t nelems, int pe",
     "Copies nelems elements of source to dest on pe; source is free on return"},
    {"void", "shmem_@_get", "T *dest, const T *source, size_t nelems, int pe",
     "Copies nelems elements of source on pe to dest; they are in dest on return"},
    {"void", "shmem_@_put_nbi", "T *dest, const T *source, size_t nelems, int pe",
     "Starts the put of nelems elements of source to dest on pe; done at shmem_quiet"},
    {"void", "shmem_@_get_nbi", "T *dest, const T *source, size_t nelems, int pe",
     "Starts the get of nelems elements of source on pe into dest; done at shmem_quiet"},
    {"void", "shmem_@_p", "T *dest, T value, int pe", "Stores value into dest on pe"},
    {"T", "shmem_@_g", "const T *source, int pe", "Returns the value of source on pe"},
    {"void", "shmem_@_iput",
     "T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe",
     "Copies nelems elements, every sst-th of source to every dst-th of dest on pe"},
    {"void", "shmem_@_iget",
     "T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe",
     "Copies nelems elements, every sst-th of source on pe to every dst-th of dest"},
    {0}};

/* The same by element size in bits (with context forms). */
static const routine_t rma_sized[] = {
    {"void", "shmem_put@", "void *dest, const void *source, size_t nelems, int pe",
     "Copies nelems @-bit elements of source to dest on pe; source is free on return"},
    {"void", "shmem_get@", "void *dest, const void *source, size_t nelems, int pe",
     "Copies nelems @-bit elements of source on pe to dest; they are in dest on return"},
    {"void", "shmem_put@_nbi", "void *dest, const void *source, size_t nelems, int pe",
     "Starts the put of nelems @-bit elements to dest on pe; done at shmem_quiet"},
    {"void", "shmem_get@_nbi", "void *dest, const void *source, size_t nelems, int pe",
     "Starts the get of nelems @-bit elements from source on pe; done at shmem_quiet"},
    {"void", "shmem_iput@",
     "void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe",
     "Copies nelems @-bit elements, every sst-th of source to every dst-th of dest on pe"},
    {"void", "shmem_iget@",
     "void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe",
     "Copies nelems @-bit elements, every sst-th of source on pe to every dst-th of dest"},
    {0}};

/* Put with signal, per element type and by size (with context forms). */
static const routine_t signal_typed[] = {
    {"void", "shmem_@_put_signal",
     "T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, "
     "int sig_op, int pe",
     "Puts nelems elements to dest on pe, then updates sig_addr there by sig_op"},
    {"void", "shmem_@_put_signal_nbi",
     "T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, "
     "int sig_op, int pe",
     "Starts the put and the signal update of shmem_@_put_signal; done at shmem_quiet"},
    {0}};
static const routine_t signal_sized[] = {
    {"void", "shmem_put@_signal",
     "void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, "
     "int sig_op, int pe",
     "Puts nelems elements (@) to dest on pe, then updates sig_addr there by sig_op"},
    {"void", "shmem_put@_signal_nbi",
     "void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, "
     "int sig_op, int pe",
     "Starts the put and the signal update of shmem_put@_signal; done at shmem_quiet"},
    {0}};

/* Atomics (with context forms): EXT, AMO and BIT. */
static const routine_t amo_ext[] = {
    {"T", "shmem_@_atomic_fetch", "const T *source, int pe",
     "Returns the value of source on pe, read atomically"},
    {"void", "shmem_@_atomic_set", "T *dest, T value, int pe",
     "Sets dest on pe to value atomically"},
    {"T", "shmem_@_atomic_swap", "T *dest, T value, int pe",
     "Sets dest on pe to value; returns its old value"},
    {"void", "shmem_@_atomic_fetch_nbi", "T *fetch, const T *source, int pe",
     "Reads source on pe into fetch; done at shmem_quiet"},
    {"void", "shmem_@_atomic_swap_nbi", "T *fetch, T *dest, T value, int pe",
     "Sets dest on pe to value, its old value into fetch; done at shmem_quiet"},
    {0}};
static const routine_t amo_std[] = {
    {"T", "shmem_@_atomic_compare_swap", "T *dest, T cond, T value, int pe",
     "Sets dest on pe to value if it equals cond; returns its old value"},
    {"T", "shmem_@_atomic_fetch_inc", "T *dest, int pe",
     "Adds 1 to dest on pe; returns its old value"},
    {"void", "shmem_@_atomic_inc", "T *dest, int pe", "Adds 1 to dest on pe"},
    {"T", "shmem_@_atomic_fetch_add", "T *dest, T value, int pe",
     "Adds value to dest on pe; returns its old value"},
    {"void", "shmem_@_atomic_add", "T *dest, T value, int pe", "Adds value to dest on pe"},
    {"void", "shmem_@_atomic_compare_swap_nbi", "T *fetch, T *dest, T cond, T value, int pe",
     "Compare-and-swap of dest on pe, its old value into fetch; done at shmem_quiet"},
    {"void", "shmem_@_atomic_fetch_inc_nbi", "T *fetch, T *dest, int pe",
     "Adds 1 to dest on pe, its old value into fetch; done at shmem_quiet"},
    {"void", "shmem_@_atomic_fetch_add_nbi", "T *fetch, T *dest, T value, int pe",
     "Adds value to dest on pe, its old value into fetch; done at shmem_quiet"},
    {0}};
/* Per bitwise operator. */
static const routine_t amo_bit[] = {
    {"T", "shmem_@_atomic_fetch_%", "T *dest, T value, int pe",
     "Applies the $ of value to dest on pe; returns its old value"},
    {"void", "shmem_@_atomic_%", "T *dest, T value, int pe",
     "Applies the $ of value to dest on pe"},
    {"void", "shmem_@_atomic_fetch_%_nbi", "T *fetch, T *dest, T value, int pe",
     "Applies the $ of value to dest on pe, its old value into fetch; done at shmem_quiet"},
    {0}};

/* The deprecated names of OpenSHMEM 1.3 (no context forms): all OLD rows, then the AMO ones. */
static const routine_t amo_old[] = {
    {"T", "shmem_@_swap", "T *dest, T value, int pe", "Deprecated: shmem_@_atomic_swap"},
    {"T", "shmem_@_fetch", "const T *source, int pe", "Deprecated: shmem_@_atomic_fetch"},
    {"void", "shmem_@_set", "T *dest, T value, int pe", "Deprecated: shmem_@_atomic_set"},
    {0}};
static const routine_t amo_old_std[] = {
    {"T", "shmem_@_cswap", "T *dest, T cond, T value, int pe",
     "Deprecated: shmem_@_atomic_compare_swap"},
    {"T", "shmem_@_fadd", "T *dest, T value, int pe", "Deprecated: shmem_@_atomic_fetch_add"},
    {"T", "shmem_@_finc", "T *dest, int pe", "Deprecated: shmem_@_atomic_fetch_inc"},
    {"void", "shmem_@_add", "T *dest, T value, int pe", "Deprecated: shmem_@_atomic_add"},
    {"void", "shmem_@_inc", "T *dest, int pe", "Deprecated: shmem_@_atomic_inc"},
    {0}};

/* Point-to-point synchronization (no context forms). */
static const routine_t wait[] = {
    {"void", "shmem_@_wait_until", "T *ivar, int cmp, T cmp_value",
     "Waits until ivar cmp cmp_value holds"},
    {"void", "shmem_@_wait_until_all",
     "T *ivars, size_t nelems, const int *status, int cmp, T cmp_value",
     "Waits until every ivars[i] (status[i] zero) satisfies cmp cmp_value"},
    {"size_t", "shmem_@_wait_until_any",
     "T *ivars, size_t nelems, const int *status, int cmp, T cmp_value",
     "Waits until an ivars[i] satisfies cmp cmp_value; returns i"},
    {"size_t", "shmem_@_wait_until_some",
     "T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T cmp_value",
     "Waits until some ivars[i] satisfy cmp cmp_value; stores them in indices, returns count"},
    {"void", "shmem_@_wait_until_all_vector",
     "T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values",
     "Waits until every ivars[i] satisfies cmp cmp_values[i]"},
    {"size_t", "shmem_@_wait_until_any_vector",
     "T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values",
     "Waits until an ivars[i] satisfies cmp cmp_values[i]; returns i"},
    {"size_t", "shmem_@_wait_until_some_vector",
     "T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T *cmp_values",
     "Waits until some ivars[i] satisfy cmp cmp_values[i]; stores them, returns the count"},
    {"int", "shmem_@_test", "T *ivar, int cmp, T cmp_value",
     "Returns whether ivar cmp cmp_value holds"},
    {"int", "shmem_@_test_all", "T *ivars, size_t nelems, const int *status, int cmp, T cmp_value",
     "Returns whether every ivars[i] (status[i] zero) satisfies cmp cmp_value"},
    {"size_t", "shmem_@_test_any",
     "T *ivars, size_t nelems, const int *status, int cmp, T cmp_value",
     "Returns the index of an ivars[i] that satisfies cmp cmp_value, else SIZE_MAX"},
    {"size_t", "shmem_@_test_some",
     "T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T cmp_value",
     "Stores the indices of the ivars[i] that satisfy cmp cmp_value; returns their count"},
    {"int", "shmem_@_test_all_vector",
     "T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values",
     "Returns whether every ivars[i] satisfies cmp cmp_values[i]"},
    {"size_t", "shmem_@_test_any_vector",
     "T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values",
     "Returns the index of an ivars[i] that satisfies cmp cmp_values[i], else SIZE_MAX"},
    {"size_t", "shmem_@_test_some_vector",
     "T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T *cmp_values",
     "Stores the indices of the ivars[i] that satisfy cmp cmp_values[i]; returns the count"},
    {"void", "shmem_@_wait", "T *ivar, T cmp_value",
     "Deprecated: waits until ivar differs from cmp_value"},
    {0}};

/* Team collectives (per RMA row) and reductions (per operator). */
static const routine_t coll[] = {
    {"int", "shmem_@_broadcast",
     "shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root",
     "Copies nelems elements of source on team PE PE_root to dest on every PE of team"},
    {"int", "shmem_@_collect", "shmem_team_t team, T *dest, const T *source, size_t nelems",
     "Concatenates every PE's nelems elements of source (counts may differ) into dest"},
    {"int", "shmem_@_fcollect", "shmem_team_t team, T *dest, const T *source, size_t nelems",
     "Concatenates the nelems elements of source of every PE of team into dest"},
    {"int", "shmem_@_alltoall", "shmem_team_t team, T *dest, const T *source, size_t nelems",
     "Sends block j of nelems elements of source to team PE j, into block i of its dest"},
    {"int", "shmem_@_alltoalls",
     "shmem_team_t team, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, "
     "size_t nelems",
     "shmem_@_alltoall with elements every sst-th of source and every dst-th of dest"},
    {0}};
static const routine_t reduce[] = {
    {"int", "shmem_@_%_reduce", "shmem_team_t team, T *dest, const T *source, size_t nreduce",
     "Sets dest on every PE of team to the $ of source over the team, element-wise"},
    {0}};

/* Active-set reductions (deprecated in OpenSHMEM 1.5), per operator. */
static const routine_t to_all[] = {
    {"void", "shmem_@_%_to_all",
     "T *dest, const T *source, int nreduce, int PE_start, int logPE_stride, int PE_size, "
     "T *pWrk, long *pSync",
     "Sets dest on every PE of the active set to the $ of source over the set"},
    {0}};

/* shmemx.h: scans (OpenSHMEM 1.6). */
static const routine_t scan[] = {
    {"int", "shmem_@_sum_inscan", "shmem_team_t team, T *dest, const T *source, size_t nelems",
     "Sets dest on team PE i to the sum of source over team PEs 0..i"},
    {"int", "shmem_@_sum_exscan", "shmem_team_t team, T *dest, const T *source, size_t nelems",
     "Sets dest on team PE i to the sum of source over team PEs 0..i-1 (zero on PE 0)"},
    {0}};

/* shmemx.h: block-strided RMA, Sandia OpenSHMEM's extension, per element type and by size (with
 * context forms): nblocks blocks of bsize elements, block i at element i * sst of source and
 * i * tst of target (strides in elements, each at least bsize). */
static const routine_t blocked[] = {
    {"void", "shmemx_@_ibput",
     "T *target, const T *source, ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks, "
     "int pe",
     "Copies nblocks blocks of bsize elements, one every sst of source, to one every tst on pe"},
    {"void", "shmemx_@_ibget",
     "T *target, const T *source, ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks, "
     "int pe",
     "Copies nblocks blocks of bsize elements, one every sst on pe, to one every tst of target"},
    {0}};
static const routine_t blocked_sized[] = {
    {"void", "shmemx_ibput@",
     "void *target, const void *source, ptrdiff_t tst, ptrdiff_t sst, size_t bsize, "
     "size_t nblocks, int pe",
     "shmemx_TYPE_ibput on blocks of bsize @-bit elements"},
    {"void", "shmemx_ibget@",
     "void *target, const void *source, ptrdiff_t tst, ptrdiff_t sst, size_t bsize, "
     "size_t nblocks, int pe",
     "shmemx_TYPE_ibget on blocks of bsize @-bit elements"},
    {0}};

/* shmemx.h: the scans under Sandia OpenSHMEM's names. */
static const routine_t scan_x[] = {
    {"int", "shmemx_@_sum_inscan", "shmem_team_t team, T *dest, const T *source, size_t nelems",
     "As shmem_@_sum_inscan"},
    {"int", "shmemx_@_sum_exscan", "shmem_team_t team, T *dest, const T *source, size_t nelems",
     "As shmem_@_sum_exscan"},
    {0}};

/* shmemx.h: reduce-scatter (NVSHMEM's reducescatter), per operator. */
static const routine_t rscatter[] = {
    {"int", "shmemx_@_%_reducescatter",
     "shmem_team_t team, T *dest, const T *source, size_t nreduce",
     "Sets dest on team PE i to the $ over team of block i (nreduce elements) of source"},
    {0}};

/* shmemx_gpu.h: reductions and reduce-scatters enqueued on a CUDA stream, per operator. */
static const routine_t stream[] = {
    {"int", "shmemx_@_%_reduce_on_stream",
     "shmem_team_t team, T *dest, const T *source, size_t nreduce, struct CUstream_st *stream",
     "shmem_@_%_reduce on device-heap buffers, enqueued on stream"},
    {"int", "shmemx_@_%_reducescatter_on_stream",
     "shmem_team_t team, T *dest, const T *source, size_t nreduce, struct CUstream_st *stream",
     "shmemx_@_%_reducescatter on device-heap buffers, enqueued on stream"},
    {0}};

/* shmemx_gpu.h: RMA, put with signal, collectives and waits enqueued on a CUDA stream, per type
 * with device forms and per size (S is struct CUstream_st). */
#define ON_STREAM ", struct CUstream_st *stream"
static const routine_t stream_rma[] = {
    {"void", "shmemx_@_put_on_stream", "T *dest, const T *source, size_t nelems, int pe" ON_STREAM,
     "shmem_@_put enqueued on stream"},
    {"void", "shmemx_@_get_on_stream", "T *dest, const T *source, size_t nelems, int pe" ON_STREAM,
     "shmem_@_get enqueued on stream"},
    {"void", "shmemx_@_put_nbi_on_stream",
     "T *dest, const T *source, size_t nelems, int pe" ON_STREAM,
     "shmem_@_put_nbi enqueued on stream: complete when the stream reaches later work"},
    {"void", "shmemx_@_get_nbi_on_stream",
     "T *dest, const T *source, size_t nelems, int pe" ON_STREAM,
     "shmem_@_get_nbi enqueued on stream: complete when the stream reaches later work"},
    {"void", "shmemx_@_p_on_stream", "T *dest, const T value, int pe" ON_STREAM,
     "shmem_@_p enqueued on stream (value is taken at the call)"},
    {"T", "shmemx_@_g_on_stream", "const T *source, int pe" ON_STREAM,
     "shmem_@_g after the stream's earlier work: waits for the stream"},
    {"void", "shmemx_@_iput_on_stream",
     "T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe" ON_STREAM,
     "shmem_@_iput enqueued on stream"},
    {"void", "shmemx_@_iget_on_stream",
     "T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe" ON_STREAM,
     "shmem_@_iget enqueued on stream"},
    {"void", "shmemx_@_put_signal_on_stream",
     "T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, "
     "int sig_op, int pe" ON_STREAM,
     "shmem_@_put_signal enqueued on stream"},
    {"void", "shmemx_@_put_signal_nbi_on_stream",
     "T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, "
     "int sig_op, int pe" ON_STREAM,
     "shmem_@_put_signal_nbi enqueued on stream"},
    {0}};
static const routine_t stream_sized[] = {
    {"void", "shmemx_put@_on_stream",
     "void *dest, const void *source, size_t nelems, int pe" ON_STREAM,
     "shmem_put@ enqueued on stream"},
    {"void", "shmemx_get@_on_stream",
     "void *dest, const void *source, size_t nelems, int pe" ON_STREAM,
     "shmem_get@ enqueued on stream"},
    {"void", "shmemx_put@_nbi_on_stream",
     "void *dest, const void *source, size_t nelems, int pe" ON_STREAM,
     "shmem_put@_nbi enqueued on stream"},
    {"void", "shmemx_get@_nbi_on_stream",
     "void *dest, const void *source, size_t nelems, int pe" ON_STREAM,
     "shmem_get@_nbi enqueued on stream"},
    {"void", "shmemx_iput@_on_stream",
     "void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, "
     "int pe" ON_STREAM,
     "shmem_iput@ enqueued on stream"},
    {"void", "shmemx_iget@_on_stream",
     "void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, "
     "int pe" ON_STREAM,
     "shmem_iget@ enqueued on stream"},
    {"void", "shmemx_put@_signal_on_stream",
     "void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, "
     "int sig_op, int pe" ON_STREAM,
     "shmem_put@_signal enqueued on stream"},
    {"void", "shmemx_put@_signal_nbi_on_stream",
     "void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, "
     "int sig_op, int pe" ON_STREAM,
     "shmem_put@_signal_nbi enqueued on stream"},
    {0}};
static const routine_t stream_coll[] = {
    {"int", "shmemx_@_alltoall_on_stream",
     "shmem_team_t team, T *dest, const T *source, size_t nelems" ON_STREAM,
     "shmem_@_alltoall on device-heap buffers, enqueued on stream"},
    {"int", "shmemx_@_broadcast_on_stream",
     "shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root" ON_STREAM,
     "shmem_@_broadcast on device-heap buffers, enqueued on stream"},
    {"int", "shmemx_@_fcollect_on_stream",
     "shmem_team_t team, T *dest, const T *source, size_t nelems" ON_STREAM,
     "shmem_@_fcollect on device-heap buffers, enqueued on stream"},
    {0}};
static const routine_t stream_wait[] = {
    {"void", "shmemx_@_wait_until_on_stream", "T *ivar, int cmp, T cmp_value" ON_STREAM,
     "shmem_@_wait_until enqueued on stream: later work waits"},
    {"void", "shmemx_@_wait_until_all_on_stream",
     "T *ivars, size_t nelems, const int *status, int cmp, T cmp_value" ON_STREAM,
     "shmem_@_wait_until_all enqueued on stream (status in memory the GPU reads)"},
    {"void", "shmemx_@_wait_until_all_vector_on_stream",
     "T *ivars, size_t nelems, const int *status, int cmp, T *cmp_value" ON_STREAM,
     "shmem_@_wait_until_all_vector on stream (status, cmp_value: memory the GPU reads)"},
    {0}};

/* nvshmem.h: NVSHMEM's half and bfloat16 (rows of SYMM_TYPE_TABLE_NV). Moving them is moving
 * 16-bit words, so RMA, collectives and their stream forms are inline shells over the sized
 * and uint16 routines (B is the body; V the value's bits, R a result from bits); reductions
 * compute, so they are the library's shmemx_ routines, declared here with the NVSHMEM names
 * mapped to them. `prefix` says where a shell runs: SYMM_NV_FN host and device, SYMM_NV_HOST
 * the host. SYMM_NV_BITS(v) and SYMM_NV_FROM_BITS(r, bits) (symm/nvtypes.h) convert between
 * a value and its 16-bit word. */
typedef struct shell {
    const char *prefix, *ret, *name, *params, *body, *what;
} shell_t;
#define U16 "(uint16_t *)"
#define CU16 "(const uint16_t *)"
#define WORDS                                                                                    \
    "uint16_t *d = (uint16_t *)dest;\n    const uint16_t *s = (const uint16_t *)source;\n    "
static const shell_t nv_shells[] = {
    {"SYMM_NV_FN", "void", "nvshmem_@_put", "T *dest, const T *source, size_t nelems, int pe",
     "shmem_put16(dest, source, nelems, pe);", "shmem_put16 on elements of T"},
    {"SYMM_NV_FN", "void", "nvshmem_@_get", "T *dest, const T *source, size_t nelems, int pe",
     "shmem_get16(dest, source, nelems, pe);", "shmem_get16 on elements of T"},
    {"SYMM_NV_FN", "void", "nvshmem_@_put_nbi", "T *dest, const T *source, size_t nelems, int pe",
     "shmem_put16_nbi(dest, source, nelems, pe);", "shmem_put16_nbi on elements of T"},
    {"SYMM_NV_FN", "void", "nvshmem_@_get_nbi", "T *dest, const T *source, size_t nelems, int pe",
     "shmem_get16_nbi(dest, source, nelems, pe);", "shmem_get16_nbi on elements of T"},
    {"SYMM_NV_FN", "void", "nvshmem_@_p", "T *dest, T value, int pe",
     "shmem_uint16_p(" U16 "dest, SYMM_NV_BITS(value), pe);", "Stores value into dest on pe"},
    {"SYMM_NV_FN", "T", "nvshmem_@_g", "const T *source, int pe",
     "T r;\n    SYMM_NV_FROM_BITS(r, shmem_uint16_g(" CU16 "source, pe));\n    return r;",
     "Returns the value of source on pe"},
    {"SYMM_NV_FN", "void", "nvshmem_@_iput",
     "T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe",
     "shmem_iput16(dest, source, dst, sst, nelems, pe);", "shmem_iput16 on elements of T"},
    {"SYMM_NV_FN", "void", "nvshmem_@_iget",
     "T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe",
     "shmem_iget16(dest, source, dst, sst, nelems, pe);", "shmem_iget16 on elements of T"},
    {"SYMM_NV_FN", "void", "nvshmem_@_put_signal",
     "T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, "
     "int pe",
     "shmem_put16_signal(dest, source, nelems, sig_addr, signal, sig_op, pe);",
     "shmem_put16_signal on elements of T"},
    {"SYMM_NV_FN", "void", "nvshmem_@_put_signal_nbi",
     "T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, "
     "int pe",
     "shmem_put16_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe);",
     "shmem_put16_signal_nbi on elements of T"},
    {"SYMM_NV_HOST", "int", "nvshmem_@_broadcast",
     "nvshmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root",
     WORDS "return shmem_uint16_broadcast(SHMEMX_TEAM_OF_INDEX(team), d, s, nelems, PE_root);",
     "shmem_uint16_broadcast on elements of T"},
    {"SYMM_NV_HOST", "int", "nvshmem_@_fcollect",
     "nvshmem_team_t team, T *dest, const T *source, size_t nelems",
     WORDS "return shmem_uint16_fcollect(SHMEMX_TEAM_OF_INDEX(team), d, s, nelems);",
     "shmem_uint16_fcollect on elements of T"},
    {"SYMM_NV_HOST", "int", "nvshmem_@_alltoall",
     "nvshmem_team_t team, T *dest, const T *source, size_t nelems",
     WORDS "return shmem_uint16_alltoall(SHMEMX_TEAM_OF_INDEX(team), d, s, nelems);",
     "shmem_uint16_alltoall on elements of T"},
    {"SYMM_NV_HOST", "int", "nvshmem_@_alltoalls",
     "nvshmem_team_t team, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems",
     WORDS "return shmem_uint16_alltoalls(SHMEMX_TEAM_OF_INDEX(team), d, s, dst, sst, nelems);",
     "shmem_uint16_alltoalls on elements of T"},
    {"SYMM_NV_HOST", "void", "nvshmemx_@_put_on_stream",
     "T *dest, const T *source, size_t nelems, int pe" ON_STREAM,
     "shmemx_put16_on_stream(dest, source, nelems, pe, stream);", "shmemx_put16_on_stream"},
    {"SYMM_NV_HOST", "void", "nvshmemx_@_get_on_stream",
     "T *dest, const T *source, size_t nelems, int pe" ON_STREAM,
     "shmemx_get16_on_stream(dest, source, nelems, pe, stream);", "shmemx_get16_on_stream"},
    {"SYMM_NV_HOST", "void", "nvshmemx_@_put_nbi_on_stream",
     "T *dest, const T *source, size_t nelems, int pe" ON_STREAM,
     "shmemx_put16_nbi_on_stream(dest, source, nelems, pe, stream);",
     "shmemx_put16_nbi_on_stream"},
    {"SYMM_NV_HOST", "void", "nvshmemx_@_get_nbi_on_stream",
     "T *dest, const T *source, size_t nelems, int pe" ON_STREAM,
     "shmemx_get16_nbi_on_stream(dest, source, nelems, pe, stream);",
     "shmemx_get16_nbi_on_stream"},
    {"SYMM_NV_HOST", "void", "nvshmemx_@_p_on_stream", "T *dest, const T value, int pe" ON_STREAM,
     "shmemx_uint16_p_on_stream(" U16 "dest, SYMM_NV_BITS(value), pe, stream);",
     "nvshmem_@_p enqueued on stream"},
    {"SYMM_NV_HOST", "T", "nvshmemx_@_g_on_stream", "const T *source, int pe" ON_STREAM,
     "T r;\n    SYMM_NV_FROM_BITS(r, shmemx_uint16_g_on_stream(" CU16 "source, pe, stream));"
     "\n    return r;",
     "nvshmem_@_g after the stream's earlier work"},
    {"SYMM_NV_HOST", "void", "nvshmemx_@_iput_on_stream",
     "T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe" ON_STREAM,
     "shmemx_iput16_on_stream(dest, source, dst, sst, nelems, pe, stream);",
     "shmemx_iput16_on_stream"},
    {"SYMM_NV_HOST", "void", "nvshmemx_@_iget_on_stream",
     "T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe" ON_STREAM,
     "shmemx_iget16_on_stream(dest, source, dst, sst, nelems, pe, stream);",
     "shmemx_iget16_on_stream"},
    {"SYMM_NV_HOST", "void", "nvshmemx_@_put_signal_on_stream",
     "T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, "
     "int pe" ON_STREAM,
     "shmemx_put16_signal_on_stream(dest, source, nelems, sig_addr, signal, sig_op, pe, stream);",
     "shmemx_put16_signal_on_stream"},
    {"SYMM_NV_HOST", "void", "nvshmemx_@_put_signal_nbi_on_stream",
     "T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, "
     "int pe" ON_STREAM,
     "shmemx_put16_signal_nbi_on_stream(dest, source, nelems, sig_addr, signal, sig_op, pe, "
     "stream);",
     "shmemx_put16_signal_nbi_on_stream"},
    {"SYMM_NV_HOST", "int", "nvshmemx_@_alltoall_on_stream",
     "nvshmem_team_t team, T *dest, const T *source, size_t nelems" ON_STREAM,
     WORDS "return shmemx_uint16_alltoall_on_stream(SHMEMX_TEAM_OF_INDEX(team), "
           "d, s, nelems, stream);",
     "shmemx_uint16_alltoall_on_stream"},
    {"SYMM_NV_HOST", "int", "nvshmemx_@_broadcast_on_stream",
     "nvshmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root" ON_STREAM,
     WORDS "return shmemx_uint16_broadcast_on_stream(SHMEMX_TEAM_OF_INDEX(team), "
           "d, s, nelems, PE_root, stream);",
     "shmemx_uint16_broadcast_on_stream"},
    {"SYMM_NV_HOST", "int", "nvshmemx_@_fcollect_on_stream",
     "nvshmem_team_t team, T *dest, const T *source, size_t nelems" ON_STREAM,
     WORDS "return shmemx_uint16_fcollect_on_stream(SHMEMX_TEAM_OF_INDEX(team), "
           "d, s, nelems, stream);",
     "shmemx_uint16_fcollect_on_stream"},
    {0}};
/* The reductions of the NVSHMEM rows, computed by the library (in float). */
static const routine_t nv_reduce[] = {
    {"int", "shmemx_@_%_reduce", "shmem_team_t team, T *dest, const T *source, size_t nreduce",
     "dest on every PE of team: the $ of source over the team (nvshmem_@_%_reduce)"},
    {"int", "shmemx_@_%_reducescatter",
     "shmem_team_t team, T *dest, const T *source, size_t nreduce",
     "Reduce-scatter by the $, as shmemx.h's (nvshmem_@_%_reducescatter)"},
    {0}};

/* symm/device.cuh: the warp and block forms of RMA, per type with device forms, per size and
 * for bytes (@ is the stem of the put: TYPE_put, put64 or putmem; ^ that of the get; & the
 * group, warp or block), and the warp and block forms of the collectives and reductions. */
static const routine_t device_group[] = {
    {"void", "shmemx_@_&", "T *dest, const T *source, size_t nelems, int pe",
     "shmem_@ by every thread of a &, with the same arguments; they share the copy"},
    {"void", "shmemx_^_&", "T *dest, const T *source, size_t nelems, int pe",
     "shmem_^ by every thread of a &, with the same arguments; they share the copy"},
    {"void", "shmemx_@_nbi_&", "T *dest, const T *source, size_t nelems, int pe",
     "shmem_@_nbi by every thread of a &, with the same arguments"},
    {"void", "shmemx_^_nbi_&", "T *dest, const T *source, size_t nelems, int pe",
     "shmem_^_nbi by every thread of a &, with the same arguments"},
    {"void", "shmemx_@_signal_&",
     "T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, "
     "int sig_op, int pe",
     "shmem_@_signal by every thread of a &, with the same arguments"},
    {"void", "shmemx_@_signal_nbi_&",
     "T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, "
     "int sig_op, int pe",
     "shmem_@_signal_nbi by every thread of a &, with the same arguments"},
    {0}};
/* The strided forms of the group (@ the iput stem, ^ the iget stem: TYPE_iput or iput64). */
static const routine_t device_strided[] = {
    {"void", "shmemx_@_&",
     "T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe",
     "shmem_@ by every thread of a &, with the same arguments; they share the copy"},
    {"void", "shmemx_^_&",
     "T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe",
     "shmem_^ by every thread of a &, with the same arguments; they share the copy"},
    {0}};
static const routine_t device_coll[] = {
    {"int", "shmemx_@_alltoall_&", "shmem_team_t team, T *dest, const T *source, size_t nelems",
     "shmem_@_alltoall by one & of every PE of team"},
    {"int", "shmemx_@_fcollect_&", "shmem_team_t team, T *dest, const T *source, size_t nelems",
     "shmem_@_fcollect by one & of every PE of team"},
    {"int", "shmemx_@_broadcast_&",
     "shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root",
     "shmem_@_broadcast by one & of every PE of team"},
    {0}};
static const routine_t device_reduce[] = {
    {"int", "shmemx_@_%_reduce_&", "shmem_team_t team, T *dest, const T *source, size_t nreduce",
     "shmem_@_%_reduce by one & of every PE of team"},
    {"int", "shmemx_@_%_reducescatter_&",
     "shmem_team_t team, T *dest, const T *source, size_t nreduce",
     "Team PE i's dest: part i (nreduce elements) of the $ of source over team; one &"},
    {0}};

/* ---- Output ---------------------------------------------------------------------------------- */
static FILE *out;
static const char *out_path;

static void fail(const char *what)
{
    fprintf(stderr, "gen_api: %s: %s\n", out_path ? out_path : "-", what);
    exit(1);
}

/* What the placeholders of a routine stand for. */
typedef struct subs {
    const char *at, *type, *op, *get, *group;
} subs_t;

static int ident(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* s with every @, %, $, ^ and & replaced, and every word T by the type. */
static void expand(char *buf, size_t cap, const char *s, const subs_t *x)
{
    size_t n = 0;
    const char *words = "";

    for (size_t k = 0; x->op && k < sizeof(op_words) / sizeof(op_words[0]); k++)
        if (strcmp(op_words[k].name, x->op) == 0)
            words = op_words[k].what;
    for (const char *p = s; *p; p++) {
        char one[2] = {*p, 0};
        const char *put = one;
        if (*p == '@')
            put = x->at;
        else if (*p == '%')
            put = x->op;
        else if (*p == '$')
            put = words;
        else if (*p == '^')
            put = x->get;
        else if (*p == '&')
            put = x->group;
        else if (*p == 'T' && x->type && (p == s || !ident(p[-1])) && !ident(p[1]))
            put = x->type;
        if (!put || n + strlen(put) + 1 > cap)
            fail("a routine with a placeholder the family does not fill, or too long");
        memcpy(buf + n, put, strlen(put));
        n += strlen(put);
    }
    buf[n] = 0;
}

/* RET NAME(PARAMS followed by `end`, with the parameters packed onto lines of at most 100
 * columns, continuation lines under the first parameter: every line but the last is written,
 * the last is left in line (cap bytes) for the caller to end. */
static void signature(const char *prefix, const char *ret, const char *name, const char *params,
                      const char *end, char *line, size_t cap)
{
    char head[256];
    const char *p = params;
    size_t indent;

    snprintf(head, sizeof(head), "%s%s%s%s(", prefix, ret, ret[strlen(ret) - 1] == '*' ? "" : " ",
             name);
    indent = strlen(head);
    snprintf(line, cap, "%s", head);
    for (int first = 1; *p; first = 0) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char param[256];
        snprintf(param, sizeof(param), "%.*s%s", (int)len, p, comma ? "," : end);
        if (!first && strlen(line) + 1 + strlen(param) > 100) {
            fprintf(out, "%s\n", line);
            snprintf(line, cap, "%*s%s", (int)indent, "", param);
        } else {
            snprintf(line + strlen(line), cap - strlen(line), "%s%s", first ? "" : " ", param);
        }
        p = comma ? comma + 2 : p + len;
    }
}

/* One declaration: the comment line, then RET NAME(PARAMS); packed as signature() packs it. */
static void declare(const char *prefix, const char *ret, const char *name, const char *params,
                    const char *what)
{
    char line[512];

    if (strlen(what) + 6 > 100)
        fail("a comment longer than a line");
    fprintf(out, "/* %s. */\n", what);
    signature(prefix, ret, name, params, ");", line, sizeof(line));
    fprintf(out, "%s\n", line);
}

/* Whether a routine is an extension (shmemx_NAME: its context form is shmemx_ctx_NAME). */
static int x_prefix(const char *name)
{
    return strncmp(name, "shmemx_", 7) == 0;
}

/* Every routine of a family, its placeholders filled by x; with `ctx`, each also in its
 * shmem_ctx_ form; `prefix` before each declaration. */
static void family_in(const routine_t *f, const subs_t *x, int ctx, const char *prefix)
{
    for (; f->name; f++) {
        char name[128], params[512], what[256], ret[64];
        expand(name, sizeof(name), f->name, x);
        expand(params, sizeof(params), f->params, x);
        expand(what, sizeof(what), f->what, x);
        expand(ret, sizeof(ret), f->ret, x);
        declare(prefix, ret, name, params, what);
        if (ctx) {
            char cname[160], cparams[560], cwhat[200];
            snprintf(cname, sizeof(cname), "%s_ctx_%s", x_prefix(name) ? "shmemx" : "shmem",
                     strchr(name, '_') + 1);
            snprintf(cparams, sizeof(cparams), "shmem_ctx_t ctx, %s", params);
            snprintf(cwhat, sizeof(cwhat), "As %s, on context ctx", name);
            declare(prefix, ret, cname, cparams, cwhat);
        }
    }
}

static void family(const routine_t *f, const char *at, const char *type, const char *op, int ctx)
{
    const subs_t x = {.at = at, .type = type, .op = op};

    family_in(f, &x, ctx, "");
}

/* Family f once per operator of the families that are set: bitwise, minmax, sumprod (& is
 * `group`). */
static void family_ops(const routine_t *f, const row_t *r, int bitwise, int minmax, int sumprod,
                       const char *group, const char *prefix)
{
    const char *const *fams[] = {bitwise ? ops_bitwise : NULL, minmax ? ops_minmax : NULL,
                                 sumprod ? ops_sumprod : NULL};

    for (size_t k = 0; k < 3; k++)
        for (const char *const *op = fams[k]; op && *op; op++) {
            const subs_t x = {.at = r->name, .type = r->type, .op = *op, .group = group};
            family_in(f, &x, 0, prefix);
        }
}

/* Family f once per reduction operator the row has. */
static void reductions_in(const routine_t *f, const row_t *r, const char *group,
                          const char *prefix)
{
    family_ops(f, r, r->col[BITRED], r->col[MINMAX], r->col[SUMPROD], group, prefix);
}

static void reductions(const routine_t *f, const row_t *r, const char *prefix)
{
    reductions_in(f, r, NULL, prefix);
}

static void open_file(const char *dir, const char *file, const char *guard, const char *what)
{
    static char path[4096];

    snprintf(path, sizeof(path), "%s/%s", dir, file);
    out_path = path;
    out = fopen(path, "w");
    if (!out)
        fail("cannot write");
    fprintf(out,
            "/* SPDX-License-Identifier: BSD-3-Clause */\n"
            "/* Copyright (c) 2026 The symm authors */\n"
            "/*\n"
            " * %s\n"
            " *\n"
            " * Generated by cmake/gen_api.c from the type table (symm/types.def): do not "
            "edit. The test\n"
            " * api_headers_fresh fails when this file is not what the generator writes.\n"
            " */\n"
            "#ifndef %s\n#define %s\n",
            what, guard, guard);
}

static void close_file(void)
{
    fprintf(out, "\n#endif\n");
    if (fclose(out) != 0)
        fail("cannot write");
}

/* A section heading for a row. */
static void heading(const char *what)
{
    fprintf(out, "\n/* ---- %s ", what);
    for (size_t n = strlen(what) + 12; n < 100; n++)
        fputc('-', out);
    fprintf(out, " */\n");
}

static void row_heading(const row_t *r)
{
    char what[128];

    if (strcmp(r->name, r->type) == 0)
        snprintf(what, sizeof(what), "%s", r->name);
    else
        snprintf(what, sizeof(what), "%s (%s)", r->name, r->type);
    heading(what);
}

/* ---- The files ------------------------------------------------------------------------------- */
/* Every row with column col: its heading, then family f (with `ctx`, and the context forms). */
static void rows_with(int col, const routine_t *f, int ctx)
{
    for (size_t i = 0; i < NROWS; i++)
        if (rows[i].col[col]) {
            row_heading(&rows[i]);
            family(f, rows[i].name, rows[i].type, NULL, ctx);
        }
}

static void write_rma(const char *dir)
{
    open_file(dir, "shmem_rma.h", "SYMM_GEN_SHMEM_RMA_H",
              "The typed and sized RMA routines of shmem.h: put, get, p, g, iput, iget and the\n"
              " * non-blocking forms, for every type of the table with RMA and every element "
              "size.");
    rows_with(RMA, rma, 1);
    for (size_t i = 0; i < NSIZES; i++) {
        char what[32];
        snprintf(what, sizeof(what), "%s bits", sizes[i]);
        heading(what);
        family(rma_sized, sizes[i], NULL, NULL, 1);
    }
    close_file();
}

static void write_signal(const char *dir)
{
    open_file(dir, "shmem_signal.h", "SYMM_GEN_SHMEM_SIGNAL_H",
              "The typed and sized put-with-signal routines of shmem.h.");
    rows_with(RMA, signal_typed, 1);
    for (size_t i = 0; i <= NSIZES; i++) {
        const char *s = i < NSIZES ? sizes[i] : "mem";
        char what[32];
        snprintf(what, sizeof(what), i < NSIZES ? "%s bits" : "bytes (%s)", s);
        heading(what);
        family(signal_sized, s, NULL, NULL, 1);
    }
    close_file();
}

static void write_amo(const char *dir)
{
    open_file(dir, "shmem_amo.h", "SYMM_GEN_SHMEM_AMO_H",
              "The typed atomic memory operations of shmem.h, and their deprecated names.");
    for (size_t i = 0; i < NROWS; i++) {
        const row_t *r = &rows[i];
        if (!r->col[EXT] && !r->col[AMO] && !r->col[BIT])
            continue;
        row_heading(r);
        if (r->col[EXT])
            family(amo_ext, r->name, r->type, NULL, 1);
        if (r->col[AMO])
            family(amo_std, r->name, r->type, NULL, 1);
        for (const char *const *op = ops_bitwise; r->col[BIT] && *op; op++)
            family(amo_bit, r->name, r->type, *op, 1);
    }
    heading("deprecated names (OpenSHMEM 1.3)");
    for (size_t i = 0; i < NROWS; i++)
        if (rows[i].col[OLD]) {
            if (rows[i].col[AMO])
                family(amo_old_std, rows[i].name, rows[i].type, NULL, 0);
            family(amo_old, rows[i].name, rows[i].type, NULL, 0);
        }
    close_file();
}

static void write_wait(const char *dir)
{
    open_file(dir, "shmem_wait.h", "SYMM_GEN_SHMEM_WAIT_H",
              "The typed wait_until and test routines of shmem.h.");
    rows_with(WAIT, wait, 0);
    close_file();
}

static void write_coll(const char *dir)
{
    open_file(dir, "shmem_coll.h", "SYMM_GEN_SHMEM_COLL_H",
              "The typed team collectives and reductions of shmem.h.");
    for (size_t i = 0; i < NROWS; i++) {
        const row_t *r = &rows[i];
        if (!r->col[RMA] && !r->col[BITRED] && !r->col[MINMAX] && !r->col[SUMPROD])
            continue;
        row_heading(r);
        if (r->col[RMA])
            family(coll, r->name, r->type, NULL, 0);
        reductions(reduce, r, "");
    }
    close_file();
}

static void write_active(const char *dir)
{
    open_file(dir, "shmem_active.h", "SYMM_GEN_SHMEM_ACTIVE_H",
              "The typed active-set reductions (_to_all) of shmem.h.");
    for (size_t i = 0; i < NROWS; i++) {
        const row_t *r = &rows[i];
        if (!r->col[TOBIT] && !r->col[TOALL])
            continue;
        row_heading(r);
        family_ops(to_all, r, r->col[TOBIT], r->col[TOALL] && r->col[MINMAX],
                   r->col[TOALL] && r->col[SUMPROD], NULL, "");
    }
    close_file();
}

static void write_scan(const char *dir)
{
    open_file(dir, "shmemx_scan.h", "SYMM_GEN_SHMEMX_SCAN_H",
              "The typed scans of shmemx.h (OpenSHMEM 1.6).");
    rows_with(SCAN, scan, 0);
    close_file();
}

static void write_rscatter(const char *dir)
{
    open_file(dir, "shmemx_rscatter.h", "SYMM_GEN_SHMEMX_RSCATTER_H",
              "The typed reduce-scatters of shmemx.h (NVSHMEM's reducescatter).");
    for (size_t i = 0; i < NROWS; i++) {
        const row_t *r = &rows[i];
        if (!r->col[BITRED] && !r->col[MINMAX] && !r->col[SUMPROD])
            continue;
        row_heading(r);
        reductions(rscatter, r, "");
    }
    close_file();
}

static void write_stream(const char *dir)
{
    open_file(dir, "shmemx_stream.h", "SYMM_GEN_SHMEMX_STREAM_H",
              "The typed and sized calls on a CUDA stream of shmemx_gpu.h: RMA, put with signal,\n"
              " * collectives, reductions and waits, for every type of the table with device "
              "forms.");
    for (size_t i = 0; i < NROWS; i++) {
        const row_t *r = &rows[i];
        if (!r->col[DEV])
            continue;
        row_heading(r);
        if (r->col[RMA]) {
            family(stream_rma, r->name, r->type, NULL, 0);
            family(stream_coll, r->name, r->type, NULL, 0);
        }
        reductions(stream, r, "");
        if (r->col[WAIT])
            family(stream_wait, r->name, r->type, NULL, 0);
    }
    for (size_t i = 0; i < NSIZES; i++) {
        char what[32];
        snprintf(what, sizeof(what), "%s bits", sizes[i]);
        heading(what);
        family(stream_sized, sizes[i], NULL, NULL, 0);
    }
    close_file();
}

static void write_sos(const char *dir)
{
    open_file(dir, "shmemx_sos.h", "SYMM_GEN_SHMEMX_SOS_H",
              "Sandia OpenSHMEM's extensions of shmemx.h that symm's routines cover: block-strided\n"
              " * RMA (typed and sized, with context forms) and the scans under shmemx_ names.");
    rows_with(RMA, blocked, 1);
    for (size_t i = 0; i < NSIZES; i++) {
        char what[32];
        snprintf(what, sizeof(what), "%s bits", sizes[i]);
        heading(what);
        family(blocked_sized, sizes[i], NULL, NULL, 1);
    }
    heading("scans");
    for (size_t i = 0; i < NROWS; i++)
        if (rows[i].col[SCAN])
            family(scan_x, rows[i].name, rows[i].type, NULL, 0);
    close_file();
}

/* ---- C++ overloads ----------------------------------------------------------------------------
 * In C++ the generic names (shmem_put, shmem_atomic_add, shmem_sum_reduce, ...) are overloads of
 * the rows that the family's C11 selector takes (GEN; the bitwise families BGEN too), each an
 * inline call of the typed routine; the generic name is the typed one less the row's "@_". */

/* The C routines of shmem.h whose name and parameters are those of one row's overload: that
 * overload is the C routine itself. */
static const struct {
    const char *name, *row;
} c_generic[] = {{"shmem_@_wait_until", "long"}};

static int is_c_generic(const char *name, const char *row)
{
    for (size_t k = 0; k < sizeof(c_generic) / sizeof(c_generic[0]); k++)
        if (strcmp(c_generic[k].name, name) == 0 && strcmp(c_generic[k].row, row) == 0)
            return 1;
    return 0;
}

/* The names of the parameters: the last word of each. */
static void arg_names(char *buf, size_t cap, const char *params)
{
    size_t n = 0;

    buf[0] = 0;
    for (const char *p = params; *p;) {
        const char *comma = strchr(p, ','), *end = comma ? comma : p + strlen(p), *w = end;
        while (w > p && ident(w[-1]))
            w--;
        if (n + (size_t)(end - w) + 3 > cap)
            fail("a parameter list too long");
        n += (size_t)snprintf(buf + n, cap - n, "%s%.*s", n ? ", " : "", (int)(end - w), w);
        p = comma ? comma + 2 : end;
    }
}

/* One overload: RET NAME(PARAMS) whose body returns CALL(ARGS). */
static void overload(const char *ret, const char *name, const char *params, const char *call,
                     const char *args)
{
    char line[512];

    signature("inline ", ret, name, params, ")", line, sizeof(line));
    fprintf(out, "%s\n{\n", line);
    signature("    ", "return", call, args, ");", line, sizeof(line));
    fprintf(out, "%s\n}\n", line);
}

/* The overloads of family f for one row (op: the operator of a per-operator family); with
 * `ctx`, the context forms too. Deprecated routines have no generic name. */
static void overloads(const routine_t *f, const row_t *r, const char *op, int ctx)
{
    const subs_t x = {.at = r->name, .type = r->type, .op = op};

    for (; f->name; f++) {
        char stem[128], gen[128], typed[128], params[512], ret[64], args[256], *at;
        if (strncmp(f->what, "Deprecated", 10) == 0 || is_c_generic(f->name, r->name))
            continue;
        snprintf(stem, sizeof(stem), "%s", f->name);
        at = strstr(stem, "@_");
        if (!at)
            fail("a typed routine without @_ in its name");
        memmove(at, at + 2, strlen(at + 2) + 1);
        expand(gen, sizeof(gen), stem, &x);
        expand(typed, sizeof(typed), f->name, &x);
        expand(params, sizeof(params), f->params, &x);
        expand(ret, sizeof(ret), f->ret, &x);
        arg_names(args, sizeof(args), params);
        overload(ret, gen, params, typed, args);
        if (ctx) {
            char cparams[560], cargs[300], ctyped[160];
            snprintf(cparams, sizeof(cparams), "shmem_ctx_t ctx, %s", params);
            snprintf(cargs, sizeof(cargs), "ctx, %s", args);
            snprintf(ctyped, sizeof(ctyped), "%s_ctx_%s", x_prefix(typed) ? "shmemx" : "shmem",
                     strchr(typed, '_') + 1);
            overload(ret, gen, cparams, ctyped, cargs);
        }
    }
}

/* Family f once per operator of ops for one row. */
static void overloads_ops(const routine_t *f, const row_t *r, const char *const *ops, int ctx)
{
    for (; *ops; ops++)
        overloads(f, r, *ops, ctx);
}

static void open_cxx(const char *dir, const char *file, const char *guard, const char *what)
{
    open_file(dir, file, guard, what);
    fprintf(out, "\n#ifdef __cplusplus\n");
}

static void close_cxx(void)
{
    fprintf(out, "\n#endif\n");
    close_file();
}

static void write_cxx(const char *dir)
{
    open_cxx(dir, "shmem_cxx.h", "SYMM_GEN_SHMEM_CXX_H",
             "The generic names of shmem.h in C++: RMA, put with signal, atomics, waits and tests,\n"
             " * collectives and reductions, as overloads over the rows of each family's C11 "
             "selector.");
    for (size_t i = 0; i < NROWS; i++) {
        const row_t *r = &rows[i];
        int gen = r->col[GEN], bgen = gen || r->col[BGEN];
        int any = (gen && (r->col[RMA] || r->col[EXT] || r->col[AMO] || r->col[WAIT] ||
                           r->col[MINMAX] || r->col[SUMPROD])) ||
                  (bgen && (r->col[BIT] || r->col[BITRED]));
        if (!any)
            continue;
        row_heading(r);
        if (gen && r->col[RMA]) {
            overloads(rma, r, NULL, 1);
            overloads(signal_typed, r, NULL, 1);
        }
        if (gen && r->col[EXT])
            overloads(amo_ext, r, NULL, 1);
        if (gen && r->col[AMO])
            overloads(amo_std, r, NULL, 1);
        if (bgen && r->col[BIT])
            overloads_ops(amo_bit, r, ops_bitwise, 1);
        if (gen && r->col[WAIT])
            overloads(wait, r, NULL, 0);
        if (gen && r->col[RMA])
            overloads(coll, r, NULL, 0);
        if (bgen && r->col[BITRED])
            overloads_ops(reduce, r, ops_bitwise, 0);
        if (gen && r->col[MINMAX])
            overloads_ops(reduce, r, ops_minmax, 0);
        if (gen && r->col[SUMPROD])
            overloads_ops(reduce, r, ops_sumprod, 0);
    }
    close_cxx();

    open_cxx(dir, "shmemx_cxx.h", "SYMM_GEN_SHMEMX_CXX_H",
             "The generic names of shmemx.h in C++ (Sandia OpenSHMEM's): shmemx_ibput and\n"
             " * shmemx_ibget, with context forms, and shmemx_sum_inscan and shmemx_sum_exscan, "
             "as\n * overloads over the rows of the C11 selectors.");
    for (size_t i = 0; i < NROWS; i++) {
        const row_t *r = &rows[i];
        if (!r->col[GEN] || (!r->col[RMA] && !r->col[SCAN]))
            continue;
        row_heading(r);
        if (r->col[RMA])
            overloads(blocked, r, NULL, 1);
        if (r->col[SCAN])
            overloads(scan_x, r, NULL, 0);
    }
    close_cxx();
}

/* One inline shell: the comment, the signature packed as declare() packs it, the body. */
static void define_shell(const shell_t *sh, const row_t *r)
{
    const subs_t x = {.at = r->name, .type = r->type};
    char name[128], params[512], what[256], ret[64], body[512], prefix[32];
    long at;

    expand(name, sizeof(name), sh->name, &x);
    expand(params, sizeof(params), sh->params, &x);
    expand(what, sizeof(what), sh->what, &x);
    expand(ret, sizeof(ret), sh->ret, &x);
    expand(body, sizeof(body), sh->body, &x);
    snprintf(prefix, sizeof(prefix), "%s ", sh->prefix);
    declare(prefix, ret, name, params, what);
    /* declare() ended the signature with ");\n": take the semicolon back. */
    fflush(out);
    at = ftell(out);
    if (at < 2 || fseek(out, at - 2, SEEK_SET) != 0)
        fail("cannot rewrite a declaration into a definition");
    fprintf(out, "\n{\n    %s\n}\n", body);
}

/* The NVSHMEM names of the reductions of NVSHMEM row `name` by operator op (NVSHMEM's team is
 * an integer: SHMEMX_TEAM_OF_INDEX makes it symm's handle). */
static void nv_names(const char *name, const char *op)
{
    static const char *const forms[][2] = {{"nvshmem_", "_reduce"},
                                           {"nvshmem_", "_reducescatter"},
                                           {"nvshmemx_", "_reduce_on_stream"},
                                           {"nvshmemx_", "_reducescatter_on_stream"}};

    for (size_t k = 0; k < sizeof(forms) / sizeof(forms[0]); k++)
        fprintf(out, "#define %s%s_%s%s(team, ...) shmemx_%s_%s%s(SHMEMX_TEAM_OF_INDEX(team), "
                "__VA_ARGS__)\n", forms[k][0], name, op, forms[k][1], name, op, forms[k][1]);
}

static void write_nv(const char *dir)
{
    open_file(dir, "nvshmem_nv.h", "SYMM_GEN_NVSHMEM_NV_H",
              "NVSHMEM's half and bfloat16 routines (nvshmem.h): inline shells over the 16-bit\n"
              " * routines for what moves data, the library's reductions for what computes.");
    for (size_t i = 0; i < NV_ROWS; i++) {
        const row_t *r = &nv_rows[i];
        row_heading(r);
        for (const shell_t *sh = nv_shells; sh->name; sh++)
            define_shell(sh, r);
        reductions(nv_reduce, r, "");
        reductions(stream, r, "");
        for (const char *const *op = ops_minmax; *op; op++)
            nv_names(r->name, *op);
        for (const char *const *op = ops_sumprod; *op; op++)
            nv_names(r->name, *op);
    }
    close_file();
}

/* The group forms of one stem (TYPE_put and TYPE_get, put64 and get64, putmem and getmem),
 * and with `strided` those of TYPE_iput and TYPE_iget (iput64 and iget64). */
static const char *const groups[] = {"warp", "block"};

static void device_groups(const char *put, const char *get, const char *type, int strided)
{
    char iput[64], iget[64];

    snprintf(iput, sizeof(iput), "i%s", put);
    snprintf(iget, sizeof(iget), "i%s", get);
    if (strncmp(put, "put", 3) != 0) { /* TYPE_put: TYPE_iput */
        snprintf(iput, sizeof(iput), "%.*siput", (int)(strlen(put) - 3), put);
        snprintf(iget, sizeof(iget), "%.*siget", (int)(strlen(get) - 3), get);
    }
    for (size_t g = 0; g < 2; g++) {
        const subs_t x = {.at = put, .get = get, .type = type, .group = groups[g]};
        const subs_t xs = {.at = iput, .get = iget, .type = type, .group = groups[g]};
        family_in(device_group, &x, 0, "SYMM_DEVX ");
        if (strided)
            family_in(device_strided, &xs, 0, "SYMM_DEVX ");
    }
}

static void write_device(const char *dir)
{
    open_file(
        dir, "device_group.cuh", "SYMM_GEN_DEVICE_GROUP_CUH",
        "The typed names of the device API (symm/device.cuh) that only kernels have: the warp\n"
        " * and block forms of RMA, collectives, reductions and reduce-scatters. SYMM_DEVX is\n"
        " * static __device__ __forceinline__; device.cuh defines them (half and bfloat16 are\n"
        " * CUDA's, from cuda_fp16.h and cuda_bf16.h).");
    for (size_t i = 0; i < NROWS + NV_ROWS; i++) {
        const row_t *r = i < NROWS ? &rows[i] : &nv_rows[i - NROWS];
        char put[64], get[64];
        if (!r->col[DEV])
            continue;
        row_heading(r);
        snprintf(put, sizeof(put), "%s_put", r->name);
        snprintf(get, sizeof(get), "%s_get", r->name);
        if (r->col[RMA])
            device_groups(put, get, r->type, 1);
        for (size_t g = 0; g < 2; g++) {
            const subs_t x = {.at = r->name, .type = r->type, .group = groups[g]};
            if (r->col[RMA])
                family_in(device_coll, &x, 0, "SYMM_DEVX ");
            reductions_in(device_reduce, r, groups[g], "SYMM_DEVX ");
        }
    }
    for (size_t i = 0; i <= NSIZES; i++) {
        const char *size = i < NSIZES ? sizes[i] : "mem";
        char put[64], get[64], what[32];
        snprintf(what, sizeof(what), i < NSIZES ? "%s bits" : "bytes (%s)", size);
        heading(what);
        snprintf(put, sizeof(put), "put%s", size);
        snprintf(get, sizeof(get), "get%s", size);
        device_groups(put, get, "void", i < NSIZES);
    }
    close_file();
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_api DIR\n");
        return 2;
    }
    write_rma(argv[1]);
    write_signal(argv[1]);
    write_amo(argv[1]);
    write_wait(argv[1]);
    write_coll(argv[1]);
    write_active(argv[1]);
    write_scan(argv[1]);
    write_sos(argv[1]);
    write_cxx(argv[1]);
    write_rscatter(argv[1]);
    write_nv(argv[1]);
    write_stream(argv[1]);
    write_device(argv[1]);
    return 0;
}
