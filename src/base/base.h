/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * src/base: what every folder of src/ may include, and which includes nothing of symm but
 * itself: the internal status codes (status.h), the logger's line format (logfmt.h) and, here, the
 * compiler helpers (branch hints, forced inlining, visibility, the cache line, the CPU's pause
 * and the full fence).
 */
#ifndef SYMM_BASE_H
#define SYMM_BASE_H

#include <stdatomic.h>
#include <stddef.h>

#define SYMM_LIKELY(x) __builtin_expect(!!(x), 1)
#define SYMM_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define SYMM_CACHELINE 64
/* For the few helpers on every RMA and AMO path. */
#define SYMM_INLINE static inline __attribute__((always_inline))
#define SYMM_EXPORT __attribute__((visibility("default")))

static inline void symm_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

SYMM_INLINE size_t symm_round_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

/* A full fence. On x86-64 a locked no-op below the stack pointer: the compiler's own choice,
 * `lock or` on the top of the stack, stalls on the return address a call has just stored
 * there (16 ns against 11.5 ns measured). The red zone is not in use at a call boundary. */
SYMM_INLINE void symm_full_fence(void)
{
#if defined(__x86_64__)
    __asm__ __volatile__("lock orq $0, -64(%%rsp)" ::: "memory", "cc");
#else
    atomic_thread_fence(memory_order_seq_cst);
#endif
}

#endif
