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
 * From the same tables (the routines' bodies) it writes the library's typed definitions as
 * plain C into SRCDIR's api/gen, coll/gen and sync/gen, each a shell over a size-only body of
 * the file that includes it; and the rows with one 0/1 column per family (type_table.h), which
 * the expansions of the preprocessor take.
 *
 * Usage: gen_api DIR [SRCDIR]   writes DIR/type_table.h, DIR/shmem_rma.h, ...
 *                               DIR/device_group.cuh, and SRCDIR/api/gen/typed_rma.c, ...
 * The build runs it for `cmake --build <dir> --target symm_api_headers` (into the source
 * tree) and for the test api_headers_fresh (into the build tree, then compared).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symm/types.def"

/* ---- The table, as data ---------------------------------------------------------------------- */
/* The families a row may have, the names its FAMILIES join (symm/types.def), in the order of
 * the 0/1 columns of SYMM_TYPE_TABLE. */
/* clang-format off */
enum { RMA = 1 << 0, AMO = 1 << 1, EXT = 1 << 2, BIT = 1 << 3, WAIT = 1 << 4, BITRED = 1 << 5,
       MINMAX = 1 << 6, SUMPROD = 1 << 7, GEN = 1 << 8, BGEN = 1 << 9, SCAN = 1 << 10,
       TOALL = 1 << 11, TOBIT = 1 << 12, OLD = 1 << 13, DEV = 1 << 14, NFAMILIES = 15 };
/* clang-format on */

typedef struct row {
    const char *name, *type;
    int fams;
} row_t;

/* Whether row r has family fam. */
static int has(const row_t *r, int fam)
{
    return (r->fams & fam) != 0;
}

#define ROW(NAME, T, FAMILIES) {#NAME, #T, FAMILIES},
static const row_t rows[] = {SYMM_TYPE_ROWS_REAL(ROW) SYMM_TYPE_ROWS_COMPLEX(ROW)};
#define NROWS (sizeof(rows) / sizeof(rows[0]))
/* The complex rows, the last of rows: reduction types only. */
#define NCOMPLEX (sizeof((row_t[]){SYMM_TYPE_ROWS_COMPLEX(ROW)}) / sizeof(row_t))
/* NVSHMEM's 16-bit floating-point rows (nvshmem.h only). */
static const row_t nv_rows[] = {SYMM_TYPE_ROWS_NV(ROW)};
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
/* A routine: its return type, name, parameters and what it does; where the library defines it
 * in a generated source (src/FOLDER/gen), the body of its definition (see expand_code for its
 * placeholders) and whether its context form first checks the context and maps pe (guard). */
typedef struct routine {
    const char *ret, *name, *params, *what, *body;
    int guard;
} routine_t;

/* Blocking and non-blocking RMA, per element type (with context forms). */
static const routine_t rma[] = {
    {"void", "shmem_@_put", "T *dest, const T *source, size_t nelems, int pe",
     "Copies nelems elements of source to dest on pe; source is free on return",
     "put_body(ctx, #, dest, source, nelems, SIZE, pe);"},
    {"void", "shmem_@_get", "T *dest, const T *source, size_t nelems, int pe",
     "Copies nelems elements of source on pe to dest; they are in dest on return",
     "get_body(ctx, #, dest, source, nelems, SIZE, pe);"},
    {"void", "shmem_@_put_nbi", "T *dest, const T *source, size_t nelems, int pe",
     "Starts the put of nelems elements of source to dest on pe; done at shmem_quiet",
     "put_nbi_body(ctx, #, dest, source, nelems, SIZE, pe);"},
    {"void", "shmem_@_get_nbi", "T *dest, const T *source, size_t nelems, int pe",
     "Starts the get of nelems elements of source on pe into dest; done at shmem_quiet",
     "get_nbi_body(ctx, #, dest, source, nelems, SIZE, pe);"},
    {"void", "shmem_@_p", "T *dest, T value, int pe", "Stores value into dest on pe",
     "T *q = (T *)symm_xlate_fast(dest, sizeof(T), pe);\n"
     "if (SYMM_LIKELY(q != NULL)) {\n"
     "    *q = value;\n"
     "    symm_wake_hint(pe, q, sizeof(T));\n"
     "} else {\n"
     "    symm_rma_slow(ctx, #, dest, &value, sizeof(T), pe, SYMM_PUT);\n"
     "}",
     1},
    {"T", "shmem_@_g", "const T *source, int pe", "Returns the value of source on pe",
     "const T *q = (const T *)symm_xlate_fast(source, sizeof(T), pe);\n"
     "T v;\n"
     "if (SYMM_LIKELY(q != NULL))\n"
     "    return *q;\n"
     "symm_rma_slow(ctx, #, &v, source, sizeof(T), pe, SYMM_GET);\n"
     "return v;",
     1},
    {"void", "shmem_@_iput",
     "T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe",
     "Copies nelems elements, every sst-th of source to every dst-th of dest on pe",
     "iput_body(ctx, #, dest, source, dst, sst, nelems, SIZE, pe);"},
    {"void", "shmem_@_iget",
     "T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe",
     "Copies nelems elements, every sst-th of source on pe to every dst-th of dest",
     "iget_body(ctx, #, dest, source, dst, sst, nelems, SIZE, pe);"},
    {0}};

/* The same by element size in bits (with context forms). */
static const routine_t rma_sized[] = {
    {"void", "shmem_put@", "void *dest, const void *source, size_t nelems, int pe",
     "Copies nelems @-bit elements of source to dest on pe; source is free on return",
     "put_body(ctx, #, dest, source, nelems, SIZE, pe);"},
    {"void", "shmem_get@", "void *dest, const void *source, size_t nelems, int pe",
     "Copies nelems @-bit elements of source on pe to dest; they are in dest on return",
     "get_body(ctx, #, dest, source, nelems, SIZE, pe);"},
    {"void", "shmem_put@_nbi", "void *dest, const void *source, size_t nelems, int pe",
     "Starts the put of nelems @-bit elements to dest on pe; done at shmem_quiet",
     "put_nbi_body(ctx, #, dest, source, nelems, SIZE, pe);"},
    {"void", "shmem_get@_nbi", "void *dest, const void *source, size_t nelems, int pe",
     "Starts the get of nelems @-bit elements from source on pe; done at shmem_quiet",
     "get_nbi_body(ctx, #, dest, source, nelems, SIZE, pe);"},
    {"void", "shmem_iput@",
     "void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe",
     "Copies nelems @-bit elements, every sst-th of source to every dst-th of dest on pe",
     "iput_body(ctx, #, dest, source, dst, sst, nelems, SIZE, pe);"},
    {"void", "shmem_iget@",
     "void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe",
     "Copies nelems @-bit elements, every sst-th of source on pe to every dst-th of dest",
     "iget_body(ctx, #, dest, source, dst, sst, nelems, SIZE, pe);"},
    {0}};

/* Put with signal, per element type and by size (with context forms). */
static const routine_t signal_typed[] = {
    {"void", "shmem_@_put_signal",
     "T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, "
     "int sig_op, int pe",
     "Puts nelems elements to dest on pe, then updates sig_addr there by sig_op",
     "put_signal_body(ctx, #, dest, source, nelems, SIZE, sig_addr, signal, sig_op, pe);"},
    {"void", "shmem_@_put_signal_nbi",
     "T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, "
     "int sig_op, int pe",
     "Starts the put and the signal update of shmem_@_put_signal; done at shmem_quiet",
     "put_signal_body(ctx, #, dest, source, nelems, SIZE, sig_addr, signal, sig_op, pe);"},
    {0}};
static const routine_t signal_sized[] = {
    {"void", "shmem_put@_signal",
     "void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, "
     "int sig_op, int pe",
     "Puts nelems elements (@) to dest on pe, then updates sig_addr there by sig_op",
     "put_signal_body(ctx, #, dest, source, nelems, SIZE, sig_addr, signal, sig_op, pe);"},
    {"void", "shmem_put@_signal_nbi",
     "void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, "
     "int sig_op, int pe",
     "Starts the put and the signal update of shmem_put@_signal; done at shmem_quiet",
     "put_signal_body(ctx, #, dest, source, nelems, SIZE, sig_addr, signal, sig_op, pe);"},
    {0}};

/* Atomics (with context forms): EXT, AMO and BIT. Their bodies call the typed steps of
 * amo_steps and amo_rmw, which the generated source defines before them. */
static const routine_t amo_ext[] = {
    {"T", "shmem_@_atomic_fetch", "const T *source, int pe",
     "Returns the value of source on pe, read atomically", "return @_fetch(ctx, #, source, pe);",
     1},
    {"void", "shmem_@_atomic_set", "T *dest, T value, int pe",
     "Sets dest on pe to value atomically", "@_set(ctx, #, dest, value, pe);", 1},
    {"T", "shmem_@_atomic_swap", "T *dest, T value, int pe",
     "Sets dest on pe to value; returns its old value", "return @_swap(ctx, #, dest, value, pe);",
     1},
    {"void", "shmem_@_atomic_fetch_nbi", "T *fetch, const T *source, int pe",
     "Reads source on pe into fetch; done at shmem_quiet", "*fetch = @_fetch(ctx, #, source, pe);",
     1},
    {"void", "shmem_@_atomic_swap_nbi", "T *fetch, T *dest, T value, int pe",
     "Sets dest on pe to value, its old value into fetch; done at shmem_quiet",
     "*fetch = @_swap(ctx, #, dest, value, pe);", 1},
    {0}};
static const routine_t amo_std[] = {
    {"T", "shmem_@_atomic_compare_swap", "T *dest, T cond, T value, int pe",
     "Sets dest on pe to value if it equals cond; returns its old value",
     "return @_cswap(ctx, #, dest, cond, value, pe);", 1},
    {"T", "shmem_@_atomic_fetch_inc", "T *dest, int pe",
     "Adds 1 to dest on pe; returns its old value", "return @_fetch_add(ctx, #, dest, 1, pe);", 1},
    {"void", "shmem_@_atomic_inc", "T *dest, int pe", "Adds 1 to dest on pe",
     "@_fetch_add(ctx, #, dest, 1, pe);", 1},
    {"T", "shmem_@_atomic_fetch_add", "T *dest, T value, int pe",
     "Adds value to dest on pe; returns its old value",
     "return @_fetch_add(ctx, #, dest, value, pe);", 1},
    {"void", "shmem_@_atomic_add", "T *dest, T value, int pe", "Adds value to dest on pe",
     "@_fetch_add(ctx, #, dest, value, pe);", 1},
    {"void", "shmem_@_atomic_compare_swap_nbi", "T *fetch, T *dest, T cond, T value, int pe",
     "Compare-and-swap of dest on pe, its old value into fetch; done at shmem_quiet",
     "*fetch = @_cswap(ctx, #, dest, cond, value, pe);", 1},
    {"void", "shmem_@_atomic_fetch_inc_nbi", "T *fetch, T *dest, int pe",
     "Adds 1 to dest on pe, its old value into fetch; done at shmem_quiet",
     "*fetch = @_fetch_add(ctx, #, dest, 1, pe);", 1},
    {"void", "shmem_@_atomic_fetch_add_nbi", "T *fetch, T *dest, T value, int pe",
     "Adds value to dest on pe, its old value into fetch; done at shmem_quiet",
     "*fetch = @_fetch_add(ctx, #, dest, value, pe);", 1},
    {0}};
/* Per bitwise operator. */
static const routine_t amo_bit[] = {
    {"T", "shmem_@_atomic_fetch_%", "T *dest, T value, int pe",
     "Applies the $ of value to dest on pe; returns its old value",
     "return @_fetch_%(ctx, #, dest, value, pe);", 1},
    {"void", "shmem_@_atomic_%", "T *dest, T value, int pe",
     "Applies the $ of value to dest on pe", "@_fetch_%(ctx, #, dest, value, pe);", 1},
    {"void", "shmem_@_atomic_fetch_%_nbi", "T *fetch, T *dest, T value, int pe",
     "Applies the $ of value to dest on pe, its old value into fetch; done at shmem_quiet",
     "*fetch = @_fetch_%(ctx, #, dest, value, pe);", 1},
    {0}};

/* The deprecated names of OpenSHMEM 1.3 (no context forms): all OLD rows, then the AMO ones. */
static const routine_t amo_old[] = {
    {"T", "shmem_@_swap", "T *dest, T value, int pe", "Deprecated: shmem_@_atomic_swap",
     "return @_swap(ctx, #, dest, value, pe);"},
    {"T", "shmem_@_fetch", "const T *source, int pe", "Deprecated: shmem_@_atomic_fetch",
     "return @_fetch(ctx, #, source, pe);"},
    {"void", "shmem_@_set", "T *dest, T value, int pe", "Deprecated: shmem_@_atomic_set",
     "@_set(ctx, #, dest, value, pe);"},
    {0}};
static const routine_t amo_old_std[] = {
    {"T", "shmem_@_cswap", "T *dest, T cond, T value, int pe",
     "Deprecated: shmem_@_atomic_compare_swap", "return @_cswap(ctx, #, dest, cond, value, pe);"},
    {"T", "shmem_@_fadd", "T *dest, T value, int pe", "Deprecated: shmem_@_atomic_fetch_add",
     "return @_fetch_add(ctx, #, dest, value, pe);"},
    {"T", "shmem_@_finc", "T *dest, int pe", "Deprecated: shmem_@_atomic_fetch_inc",
     "return @_fetch_add(ctx, #, dest, 1, pe);"},
    {"void", "shmem_@_add", "T *dest, T value, int pe", "Deprecated: shmem_@_atomic_add",
     "(void)@_fetch_add(ctx, #, dest, value, pe);"},
    {"void", "shmem_@_inc", "T *dest, int pe", "Deprecated: shmem_@_atomic_inc",
     "(void)@_fetch_add(ctx, #, dest, 1, pe);"},
    {0}};

/* The typed steps of the atomics (static inline in the generated source, not public): each
 * performs the operation on pe's object and wakes a sleeper; amo_at, net_op are src/api/amo.c's.
 * Over the network every AMO waits for its reply, fetching or not: a PE's AMOs on one object
 * take effect in the order it issued them, whatever contexts they use, as they do through the
 * window (a posted one could be overtaken by a later one on another context's worker). */
static const routine_t amo_steps[] = {
    {"T", "@_fetch", "shmem_ctx_t ctx, const char *call, const T *src, int pe", NULL,
     "symm_tl_amo_t a;\n"
     "T r, z = 0, *p = amo_at(call, src, sizeof(T), pe, &a);\n"
     "if (SYMM_UNLIKELY(!p))\n"
     "    net_op(ctx, call, &a, SYMM_AMO_FETCH, &z, NULL, &r);\n"
     "else\n"
     "    __atomic_load(p, &r, __ATOMIC_SEQ_CST);\n"
     "return r;"},
    {"T", "@_swap", "shmem_ctx_t ctx, const char *call, T *dest, T v, int pe", NULL,
     "symm_tl_amo_t a;\n"
     "T r, *p = amo_at(call, dest, sizeof(T), pe, &a);\n"
     "if (SYMM_UNLIKELY(!p)) {\n"
     "    net_op(ctx, call, &a, SYMM_AMO_SWAP, &v, NULL, &r);\n"
     "    return r;\n"
     "}\n"
     "__atomic_exchange(p, &v, &r, __ATOMIC_SEQ_CST);\n"
     "symm_wake(pe, p, sizeof(T));\n"
     "return r;"},
    {"void", "@_set", "shmem_ctx_t ctx, const char *call, T *dest, T v, int pe", NULL,
     "symm_tl_amo_t a;\n"
     "T r, *p = amo_at(call, dest, sizeof(T), pe, &a);\n"
     "if (SYMM_UNLIKELY(!p)) {\n"
     "    net_op(ctx, call, &a, SYMM_AMO_SET, &v, NULL, &r);\n"
     "    return;\n"
     "}\n"
     "__atomic_exchange(p, &v, &r, __ATOMIC_SEQ_CST);\n"
     "symm_wake(pe, p, sizeof(T));"},
    {"T", "@_cswap", "shmem_ctx_t ctx, const char *call, T *dest, T cond, T v, int pe", NULL,
     "symm_tl_amo_t a;\n"
     "T r, *p = amo_at(call, dest, sizeof(T), pe, &a);\n"
     "if (SYMM_UNLIKELY(!p)) {\n"
     "    net_op(ctx, call, &a, SYMM_AMO_CSWAP, &v, &cond, &r);\n"
     "    return r;\n"
     "}\n"
     "__atomic_compare_exchange(p, &cond, &v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);\n"
     "symm_wake(pe, p, sizeof(T));\n"
     "return cond;"},
    {0}};
/* Read-modify-write by operator % (add, and the bitwise ones; ~ is its SYMM_AMO_ name). */
static const routine_t amo_rmw[] = {
    {"T", "@_fetch_%", "shmem_ctx_t ctx, const char *call, T *dest, T v, int pe", NULL,
     "symm_tl_amo_t a;\n"
     "T r = 0, *p = amo_at(call, dest, sizeof(T), pe, &a);\n"
     "if (SYMM_UNLIKELY(!p)) {\n"
     "    net_op(ctx, call, &a, SYMM_AMO_~, &v, NULL, &r);\n"
     "    return r;\n"
     "}\n"
     "r = __atomic_fetch_%(p, v, __ATOMIC_SEQ_CST);\n"
     "symm_wake(pe, p, sizeof(T));\n"
     "return r;"},
    {0}};

/* Point-to-point synchronization (no context forms). The bodies build the set of elements of
 * src/sync/p2p.c's engine (SET: ivars, count, status, comparison values and their stride),
 * check it (the last two: indices and whether the form is a "some") and run it. */
#define SET(IV, N, ST, VALS, VSTRIDE)                                                            \
    "elem_set_t s = {.ivars = (const char *)" IV ", .n = " N ", .size = sizeof(T),\n"            \
    "                .status = " ST ", .cmp = cmp, .values = (const char *)" VALS ",\n"          \
    "                .vstride = " VSTRIDE ", .sat = @_sat};\n"
#define ONE_VALUE SET("ivars", "nelems", "status", "&cmp_value", "0")
#define VALUES SET("ivars", "nelems", "status", "cmp_values", "sizeof(T)")
#define CHECK_ONE "check(#, ivars, nelems, sizeof(T), cmp, &cmp_value, "
#define CHECK_VALUES "check(#, ivars, nelems, sizeof(T), cmp, cmp_values, "
static const routine_t wait[] = {
    {"void", "shmem_@_wait_until", "T *ivar, int cmp, T cmp_value",
     "Waits until ivar cmp cmp_value holds", "symm_@_wait_one(#, ivar, cmp, cmp_value);"},
    {"void", "shmem_@_wait_until_all",
     "T *ivars, size_t nelems, const int *status, int cmp, T cmp_value",
     "Waits until every ivars[i] (status[i] zero) satisfies cmp cmp_value",
     ONE_VALUE CHECK_ONE "NULL, 0);\nrun(WAIT_ALL, &s, NULL);"},
    {"size_t", "shmem_@_wait_until_any",
     "T *ivars, size_t nelems, const int *status, int cmp, T cmp_value",
     "Waits until an ivars[i] satisfies cmp cmp_value; returns i",
     ONE_VALUE CHECK_ONE "NULL, 0);\nreturn (size_t)run(WAIT_ANY, &s, NULL);"},
    {"size_t", "shmem_@_wait_until_some",
     "T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T cmp_value",
     "Waits until some ivars[i] satisfy cmp cmp_value; stores them in indices, returns count",
     ONE_VALUE CHECK_ONE "indices, 1);\nreturn (size_t)run(WAIT_SOME, &s, indices);"},
    {"void", "shmem_@_wait_until_all_vector",
     "T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values",
     "Waits until every ivars[i] satisfies cmp cmp_values[i]",
     VALUES CHECK_VALUES "NULL, 0);\nrun(WAIT_ALL, &s, NULL);"},
    {"size_t", "shmem_@_wait_until_any_vector",
     "T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values",
     "Waits until an ivars[i] satisfies cmp cmp_values[i]; returns i",
     VALUES CHECK_VALUES "NULL, 0);\nreturn (size_t)run(WAIT_ANY, &s, NULL);"},
    {"size_t", "shmem_@_wait_until_some_vector",
     "T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T *cmp_values",
     "Waits until some ivars[i] satisfy cmp cmp_values[i]; stores them, returns the count",
     VALUES CHECK_VALUES "indices, 1);\nreturn (size_t)run(WAIT_SOME, &s, indices);"},
    {"int", "shmem_@_test", "T *ivar, int cmp, T cmp_value",
     "Returns whether ivar cmp cmp_value holds",
     SET("ivar", "1", "NULL", "&cmp_value", "0")
     "check(#, ivar, 1, sizeof(T), cmp, &cmp_value, NULL, 0);\n"
     "return (int)run(TEST_ALL, &s, NULL);"},
    {"int", "shmem_@_test_all", "T *ivars, size_t nelems, const int *status, int cmp, T cmp_value",
     "Returns whether every ivars[i] (status[i] zero) satisfies cmp cmp_value",
     ONE_VALUE CHECK_ONE "NULL, 0);\nreturn (int)run(TEST_ALL, &s, NULL);"},
    {"size_t", "shmem_@_test_any",
     "T *ivars, size_t nelems, const int *status, int cmp, T cmp_value",
     "Returns the index of an ivars[i] that satisfies cmp cmp_value, else SIZE_MAX",
     ONE_VALUE CHECK_ONE "NULL, 0);\nreturn (size_t)run(TEST_ANY, &s, NULL);"},
    {"size_t", "shmem_@_test_some",
     "T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T cmp_value",
     "Stores the indices of the ivars[i] that satisfy cmp cmp_value; returns their count",
     ONE_VALUE CHECK_ONE "indices, 1);\nreturn (size_t)run(TEST_SOME, &s, indices);"},
    {"int", "shmem_@_test_all_vector",
     "T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values",
     "Returns whether every ivars[i] satisfies cmp cmp_values[i]",
     VALUES CHECK_VALUES "NULL, 0);\nreturn (int)run(TEST_ALL, &s, NULL);"},
    {"size_t", "shmem_@_test_any_vector",
     "T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values",
     "Returns the index of an ivars[i] that satisfies cmp cmp_values[i], else SIZE_MAX",
     VALUES CHECK_VALUES "NULL, 0);\nreturn (size_t)run(TEST_ANY, &s, NULL);"},
    {"size_t", "shmem_@_test_some_vector",
     "T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T *cmp_values",
     "Stores the indices of the ivars[i] that satisfy cmp cmp_values[i]; returns the count",
     VALUES CHECK_VALUES "indices, 1);\nreturn (size_t)run(TEST_SOME, &s, indices);"},
    {"void", "shmem_@_wait", "T *ivar, T cmp_value",
     "Deprecated: waits until ivar differs from cmp_value",
     "symm_@_wait_one(#, ivar, SHMEM_CMP_NE, cmp_value);"},
    {0}};
/* The typed steps of the waits: whether an element satisfies the comparison (static), and the
 * wait on one variable that the deprecated and the long forms share (declared first). */
static const routine_t wait_sat[] = {
    {"int", "@_sat", "const void *elem, int cmp, const void *value", NULL,
     "T a = __atomic_load_n((const T *)elem, __ATOMIC_ACQUIRE), b = *(const T *)value;\n"
     "switch (cmp) {\n"
     "case SHMEM_CMP_EQ: return a == b;\n"
     "case SHMEM_CMP_NE: return a != b;\n"
     "case SHMEM_CMP_GT: return a > b;\n"
     "case SHMEM_CMP_GE: return a >= b;\n"
     "case SHMEM_CMP_LT: return a < b;\n"
     "default: return a <= b;\n"
     "}"},
    {0}};
static const routine_t wait_one[] = {
    {"void", "symm_@_wait_one", "const char *call, T *ivar, int cmp, T cmp_value", NULL,
     SET("ivar", "1", "NULL", "&cmp_value", "0")
     "check(call, ivar, 1, sizeof(T), cmp, &cmp_value, NULL, 0);\n"
     "run(WAIT_ALL, &s, NULL);"},
    {0}};

/* Team collectives (per RMA row) and reductions (per operator). */
static const routine_t coll[] = {
    {"int", "shmem_@_broadcast",
     "shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root",
     "Copies nelems elements of source on team PE PE_root to dest on every PE of team",
     "const char *call = #;\n"
     "broadcast(team, call, dest, source, symm_coll_bytes(call, nelems, sizeof(T)), sizeof(T),\n"
     "          PE_root);\n"
     "return 0;"},
    {"int", "shmem_@_collect", "shmem_team_t team, T *dest, const T *source, size_t nelems",
     "Concatenates every PE's nelems elements of source (counts may differ) into dest",
     "const char *call = #;\n"
     "collect(team, call, dest, source, symm_coll_bytes(call, nelems, sizeof(T)));\n"
     "return 0;"},
    {"int", "shmem_@_fcollect", "shmem_team_t team, T *dest, const T *source, size_t nelems",
     "Concatenates the nelems elements of source of every PE of team into dest",
     "const char *call = #;\n"
     "size_t nb = symm_coll_bytes(call, nelems, sizeof(T));\n"
     "gather(team, call, OP_FCOLLECT, dest, source, nb, sizeof(T), nb, 0);\n"
     "return 0;"},
    {"int", "shmem_@_alltoall", "shmem_team_t team, T *dest, const T *source, size_t nelems",
     "Sends block j of nelems elements of source to team PE j, into block i of its dest",
     "const char *call = #;\n"
     "alltoall(team, call, dest, source, symm_coll_bytes(call, nelems, sizeof(T)), sizeof(T));\n"
     "return 0;"},
    {"int", "shmem_@_alltoalls",
     "shmem_team_t team, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, "
     "size_t nelems",
     "shmem_@_alltoall with elements every sst-th of source and every dst-th of dest",
     "alltoalls(team, #, dest, source, dst, sst, nelems, sizeof(T));\n"
     "return 0;"},
    {0}};
static const routine_t reduce[] = {
    {"int", "shmem_@_%_reduce", "shmem_team_t team, T *dest, const T *source, size_t nreduce",
     "Sets dest on every PE of team to the $ of source over the team, element-wise",
     "return reduce(team, #, dest, source, nreduce, SYMM_TYPE_@, SYMM_OP_%);"},
    {0}};

/* Active-set reductions (deprecated in OpenSHMEM 1.5), per operator. */
static const routine_t to_all[] = {
    {"void", "shmem_@_%_to_all",
     "T *dest, const T *source, int nreduce, int PE_start, int logPE_stride, int PE_size, "
     "T *pWrk, long *pSync",
     "Sets dest on every PE of the active set to the $ of source over the set",
     "to_all(#, dest, source, nreduce, SYMM_TYPE_@, SYMM_OP_%, PE_start, logPE_stride, PE_size,\n"
     "       pSync);"},
    {0}};

/* shmemx.h: scans (OpenSHMEM 1.6). */
static const routine_t scan[] = {
    {"int", "shmem_@_sum_inscan", "shmem_team_t team, T *dest, const T *source, size_t nelems",
     "Sets dest on team PE i to the sum of source over team PEs 0..i",
     "scan(team, #, dest, source, nelems, SYMM_TYPE_@, 0);\nreturn 0;"},
    {"int", "shmem_@_sum_exscan", "shmem_team_t team, T *dest, const T *source, size_t nelems",
     "Sets dest on team PE i to the sum of source over team PEs 0..i-1 (zero on PE 0)",
     "scan(team, #, dest, source, nelems, SYMM_TYPE_@, 1);\nreturn 0;"},
    {0}};

/* shmemx.h: block-strided RMA, Sandia OpenSHMEM's extension, per element type and by size (with
 * context forms): nblocks blocks of bsize elements, block i at element i * sst of source and
 * i * tst of target (strides in elements, each at least bsize). */
static const routine_t blocked[] = {
    {"void", "shmemx_@_ibput",
     "T *target, const T *source, ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks, "
     "int pe",
     "Copies nblocks blocks of bsize elements, one every sst of source, to one every tst on pe",
     "ibput_body(ctx, #, target, source, tst, sst, bsize, nblocks, SIZE, pe);"},
    {"void", "shmemx_@_ibget",
     "T *target, const T *source, ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks, "
     "int pe",
     "Copies nblocks blocks of bsize elements, one every sst on pe, to one every tst of target",
     "ibget_body(ctx, #, target, source, tst, sst, bsize, nblocks, SIZE, pe);"},
    {0}};
static const routine_t blocked_sized[] = {
    {"void", "shmemx_ibput@",
     "void *target, const void *source, ptrdiff_t tst, ptrdiff_t sst, size_t bsize, "
     "size_t nblocks, int pe",
     "shmemx_TYPE_ibput on blocks of bsize @-bit elements", "ibput_body(ctx, #, target, source, tst, sst, bsize, nblocks, SIZE, pe);"},
    {"void", "shmemx_ibget@",
     "void *target, const void *source, ptrdiff_t tst, ptrdiff_t sst, size_t bsize, "
     "size_t nblocks, int pe",
     "shmemx_TYPE_ibget on blocks of bsize @-bit elements", "ibget_body(ctx, #, target, source, tst, sst, bsize, nblocks, SIZE, pe);"},
    {0}};

/* shmemx.h: the scans under Sandia OpenSHMEM's names. */
static const routine_t scan_x[] = {
    {"int", "shmemx_@_sum_inscan", "shmem_team_t team, T *dest, const T *source, size_t nelems",
     "As shmem_@_sum_inscan", "scan(team, #, dest, source, nelems, SYMM_TYPE_@, 0);\nreturn 0;"},
    {"int", "shmemx_@_sum_exscan", "shmem_team_t team, T *dest, const T *source, size_t nelems",
     "As shmem_@_sum_exscan", "scan(team, #, dest, source, nelems, SYMM_TYPE_@, 1);\nreturn 0;"},
    {0}};

/* shmemx.h: reduce-scatter (NVSHMEM's reducescatter), per operator. */
static const routine_t rscatter[] = {
    {"int", "shmemx_@_%_reducescatter",
     "shmem_team_t team, T *dest, const T *source, size_t nreduce",
     "Sets dest on team PE i to the $ over team of block i (nreduce elements) of source",
     "return reducescatter(team, #, dest, source, nreduce, SYMM_TYPE_@, SYMM_OP_%);"},
    {0}};

/* shmemx_gpu.h: reductions and reduce-scatters enqueued on a CUDA stream, per operator. */
static const routine_t stream[] = {
    {"int", "shmemx_@_%_reduce_on_stream",
     "shmem_team_t team, T *dest, const T *source, size_t nreduce, struct CUstream_st *stream",
     "shmem_@_%_reduce on device-heap buffers, enqueued on stream",
     "return reduce(#, team, dest, source, nreduce, SYMM_TYPE_@, SYMM_OP_%, stream);"},
    {"int", "shmemx_@_%_reducescatter_on_stream",
     "shmem_team_t team, T *dest, const T *source, size_t nreduce, struct CUstream_st *stream",
     "shmemx_@_%_reducescatter on device-heap buffers, enqueued on stream",
     "return rscatter(#, team, dest, source, nreduce, SYMM_TYPE_@, SYMM_OP_%, stream);"},
    {0}};

/* shmemx_gpu.h: RMA, put with signal, collectives and waits enqueued on a CUDA stream, per type
 * with device forms and per size (S is struct CUstream_st). */
#define ON_STREAM ", struct CUstream_st *stream"
#define STREAM_RMA(PUT)                                                                          \
    "const char *call = #;\n"                                                                    \
    "rma(call, dest, source, symm_coll_bytes(call, nelems, SIZE), pe, " PUT ", stream);"
#define STREAM_STRIDED(PUT)                                                                      \
    "strided(#, dest, source, dst, sst, nelems, SIZE, pe, " PUT ", stream);"
#define STREAM_SIGNAL                                                                            \
    "const char *call = #;\n"                                                                    \
    "put_signal(call, dest, source, symm_coll_bytes(call, nelems, SIZE), sig_addr, signal,\n"   \
    "           sig_op, pe, stream);"
static const routine_t stream_rma[] = {
    {"void", "shmemx_@_put_on_stream", "T *dest, const T *source, size_t nelems, int pe" ON_STREAM,
     "shmem_@_put enqueued on stream", STREAM_RMA("SYMM_PUT")},
    {"void", "shmemx_@_get_on_stream", "T *dest, const T *source, size_t nelems, int pe" ON_STREAM,
     "shmem_@_get enqueued on stream", STREAM_RMA("SYMM_GET")},
    {"void", "shmemx_@_put_nbi_on_stream",
     "T *dest, const T *source, size_t nelems, int pe" ON_STREAM,
     "shmem_@_put_nbi enqueued on stream: complete when the stream reaches later work",
     STREAM_RMA("SYMM_PUT")},
    {"void", "shmemx_@_get_nbi_on_stream",
     "T *dest, const T *source, size_t nelems, int pe" ON_STREAM,
     "shmem_@_get_nbi enqueued on stream: complete when the stream reaches later work",
     STREAM_RMA("SYMM_GET")},
    {"void", "shmemx_@_p_on_stream", "T *dest, const T value, int pe" ON_STREAM,
     "shmem_@_p enqueued on stream (value is taken at the call)",
     "p(#, dest, bits_of(&value, sizeof(T)), sizeof(T), pe, stream);"},
    {"T", "shmemx_@_g_on_stream", "const T *source, int pe" ON_STREAM,
     "shmem_@_g after the stream's earlier work: waits for the stream",
     "T v;\ng(#, &v, source, sizeof(T), pe, stream);\nreturn v;"},
    {"void", "shmemx_@_iput_on_stream",
     "T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe" ON_STREAM,
     "shmem_@_iput enqueued on stream", STREAM_STRIDED("SYMM_PUT")},
    {"void", "shmemx_@_iget_on_stream",
     "T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe" ON_STREAM,
     "shmem_@_iget enqueued on stream", STREAM_STRIDED("SYMM_GET")},
    {"void", "shmemx_@_put_signal_on_stream",
     "T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, "
     "int sig_op, int pe" ON_STREAM,
     "shmem_@_put_signal enqueued on stream", STREAM_SIGNAL},
    {"void", "shmemx_@_put_signal_nbi_on_stream",
     "T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, "
     "int sig_op, int pe" ON_STREAM,
     "shmem_@_put_signal_nbi enqueued on stream", STREAM_SIGNAL},
    {0}};
static const routine_t stream_sized[] = {
    {"void", "shmemx_put@_on_stream",
     "void *dest, const void *source, size_t nelems, int pe" ON_STREAM,
     "shmem_put@ enqueued on stream", STREAM_RMA("SYMM_PUT")},
    {"void", "shmemx_get@_on_stream",
     "void *dest, const void *source, size_t nelems, int pe" ON_STREAM,
     "shmem_get@ enqueued on stream", STREAM_RMA("SYMM_GET")},
    {"void", "shmemx_put@_nbi_on_stream",
     "void *dest, const void *source, size_t nelems, int pe" ON_STREAM,
     "shmem_put@_nbi enqueued on stream", STREAM_RMA("SYMM_PUT")},
    {"void", "shmemx_get@_nbi_on_stream",
     "void *dest, const void *source, size_t nelems, int pe" ON_STREAM,
     "shmem_get@_nbi enqueued on stream", STREAM_RMA("SYMM_GET")},
    {"void", "shmemx_iput@_on_stream",
     "void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, "
     "int pe" ON_STREAM,
     "shmem_iput@ enqueued on stream", STREAM_STRIDED("SYMM_PUT")},
    {"void", "shmemx_iget@_on_stream",
     "void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, "
     "int pe" ON_STREAM,
     "shmem_iget@ enqueued on stream", STREAM_STRIDED("SYMM_GET")},
    {"void", "shmemx_put@_signal_on_stream",
     "void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, "
     "int sig_op, int pe" ON_STREAM,
     "shmem_put@_signal enqueued on stream", STREAM_SIGNAL},
    {"void", "shmemx_put@_signal_nbi_on_stream",
     "void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, "
     "int sig_op, int pe" ON_STREAM,
     "shmem_put@_signal_nbi enqueued on stream", STREAM_SIGNAL},
    {0}};
static const routine_t stream_coll[] = {
    {"int", "shmemx_@_alltoall_on_stream",
     "shmem_team_t team, T *dest, const T *source, size_t nelems" ON_STREAM,
     "shmem_@_alltoall on device-heap buffers, enqueued on stream",
     "const char *call = #;\n"
     "return exchange(call, team, symm_cuda_g.k_alltoall, dest, source,\n"
     "                symm_coll_bytes(call, nelems, sizeof(T)), 1, stream);"},
    {"int", "shmemx_@_broadcast_on_stream",
     "shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root" ON_STREAM,
     "shmem_@_broadcast on device-heap buffers, enqueued on stream",
     "const char *call = #;\n"
     "return bcast(call, team, dest, source, symm_coll_bytes(call, nelems, sizeof(T)), PE_root,\n"
     "             stream);"},
    {"int", "shmemx_@_fcollect_on_stream",
     "shmem_team_t team, T *dest, const T *source, size_t nelems" ON_STREAM,
     "shmem_@_fcollect on device-heap buffers, enqueued on stream",
     "const char *call = #;\n"
     "return exchange(call, team, symm_cuda_g.k_fcollect, dest, source,\n"
     "                symm_coll_bytes(call, nelems, sizeof(T)), 0, stream);"},
    {0}};
/* The waits' element: its bits, size and whether it is signed. */
#define STREAM_ELEM "sizeof(T), !((T)0 < (T)-1), stream);"
static const routine_t stream_wait[] = {
    {"void", "shmemx_@_wait_until_on_stream", "T *ivar, int cmp, T cmp_value" ON_STREAM,
     "shmem_@_wait_until enqueued on stream: later work waits",
     "wait(#, ivar, 1, NULL, cmp, bits_of(&cmp_value, sizeof(T)), NULL, " STREAM_ELEM},
    {"void", "shmemx_@_wait_until_all_on_stream",
     "T *ivars, size_t nelems, const int *status, int cmp, T cmp_value" ON_STREAM,
     "shmem_@_wait_until_all enqueued on stream (status in memory the GPU reads)",
     "wait(#, ivars, nelems, status, cmp, bits_of(&cmp_value, sizeof(T)), NULL,\n     "
     STREAM_ELEM},
    {"void", "shmemx_@_wait_until_all_vector_on_stream",
     "T *ivars, size_t nelems, const int *status, int cmp, T *cmp_value" ON_STREAM,
     "shmem_@_wait_until_all_vector on stream (status, cmp_value: memory the GPU reads)",
     "if (!cmp_value)\n"
     "    symm_fatal(\"%s(ivars=%p): cmp_value is NULL\", #, (void *)ivars);\n"
     "wait(#, ivars, nelems, status, cmp, 0, cmp_value, " STREAM_ELEM},
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
     "dest on every PE of team: the $ of source over the team (nvshmem_@_%_reduce)",
     "return reduce(team, #, dest, source, nreduce, SYMM_TYPE_@, SYMM_OP_%);"},
    {"int", "shmemx_@_%_reducescatter",
     "shmem_team_t team, T *dest, const T *source, size_t nreduce",
     "Reduce-scatter by the $, as shmemx.h's (nvshmem_@_%_reducescatter)", "return reducescatter(team, #, dest, source, nreduce, SYMM_TYPE_@, SYMM_OP_%);"},
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

/* What the placeholders of a routine stand for; in a body (expand_code) also the element size,
 * the context and the name of the routine defined. */
typedef struct subs {
    const char *at, *type, *op, *get, *group, *size, *ctx, *self;
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
    family_ops(f, r, has(r, BITRED), has(r, MINMAX), has(r, SUMPROD), group, prefix);
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
        if (has(&rows[i], col)) {
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
        if (!has(r, EXT) && !has(r, AMO) && !has(r, BIT))
            continue;
        row_heading(r);
        if (has(r, EXT))
            family(amo_ext, r->name, r->type, NULL, 1);
        if (has(r, AMO))
            family(amo_std, r->name, r->type, NULL, 1);
        for (const char *const *op = ops_bitwise; has(r, BIT) && *op; op++)
            family(amo_bit, r->name, r->type, *op, 1);
    }
    heading("deprecated names (OpenSHMEM 1.3)");
    for (size_t i = 0; i < NROWS; i++)
        if (has(&rows[i], OLD)) {
            if (has(&rows[i], AMO))
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
        if (!has(r, RMA) && !has(r, BITRED) && !has(r, MINMAX) && !has(r, SUMPROD))
            continue;
        row_heading(r);
        if (has(r, RMA))
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
        if (!has(r, TOBIT) && !has(r, TOALL))
            continue;
        row_heading(r);
        family_ops(to_all, r, has(r, TOBIT), has(r, TOALL) && has(r, MINMAX),
                   has(r, TOALL) && has(r, SUMPROD), NULL, "");
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
        if (!has(r, BITRED) && !has(r, MINMAX) && !has(r, SUMPROD))
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
        if (!has(r, DEV))
            continue;
        row_heading(r);
        if (has(r, RMA)) {
            family(stream_rma, r->name, r->type, NULL, 0);
            family(stream_coll, r->name, r->type, NULL, 0);
        }
        reductions(stream, r, "");
        if (has(r, WAIT))
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
        if (has(&rows[i], SCAN))
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
        int gen = has(r, GEN), bgen = gen || has(r, BGEN);
        int any = (gen && (has(r, RMA) || has(r, EXT) || has(r, AMO) || has(r, WAIT) ||
                           has(r, MINMAX) || has(r, SUMPROD))) ||
                  (bgen && (has(r, BIT) || has(r, BITRED)));
        if (!any)
            continue;
        row_heading(r);
        if (gen && has(r, RMA)) {
            overloads(rma, r, NULL, 1);
            overloads(signal_typed, r, NULL, 1);
        }
        if (gen && has(r, EXT))
            overloads(amo_ext, r, NULL, 1);
        if (gen && has(r, AMO))
            overloads(amo_std, r, NULL, 1);
        if (bgen && has(r, BIT))
            overloads_ops(amo_bit, r, ops_bitwise, 1);
        if (gen && has(r, WAIT))
            overloads(wait, r, NULL, 0);
        if (gen && has(r, RMA))
            overloads(coll, r, NULL, 0);
        if (bgen && has(r, BITRED))
            overloads_ops(reduce, r, ops_bitwise, 0);
        if (gen && has(r, MINMAX))
            overloads_ops(reduce, r, ops_minmax, 0);
        if (gen && has(r, SUMPROD))
            overloads_ops(reduce, r, ops_sumprod, 0);
    }
    close_cxx();

    open_cxx(dir, "shmemx_cxx.h", "SYMM_GEN_SHMEMX_CXX_H",
             "The generic names of shmemx.h in C++ (Sandia OpenSHMEM's): shmemx_ibput and\n"
             " * shmemx_ibget, with context forms, and shmemx_sum_inscan and shmemx_sum_exscan, "
             "as\n * overloads over the rows of the C11 selectors.");
    for (size_t i = 0; i < NROWS; i++) {
        const row_t *r = &rows[i];
        if (!has(r, GEN) || (!has(r, RMA) && !has(r, SCAN)))
            continue;
        row_heading(r);
        if (has(r, RMA))
            overloads(blocked, r, NULL, 1);
        if (has(r, SCAN))
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
        if (!has(r, DEV))
            continue;
        row_heading(r);
        snprintf(put, sizeof(put), "%s_put", r->name);
        snprintf(get, sizeof(get), "%s_get", r->name);
        if (has(r, RMA))
            device_groups(put, get, r->type, 1);
        for (size_t g = 0; g < 2; g++) {
            const subs_t x = {.at = r->name, .type = r->type, .group = groups[g]};
            if (has(r, RMA))
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

/* ---- Definitions ------------------------------------------------------------------------------
 * The typed routines that the library defines, as plain C in src/<folder>/gen/: each is a shell
 * of a few lines over a size-only body of the hand-written file that includes the generated one
 * (its bodies are static inline there, so a shell compiles to what a hand-written one would). */

static int is_word(const char *p, size_t len, const char *w)
{
    return strlen(w) == len && strncmp(p, w, len) == 0;
}

/* Code s with @ (the row's name or the size), % (the operator), ~ (the operator in capitals)
 * and # (the name of the routine defined, quoted) replaced (% and ~ only where there is an
 * operator: elsewhere % is C's), and the words T (the type), SIZE
 * (the element size in bytes) and, where x->ctx is set, ctx (the context: ctx in a context
 * form, SHMEM_CTX_DEFAULT in the other). */
static void expand_code(char *buf, size_t cap, const char *s, const subs_t *x)
{
    size_t n = 0;

    for (const char *p = s; *p;) {
        char one[2] = {*p, 0}, word[128];
        const char *put = one;
        size_t adv = 1;
        if (*p == '@') {
            put = x->at;
        } else if (*p == '%' && x->op) {
            put = x->op;
        } else if (*p == '~' && x->op) {
            size_t k = 0;
            for (; x->op[k] && k + 1 < sizeof(word); k++)
                word[k] = (char)(x->op[k] >= 'a' && x->op[k] <= 'z' ? x->op[k] - 32 : x->op[k]);
            word[k] = 0;
            put = word;
        } else if (*p == '#' && x->self) {
            snprintf(word, sizeof(word), "\"%s\"", x->self);
            put = word;
        } else if (ident(*p)) {
            while (ident(p[adv]))
                adv++;
            if (is_word(p, adv, "T") && x->type)
                put = x->type;
            else if (is_word(p, adv, "SIZE") && x->size)
                put = x->size;
            else if (is_word(p, adv, "ctx") && x->ctx)
                put = x->ctx;
            else if (adv < sizeof(word))
                snprintf(word, sizeof(word), "%.*s", (int)adv, p), put = word;
            else
                put = NULL;
        }
        if (!put || n + strlen(put) + 1 > cap)
            fail("a body with a placeholder the family does not fill, or too long");
        memcpy(buf + n, put, strlen(put));
        n += strlen(put);
        p += adv;
    }
    buf[n] = 0;
}

/* PREFIX RET NAME(PARAMS) and its body, a line of code per line, indented. */
static void define(const char *prefix, const char *ret, const char *name, const char *params,
                   const char *body)
{
    char line[512];

    fprintf(out, "\n");
    signature(prefix, ret, name, params, ")", line, sizeof(line));
    fprintf(out, "%s\n{\n", line);
    for (const char *p = body; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        fprintf(out, "%s%.*s\n", len ? "    " : "", (int)len, p);
        p = nl ? nl + 1 : p + len;
    }
    fprintf(out, "}\n");
}

/* Routine f with x's placeholders, exported; with `ctx`, its context form first (guarded by a
 * check of the context and the mapping of pe to it where f says so). */
static void define_routine(const routine_t *f, const subs_t *base, int ctx)
{
    subs_t x = *base;
    char name[128], params[512], ret[64], body[2048];

    if (!f->body)
        fail("a routine defined without a body");
    expand(name, sizeof(name), f->name, &x);
    expand(params, sizeof(params), f->params, &x);
    expand(ret, sizeof(ret), f->ret, &x);
    if (ctx) {
        char cname[160], cparams[560], cbody[2600];
        snprintf(cname, sizeof(cname), "%s_ctx_%s", x_prefix(name) ? "shmemx" : "shmem",
                 strchr(name, '_') + 1);
        snprintf(cparams, sizeof(cparams), "shmem_ctx_t ctx, %s", params);
        x.self = cname;
        x.ctx = "ctx";
        expand_code(body, sizeof(body), f->body, &x);
        if (f->guard)
            snprintf(cbody, sizeof(cbody),
                     "if (!symm_ctx_ok(ctx, \"%s\"))\n    return%s%s%s;\n"
                     "pe = symm_ctx_pe(ctx, pe, \"%s\");\n%s",
                     cname, strcmp(ret, "void") ? " (" : "", strcmp(ret, "void") ? ret : "",
                     strcmp(ret, "void") ? ")0" : "", cname, body);
        else
            snprintf(cbody, sizeof(cbody), "%s", body);
        define("SYMM_EXPORT ", ret, cname, cparams, cbody);
    }
    x.self = name;
    x.ctx = "SHMEM_CTX_DEFAULT";
    expand_code(body, sizeof(body), f->body, &x);
    define("SYMM_EXPORT ", ret, name, params, body);
}

static void define_family(const routine_t *f, const subs_t *x, int ctx)
{
    for (; f->name; f++)
        define_routine(f, x, ctx);
}

/* The internal steps of family f (not exported): `prefix` before each; an extern one (prefix
 * "") is declared before it is defined. */
static void define_steps(const routine_t *f, const subs_t *base, const char *prefix)
{
    for (; f->name; f++) {
        subs_t x = *base;
        char name[128], params[512], ret[64], body[2048], line[512];
        expand(name, sizeof(name), f->name, &x);
        expand(params, sizeof(params), f->params, &x);
        expand(ret, sizeof(ret), f->ret, &x);
        x.self = name;
        expand_code(body, sizeof(body), f->body, &x);
        if (!*prefix) {
            fprintf(out, "\n");
            signature("", ret, name, params, ");", line, sizeof(line));
            fprintf(out, "%s", line);
        }
        define(prefix, ret, name, params, body);
    }
}

/* The placeholders of row r, its element size in size (cap bytes). */
static subs_t row_subs(const row_t *r, const char *type, char *size, size_t cap)
{
    snprintf(size, cap, "sizeof(%s)", type);
    return (subs_t){.at = r->name, .type = type, .size = size};
}

/* Family f once per operator of the families that are set. */
static void define_ops(const routine_t *f, const row_t *r, const char *type, int bitwise,
                       int minmax, int sumprod)
{
    const char *const *fams[] = {bitwise ? ops_bitwise : NULL, minmax ? ops_minmax : NULL,
                                 sumprod ? ops_sumprod : NULL};
    char size[64];

    for (size_t k = 0; k < 3; k++)
        for (const char *const *op = fams[k]; op && *op; op++) {
            subs_t x = row_subs(r, type, size, sizeof(size));
            x.op = *op;
            define_family(f, &x, 0);
        }
}

static void open_source(const char *dir, const char *file, const char *includer,
                        const char *what)
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
            " * api_headers_fresh fails when this file is not what the generator writes. "
            "Included by\n"
            " * %s, whose static inline bodies it calls: not a translation unit of its own.\n"
            " */\n",
            what, includer);
}

static void close_source(void)
{
    if (fclose(out) != 0)
        fail("cannot write");
}

/* The sized forms' placeholders: @ the size in bits, the element void. */
static subs_t sized_subs(const char *bits, char *size, size_t cap)
{
    snprintf(size, cap, "%s / 8", bits);
    return (subs_t){.at = bits, .type = "void", .size = size};
}

static void write_rma_defs(const char *dir)
{
    char size[64];

    open_source(dir, "api/gen/typed_rma.c", "src/api/rma.c",
                "The typed and sized RMA routines, put with signal and the block-strided calls:\n"
                " * each a shell over the size-only body of src/api/rma.c, in its context and "
                "its plain form.");
    for (size_t i = 0; i < NROWS; i++) {
        const row_t *r = &rows[i];
        subs_t x = row_subs(r, r->type, size, sizeof(size));
        if (!has(r, RMA))
            continue;
        row_heading(r);
        define_family(rma, &x, 1);
        define_family(signal_typed, &x, 1);
        define_family(blocked, &x, 1);
    }
    for (size_t i = 0; i < NSIZES; i++) {
        subs_t x = sized_subs(sizes[i], size, sizeof(size));
        char what[32];
        snprintf(what, sizeof(what), "%s bits", sizes[i]);
        heading(what);
        define_family(rma_sized, &x, 1);
        define_family(signal_sized, &x, 1);
        define_family(blocked_sized, &x, 1);
    }
    heading("bytes (mem)");
    define_family(signal_sized, &(subs_t){.at = "mem", .type = "void", .size = "1"}, 1);
    close_source();
}

static void write_amo_defs(const char *dir)
{
    char size[64];

    open_source(dir, "api/gen/typed_amo.c", "src/api/amo.c",
                "The typed atomic memory operations and their deprecated names: per row, the "
                "typed steps\n * (static inline), then the shells over them.");
    for (size_t i = 0; i < NROWS; i++) {
        const row_t *r = &rows[i];
        subs_t x = row_subs(r, r->type, size, sizeof(size));
        if (!has(r, EXT) && !has(r, AMO) && !has(r, BIT))
            continue;
        row_heading(r);
        if (has(r, EXT))
            define_steps(amo_steps, &x, "SYMM_INLINE ");
        if (has(r, AMO))
            define_steps(amo_rmw, &(subs_t){.at = r->name, .type = r->type, .op = "add"},
                         "SYMM_INLINE ");
        for (const char *const *op = ops_bitwise; has(r, BIT) && *op; op++)
            define_steps(amo_rmw, &(subs_t){.at = r->name, .type = r->type, .op = *op},
                         "SYMM_INLINE ");
        if (has(r, EXT))
            define_family(amo_ext, &x, 1);
        if (has(r, AMO))
            define_family(amo_std, &x, 1);
        for (const char *const *op = ops_bitwise; has(r, BIT) && *op; op++) {
            x.op = *op;
            define_family(amo_bit, &x, 1);
        }
    }
    heading("deprecated names (OpenSHMEM 1.3)");
    for (size_t i = 0; i < NROWS; i++) {
        const row_t *r = &rows[i];
        subs_t x = row_subs(r, r->type, size, sizeof(size));
        if (!has(r, OLD))
            continue;
        if (has(r, AMO))
            define_family(amo_old_std, &x, 0);
        define_family(amo_old, &x, 0);
    }
    close_source();
}

static void write_wait_defs(const char *dir)
{
    char size[64];

    open_source(dir, "sync/gen/typed_wait.c", "src/sync/p2p.c",
                "The typed wait_until and test routines: per row, the comparison and the wait "
                "on one\n * variable, then the shells over the engine of src/sync/p2p.c.");
    for (size_t i = 0; i < NROWS; i++) {
        const row_t *r = &rows[i];
        subs_t x = row_subs(r, r->type, size, sizeof(size));
        if (!has(r, WAIT))
            continue;
        row_heading(r);
        define_steps(wait_sat, &x, "static ");
        define_steps(wait_one, &x, "");
        define_family(wait, &x, 0);
    }
    close_source();
}

static void write_coll_defs(const char *dir)
{
    char size[64];

    open_source(dir, "coll/gen/typed_move.c", "src/coll/move.c",
                "The typed team collectives: broadcast, collect, fcollect, alltoall and "
                "alltoalls, each\n * a shell over the byte form of src/coll/move.c.");
    for (size_t i = 0; i < NROWS; i++) {
        const row_t *r = &rows[i];
        subs_t x = row_subs(r, r->type, size, sizeof(size));
        if (!has(r, RMA))
            continue;
        row_heading(r);
        define_family(coll, &x, 0);
    }
    close_source();

    open_source(dir, "coll/gen/typed_reduce.c", "src/coll/reduce.c",
                "The typed team reductions and scans (under the names of OpenSHMEM 1.6 and of "
                "Sandia\n * OpenSHMEM), and the reductions of NVSHMEM's half and bfloat16 on "
                "16-bit words.");
    for (size_t i = 0; i < NROWS; i++) {
        const row_t *r = &rows[i];
        subs_t x = row_subs(r, r->type, size, sizeof(size));
        if (!has(r, BITRED) && !has(r, MINMAX) && !has(r, SUMPROD) && !has(r, SCAN))
            continue;
        row_heading(r);
        define_ops(reduce, r, r->type, has(r, BITRED), has(r, MINMAX), has(r, SUMPROD));
        if (has(r, SCAN)) {
            define_family(scan, &x, 0);
            define_family(scan_x, &x, 0);
        }
    }
    for (size_t i = 0; i < NV_ROWS; i++) {
        const row_t *r = &nv_rows[i];
        const routine_t one[] = {nv_reduce[0], {0}};
        row_heading(r);
        define_ops(one, r, "uint16_t", 0, has(r, MINMAX), has(r, SUMPROD));
    }
    close_source();

    open_source(dir, "coll/gen/typed_rscatter.c", "src/coll/rscatter.c",
                "The typed reduce-scatters (NVSHMEM's reducescatter), NVSHMEM's half and "
                "bfloat16 on\n * 16-bit words.");
    for (size_t i = 0; i < NROWS + NV_ROWS; i++) {
        const row_t *r = i < NROWS ? &rows[i] : &nv_rows[i - NROWS];
        const routine_t one[] = {nv_reduce[1], {0}};
        if (!has(r, BITRED) && !has(r, MINMAX) && !has(r, SUMPROD))
            continue;
        row_heading(r);
        if (i < NROWS)
            define_ops(rscatter, r, r->type, has(r, BITRED), has(r, MINMAX), has(r, SUMPROD));
        else
            define_ops(one, r, "uint16_t", 0, has(r, MINMAX), has(r, SUMPROD));
    }
    close_source();

    open_source(dir, "coll/gen/typed_active.c", "src/coll/active.c",
                "The typed active-set reductions (_to_all), each a shell over to_all of "
                "src/coll/active.c.");
    for (size_t i = 0; i < NROWS; i++) {
        const row_t *r = &rows[i];
        if (!has(r, TOBIT) && !has(r, TOALL))
            continue;
        row_heading(r);
        define_ops(to_all, r, r->type, has(r, TOBIT), has(r, TOALL) && has(r, MINMAX),
                   has(r, TOALL) && has(r, SUMPROD));
    }
    close_source();
}

static void write_stream_defs(const char *dir)
{
    char size[64];

    open_source(dir, "api/gen/typed_rma_stream.c", "src/api/stream.c",
                "The typed and sized RMA, put with signal and waits on a CUDA stream, for "
                "every row with\n * device forms: each a shell over the byte form of "
                "src/api/stream.c.");
    for (size_t i = 0; i < NROWS; i++) {
        const row_t *r = &rows[i];
        subs_t x = row_subs(r, r->type, size, sizeof(size));
        if (!has(r, DEV) || (!has(r, RMA) && !has(r, WAIT)))
            continue;
        row_heading(r);
        if (has(r, RMA))
            define_family(stream_rma, &x, 0);
        if (has(r, WAIT))
            define_family(stream_wait, &x, 0);
    }
    for (size_t i = 0; i < NSIZES; i++) {
        subs_t x = sized_subs(sizes[i], size, sizeof(size));
        char what[32];
        snprintf(what, sizeof(what), "%s bits", sizes[i]);
        heading(what);
        define_family(stream_sized, &x, 0);
    }
    close_source();

    open_source(dir, "coll/gen/typed_coll_stream.c", "src/coll/on_stream.c",
                "The typed collectives, reductions and reduce-scatters on a CUDA stream, for "
                "every row with\n * device forms (NVSHMEM's half and bfloat16 on 16-bit "
                "words): shells over src/coll/on_stream.c.");
    for (size_t i = 0; i < NROWS + NV_ROWS; i++) {
        const row_t *r = i < NROWS ? &rows[i] : &nv_rows[i - NROWS];
        const char *type = i < NROWS ? r->type : "uint16_t";
        subs_t x = row_subs(r, type, size, sizeof(size));
        if (!has(r, DEV))
            continue;
        row_heading(r);
        if (i < NROWS && has(r, RMA))
            define_family(stream_coll, &x, 0);
        define_ops(stream, r, type, has(r, BITRED), has(r, MINMAX), has(r, SUMPROD));
    }
    close_source();
}

/* The arithmetic of each operator on elements A and B. */
static const struct {
    const char *op, *expr;
} combine_exprs[] = {{"and", "A & B"},         {"or", "A | B"},         {"xor", "A ^ B"},
                     {"max", "A > B ? A : B"}, {"min", "A < B ? A : B"}, {"sum", "A + B"},
                     {"prod", "A * B"}};

/* expr with A and B replaced by a and b. */
static void combine_expr(char *buf, size_t cap, const char *op, const char *a, const char *b)
{
    const char *expr = NULL;
    size_t n = 0;

    for (size_t k = 0; k < sizeof(combine_exprs) / sizeof(combine_exprs[0]); k++)
        if (strcmp(combine_exprs[k].op, op) == 0)
            expr = combine_exprs[k].expr;
    if (!expr)
        fail("an operator without arithmetic");
    for (const char *p = expr; *p; p++) {
        const char *put = *p == 'A' ? a : *p == 'B' ? b : NULL;
        size_t len = put ? strlen(put) : 1;
        if (n + len + 1 > cap)
            fail("a combiner too long");
        memcpy(buf + n, put ? put : p, len);
        n += len;
    }
    buf[n] = 0;
}

/* The operators of a row's combiners: the bitwise ones where BITRED or TOBIT is set, max and
 * min where MINMAX, sum and prod where SUMPROD; fn(row, op) for each. */
static void row_ops(const row_t *r, void (*fn)(const row_t *, const char *, int), int nv)
{
    const char *const *fams[] = {has(r, BITRED) || has(r, TOBIT) ? ops_bitwise : NULL,
                                 has(r, MINMAX) ? ops_minmax : NULL,
                                 has(r, SUMPROD) ? ops_sumprod : NULL};

    for (size_t k = 0; k < 3; k++)
        for (const char *const *op = fams[k]; op && *op; op++)
            fn(r, *op, nv);
}

static void combiner(const row_t *r, const char *op, int nv)
{
    char name[128], body[1024], expr[256], a[64], b[64];
    const char *type = nv ? "uint16_t" : r->type;

    snprintf(name, sizeof(name), "%s_%s", r->name, op);
    if (nv) {
        char e[200];
        snprintf(a, sizeof(a), "%s_get(a[i])", r->name);
        snprintf(b, sizeof(b), "%s_get(b[i])", r->name);
        combine_expr(e, sizeof(e), op, a, b);
        snprintf(expr, sizeof(expr), "%s_put(%s)", r->name, e);
    } else {
        combine_expr(expr, sizeof(expr), op, "a[i]", "b[i]");
    }
    snprintf(body, sizeof(body),
             "%s *restrict a = acc;\nconst %s *restrict b = in;\n\n"
             "for (size_t i = 0; i < n; i++)\n    a[i] = %s;",
             type, type, expr);
    define("static ", "void", name, "void *restrict acc, const void *restrict in, size_t n",
           body);
}

static void combine_entry(const row_t *r, const char *op, int nv)
{
    fprintf(out, "    [SYMM_OP_%s][SYMM_TYPE_%s] = %s_%s,\n", op, r->name, r->name, op);
    (void)nv;
}

static void any_order_test(const row_t *r, const char *op, int nv)
{
    fprintf(out, "    if (fn == %s_%s)\n        return 1;\n", r->name, op);
    (void)nv;
}

static void write_combine_defs(const char *dir)
{
    open_source(dir, "coll/gen/typed_combine.c", "src/coll/combine.c",
                "The [op][type] table of reductions: one combiner per operator of each row "
                "(acc[i] = acc[i]\n * op in[i]), the table, the element sizes, and which "
                "combiners give the same result in any\n * order. acc and in never overlap: "
                "the callers combine into a buffer of their own.");
    for (size_t i = 0; i < NROWS + NV_ROWS; i++) {
        const row_t *r = i < NROWS ? &rows[i] : &nv_rows[i - NROWS];
        row_heading(r);
        row_ops(r, combiner, i >= NROWS);
    }
    heading("the table");
    fprintf(out, "\nconst symm_combine_fn symm_combine[SYMM_OP_COUNT][SYMM_TYPE_COUNT] = {\n");
    for (size_t i = 0; i < NROWS + NV_ROWS; i++)
        row_ops(i < NROWS ? &rows[i] : &nv_rows[i - NROWS], combine_entry, i >= NROWS);
    fprintf(out, "};\n\nconst size_t symm_type_size[SYMM_TYPE_COUNT] = {\n");
    for (size_t i = 0; i < NROWS + NV_ROWS; i++) {
        const row_t *r = i < NROWS ? &rows[i] : &nv_rows[i - NROWS];
        fprintf(out, "    [SYMM_TYPE_%s] = sizeof(%s),\n", r->name,
                i < NROWS ? r->type : "uint16_t");
    }
    fprintf(out, "};\n\n"
                 "/* Whether fn combines alike in any order: the operators of the integer rows "
                 "(those with\n * bitwise reductions), where integer arithmetic wraps; a float's "
                 "sum or prod depends on the\n * order, and its max and min do where NaNs or "
                 "signed zeros meet. */\n"
                 "int symm_combine_any_order(symm_combine_fn fn)\n{\n");
    for (size_t i = 0; i < NROWS; i++)
        if (has(&rows[i], BITRED) || has(&rows[i], TOBIT))
            row_ops(&rows[i], any_order_test, 0);
    fprintf(out, "    return 0;\n}\n");
    close_source();
}


/* symm/gen/type_table.h: the rows with one 0/1 column per family, for the preprocessor. */
static void table_rows(const char *macro, const row_t *r, size_t n)
{
    fprintf(out, "#define %s(X, A) \\\n", macro);
    for (size_t i = 0; i < n; i++) {
        char name[32], type[32];
        snprintf(name, sizeof(name), "%s,", r[i].name);
        snprintf(type, sizeof(type), "%s,", r[i].type);
        fprintf(out, "    X(A, %-11s %-19s ", name, type);
        for (size_t k = 0; k < NFAMILIES; k++)
            fprintf(out, "%s%d", k ? ", " : "", has(&r[i], 1 << k));
        fprintf(out, ")%s\n", i + 1 < n ? " \\" : "");
    }
}

static void write_type_table(const char *dir)
{
    open_file(dir, "type_table.h", "SYMM_GEN_TYPE_TABLE_H",
              "The rows of the type table (symm/types.def) as the expansions of the preprocessor "
              "take\n * them: X(A, NAME, TYPE, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, "
              "GEN, BGEN, SCAN,\n * TOALL, TOBIT, OLD, DEV), one 0/1 column per family.");
    fprintf(out, "\n/* clang-format off */\n");
    table_rows("SYMM_TYPE_TABLE_REAL", rows, NROWS - NCOMPLEX);
    table_rows("SYMM_TYPE_TABLE_COMPLEX", rows + NROWS - NCOMPLEX, NCOMPLEX);
    table_rows("SYMM_TYPE_TABLE_NV", nv_rows, NV_ROWS);
    fprintf(out, "/* clang-format on */\n");
    close_file();
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: gen_api DIR [SRCDIR]\n");
        return 2;
    }
    write_type_table(argv[1]);
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
    if (argc == 3) {
        write_rma_defs(argv[2]);
        write_amo_defs(argv[2]);
        write_wait_defs(argv[2]);
        write_coll_defs(argv[2]);
        write_combine_defs(argv[2]);
        write_stream_defs(argv[2]);
    }
    return 0;
}
