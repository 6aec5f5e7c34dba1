/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Teams. A team is an arithmetic progression of world PEs plus a slot: the piece of every
 * heap's internal part that holds the team's barrier words, collective flags and scratch, at
 * the same offset on every PE. A split picks the lowest slot free on every PE of the parent
 * (an AND of the PEs' free masks, reduced over the parent), so the members of a new team agree
 * on its slot without knowing each other's history. A slot is never cleared: a PE of the old
 * team may still be leaving its last barrier there. Every word in a slot holds an epoch and
 * only grows, so a new team starts its epochs above the highest any PE of the parent has used
 * (a maximum reduced over the parent) and raises its own words to that base. Team handles
 * are never freed: a destroyed team is marked, so that its use is reported. The team object
 * itself, and the predefined teams, are the core's (core/team.c).
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "coll/coll.h"
#include "core/gpu.h"
#include "core/core.h"
#include "tl/tl.h"

/* A team handle for queries: NULL for SHMEM_TEAM_INVALID, fatal for a destroyed one. */
static symm_team_t *team_query(shmem_team_t team, const char *call)
{
    return team == SHMEM_TEAM_INVALID ? NULL : symm_team_get(team, call);
}

SYMM_EXPORT int shmem_team_my_pe(shmem_team_t team)
{
    symm_team_t *t = team_query(team, "shmem_team_my_pe");

    return t ? t->me : -1;
}

SYMM_EXPORT int shmem_team_n_pes(shmem_team_t team)
{
    symm_team_t *t = team_query(team, "shmem_team_n_pes");

    return t ? t->size : -1;
}

SYMM_EXPORT int shmem_team_get_config(shmem_team_t team, long config_mask,
                                      shmem_team_config_t *config)
{
    symm_team_t *t = team_query(team, "shmem_team_get_config");

    if (!t)
        return -1;
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS)
        config->num_contexts = t->num_contexts;
    return 0;
}

/* Index of world PE `pe` in t, or -1. */
static int team_index(const symm_team_t *t, int pe)
{
    int d = pe - t->start;

    if (d < 0 || d % t->stride)
        return -1;
    return d / t->stride < t->size ? d / t->stride : -1;
}

SYMM_EXPORT int shmem_team_translate_pe(shmem_team_t src_team, int src_pe,
                                        shmem_team_t dest_team)
{
    symm_team_t *s = team_query(src_team, "shmem_team_translate_pe");
    symm_team_t *d = team_query(dest_team, "shmem_team_translate_pe");

    if (!s || !d || src_pe < 0 || src_pe >= s->size)
        return -1;
    return team_index(d, symm_team_pe(s, src_pe));
}

/* The skip-th lowest slot free on every PE of the parent, or -1. */
static int agree_slot(symm_team_t *parent, int skip)
{
    uint64_t free_mask = ~symm_g.slots_used, all;

    symm_coll_and64(parent, &all, free_mask);
    for (int s = 0; s < SYMM_TEAM_SLOTS; s++)
        if ((all >> s) & 1) {
            if (skip-- == 0)
                return s;
        }
    return -1;
}

/* Raises w to at least v. */
static void raise_to(_Atomic uint32_t *w, uint32_t v)
{
    uint32_t cur = atomic_load(w);

    while ((int32_t)(cur - v) < 0 && !atomic_compare_exchange_weak(w, &cur, v))
        ;
}

/* Brings the words of this PE's part of a slot up to a new team's starting epoch. */
static void slot_rebase(int slot, uint32_t base)
{
    symm_slot_t *s = &symm_internal(symm_g.my_pe)->slot[slot];

    for (int k = 0; k < SYMM_BARRIER_ROUNDS; k++)
        raise_to(&s->bar[k].v, base);
    raise_to(&s->release.v, base);
    raise_to(&s->posted.v, base);
    raise_to(&s->done.v, base);
    raise_to(&s->argued.v, base);
    /* Cells count the broadcasts they took in a team across nodes, and hold epochs below
     * base in a team within one node; no member of an earlier team writes them any more. */
    for (int k = 0; k < SYMM_CELLS; k++)
        atomic_store_explicit(&s->cell[k].epoch, base, memory_order_relaxed);
}

/* The starting epoch of teams split from parent now: above every epoch a PE of the parent
 * used (a PE of an old team can be at most two collectives ahead of another). */
static uint32_t agree_base(symm_team_t *parent)
{
    uint64_t mine = symm_g.epoch_hwm, all;

    symm_coll_max64(parent, &all, mine);
    return (uint32_t)all + 4;
}

static symm_team_t *team_new(int start, int stride, int size, int me, int slot, uint32_t base,
                             const shmem_team_config_t *config, long mask)
{
    symm_team_t *t = malloc(sizeof(*t));

    if (!t)
        symm_fatal("shmem_team_split: out of memory for a team handle");
    symm_team_set(t, start, stride, size, me, slot, "team");
    t->config_mask = mask;
    if (config && (mask & SHMEM_TEAM_NUM_CONTEXTS))
        t->num_contexts = config->num_contexts;
    symm_g.slots_used |= 1ULL << slot;
    symm_g.slot_team[slot] = t;
    t->bar_epoch = t->coll_epoch = base;
    /* Parts pushed into the slot for its earlier teams were all taken. */
    t->landed = atomic_load_explicit(&symm_internal(symm_g.my_pe)->slot[slot].landed.v,
                                     memory_order_acquire);
    slot_rebase(slot, base);
    for (int k = 0; k < SYMM_CELLS; k++)
        t->boxed[k] = base;
    symm_coll_slot_init(slot, base);
    symm_gpu_team_add(t);
    symm_debug("shmem_team_split: a team of %d PEs (start %d, stride %d) in slot %d, this PE "
               "its number %d", size, start, stride, slot, me);
    return t;
}

SYMM_EXPORT int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride,
                                         int size, const shmem_team_config_t *config,
                                         long config_mask, shmem_team_t *new_team)
{
    const char *call = "shmem_team_split_strided";
    symm_team_t *p;
    int slot, idx;
    uint32_t base;

    *new_team = SHMEM_TEAM_INVALID;
    if (parent_team == SHMEM_TEAM_INVALID)
        return -1;
    p = symm_team_get(parent_team, call);
    if (size < 1 || start < 0 || start >= p->size || (size > 1 && stride < 1) ||
        start + (long)(size - 1) * (size > 1 ? stride : 0) >= p->size) {
        symm_warn("%s(start=%d, stride=%d, size=%d): outside the parent team of %d PEs", call,
                  start, stride, size, p->size);
        symm_team_barrier(p);
        return -1;
    }
    if (size == 1)
        stride = 1;
    slot = agree_slot(p, 0);
    if (slot < 0) {
        symm_warn("%s: no free team slot (at most %d teams at once)", call, SYMM_TEAM_SLOTS);
        return -1;
    }
    base = agree_base(p);
    idx = p->me - start;
    if (idx >= 0 && idx % stride == 0 && idx / stride < size)
        *new_team = team_new(symm_team_pe(p, start), p->stride * stride, size, idx / stride,
                             slot, base, config, config_mask);
    /* No member may signal into a slot before every member has raised its own. */
    symm_team_barrier(p);
    return 0;
}

/* ---- Teams from a unique id ------------------------------------------------------------------
 * An id names the PE that made it and that PE's count of ids; the maker keeps a meeting record
 * for it in its internal part (one of SYMM_TEAM_UIDS, by the count), reset when the id is made,
 * before any member can know it. The members meet there knowing only the id, their number and
 * their indices: members 0 and 1 write their world PEs (which fix the team's progression), each
 * publishes in its own internal part the slots it has free and its highest epoch, and counts
 * itself in. Once all are in, each reads every member's offer, so all pick the same slot and
 * starting epoch; each makes the team, raises its slot, and counts itself in again; none
 * returns (and may signal into the slot) before all have. The record's words are reached
 * through the window or the network, as any PE's internal part is. */
#define UID_PE(u) ((int)((u) >> 32) - 1)

SYMM_EXPORT int shmemx_team_get_uniqueid(uint64_t *uniqueid)
{
    const char *call = "shmemx_team_get_uniqueid";
    uint32_t count;
    struct symm_uid_rec *r;

    symm_check_init(call);
    if (!uniqueid)
        symm_fatal("%s(uniqueid=NULL): no place for the id", call);
    count = ++symm_g.team_uids;
    if (count == 0)
        count = ++symm_g.team_uids;
    r = &symm_internal(symm_g.my_pe)->team_uid[count % SYMM_TEAM_UIDS];
    *uniqueid = (uint64_t)(symm_g.my_pe + 1) << 32 | count;
    atomic_store(&r->pe0, -1);
    atomic_store(&r->pe1, -1);
    atomic_store(&r->arrived, 0);
    atomic_store(&r->ready, 0);
    atomic_store(&r->uid, *uniqueid);
    return 0;
}

/* Waits until the word w of the record on pe reaches want; fatal when the record was given to
 * a later id meanwhile. */
static void uid_wait(const char *call, uint64_t uid, struct symm_uid_rec *r, _Atomic uint32_t *w,
                     uint32_t want, int pe)
{
    for (unsigned spins = 0;; spins++) {
        if ((uint32_t)symm_peer_amo(SYMM_AMO_FETCH, w, sizeof(*w), 0, pe) >= want)
            break;
        if (spins % 64 == 63 && symm_peer_amo(SYMM_AMO_FETCH, &r->uid, 8, 0, pe) != uid)
            symm_fatal("%s(uniqueid=%#llx): pe %d made %d more ids before every member of this "
                       "one joined", call, (unsigned long long)uid, pe, SYMM_TEAM_UIDS);
        if (spins < 64)
            sched_yield();
        else
            nanosleep(&(struct timespec){.tv_nsec = spins < 1024 ? 2000 : 50000}, NULL);
    }
}

SYMM_EXPORT int shmemx_team_init(uint64_t uniqueid, int npes, int pe_idx_in_team,
                                 const shmem_team_config_t *config, long config_mask,
                                 shmem_team_t *new_team)
{
    const char *call = "shmemx_team_init";
    const int maker = UID_PE(uniqueid), me = symm_g.my_pe;
    const uint32_t count = (uint32_t)uniqueid;
    struct symm_uid_rec *r;
    symm_internal_t *mine;
    uint64_t free_all = ~0ull, hwm = 0;
    int32_t pe0 = me, pe1 = me;
    int stride = 1, slot = -1;

    symm_check_init(call);
    if (!new_team)
        symm_fatal("%s(new_team=NULL): no place for the team", call);
    *new_team = SHMEM_TEAM_INVALID;
    if (maker < 0 || maker >= symm_g.n_pes || count == 0)
        symm_fatal("%s(uniqueid=%#llx): not an id that shmemx_team_get_uniqueid made", call,
                   (unsigned long long)uniqueid);
    if (npes < 1 || npes > symm_g.n_pes || pe_idx_in_team < 0 || pe_idx_in_team >= npes)
        symm_fatal("%s(npes=%d, pe_idx_in_team=%d): the job has %d PEs, the index must be in "
                   "0..npes-1", call, npes, pe_idx_in_team, symm_g.n_pes);
    r = &symm_internal(me)->team_uid[count % SYMM_TEAM_UIDS];
    if (symm_peer_amo(SYMM_AMO_FETCH, &r->uid, 8, 0, maker) != uniqueid)
        symm_fatal("%s(uniqueid=%#llx): pe %d has no record of this id (made %d or more ids "
                   "ago)", call, (unsigned long long)uniqueid, maker, SYMM_TEAM_UIDS);

    mine = symm_internal(me);
    mine->team_offer.uid = uniqueid;
    mine->team_offer.free = ~symm_g.slots_used;
    mine->team_offer.hwm = symm_g.epoch_hwm;
    symm_full_fence();
    if (pe_idx_in_team < 2)
        symm_peer_amo(SYMM_AMO_SWAP, pe_idx_in_team ? (void *)&r->pe1 : (void *)&r->pe0, 4,
                      (uint32_t)me, maker);
    symm_peer_amo(SYMM_AMO_ADD, &r->arrived, 4, 1, maker);
    uid_wait(call, uniqueid, r, &r->arrived, npes, maker);

    if (npes > 1) {
        pe0 = (int32_t)symm_peer_amo(SYMM_AMO_FETCH, &r->pe0, 4, 0, maker);
        pe1 = (int32_t)symm_peer_amo(SYMM_AMO_FETCH, &r->pe1, 4, 0, maker);
        stride = pe1 - pe0;
        if (stride < 1 || pe0 + (long)(npes - 1) * stride >= symm_g.n_pes ||
            me != pe0 + pe_idx_in_team * stride)
            symm_fatal("%s(uniqueid=%#llx, npes=%d, pe_idx_in_team=%d): members 0 and 1 are "
                       "pes %d and %d, so member %d would be pe %ld, but it is pe %d: symm's "
                       "teams are PEs start + i * stride", call, (unsigned long long)uniqueid,
                       npes, pe_idx_in_team, pe0, pe1, pe_idx_in_team,
                       pe0 + (long)pe_idx_in_team * stride, me);
    }
    for (int i = 0; i < npes; i++) {
        __typeof__(mine->team_offer) o;
        symm_peer_get(&o, &mine->team_offer, sizeof(o), pe0 + i * stride);
        if (o.uid != uniqueid)
            symm_fatal("%s(uniqueid=%#llx): pe %d, member %d, is joining another team "
                       "(%#llx)", call, (unsigned long long)uniqueid, pe0 + i * stride, i,
                       (unsigned long long)o.uid);
        free_all &= o.free;
        if (o.hwm > hwm)
            hwm = o.hwm;
    }
    for (int s = 0; s < SYMM_TEAM_SLOTS && slot < 0; s++)
        if ((free_all >> s) & 1)
            slot = s;
    if (slot < 0)
        symm_warn("%s: no free team slot (at most %d teams at once)", call, SYMM_TEAM_SLOTS);
    else
        *new_team = team_new(pe0, stride, npes, pe_idx_in_team, slot, (uint32_t)hwm + 4, config,
                             config_mask);
    symm_peer_amo(SYMM_AMO_ADD, &r->ready, 4, 1, maker);
    uid_wait(call, uniqueid, r, &r->ready, npes, maker);
    return slot < 0 ? -1 : 0;
}

SYMM_EXPORT int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
                                    const shmem_team_config_t *xaxis_config, long xaxis_mask,
                                    shmem_team_t *xaxis_team,
                                    const shmem_team_config_t *yaxis_config, long yaxis_mask,
                                    shmem_team_t *yaxis_team)
{
    const char *call = "shmem_team_split_2d";
    symm_team_t *p;
    int xs, ys, row, col, n;
    uint32_t base;

    *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    if (parent_team == SHMEM_TEAM_INVALID)
        return -1;
    p = symm_team_get(parent_team, call);
    if (xrange < 1) {
        symm_warn("%s(xrange=%d): xrange must be at least 1", call, xrange);
        symm_team_barrier(p);
        return -1;
    }
    if (xrange > p->size)
        xrange = p->size;
    /* The x teams are disjoint, and so are the y teams: one slot serves all teams of an axis. */
    xs = agree_slot(p, 0);
    ys = agree_slot(p, 1);
    if (xs < 0 || ys < 0) {
        symm_warn("%s: no free team slot (at most %d teams at once)", call, SYMM_TEAM_SLOTS);
        return -1;
    }
    base = agree_base(p);
    n = p->size;
    row = p->me / xrange;
    col = p->me % xrange;
    *xaxis_team = team_new(symm_team_pe(p, row * xrange), p->stride,
                           n - row * xrange < xrange ? n - row * xrange : xrange, col, xs,
                           base, xaxis_config, xaxis_mask);
    *yaxis_team = team_new(symm_team_pe(p, col), p->stride * xrange, (n - col + xrange - 1) / xrange,
                           row, ys, base, yaxis_config, yaxis_mask);
    symm_team_barrier(p);
    return 0;
}

SYMM_EXPORT void shmem_team_destroy(shmem_team_t team)
{
    symm_team_t *t;

    if (team == SHMEM_TEAM_INVALID)
        return;
    t = symm_team_get(team, "shmem_team_destroy");
    if (symm_team_predefined(t))
        symm_fatal("shmem_team_destroy(team=%s): a predefined team cannot be destroyed", t->name);
    /* Nobody may still read this PE's slot when a later split hands it to another team. */
    symm_team_barrier(t);
    symm_gpu_team_remove(t);
    symm_g.slots_used &= ~(1ULL << t->slot);
    symm_g.slot_team[t->slot] = NULL;
    t->magic = SYMM_TEAM_DEAD;
}

SYMM_EXPORT int shmem_team_sync(shmem_team_t team)
{
    symm_team_barrier(symm_team_get(team, "shmem_team_sync"));
    return 0;
}

SYMM_EXPORT int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
    symm_team_t *t;

    *ctx = SHMEM_CTX_INVALID;
    if (team == SHMEM_TEAM_INVALID)
        return -1;
    t = symm_team_get(team, "shmem_team_create_ctx");
    return symm_ctx_create("shmem_team_create_ctx", options, t, ctx) ? -1 : 0;
}

SYMM_EXPORT int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team)
{
    if (ctx == SHMEM_CTX_INVALID) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    symm_ctx_ok(ctx, "shmem_ctx_get_team");
    *team = ctx->team ? ctx->team : SHMEM_TEAM_WORLD;
    return 0;
}

SYMM_EXPORT void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe)
{
    symm_team_t *t = symm_team_get(team, "shmem_team_ptr");

    if (pe < 0 || pe >= t->size)
        symm_fatal("shmem_team_ptr(team=%p, dest=%p, pe=%d): pe %d is out of range (the team "
                   "has %d PEs)", (void *)team, dest, pe, pe, t->size);
    return symm_ptr(dest, symm_team_pe(t, pe));
}
