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
#include "core/state.h"

#define UNPAREN(...) __VA_ARGS__
#define SEQ __ATOMIC_SEQ_CST

/* The target of an AMO: symmetric, on a reachable PE, naturally aligned. */
SYMM_INLINE void *amo_at(const char *call, const void *p, size_t size, int pe)
{
    if (SYMM_UNLIKELY((uintptr_t)p & (size - 1)))
        symm_fatal("%s(dest=%p, pe=%d): address is not aligned to the %zu-byte element", call, p,
                   pe, size);
    return symm_xlate_checked(call, p, size, pe);
}

/* One body, two names; BODY is an expression over the parameters, `call` and `pe`. */
#define PAIR(RET, NAME, PARAMS, BODY)                                                            \
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
        return BODY;                                                                            \
    }
#define PAIR_VOID(NAME, PARAMS, BODY)                                                            \
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
        BODY;                                                                                   \
    }

/* Per-type primitives: each performs the operation on pe's object and wakes a sleeper. */
#define PRIMS(NAME, T)                                                                           \
    SYMM_INLINE T NAME##_fetch(const char *call, const T *src, int pe)                        \
    {                                                                                           \
        T r;                                                                                    \
        __atomic_load((T *)amo_at(call, src, sizeof(T), pe), &r, SEQ);                          \
        return r;                                                                               \
    }                                                                                           \
    SYMM_INLINE T NAME##_swap(const char *call, T *dest, T v, int pe)                         \
    {                                                                                           \
        T r, *p = amo_at(call, dest, sizeof(T), pe);                                            \
        __atomic_exchange(p, &v, &r, SEQ);                                                      \
        symm_wake(pe, p, sizeof(T));                                                            \
        return r;                                                                               \
    }                                                                                           \
    SYMM_INLINE void NAME##_set(const char *call, T *dest, T v, int pe)                       \
    {                                                                                           \
        (void)NAME##_swap(call, dest, v, pe);                                                   \
    }                                                                                           \
    SYMM_INLINE T NAME##_cswap(const char *call, T *dest, T cond, T v, int pe)                \
    {                                                                                           \
        T *p = amo_at(call, dest, sizeof(T), pe);                                               \
        __atomic_compare_exchange(p, &cond, &v, 0, SEQ, SEQ);                                   \
        symm_wake(pe, p, sizeof(T));                                                            \
        return cond;                                                                            \
    }

#define RMW(NAME, T, OP)                                                                         \
    SYMM_INLINE T NAME##_fetch_##OP(const char *call, T *dest, T v, int pe)                   \
    {                                                                                           \
        T *p = amo_at(call, dest, sizeof(T), pe);                                               \
        T r = __atomic_fetch_##OP(p, v, SEQ);                                                   \
        symm_wake(pe, p, sizeof(T));                                                            \
        return r;                                                                               \
    }

#define EXT_OPS(NAME, T)                                                                         \
    PAIR(T, NAME##_atomic_fetch, (const T *source, int pe), NAME##_fetch(call, source, pe))     \
    PAIR_VOID(NAME##_atomic_set, (T * dest, T value, int pe), NAME##_set(call, dest, value, pe))\
    PAIR(T, NAME##_atomic_swap, (T * dest, T value, int pe), NAME##_swap(call, dest, value, pe))\
    PAIR_VOID(NAME##_atomic_fetch_nbi, (T * fetch, const T *source, int pe),                    \
              *fetch = NAME##_fetch(call, source, pe))                                          \
    PAIR_VOID(NAME##_atomic_swap_nbi, (T * fetch, T * dest, T value, int pe),                   \
              *fetch = NAME##_swap(call, dest, value, pe))

#define STD_OPS(NAME, T)                                                                         \
    RMW(NAME, T, add)                                                                           \
    PAIR(T, NAME##_atomic_compare_swap, (T * dest, T cond, T value, int pe),                    \
         NAME##_cswap(call, dest, cond, value, pe))                                             \
    PAIR(T, NAME##_atomic_fetch_inc, (T * dest, int pe), NAME##_fetch_add(call, dest, 1, pe))   \
    PAIR_VOID(NAME##_atomic_inc, (T * dest, int pe), NAME##_fetch_add(call, dest, 1, pe))       \
    PAIR(T, NAME##_atomic_fetch_add, (T * dest, T value, int pe),                               \
         NAME##_fetch_add(call, dest, value, pe))                                               \
    PAIR_VOID(NAME##_atomic_add, (T * dest, T value, int pe),                                   \
              NAME##_fetch_add(call, dest, value, pe))                                          \
    PAIR_VOID(NAME##_atomic_compare_swap_nbi, (T * fetch, T * dest, T cond, T value, int pe),   \
              *fetch = NAME##_cswap(call, dest, cond, value, pe))                               \
    PAIR_VOID(NAME##_atomic_fetch_inc_nbi, (T * fetch, T * dest, int pe),                       \
              *fetch = NAME##_fetch_add(call, dest, 1, pe))                                     \
    PAIR_VOID(NAME##_atomic_fetch_add_nbi, (T * fetch, T * dest, T value, int pe),              \
              *fetch = NAME##_fetch_add(call, dest, value, pe))

#define BIT_OP(NAME, T, OP)                                                                      \
    RMW(NAME, T, OP)                                                                            \
    PAIR(T, NAME##_atomic_fetch_##OP, (T * dest, T value, int pe),                              \
         NAME##_fetch_##OP(call, dest, value, pe))                                              \
    PAIR_VOID(NAME##_atomic_##OP, (T * dest, T value, int pe),                                  \
              NAME##_fetch_##OP(call, dest, value, pe))                                         \
    PAIR_VOID(NAME##_atomic_fetch_##OP##_nbi, (T * fetch, T * dest, T value, int pe),           \
              *fetch = NAME##_fetch_##OP(call, dest, value, pe))
#define BIT_OPS(NAME, T) BIT_OP(NAME, T, and) BIT_OP(NAME, T, or) BIT_OP(NAME, T, xor)

#define ROW(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)                  \
    SYMM_IF_##EXT(PRIMS(NAME, T) EXT_OPS(NAME, T)) SYMM_IF_##AMO(STD_OPS(NAME, T))             \
    SYMM_IF_##BIT(BIT_OPS(NAME, T))
SYMM_TYPES(ROW, _)

/* Deprecated names: shells over the current ones. */
#define OLD_INT(NAME, T)                                                                         \
    SYMM_EXPORT T shmem_##NAME##_cswap(T *dest, T cond, T value, int pe)                        \
    {                                                                                           \
        return NAME##_cswap("shmem_" #NAME "_cswap", dest, cond, value, pe);                    \
    }                                                                                           \
    SYMM_EXPORT T shmem_##NAME##_fadd(T *dest, T value, int pe)                                 \
    {                                                                                           \
        return NAME##_fetch_add("shmem_" #NAME "_fadd", dest, value, pe);                       \
    }                                                                                           \
    SYMM_EXPORT T shmem_##NAME##_finc(T *dest, int pe)                                          \
    {                                                                                           \
        return NAME##_fetch_add("shmem_" #NAME "_finc", dest, 1, pe);                           \
    }                                                                                           \
    SYMM_EXPORT void shmem_##NAME##_add(T *dest, T value, int pe)                               \
    {                                                                                           \
        (void)NAME##_fetch_add("shmem_" #NAME "_add", dest, value, pe);                         \
    }                                                                                           \
    SYMM_EXPORT void shmem_##NAME##_inc(T *dest, int pe)                                        \
    {                                                                                           \
        (void)NAME##_fetch_add("shmem_" #NAME "_inc", dest, 1, pe);                             \
    }
#define OLD_ANY(NAME, T)                                                                         \
    SYMM_EXPORT T shmem_##NAME##_swap(T *dest, T value, int pe)                                 \
    {                                                                                           \
        return NAME##_swap("shmem_" #NAME "_swap", dest, value, pe);                            \
    }                                                                                           \
    SYMM_EXPORT T shmem_##NAME##_fetch(const T *source, int pe)                                 \
    {                                                                                           \
        return NAME##_fetch("shmem_" #NAME "_fetch", source, pe);                               \
    }                                                                                           \
    SYMM_EXPORT void shmem_##NAME##_set(T *dest, T value, int pe)                               \
    {                                                                                           \
        NAME##_set("shmem_" #NAME "_set", dest, value, pe);                                     \
    }
OLD_INT(int, int)
OLD_INT(long, long)
OLD_INT(longlong, long long)
OLD_ANY(int, int)
OLD_ANY(long, long)
OLD_ANY(longlong, long long)
OLD_ANY(float, float)
OLD_ANY(double, double)

SYMM_EXPORT long shmem_swap(long *dest, long value, int pe)
{
    return long_swap("shmem_swap", dest, value, pe);
}
