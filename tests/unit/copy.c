/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The large copies (src/core/copy.c): the streaming copy, which writes groups of four 4 KiB
 * pieces a line of each at a time, the swept copy in both directions and the copy that picks
 * between them, each at lengths around their boundaries (a line, a piece, a group, several
 * groups, with a tail of every kind) and at source and destination offsets that are not
 * aligned alike. Checked: every byte of the destination is the source's, and the bytes just
 * before and after it are untouched. And the cache sizes: the share is at least a core's L2;
 * CPUID finds the caches the C library reports (on x86 both read the processor); a size given
 * sets the share; with no size known (SYMM_CACHE_INFO=none) the large copy still copies every
 * byte; a value that is none of these is refused with the setting named.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#define TEST_WITHOUT_SHMEM
#include "../harness.h"

#define GUARD 64
#define MAX_LEN ((size_t)5 * 16384 + 4096 + 1000)

static unsigned char *src, *dst;

enum { STREAM, STREAM_NOFENCE, SWEPT_FORWARD, SWEPT_BACK, LARGE, WAYS };
static const char *const way_name[WAYS] = {"symm_copy_stream", "symm_copy_stream_nofence",
                                           "symm_copy_swept forward", "symm_copy_swept back",
                                           "symm_copy_large"};

static void copy_by(int way, void *d, const void *s, size_t n)
{
    switch (way) {
    case STREAM:
        symm_copy_stream(d, s, n);
        break;
    case STREAM_NOFENCE:
        symm_copy_stream_nofence(d, s, n);
        symm_copy_stream_fence();
        break;
    case SWEPT_FORWARD:
    case SWEPT_BACK:
        symm_copy_swept(d, s, n, way == SWEPT_BACK);
        break;
    default:
        symm_copy_large(d, s, n);
    }
}

/* One copy of n bytes from src + so to dst + GUARD + doff, checked byte by byte. */
static void check_copy(int way, size_t n, size_t so, size_t doff, unsigned seed)
{
    unsigned char *d = dst + GUARD + doff;
    size_t bad = SIZE_MAX;

    for (size_t i = 0; i < MAX_LEN + 64; i++)
        src[i] = (unsigned char)(i * 131u + seed);
    memset(dst, 0xa5, MAX_LEN + 64 + 2 * GUARD);
    copy_by(way, d, src + so, n);
    for (size_t i = 0; i < n && bad == SIZE_MAX; i++)
        if (d[i] != src[so + i])
            bad = i;
    EXPECT(bad == SIZE_MAX, "%s: %zu bytes (source +%zu, dest +%zu): byte %zu is %#x, not %#x",
           way_name[way], n, so, doff, bad, bad == SIZE_MAX ? 0 : d[bad],
           bad == SIZE_MAX ? 0 : src[so + bad]);
    for (size_t i = 0; i < GUARD + doff; i++)
        if (dst[i] != 0xa5) {
            EXPECT(0, "%s: %zu bytes (dest +%zu): byte %zu before dest written", way_name[way], n,
                   doff, GUARD + doff - i);
            break;
        }
    for (size_t i = 0; i < GUARD; i++)
        if (d[n + i] != 0xa5) {
            EXPECT(0, "%s: %zu bytes (dest +%zu): byte %zu after dest written", way_name[way], n,
                   doff, i);
            break;
        }
}

/* The sources of SYMM_CACHE_INFO. */
static void check_sources(unsigned seed)
{
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE), l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    size_t c2, cl;
    char why[160] = "";

#if defined(__x86_64__) && defined(__GLIBC__)
    REQUIRE(symm_copy_setup("cpuid", 2, why, sizeof(why)) == SYMM_OK, "cpuid: %s", why);
    symm_cache_sizes(&c2, &cl);
    EXPECT((l2 > 0) == (c2 > 0), "CPUID finds an L2 of %zu bytes, the C library %ld", c2, l2);
    EXPECT((l3 > 0) <= (cl > 0), "CPUID finds a last level of %zu bytes, the C library an L3 "
           "of %ld", cl, l3);
#endif
    /* The streaming copy as the processor found makes it (a line after the other on AMD). */
    for (size_t n = 0; n <= MAX_LEN; n += 16384 + 17)
        check_copy(STREAM, n, 3, 5, seed++);
    REQUIRE(symm_copy_setup("32M", 2, why, sizeof(why)) == SYMM_OK, "32M: %s", why);
    symm_cache_sizes(&c2, &cl);
    EXPECT(cl == (32u << 20) && symm_cache_share() == (16u << 20),
           "SYMM_CACHE_INFO=32M at 2 PEs: last level %zu, share %zu bytes (want 32 and 16 MiB)",
           cl, symm_cache_share());
    REQUIRE(symm_copy_setup("480M", 2, why, sizeof(why)) == SYMM_OK, "480M: %s", why);
    EXPECT(symm_cache_share() == (60u << 20),
           "SYMM_CACHE_INFO=480M at 2 PEs: share %zu bytes (want a quarter of it halved, 60 MiB)",
           symm_cache_share());
    REQUIRE(symm_copy_setup("none", 2, why, sizeof(why)) == SYMM_OK, "none: %s", why);
    symm_cache_sizes(&c2, &cl);
    EXPECT(c2 == 0 && cl == 0 && symm_cache_share() == SYMM_CACHE_UNKNOWN,
           "SYMM_CACHE_INFO=none: L2 %zu, last level %zu, share %zu bytes", c2, cl,
           symm_cache_share());
    for (size_t n = 0; n <= MAX_LEN; n += 16384 + 17)
        check_copy(LARGE, n, 3, 5, seed++);
    EXPECT(symm_copy_setup("big", 2, why, sizeof(why)) == SYMM_ERR_INVALID &&
               strstr(why, "SYMM_CACHE_INFO='big' is not auto, cpuid, libc, sysfs, none or a size"),
           "SYMM_CACHE_INFO=big: not refused as it should be ('%s')", why);
    EXPECT(symm_copy_setup("sysfs", 2, why, sizeof(why)) == SYMM_OK &&
               symm_copy_setup("libc", 2, why, sizeof(why)) == SYMM_OK &&
               symm_copy_setup("auto", 1, why, sizeof(why)) == SYMM_OK,
           "sysfs, libc or auto refused: %s", why);
}

int main(void)
{
    const size_t lens[] = {0,         1,          63,        64,    65,
                           4095,      4096,       4097,      16383, 16384,
                           16385,     16384 + 64, 32768 - 1, 32768, 49152 + 4096 + 17,
                           5 * 16384, MAX_LEN};
    const size_t offs[][2] = {{0, 0}, {0, 3}, {5, 0}, {7, 9}, {16, 48}};
    unsigned seed = 1;
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);

    src = aligned_alloc(4096, MAX_LEN + 4096);
    dst = aligned_alloc(4096, MAX_LEN + 4096 + 2 * GUARD);
    REQUIRE(src && dst, "allocating %zu bytes twice", MAX_LEN);
    for (int way = 0; way < WAYS; way++)
        for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
            for (size_t o = 0; o < sizeof(offs) / sizeof(offs[0]); o++)
                check_copy(way, lens[l], offs[o][0], offs[o][1], seed++);
    EXPECT(symm_cache_share() >= (l2 > 0 ? (size_t)l2 : 0),
           "symm_cache_share() is %zu bytes, less than the L2 (%ld)", symm_cache_share(), l2);
    check_sources(seed);
    free(src);
    free(dst);
    return test_finish("unit_copy");
}
