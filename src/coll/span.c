/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Collectives of teams whose members span nodes. Every member reads what it needs straight
 * from the other members' symmetric buffers (through the window on its node, over the network
 * elsewhere, all reads issued at once and completed together), framed by two team barriers:
 * the first says every member's source is ready, the second that nobody reads it any more.
 * Results are written only after the second where dest may be a source, and reductions
 * combine in team order on every PE, so all PEs get bit-identical results, as on one node.
 *
 * What every member of a node needs alike from other nodes (a broadcast's data, an fcollect's
 * parts) crosses the network once per node: the node's first member (its leader) fetches it
 * into its own symmetric dest and says so in its relay word, and the node's other members copy
 * it from there through the window. A large broadcast to three or more nodes reaches the
 * leaders along a chain, a segment at a time (chain_fetch).
 *
 * Small parts are pushed instead, each in one message that also counts itself in at the
 * receiver (symm_peer_put_note): after the first barrier every member sends what the others
 * need and waits until its own count has grown by what it expects. A receiver takes parts only
 * once every member has entered the collective, and it leaves only once it has all of them, so
 * one barrier frames the collective: half the barriers, and one way across the network instead
 * of a round trip.
 *
 * A broadcast of a cell's worth (SYMM_CELL_BYTES) needs no barrier at all: the root pushes it
 * into a cell of the team's slot on every member, and each member copies it from there into
 * its dest, so no member's dest is written before it has entered. The k-th such broadcast since
 * the team's last barrier uses cell k, which no member has used since it passed that barrier,
 * having taken everything before; after SYMM_CELLS of them a barrier comes first. A cell's
 * epoch word counts the broadcasts it has taken (the push adds one), so a member waits for its
 * own count, whichever root pushed and in whatever order pushes from different roots arrive.
 */
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"

static void *scratch(const char *call, size_t n)
{
    void *p = malloc(n ? n : 1);

    if (!p)
        symm_fatal("%s: out of memory for %zu bytes", call, n);
    return p;
}

/* Whether p is in this PE's heap or data segment: symmetric, so that the other members can
 * name it too (and, given the same on every member, all decide alike). */
static int symmetric(const void *p)
{
    int pe;
    uint64_t off;

    symm_locate(p, &pe, &off);
    return pe == symm_g.my_pe;
}

/* Whether the members of this node share what they fetch from other nodes: more than one of
 * them, and dest symmetric. */
static int shares(const symm_team_t *t, const void *dest)
{
    return t->local > 1 && symmetric(dest);
}

static int remote(int pe)
{
    return symm_g.reach[pe] == SYMM_REACH_NET;
}

/* The leader has fetched the node's parts of the collective of barrier epoch e. */
static void relayed(symm_team_t *t, uint32_t e)
{
    _Atomic uint32_t *w = &symm_slot(t, t->me)->relay.v;

    atomic_store_explicit(w, e, memory_order_seq_cst);
    symm_team_wake_node(t, w);
}

/* A member other than the leader: waits for the leader's parts of epoch e; returns the
 * leader's PE. */
static int await_relay(symm_team_t *t, uint32_t e)
{
    symm_wait_reach_local(&symm_slot(t, t->lead)->relay.v, e);
    return symm_team_pe(t, t->lead);
}

/* Whether a collective's parts of nb bytes to dest (NULL: to the team's scratch) are pushed:
 * small, and dest symmetric. */
static int pushes(const void *dest, size_t nb)
{
    return nb > 0 && nb <= symm_peer_note_max() && (!dest || symmetric(dest));
}

/* Pushes n bytes of src to `to` (a symmetric name) of team member i, adding one to its word
 * `count` (a symmetric name too). */
static void push_counted(symm_team_t *t, int i, void *to, const void *src, size_t n,
                         _Atomic uint32_t *count)
{
    if (!symm_peer_put_note(to, src, n, count, symm_team_pe(t, i)))
        symm_fatal("symm_peer_put_note: %zu bytes cannot be pushed to PE %d", n,
                   symm_team_pe(t, i));
}

/* Pushes n bytes of src to `to` of team member i, counted in its slot's `landed` word. */
static void push(symm_team_t *t, int i, void *to, const void *src, size_t n)
{
    push_counted(t, i, to, src, n, &symm_slot(t, t->me)->landed.v);
}

/* Waits until k more pushes have been counted in this PE's word w; *seen is how many it has
 * taken so far. */
static void await_count(_Atomic uint32_t *w, uint32_t *seen, uint32_t k)
{
    *seen += k;
    symm_wait_reach(w, *seen);
}

/* Waits until k more parts have landed here. */
static void take(symm_team_t *t, uint32_t k)
{
    await_count(&symm_slot(t, t->me)->landed.v, &t->landed, k);
}

/* Whether a collective whose parts of nb bytes, n of them, land in one cell of each member
 * goes through the cells (no barrier): they fit, and they can be pushed. */
static int boxes(size_t nb, size_t n)
{
    return nb > 0 && nb * n <= SYMM_CELL_BYTES && nb <= symm_peer_note_max();
}

/* The cell the next such collective of t uses (a barrier first after SYMM_CELLS of them):
 * its index in *k, this PE's copy (every member's at the same offset). */
static struct symm_cell *next_box(symm_team_t *t, int *k)
{
    if (t->unsynced == SYMM_CELLS)
        symm_team_barrier(t);
    *k = (int)t->unsynced++;
    return &symm_slot(t, t->me)->cell[*k];
}

/* Pushes n bytes of src to byte off of member i's cell `box`, counting one there. */
static void box_push(symm_team_t *t, int i, struct symm_cell *box, size_t off, const void *src,
                     size_t n)
{
    push_counted(t, i, box->data + off, src, n, &box->epoch);
}

/* Waits until `parts` more pushes have landed in this PE's cell k. */
static void box_wait(symm_team_t *t, int k, uint32_t parts)
{
    await_count(&symm_slot(t, t->me)->cell[k].epoch, &t->boxed[k], parts);
}

/* A broadcast through the members' cells. */
static void boxed_broadcast(symm_team_t *t, void *dest, const void *source, size_t nb, int root,
                            int root_dest)
{
    int k;
    struct symm_cell *box = next_box(t, &k);

    if (t->me == root) {
        for (int i = 0; i < t->size; i++)
            if (i != root)
                box_push(t, i, box, 0, source, nb);
        if (root_dest)
            memmove(dest, source, nb);
        return;
    }
    box_wait(t, k, 1);
    memcpy(dest, box->data, nb);
}

/* fcollect (pick 0) or alltoall (pick nb) through the members' cells: member i's part at
 * byte i * nb of the cell. */
static void boxed_gather(symm_team_t *t, void *dest, const void *source, size_t nb, size_t pick)
{
    int k;
    struct symm_cell *box = next_box(t, &k);

    for (int j = 1; j < t->size; j++) {
        int i = (t->me + j) % t->size;
        box_push(t, i, box, (size_t)t->me * nb, (const char *)source + pick * (size_t)i, nb);
    }
    memmove((char *)dest + (size_t)t->me * nb, (const char *)source + pick * (size_t)t->me, nb);
    box_wait(t, k, (uint32_t)t->size - 1);
    for (int i = 0; i < t->size; i++)
        if (i != t->me)
            memcpy((char *)dest + (size_t)i * nb, box->data + (size_t)i * nb, nb);
}

/* Large broadcasts to three or more nodes pass the data along a chain of the other nodes'
 * leaders, a segment at a time, instead of every leader fetching it all from the root at once
 * (whose link, or process, then serves it once per node): the first leader fetches each
 * segment from the root, each next one from the leader before it once that one says it has it
 * (a count pushed to it), and the segments move down the chain together. */
#define CHAIN_SEGMENT (128u << 10)

static int chains(const symm_team_t *t, const void *dest, size_t nb)
{
    return t->nlead > 2 && nb >= 2 * CHAIN_SEGMENT && symm_peer_note_max() > 0 &&
           symmetric(dest);
}

/* A leader of a node other than the root's: its place in the chain. */
static void chain_fetch(symm_team_t *t, void *dest, const void *source, size_t nb, int root)
{
    int rnode = symm_g.node[symm_team_pe(t, root)], rj = 0, p, from, next = -1;
    const char *src;

    for (int j = 0; j < t->nlead; j++)
        if (symm_g.node[symm_team_pe(t, t->leaders[j])] == rnode)
            rj = j;
    p = (t->lead_idx - rj + t->nlead) % t->nlead;
    from = p == 1 ? symm_team_pe(t, root) : symm_team_pe(t, t->leaders[(rj + p - 1) % t->nlead]);
    src = p == 1 ? (const char *)source : (const char *)dest;
    if (p + 1 < t->nlead)
        next = t->leaders[(rj + p + 1) % t->nlead];
    for (size_t off = 0; off < nb; off += CHAIN_SEGMENT) {
        size_t len = nb - off < CHAIN_SEGMENT ? nb - off : CHAIN_SEGMENT;
        if (p > 1)
            take(t, 1);
        symm_peer_get((char *)dest + off, src + off, len, from);
        if (next >= 0)
            push(t, next, dest, dest, 0);
    }
}

void symm_span_broadcast(symm_team_t *t, void *dest, const void *source, size_t nb, int root,
                         int root_dest)
{
    int from = symm_team_pe(t, root);

    if (boxes(nb, 1)) {
        boxed_broadcast(t, dest, source, nb, root, root_dest);
        return;
    }
    if (pushes(dest, nb)) {
        symm_team_barrier(t);
        if (t->me == root) {
            for (int i = 0; i < t->size; i++)
                if (i != root)
                    push(t, i, dest, source, nb);
            if (root_dest)
                memcpy(dest, source, nb);
        } else {
            take(t, 1);
        }
        return;
    }
    symm_team_barrier(t);
    if (t->me == root) {
        if (root_dest)
            memcpy(dest, source, nb);
    } else if (!remote(from)) {
        symm_peer_get(dest, source, nb, from);
    } else if (t->me == t->lead) {
        if (chains(t, dest, nb))
            chain_fetch(t, dest, source, nb, root);
        else
            symm_peer_get(dest, source, nb, from);
        if (shares(t, dest))
            relayed(t, t->bar_epoch);
    } else if (shares(t, dest)) {
        symm_peer_get(dest, dest, nb, await_relay(t, t->bar_epoch));
    } else {
        symm_peer_get(dest, source, nb, from);
    }
    symm_team_barrier(t);
}

void symm_span_gather(symm_team_t *t, void *dest, const void *source, size_t nb, size_t pick)
{
    /* fcollect's parts are the same for every member; alltoall's are not. */
    int share = pick == 0 && shares(t, dest), relay = share && t->me != t->lead;
    uint32_t e;

    if (boxes(nb, (size_t)t->size)) {
        boxed_gather(t, dest, source, nb, pick);
        return;
    }
    if (pushes(dest, nb)) {
        symm_team_barrier(t);
        for (int k = 1; k < t->size; k++) {
            int i = (t->me + k) % t->size;
            push(t, i, (char *)dest + (size_t)t->me * nb, (const char *)source + pick * (size_t)i,
                 nb);
        }
        memcpy((char *)dest + (size_t)t->me * nb, (const char *)source + pick * (size_t)t->me,
               nb);
        take(t, (uint32_t)t->size - 1);
        return;
    }
    symm_team_barrier(t);
    e = t->bar_epoch;
    for (int k = 0; k < t->size; k++) {
        int i = (t->me + k) % t->size, pe = symm_team_pe(t, i);
        const char *from = (const char *)source + pick * (size_t)t->me;
        if (i == t->me)
            memcpy((char *)dest + (size_t)i * nb, from, nb);
        else if (!relay || !remote(pe))
            symm_peer_get_nbi((char *)dest + (size_t)i * nb, from, nb, pe);
    }
    symm_net_quiet(SHMEM_CTX_DEFAULT);
    if (share && !relay) {
        relayed(t, e);
    } else if (relay) {
        int lead = await_relay(t, e);
        for (int i = 0; i < t->size; i++)
            if (remote(symm_team_pe(t, i)))
                symm_peer_get((char *)dest + (size_t)i * nb, (char *)dest + (size_t)i * nb, nb,
                              lead);
    }
    symm_team_barrier(t);
}

void symm_span_collect(symm_team_t *t, const char *call, void *dest, const void *source,
                       size_t nb)
{
    /* Each member's byte count, in its own slot, by call parity. */
    uint64_t *mine = &symm_slot(t, t->me)->args[t->coll_epoch++ & 1].count;
    uint64_t *len = scratch(call, (size_t)t->size * sizeof(*len));
    size_t off = 0;

    *mine = nb;
    symm_team_barrier(t);
    for (int i = 0; i < t->size; i++)
        symm_peer_get_nbi(&len[i], mine, sizeof(*len), symm_team_pe(t, i));
    symm_net_quiet(SHMEM_CTX_DEFAULT);
    for (int i = 0; i < t->size; i++) {
        symm_peer_get_nbi((char *)dest + off, source, len[i], symm_team_pe(t, i));
        off += len[i];
    }
    symm_net_quiet(SHMEM_CTX_DEFAULT);
    symm_team_barrier(t);
    free(len);
}

void symm_span_alltoalls(symm_team_t *t, void *dest, const void *source, ptrdiff_t dst,
                         ptrdiff_t sst, size_t nelems, size_t es)
{
    symm_team_barrier(t);
    for (int i = 0; i < t->size; i++)
        for (size_t j = 0; j < nelems; j++) {
            char *to = (char *)dest + (((size_t)i * nelems + j) * dst) * es;
            const char *from = (const char *)source + (((size_t)t->me * nelems + j) * sst) * es;
            if (i == t->me)
                memcpy(to, from, es);
            else
                symm_peer_get_nbi(to, from, es, symm_team_pe(t, i));
        }
    symm_net_quiet(SHMEM_CTX_DEFAULT);
    symm_team_barrier(t);
}

/* Combines the sources of members [0, last] in team order into a fresh buffer; all sources
 * are fetched at once, then combined. */
static char *combine(symm_team_t *t, const char *call, const void *source, size_t nelems,
                     size_t es, symm_combine_fn fn, int last)
{
    size_t nb = nelems * es;
    char *all = scratch(call, nb * (size_t)(last + 1)), *acc = scratch(call, nb);

    for (int i = 0; i <= last; i++)
        symm_peer_get_nbi(all + (size_t)i * nb, source, nb, symm_team_pe(t, i));
    symm_net_quiet(SHMEM_CTX_DEFAULT);
    memcpy(acc, all, nb);
    for (int i = 1; i <= last; i++)
        fn(acc, all + (size_t)i * nb, nelems);
    free(all);
    return acc;
}

/* Where the members read this PE's source: parts that fit are staged in the team's scratch
 * buffer, so that the library's own reductions may pass a local variable. */
static const void *staged(symm_team_t *t, const void *source, size_t nb)
{
    char *buf = symm_slot(t, t->me)->scratch[0];

    if (nb > SYMM_SCRATCH)
        return source;
    memcpy(buf, source, nb);
    return buf;
}

/* Small reductions and scans: every member pushes its source into each member that combines
 * it (every other member; in a scan, those after it), into a cell where all members' parts
 * fit in one (no barrier), else into the scratch after a barrier; each then combines members
 * [0, last] in team order from there. Returns the result (malloc'ed; NULL when last < 0);
 * *done is 0, and nothing happened, when the parts are too large to push. */
static char *pushed(symm_team_t *t, const char *call, const void *source, size_t nelems,
                    size_t es, symm_combine_fn fn, int scan, int last, int *done)
{
    const size_t nb = nelems * es;
    const int boxed = boxes(nb, (size_t)t->size);
    const uint32_t parts = scan ? (uint32_t)t->me : (uint32_t)t->size - 1;
    struct symm_cell *cell = NULL;
    char *box = symm_slot(t, t->me)->scratch[1], *acc;
    int k = 0;

    *done = boxed || (nb * (size_t)t->size <= SYMM_SCRATCH && pushes(NULL, nb));
    if (!*done)
        return NULL;
    if (boxed) {
        cell = next_box(t, &k);
        box = (char *)cell->data;
    } else {
        symm_team_barrier(t);
    }
    for (int i = scan ? t->me + 1 : 0; i < t->size; i++) {
        if (i == t->me)
            continue;
        if (boxed)
            box_push(t, i, cell, (size_t)t->me * nb, source, nb);
        else
            push(t, i, box + (size_t)t->me * nb, source, nb);
    }
    memcpy(box + (size_t)t->me * nb, source, nb);
    if (boxed)
        box_wait(t, k, parts);
    else
        take(t, parts);
    if (last < 0)
        return NULL;
    acc = scratch(call, nb);
    memcpy(acc, box, nb);
    for (int i = 1; i <= last; i++)
        fn(acc, box + (size_t)i * nb, nelems);
    return acc;
}

/* Large reductions into a symmetric dest: member i combines only slice i of the elements (in
 * team order, from every member's source) into its own dest, then reads the other slices from
 * the other members' dests. Each member reads its slice of every source and every other
 * member's slice of the result, not every member's whole source, and combines a slice instead
 * of the whole array; results stay in team order. Writing its slice of dest never touches
 * what another member reads (its slice of the sources), even in place. 0 when not used (dest
 * or source not symmetric, or fewer elements than members). */
static int sliced(symm_team_t *t, const char *call, void *dest, const void *source,
                  size_t nelems, size_t es, symm_combine_fn fn)
{
    int n = t->size;
    size_t lo = nelems * (size_t)t->me / (size_t)n, hi = nelems * (size_t)(t->me + 1) / (size_t)n;
    size_t nb = (hi - lo) * es;
    char *all;

    if (nelems < (size_t)n || !symmetric(dest) || !symmetric(source))
        return 0;
    all = scratch(call, nb * (size_t)n);
    symm_team_barrier(t); /* sources ready */
    for (int i = 0; i < n; i++)
        symm_peer_get_nbi(all + (size_t)i * nb, (const char *)source + lo * es, nb,
                          symm_team_pe(t, i));
    symm_net_quiet(SHMEM_CTX_DEFAULT);
    for (int i = 1; i < n; i++)
        fn(all, all + (size_t)i * nb, hi - lo);
    memcpy((char *)dest + lo * es, all, nb);
    free(all);
    symm_team_barrier(t); /* every slice of the result ready */
    for (int i = 0; i < n; i++) {
        size_t a = nelems * (size_t)i / (size_t)n, b = nelems * (size_t)(i + 1) / (size_t)n;
        if (i != t->me)
            symm_peer_get_nbi((char *)dest + a * es, (char *)dest + a * es, (b - a) * es,
                              symm_team_pe(t, i));
    }
    symm_net_quiet(SHMEM_CTX_DEFAULT);
    symm_team_barrier(t); /* nobody reads this PE's slice any more */
    return 1;
}

/* Large reductions of the operators that combine alike in any order (integer rows), in teams
 * of L members on each of G nodes: member j of each node combines slice j of its node's
 * sources through the window into its dest, then slice j of every node from member j of each
 * node over the network, and finally reads the node's other slices through the window. Each
 * node takes in one partial result a node, where the sliced form below takes every member's
 * slices and every other member's results: less where nodes hold several members. 0 when not
 * used. */
static int by_node(symm_team_t *t, const char *call, void *dest, const void *source,
                   size_t nelems, size_t es, symm_combine_fn fn)
{
    /* L >= 1: this PE is one of its node's members. */
    const int L = t->local, G = t->size / L, g = t->me / L, j = t->me % L;
    size_t lo, hi, nb;
    char *all;

    /* Each PE takes in (G - 1) / L of the array here, 2 (n - 1) / n in the sliced form. */
    if (G < 2 || (G - 1) * t->size >= 2 * (t->size - 1) * L || nelems < (size_t)L ||
        !symmetric(dest) || !symmetric(source) || !symm_combine_any_order(fn) ||
        !symm_team_node_blocks(t, L))
        return 0;
    lo = nelems * (size_t)j / (size_t)L;
    hi = nelems * (size_t)(j + 1) / (size_t)L;
    nb = (hi - lo) * es;
    all = scratch(call, nb * (size_t)(L > G ? L : G));
    symm_team_barrier(t); /* sources ready */
    for (int m = 0; m < L; m++)
        symm_peer_get_nbi(all + (size_t)m * nb, (const char *)source + lo * es, nb,
                          symm_team_pe(t, g * L + m));
    symm_net_quiet(SHMEM_CTX_DEFAULT);
    for (int m = 1; m < L; m++)
        fn(all, all + (size_t)m * nb, hi - lo);
    memcpy((char *)dest + lo * es, all, nb);
    symm_team_barrier(t); /* every node's partial results ready */
    for (int h = 0; h < G; h++)
        if (h != g)
            symm_peer_get_nbi(all + (size_t)h * nb, (char *)dest + lo * es, nb,
                              symm_team_pe(t, h * L + j));
    memcpy(all + (size_t)g * nb, (char *)dest + lo * es, nb);
    symm_net_quiet(SHMEM_CTX_DEFAULT);
    for (int h = 1; h < G; h++)
        fn(all, all + (size_t)h * nb, hi - lo);
    symm_team_barrier(t); /* nobody reads the partial results any more */
    memcpy((char *)dest + lo * es, all, nb);
    free(all);
    symm_team_barrier(t); /* every slice of the result ready */
    for (int m = 0; m < L; m++) {
        size_t a = nelems * (size_t)m / (size_t)L, b = nelems * (size_t)(m + 1) / (size_t)L;
        if (m != j)
            symm_peer_get_nbi((char *)dest + a * es, (char *)dest + a * es, (b - a) * es,
                              symm_team_pe(t, g * L + m));
    }
    symm_net_quiet(SHMEM_CTX_DEFAULT);
    symm_team_barrier(t); /* nobody reads this PE's slice any more */
    return 1;
}

void symm_span_reduce(symm_team_t *t, const char *call, void *dest, const void *source,
                      size_t nelems, size_t es, symm_combine_fn fn)
{
    char *acc;
    int done;

    acc = pushed(t, call, source, nelems, es, fn, 0, t->size - 1, &done);
    if (done) {
        memcpy(dest, acc, nelems * es);
        free(acc);
        return;
    }
    if (by_node(t, call, dest, source, nelems, es, fn) ||
        sliced(t, call, dest, source, nelems, es, fn))
        return;

    source = staged(t, source, nelems * es);
    symm_team_barrier(t);
    acc = combine(t, call, source, nelems, es, fn, t->size - 1);
    symm_team_barrier(t);
    memcpy(dest, acc, nelems * es);
    free(acc);
}

void symm_span_scan(symm_team_t *t, const char *call, void *dest, const void *source,
                    size_t nelems, size_t es, symm_combine_fn fn, int exclusive)
{
    int last = exclusive ? t->me - 1 : t->me, done;
    char *acc = pushed(t, call, source, nelems, es, fn, 1, last, &done);

    if (done) {
        if (acc)
            memcpy(dest, acc, nelems * es);
        else
            memset(dest, 0, nelems * es);
        free(acc);
        return;
    }

    source = staged(t, source, nelems * es);
    symm_team_barrier(t);
    if (last >= 0)
        acc = combine(t, call, source, nelems, es, fn, last);
    symm_team_barrier(t);
    if (acc)
        memcpy(dest, acc, nelems * es);
    else
        memset(dest, 0, nelems * es);
    free(acc);
}
