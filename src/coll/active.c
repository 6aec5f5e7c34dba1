/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Active-set collectives (OpenSHMEM 1.4 and earlier, deprecated but widely used): the PEs
 * PE_start + i * 2^logPE_stride, synchronised through the caller's pSync array.
 *
 * pSync is used so that it returns to SHMEM_SYNC_VALUE at the end of every call, whatever the
 * next call on it is: pSync[0] on the first PE of the set counts arrivals; the last PE to
 * arrive resets it and sets pSync[1] on every other PE, and each PE clears its own pSync[1]
 * when it sees it. A PE can arrive at the next barrier only after clearing its pSync[1], and
 * the count is reset before anyone is released, so consecutive calls on one pSync never mix.
 * pSync[2] carries a PE's element count for collect. The data moves as in the team
 * collectives, straight from the source PE's memory; each call is framed by two of these
 * barriers (the second keeps sources and destinations in use until every PE is done).
 *
 * A set of every PE of the job (PE_start 0, stride 1: what nearly every program passes) is the
 * world team, and its calls are the world team's (coll/move.c, coll/reduce.c, sync/barrier.c):
 * one synchronisation per call on the team engine, pSync untouched (2 PEs, a broadcast of 8 B
 * and a barrier: 0.84 to 0.32 us; 4 PEs on 2 CPUs: 4.9 to 1.8 us).
 */
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "tl/tl.h"

typedef struct aset {
    const char *call;
    int start;
    int stride;
    int size;
    int me;
    long *psync;
} aset_t;

static aset_t aset_make(const char *call, int start, int log_stride, int size, long *psync)
{
    aset_t a = {call, start, 0, size, -1, psync};
    int d;

    symm_check_init(call);
    if (log_stride < 0 || log_stride > 30 || size < 1 || start < 0 ||
        start + ((long)size - 1) * (1L << log_stride) >= symm_g.n_pes)
        symm_fatal("%s(PE_start=%d, logPE_stride=%d, PE_size=%d): the active set does not fit "
                   "the job's %d PEs", call, start, log_stride, size, symm_g.n_pes);
    a.stride = 1 << log_stride;
    d = symm_g.my_pe - start;
    if (d < 0 || d % a.stride || d / a.stride >= size)
        symm_fatal("%s(PE_start=%d, logPE_stride=%d, PE_size=%d): this PE (%d) is not in the "
                   "active set", call, start, log_stride, size, symm_g.my_pe);
    a.me = d / a.stride;
    if (!symm_xlate(psync, 3 * sizeof(long), symm_g.my_pe))
        symm_fatal("%s(pSync=%p): pSync is not symmetric memory", call, (void *)psync);
    return a;
}

static int aset_pe(const aset_t *a, int i)
{
    return a->start + i * a->stride;
}

/* Whether the set is every PE of the job: its calls run as the world team's. */
static int aset_world(const aset_t *a)
{
    return a->start == 0 && a->size == symm_g.n_pes && (a->stride == 1 || a->size == 1);
}


static int released(const void *arg)
{
    return atomic_load_explicit((_Atomic long *)arg, memory_order_acquire) != 0;
}

/* The words are reached through the window or, on other nodes, over the network; the reset
 * of the count completes (a fetching operation) before anyone is released. */
static void aset_meet(const aset_t *a, int quiet)
{
    _Atomic long *mine = (_Atomic long *)&a->psync[1];
    long one = 1;

    symm_full_fence();
    if (quiet)
        symm_net_quiet(SHMEM_CTX_DEFAULT);
    if (a->size == 1)
        return;
    if (aset_world(a)) {
        symm_barrier_world();
        return;
    }
    if ((long)symm_peer_amo(SYMM_AMO_ADD, &a->psync[0], sizeof(long), 1, aset_pe(a, 0)) ==
        a->size - 1) {
        symm_peer_amo(SYMM_AMO_SWAP, &a->psync[0], sizeof(long), 0, aset_pe(a, 0));
        for (int i = 0; i < a->size; i++)
            if (i != a->me)
                symm_peer_amo(SYMM_AMO_SET, &a->psync[1], sizeof(long), (uint64_t)one,
                              aset_pe(a, i));
        return;
    }
    if (!released(mine))
        symm_wait_for(released, mine, mine, sizeof(*mine));
    atomic_store_explicit(mine, 0, memory_order_relaxed);
}

static void aset_barrier(const aset_t *a)
{
    aset_meet(a, 1);
}

/* Copies len bytes at the symmetric addr of member i (checked as the call's argument). */
static void from(const aset_t *a, void *dest, const void *addr, size_t len, int i)
{
    int pe = aset_pe(a, i);

    if (len == 0)
        return;
    if (symm_g.reach[pe] == SYMM_REACH_WINDOW)
        memcpy(dest, symm_xlate_checked(a->call, addr, len, pe), len);
    else
        symm_rma_slow(SHMEM_CTX_DEFAULT, a->call, dest, addr, len, pe, SYMM_GET);
}

SYMM_EXPORT void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    aset_t a = aset_make("shmem_barrier", PE_start, logPE_stride, PE_size, pSync);

    aset_barrier(&a);
}

/* The deprecated active-set shmem_sync: the barrier without completing puts to other nodes
 * (stores through the window are ordered by the fence all the same). */
#undef shmem_sync
SYMM_EXPORT void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    aset_t a = aset_make("shmem_sync", PE_start, logPE_stride, PE_size, pSync);

    aset_meet(&a, 0);
}

static void bcast(const char *call, void *dest, const void *source, size_t nb, int root,
                  int start, int log_stride, int size, long *psync)
{
    aset_t a = aset_make(call, start, log_stride, size, psync);

    symm_coll_host_only(call, dest, source);
    if (root < 0 || root >= size)
        symm_fatal("%s(PE_root=%d): root is out of range (the active set has %d PEs)", call, root,
                   size);
    if (aset_world(&a)) {
        symm_world_broadcast(call, dest, source, nb, root);
        return;
    }
    aset_barrier(&a);
    if (a.me != root)
        from(&a, dest, source, nb, root);
    aset_barrier(&a);
}

static void fcollect(const char *call, void *dest, const void *source, size_t nb, int start,
                     int log_stride, int size, long *psync, int all_to_all)
{
    aset_t a = aset_make(call, start, log_stride, size, psync);
    size_t part = all_to_all ? nb * size : nb, pick = all_to_all ? nb : 0;

    symm_coll_host_only(call, dest, source);
    if (nb)
        symm_xlate_slow(call, source, part, symm_g.my_pe); /* the whole part is symmetric */
    if (aset_world(&a)) {
        symm_world_gather(call, dest, source, nb, all_to_all);
        return;
    }
    aset_barrier(&a);
    for (int i = 0; i < size && nb; i++)
        from(&a, (char *)dest + i * nb, (const char *)source + pick * a.me, nb, i);
    aset_barrier(&a);
}

static void collect(const char *call, void *dest, const void *source, size_t nb, int start,
                    int log_stride, int size, long *psync)
{
    aset_t a = aset_make(call, start, log_stride, size, psync);
    size_t off = 0;

    symm_coll_host_only(call, dest, source);
    if (aset_world(&a)) {
        symm_world_collect(call, dest, source, nb);
        return;
    }
    atomic_store_explicit((_Atomic long *)&psync[2], (long)nb, memory_order_relaxed);
    aset_barrier(&a);
    for (int i = 0; i < size; i++) {
        long len;
        symm_peer_get(&len, &psync[2], sizeof(len), aset_pe(&a, i));
        from(&a, (char *)dest + off, source, (size_t)len, i);
        off += (size_t)len;
    }
    aset_barrier(&a);
    atomic_store_explicit((_Atomic long *)&psync[2], SHMEM_SYNC_VALUE, memory_order_relaxed);
}

static void alltoalls(const char *call, void *dest, const void *source, ptrdiff_t dst,
                      ptrdiff_t sst, size_t nelems, size_t es, int start, int log_stride,
                      int size, long *psync)
{
    aset_t a = aset_make(call, start, log_stride, size, psync);

    symm_coll_host_only(call, dest, source);
    if (dst < 1 || sst < 1)
        symm_fatal("%s(dst=%td, sst=%td): strides must be positive", call, dst, sst);
    if (nelems)
        symm_xlate_slow(call, source, ((size_t)size * nelems - 1) * sst * es + es,
                        symm_g.my_pe); /* the whole extent is symmetric */
    if (aset_world(&a)) {
        symm_world_alltoalls(call, dest, source, dst, sst, nelems, es);
        return;
    }
    aset_barrier(&a);
    for (int i = 0; i < size && nelems; i++)
        for (size_t j = 0; j < nelems; j++)
            from(&a, (char *)dest + ((i * nelems + j) * dst) * es,
                 (const char *)source + ((a.me * nelems + j) * sst) * es, es, i);
    aset_barrier(&a);
}

/* The sized forms: the byte forms on nelems elements of 32 and 64 bits. */
SYMM_EXPORT void shmem_broadcast32(void *dest, const void *source, size_t nelems, int PE_root,
                                   int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    bcast("shmem_broadcast32", dest, source, nelems * 4, PE_root, PE_start, logPE_stride,
          PE_size, pSync);
}

SYMM_EXPORT void shmem_fcollect32(void *dest, const void *source, size_t nelems, int PE_start,
                                  int logPE_stride, int PE_size, long *pSync)
{
    fcollect("shmem_fcollect32", dest, source, nelems * 4, PE_start, logPE_stride, PE_size,
             pSync, 0);
}

SYMM_EXPORT void shmem_collect32(void *dest, const void *source, size_t nelems, int PE_start,
                                 int logPE_stride, int PE_size, long *pSync)
{
    collect("shmem_collect32", dest, source, nelems * 4, PE_start, logPE_stride, PE_size,
            pSync);
}

SYMM_EXPORT void shmem_alltoall32(void *dest, const void *source, size_t nelems, int PE_start,
                                  int logPE_stride, int PE_size, long *pSync)
{
    fcollect("shmem_alltoall32", dest, source, nelems * 4, PE_start, logPE_stride, PE_size,
             pSync, 1);
}

SYMM_EXPORT void shmem_alltoalls32(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                                   size_t nelems, int PE_start, int logPE_stride, int PE_size,
                                   long *pSync)
{
    alltoalls("shmem_alltoalls32", dest, source, dst, sst, nelems, 4, PE_start, logPE_stride,
              PE_size, pSync);
}

SYMM_EXPORT void shmem_broadcast64(void *dest, const void *source, size_t nelems, int PE_root,
                                   int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    bcast("shmem_broadcast64", dest, source, nelems * 8, PE_root, PE_start, logPE_stride,
          PE_size, pSync);
}

SYMM_EXPORT void shmem_fcollect64(void *dest, const void *source, size_t nelems, int PE_start,
                                  int logPE_stride, int PE_size, long *pSync)
{
    fcollect("shmem_fcollect64", dest, source, nelems * 8, PE_start, logPE_stride, PE_size,
             pSync, 0);
}

SYMM_EXPORT void shmem_collect64(void *dest, const void *source, size_t nelems, int PE_start,
                                 int logPE_stride, int PE_size, long *pSync)
{
    collect("shmem_collect64", dest, source, nelems * 8, PE_start, logPE_stride, PE_size,
            pSync);
}

SYMM_EXPORT void shmem_alltoall64(void *dest, const void *source, size_t nelems, int PE_start,
                                  int logPE_stride, int PE_size, long *pSync)
{
    fcollect("shmem_alltoall64", dest, source, nelems * 8, PE_start, logPE_stride, PE_size,
             pSync, 1);
}

SYMM_EXPORT void shmem_alltoalls64(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                                   size_t nelems, int PE_start, int logPE_stride, int PE_size,
                                   long *pSync)
{
    alltoalls("shmem_alltoalls64", dest, source, dst, sst, nelems, 8, PE_start, logPE_stride,
              PE_size, pSync);
}

/* Reductions: every PE combines all sources in set order into a private buffer, then copies
 * it to dest (dest may be source); results are identical on every PE. pWrk is not needed. */
static void to_all(const char *call, void *dest, const void *source, int nreduce,
                   symm_type_t type, symm_op_t op, int start, int log_stride, int size,
                   long *psync)
{
    aset_t a = aset_make(call, start, log_stride, size, psync);
    size_t es = symm_type_size[type], nb;
    symm_combine_fn fn = symm_combine[op][type];
    char *tmp, *in;

    symm_coll_host_only(call, dest, source);
    if (nreduce < 0)
        symm_fatal("%s(nreduce=%d): negative count", call, nreduce);
    nb = (size_t)nreduce * es;
    if (aset_world(&a)) {
        symm_coll_reduce(&symm_team_world, call, dest, source, (size_t)nreduce, es, fn,
                         symm_coll_op_id(call));
        return;
    }
    tmp = malloc(nb ? nb : 1);
    in = malloc(nb ? nb : 1);
    if (!tmp || !in)
        symm_fatal("%s: out of memory for %zu bytes", call, nb);
    aset_barrier(&a);
    for (int i = 0; i < size && nb; i++) {
        from(&a, i == 0 ? tmp : in, source, nb, i);
        if (i > 0)
            fn(tmp, in, (size_t)nreduce);
    }
    aset_barrier(&a);
    if (nb)
        memcpy(dest, tmp, nb);
    free(tmp);
    free(in);
}

/* The typed forms (shmem_TYPE_OP_to_all), written by cmake/gen_api.c. */
#include "coll/gen/typed_active.c"
