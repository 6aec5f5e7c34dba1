/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Copies too large for the cache. Streaming (non-temporal) stores write whole lines without
 * reading them first: a copy that does not fit the cache moves a third less memory traffic
 * than memcpy's ordinary stores. They write four consecutive 4 KiB pieces a line of each at a
 * time, so four memory pages are open at once instead of one (a 2-CPU Xeon VM copying 64 MiB:
 * 9.3-10.6 GB/s a line after the other, 13.2-14.1 GB/s four pieces at a time; memcpy 6.8-7.3).
 * The destination is written from a line boundary on, whole lines each.
 *
 * Which copies fit: those that move (read plus write) at most this PE's share of the cache, a
 * quarter of the last-level cache divided among the node's PEs, at least a core's L2. The
 * quarter because a virtual machine reports its host's last-level cache, which other tenants
 * share: that VM reports 480 MiB of L3, and memcpy stays ahead of streaming stores up to
 * copies of 32 MiB (14.7 against 14.0 GB/s) and falls to half their speed from 40 MiB; with 2
 * PEs the share is 60 MiB moved, a switch at 30 MiB.
 *
 * Copies that fit the L2 but nearly fill it (source and destination together), repeated on the
 * same buffers, find each line evicted just before it is needed when they always run in the
 * same order: the cache replaces the least recently used lines. Such copies alternate direction
 * instead (every other one runs backwards, in 16 KiB pieces that keep the prefetchers' forward
 * streams), so each starts on the lines the one before ended on: a 1 MiB memcpy repeated runs
 * at 29 GB/s on that VM, alternating at 37 GB/s.
 */
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "core/state.h"

#if defined(__x86_64__)
/* The pieces of a group written a line of each at a time. */
#define STREAM_PIECE 4096u
#define STREAM_GROUP (4 * STREAM_PIECE)

static inline void stream_line(char *d, const char *s)
{
    __m128i a = _mm_loadu_si128((const __m128i *)s);
    __m128i b = _mm_loadu_si128((const __m128i *)(s + 16));
    __m128i e = _mm_loadu_si128((const __m128i *)(s + 32));
    __m128i f = _mm_loadu_si128((const __m128i *)(s + 48));

    _mm_stream_si128((__m128i *)d, a);
    _mm_stream_si128((__m128i *)(d + 16), b);
    _mm_stream_si128((__m128i *)(d + 32), e);
    _mm_stream_si128((__m128i *)(d + 48), f);
}
#endif

size_t symm_cache_share(void)
{
    static size_t share;

    if (!share) {
        long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE), l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
        size_t pes = symm_g.win_n > 0 ? (size_t)symm_g.win_n : 1;
        size_t s = l3 > 0 ? (size_t)l3 / 4 / pes : 0;
        share = l2 > 0 ? (size_t)l2 : (size_t)1 << 20;
        if (s > share)
            share = s;
    }
    return share;
}

void symm_copy_stream_nofence(void *dest, const void *src, size_t n)
{
#if defined(__x86_64__)
    char *d = dest;
    const char *s = src;
    size_t head = (size_t)-(uintptr_t)d & 63;

    if (n < 4096) {
        memcpy(dest, src, n);
        return;
    }
    memcpy(d, s, head);
    d += head;
    s += head;
    n -= head;
    for (; n >= STREAM_GROUP; n -= STREAM_GROUP, d += STREAM_GROUP, s += STREAM_GROUP)
        for (size_t off = 0; off < STREAM_PIECE; off += 64)
            for (size_t p = off; p < STREAM_GROUP; p += STREAM_PIECE)
                stream_line(d + p, s + p);
    for (; n >= 64; n -= 64, d += 64, s += 64)
        stream_line(d, s);
    memcpy(d, s, n);
#else
    memcpy(dest, src, n);
#endif
}

/* Streaming stores are weakly ordered: visible before anything stored after. */
void symm_copy_stream_fence(void)
{
#if defined(__x86_64__)
    _mm_sfence();
#endif
}

void symm_copy_stream(void *dest, const void *src, size_t n)
{
    symm_copy_stream_nofence(dest, src, n);
    symm_copy_stream_fence();
}

#define SWEEP_PIECE (16u << 10)

void symm_copy_swept(void *dest, const void *src, size_t n, int back)
{
    size_t off = n, len;

    if (!back) {
        memcpy(dest, src, n);
        return;
    }
    len = n % SWEEP_PIECE ? n % SWEEP_PIECE : SWEEP_PIECE;
    while (off) {
        if (len > off)
            len = off;
        off -= len;
        memcpy((char *)dest + off, (const char *)src + off, len);
        len = SWEEP_PIECE;
    }
}

/* Each thread alternates its own copies. */
static _Thread_local unsigned sweeps;

void symm_copy_large(void *dest, const void *src, size_t n)
{
    if (2 * n > symm_cache_share())
        symm_copy_stream(dest, src, n);
    else
        symm_copy_swept(dest, src, n, (int)(sweeps++ & 1));
}
