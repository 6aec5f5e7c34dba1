/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The symmetric heap through the public API: size 0 gives NULL everywhere; every allocation
 * lands at the same offset on every PE and is usable by peers over its whole length; calloc
 * zeroes; shmem_align aligns the address; realloc grows (in place and by moving) and shrinks
 * keeping the contents, and a failed realloc keeps the block; freed space is reused; a
 * request the heap cannot hold gives NULL on every PE and the job goes on; the hinted and the
 * deprecated names work; and a long random sequence of allocations and frees stays symmetric
 * and leaves the heap as it found it. With --small the job runs on a 16 MiB heap
 * (SHMEM_SYMMETRIC_SIZE=16M) and also fills it to the brim. With --big-align it checks only
 * shmem_align with alignments from 64 bytes to 16 MiB.
 */
#include <stdint.h>
#include <string.h>

#include "../harness.h"

static int me, npes, right, left, small, big_align;
static char *base0; /* the first allocation; offsets are taken from it */
static long agree_slot;

/* Collective: checks that v is the same on every PE. */
static void expect_same(const char *what, long v)
{
    agree_slot = v;
    shmem_barrier_all();
    for (int pe = 0; pe < npes; pe++) {
        long o = shmem_long_g(&agree_slot, pe);
        EXPECT(o == v, "%s: pe %d has %ld, pe %d has %ld", what, me, v, pe, o);
    }
    shmem_barrier_all();
}

static long off_of(const void *p)
{
    return p ? (long)((const char *)p - base0) : -1;
}

/* Collective: a peer writes the first and last byte of the block; both arrive. */
static void expect_usable(const char *what, char *p, size_t size)
{
    char last = (char)(100 + left), first = size > 1 ? (char)(1 + left) : last;
    char mine[2] = {(char)(1 + me), (char)(100 + me)};

    if (!p)
        return;
    shmem_barrier_all();
    shmem_putmem(p, &mine[0], 1, right);
    shmem_putmem(p + size - 1, &mine[1], 1, right);
    shmem_barrier_all();
    EXPECT(p[0] == first && p[size - 1] == last,
           "%s: bytes put by pe %d at both ends of %zu bytes did not arrive (%d %d)", what, left,
           size, p[0], p[size - 1]);
    shmem_barrier_all();
}

static void test_zero(void)
{
    EXPECT(shmem_malloc(0) == NULL, "shmem_malloc(0)");
    EXPECT(shmem_calloc(0, 8) == NULL, "shmem_calloc(0, 8)");
    EXPECT(shmem_calloc(8, 0) == NULL, "shmem_calloc(8, 0)");
    EXPECT(shmem_align(64, 0) == NULL, "shmem_align(64, 0)");
    EXPECT(shmem_malloc_with_hints(0, 0) == NULL, "shmem_malloc_with_hints(0, 0)");
    EXPECT(shmem_realloc(NULL, 0) == NULL, "shmem_realloc(NULL, 0)");
    shmem_free(NULL);
}

static void test_offsets(void)
{
    static const size_t sizes[] = {1, 63, 64, 65, 1000, 4096, 100000, 3, (1 << 20) + 1, 17};
    enum { N = sizeof(sizes) / sizeof(sizes[0]) };
    char *p[N];
    char what[64];

    for (int i = 0; i < N; i++) {
        p[i] = shmem_malloc(sizes[i]);
        EXPECT(p[i] != NULL, "shmem_malloc(%zu)", sizes[i]);
        EXPECT((uintptr_t)p[i] % 16 == 0, "shmem_malloc(%zu) = %p is not aligned for any type",
               sizes[i], (void *)p[i]);
        snprintf(what, sizeof(what), "offset of block %d (%zu bytes)", i, sizes[i]);
        expect_same(what, off_of(p[i]));
        if (p[i])
            memset(p[i], 'a' + i, sizes[i]);
    }
    /* No two blocks overlap: every byte still holds its own block's mark. */
    for (int i = 0; i < N; i++)
        for (size_t b = 0; p[i] && b < sizes[i]; b++)
            if (p[i][b] != 'a' + i) {
                EXPECT(0, "block %d (%zu bytes) overwritten at byte %zu", i, sizes[i], b);
                break;
            }
    for (int i = 0; i < N; i++) {
        snprintf(what, sizeof(what), "block %d (%zu bytes)", i, sizes[i]);
        expect_usable(what, p[i], sizes[i]);
    }
    for (int i = N - 1; i >= 0; i--)
        shmem_free(p[i]);
}

static void test_calloc(void)
{
    size_t n = 1 << 17;
    char *dirty = shmem_malloc(n * 8);
    long *z;

    if (dirty)
        memset(dirty, 0xab, n * 8);
    shmem_free(dirty);
    /* Most likely the same place; zero in any case, here and at every peer. */
    z = shmem_calloc(n, 8);
    EXPECT(z != NULL, "shmem_calloc(%zu, 8)", n);
    expect_same("offset of the calloc block", off_of(z));
    if (!z)
        return;
    /* A put right after calloc returns must not be wiped by a peer's zeroing. */
    shmem_long_p(&z[7], 1000 + me, right);
    shmem_barrier_all();
    for (size_t i = 0; i < n; i++)
        if (z[i] != (i == 7 ? 1000 + left : 0)) {
            EXPECT(0, "shmem_calloc block: element %zu is %ld", i, z[i]);
            break;
        }
    long far = shmem_long_g(&z[n - 1], right);
    EXPECT(far == 0, "shmem_calloc block on pe %d: last element %ld", right, far);
    shmem_barrier_all();
    shmem_free(z);
}

static void test_align(size_t max)
{
    char what[96];

    for (size_t al = 64; al <= max; al <<= 1) {
        char *filler = shmem_malloc(64 + al / 3); /* the heap is not at an aligned spot */
        char *p = shmem_align(al, 100);
        EXPECT(p != NULL, "shmem_align(%zu, 100)", al);
        EXPECT(((uintptr_t)p & (al - 1)) == 0,
               "shmem_align(%zu, 100) = %p is not aligned to %zu (%zu bytes off)", al, (void *)p,
               al, (size_t)((uintptr_t)p & (al - 1)));
        snprintf(what, sizeof(what), "offset of shmem_align(%zu, 100)", al);
        expect_same(what, off_of(p));
        expect_usable(what, p, 100);
        shmem_free(p);
        shmem_free(filler);
    }
    char *q = shmem_align(4096, 3 * 4096);
    EXPECT(q && ((uintptr_t)q & 4095) == 0, "shmem_align(4096, 12288) = %p", (void *)q);
    expect_usable("shmem_align(4096, 12288)", q, 3 * 4096);
    shmem_free(q);
}

static void fill(char *p, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (char)(i * 31 + seed * 7 + 1);
}

static size_t first_diff(const char *p, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != (char)(i * 31 + seed * 7 + 1))
            return i;
    return n;
}

static void test_realloc(void)
{
    char *p = shmem_malloc(1000), *block = shmem_malloc(64), *r, *big;
    size_t d;

    if (!p || !block) {
        EXPECT(0, "shmem_malloc for the realloc test");
        return;
    }
    /* Moves: the neighbour blocks growth in place. */
    fill(p, 1000, me);
    r = shmem_realloc(p, 100000);
    EXPECT(r != NULL, "shmem_realloc(p, 100000)");
    expect_same("offset after a moving realloc", off_of(r));
    if (r) {
        EXPECT((d = first_diff(r, 1000, me)) == 1000, "moving realloc lost byte %zu", d);
        expect_usable("moved block", r, 100000);
        p = r;
    }
    /* Grows in place or not: the contents stay. */
    fill(p, 100000, me + 1);
    r = shmem_realloc(p, 300000);
    EXPECT(r != NULL, "shmem_realloc(p, 300000)");
    expect_same("offset after a growing realloc", off_of(r));
    if (r) {
        EXPECT((d = first_diff(r, 100000, me + 1)) == 100000, "growing realloc lost byte %zu", d);
        expect_usable("grown block", r, 300000);
        p = r;
    }
    /* Shrinks. */
    fill(p, 300000, me + 2);
    r = shmem_realloc(p, 10);
    EXPECT(r != NULL, "shmem_realloc(p, 10)");
    expect_same("offset after a shrinking realloc", off_of(r));
    if (r) {
        EXPECT((d = first_diff(r, 10, me + 2)) == 10, "shrinking realloc lost byte %zu", d);
        expect_usable("shrunk block", r, 10);
        p = r;
    }
    /* Too large: NULL everywhere, the block stays as it was. */
    fill(p, 10, me + 3);
    big = shmem_realloc(p, (size_t)1 << 40);
    EXPECT(big == NULL, "shmem_realloc(p, 1 TiB) = %p", (void *)big);
    expect_same("too large a realloc", off_of(big));
    if (!big) {
        EXPECT((d = first_diff(p, 10, me + 3)) == 10, "failed realloc changed byte %zu", d);
        expect_usable("block kept by a failed realloc", p, 10);
    }
    /* NULL and 0. */
    r = shmem_realloc(NULL, 128);
    EXPECT(r != NULL, "shmem_realloc(NULL, 128)");
    expect_same("offset of realloc(NULL, 128)", off_of(r));
    expect_usable("realloc(NULL, 128)", r, 128);
    EXPECT(shmem_realloc(r, 0) == NULL, "shmem_realloc(r, 0)");
    shmem_free(block);
    shmem_free(big ? big : p);
}

static void test_reuse(void)
{
    char *x = shmem_malloc(5000), *y;

    shmem_free(x);
    y = shmem_malloc(5000);
    EXPECT(x && y == x, "a freed block's space is reused: %p then %p", (void *)x, (void *)y);
    shmem_free(y);
    /* Two neighbours freed make room for one block as large as both. */
    char *a = shmem_malloc(4096), *b = shmem_malloc(4096), *c = shmem_malloc(64), *ab;
    shmem_free(a);
    shmem_free(b);
    ab = shmem_malloc(8192);
    EXPECT(a && ab == a, "two freed neighbours merged: %p then %p", (void *)a, (void *)ab);
    expect_usable("merged block", ab, 8192);
    shmem_free(ab);
    shmem_free(c);
}

static void test_exhaustion(void)
{
    size_t huge[] = {(size_t)64 << 20, (size_t)64 << 30, SIZE_MAX, SIZE_MAX / 2 + 1};
    char what[64];

    for (size_t i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
        if (!small && huge[i] == (size_t)64 << 20)
            continue;
        void *p = shmem_malloc(huge[i]);
        snprintf(what, sizeof(what), "shmem_malloc(%zu)", huge[i]);
        EXPECT(p == NULL, "%s = %p, want NULL", what, p);
        expect_same(what, off_of(p));
    }
    EXPECT(shmem_calloc((size_t)1 << 20, (size_t)1 << 20) == NULL, "shmem_calloc(1 Mi, 1 Mi)");
    EXPECT(shmem_align(4096, (size_t)1 << 41) == NULL, "shmem_align(4096, 2 TiB)");
    /* And the job goes on. */
    char *q = shmem_malloc(256);
    EXPECT(q != NULL, "shmem_malloc(256) after failed requests");
    expect_same("offset after failed requests", off_of(q));
    expect_usable("block after failed requests", q, 256);
    shmem_free(q);
}

/* Fills a small heap with 1 MiB blocks, frees them; returns how many fit (the same on every
 * PE). */
static int fill_heap(void)
{
    char *blk[64];
    int n = 0, count;

    while (n < 64 && (blk[n] = shmem_malloc(1 << 20)) != NULL)
        n++;
    count = n;
    EXPECT(n < 64, "a 16 MiB heap held 64 blocks of 1 MiB");
    expect_same("1 MiB blocks that fit", n);
    if (n > 0)
        expect_usable("last block that fit", blk[n - 1], 1 << 20);
    while (n > 0)
        shmem_free(blk[--n]);
    return count;
}

static void test_hints(void)
{
    static const long hints[] = {0, SHMEM_MALLOC_ATOMICS_REMOTE, SHMEM_MALLOC_SIGNAL_REMOTE,
                                 SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE};
    char what[64];

    for (size_t i = 0; i < sizeof(hints) / sizeof(hints[0]); i++) {
        char *p = shmem_malloc_with_hints(4096 + i, hints[i]);
        snprintf(what, sizeof(what), "shmem_malloc_with_hints(%zu, %ld)", 4096 + i, hints[i]);
        EXPECT(p != NULL, "%s", what);
        expect_same(what, off_of(p));
        expect_usable(what, p, 4096 + i);
        shmem_free(p);
    }
}

static void test_deprecated(void)
{
    char *p = shmalloc(300), *q = shmemalign(4096, 64), *r;

    EXPECT(p && q && ((uintptr_t)q & 4095) == 0, "shmalloc %p, shmemalign %p", (void *)p,
           (void *)q);
    expect_same("offset of shmalloc", off_of(p));
    expect_same("offset of shmemalign", off_of(q));
    if (p)
        fill(p, 300, me);
    r = shrealloc(p, 3000);
    EXPECT(r && first_diff(r, 300, me) == 300, "shrealloc kept the contents");
    expect_same("offset of shrealloc", off_of(r));
    expect_usable("shrealloc", r, 3000);
    shfree(r);
    shfree(q);
}

/* Random allocations and frees, the same sequence on every PE. */
static void test_cycles(void)
{
    enum { LIVE = 24, STEPS = 300 };
    char *blk[LIVE] = {0};
    size_t len[LIVE] = {0};
    uint64_t rng = 12345, hash = 1469598103934665603ull;
    int broken = 0;

    for (int step = 0; step < STEPS; step++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        unsigned r = (unsigned)(rng >> 33);
        int k = (int)(r % LIVE);
        if (blk[k]) {
            shmem_free(blk[k]);
            blk[k] = NULL;
        } else {
            len[k] = 8 + (r >> 8) % (small ? 60000 : 200000);
            blk[k] = (r >> 4) % 5 == 0 ? shmem_align((size_t)256 << ((r >> 12) % 6), len[k])
                                       : shmem_malloc(len[k]);
            EXPECT(blk[k] != NULL, "step %d: allocation of %zu failed", step, len[k]);
            if (!blk[k])
                continue;
            hash = (hash ^ (uint64_t)off_of(blk[k])) * 1099511628211ull;
            /* Tags at both ends; every live block must keep its own. */
            blk[k][0] = (char)k;
            blk[k][len[k] - 1] = (char)~k;
        }
        for (int j = 0; j < LIVE && !broken; j++)
            if (blk[j] && (blk[j][0] != (char)j || blk[j][len[j] - 1] != (char)~j)) {
                EXPECT(0, "step %d: block %d (%zu bytes) overwritten", step, j, len[j]);
                broken = 1;
            }
    }
    expect_same("hash of the offsets of the random sequence", (long)(hash >> 1));
    for (int k = 0; k < LIVE; k++)
        if (blk[k]) {
            expect_usable("block of the random sequence", blk[k], len[k]);
            shmem_free(blk[k]);
        }
}

int main(int argc, char **argv)
{
    int before = 0;

    for (int i = 1; i < argc; i++) {
        small |= !strcmp(argv[i], "--small");
        big_align |= !strcmp(argv[i], "--big-align");
    }
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;

    test_zero();
    base0 = shmem_malloc(64);
    EXPECT(base0 != NULL, "first shmem_malloc(64)");
    if (!base0)
        return test_finish("heap");
    if (big_align) {
        /* Alignments above the 2 MiB the heap window itself is aligned to. */
        test_align((size_t)16 << 20);
        shmem_free(base0);
        return test_finish("heap (large alignments)");
    }
    if (small)
        before = fill_heap();
    test_offsets();
    test_calloc();
    test_align((size_t)2 << 20);
    test_realloc();
    test_reuse();
    test_exhaustion();
    test_hints();
    test_deprecated();
    test_cycles();
    /* Everything was freed: a block allocated now lands right after the first one again, and
     * a full heap holds as much as before. */
    char *again = shmem_malloc(64);
    EXPECT(again == base0 + 64, "after freeing everything, a new block is at offset %ld, not 64",
           off_of(again));
    shmem_free(again);
    if (small)
        EXPECT(fill_heap() == before, "the heap holds fewer 1 MiB blocks than at start (%d)",
               before);
    shmem_free(base0);
    return test_finish(small ? "heap (16 MiB)" : "heap");
}
