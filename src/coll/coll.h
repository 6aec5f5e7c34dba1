/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * src/coll: teams' splits (split.c), the collectives of teams and active sets on the host
 * (coll.c, move.c, reduce.c, rscatter.c, combine.c, span.c, active.c) and on a CUDA stream
 * (on_stream.c, gpu_coll.h; nocuda.c without CUDA), the symmetric heap (its mapping,
 * heapmap.c, and its collective allocation calls, heap.c) and the device heap (its window and
 * chunks, with the GPU part's start and end that set it up, devheap.c, and its collective
 * allocation calls, devalloc.c; devheap.h). It builds on sync and core and serves api; it
 * calls nothing above it. This header is the collective engine, for the public shells and for
 * the library's own agreement steps.
 */
#ifndef SYMM_COLL_H
#define SYMM_COLL_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "sync/sync.h"

/* Combines n elements of `in` into `acc` (acc = acc op in). */
typedef void (*symm_combine_fn)(void *acc, const void *in, size_t n);

/* The rows of the type table (SYMM_TYPE_float, ...), then NVSHMEM's (SYMM_TYPE_half,
 * SYMM_TYPE_bfloat16: 16-bit words), and the reduction operators (SYMM_OP_and, ...), in the
 * table's order. */
#define SYMM_TYPE_ID(_, NAME, ...) SYMM_TYPE_##NAME,
typedef enum {
    SYMM_TYPE_TABLE(SYMM_TYPE_ID, _) SYMM_TYPE_TABLE_NV(SYMM_TYPE_ID, _) SYMM_TYPE_COUNT
} symm_type_t;
#undef SYMM_TYPE_ID
#define SYMM_OP_ID(A, B, OP) SYMM_OP_##OP,
typedef enum { SYMM_OPS(SYMM_OP_ID, _, _) SYMM_OP_COUNT } symm_op_t;
#undef SYMM_OP_ID
/* The [op][type] table (combine.c): the combiner of an operator on a row's elements, NULL where
 * the row has no such operator; and each row's element size. */
extern const symm_combine_fn symm_combine[SYMM_OP_COUNT][SYMM_TYPE_COUNT];
/* Whether fn gives the same result in any order of combination (the integer rows). */
int symm_combine_any_order(symm_combine_fn fn);
extern const size_t symm_type_size[SYMM_TYPE_COUNT];

/* Fatal when dest or source lies in the device heap: for the collectives without a GPU form. */
void symm_coll_host_only(const char *call, const void *dest, const void *source);
/* n * size bytes, or a fatal error naming the call when that overflows. */
size_t symm_coll_bytes(const char *call, size_t n, size_t size);
/* Reduction over team t, elements of `size` bytes combined by fn in team order. */
void symm_coll_reduce(symm_team_t *t, const char *call, void *dest, const void *source,
                      size_t nelems, size_t size, symm_combine_fn fn, uint64_t op);
/* Starts this PE's record of the team in slot `slot`, whose epochs begin at base. */
void symm_coll_slot_init(int slot, uint32_t base);
/* The active-set collectives whose set is every PE of the job run as the world team's (move.c,
 * reduce.c): one call of the engine, where the pSync form meets in two barriers around the
 * data. The broadcast leaves the root's dest alone, as the active-set form does; gather is
 * fcollect, or alltoall when `all`. */
void symm_world_broadcast(const char *call, void *dest, const void *source, size_t nb, int root);
void symm_world_gather(const char *call, void *dest, const void *source, size_t nb, int all);
void symm_world_collect(const char *call, void *dest, const void *source, size_t nb);
void symm_world_alltoalls(const char *call, void *dest, const void *source, ptrdiff_t dst,
                          ptrdiff_t sst, size_t nelems, size_t es);
/* The id of a reduction call for the comparison of arguments under SHMEM_DEBUG (0 without). */
uint64_t symm_coll_op_id(const char *call);
/* Bitwise AND of one 64-bit word over team t. */
void symm_coll_and64(symm_team_t *t, uint64_t *out, uint64_t in);
/* Maximum of one 64-bit word over team t. */
void symm_coll_max64(symm_team_t *t, uint64_t *out, uint64_t in);

/* Collectives of teams whose members span nodes (span.c); dest and source are symmetric. */
/* root_dest: whether the root copies source into its dest (0: dest is source, or the
 * active-set form, which leaves the root's dest alone). */
void symm_span_broadcast(symm_team_t *t, void *dest, const void *source, size_t nb, int root,
                         int root_dest);
/* Member i's part for this PE: nb bytes at source + pick * (this PE's index) on i. */
void symm_span_gather(symm_team_t *t, void *dest, const void *source, size_t nb, size_t pick);
void symm_span_collect(symm_team_t *t, const char *call, void *dest, const void *source,
                       size_t nb);
void symm_span_alltoalls(symm_team_t *t, void *dest, const void *source, ptrdiff_t dst,
                         ptrdiff_t sst, size_t nelems, size_t es);
void symm_span_reduce(symm_team_t *t, const char *call, void *dest, const void *source,
                      size_t nelems, size_t es, symm_combine_fn fn);
void symm_span_scan(symm_team_t *t, const char *call, void *dest, const void *source,
                    size_t nelems, size_t es, symm_combine_fn fn, int exclusive);

/* ---- The heap's mapping (heapmap.c) ------------------------------------------------------ */
/* Before the bootstrap: sizes the heap, shares the data segment, fills the card's part. */
void symm_heap_card(symm_card_t *card);
symm_status_t symm_heap_init(void);
void symm_heap_fini(void);
/* Backs [from, to) of the heap on this PE (peers 0, before an allocation's barrier) or maps
 * the peers' pages (peers 1, after it). */
void symm_heap_prefault(size_t from, size_t to, int peers);
/* ---- Collective allocation (heap.c) ------------------------------------------------------ */
void *symm_heap_malloc(const char *call, size_t size, size_t align);
void symm_heap_free(const char *call, void *ptr);
void *symm_heap_realloc(const char *call, void *ptr, size_t size);
/* The agreement step of every collective allocation (host or device heap): publishes
 * (size, align, result), runs a barrier, checks every PE's record (fatal on a mismatch) and
 * returns the first PE whose result is negative, or -1. */
int symm_heap_agree(const char *call, uint64_t size, uint64_t align, int64_t result);

#endif
