/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Team reductions and scans, and their public shells (one per operator a row of the type
 * table has). Elements combine through the [op][type] table (combine.c) in team order, so
 * every PE gets bit-identical results. Small parts go through cells and scratch buffers (the
 * engine of coll.c). A large reduction is split into one slice per worker: every member when
 * each PE has a CPU of its own, one per CPU when PEs outnumber CPUs. A worker combines its
 * slice of every source, in team order, a block at a time in a private buffer, and stores the
 * finished block into every member's dest, so one synchronisation (the workers' `done`, or a
 * team barrier when PEs outnumber CPUs) ends the call. Reductions on device-heap buffers run
 * on the GPU (coll/gpu_coll.h).
 */
#include <stdlib.h>

#include "coll/engine.h"

/* What identifies a reduction among the calls whose arguments SHMEM_DEBUG compares: a hash of
 * its name, computed only under SHMEM_DEBUG (0 otherwise, when nothing compares it). */
uint64_t symm_coll_op_id(const char *s)
{
    uint64_t h = 1469598103934665603ULL;

    if (!symm_g.params.debug)
        return 0;

    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
    return h;
}

/* ---- reductions ----------------------------------------------------------------------------- */
static void reduce_small(coll_t *c, void *dest, const void *source, size_t nelems, size_t es,
                         symm_combine_fn fn)
{
    size_t nb = nelems * es;
    int meets = posts_then_meets(nb);

    if (symm_coll_pair(c, nb)) {
        unsigned char own[SYMM_CELL_BYTES];
        const char *other;

        memcpy(own, source, nb); /* dest may be source */
        other = symm_coll_pair_exchange(c, own, nb);
        memcpy(dest, c->t->me == 0 ? (const char *)own : other, nb);
        fn(dest, c->t->me == 0 ? other : (const char *)own, nelems);
        symm_coll_pair_done(c);
        return;
    }
    symm_coll_publish(c, source, nb);
    if (meets)
        meet(c);
    for (int i = 0; i < c->t->size; i++) {
        const char *from = published(c, i, nb);
        if (i == 0)
            memcpy(dest, from, nb);
        else
            fn(dest, from, nelems);
    }
    if (!meets)
        symm_coll_wake_later(c, nb);
}

/* Combining goes a block at a time through a buffer that stays in the L1 cache. */
#define REDUCE_BLOCK 4096

/* Slice [lo, hi) of the reduction: combines it from every member's source in team order and
 * stores it into every member's dest. A block is read from every source before it is stored
 * anywhere, so dest may be source. */
static void reduce_slice(const coll_t *c, void *dest, const void *source, size_t nelems,
                         size_t es, symm_combine_fn fn, size_t lo, size_t hi)
{
    _Alignas(SYMM_CACHELINE) unsigned char acc[REDUCE_BLOCK];
    size_t per = REDUCE_BLOCK / es, nb = nelems * es;
    int n = c->t->size;

    for (size_t a = lo; a < hi; a += per) {
        size_t m = hi - a < per ? hi - a : per, off = a * es;
        memcpy(acc, remote(c, source, nb, 0) + off, m * es);
        for (int i = 1; i < n; i++)
            fn(acc, remote(c, source, nb, i) + off, m);
        for (int k = 0; k < n; k++) {
            int i = (c->t->me + k) % n;
            memcpy(remote(c, dest, nb, i) + off, acc, m * es);
        }
    }
}

/* Workers of a large reduction: every member, or one per CPU of the job when PEs outnumber
 * them. Worker k is the first member of the k-th CPU block (coll.h), so the workers run on
 * different CPUs (members 0 and 1 of 4 PEs on 2 CPUs would share one, and the other would
 * idle). This PE's worker number, or -1. */
static int reduce_worker(const coll_t *c, int *workers)
{
    int n = c->t->size, w = symm_g.oversubscribed ? symm_cpu_blocks(n) : n;
    int k = symm_cpu_block(c->t->me, n, w);

    *workers = w;
    return c->t->me == symm_cpu_block_first(k, n, w) ? k : -1;
}

static void reduce_large(coll_t *c, void *dest, const void *source, size_t nelems, size_t es,
                         symm_combine_fn fn)
{
    int n = c->t->size, me = c->t->me, w, k = reduce_worker(c, &w);
    size_t chunk = (nelems + w - 1) / w, lo, hi;

    chunk = (chunk + 63) & ~(size_t)63;
    post(c, WORD(c, me, posted));
    if (k >= 0) {
        /* Every member's source is ready and its dest free to write. */
        for (int i = 0; i < n; i++)
            if (i != me)
                wait_member(c, i);
        saw_all(c, c->e);
        lo = chunk * k < nelems ? chunk * k : nelems;
        hi = lo + chunk < nelems ? lo + chunk : nelems;
        reduce_slice(c, dest, source, nelems, es, fn, lo, hi);
    }
    /* Every member is a worker unless PEs outnumber CPUs. */
    if (symm_g.oversubscribed)
        meet(c);
    else
        symm_coll_finish(c);
}

void symm_coll_reduce(symm_team_t *t, const char *call, void *dest, const void *source,
                      size_t nelems, size_t es, symm_combine_fn fn, uint64_t op)
{
    coll_t c;
    size_t nb = symm_coll_bytes(call, nelems, es);

    if (dest != source)
        symm_coll_check_disjoint(call, dest, nb, source, nb);
    if (t->net) {
        symm_span_reduce(t, call, dest, source, nelems, es, fn);
        return;
    }
    symm_coll_begin(&c, t, call, op, nelems, 0, 0);
    if (nelems == 0)
        post(&c, WORD(&c, t->me, posted));
    else if (nb <= SYMM_SCRATCH)
        reduce_small(&c, dest, source, nelems, es, fn);
    else
        reduce_large(&c, dest, source, nelems, es, fn);
}

/* The library's own agreement steps; their op ids (7, 8) are no public reduction's. */
void symm_coll_and64(symm_team_t *t, uint64_t *out, uint64_t in)
{
    symm_coll_reduce(t, "shmem_team_split", out, &in, 1, sizeof(in),
                     symm_combine[SYMM_OP_and][SYMM_TYPE_uint64], 7);
}

void symm_coll_max64(symm_team_t *t, uint64_t *out, uint64_t in)
{
    symm_coll_reduce(t, "shmem_team_split", out, &in, 1, sizeof(in),
                     symm_combine[SYMM_OP_max][SYMM_TYPE_uint64], 8);
}

/* ---- scans (OpenSHMEM 1.6) ------------------------------------------------------------------
 * Member me combines the sources of members 0..me (inclusive) or 0..me-1 (exclusive) in team
 * order; the result is written only after every member finished reading, so dest may be
 * source. */
static void scan(shmem_team_t team, const char *call, void *dest, const void *source,
                 size_t nelems, symm_type_t type, int exclusive)
{
    coll_t c;
    size_t es = symm_type_size[type], nb = symm_coll_bytes(call, nelems, es);
    symm_combine_fn fn = symm_combine[SYMM_OP_sum][type];
    int last;
    char *tmp;

    if (symm_team_get(team, call)->net) {
        symm_coll_host_only(call, dest, source);
        symm_span_scan(team, call, dest, source, nelems, es, fn, exclusive);
        return;
    }
    if (nb == 0) {
        symm_coll_no_data(team, call, OP_SCAN, exclusive);
        return;
    }
    tmp = calloc(1, nb);
    if (!tmp)
        symm_fatal("%s: out of memory for %zu bytes", call, nb);
    symm_coll_host_only(call, dest, source);
    symm_coll_begin(&c, team, call, OP_SCAN, nelems, exclusive, 0);
    if (dest != source)
        symm_coll_check_disjoint(call, dest, nb, source, nb);
    post(&c, WORD(&c, c.t->me, posted));
    last = exclusive ? c.t->me - 1 : c.t->me;
    for (int i = 0; i <= last && nb; i++) {
        const char *from = i == c.t->me ? source : NULL;
        if (!from) {
            wait_member(&c, i);
            from = remote(&c, source, nb, i);
        }
        if (i == 0)
            memcpy(tmp, from, nb);
        else
            fn(tmp, from, nelems);
    }
    symm_coll_finish(&c);
    memcpy(dest, tmp, nb);
    free(tmp);
}

/* Team reductions: on the GPU when a buffer is in the device heap, else through the
 * [op][type] table. */
static int reduce(shmem_team_t team, const char *call, void *dest, const void *source,
                  size_t nreduce, symm_type_t type, symm_op_t op)
{
    symm_team_t *t = symm_team_get(team, call);

    if (SYMM_UNLIKELY(on_device(dest, source)))
        symm_gpu_host_reduce(call, (void *)team, dest, source, nreduce, type, op);
    else
        symm_coll_reduce(t, call, dest, source, nreduce, symm_type_size[type],
                         symm_combine[op][type], symm_coll_op_id(call));
    return 0;
}

/* The typed reductions and scans (scans under the names of OpenSHMEM 1.6 and of Sandia
 * OpenSHMEM), and NVSHMEM's half and bfloat16 on 16-bit words, written by cmake/gen_api.c. */
#include "coll/gen/typed_reduce.c"
