/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Device collectives: alltoall, fcollect, broadcast, reductions and reduce-scatter. One body
 * serves the device API at thread, warp and block scope (one group of the scope S, channel 0
 * of 1, on any team: the team's slot has its own flags, epoch count and scratch) and the
 * library's on-stream kernels (blocks; world; block b of a grid of G is channel b of G: it
 * moves slice b of the data and synchronises only with block b of every peer, so no block
 * ever waits for another block of its own grid). "PE" below is a member of the team; member i
 * is world PE start + i * stride.
 *
 * Two protocols, chosen by the bytes one PE receives (the same on every PE):
 *  - small (one channel, every PE's part fits half a scratch buffer twice over): LL, as NCCL
 *    calls it. Every PE stores its part for every peer into that peer's scratch buffer
 *    (epoch & 1) as 8-byte words of 4 data bytes and 4 bytes of the epoch; an 8-byte store is
 *    single-copy atomic, so a word whose flag reads the epoch carries its data, and no fence
 *    and no separate flag are needed: one NVLink latency in all. Every PE sends every peer at
 *    least one word (broadcast: non-roots send an empty part), and that is what frees the
 *    parity buffer: a PE at epoch e has received every peer's part of e - 1, which that peer
 *    sent after it finished e - 2, the last use of the same buffer.
 *  - large: ready flags first (every peer's buffers are in use by this collective), then the
 *    data moves straight between the users' buffers (alltoall and fcollect push into the
 *    peers' dest; broadcast pulls from the root; reductions: each PE combines its own slice of
 *    every PE's source and stores the result into every PE's dest; reduce-scatter: each PE
 *    combines its part of every PE's source into its own dest), then done flags. Two
 *    latencies, no extra copy; flags are release stores after the group's data moves and
 *    acquire loads before the next step.
 * A team with a member on another node takes neither: its data moves as puts between team
 * barriers (the proxy's for the far members; "Teams that span nodes" below).
 * A team's collectives in kernels, whatever their scope, must be called in the same order on
 * every member, as one sequence; the stream collectives are another sequence, the same on
 * every PE.
 */
#ifndef SYMM_IMPL_COLL_CUH
#define SYMM_IMPL_COLL_CUH

#include "symm/impl/sync.cuh"


/* The reduction operators of the type table (SYMM_OPS): SYMM_DEV_OP_and, ...; and maxloc, of
 * the pair types (double2: the value in x, its location in y). */
#define SYMM_DEV_OP_ID(A, B, OP) SYMM_DEV_OP_##OP,
enum { SYMM_OPS(SYMM_DEV_OP_ID, _, _) SYMM_DEV_OP_maxloc };
#undef SYMM_DEV_OP_ID

/* One operator per struct, so that a type meets only the operators it is instantiated with
 * (no bitwise operator ever sees a float). */
template <int OP> struct symm_dev_op;
#define SYMM_DEV_OP(OP, EXPR)                                                                    \
    template <> struct symm_dev_op<OP> {                                                        \
        template <typename T> static __device__ __forceinline__ T f(T a, T b)                  \
        {                                                                                       \
            return EXPR;                                                                        \
        }                                                                                       \
    };
SYMM_DEV_OP(SYMM_DEV_OP_sum, a + b)
SYMM_DEV_OP(SYMM_DEV_OP_prod, a * b)
SYMM_DEV_OP(SYMM_DEV_OP_min, b < a ? b : a)
SYMM_DEV_OP(SYMM_DEV_OP_max, b > a ? b : a)
SYMM_DEV_OP(SYMM_DEV_OP_and, a & b)
SYMM_DEV_OP(SYMM_DEV_OP_or, a | b)
SYMM_DEV_OP(SYMM_DEV_OP_xor, a ^ b)
/* The larger value; of equal values the smaller location, so that every PE gets the same pair
 * whatever the order it combines them in. */
SYMM_DEV_OP(SYMM_DEV_OP_maxloc, b.x > a.x || (b.x == a.x && b.y < a.y) ? b : a)
#undef SYMM_DEV_OP

/* X(NAME, T, OP) once per reduction operator of a type table row with device forms. */
#define SYMM_DEV_ROW_OPS(X, NAME, T, BITRED, MINMAX, SUMPROD, DEV)                               \
    SYMM_IF_##DEV(SYMM_OPS_OF(X, NAME, T, BITRED, MINMAX, SUMPROD))

template <int OP, typename T> SYMM_DEV T symm_dev_combine(T a, T b)
{
    return symm_dev_op<OP>::template f<T>(a, b);
}

/* [lo, hi) of part i of n bytes cut into `parts` pieces on `unit` boundaries. */
SYMM_DEV void symm_dev_split(size_t n, size_t unit, int i, int parts, size_t *lo, size_t *hi)
{
    size_t units = (n + unit - 1) / unit, per = units / parts, rem = units % parts;
    size_t a = (size_t)i * per + ((size_t)i < rem ? (size_t)i : rem);
    size_t b = a + per + ((size_t)i < rem ? 1 : 0);

    *lo = a * unit < n ? a * unit : n;
    *hi = b * unit < n ? b * unit : n;
}

/* Where one collective keeps its synchronisation: its members, and either a team slot (chan <
 * 0: the block-scope collectives of the team in that slot, with the slot's flags, epoch count
 * and scratch) or channel chan of the stream kernels (the world's channels, with the stream
 * scratch, or a split team's channels, by slot); and its epoch. Kept small: it lives through
 * every collective. */
typedef struct symm_dev_cc {
    symm_dev_tv_t t;
    int chan;
    unsigned long long e;
} symm_dev_cc_t;

enum { SYMM_FLAG_READY, SYMM_FLAG_DONE };

/* The row of ready or done flags of collective c on world PE pe (one word per member). */
SYMM_DEV unsigned long long *symm_dev_flags(const symm_dev_cc_t &c, int which, int pe)
{
    symm_dev_internal_t *in = symm_dev_internal(pe);

    if (c.chan >= 0 && c.t.slot == 0)
        return which == SYMM_FLAG_READY ? in->ready[c.chan] : in->done[c.chan];
    if (c.chan >= 0)
        return which == SYMM_FLAG_READY ? in->tch_ready[c.t.slot][c.chan]
                                        : in->tch_done[c.t.slot][c.chan];
    return which == SYMM_FLAG_READY ? in->tready[c.t.slot] : in->tdone[c.t.slot];
}

/* Bytes of one scratch buffer of c (there are two, by epoch parity). */
SYMM_DEV size_t symm_dev_scratch_len(const symm_dev_cc_t &c)
{
    return c.chan >= 0 || c.t.slot == 0 ? SYMM_DEV_SCRATCH : SYMM_DEV_TEAM_SCRATCH;
}

/* Buffer (e & 1) of collective c on world PE pe. */
SYMM_DEV char *symm_dev_ll_buf(const symm_dev_cc_t &c, unsigned long long e, int pe)
{
    symm_dev_internal_t *in = symm_dev_internal(pe);

    if (c.chan >= 0)
        return in->stream_scratch[e & 1];
    if (c.t.slot == 0)
        return in->scratch[e & 1];
    return in->team_scratch[c.t.slot][e & 1];
}

/* A collective of team t in kernels, called by one group of scope S per member. */
template <int S> SYMM_DEV symm_dev_cc_t symm_dev_cc_group(const symm_dev_tv_t &t)
{
    symm_dev_cc_t c;

    c.t = t;
    c.chan = -1;
    c.e = symm_dev_group_next<S>(&symm_dev_internal(symm_dev_c.my_pe)->coll_epoch[t.slot]);
    return c;
}

SYMM_DEV symm_dev_cc_t symm_dev_cc_block(const symm_dev_tv_t &t)
{
    return symm_dev_cc_group<SYMM_BLOCK>(t);
}

/* Channel ch of a stream kernel of team t (the world: slot 0). */
SYMM_DEV symm_dev_cc_t symm_dev_cc_channel(const symm_dev_tv_t &t, int ch)
{
    symm_dev_internal_t *in = symm_dev_internal(symm_dev_c.my_pe);
    symm_dev_cc_t c;

    c.t = t;
    c.chan = ch;
    c.e = symm_dev_group_next<SYMM_BLOCK>(t.slot == 0 ? &in->chan_epoch[ch].v
                                                    : &in->tch_epoch[t.slot][ch]);
    return c;
}

/* Group-wide, after a group barrier that follows the group's data stores. */
template <int S> SYMM_DEV void symm_dev_coll_post(const symm_dev_cc_t &c, int which)
{
    const int tid = (int)symm_dev_tid<S>(), nth = (int)symm_dev_nth<S>();

    for (int i = tid; i < c.t.size; i += nth)
        symm_dev_st_release(symm_dev_flags(c, which, symm_dev_member(c.t, i)) + c.t.me, c.e);
}

template <int S> SYMM_DEV void symm_dev_coll_wait(const symm_dev_cc_t &c, int which)
{
    const unsigned long long *w = symm_dev_flags(c, which, symm_dev_c.my_pe);
    const int tid = (int)symm_dev_tid<S>(), nth = (int)symm_dev_nth<S>();

    for (int i = tid; i < c.t.size; i += nth)
        while (symm_dev_ld_acquire(w + i) < c.e)
            ;
    symm_dev_sync<S>();
}

template <int S> SYMM_DEV void symm_dev_coll_exchange(const symm_dev_cc_t &c, int which)
{
    symm_dev_sync<S>();
    symm_dev_coll_post<S>(c, which);
    symm_dev_coll_wait<S>(c, which);
}

/* ---- LL (small protocol) -------------------------------------------------------------------
 * A part of `bytes` travels as ll_words(bytes) words (even, at least 2), two per 16-byte
 * store; the parts for this PE sit in its buffer of the epoch by source member, ll_words * 8
 * bytes apart. */
enum {
    SYMM_COLL_ALLTOALL,
    SYMM_COLL_FCOLLECT,
    SYMM_COLL_BROADCAST,
    SYMM_COLL_REDUCE,
    SYMM_COLL_REDUCESCATTER
};

SYMM_DEV size_t symm_dev_ll_words(size_t bytes)
{
    size_t w = (bytes + 3) / 4;
    return w < 2 ? 2 : (w + 1) & ~(size_t)1;
}

/* The small protocol applies when one channel runs and every part fits half a buffer. */
SYMM_DEV bool symm_dev_ll_fits(const symm_dev_cc_t &c, size_t bytes, int nch)
{
    return nch == 1 &&
           (size_t)c.t.size * symm_dev_ll_words(bytes) * 8 <= symm_dev_scratch_len(c) / 2;
}

SYMM_DEV unsigned symm_dev_gather4(const char *s, size_t off, size_t len)
{
    unsigned v = 0;

    if (off >= len)
        return 0;
    if (off + 4 <= len && ((uintptr_t)(s + off) & 3) == 0)
        return *(const unsigned *)(s + off);
    for (int b = 0; b < 4 && off + b < len; b++)
        v |= (unsigned)(unsigned char)s[off + b] << (8 * b);
    return v;
}

SYMM_DEV void symm_dev_scatter4(char *d, size_t off, size_t len, unsigned v)
{
    if (off >= len)
        return;
    if (off + 4 <= len && ((uintptr_t)(d + off) & 3) == 0) {
        *(unsigned *)(d + off) = v;
        return;
    }
    for (int b = 0; b < 4 && off + b < len; b++)
        d[off + b] = (char)(v >> (8 * b));
}

/* What this PE sends to member m, and where the part from member k lands here (NULL: nothing
 * to keep). root is a member index. */
SYMM_DEV const char *symm_dev_ll_src(const symm_dev_cc_t &c, int kind, const void *src,
                                     size_t bytes, int root, int m, size_t *len)
{
    *len = bytes;
    if (kind == SYMM_COLL_ALLTOALL || kind == SYMM_COLL_REDUCESCATTER)
        return (const char *)src + (size_t)m * bytes;
    if (kind == SYMM_COLL_BROADCAST && c.t.me != root)
        *len = 0;
    return (const char *)src;
}

SYMM_DEV char *symm_dev_ll_dst(const symm_dev_cc_t &c, int kind, void *dest, char *staging,
                               size_t bytes, int root, int k, size_t *len)
{
    *len = bytes;
    if (kind == SYMM_COLL_REDUCE || kind == SYMM_COLL_REDUCESCATTER)
        return staging + (size_t)k * ((bytes + 3) & ~(size_t)3);
    if (kind == SYMM_COLL_BROADCAST) {
        if (k != root || c.t.me == root)
            *len = 0;
        return (char *)dest;
    }
    return (char *)dest + (size_t)k * bytes;
}

/* Pair g of this block's share: where it goes on the member and its two words. buf is this
 * PE's buffer of the epoch; a member's is the same offset of its internal part. */
SYMM_DEV unsigned long long *symm_dev_ll_pack(const symm_dev_cc_t &c, int kind, const void *src,
                                              size_t bytes, int root, char *buf,
                                              unsigned long long f, size_t g, size_t m,
                                              size_t p0, unsigned long long *a,
                                              unsigned long long *b)
{
    const int me = c.t.me, n = c.t.size;
    const int k = (int)(g / m), to = me + 1 + k < n ? me + 1 + k : me + 1 + k - n;
    const size_t p = p0 + g % m;
    size_t len;
    const char *s = symm_dev_ll_src(c, kind, src, bytes, root, to, &len);

    *a = f | symm_dev_gather4(s, 8 * p, len);
    *b = f | symm_dev_gather4(s, 8 * p + 4, len);
    return (unsigned long long *)symm_dev_xlate(buf, symm_dev_member(c.t, to)) +
           ((size_t)me * (symm_dev_ll_words(bytes) / 2) + p) * 2;
}

SYMM_DEV void symm_dev_ll_store(unsigned long long *w, unsigned long long a, unsigned long long b)
{
    asm volatile("st.volatile.global.v2.u64 [%0], {%1, %2};" ::"l"(w), "l"(a), "l"(b) : "memory");
}

SYMM_DEV void symm_dev_ll_load(const unsigned long long *w, unsigned long long *a,
                               unsigned long long *b)
{
    asm volatile("ld.volatile.global.v2.u64 {%0, %1}, [%2];"
                 : "=l"(*a), "=l"(*b)
                 : "l"(w)
                 : "memory");
}

/* Group-wide, pairs [p0, p1) of every part: sends this PE's, waits for every member's and puts
 * them in place (dest, or for reductions the staging area, part k at k * bytes rounded up to
 * 4). Each thread keeps two pairs in flight (loads before stores, polls before checks), so a
 * pair costs a latency once. Not inlined: one body per module and scope, its registers its
 * own. */
template <int S>
static __device__ __noinline__ void symm_dev_ll_move(const symm_dev_cc_t c, int kind, void *dest,
                                                     const void *src, size_t bytes, int root,
                                                     char *buf, char *staging, unsigned flag,
                                                     size_t p0, size_t p1)
{
    const size_t nth = symm_dev_nth<S>(), pairs = symm_dev_ll_words(bytes) / 2;
    const size_t m = p1 - p0, total = (size_t)c.t.size * m;
    const unsigned long long f = (unsigned long long)flag << 32;

    for (size_t g = symm_dev_tid<S>(); g < total; g += 2 * nth) {
        unsigned long long a0, b0, a1 = 0, b1 = 0, *w1 = NULL;
        unsigned long long *w0 =
            symm_dev_ll_pack(c, kind, src, bytes, root, buf, f, g, m, p0, &a0, &b0);
        if (g + nth < total)
            w1 = symm_dev_ll_pack(c, kind, src, bytes, root, buf, f, g + nth, m, p0, &a1, &b1);
        symm_dev_ll_store(w0, a0, b0);
        if (w1)
            symm_dev_ll_store(w1, a1, b1);
    }
    for (size_t g = symm_dev_tid<S>(); g < total; g += 2 * nth) {
        const bool two = g + nth < total;
        const unsigned long long *w0 = (const unsigned long long *)buf +
                                       ((g / m) * pairs + p0 + g % m) * 2;
        const unsigned long long *w1 = (const unsigned long long *)buf +
                                       (((g + nth) / m) * pairs + p0 + (g + nth) % m) * 2;
        unsigned long long a0, b0, a1 = 0, b1 = 0;
        size_t len;
        symm_dev_ll_load(w0, &a0, &b0);
        if (two)
            symm_dev_ll_load(w1, &a1, &b1);
        while ((a0 >> 32) != flag || (b0 >> 32) != flag)
            symm_dev_ll_load(w0, &a0, &b0);
        char *d = symm_dev_ll_dst(c, kind, dest, staging, bytes, root, (int)(g / m), &len);
        symm_dev_scatter4(d, 8 * (p0 + g % m), len, (unsigned)a0);
        symm_dev_scatter4(d, 8 * (p0 + g % m) + 4, len, (unsigned)b0);
        if (!two)
            continue;
        while ((a1 >> 32) != flag || (b1 >> 32) != flag)
            symm_dev_ll_load(w1, &a1, &b1);
        d = symm_dev_ll_dst(c, kind, dest, staging, bytes, root, (int)((g + nth) / m), &len);
        symm_dev_scatter4(d, 8 * (p0 + (g + nth) % m), len, (unsigned)a1);
        symm_dev_scatter4(d, 8 * (p0 + (g + nth) % m) + 4, len, (unsigned)b1);
    }
    symm_dev_sync<S>();
}

/* The small protocol of one collective at epoch e, this group's pairs [p0, p1): the exchange,
 * then the reduction of those bytes (reductions) or the root's own copy (broadcast). */
template <int S, int OP, typename T>
SYMM_DEV void symm_dev_ll_coll(const symm_dev_cc_t &c, int kind, void *dest, const void *src,
                               size_t bytes, int root, unsigned long long e, size_t p0,
                               size_t p1)
{
    const int n = c.t.size;
    const unsigned tid = symm_dev_tid<S>(), nth = symm_dev_nth<S>();
    char *buf = symm_dev_ll_buf(c, e, symm_dev_c.my_pe);
    char *staging = buf + symm_dev_scratch_len(c) / 2;
    size_t lo = 8 * p0 < bytes ? 8 * p0 : bytes, hi = 8 * p1 < bytes ? 8 * p1 : bytes;

    symm_dev_ll_move<S>(c, kind, dest, src, bytes, root, buf, staging, (unsigned)e, p0, p1);
    if (kind == SYMM_COLL_REDUCE || kind == SYMM_COLL_REDUCESCATTER) {
        const size_t stride = ((bytes + 3) & ~(size_t)3) / sizeof(T);
        const T *parts = (const T *)staging;
        for (size_t i = lo / sizeof(T) + tid; i < hi / sizeof(T); i += nth) {
            T acc = parts[i];
            for (int k = 1; k < n; k++)
                acc = symm_dev_combine<OP, T>(acc, parts[(size_t)k * stride + i]);
            ((T *)dest)[i] = acc;
        }
        symm_dev_sync<S>();
    } else if (kind == SYMM_COLL_BROADCAST && c.t.me == root && dest != src) {
        symm_dev_copy<false>((char *)dest + lo, (const char *)src + lo, hi - lo, tid, nth);
        symm_dev_sync<S>();
    }
}

/* The library's stream kernels: the world, the epoch from the host, block b takes slice b. */
template <int OP, typename T>
SYMM_DEV void symm_dev_ll_stream(int kind, void *dest, const void *src, size_t bytes, int root,
                                 unsigned long long epoch)
{
    symm_dev_cc_t c;
    size_t p0, p1;

    c.t = symm_dev_world(0);
    c.chan = 0; /* the stream scratch; the small protocol has no flags */
    c.e = epoch;
    symm_dev_split(symm_dev_ll_words(bytes) / 2, 1, blockIdx.x, gridDim.x, &p0, &p1);
    symm_dev_ll_coll<SYMM_BLOCK, OP, T>(c, kind, dest, src, bytes, root, epoch, p0, p1);
}

/* ---- Teams that span nodes ----------------------------------------------------------------
 * A member on another node is reached through the proxy, so the data moves as puts (stores
 * through the window to the members of this node, requests to the others) and the steps meet
 * in the team's barrier, whose quiet completes the puts: a barrier (every member's buffers are
 * free), the puts, a barrier with quiet. Reductions move their sources in chunks through the
 * scratch buffer: every member pushes its chunk to every member's buffer (part by member),
 * then each combines its own copy, in member order as everywhere. The host launches such a
 * collective as one block. */
SYMM_DEV bool symm_dev_team_near(const symm_dev_tv_t &t)
{
    return symm_dev_near(t.start) && symm_dev_near(t.start + (t.size - 1) * t.stride);
}

/* Group-wide: to dest on every member j (this PE's next first), n bytes of src + j * step; not
 * waited for. dest may be in the internal part (a scratch buffer): the window and the proxy
 * reach all of a slot. */
template <int S>
SYMM_DEV void symm_dev_span_scatter(const symm_dev_tv_t &t, char *dest, const char *src,
                                    size_t step, size_t n)
{
    for (int k = 1; k <= t.size; k++) {
        const int j = t.me + k < t.size ? t.me + k : t.me + k - t.size;
        const int pe = symm_dev_member(t, j);
        if (symm_dev_near(pe))
            symm_dev_copy<false>(symm_dev_xlate(dest, pe), src + (size_t)j * step, n,
                                 symm_dev_tid<S>(), symm_dev_nth<S>());
        else
            symm_dev_px_rma<S, true, SYMM_PX_PUT>(dest, src + (size_t)j * step, n, pe);
    }
}

/* alltoall (step nbytes), fcollect (step 0) and broadcast (root >= 0: the root's only). */
template <int S>
static __device__ __noinline__ void symm_dev_span_move(const symm_dev_tv_t t, char *dest,
                                                       const char *src, size_t nbytes,
                                                       size_t step, int root)
{
    symm_dev_team_barrier<S>(t, false);
    if (root < 0 || t.me == root)
        symm_dev_span_scatter<S>(t, dest, src, step, nbytes);
    symm_dev_team_barrier<S>(t, true);
}

/* Reductions (step 0: every member's whole source) and reduce-scatters (step nreduce: member
 * j's part of every source). */
template <int S, int OP, typename T>
static __device__ __noinline__ void symm_dev_span_reduce(const symm_dev_cc_t c, T *dest,
                                                         const T *src, size_t nreduce,
                                                         size_t step)
{
    const symm_dev_tv_t &t = c.t;
    const unsigned tid = symm_dev_tid<S>(), nth = symm_dev_nth<S>();
    char *buf = symm_dev_ll_buf(c, 0, symm_dev_c.my_pe);
    const size_t q = symm_dev_scratch_len(c) / (size_t)t.size / sizeof(T);
    const T *parts = (const T *)buf;

    for (size_t off = 0; off < nreduce; off += q) {
        const size_t m = nreduce - off < q ? nreduce - off : q;
        symm_dev_team_barrier<S>(t, false);
        symm_dev_span_scatter<S>(t, buf + (size_t)t.me * q * sizeof(T), (const char *)(src + off),
                                 step * sizeof(T), m * sizeof(T));
        symm_dev_team_barrier<S>(t, true);
        for (size_t i = tid; i < m; i += nth) {
            T acc = symm_dev_ldcg(parts + i);
            for (int k = 1; k < t.size; k++)
                acc = symm_dev_combine<OP, T>(acc, symm_dev_ldcg(parts + (size_t)k * q + i));
            dest[off + i] = acc;
        }
    }
    symm_dev_sync<S>();
}

/* ---- alltoall and fcollect: member me sends part j (alltoall: src + j * nbytes; fcollect:
 * src) to dest + me * nbytes on member j. Channel ch of nch moves its slice of every part. */
template <int S, bool ALLTOALL>
SYMM_DEV void symm_dev_exchange(const symm_dev_cc_t &c, void *dest, const void *src,
                                size_t nbytes, int ch, int nch)
{
    const int me = c.t.me, n = c.t.size;
    const unsigned tid = symm_dev_tid<S>(), nth = symm_dev_nth<S>();
    const char *s = (const char *)src;

    if (__builtin_expect(!symm_dev_team_near(c.t), 0)) {
        symm_dev_span_move<S>(c.t, (char *)dest + (size_t)me * nbytes, s, nbytes,
                              ALLTOALL ? nbytes : 0, -1);
        return;
    }
    if (symm_dev_ll_fits(c, nbytes, nch)) {
        symm_dev_ll_coll<S, SYMM_DEV_OP_sum, char>(
            c, ALLTOALL ? SYMM_COLL_ALLTOALL : SYMM_COLL_FCOLLECT, dest, src, nbytes, 0, c.e, 0,
            symm_dev_ll_words(nbytes) / 2);
        return;
    }
    size_t lo, hi;
    symm_dev_split(nbytes, 16, ch, nch, &lo, &hi);
    symm_dev_coll_exchange<S>(c, SYMM_FLAG_READY);
    for (int k = 1; k <= n; k++) {
        int j = me + k < n ? me + k : me + k - n;
        char *d = symm_dev_xlate((char *)dest, symm_dev_member(c.t, j)) + (size_t)me * nbytes;
        symm_dev_copy<false>(d + lo, (ALLTOALL ? s + (size_t)j * nbytes : s) + lo, hi - lo, tid,
                             nth);
    }
    symm_dev_coll_exchange<S>(c, SYMM_FLAG_DONE);
}

/* ---- broadcast: root's src to dest on every member, the root's own dest included (root is a
 * member index). Large data is pulled: every member loads its slice from the root while the
 * root copies its own, so the data crosses each link once and nothing waits for a local copy. */
template <int S>
SYMM_DEV void symm_dev_broadcast(const symm_dev_cc_t &c, void *dest, const void *src,
                                 size_t nbytes, int root, int ch, int nch)
{
    const unsigned tid = symm_dev_tid<S>(), nth = symm_dev_nth<S>();

    if (__builtin_expect(!symm_dev_team_near(c.t), 0)) {
        symm_dev_span_move<S>(c.t, (char *)dest, (const char *)src, nbytes, 0, root);
        return;
    }
    if (symm_dev_ll_fits(c, nbytes, nch)) {
        symm_dev_ll_coll<S, SYMM_DEV_OP_sum, char>(c, SYMM_COLL_BROADCAST, dest, src, nbytes,
                                                   root, c.e, 0, symm_dev_ll_words(nbytes) / 2);
        return;
    }
    size_t lo, hi;
    symm_dev_split(nbytes, 16, ch, nch, &lo, &hi);
    symm_dev_coll_exchange<S>(c, SYMM_FLAG_READY);
    if (c.t.me != root)
        symm_dev_copy<true>((char *)dest + lo,
                            symm_dev_xlate((const char *)src, symm_dev_member(c.t, root)) + lo,
                            hi - lo, tid, nth);
    else if (dest != src)
        symm_dev_copy<false>((char *)dest + lo, (const char *)src + lo, hi - lo, tid, nth);
    symm_dev_coll_exchange<S>(c, SYMM_FLAG_DONE);
}

/* Combines [lo, hi) of every member's src and stores the result into every member's dest
 * (everyone) or into this PE's (reduce-scatter): 16-byte vectors where src and dest are
 * 16-byte aligned (those of the heap are; lo is a multiple of a vector), two of them per
 * thread and per member in flight before the first use, then the scalar tail. */
template <int OP, typename T>
SYMM_DEV void symm_dev_reduce_slice(const symm_dev_tv_t &t, T *dest, const T *src, size_t lo,
                                    size_t hi, unsigned tid, unsigned nth, bool everyone)
{
    const int me = t.me, n = t.size, nd = everyone ? t.size : 1;
    const size_t per = sizeof(T) <= 16 ? 16 / sizeof(T) : 1;
    union vec {
        uint4 u;
        T e[sizeof(T) <= 16 ? 16 / sizeof(T) : 1];
    };
    size_t v = lo / per + tid, v1 = hi / per;

    if ((((uintptr_t)src | (uintptr_t)dest) & 15) != 0 || sizeof(T) > 16)
        v1 = lo / per; /* no vectors: all scalar */
    for (; v + nth < v1; v += 2 * (size_t)nth) {
        vec a, b;
        const uint4 *s0 = (const uint4 *)symm_dev_xlate(src, symm_dev_member(t, 0));
        a.u = __ldcg(s0 + v);
        b.u = __ldcg(s0 + v + nth);
        for (int k = 1; k < n; k++) {
            vec c, d;
            const uint4 *sk = (const uint4 *)symm_dev_xlate(src, symm_dev_member(t, k));
            c.u = __ldcg(sk + v);
            d.u = __ldcg(sk + v + nth);
#pragma unroll
            for (size_t j = 0; j < per; j++) {
                a.e[j] = symm_dev_combine<OP, T>(a.e[j], c.e[j]);
                b.e[j] = symm_dev_combine<OP, T>(b.e[j], d.e[j]);
            }
        }
        for (int k = 0; k < nd; k++) {
            int j = me + k < n ? me + k : me + k - n;
            uint4 *d = (uint4 *)symm_dev_xlate(dest, symm_dev_member(t, j));
            d[v] = a.u;
            d[v + nth] = b.u;
        }
    }
    for (; v < v1; v += nth) {
        vec a;
        a.u = __ldcg((const uint4 *)symm_dev_xlate(src, symm_dev_member(t, 0)) + v);
        for (int k = 1; k < n; k++) {
            vec c;
            c.u = __ldcg((const uint4 *)symm_dev_xlate(src, symm_dev_member(t, k)) + v);
#pragma unroll
            for (size_t j = 0; j < per; j++)
                a.e[j] = symm_dev_combine<OP, T>(a.e[j], c.e[j]);
        }
        for (int k = 0; k < nd; k++) {
            int j = me + k < n ? me + k : me + k - n;
            ((uint4 *)symm_dev_xlate(dest, symm_dev_member(t, j)))[v] = a.u;
        }
    }
    for (size_t i = (v1 > lo / per ? v1 * per : lo) + tid; i < hi; i += nth) {
        T acc = symm_dev_ldcg(symm_dev_xlate(src, symm_dev_member(t, 0)) + i);
        for (int k = 1; k < n; k++)
            acc = symm_dev_combine<OP, T>(
                acc, symm_dev_ldcg(symm_dev_xlate(src, symm_dev_member(t, k)) + i));
        for (int k = 0; k < nd; k++) {
            int j = me + k < n ? me + k : me + k - n;
            symm_dev_xlate(dest, symm_dev_member(t, j))[i] = acc;
        }
    }
}

/* ---- reductions: dest[i] = src_0[i] op src_1[i] op ... in member order, on every member. -- */
template <int S, int OP, typename T>
SYMM_DEV void symm_dev_reduce(const symm_dev_cc_t &c, T *dest, const T *src, size_t nreduce,
                              int ch, int nch)
{
    const unsigned tid = symm_dev_tid<S>(), nth = symm_dev_nth<S>();
    const size_t nbytes = nreduce * sizeof(T);

    if (__builtin_expect(!symm_dev_team_near(c.t), 0)) {
        symm_dev_span_reduce<S, OP, T>(c, dest, src, nreduce, 0);
        return;
    }
    if (symm_dev_ll_fits(c, nbytes, nch)) {
        symm_dev_ll_coll<S, OP, T>(c, SYMM_COLL_REDUCE, dest, src, nbytes, 0, c.e, 0,
                                   symm_dev_ll_words(nbytes) / 2);
        return;
    }
    /* Channel slice, then this member's share of it, on 16-byte boundaries. */
    size_t clo, chi, lo, hi;
    symm_dev_split(nreduce, 16 / sizeof(T) ? 16 / sizeof(T) : 1, ch, nch, &clo, &chi);
    symm_dev_split(chi - clo, 16 / sizeof(T) ? 16 / sizeof(T) : 1, c.t.me, c.t.size, &lo, &hi);
    lo += clo;
    hi += clo;
    symm_dev_coll_exchange<S>(c, SYMM_FLAG_READY);
    symm_dev_reduce_slice<OP, T>(c.t, dest, src, lo, hi, tid, nth, true);
    symm_dev_coll_exchange<S>(c, SYMM_FLAG_DONE);
}

/* ---- reduce-scatter: every member's src holds n parts of nreduce elements; member m's dest
 * gets dest[i] = src_0[m * nreduce + i] op src_1[m * nreduce + i] op ..., in member order.
 * Small data: each part goes to its member, as alltoall sends, and is combined there. Large:
 * each member combines its own part of every member's src (loads across the links), so the
 * done flags only say that the sources may change again. */
template <int S, int OP, typename T>
SYMM_DEV void symm_dev_reducescatter(const symm_dev_cc_t &c, T *dest, const T *src,
                                     size_t nreduce, int ch, int nch)
{
    const unsigned tid = symm_dev_tid<S>(), nth = symm_dev_nth<S>();
    const size_t nbytes = nreduce * sizeof(T);

    if (__builtin_expect(!symm_dev_team_near(c.t), 0)) {
        symm_dev_span_reduce<S, OP, T>(c, dest, src, nreduce, nreduce);
        return;
    }
    if (symm_dev_ll_fits(c, nbytes, nch)) {
        symm_dev_ll_coll<S, OP, T>(c, SYMM_COLL_REDUCESCATTER, dest, src, nbytes, 0, c.e, 0,
                                   symm_dev_ll_words(nbytes) / 2);
        return;
    }
    size_t lo, hi;
    symm_dev_split(nreduce, 16 / sizeof(T) ? 16 / sizeof(T) : 1, ch, nch, &lo, &hi);
    symm_dev_coll_exchange<S>(c, SYMM_FLAG_READY);
    symm_dev_reduce_slice<OP, T>(c.t, dest, src + (size_t)c.t.me * nreduce, lo, hi, tid, nth,
                                 false);
    symm_dev_coll_exchange<S>(c, SYMM_FLAG_DONE);
}

/* ---- The device API's collectives: one group of scope S per member, on team `team` (a
 * handle), named `call` in a report. They return 0. */
template <int S, bool ALLTOALL>
SYMM_DEV int symm_dev_exchange_group(const char *call, const void *team, void *dest,
                                     const void *source, size_t nbytes)
{
    symm_dev_cc_t c = symm_dev_cc_group<S>(symm_dev_team(call, team));
    symm_dev_exchange<S, ALLTOALL>(c, dest, source, nbytes, 0, 1);
    return 0;
}

template <int S>
SYMM_DEV int symm_dev_broadcast_group(const char *call, const void *team, void *dest,
                                      const void *source, size_t nbytes, int PE_root)
{
    symm_dev_tv_t t = symm_dev_team(call, team);
#if SYMM_DEV_CHECKS
    if ((unsigned)PE_root >= (unsigned)t.size)
        symm_dev_fail(SYMM_DEV_ERR_PE, call, PE_root, dest, nbytes);
#endif
    symm_dev_broadcast<S>(symm_dev_cc_group<S>(t), dest, source, nbytes, PE_root, 0, 1);
    return 0;
}

template <int S, int OP, typename T>
SYMM_DEV int symm_dev_reduce_group(const char *call, const void *team, T *dest, const T *source,
                                   size_t nreduce)
{
    symm_dev_cc_t c = symm_dev_cc_group<S>(symm_dev_team(call, team));
    symm_dev_reduce<S, OP, T>(c, dest, source, nreduce, 0, 1);
    return 0;
}

template <int S, int OP, typename T>
SYMM_DEV int symm_dev_reducescatter_group(const char *call, const void *team, T *dest,
                                          const T *source, size_t nreduce)
{
    symm_dev_cc_t c = symm_dev_cc_group<S>(symm_dev_team(call, team));
    symm_dev_reducescatter<S, OP, T>(c, dest, source, nreduce, 0, 1);
    return 0;
}

#endif
