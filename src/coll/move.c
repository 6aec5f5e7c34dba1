/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The team collectives that move data without combining it: broadcast, fcollect, alltoall,
 * collect and alltoalls, and their public shells (the byte forms and one per RMA row of the
 * type table). They run on the engine of coll.c; small parts go through cells and scratch
 * buffers, large parts are read from the users' own buffers. A large fcollect part is pushed
 * instead: its owner reads it once, a chunk at a time, and writes each chunk into every
 * member's dest after the member has posted the call. Copies that move more than this PE's
 * share of the cache use streaming stores; those that fit it alternate direction from call to
 * call (core/copy.c). Collectives on device-heap buffers run on the GPU (coll/gpu_coll.h); those without
 * a GPU form refuse them.
 */
#include "coll/engine.h"

/* ---- copies of large data ------------------------------------------------------------------
 * A call whose data does not fit this PE's share of the cache (core/copy.c) cannot keep its
 * destination there: every line would be read in for ownership, then written back on its way
 * out. Streaming (non-temporal) stores write such a destination straight out in full lines,
 * without reading it first. Calls whose data fits copy normally and leave their result in the
 * cache, where the next use finds it: on a machine whose L3 holds what the PEs move,
 * streaming would send every byte to memory for nothing (2 PEs, alltoall of 1 MiB per PE,
 * 1 MiB L2 and a large L3: 34 us streamed past the L2, 20 us through the cache). */

/* Whether a call that moves `moved` bytes through this PE's core (read plus written) streams. */
static int streams(size_t moved)
{
    return moved > symm_cache_share();
}

/* Bytes of a large fcollect part pushed to every member before the next: small enough to stay
 * in the core's first-level cache between the members' copies. */
#define PUSH_CHUNK (16u << 10)

/* Copies with streaming stores (not fenced) when `stream`. */
static void copy_nofence(void *dest, const void *src, size_t n, int stream)
{
    if (stream)
        symm_copy_stream_nofence(dest, src, n);
    else
        memcpy(dest, src, n);
}

static void stream_fence(int stream)
{
    if (stream)
        symm_copy_stream_fence();
}

static void copy(void *dest, const void *src, size_t n, int stream)
{
    copy_nofence(dest, src, n, stream);
    stream_fence(stream);
}

/* Calls whose data fits the cache alternate direction from call to call (core/copy.c), each
 * team by its own count. */
static int sweeps_back(symm_team_t *t)
{
    return (int)(t->sweeps++ & 1);
}

/* A copy streamed past the cache (stream), or forward or backwards (back) through it. */
static void copy_way(void *dest, const void *src, size_t n, int stream, int back)
{
    if (stream)
        copy(dest, src, n, 1);
    else
        symm_copy_swept(dest, src, n, back);
}

/* A whole-buffer copy of a call: streamed when it moves more than the cache share, else swept. */
static void copy_call(symm_team_t *t, void *dest, const void *src, size_t n)
{
    int stream = streams(2 * n);

    copy_way(dest, src, n, stream, !stream && sweeps_back(t));
}

/* ---- broadcast ---------------------------------------------------------------------------- */
/* root_dest: whether the root's dest receives the data too (the active-set form leaves it
 * alone); dropped here when dest is source, so below it means that the root copies. */
static void broadcast_body(shmem_team_t team, const char *call, void *dest,
                           const void *source, size_t nb, size_t es, int root, int root_dest)
{
    coll_t c;
    symm_team_t *t = symm_team_get(team, call);

    if (root < 0 || root >= t->size)
        symm_fatal("%s(team=%p, PE_root=%d): root is out of range (the team has %d PEs)", call,
                   (void *)team, root, t->size);
    if (dest == source)
        root_dest = 0;
    if (t->net && !on_device(dest, source)) {
        symm_span_broadcast(t, dest, source, nb, root, root_dest);
        return;
    }
    if (nb == 0) {
        symm_coll_no_data(team, call, OP_BCAST, root);
        return;
    }
    if (on_device(dest, source)) {
        symm_gpu_host_coll(call, SYMM_GPU_BCAST, (void *)team, dest, source, nb, root);
        return;
    }
    if (dest != source && (t->me != root || root_dest))
        symm_coll_check_disjoint(call, dest, nb, source, nb);
    symm_coll_begin(&c, team, call, OP_BCAST, nb / es, root, 0);
    if (nb <= SYMM_SCRATCH) {
        if (t->me == root) {
            symm_coll_publish(&c, source, nb);
            if (root_dest)
                memcpy(dest, source, nb);
            symm_coll_wake_hint(&c, nb);
        } else {
            if (runs_beside(&c, root))
                t->mate_root_bar = t->bar_epoch;
            post_later(&c);
            memcpy(dest, published(&c, root, nb), nb);
            symm_coll_wake_later(&c, 0);
        }
        return;
    }
    post(&c, WORD(&c, t->me, posted));
    if (t->me == root) {
        if (root_dest)
            copy_call(t, dest, source, nb);
        wait_all_done(&c, c.e);
        return;
    }
    wait_member(&c, root);
    copy_call(t, dest, remote(&c, source, nb, root), nb);
    post(&c, WORD(&c, t->me, done));
}

static void broadcast(shmem_team_t team, const char *call, void *dest, const void *source,
                      size_t nb, size_t es, int root)
{
    broadcast_body(team, call, dest, source, nb, es, root, 1);
}

/* ---- fcollect and alltoall ------------------------------------------------------------------
 * Member i's part for this PE: fcollect reads i's whole part, alltoall block `me` of it. */
static void gather(shmem_team_t team, const char *call, uint64_t op, void *dest,
                   const void *source, size_t nb, size_t es, size_t part, size_t pick)
{
    coll_t c;
    symm_team_t *t;
    int n, me;
    int small = part <= SYMM_SCRATCH, meets = posts_then_meets(part), stream, back;

    t = symm_team_get(team, call);
    if (t->net && !on_device(dest, source)) {
        symm_span_gather(t, dest, source, nb, pick);
        return;
    }
    if (nb == 0) {
        symm_coll_no_data(team, call, op, 0);
        return;
    }
    if (on_device(dest, source)) {
        symm_gpu_host_coll(call, pick ? SYMM_GPU_ALLTOALL : SYMM_GPU_FCOLLECT, (void *)team, dest,
                           source, nb, 0);
        return;
    }
    symm_coll_begin(&c, team, call, op, nb / es, 0, 0);
    t = c.t;
    n = t->size;
    me = t->me;
    symm_coll_check_disjoint(call, dest, nb * n, source, part);
    stream = !small && streams(2 * nb * n);
    if (small && symm_coll_pair(&c, nb)) {
        const int other = 1 - me;
        const char *theirs =
            symm_coll_pair_exchange(&c, (const char *)source + pick * other, nb);
        memcpy((char *)dest + (size_t)me * nb, (const char *)source + pick * me, nb);
        memcpy((char *)dest + (size_t)other * nb, theirs, nb);
        symm_coll_pair_done(&c);
        return;
    }
    if (small)
        symm_coll_publish(&c, source, part);
    else
        post(&c, WORD(&c, me, posted));
    if (!small && pick == 0) {
        /* Large fcollect parts are pushed: each PE reads its own part once, a chunk at a time,
         * and writes the chunk into every member's dest (once that member has entered). The
         * lines a PE touches (its part and n copies of it) stream past the cache when they
         * are more than twice its share of it; below that, alternating the chunk order from call to
         * call keeps more of them (2 PEs, 1 MiB: 96-104 us streamed, 75-78 us alternating). */
        size_t chunks = (nb + PUSH_CHUNK - 1) / PUSH_CHUNK;
        stream = nb * (size_t)(n + 1) > 2 * symm_cache_share();
        back = !stream && sweeps_back(t);
        for (int k = 1; k < n; k++)
            wait_member(&c, (me + k) % n);
        for (size_t ci = 0; ci < chunks; ci++) {
            size_t off = (back ? chunks - 1 - ci : ci) * PUSH_CHUNK;
            size_t len = nb - off < PUSH_CHUNK ? nb - off : PUSH_CHUNK;
            for (int k = 0; k < n; k++) {
                int i = (me + k) % n;
                char *to = (char *)dest + (size_t)me * nb + off;
                copy_nofence(k ? remote(&c, to, len, i) : to, (const char *)source + off, len,
                             stream);
            }
        }
        stream_fence(stream);
        symm_coll_finish(&c);
        return;
    }
    back = !small && !stream && sweeps_back(t);
    if (!back)
        copy_way((char *)dest + (size_t)me * nb, (const char *)source + pick * me, nb, stream, 0);
    /* With more PEs than CPUs, one barrier (each PE woken once) beats waiting for each member
     * in turn (a wake-up per member). */
    if (meets)
        meet(&c);
    for (int k = 1; k < n; k++) {
        int i = (me + (back ? n - k : k)) % n;
        const char *from;
        if (small) {
            from = published(&c, i, part);
        } else {
            wait_member(&c, i);
            from = remote(&c, source, part, i);
        }
        copy_way((char *)dest + (size_t)i * nb, from + pick * me, nb, stream, back);
    }
    if (back)
        copy_way((char *)dest + (size_t)me * nb, (const char *)source + pick * me, nb, 0, 1);
    if (!small)
        symm_coll_finish(&c);
    else if (!meets)
        symm_coll_wake_later(&c, part);
}

/* ---- collect (parts of any size) ---------------------------------------------------------- */
static void collect(shmem_team_t team, const char *call, void *dest, const void *source,
                    size_t nb)
{
    coll_t c;
    size_t off = 0;

    symm_coll_host_only(call, dest, source);
    if (symm_team_get(team, call)->net) {
        symm_span_collect(team, call, dest, source, nb);
        return;
    }
    symm_coll_begin(&c, team, call, OP_COLLECT, 0, 0, nb);
    post(&c, WORD(&c, c.t->me, posted));
    for (int i = 0; i < c.t->size; i++) {
        size_t len;
        if (i != c.t->me)
            wait_member(&c, i);
        len = slot_of(&c, i)->args[c.par].count;
        if (len && i == c.t->me)
            memcpy((char *)dest + off, source, len);
        else if (len)
            memcpy((char *)dest + off, remote(&c, source, len, i), len);
        off += len;
    }
    symm_coll_finish(&c);
}

/* ---- alltoalls (strided) ------------------------------------------------------------------ */
static void alltoalls(shmem_team_t team, const char *call, void *dest, const void *source,
                      ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t es)
{
    coll_t c;
    int n;

    if (dst < 1 || sst < 1)
        symm_fatal("%s(dst=%td, sst=%td): strides must be positive", call, dst, sst);
    symm_coll_host_only(call, dest, source);
    if (symm_team_get(team, call)->net) {
        symm_span_alltoalls(team, dest, source, dst, sst, nelems, es);
        return;
    }
    symm_coll_begin(&c, team, call, OP_ALLTOALLS, nelems, dst, (uint64_t)sst);
    n = c.t->size;
    post(&c, WORD(&c, c.t->me, posted));
    for (int k = 0; k < n; k++) {
        int i = (c.t->me + k) % n;
        const char *from = source;
        if (i != c.t->me) {
            wait_member(&c, i);
            if (nelems)
                from = remote(&c, source,
                              symm_coll_bytes(call, ((size_t)n * nelems - 1) * sst + 1, es), i);
        }
        for (size_t j = 0; j < nelems; j++)
            memcpy((char *)dest + (((size_t)i * nelems + j) * dst) * es,
                   from + (((size_t)c.t->me * nelems + j) * sst) * es, es);
    }
    symm_coll_finish(&c);
}

/* ---- Public shells ------------------------------------------------------------------------ */
SYMM_EXPORT int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source,
                                   size_t nelems, int PE_root)
{
    broadcast(team, "shmem_broadcastmem", dest, source, nelems, 1, PE_root);
    return 0;
}

SYMM_EXPORT int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source,
                                  size_t nelems)
{
    gather(team, "shmem_fcollectmem", OP_FCOLLECT, dest, source, nelems, 1, nelems, 0);
    return 0;
}

SYMM_EXPORT int shmem_collectmem(shmem_team_t team, void *dest, const void *source,
                                 size_t nelems)
{
    collect(team, "shmem_collectmem", dest, source, nelems);
    return 0;
}

/* Alltoall: the part is the whole source (one block per member); this PE picks block `me`. */
static void alltoall(shmem_team_t team, const char *call, void *dest, const void *source,
                     size_t nb, size_t es)
{
    symm_team_t *t = symm_team_get(team, call);

    gather(team, call, OP_ALLTOALL, dest, source, nb, es, symm_coll_bytes(call, nb, t->size), nb);
}

SYMM_EXPORT int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source,
                                  size_t nelems)
{
    alltoall(team, "shmem_alltoallmem", dest, source, nelems, 1);
    return 0;
}

SYMM_EXPORT int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source,
                                   ptrdiff_t dst, ptrdiff_t sst, size_t nelems)
{
    alltoalls(team, "shmem_alltoallsmem", dest, source, dst, sst, nelems, 1);
    return 0;
}

/* The typed forms (shmem_TYPE_broadcast, ...), written by cmake/gen_api.c. */
#include "coll/gen/typed_move.c"

/* ---- The active-set forms over every PE (coll/active.c) ------------------------------------ */
void symm_world_broadcast(const char *call, void *dest, const void *source, size_t nb, int root)
{
    broadcast_body(SHMEM_TEAM_WORLD, call, dest, source, nb, 1, root, 0);
}

void symm_world_gather(const char *call, void *dest, const void *source, size_t nb, int all)
{
    if (all)
        alltoall(SHMEM_TEAM_WORLD, call, dest, source, nb, 1);
    else
        gather(SHMEM_TEAM_WORLD, call, OP_FCOLLECT, dest, source, nb, 1, nb, 0);
}

void symm_world_collect(const char *call, void *dest, const void *source, size_t nb)
{
    collect(SHMEM_TEAM_WORLD, call, dest, source, nb);
}

void symm_world_alltoalls(const char *call, void *dest, const void *source, ptrdiff_t dst,
                          ptrdiff_t sst, size_t nelems, size_t es)
{
    alltoalls(SHMEM_TEAM_WORLD, call, dest, source, dst, sst, nelems, es);
}
