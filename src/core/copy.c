/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Copies too large for the cache. Streaming (non-temporal) stores write whole lines without
 * reading them first: a copy that does not fit the cache moves a third less memory traffic
 * than memcpy's ordinary stores. On Intel they write four consecutive 4 KiB pieces a line of
 * each at a time, so four memory pages are open at once instead of one (a 2-CPU Xeon VM copying
 * 64 MiB: 9.3-10.6 GB/s a line after the other, 13.2-14.1 GB/s four pieces at a time; memcpy
 * 6.8-7.3); on AMD one line after the other, which is faster there (a 2-CPU EPYC VM, Zen 5,
 * copying 16 to 64 MiB: 18.6-31.7 GB/s a line after the other, 12.6-25.4 four pieces at a
 * time; memcpy 14.0-26.9). The destination is written from a line boundary on, whole lines
 * each.
 *
 * Which copies fit: those that move (read plus write) at most this PE's share of the cache, the
 * last-level cache divided among the node's PEs, at least a core's L2; of a last level above
 * 64 MiB only a quarter counts. The whole of a last level of that EPYC VM's size (32 MiB, its
 * core complex's): memcpy runs at 49-56 GB/s up to copies of 8 MiB, streaming at 36, and
 * streaming leads from 12 MiB (35 against 32); with 2 PEs the share is 16 MiB moved, a switch
 * above 8 MiB. A quarter of a larger one, because a virtual machine reports its host's
 * last-level cache, which other tenants share: the Xeon VM reports 480 MiB of L3, and memcpy
 * stays ahead of streaming stores up to copies of 32 MiB (14.7 against 14.0 GB/s) and falls to
 * half their speed from 40 MiB; with 2 PEs the share is 60 MiB moved, a switch at 30 MiB.
 *
 * The cache sizes come from where the C library takes them on x86, the processor itself
 * (CPUID's cache leaves: 4 on Intel, 0x8000001D on AMD, whose older 0x80000006 serves where
 * that one is missing), so a kernel that lists no caches in sysfs changes nothing; else from
 * the C library (sysconf), else from sysfs (other processors). SYMM_CACHE_INFO picks one source,
 * gives the last-level size itself, or says none. With no size known, copies of up to
 * UNKNOWN_SWEPT alternate direction (below), those up to UNKNOWN_STREAM are the C library's
 * memcpy, only larger ones stream, and the collectives never do.
 *
 * Copies that fit the L2 but nearly fill it (source and destination together), repeated on the
 * same buffers, find each line evicted just before it is needed when they always run in the
 * same order: the cache replaces the least recently used lines. Such copies alternate direction
 * instead (every other one runs backwards, in 16 KiB pieces that keep the prefetchers' forward
 * streams), so each starts on the lines the one before ended on: a 1 MiB memcpy repeated runs
 * at 29 GB/s on the Xeon VM, alternating at 37 GB/s.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#include "core/core.h"

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

/* Lines one after the other, in 32-byte halves (d 64-byte aligned). */
__attribute__((target("avx2"))) static void stream_lines_avx2(char *d, const char *s, size_t n)
{
    for (; n >= 64; n -= 64, d += 64, s += 64) {
        __m256i a = _mm256_loadu_si256((const __m256i *)s);
        __m256i b = _mm256_loadu_si256((const __m256i *)(s + 32));

        _mm256_stream_si256((__m256i *)d, a);
        _mm256_stream_si256((__m256i *)(d + 32), b);
    }
}
#endif

/* ---- cache sizes ---------------------------------------------------------------------------
 * A core's L2 and the last level (the largest level found), bytes; 0 where not found. */
typedef struct {
    size_t l2, llc;
} cache_sizes_t;

static void cache_level(cache_sizes_t *c, unsigned level, size_t bytes)
{
    if (level == 2)
        c->l2 = bytes;
    if (level >= 2 && bytes > c->llc)
        c->llc = bytes;
}

enum { VENDOR_OTHER, VENDOR_INTEL, VENDOR_AMD };

/* The processor's vendor, and CPUID's highest standard leaf. */
static int cpu_vendor(unsigned *max)
{
#if defined(__x86_64__)
    unsigned b, cx, d;

    if (!__get_cpuid(0, max, &b, &cx, &d))
        return VENDOR_OTHER;
    /* The vendor string is ebx, edx, ecx. */
    if (b == 0x756e6547 && d == 0x49656e69 && cx == 0x6c65746e) /* GenuineIntel */
        return VENDOR_INTEL;
    if ((b == 0x68747541 && d == 0x69746e65 && cx == 0x444d4163) || /* AuthenticAMD */
        (b == 0x6f677948 && d == 0x6e65476e && cx == 0x656e6975))   /* HygonGenuine */
        return VENDOR_AMD;
#endif
    *max = 0;
    return VENDOR_OTHER;
}

static void from_cpuid(cache_sizes_t *c)
{
#if defined(__x86_64__)
    unsigned a, b, cx, d, max, ext, leaf = 0;
    int vendor = cpu_vendor(&max), intel = vendor == VENDOR_INTEL, amd = vendor == VENDOR_AMD;

    if (vendor == VENDOR_OTHER)
        return;
    __cpuid(0x80000000, ext, b, cx, d);
    if (intel && max >= 4)
        leaf = 4;
    else if (amd && ext >= 0x8000001d && __get_cpuid(0x80000001, &a, &b, &cx, &d) &&
             (cx & (1u << 22))) /* TOPOEXT: the cache leaf exists */
        leaf = 0x8000001d;
    /* The deterministic cache leaves: one subleaf per cache, type 0 after the last. */
    for (unsigned i = 0; leaf && i < 16; i++) {
        __cpuid_count(leaf, i, a, b, cx, d);
        if ((a & 31) == 0)
            break;
        if ((a & 31) == 2) /* instructions */
            continue;
        cache_level(c, (a >> 5) & 7,
                    (size_t)((b >> 22) + 1) * (((b >> 12) & 0x3ff) + 1) * ((b & 0xfff) + 1) *
                        ((size_t)cx + 1));
    }
    if (amd && !c->l2 && !c->llc && ext >= 0x80000006) {
        __cpuid(0x80000006, a, b, cx, d);
        cache_level(c, 2, (size_t)(cx >> 16) << 10);
        cache_level(c, 3, (size_t)(d >> 18) << 19);
    }
#else
    (void)c;
#endif
}

static void from_libc(cache_sizes_t *c)
{
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE), l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);

    cache_level(c, 2, l2 > 0 ? (size_t)l2 : 0);
    cache_level(c, 3, l3 > 0 ? (size_t)l3 : 0);
}

/* /sys/devices/system/cpu/cpu0/cache/indexN/{level,type,size}, sizes as "1024K". */
static void from_sysfs(cache_sizes_t *c)
{
    for (int i = 0; i < 16; i++) {
        char path[80], type[32] = "", unit = 0;
        unsigned level = 0;
        unsigned long size = 0;
        FILE *f;
        int got;

        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if (!(f = fopen(path, "r")))
            break;
        got = fscanf(f, "%u", &level);
        fclose(f);
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (got != 1 || !(f = fopen(path, "r")))
            continue;
        got = fscanf(f, "%31s", type);
        fclose(f);
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (got != 1 || !strcmp(type, "Instruction") || !(f = fopen(path, "r")))
            continue;
        got = fscanf(f, "%lu%c", &size, &unit);
        fclose(f);
        if (got >= 1)
            cache_level(c, level, (size_t)size << (unit == 'K' ? 10 : unit == 'M' ? 20 : 0));
    }
}

static const char *const cache_sources[] = {"auto", "cpuid", "libc", "sysfs", "none"};
static void (*const cache_from[])(cache_sizes_t *) = {NULL, from_cpuid, from_libc, from_sysfs,
                                                      NULL};
static cache_sizes_t cache_found;
static size_t share;
/* How streaming copies write: four pieces at a time, or a line after the other (AMD), in
 * 32-byte stores where the processor has AVX2 (64 MiB on the EPYC VM: 24.3-24.7 GB/s, 16-byte
 * stores 22.5-23.2). */
enum { STREAM_PIECES, STREAM_LINES, STREAM_LINES_AVX2 };
static int stream_way;

/* Copies that alternate direction: those of up to twice the L2 (on the EPYC VM, of a 1 MiB
 * L2: 1 MiB 7% faster than memcpy, 2 MiB even, 4 MiB 3-5% slower), of up to UNKNOWN_SWEPT
 * where the L2 is not known; larger ones that fit are memcpy. */
#define UNKNOWN_SWEPT ((size_t)2 << 20)
static size_t sweep_max = UNKNOWN_SWEPT;
/* Where no cache size is known, copies larger than this stream: no machine measured keeps one
 * in its cache (the Xeon VM: memcpy 14.7 GB/s against 14.0 at 32 MiB, half from 40 MiB). */
#define UNKNOWN_STREAM ((size_t)32 << 20)
/* A last level larger than this counts a quarter. */
#define LLC_WHOLE ((size_t)64 << 20)

symm_status_t symm_copy_setup(const char *info, int pes, char *why, size_t why_len)
{
    cache_sizes_t c = {0, 0};
    size_t k, n = sizeof(cache_sources) / sizeof(cache_sources[0]), s;

    if (!info || !*info)
        info = "auto";
    for (k = 0; k < n && strcmp(info, cache_sources[k]); k++)
        ;
    if (k == 0) {
        from_cpuid(&c);
        if (!c.l2 && !c.llc)
            from_libc(&c);
        if (!c.l2 && !c.llc)
            from_sysfs(&c);
    } else if (k < n && cache_from[k]) {
        cache_from[k](&c);
    } else if (k == n) {
        if (symm_parse_size(info, &c.llc) != SYMM_OK || !c.llc) {
            snprintf(why, why_len,
                     "SYMM_CACHE_INFO='%s' is not auto, cpuid, libc, sysfs, none or a size "
                     "(the last-level cache, e.g. 32M)", info);
            return SYMM_ERR_INVALID;
        }
    }
    s = (c.llc > LLC_WHOLE ? c.llc / 4 : c.llc) / (size_t)(pes > 0 ? pes : 1);
    stream_way = STREAM_PIECES;
#if defined(__x86_64__)
    if (cpu_vendor(&(unsigned){0}) == VENDOR_AMD)
        stream_way = __builtin_cpu_supports("avx2") ? STREAM_LINES_AVX2 : STREAM_LINES;
#endif
    sweep_max = c.l2 ? 2 * c.l2 : UNKNOWN_SWEPT;
    cache_found = c;
    share = c.l2 > s ? c.l2 : s;
    if (!share)
        share = SYMM_CACHE_UNKNOWN;
    return SYMM_OK;
}

void symm_cache_sizes(size_t *l2, size_t *llc)
{
    symm_cache_share();
    *l2 = cache_found.l2;
    *llc = cache_found.llc;
}

/* Set up at start (symm_copy_setup); found here for copies made before (unit tests). */
size_t symm_cache_share(void)
{
    char why[160];

    if (!share && symm_copy_setup(symm_g.params.cache_info, symm_g.win_n, why, sizeof(why)))
        symm_copy_setup("auto", symm_g.win_n, why, sizeof(why));
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
    if (stream_way == STREAM_LINES_AVX2) {
        stream_lines_avx2(d, s, n);
        d += n & ~(size_t)63;
        s += n & ~(size_t)63;
        n &= 63;
    }
    for (; stream_way == STREAM_PIECES && n >= STREAM_GROUP;
         n -= STREAM_GROUP, d += STREAM_GROUP, s += STREAM_GROUP)
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
    size_t fits = symm_cache_share();

    if (fits != SYMM_CACHE_UNKNOWN ? 2 * n > fits : n > UNKNOWN_STREAM)
        symm_copy_stream(dest, src, n);
    else
        symm_copy_swept(dest, src, n, n <= sweep_max && (sweeps++ & 1));
}
