/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Atomic memory operations. To a load/store peer an AMO is one locked instruction on the
 * peer's object through the window; it is atomic against every other PE's AMOs on that object
 * because they all reach the same physical page. The only other work is the doorbell check
 * after the operation (a sleeping waiter there is woken) and, in the slow path, the argument
 * checks. Each row of the type table expands to its families; ctx and non-ctx names share
 * one body.
 */
#include <string.h>

#include "core/state.h"
#include "tl/tl.h"

#define UNPAREN(...) __VA_ARGS__
#define SEQ __ATOMIC_SEQ_CST

/* The target of an AMO: symmetric, on a reachable PE, naturally aligned; NULL when the PE is
 * on another node (the operation goes over the network). */
SYMM_INLINE void *amo_at(const char *call, const void *p, size_t size, int pe)
{
    void *q;

    if (SYMM_UNLIKELY((uintptr_t)p & (size - 1)))
        symm_fatal("%s(dest=%p, pe=%d): address is not aligned to the %zu-byte element", call, p,
                   pe, size);
    q = symm_xlate_fast(p, size, pe);
    return SYMM_LIKELY(q != NULL) ? q : symm_amo_target(call, p, size, pe);
}

/* A value of an AMO type as the bits of a word, and back. */
SYMM_INLINE uint64_t bits_of(const void *v, size_t size)
{
    uint64_t b = 0;

    memcpy(&b, v, size);
    return b;
}
/* The operation over the network; the old value lands in *out when out is not NULL. */
SYMM_INLINE void net_op(shmem_ctx_t ctx, const char *call, int op, const void *dest, size_t size,
                        const void *v, const void *cond, int pe, void *out)
{
    uint64_t r = symm_amo_net(ctx, call, op, dest, size, bits_of(v, size),
                              cond ? bits_of(cond, size) : 0, pe, out != NULL);

    if (out)
        memcpy(out, &r, size);
}

/* One body, two names; BODY is an expression over the parameters, `ctx`, `call` and `pe`. */
#define PAIR(RET, NAME, PARAMS, BODY)                                                           \
    SYMM_EXPORT RET shmem_ctx_##NAME(shmem_ctx_t ctx, UNPAREN PARAMS)                           \
    {                                                                                           \
        const char *call = "shmem_ctx_" #NAME;                                                  \
        if (!symm_ctx_ok(ctx, call))                                                            \
            return (RET)0;                                                                      \
        pe = symm_ctx_pe(ctx, pe, call);                                                        \
        return BODY;                                                                            \
    }                                                                                           \
    SYMM_EXPORT RET shmem_##NAME(UNPAREN PARAMS)                                                \
    {                                                                                           \
        const char *call = "shmem_" #NAME;                                                      \
        shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;                                                    \
        return BODY;                                                                            \
    }
#define PAIR_VOID(NAME, PARAMS, BODY)                                                           \
    SYMM_EXPORT void shmem_ctx_##NAME(shmem_ctx_t ctx, UNPAREN PARAMS)                          \
    {                                                                                           \
        const char *call = "shmem_ctx_" #NAME;                                                  \
        if (symm_ctx_ok(ctx, call)) {                                                           \
            pe = symm_ctx_pe(ctx, pe, call);                                                    \
            BODY;                                                                               \
        }                                                                                       \
    }                                                                                           \
    SYMM_EXPORT void shmem_##NAME(UNPAREN PARAMS)                                               \
    {                                                                                           \
        const char *call = "shmem_" #NAME;                                                      \
        shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;                                                    \
        BODY;                                                                                   \
    }

/* Per-type primitives: each performs the operation on pe's object and wakes a sleeper. */
#define PRIMS(NAME, T)                                                                          \
    SYMM_INLINE T NAME##_fetch(shmem_ctx_t ctx, const char *call, const T *src, int pe)         \
    {                                                                                           \
        T r, z = 0, *p = amo_at(call, src, sizeof(T), pe);                                      \
        if (SYMM_UNLIKELY(!p))                                                                  \
            net_op(ctx, call, SYMM_AMO_FETCH, src, sizeof(T), &z, NULL, pe, &r);                \
        else                                                                                    \
            __atomic_load(p, &r, SEQ);                                                          \
        return r;                                                                               \
    }                                                                                           \
    SYMM_INLINE T NAME##_swap(shmem_ctx_t ctx, const char *call, T *dest, T v, int pe)          \
    {                                                                                           \
        T r, *p = amo_at(call, dest, sizeof(T), pe);                                            \
        if (SYMM_UNLIKELY(!p)) {                                                                \
            net_op(ctx, call, SYMM_AMO_SWAP, dest, sizeof(T), &v, NULL, pe, &r);                \
            return r;                                                                           \
        }                                                                                       \
        __atomic_exchange(p, &v, &r, SEQ);                                                      \
        symm_wake(pe, p, sizeof(T));                                                            \
        return r;                                                                               \
    }                                                                                           \
    SYMM_INLINE void NAME##_set(shmem_ctx_t ctx, const char *call, T *dest, T v, int pe)        \
    {                                                                                           \
        T r, *p = amo_at(call, dest, sizeof(T), pe);                                            \
        if (SYMM_UNLIKELY(!p)) {                                                                \
            net_op(ctx, call, SYMM_AMO_SET, dest, sizeof(T), &v, NULL, pe, &r);                 \
            return;                                                                             \
        }                                                                                       \
        __atomic_exchange(p, &v, &r, SEQ);                                                      \
        symm_wake(pe, p, sizeof(T));                                                            \
    }                                                                                           \
    SYMM_INLINE T NAME##_cswap(shmem_ctx_t ctx, const char *call, T *dest, T cond, T v,         \
                               int pe)                                                          \
    {                                                                                           \
        T r, *p = amo_at(call, dest, sizeof(T), pe);                                            \
        if (SYMM_UNLIKELY(!p)) {                                                                \
            net_op(ctx, call, SYMM_AMO_CSWAP, dest, sizeof(T), &v, &cond, pe, &r);              \
            return r;                                                                           \
        }                                                                                       \
        __atomic_compare_exchange(p, &cond, &v, 0, SEQ, SEQ);                                   \
        symm_wake(pe, p, sizeof(T));                                                            \
        return cond;                                                                            \
    }

/* Over the network every AMO waits for its reply, fetching or not: a PE's AMOs on one object
 * take effect in the order it issued them, whatever contexts they use, as they do through the
 * window (a posted one could be overtaken by a later one on another context's worker). */
#define RMW(NAME, T, OP, NET_OP)                                                                \
    SYMM_INLINE T NAME##_fetch_##OP(shmem_ctx_t ctx, const char *call, T *dest, T v, int pe)    \
    {                                                                                           \
        T r = 0, *p = amo_at(call, dest, sizeof(T), pe);                                        \
        if (SYMM_UNLIKELY(!p)) {                                                                \
            net_op(ctx, call, NET_OP, dest, sizeof(T), &v, NULL, pe, &r);                       \
            return r;                                                                           \
        }                                                                                       \
        r = __atomic_fetch_##OP(p, v, SEQ);                                                     \
        symm_wake(pe, p, sizeof(T));                                                            \
        return r;                                                                               \
    }

#define EXT_OPS(NAME, T)                                                                        \
    PAIR(T, NAME##_atomic_fetch, (const T *source, int pe),                                     \
         NAME##_fetch(ctx, call, source, pe))                                                   \
    PAIR_VOID(NAME##_atomic_set, (T * dest, T value, int pe),                                   \
              NAME##_set(ctx, call, dest, value, pe))                                           \
    PAIR(T, NAME##_atomic_swap, (T * dest, T value, int pe),                                    \
         NAME##_swap(ctx, call, dest, value, pe))                                               \
    PAIR_VOID(NAME##_atomic_fetch_nbi, (T * fetch, const T *source, int pe),                    \
              *fetch = NAME##_fetch(ctx, call, source, pe))                                     \
    PAIR_VOID(NAME##_atomic_swap_nbi, (T * fetch, T * dest, T value, int pe),                   \
              *fetch = NAME##_swap(ctx, call, dest, value, pe))

#define STD_OPS(NAME, T)                                                                        \
    RMW(NAME, T, add, SYMM_AMO_ADD)                                                             \
    PAIR(T, NAME##_atomic_compare_swap, (T * dest, T cond, T value, int pe),                    \
         NAME##_cswap(ctx, call, dest, cond, value, pe))                                        \
    PAIR(T, NAME##_atomic_fetch_inc, (T * dest, int pe),                                        \
         NAME##_fetch_add(ctx, call, dest, 1, pe))                                              \
    PAIR_VOID(NAME##_atomic_inc, (T * dest, int pe),                                            \
              NAME##_fetch_add(ctx, call, dest, 1, pe))                                         \
    PAIR(T, NAME##_atomic_fetch_add, (T * dest, T value, int pe),                               \
         NAME##_fetch_add(ctx, call, dest, value, pe))                                          \
    PAIR_VOID(NAME##_atomic_add, (T * dest, T value, int pe),                                   \
              NAME##_fetch_add(ctx, call, dest, value, pe))                                     \
    PAIR_VOID(NAME##_atomic_compare_swap_nbi, (T * fetch, T * dest, T cond, T value, int pe),   \
              *fetch = NAME##_cswap(ctx, call, dest, cond, value, pe))                          \
    PAIR_VOID(NAME##_atomic_fetch_inc_nbi, (T * fetch, T * dest, int pe),                       \
              *fetch = NAME##_fetch_add(ctx, call, dest, 1, pe))                                \
    PAIR_VOID(NAME##_atomic_fetch_add_nbi, (T * fetch, T * dest, T value, int pe),              \
              *fetch = NAME##_fetch_add(ctx, call, dest, value, pe))

#define BIT_OP(NAME, T, OP, NET_OP)                                                             \
    RMW(NAME, T, OP, NET_OP)                                                                    \
    PAIR(T, NAME##_atomic_fetch_##OP, (T * dest, T value, int pe),                              \
         NAME##_fetch_##OP(ctx, call, dest, value, pe))                                         \
    PAIR_VOID(NAME##_atomic_##OP, (T * dest, T value, int pe),                                  \
              NAME##_fetch_##OP(ctx, call, dest, value, pe))                                    \
    PAIR_VOID(NAME##_atomic_fetch_##OP##_nbi, (T * fetch, T * dest, T value, int pe),           \
              *fetch = NAME##_fetch_##OP(ctx, call, dest, value, pe))
#define BIT_OPS(NAME, T)                                                                        \
    BIT_OP(NAME, T, and, SYMM_AMO_AND) BIT_OP(NAME, T, or, SYMM_AMO_OR)                         \
    BIT_OP(NAME, T, xor, SYMM_AMO_XOR)

#define ROW(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)                 \
    SYMM_IF_##EXT(PRIMS(NAME, T) EXT_OPS(NAME, T)) SYMM_IF_##AMO(STD_OPS(NAME, T))              \
    SYMM_IF_##BIT(BIT_OPS(NAME, T))
SYMM_TYPES(ROW, _)

/* Deprecated names (the rows with OLD): shells over the current ones. */
#define OLD_INT(NAME, T)                                                                        \
    SYMM_EXPORT T shmem_##NAME##_cswap(T *dest, T cond, T value, int pe)                        \
    {                                                                                           \
        return NAME##_cswap(SHMEM_CTX_DEFAULT, "shmem_" #NAME "_cswap", dest, cond, value, pe); \
    }                                                                                           \
    SYMM_EXPORT T shmem_##NAME##_fadd(T *dest, T value, int pe)                                 \
    {                                                                                           \
        return NAME##_fetch_add(SHMEM_CTX_DEFAULT, "shmem_" #NAME "_fadd", dest, value, pe);    \
    }                                                                                           \
    SYMM_EXPORT T shmem_##NAME##_finc(T *dest, int pe)                                          \
    {                                                                                           \
        return NAME##_fetch_add(SHMEM_CTX_DEFAULT, "shmem_" #NAME "_finc", dest, 1, pe);        \
    }                                                                                           \
    SYMM_EXPORT void shmem_##NAME##_add(T *dest, T value, int pe)                               \
    {                                                                                           \
        (void)NAME##_fetch_add(SHMEM_CTX_DEFAULT, "shmem_" #NAME "_add", dest, value, pe);      \
    }                                                                                           \
    SYMM_EXPORT void shmem_##NAME##_inc(T *dest, int pe)                                        \
    {                                                                                           \
        (void)NAME##_fetch_add(SHMEM_CTX_DEFAULT, "shmem_" #NAME "_inc", dest, 1, pe);          \
    }
#define OLD_ANY(NAME, T)                                                                        \
    SYMM_EXPORT T shmem_##NAME##_swap(T *dest, T value, int pe)                                 \
    {                                                                                           \
        return NAME##_swap(SHMEM_CTX_DEFAULT, "shmem_" #NAME "_swap", dest, value, pe);         \
    }                                                                                           \
    SYMM_EXPORT T shmem_##NAME##_fetch(const T *source, int pe)                                 \
    {                                                                                           \
        return NAME##_fetch(SHMEM_CTX_DEFAULT, "shmem_" #NAME "_fetch", source, pe);            \
    }                                                                                           \
    SYMM_EXPORT void shmem_##NAME##_set(T *dest, T value, int pe)                               \
    {                                                                                           \
        NAME##_set(SHMEM_CTX_DEFAULT, "shmem_" #NAME "_set", dest, value, pe);                  \
    }
#define OLD_ROW(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN,  \
                TOALL, TOBIT, OLD, DEV)                                                         \
    SYMM_IF_##OLD(SYMM_IF_##AMO(OLD_INT(NAME, T)) OLD_ANY(NAME, T))
SYMM_TYPE_TABLE(OLD_ROW, _)

SYMM_EXPORT long shmem_swap(long *dest, long value, int pe)
{
    return long_swap(SHMEM_CTX_DEFAULT, "shmem_swap", dest, value, pe);
}
