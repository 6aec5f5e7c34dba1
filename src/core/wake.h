/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Waking sleepers (wake.c): a writer wakes a PE that sleeps waiting on what it wrote.
 */
#ifndef SYMM_CORE_WAKE_H
#define SYMM_CORE_WAKE_H

#include <stddef.h>
#include <stdint.h>
#include "core/state.h"

/* Where a pointer into this process's windows points: (PE, symmetric offset); offsets in the
 * data segment carry SYMM_DATA_OFF. pe -1 when it is in neither. */
#define SYMM_DATA_OFF (1ULL << 62)
void symm_locate(const void *p, int *pe, uint64_t *off);
void symm_wake_slow(int pe, const void *p, size_t len);

/* After writing len bytes at p (a window address of object owner `owner`'s memory), wakes PE
 * pe if it sleeps waiting on them. The sleeper publishes its sleep before re-checking its
 * condition; this check follows the write; both sequentially consistent, so no wake-up is
 * lost. */
SYMM_INLINE void symm_wake(int pe, const void *p, size_t len)
{
    symm_internal_t *in = symm_internal(pe);

    if (SYMM_UNLIKELY(atomic_load_explicit(&in->sleepers.v, memory_order_seq_cst) != 0))
        symm_wake_slow(pe, p, len);
}
/* Relaxed form for plain puts: no fence between the data and the check, so a sleeper may miss
 * it and wake at the end of its bounded sleep instead. */
SYMM_INLINE void symm_wake_hint(int pe, const void *p, size_t len)
{
    symm_internal_t *in = symm_internal(pe);

    if (SYMM_UNLIKELY(atomic_load_explicit(&in->sleepers.v, memory_order_relaxed) != 0))
        symm_wake_slow(pe, p, len);
}
void symm_futex_wake(void *word);

#endif
