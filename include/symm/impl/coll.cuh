/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Device collectives of the world team: alltoall, fcollect, broadcast and reductions. One body
 * serves the block-scope device API (one block, channel 0 of 1) and the library's on-stream
 * kernels (block b of a grid of G is channel b of G: it moves slice b of the data and
 * synchronises only with block b of every peer, so no block ever waits for another block of
 * its own grid).
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
 *    every PE's source and stores the result into every PE's dest), then done flags. Two
 *    latencies, no extra copy; flags are release stores after the block's data moves and
 *    acquire loads before the next step.
 * Collectives must be called in the same order and the same form (device block or on stream)
 * on every PE, as one sequence with the team's other collectives.
 */
#ifndef SYMM_IMPL_COLL_CUH
#define SYMM_IMPL_COLL_CUH

#include "symm/impl/sync.cuh"


enum { SYMM_OP_SUM, SYMM_OP_PROD, SYMM_OP_MIN, SYMM_OP_MAX, SYMM_OP_AND, SYMM_OP_OR, SYMM_OP_XOR };

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
SYMM_DEV_OP(SYMM_OP_SUM, a + b)
SYMM_DEV_OP(SYMM_OP_PROD, a * b)
SYMM_DEV_OP(SYMM_OP_MIN, b < a ? b : a)
SYMM_DEV_OP(SYMM_OP_MAX, b > a ? b : a)
SYMM_DEV_OP(SYMM_OP_AND, a & b)
SYMM_DEV_OP(SYMM_OP_OR, a | b)
SYMM_DEV_OP(SYMM_OP_XOR, a ^ b)
#undef SYMM_DEV_OP

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

enum { SYMM_FLAG_READY, SYMM_FLAG_DONE };

/* Block-wide: the next epoch of channel ch. */
SYMM_DEV unsigned long long symm_dev_coll_enter(int ch)
{
    __shared__ unsigned long long epoch_sh;
    volatile unsigned long long *c = &symm_dev_internal(symm_dev_c.my_pe)->coll_epoch[ch].v;

    __syncthreads();
    if (threadIdx.x + threadIdx.y + threadIdx.z == 0) {
        epoch_sh = *c + 1;
        *c = epoch_sh;
    }
    __syncthreads();
    return epoch_sh;
}

/* Block-wide, after a __syncthreads that follows the block's data stores. */
SYMM_DEV void symm_dev_coll_post(int which, int ch, unsigned long long e)
{
    const int me = symm_dev_c.my_pe, n = symm_dev_c.n_pes;

    for (int pe = (int)symm_dev_tid<SYMM_BLOCK>(); pe < n; pe += (int)symm_dev_nth<SYMM_BLOCK>()) {
        symm_dev_internal_t *in = symm_dev_internal(pe);
        symm_dev_st_release(which == SYMM_FLAG_READY ? &in->ready[ch][me] : &in->done[ch][me], e);
    }
}

SYMM_DEV void symm_dev_coll_wait(int which, int ch, unsigned long long e)
{
    symm_dev_internal_t *in = symm_dev_internal(symm_dev_c.my_pe);
    const int n = symm_dev_c.n_pes;

    for (int pe = (int)symm_dev_tid<SYMM_BLOCK>(); pe < n; pe += (int)symm_dev_nth<SYMM_BLOCK>()) {
        const unsigned long long *w =
            which == SYMM_FLAG_READY ? &in->ready[ch][pe] : &in->done[ch][pe];
        while (symm_dev_ld_acquire(w) < e)
            ;
    }
    __syncthreads();
}

SYMM_DEV void symm_dev_coll_exchange(int which, int ch, unsigned long long e)
{
    __syncthreads();
    symm_dev_coll_post(which, ch, e);
    symm_dev_coll_wait(which, ch, e);
}

SYMM_DEV char *symm_dev_scratch(unsigned long long e, int pe)
{
    return symm_dev_internal(pe)->scratch[e & 1];
}

/* ---- LL (small protocol) -------------------------------------------------------------------
 * A part of `bytes` travels as ll_words(bytes) words (even, at least 2), two per 16-byte
 * store; the parts for this PE sit in scratch[e & 1] by source PE, ll_words * 8 bytes apart. */
enum { SYMM_COLL_ALLTOALL, SYMM_COLL_FCOLLECT, SYMM_COLL_BROADCAST, SYMM_COLL_REDUCE };

SYMM_DEV size_t symm_dev_ll_words(size_t bytes)
{
    size_t w = (bytes + 3) / 4;
    return w < 2 ? 2 : (w + 1) & ~(size_t)1;
}

/* The small protocol applies when one channel runs and every part fits. */
SYMM_DEV bool symm_dev_ll_fits(size_t bytes, int nch)
{
    return nch == 1 &&
           (size_t)symm_dev_c.n_pes * symm_dev_ll_words(bytes) * 8 <= SYMM_DEV_SCRATCH / 2;
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

/* What PE me sends to pe, and where the part from PE k lands here (NULL: nothing to keep). */
SYMM_DEV const char *symm_dev_ll_src(int kind, const void *src, size_t bytes, int root, int pe,
                                     size_t *len)
{
    const int me = symm_dev_c.my_pe;

    *len = bytes;
    if (kind == SYMM_COLL_ALLTOALL)
        return (const char *)src + (size_t)pe * bytes;
    if (kind == SYMM_COLL_BROADCAST && me != root)
        *len = 0;
    return (const char *)src;
}

SYMM_DEV char *symm_dev_ll_dst(int kind, void *dest, char *staging, size_t bytes, int root, int k,
                               size_t *len)
{
    *len = bytes;
    if (kind == SYMM_COLL_REDUCE)
        return staging + (size_t)k * ((bytes + 3) & ~(size_t)3);
    if (kind == SYMM_COLL_BROADCAST) {
        if (k != root || symm_dev_c.my_pe == root)
            *len = 0;
        return (char *)dest;
    }
    return (char *)dest + (size_t)k * bytes;
}

/* Pair g of this block's share: where it goes on the peer and its two words. */
SYMM_DEV unsigned long long *symm_dev_ll_pack(int kind, const void *src, size_t bytes, int root,
                                              char *buf, unsigned long long f, size_t g, size_t m,
                                              size_t p0, unsigned long long *a,
                                              unsigned long long *b)
{
    const int me = symm_dev_c.my_pe, n = symm_dev_c.n_pes;
    const int k = (int)(g / m), pe = me + 1 + k < n ? me + 1 + k : me + 1 + k - n;
    const size_t p = p0 + g % m;
    size_t len;
    const char *s = symm_dev_ll_src(kind, src, bytes, root, pe, &len);

    *a = f | symm_dev_gather4(s, 8 * p, len);
    *b = f | symm_dev_gather4(s, 8 * p + 4, len);
    return (unsigned long long *)symm_dev_xlate(buf, pe) +
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

/* Block-wide, pairs [p0, p1) of every part: sends this PE's, waits for every peer's and puts
 * them in place (dest, or for reductions the staging area, part k at k * bytes rounded up to
 * 4). buf is this PE's buffer of the epoch; a peer's is the same offset of its window slot.
 * Each thread keeps two pairs in flight (loads before stores, polls before checks), so a pair
 * costs a latency once. Not inlined: one body per module, its registers its own. */
static __device__ __noinline__ void symm_dev_ll_move(int kind, void *dest, const void *src,
                                                     size_t bytes, int root, char *buf,
                                                     char *staging, unsigned flag, size_t p0,
                                                     size_t p1)
{
    const size_t nth = symm_dev_nth<SYMM_BLOCK>(), pairs = symm_dev_ll_words(bytes) / 2;
    const size_t m = p1 - p0, total = (size_t)symm_dev_c.n_pes * m;
    const unsigned long long f = (unsigned long long)flag << 32;

    for (size_t g = symm_dev_tid<SYMM_BLOCK>(); g < total; g += 2 * nth) {
        unsigned long long a0, b0, a1 = 0, b1 = 0, *w1 = NULL;
        unsigned long long *w0 =
            symm_dev_ll_pack(kind, src, bytes, root, buf, f, g, m, p0, &a0, &b0);
        if (g + nth < total)
            w1 = symm_dev_ll_pack(kind, src, bytes, root, buf, f, g + nth, m, p0, &a1, &b1);
        symm_dev_ll_store(w0, a0, b0);
        if (w1)
            symm_dev_ll_store(w1, a1, b1);
    }
    for (size_t g = symm_dev_tid<SYMM_BLOCK>(); g < total; g += 2 * nth) {
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
        char *d = symm_dev_ll_dst(kind, dest, staging, bytes, root, (int)(g / m), &len);
        symm_dev_scatter4(d, 8 * (p0 + g % m), len, (unsigned)a0);
        symm_dev_scatter4(d, 8 * (p0 + g % m) + 4, len, (unsigned)b0);
        if (!two)
            continue;
        while ((a1 >> 32) != flag || (b1 >> 32) != flag)
            symm_dev_ll_load(w1, &a1, &b1);
        d = symm_dev_ll_dst(kind, dest, staging, bytes, root, (int)((g + nth) / m), &len);
        symm_dev_scatter4(d, 8 * (p0 + (g + nth) % m), len, (unsigned)a1);
        symm_dev_scatter4(d, 8 * (p0 + (g + nth) % m) + 4, len, (unsigned)b1);
    }
    __syncthreads();
}

/* The small protocol of one collective, this block's pairs [p0, p1): the exchange, then the
 * reduction of those bytes (reductions) or the root's own copy (broadcast). */
template <int OP, typename T>
SYMM_DEV void symm_dev_ll_coll(int kind, void *dest, const void *src, size_t bytes, int root,
                               char *buf, unsigned flag, size_t p0, size_t p1)
{
    const int n = symm_dev_c.n_pes;
    const unsigned tid = symm_dev_tid<SYMM_BLOCK>(), nth = symm_dev_nth<SYMM_BLOCK>();
    char *staging = buf + SYMM_DEV_SCRATCH / 2;
    size_t lo = 8 * p0 < bytes ? 8 * p0 : bytes, hi = 8 * p1 < bytes ? 8 * p1 : bytes;

    symm_dev_ll_move(kind, dest, src, bytes, root, buf, staging, flag, p0, p1);
    if (kind == SYMM_COLL_REDUCE) {
        const size_t stride = ((bytes + 3) & ~(size_t)3) / sizeof(T);
        const T *parts = (const T *)staging;
        for (size_t i = lo / sizeof(T) + tid; i < hi / sizeof(T); i += nth) {
            T acc = parts[i];
            for (int k = 1; k < n; k++)
                acc = symm_dev_combine<OP, T>(acc, parts[(size_t)k * stride + i]);
            ((T *)dest)[i] = acc;
        }
        __syncthreads();
    } else if (kind == SYMM_COLL_BROADCAST && symm_dev_c.my_pe == root && dest != src) {
        symm_dev_copy<false>((char *)dest + lo, (const char *)src + lo, hi - lo, tid, nth);
        __syncthreads();
    }
}

/* The library's stream kernels: the epoch comes from the host, block b takes slice b. */
template <int OP, typename T>
SYMM_DEV void symm_dev_ll_stream(int kind, void *dest, const void *src, size_t bytes, int root,
                                 unsigned long long epoch)
{
    size_t p0, p1;

    symm_dev_split(symm_dev_ll_words(bytes) / 2, 1, blockIdx.x, gridDim.x, &p0, &p1);
    symm_dev_ll_coll<OP, T>(kind, dest, src, bytes, root,
                            symm_dev_internal(symm_dev_c.my_pe)->stream_scratch[epoch & 1],
                            (unsigned)epoch, p0, p1);
}

/* Block-scope collectives: the whole exchange in the calling block. */
template <int OP, typename T>
SYMM_DEV void symm_dev_ll_block(int kind, void *dest, const void *src, size_t bytes, int root,
                                unsigned long long e)
{
    symm_dev_ll_coll<OP, T>(kind, dest, src, bytes, root, symm_dev_scratch(e, symm_dev_c.my_pe),
                            (unsigned)e, 0, symm_dev_ll_words(bytes) / 2);
}

/* ---- alltoall and fcollect: PE me sends part j (alltoall: src + j * nbytes; fcollect: src)
 * to dest + me * nbytes on PE j. ------------------------------------------------------------ */
template <bool ALLTOALL>
SYMM_DEV void symm_dev_exchange(void *dest, const void *src, size_t nbytes, int ch, int nch)
{
    const int me = symm_dev_c.my_pe, n = symm_dev_c.n_pes;
    const unsigned tid = symm_dev_tid<SYMM_BLOCK>(), nth = symm_dev_nth<SYMM_BLOCK>();
    const char *s = (const char *)src;
    unsigned long long e = symm_dev_coll_enter(ch);

    if (symm_dev_ll_fits(nbytes, nch)) {
        symm_dev_ll_block<SYMM_OP_SUM, char>(ALLTOALL ? SYMM_COLL_ALLTOALL : SYMM_COLL_FCOLLECT,
                                             dest, src, nbytes, 0, e);
        return;
    }
    size_t lo, hi;
    symm_dev_split(nbytes, 16, ch, nch, &lo, &hi);
    symm_dev_coll_exchange(SYMM_FLAG_READY, ch, e);
    for (int k = 1; k <= n; k++) {
        int pe = me + k < n ? me + k : me + k - n;
        char *d = symm_dev_xlate((char *)dest, pe) + (size_t)me * nbytes;
        symm_dev_copy<false>(d + lo, (ALLTOALL ? s + (size_t)pe * nbytes : s) + lo, hi - lo, tid,
                             nth);
    }
    symm_dev_coll_exchange(SYMM_FLAG_DONE, ch, e);
}

/* ---- broadcast: root's src to dest on every PE, the root's own dest included. Large data is
 * pulled: every PE loads its slice from the root while the root copies its own, so the data
 * crosses each link once and nothing waits for a local copy. ----------------------------- */
SYMM_DEV void symm_dev_broadcast(void *dest, const void *src, size_t nbytes, int root, int ch,
                                 int nch)
{
    const int me = symm_dev_c.my_pe;
    const unsigned tid = symm_dev_tid<SYMM_BLOCK>(), nth = symm_dev_nth<SYMM_BLOCK>();
    unsigned long long e = symm_dev_coll_enter(ch);

    if (symm_dev_ll_fits(nbytes, nch)) {
        symm_dev_ll_block<SYMM_OP_SUM, char>(SYMM_COLL_BROADCAST, dest, src, nbytes, root, e);
        return;
    }
    size_t lo, hi;
    symm_dev_split(nbytes, 16, ch, nch, &lo, &hi);
    symm_dev_coll_exchange(SYMM_FLAG_READY, ch, e);
    if (me != root)
        symm_dev_copy<true>((char *)dest + lo, symm_dev_xlate((const char *)src, root) + lo,
                            hi - lo, tid, nth);
    else if (dest != src)
        symm_dev_copy<false>((char *)dest + lo, (const char *)src + lo, hi - lo, tid, nth);
    symm_dev_coll_exchange(SYMM_FLAG_DONE, ch, e);
}

/* Combines [lo, hi) of every PE's src and stores the result into every PE's dest: 16-byte
 * vectors (lo is a multiple of a vector; src and dest of the heap are 16-byte aligned), two
 * of them per thread and per PE in flight before the first use, then the scalar tail. */
template <int OP, typename T>
SYMM_DEV void symm_dev_reduce_slice(T *dest, const T *src, size_t lo, size_t hi, unsigned tid,
                                    unsigned nth)
{
    const int me = symm_dev_c.my_pe, n = symm_dev_c.n_pes;
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
        a.u = __ldcg((const uint4 *)symm_dev_xlate(src, 0) + v);
        b.u = __ldcg((const uint4 *)symm_dev_xlate(src, 0) + v + nth);
        for (int k = 1; k < n; k++) {
            vec c, d;
            c.u = __ldcg((const uint4 *)symm_dev_xlate(src, k) + v);
            d.u = __ldcg((const uint4 *)symm_dev_xlate(src, k) + v + nth);
#pragma unroll
            for (size_t j = 0; j < per; j++) {
                a.e[j] = symm_dev_combine<OP, T>(a.e[j], c.e[j]);
                b.e[j] = symm_dev_combine<OP, T>(b.e[j], d.e[j]);
            }
        }
        for (int k = 0; k < n; k++) {
            int pe = me + k < n ? me + k : me + k - n;
            uint4 *d = (uint4 *)symm_dev_xlate(dest, pe);
            d[v] = a.u;
            d[v + nth] = b.u;
        }
    }
    for (; v < v1; v += nth) {
        vec a;
        a.u = __ldcg((const uint4 *)symm_dev_xlate(src, 0) + v);
        for (int k = 1; k < n; k++) {
            vec c;
            c.u = __ldcg((const uint4 *)symm_dev_xlate(src, k) + v);
#pragma unroll
            for (size_t j = 0; j < per; j++)
                a.e[j] = symm_dev_combine<OP, T>(a.e[j], c.e[j]);
        }
        for (int k = 0; k < n; k++) {
            int pe = me + k < n ? me + k : me + k - n;
            ((uint4 *)symm_dev_xlate(dest, pe))[v] = a.u;
        }
    }
    for (size_t i = (v1 > lo / per ? v1 * per : lo) + tid; i < hi; i += nth) {
        T acc = symm_dev_ldcg(symm_dev_xlate(src, 0) + i);
        for (int k = 1; k < n; k++)
            acc = symm_dev_combine<OP, T>(acc, symm_dev_ldcg(symm_dev_xlate(src, k) + i));
        for (int k = 0; k < n; k++) {
            int pe = me + k < n ? me + k : me + k - n;
            symm_dev_xlate(dest, pe)[i] = acc;
        }
    }
}

/* ---- reductions: dest[i] = src_0[i] op src_1[i] op ... in PE order, on every PE. ---------- */
template <int OP, typename T>
SYMM_DEV void symm_dev_reduce(T *dest, const T *src, size_t nreduce, int ch, int nch)
{
    const int me = symm_dev_c.my_pe, n = symm_dev_c.n_pes;
    const unsigned tid = symm_dev_tid<SYMM_BLOCK>(), nth = symm_dev_nth<SYMM_BLOCK>();
    const size_t nbytes = nreduce * sizeof(T);
    unsigned long long e = symm_dev_coll_enter(ch);

    if (symm_dev_ll_fits(nbytes, nch)) {
        symm_dev_ll_block<OP, T>(SYMM_COLL_REDUCE, dest, src, nbytes, 0, e);
        return;
    }
    /* Channel slice, then this PE's share of it, on 16-byte boundaries. */
    size_t clo, chi, lo, hi;
    symm_dev_split(nreduce, 16 / sizeof(T) ? 16 / sizeof(T) : 1, ch, nch, &clo, &chi);
    symm_dev_split(chi - clo, 16 / sizeof(T) ? 16 / sizeof(T) : 1, me, n, &lo, &hi);
    lo += clo;
    hi += clo;
    symm_dev_coll_exchange(SYMM_FLAG_READY, ch, e);
    symm_dev_reduce_slice<OP, T>(dest, src, lo, hi, tid, nth);
    symm_dev_coll_exchange(SYMM_FLAG_DONE, ch, e);
}

#endif
