/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The symmetric allocator on its own: determinism (two allocators fed the same calls hand out
 * the same offsets), alignment, first-fit reuse of freed holes and merging of free
 * neighbours, exhaustion, in-place resize, and the structural invariants (segments sorted,
 * gap-free, no two free neighbours, in_use equal to the bytes of used segments) after every
 * call of a long pseudo-random sequence.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#define TEST_WITHOUT_SHMEM
#include "../harness.h"

#define MIN SYMM_ALLOC_MIN_ALIGN

static size_t round64(size_t v)
{
    return (v + MIN - 1) / MIN * MIN;
}

/* Checks every structural invariant; returns 0 when all hold. */
static int invariants(const symm_alloc_t *a, const char *where)
{
    size_t used = 0, at = a->base;
    int bad = 0;

    EXPECT(a->nseg >= 1 && a->nseg <= a->cap, "%s: nseg %zu cap %zu", where, a->nseg, a->cap);
    for (size_t i = 0; i < a->nseg; i++) {
        const symm_seg_t *s = &a->seg[i];
        if (s->off != at || s->len == 0) {
            EXPECT(0, "%s: segment %zu at %zu len %zu, expected start %zu", where, i, s->off,
                   s->len, at);
            bad = 1;
        }
        if (i > 0 && !s->used && !a->seg[i - 1].used) {
            EXPECT(0, "%s: free segments %zu and %zu are not merged", where, i - 1, i);
            bad = 1;
        }
        if (s->used && (s->off % MIN || s->len % MIN)) {
            EXPECT(0, "%s: used segment %zu (%zu, %zu) not a multiple of %d", where, i, s->off,
                   s->len, MIN);
            bad = 1;
        }
        if (s->used)
            used += s->len;
        at = s->off + s->len;
    }
    if (at != a->base + a->size) {
        EXPECT(0, "%s: segments end at %zu, region ends at %zu", where, at, a->base + a->size);
        bad = 1;
    }
    if (used != a->in_use) {
        EXPECT(0, "%s: in_use %zu, used segments hold %zu", where, a->in_use, used);
        bad = 1;
    }
    return bad;
}

/* A request that must fail: it does, and leaves its output alone. */
static int get_fails(symm_alloc_t *a, size_t size, size_t alignment)
{
    size_t off = 12345;

    return symm_alloc_get(a, size, alignment, &off) != SYMM_OK && off == 12345;
}

static void test_basic(void)
{
    symm_alloc_t a;
    size_t o1 = 0, o2 = 0;

    EXPECT(symm_alloc_init(&a, 4096, 1 << 20) == SYMM_OK, "init");
    EXPECT(symm_alloc_top(&a) == 4096, "top of an empty region is its base, got %zu",
           symm_alloc_top(&a));
    EXPECT(symm_alloc_get(&a, 1, 0, &o1) == SYMM_OK && o1 == 4096, "first block at base: %zu", o1);
    EXPECT(symm_alloc_size_of(&a, o1) == MIN, "1 byte rounds to %d: %zu", MIN,
           symm_alloc_size_of(&a, o1));
    EXPECT(symm_alloc_get(&a, 100, 0, &o2) == SYMM_OK && o2 == 4096 + MIN, "second block %zu", o2);
    EXPECT(symm_alloc_size_of(&a, o2) == 128, "100 bytes round to 128: %zu",
           symm_alloc_size_of(&a, o2));
    EXPECT(symm_alloc_top(&a) == o2 + 128, "top %zu", symm_alloc_top(&a));
    EXPECT(a.in_use == MIN + 128, "in_use %zu", a.in_use);

    /* Invalid requests fail and leave the output alone. */
    EXPECT(get_fails(&a, 0, 0), "size 0");
    EXPECT(get_fails(&a, 64, 96), "alignment 96");
    EXPECT(get_fails(&a, 64, 192), "alignment 192");
    EXPECT(get_fails(&a, 64, ((size_t)1 << 40) + 64), "alignment 2^40 + 64");
    EXPECT(get_fails(&a, (1 << 20) + 1, 0), "larger than the region");
    EXPECT(get_fails(&a, SIZE_MAX, 0), "SIZE_MAX");
    EXPECT(get_fails(&a, SIZE_MAX - 10, 64), "SIZE_MAX - 10");
    EXPECT(get_fails(&a, 64, (size_t)1 << 63), "alignment 2^63");
    EXPECT(a.in_use == MIN + 128 && a.nseg == 3, "failed requests changed the allocator");

    /* Frees: only block starts, only once. */
    EXPECT(symm_alloc_put(&a, o1 + 8) == SYMM_ERR_INVALID, "free inside a block");
    EXPECT(symm_alloc_put(&a, 0) == SYMM_ERR_INVALID, "free below the region");
    EXPECT(symm_alloc_put(&a, o2 + 128) == SYMM_ERR_INVALID, "free of the free tail");
    EXPECT(symm_alloc_size_of(&a, o1 + 8) == 0, "size_of inside a block");
    EXPECT(symm_alloc_put(&a, o1) == SYMM_OK, "free o1");
    EXPECT(symm_alloc_put(&a, o1) == SYMM_ERR_INVALID, "double free o1");
    EXPECT(symm_alloc_size_of(&a, o1) == 0, "size_of a freed block");
    EXPECT(symm_alloc_top(&a) == o2 + 128, "top after freeing a lower block %zu",
           symm_alloc_top(&a));
    EXPECT(symm_alloc_put(&a, o2) == SYMM_OK, "free o2");
    EXPECT(a.nseg == 1 && a.in_use == 0 && !a.seg[0].used, "empty again: nseg %zu in_use %zu",
           a.nseg, a.in_use);
    EXPECT(symm_alloc_top(&a) == 4096, "top back at base");
    invariants(&a, "basic");
    symm_alloc_fini(&a);
}

static void test_alignment(void)
{
    symm_alloc_t a;
    size_t off;

    /* A base that is only 64-aligned, as the first fit would meet it after small blocks. */
    EXPECT(symm_alloc_init(&a, 64, (size_t)256 << 20) == SYMM_OK, "init");
    for (size_t al = 1; al <= (16 << 20); al <<= 1) {
        size_t small = 0;
        EXPECT(symm_alloc_get(&a, 1, 0, &small) == SYMM_OK, "filler");
        if (symm_alloc_get(&a, 3 * al + 1, al, &off) != SYMM_OK) {
            EXPECT(0, "alignment %zu failed", al);
            continue;
        }
        EXPECT(off % al == 0 && off % MIN == 0, "alignment %zu gave offset %zu", al, off);
        EXPECT(symm_alloc_size_of(&a, off) == round64(3 * al + 1), "alignment %zu size %zu", al,
               symm_alloc_size_of(&a, off));
        invariants(&a, "alignment");
    }
    symm_alloc_fini(&a);

    /* The hole left in front of an aligned block is used by later small requests. */
    EXPECT(symm_alloc_init(&a, 0, 1 << 20) == SYMM_OK, "init");
    size_t first, big, fill;
    EXPECT(symm_alloc_get(&a, 64, 0, &first) == SYMM_OK && first == 0, "first %zu", first);
    EXPECT(symm_alloc_get(&a, 64, 4096, &big) == SYMM_OK && big == 4096, "aligned %zu", big);
    EXPECT(symm_alloc_get(&a, 4096 - 64, 0, &fill) == SYMM_OK && fill == 64,
           "the gap before the aligned block is reused: %zu", fill);
    invariants(&a, "alignment gap");
    symm_alloc_fini(&a);
}

static void test_reuse(void)
{
    enum { N = 200 };
    symm_alloc_t a;
    size_t off[N], o, top;

    EXPECT(symm_alloc_init(&a, 0, 1 << 20) == SYMM_OK, "init");
    for (int i = 0; i < N; i++) {
        EXPECT(symm_alloc_get(&a, 1000, 0, &off[i]) == SYMM_OK, "block %d", i);
        EXPECT(i == 0 || off[i] == off[i - 1] + round64(1000), "block %d packed: %zu", i, off[i]);
    }
    EXPECT(a.nseg == N + 1, "%d blocks and a free tail: nseg %zu (the array grew past its start)",
           N, a.nseg);
    top = symm_alloc_top(&a);
    /* Free every other block below the last: holes of one block each, none merged. */
    for (int i = 1; i < N - 1; i += 2)
        EXPECT(symm_alloc_put(&a, off[i]) == SYMM_OK, "free %d", i);
    invariants(&a, "holes");
    EXPECT(a.nseg == N + 1, "holes do not merge with used neighbours: nseg %zu", a.nseg);
    /* First fit: a block of the same size lands in the lowest hole. */
    EXPECT(symm_alloc_get(&a, 1000, 0, &o) == SYMM_OK && o == off[1], "reuse lowest hole: %zu",
           o);
    /* A block larger than any hole goes above everything. */
    EXPECT(symm_alloc_get(&a, 2000, 0, &o) == SYMM_OK && o == top, "large block at top: %zu", o);
    EXPECT(symm_alloc_put(&a, o) == SYMM_OK, "free large");
    /* Freeing the even blocks merges everything back into one segment. */
    for (int i = 0; i < N; i += 2)
        EXPECT(symm_alloc_put(&a, off[i]) == SYMM_OK, "free %d", i);
    EXPECT(symm_alloc_put(&a, off[1]) == SYMM_OK, "free reused");
    EXPECT(symm_alloc_put(&a, off[N - 1]) == SYMM_OK, "free last");
    EXPECT(a.nseg == 1 && a.in_use == 0, "all merged: nseg %zu in_use %zu", a.nseg, a.in_use);
    /* Freeing a block between two free neighbours merges three into one. */
    size_t x, y, z;
    symm_alloc_get(&a, 64, 0, &x);
    symm_alloc_get(&a, 64, 0, &y);
    symm_alloc_get(&a, 64, 0, &z);
    symm_alloc_put(&a, x);
    symm_alloc_put(&a, z);
    EXPECT(a.nseg == 3, "x free, y used, z merged with the tail: nseg %zu", a.nseg);
    symm_alloc_put(&a, y);
    EXPECT(a.nseg == 1, "three merged into one: nseg %zu", a.nseg);
    invariants(&a, "merge");
    symm_alloc_fini(&a);
}

static void test_exhaustion(void)
{
    symm_alloc_t a;
    size_t o, p, sentinel = 777;

    EXPECT(symm_alloc_init(&a, 1 << 12, 1 << 16) == SYMM_OK, "init");
    EXPECT(symm_alloc_get(&a, 1 << 16, 0, &o) == SYMM_OK && o == 1 << 12, "whole region");
    p = sentinel;
    EXPECT(symm_alloc_get(&a, 1, 0, &p) == SYMM_ERR_NOMEM && p == sentinel, "full: NOMEM");
    EXPECT(symm_alloc_put(&a, o) == SYMM_OK, "free whole");
    EXPECT(symm_alloc_get(&a, (1 << 16) - 63, 0, &o) == SYMM_OK, "whole region, rounded up");
    EXPECT(symm_alloc_put(&a, o) == SYMM_OK, "free");
    /* Fill with 64-byte blocks: exactly size / 64 fit. */
    size_t count = 0;
    while (symm_alloc_get(&a, 64, 0, &o) == SYMM_OK)
        count++;
    EXPECT(count == (1 << 16) / 64, "64-byte blocks that fit: %zu", count);
    invariants(&a, "full of small blocks");
    /* An aligned request that fits only in a misaligned hole fails. */
    symm_alloc_fini(&a);
    EXPECT(symm_alloc_init(&a, 64, 4096) == SYMM_OK, "init");
    p = sentinel;
    EXPECT(symm_alloc_get(&a, 64, 8192, &p) == SYMM_ERR_NOMEM && p == sentinel,
           "no 8192-aligned offset in [64, 4160)");
    EXPECT(symm_alloc_get(&a, 64, 4096, &p) == SYMM_OK && p == 4096, "the one 4096-aligned: %zu",
           p);
    symm_alloc_fini(&a);
}

static void test_resize(void)
{
    symm_alloc_t a;
    size_t o, q, r;

    EXPECT(symm_alloc_init(&a, 0, 1 << 16) == SYMM_OK, "init");
    symm_alloc_get(&a, 100, 0, &o);
    /* Grow into the free tail. */
    EXPECT(symm_alloc_resize(&a, o, 1000) == SYMM_OK && symm_alloc_size_of(&a, o) == 1024,
           "grow in place: %zu", symm_alloc_size_of(&a, o));
    EXPECT(a.in_use == 1024, "in_use after grow %zu", a.in_use);
    invariants(&a, "grow");
    /* Shrink: the spare bytes join the free tail and are handed out next. */
    EXPECT(symm_alloc_resize(&a, o, 10) == SYMM_OK && symm_alloc_size_of(&a, o) == 64,
           "shrink: %zu", symm_alloc_size_of(&a, o));
    EXPECT(a.in_use == 64 && a.nseg == 2, "in_use %zu nseg %zu", a.in_use, a.nseg);
    EXPECT(symm_alloc_get(&a, 64, 0, &q) == SYMM_OK && q == o + 64, "freed tail reused: %zu", q);
    /* Resize to the same rounded size changes nothing. */
    EXPECT(symm_alloc_resize(&a, o, 1) == SYMM_OK && symm_alloc_size_of(&a, o) == 64, "same size");
    /* A used neighbour blocks growth; the block stays as it was. */
    EXPECT(symm_alloc_resize(&a, o, 65) == SYMM_ERR_NOMEM && symm_alloc_size_of(&a, o) == 64,
           "blocked by neighbour");
    invariants(&a, "blocked");
    /* Shrinking a block whose neighbour is used inserts a free segment. */
    EXPECT(symm_alloc_resize(&a, q, 64) == SYMM_OK, "same size q");
    symm_alloc_get(&a, 256, 0, &r);
    EXPECT(symm_alloc_resize(&a, r, 64) == SYMM_OK && symm_alloc_size_of(&a, r) == 64,
           "shrink r");
    EXPECT(symm_alloc_put(&a, q) == SYMM_OK, "free q");
    EXPECT(symm_alloc_resize(&a, o, 128) == SYMM_OK && symm_alloc_size_of(&a, o) == 128,
           "grow o into q's hole exactly");
    invariants(&a, "exact fill");
    EXPECT(symm_alloc_resize(&a, o, 129) == SYMM_ERR_NOMEM, "o now touches r");
    size_t mid;
    symm_alloc_get(&a, 1024, 0, &mid);
    EXPECT(mid == r + 64, "block after r: %zu", mid);
    EXPECT(symm_alloc_resize(&a, r, 4096) == SYMM_ERR_NOMEM, "r blocked by mid");
    EXPECT(symm_alloc_resize(&a, mid, 1 << 16) == SYMM_ERR_NOMEM, "beyond the region");
    EXPECT(symm_alloc_resize(&a, mid, (1 << 16) - mid) == SYMM_OK, "up to the end exactly");
    EXPECT(symm_alloc_top(&a) == 1 << 16, "top at the end: %zu", symm_alloc_top(&a));
    invariants(&a, "to the end");
    /* Bad arguments. */
    EXPECT(symm_alloc_resize(&a, o + 64, 64) == SYMM_ERR_INVALID, "not a block start");
    EXPECT(symm_alloc_resize(&a, o, 0) == SYMM_ERR_INVALID, "size 0");
    symm_alloc_fini(&a);
}

/* A long random sequence of calls, applied to two allocators that must agree at every step,
 * with a shadow list of live blocks that must never overlap. */
static void test_determinism(void)
{
    enum { LIVE = 128, STEPS = 20000 };
    symm_alloc_t a, b;
    size_t off[LIVE], len[LIVE];
    int live[LIVE] = {0};
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    int mismatches = 0, broken = 0;

    EXPECT(symm_alloc_init(&a, 1 << 22, 16 << 20) == SYMM_OK, "init a");
    EXPECT(symm_alloc_init(&b, 1 << 22, 16 << 20) == SYMM_OK, "init b");
    for (int step = 0; step < STEPS && !broken; step++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        unsigned r = (unsigned)(rng >> 33);
        int k = r % LIVE;
        size_t size = 1 + (r >> 8) % ((r & 1) ? 300 : 200000);
        size_t al = (r >> 4) % 4 == 0 ? (size_t)1 << ((r >> 12) % 16) : 0;
        if (!live[k]) {
            size_t oa = 1, ob = 2;
            symm_status_t sa = symm_alloc_get(&a, size, al, &oa);
            symm_status_t sb = symm_alloc_get(&b, size, al, &ob);
            if (sa != sb || (sa == SYMM_OK && oa != ob)) {
                mismatches++;
                continue;
            }
            if (sa != SYMM_OK)
                continue;
            EXPECT(al == 0 || oa % al == 0, "step %d: alignment %zu offset %zu", step, al, oa);
            for (int j = 0; j < LIVE; j++)
                if (live[j] && oa < off[j] + len[j] && off[j] < oa + size) {
                    EXPECT(0, "step %d: [%zu,+%zu) overlaps live [%zu,+%zu)", step, oa, size,
                           off[j], len[j]);
                    broken = 1;
                }
            live[k] = 1;
            off[k] = oa;
            len[k] = size;
        } else if ((r >> 20) % 3 == 0) {
            symm_status_t sa = symm_alloc_resize(&a, off[k], size);
            symm_status_t sb = symm_alloc_resize(&b, off[k], size);
            if (sa != sb) {
                mismatches++;
                continue;
            }
            if (sa == SYMM_OK)
                len[k] = size;
            EXPECT(symm_alloc_size_of(&a, off[k]) >= len[k], "step %d: size_of below length",
                   step);
        } else {
            EXPECT(symm_alloc_put(&a, off[k]) == SYMM_OK, "step %d: free a", step);
            EXPECT(symm_alloc_put(&b, off[k]) == SYMM_OK, "step %d: free b", step);
            live[k] = 0;
        }
        if (step % 64 == 0 || step == STEPS - 1)
            broken |= invariants(&a, "random");
    }
    EXPECT(mismatches == 0, "%d steps where two allocators fed the same calls disagreed",
           mismatches);
    EXPECT(a.nseg == b.nseg && !memcmp(a.seg, b.seg, a.nseg * sizeof(*a.seg)),
           "segment arrays differ");
    for (int k = 0; k < LIVE; k++)
        if (live[k])
            symm_alloc_put(&a, off[k]);
    EXPECT(a.nseg == 1 && a.in_use == 0, "everything freed: nseg %zu in_use %zu", a.nseg,
           a.in_use);
    symm_alloc_fini(&a);
    symm_alloc_fini(&b);
}

int main(void)
{
    test_basic();
    test_alignment();
    test_reuse();
    test_exhaustion();
    test_resize();
    test_determinism();
    return test_finish("unit_alloc");
}
