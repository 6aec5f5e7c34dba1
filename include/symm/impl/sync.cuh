/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Device signals, point-to-point waits, fence, quiet and the team barriers.
 *
 * put_signal: the data stores, then (after the group's barrier for warp and block forms) one
 * release operation on the peer's signal word: a PE that acquires the signal sees the data.
 * Waits spin on acquire loads of the local object.
 *
 * Barrier: each PE keeps the number of barriers it passed per team (bar_epoch[slot], in its
 * own internal part) and, at epoch e, stores e into word [me] of every member's bar[slot]
 * array and waits until the words of every member in its own array are at least e. One store
 * per peer and one NVLink latency per barrier; a PE already in the next barrier only moves its
 * word further. The store is a release (a barrier completes the caller's puts, as quiet
 * does); a sync's is relaxed. Called by one thread (or the one warp or block of the _warp and
 * _block forms) per member.
 */
#ifndef SYMM_IMPL_SYNC_CUH
#define SYMM_IMPL_SYNC_CUH

#include "symm/impl/rma.cuh"

#ifndef SHMEM_CMP_EQ
#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_GE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_LE 5
#endif
#ifndef SHMEM_SIGNAL_SET
#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1
#endif

SYMM_DEV void symm_dev_signal_op(const char *call, unsigned long long *sig_addr,
                                 unsigned long long signal, int sig_op, int pe)
{
    symm_dev_check_align(call, sig_addr, 8);
    unsigned long long *sig = symm_dev_peer(call, sig_addr, 8, pe);

    if (__builtin_expect(!symm_dev_near(pe), 0)) {
        symm_dev_px_amo(sig_op == SHMEM_SIGNAL_ADD ? SYMM_PX_AMO_ADD : SYMM_PX_AMO_SET, sig_addr,
                        signal, 0, 8, pe, false);
        return;
    }

#if SYMM_DEV_CHECKS
    if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
        symm_dev_fail(SYMM_DEV_ERR_ARG, call, pe, sig_addr, (size_t)sig_op);
#endif
    if (sig_op == SHMEM_SIGNAL_ADD)
        symm_dev_red_release_add(sig, signal);
    else
        symm_dev_st_release(sig, signal);
}

template <int S, bool NBI>
SYMM_DEV void symm_dev_put_signal(const char *call, void *dest, const void *src, size_t n,
                                  unsigned long long *sig_addr, unsigned long long signal,
                                  int sig_op, int pe)
{
    if (__builtin_expect(!symm_dev_near(pe), 0)) {
        symm_dev_check_pe(call, dest, n, pe);
        symm_dev_check_pe(call, sig_addr, 8, pe);
        symm_dev_px_put_signal<S, NBI>(dest, src, n, sig_addr, signal, sig_op, pe);
        return;
    }
    char *p = symm_dev_peer(call, (char *)dest, n, pe);

    symm_dev_copy<false>(p, src, n, symm_dev_tid<S>(), symm_dev_nth<S>());
    symm_dev_sync<S>();
    if (symm_dev_tid<S>() == 0)
        symm_dev_signal_op(call, sig_addr, signal, sig_op, pe);
    if (!NBI)
        symm_dev_sync<S>();
}

template <typename T> SYMM_DEV bool symm_dev_cmp(T a, int cmp, T b)
{
    switch (cmp) {
    case SHMEM_CMP_EQ:
        return a == b;
    case SHMEM_CMP_NE:
        return a != b;
    case SHMEM_CMP_GT:
        return a > b;
    case SHMEM_CMP_GE:
        return a >= b;
    case SHMEM_CMP_LT:
        return a < b;
    default:
        return a <= b;
    }
}

SYMM_DEV void symm_dev_check_cmp(const char *call, const void *ivar, int cmp)
{
#if SYMM_DEV_CHECKS
    if ((unsigned)cmp > SHMEM_CMP_LE)
        symm_dev_fail(SYMM_DEV_ERR_ARG, call, symm_dev_c.my_pe, ivar, (size_t)cmp);
#endif
}

template <typename T> SYMM_DEV T symm_dev_wait(const char *call, T *ivar, int cmp, T value)
{
    T v;

    symm_dev_check_cmp(call, ivar, cmp);
    while (!symm_dev_cmp(v = symm_dev_load_acquire(ivar), cmp, value))
        ;
    return v;
}

template <typename T> SYMM_DEV int symm_dev_test(const char *call, T *ivar, int cmp, T value)
{
    symm_dev_check_cmp(call, ivar, cmp);
    return symm_dev_cmp(symm_dev_load_acquire(ivar), cmp, value);
}

/* The array forms: element i takes part unless status[i] is non-zero; values is the one value
 * (vector == false) or the array of values (vector == true). */
template <typename T>
SYMM_DEV bool symm_dev_hit(T *ivars, size_t i, int cmp, const T *values, bool vector)
{
    return symm_dev_cmp(symm_dev_load_acquire(ivars + i), cmp, vector ? values[i] : values[0]);
}

template <typename T>
SYMM_DEV int symm_dev_test_all(const char *call, T *ivars, size_t n, const int *status, int cmp,
                               const T *values, bool vector)
{
    symm_dev_check_cmp(call, ivars, cmp);
    for (size_t i = 0; i < n; i++)
        if (!(status && status[i]) && !symm_dev_hit(ivars, i, cmp, values, vector))
            return 0;
    return 1;
}

template <typename T>
SYMM_DEV size_t symm_dev_test_any(const char *call, T *ivars, size_t n, const int *status,
                                  int cmp, const T *values, bool vector)
{
    symm_dev_check_cmp(call, ivars, cmp);
    for (size_t i = 0; i < n; i++)
        if (!(status && status[i]) && symm_dev_hit(ivars, i, cmp, values, vector))
            return i;
    return SIZE_MAX;
}

template <typename T>
SYMM_DEV size_t symm_dev_test_some(const char *call, T *ivars, size_t n, size_t *indices,
                                   const int *status, int cmp, const T *values, bool vector)
{
    size_t k = 0;

    symm_dev_check_cmp(call, ivars, cmp);
    for (size_t i = 0; i < n; i++)
        if (!(status && status[i]) && symm_dev_hit(ivars, i, cmp, values, vector))
            indices[k++] = i;
    return k;
}

SYMM_DEV bool symm_dev_none_active(size_t n, const int *status)
{
    for (size_t i = 0; i < n; i++)
        if (!(status && status[i]))
            return false;
    return true;
}

template <typename T>
SYMM_DEV void symm_dev_wait_all(const char *call, T *ivars, size_t n, const int *status, int cmp,
                                const T *values, bool vector)
{
    symm_dev_check_cmp(call, ivars, cmp);
    for (size_t i = 0; i < n; i++)
        if (!(status && status[i]))
            while (!symm_dev_hit(ivars, i, cmp, values, vector))
                ;
}

template <typename T>
SYMM_DEV size_t symm_dev_wait_any(const char *call, T *ivars, size_t n, const int *status,
                                  int cmp, const T *values, bool vector)
{
    size_t i;

    if (symm_dev_none_active(n, status))
        return SIZE_MAX;
    while ((i = symm_dev_test_any(call, ivars, n, status, cmp, values, vector)) == SIZE_MAX)
        ;
    return i;
}

template <typename T>
SYMM_DEV size_t symm_dev_wait_some(const char *call, T *ivars, size_t n, size_t *indices,
                                   const int *status, int cmp, const T *values, bool vector)
{
    size_t k;

    if (symm_dev_none_active(n, status))
        return 0;
    while ((k = symm_dev_test_some(call, ivars, n, indices, status, cmp, values, vector)) == 0)
        ;
    return k;
}

/* Group-wide: the next value of this PE's counter *count, counted by one thread and handed to
 * every thread of the group. It begins with a group barrier, which also frees the block's
 * shared word from the previous call. */
template <int S> SYMM_DEV unsigned long long symm_dev_group_next(unsigned long long *count)
{
    __shared__ unsigned long long next_sh;
    volatile unsigned long long *c = count;
    unsigned long long e = 0;

    symm_dev_sync<S>();
    if (symm_dev_tid<S>() == 0) {
        e = *c + 1;
        *c = e;
    }
    if (S == SYMM_WARP) {
        e = __shfl_sync(0xffffffffu, e, 0);
    } else if (S == SYMM_BLOCK) {
        if (symm_dev_tid<S>() == 0)
            next_sh = e;
        __syncthreads();
        e = next_sh;
    }
    return e;
}

/* ---- Barrier ------------------------------------------------------------------------------
 * Team t (the world: symm_dev_world(0)); called by one thread, warp or block per member. */
template <int S> SYMM_DEV void symm_dev_team_barrier(const symm_dev_tv_t &t, bool quiet)
{
    const unsigned tid = symm_dev_tid<S>(), nth = symm_dev_nth<S>();
    symm_dev_internal_t *mine = symm_dev_internal(symm_dev_c.my_pe);
    const unsigned long long e = symm_dev_group_next<S>(&mine->bar_epoch[t.slot]);

    /* One thread storing to every PE fences once; group lanes each release their own store.
     * Across nodes, the proxy completes this PE's requests first, then carries the stores to
     * the members it does not map. */
    if (quiet && S == SYMM_THREAD)
        symm_dev_fence_release_sys();
    if (quiet && symm_dev_c.ring) {
        if (tid == 0)
            symm_dev_px_quiet();
        symm_dev_sync<S>();
    }
    for (int i = (int)tid; i < t.size; i += (int)nth) {
        const int pe = symm_dev_member(t, i);
        unsigned long long *w = &symm_dev_internal(pe)->bar[t.slot][t.me];
        if (__builtin_expect(!symm_dev_near(pe), 0))
            symm_dev_px_amo(SYMM_PX_AMO_SET, &mine->bar[t.slot][t.me], e, 0, 8, pe, false);
        else if (quiet && S != SYMM_THREAD)
            symm_dev_st_release(w, e);
        else
            symm_dev_st_relaxed(w, e);
    }
    for (int i = (int)tid; i < t.size; i += (int)nth)
        while (symm_dev_ld_acquire(&mine->bar[t.slot][i]) < e)
            ;
    if (S == SYMM_BLOCK)
        __syncthreads();
    else
        symm_dev_sync<S>();
}

template <int S> SYMM_DEV void symm_dev_barrier(bool quiet)
{
    symm_dev_team_barrier<S>(symm_dev_world(0), quiet);
}

#endif
