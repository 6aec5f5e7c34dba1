/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Device atomic memory operations on a peer's symmetric object: the system-scope atomics of
 * the GPU, applied through the window. Peer atomics over NVLink are native, so an atomic on a
 * peer's word is one instruction. Every type maps to the unsigned word of its size (two's
 * complement addition is the same instruction for signed and unsigned; float and double move
 * as bits for fetch, set and swap). Atomics are relaxed, as OpenSHMEM defines them: ordering
 * with other operations comes from shmem_fence and shmem_quiet.
 */
#ifndef SYMM_IMPL_AMO_CUH
#define SYMM_IMPL_AMO_CUH

#include "symm/impl/core.cuh"
#include "symm/impl/proxy.cuh"

template <int N> struct symm_dev_uint;
template <> struct symm_dev_uint<4> {
    typedef unsigned int t;
};
template <> struct symm_dev_uint<8> {
    typedef unsigned long long t;
};

template <typename T> SYMM_DEV typename symm_dev_uint<sizeof(T)>::t symm_dev_bits(T v)
{
    union {
        T a;
        typename symm_dev_uint<sizeof(T)>::t b;
    } u;
    u.a = v;
    return u.b;
}

template <typename T> SYMM_DEV T symm_dev_unbits(typename symm_dev_uint<sizeof(T)>::t v)
{
    union {
        typename symm_dev_uint<sizeof(T)>::t b;
        T a;
    } u;
    u.b = v;
    return u.a;
}

enum {
    SYMM_AMO_FETCH,
    SYMM_AMO_SET,
    SYMM_AMO_SWAP,
    SYMM_AMO_CSWAP,
    SYMM_AMO_ADD,
    SYMM_AMO_AND,
    SYMM_AMO_OR,
    SYMM_AMO_XOR,
};

static_assert((int)SYMM_AMO_FETCH == (int)SYMM_PX_AMO_FETCH &&
                  (int)SYMM_AMO_XOR == (int)SYMM_PX_AMO_XOR &&
                  (int)SYMM_AMO_CSWAP == (int)SYMM_PX_AMO_CSWAP,
              "the proxy's atomics are numbered as the device API's");

/* One atomic on pe's object: returns the old value (FETCH: the value; SET: nothing). FETCH
 * false: the caller drops the old value, so a PE of another node is not waited for. */
template <int OP, typename T, bool FETCH = true>
SYMM_DEV T symm_dev_amo(const char *call, T *dest, T value, T cond, int pe)
{
    typedef typename symm_dev_uint<sizeof(T)>::t U;
    symm_dev_check_align(call, dest, sizeof(T));
    if (__builtin_expect(!symm_dev_near(pe), 0)) {
        symm_dev_check_pe(call, dest, sizeof(T), pe);
        return symm_dev_unbits<T>((U)symm_dev_px_amo(OP, dest, symm_dev_bits(value),
                                                     symm_dev_bits(cond), sizeof(T), pe,
                                                     FETCH && OP != SYMM_AMO_SET));
    }
    U *p = (U *)symm_dev_peer(call, dest, sizeof(T), pe);

    switch (OP) {
    case SYMM_AMO_FETCH:
        return symm_dev_unbits<T>(*(volatile U *)p);
    case SYMM_AMO_SET:
        *(volatile U *)p = symm_dev_bits(value);
        return value;
    case SYMM_AMO_SWAP:
        return symm_dev_unbits<T>(atomicExch_system(p, symm_dev_bits(value)));
    case SYMM_AMO_CSWAP:
        return symm_dev_unbits<T>(atomicCAS_system(p, symm_dev_bits(cond), symm_dev_bits(value)));
    case SYMM_AMO_ADD:
        return symm_dev_unbits<T>(atomicAdd_system(p, symm_dev_bits(value)));
    case SYMM_AMO_AND:
        return symm_dev_unbits<T>(atomicAnd_system(p, symm_dev_bits(value)));
    case SYMM_AMO_OR:
        return symm_dev_unbits<T>(atomicOr_system(p, symm_dev_bits(value)));
    default:
        return symm_dev_unbits<T>(atomicXor_system(p, symm_dev_bits(value)));
    }
}

#endif
