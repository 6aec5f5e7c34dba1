/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Waking a PE that sleeps in a wait: a writer of this node rings the sleeper's doorbell, a
 * futex word in the internal part of the sleeper's heap, when the sleeper published that it
 * sleeps and what it watches (the protocol is sync/wait.c's). This is the writers' half, which
 * every layer that writes to a peer uses.
 */
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/core.h"

void symm_locate(const void *p, int *pe, uint64_t *off)
{
    uintptr_t d = (uintptr_t)p - (uintptr_t)symm_g.heap_win;

    *pe = -1;
    *off = 0;
    if (d < (uintptr_t)symm_g.n_pes * symm_g.stride) {
        *pe = (int)(d / symm_g.stride);
        *off = d % symm_g.stride;
        return;
    }
    d = (uintptr_t)p - (uintptr_t)symm_g.data_lo;
    if (d < symm_g.data_len) {
        *pe = symm_g.my_pe;
        *off = d | SYMM_DATA_OFF;
        return;
    }
    d = (uintptr_t)p - (uintptr_t)symm_g.data_win;
    if (symm_g.data_win && d < (uintptr_t)symm_g.n_pes * symm_g.data_stride) {
        *pe = (int)(d / symm_g.data_stride);
        *off = (d % symm_g.data_stride) | SYMM_DATA_OFF;
    }
}

void symm_wake_slow(int pe, const void *p, size_t len)
{
    symm_internal_t *in = symm_internal(pe);
    int wpe = atomic_load_explicit(&in->watch.pe, memory_order_seq_cst), owner;
    uint64_t off;

    if (wpe >= 0) {
        symm_locate(p, &owner, &off);
        if (owner >= 0 && (owner != wpe || off + len <= atomic_load(&in->watch.lo) ||
                           off >= atomic_load(&in->watch.hi)))
            return;
    }
    if (atomic_load_explicit(&in->watch.rung, memory_order_seq_cst) ||
        atomic_exchange_explicit(&in->watch.rung, 1, memory_order_seq_cst))
        return;
    atomic_fetch_add_explicit(&in->doorbell.v, 1, memory_order_seq_cst);
    symm_futex_wake(&in->doorbell.v);
}

void symm_futex_wake(void *word)
{
    syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}
