/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Device core: the state every module reads, address translation, the memory-order
 * primitives, argument checks and the copy loop every RMA and collective funnels into.
 *
 * The state lives in constant memory of each translation unit (a module compiled without -rdc
 * is a program of its own): `static __constant__ symm_dev_c` here, plus a host-side static
 * initialiser that registers a function writing that copy with the library; the library calls
 * every registered function when the device state is set (GPU start). The library's own kernel
 * module defines SYMM_DEV_LIBRARY and gets a named copy that it fills through the driver.
 *
 * Memory order: peers are other GPUs, so every ordering point that another PE relies on is at
 * system scope (.sys). Data moves by weak loads and stores; a flag or signal that publishes it
 * is a release store (or a release reduction) at system scope, and whoever waits on it reads
 * with acquire at system scope. A release by one thread after a block or warp barrier covers
 * the stores of every thread before that barrier (PTX release is cumulative), which is what
 * the warp and block forms rely on.
 */
#ifndef SYMM_IMPL_CORE_CUH
#define SYMM_IMPL_CORE_CUH

#include <stddef.h>
#include <stdint.h>

#include "symm/impl/state.h"

#define SYMM_DEV static __device__ __forceinline__
/* Device bodies of names the host library also defines: C linkage, inline, seen only by the
 * device pass (see device.cuh). */
#define SYMM_DEV_API extern "C" __host__ __device__ inline

#if defined(SYMM_DEVICE_DEBUG) || defined(__CUDACC_DEBUG__)
#define SYMM_DEV_CHECKS 1
#else
#define SYMM_DEV_CHECKS 0
#endif

#ifdef SYMM_DEV_LIBRARY
extern "C" {
__constant__ symm_dev_state_t symm_dev_c;
}
#else
static __constant__ symm_dev_state_t symm_dev_c;
#endif

/* A warpgroup is 4 warps (128 threads, a multiple of 128 from the block's first): the tile
 * collectives have that scope too (symm/tile.cuh). */
enum { SYMM_THREAD = 0, SYMM_WARP = 1, SYMM_BLOCK = 2, SYMM_WARPGROUP = 3 };

/* ---- Scopes ------------------------------------------------------------------------------ */
template <int S> SYMM_DEV unsigned symm_dev_tid()
{
    if (S == SYMM_THREAD)
        return 0;
    if (S == SYMM_WARP)
        return threadIdx.x & 31u;
    unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    return S == SYMM_WARPGROUP ? t & 127u : t;
}

template <int S> SYMM_DEV unsigned symm_dev_nth()
{
    if (S == SYMM_THREAD)
        return 1;
    if (S == SYMM_WARP)
        return 32;
    if (S == SYMM_WARPGROUP)
        return 128;
    return blockDim.x * blockDim.y * blockDim.z;
}

/* A warpgroup syncs on a named barrier of its own (1 + its index in the block). */
template <int S> SYMM_DEV void symm_dev_sync()
{
    if (S == SYMM_WARP) {
        __syncwarp();
    } else if (S == SYMM_WARPGROUP) {
        unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
        asm volatile("bar.sync %0, 128;" ::"r"(1 + (t >> 7)) : "memory");
    } else if (S == SYMM_BLOCK) {
        __syncthreads();
    }
}

/* ---- Memory order ------------------------------------------------------------------------ */
SYMM_DEV void symm_dev_fence_sys()
{
    asm volatile("fence.sc.sys;" ::: "memory");
}

SYMM_DEV void symm_dev_fence_release_sys()
{
    asm volatile("fence.acq_rel.sys;" ::: "memory");
}

SYMM_DEV unsigned long long symm_dev_ld_acquire(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

SYMM_DEV void symm_dev_st_release(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

SYMM_DEV void symm_dev_red_release_add(unsigned long long *p, unsigned long long v)
{
    asm volatile("red.release.sys.global.add.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

SYMM_DEV void symm_dev_st_relaxed(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.relaxed.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/* Acquire load of a 1, 2, 4 or 8-byte object, whatever its type. */
template <typename T> SYMM_DEV T symm_dev_load_acquire(const T *p)
{
    union {
        T t;
        unsigned long long u8;
        unsigned u4;
        unsigned short u2;
        unsigned char u1;
    } r;
    if (sizeof(T) == 8) {
        asm volatile("ld.acquire.sys.global.b64 %0, [%1];" : "=l"(r.u8) : "l"(p) : "memory");
    } else if (sizeof(T) == 4) {
        asm volatile("ld.acquire.sys.global.b32 %0, [%1];" : "=r"(r.u4) : "l"(p) : "memory");
    } else if (sizeof(T) == 2) {
        asm volatile("ld.acquire.sys.global.b16 %0, [%1];" : "=h"(r.u2) : "l"(p) : "memory");
    } else {
        unsigned short v;
        asm volatile("ld.acquire.sys.global.b8 %0, [%1];" : "=h"(v) : "l"(p) : "memory");
        r.u1 = (unsigned char)v;
    }
    return r.t;
}

/* A load that skips L1, of a 1, 2, 4, 8 or 16-byte object of any type (another GPU's memory). */
template <typename T> SYMM_DEV T symm_dev_ldcg(const T *p)
{
    union {
        T t;
        uint4 u16;
        unsigned long long u8;
        unsigned u4;
        unsigned short u2;
        unsigned char u1;
    } r;
    if (sizeof(T) == 16)
        r.u16 = __ldcg((const uint4 *)p);
    else if (sizeof(T) == 8)
        r.u8 = __ldcg((const unsigned long long *)p);
    else if (sizeof(T) == 4)
        r.u4 = __ldcg((const unsigned *)p);
    else if (sizeof(T) == 2)
        r.u2 = __ldcg((const unsigned short *)p);
    else
        r.u1 = __ldcg((const unsigned char *)p);
    return r.t;
}

/* ---- Checks (debug builds) ------------------------------------------------------------------
 * A failed check fills the host-visible error record (first failure wins) and traps: the
 * kernel dies, the next CUDA call of this PE's host reports it, and the library's error path
 * prints the record and brings the job down. */
__device__ __noinline__ static void symm_dev_fail(int what, const char *call, int pe,
                                                  const void *addr, size_t bytes)
{
    symm_dev_err_t *e = symm_dev_c.err;

    if (e != NULL && atomicCAS((int *)&e->set, 0, 2) == 0) {
        e->what = what;
        e->pe = pe;
        e->n_pes = symm_dev_c.n_pes;
        e->addr = (unsigned long long)addr;
        e->bytes = bytes;
        int i = 0;
        for (; call[i] != '\0' && i < (int)sizeof(e->call) - 1; i++)
            e->call[i] = call[i];
        e->call[i] = '\0';
        __threadfence_system();
        e->set = 1;
        __threadfence_system();
    } else if (e == NULL) {
        printf("symm: [pe ? device] %s: the device API was used before shmem_init set up this "
               "module's GPU state\n", call);
    }
    __trap();
}

SYMM_DEV void symm_dev_check_pe(const char *call, const void *addr, size_t bytes, int pe)
{
#if SYMM_DEV_CHECKS
    if (symm_dev_c.abi != SYMM_DEV_ABI)
        symm_dev_fail(SYMM_DEV_ERR_INIT, call, pe, addr, bytes);
    if ((unsigned)pe >= (unsigned)symm_dev_c.n_pes)
        symm_dev_fail(SYMM_DEV_ERR_PE, call, pe, addr, bytes);
    unsigned long long off = (unsigned long long)((const char *)addr - symm_dev_c.base);
    if (off >= symm_dev_c.size || bytes > symm_dev_c.size - off)
        symm_dev_fail(SYMM_DEV_ERR_ADDR, call, pe, addr, bytes);
#endif
}

SYMM_DEV void symm_dev_check_align(const char *call, const void *addr, size_t align)
{
#if SYMM_DEV_CHECKS
    if ((uintptr_t)addr & (align - 1))
        symm_dev_fail(SYMM_DEV_ERR_ALIGN, call, symm_dev_c.my_pe, addr, align);
#endif
}

/* ---- Translation ----------------------------------------------------------------------------
 * A device-heap address on pe: one multiply-add on the window stride. */
template <typename T> SYMM_DEV T *symm_dev_xlate(T *addr, int pe)
{
    return (T *)((char *)addr + (long long)(pe - symm_dev_c.my_pe) * (long long)symm_dev_c.stride);
}

template <typename T> SYMM_DEV T *symm_dev_peer(const char *call, T *addr, size_t bytes, int pe)
{
    symm_dev_check_pe(call, addr, bytes, pe);
    return symm_dev_xlate(addr, pe);
}

SYMM_DEV symm_dev_internal_t *symm_dev_internal(int pe)
{
    return (symm_dev_internal_t *)(symm_dev_c.win + (unsigned long long)pe * symm_dev_c.stride);
}

/* ---- Teams -------------------------------------------------------------------------------
 * A team handle is the host's pointer; this PE's table in its internal part gives the slot
 * and the members (the host writes it when a team is created or destroyed, before a kernel
 * may use the team). SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED (one node: every PE) need no
 * lookup. A handle that is not a live team of this PE ends the kernel with a report, in every
 * build: running a collective over the wrong PEs would hang or corrupt. */
SYMM_DEV symm_dev_tv_t symm_dev_world(int slot)
{
    symm_dev_tv_t t = {slot, 0, 1, symm_dev_c.n_pes, symm_dev_c.my_pe};
    return t;
}

SYMM_DEV symm_dev_tv_t symm_dev_team(const char *call, const void *team)
{
    /* NVSHMEM's integer teams come as SHMEMX_TEAM_OF_INDEX(index): 1 + index. Its predefined
     * ones are the world (0) and the shared team (1; 2, the node's, is the same in symm); a
     * split team's is in the table beside its handle. */
    const uintptr_t index1 = (uintptr_t)team;
    if (team == symm_dev_c.team_world || index1 == 1)
        return symm_dev_world(0);
    if (team == symm_dev_c.team_shared || index1 == 2 || index1 == 3) {
        /* This node's PEs: consecutive. */
        symm_dev_tv_t t = {1, symm_dev_c.node_first, 1, symm_dev_c.node_count,
                           symm_dev_c.my_pe - symm_dev_c.node_first};
        return t;
    }
#if SYMM_DEV_CHECKS
    if (symm_dev_c.abi != SYMM_DEV_ABI)
        symm_dev_fail(SYMM_DEV_ERR_INIT, call, symm_dev_c.my_pe, team, 0);
#endif
    const unsigned long long h = (unsigned long long)team;
    const symm_dev_team_t *tab = symm_dev_internal(symm_dev_c.my_pe)->teams;
    unsigned i = SYMM_DEV_TEAM_HASH(h);

    for (int k = 0; k < SYMM_DEV_TEAM_TABLE && h > 1;
         k++, i = (i + 1) & (SYMM_DEV_TEAM_TABLE - 1)) {
        const unsigned long long x = tab[i].handle;
        if (x == h) {
            symm_dev_tv_t t = {tab[i].slot, tab[i].start, tab[i].stride, tab[i].size, tab[i].me};
            return t;
        }
        if (x == 0)
            break;
    }
    symm_dev_fail(SYMM_DEV_ERR_TEAM, call, symm_dev_c.my_pe, team, 0);
    return symm_dev_world(0);
}

/* World PE of team member i. */
SYMM_DEV int symm_dev_member(const symm_dev_tv_t &t, int i)
{
    return t.start + i * t.stride;
}

/* ---- Copy -------------------------------------------------------------------------------------
 * Thread tid of nth copies its share of n bytes. The widest word both pointers allow after a
 * common head; four words in flight per thread before the first store, so a warp keeps
 * enough requests outstanding to cover NVLink latency. REMOTE_SRC loads bypass L1 (the
 * source is another GPU's memory that may have changed since it was last read here). */
template <typename W, bool REMOTE_SRC> SYMM_DEV W symm_dev_ldw(const W *p)
{
    if (REMOTE_SRC)
        return __ldcg(p);
    return *p;
}

template <typename W> struct symm_dev_narrower;
template <> struct symm_dev_narrower<uint4> {
    typedef unsigned long long t;
};
template <> struct symm_dev_narrower<unsigned long long> {
    typedef unsigned t;
};
template <> struct symm_dev_narrower<unsigned> {
    typedef unsigned short t;
};
template <> struct symm_dev_narrower<unsigned short> {
    typedef unsigned char t;
};

/* Copies with words of W from a W-aligned d (s aligned alike), then hands the tail to the next
 * narrower word: the tail of a 16-byte copy takes at most one 8, 4, 2 and 1-byte store per
 * thread, never a run of single bytes. */
template <typename W, bool REMOTE_SRC>
SYMM_DEV void symm_dev_copy_body(char *d, const char *s, size_t n, unsigned tid, unsigned nth)
{
    W *dw = (W *)d;
    const W *sw = (const W *)s;
    size_t nw = n / sizeof(W), i = tid;

    for (; i + 3 * (size_t)nth < nw; i += 4 * (size_t)nth) {
        W a = symm_dev_ldw<W, REMOTE_SRC>(sw + i);
        W b = symm_dev_ldw<W, REMOTE_SRC>(sw + i + nth);
        W c = symm_dev_ldw<W, REMOTE_SRC>(sw + i + 2 * nth);
        W e = symm_dev_ldw<W, REMOTE_SRC>(sw + i + 3 * nth);
        dw[i] = a;
        dw[i + nth] = b;
        dw[i + 2 * nth] = c;
        dw[i + 3 * nth] = e;
    }
    for (; i < nw; i += nth)
        dw[i] = symm_dev_ldw<W, REMOTE_SRC>(sw + i);
    if (sizeof(W) > 1 && n % sizeof(W))
        symm_dev_copy_body<typename symm_dev_narrower<W>::t, REMOTE_SRC>(
            d + nw * sizeof(W), s + nw * sizeof(W), n % sizeof(W), tid, nth);
}
template <>
__device__ __forceinline__ void symm_dev_copy_body<unsigned char, false>(char *d, const char *s,
                                                                         size_t n, unsigned tid,
                                                                         unsigned nth)
{
    for (size_t i = tid; i < n; i += nth)
        d[i] = s[i];
}
template <>
__device__ __forceinline__ void symm_dev_copy_body<unsigned char, true>(char *d, const char *s,
                                                                        size_t n, unsigned tid,
                                                                        unsigned nth)
{
    for (size_t i = tid; i < n; i += nth)
        d[i] = (char)__ldcg((const unsigned char *)s + i);
}

/* The widest word both pointers allow: bytes up to the common alignment, then the body. */
template <typename W, bool REMOTE_SRC>
SYMM_DEV void symm_dev_copy_words(char *d, const char *s, size_t n, unsigned tid, unsigned nth)
{
    size_t head = (sizeof(W) - ((uintptr_t)d & (sizeof(W) - 1))) & (sizeof(W) - 1);

    if (head > n)
        head = n;
    if (head)
        symm_dev_copy_body<unsigned char, REMOTE_SRC>(d, s, head, tid, nth);
    symm_dev_copy_body<W, REMOTE_SRC>(d + head, s + head, n - head, tid, nth);
}

/* Not inlined: one body per module serves every call site (it is the expensive part to
 * compile, and a call costs nothing next to the memory traffic behind it). */
template <bool REMOTE_SRC>
static __device__ __noinline__ void symm_dev_copy_any(void *dst, const void *src, size_t n,
                                                      unsigned tid, unsigned nth)
{
    char *d = (char *)dst;
    const char *s = (const char *)src;
    uintptr_t x = (uintptr_t)d ^ (uintptr_t)s;

    if ((x & 15) == 0)
        symm_dev_copy_words<uint4, REMOTE_SRC>(d, s, n, tid, nth);
    else if ((x & 7) == 0)
        symm_dev_copy_words<unsigned long long, REMOTE_SRC>(d, s, n, tid, nth);
    else if ((x & 3) == 0)
        symm_dev_copy_words<unsigned, REMOTE_SRC>(d, s, n, tid, nth);
    else
        symm_dev_copy_body<unsigned char, REMOTE_SRC>(d, s, n, tid, nth);
}

/* Small aligned copies (a scalar or two, the common p/put of one value) stay inline. */
template <bool REMOTE_SRC>
SYMM_DEV void symm_dev_copy(void *dst, const void *src, size_t n, unsigned tid, unsigned nth)
{
    if (n <= 16 && nth == 1 && (((uintptr_t)dst | (uintptr_t)src | n) & 7) == 0) {
        for (size_t i = 0; i < n; i += 8)
            *(unsigned long long *)((char *)dst + i) =
                symm_dev_ldw<unsigned long long, REMOTE_SRC>(
                    (const unsigned long long *)((const char *)src + i));
        return;
    }
    symm_dev_copy_any<REMOTE_SRC>(dst, src, n, tid, nth);
}

#endif
