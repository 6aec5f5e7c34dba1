/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * A job in which each PE talks only to its two ring neighbours (pe - 1 and pe + 1 mod n): puts,
 * gets, non-blocking puts and atomics on global variables, checked after barriers, so that a
 * transport that connects on first use opens endpoints to the neighbours and to its barrier
 * partners only (tests/nodes/neighbours.sh counts them). No symmetric allocation and no report
 * gathered on one PE: a collective allocation reads every PE's record of it, and the harness's
 * report adds every PE's failures on PE 0, each of which would reach every PE; each PE prints
 * its own report line instead. With the argument `heap`, endpoints opened before and after the
 * heap's registration grows: a context reaches its neighbours, a block of 16 MiB (beyond the
 * part registered at start) is allocated, and the context then puts to and gets from the
 * neighbours, whose endpoints it had before the new extent, and pe + 2, whose endpoint it opens
 * after it.
 */
#include <string.h>

#include "../harness.h"

#define ROUNDS 3
#define WORDS 64
#define BIG ((size_t)16 << 20)

static long from_left, from_right;           /* put by the neighbours */
static long block_left[WORDS], block_right[WORDS];
static long mine[WORDS];                      /* read by the neighbours */
static long hits;                             /* added to by the neighbours */

static long value(int pe, long round, int i)
{
    return round * 1000000 + pe * 1000 + i;
}

static void round_trip(int me, int left, int right, long r)
{
    long out[WORDS], in[WORDS];

    for (int i = 0; i < WORDS; i++)
        mine[i] = out[i] = value(me, r, i);
    /* Puts: a word (shmem_long_p), a block, and a block without blocking. */
    shmem_long_p(&from_left, value(me, r, 0), right);
    shmem_long_p(&from_right, value(me, r, 1), left);
    shmem_long_put(block_left, out, WORDS, right);
    shmem_long_put_nbi(block_right, out, WORDS, left);
    shmem_quiet();
    shmem_long_atomic_add(&hits, 1, right);
    shmem_long_atomic_add(&hits, 1, left);
    shmem_barrier_all();
    EXPECT(from_left == value(left, r, 0), "round %ld: from_left %ld", r, from_left);
    EXPECT(from_right == value(right, r, 1), "round %ld: from_right %ld", r, from_right);
    for (int i = 0; i < WORDS; i++) {
        EXPECT(block_left[i] == value(left, r, i), "round %ld: block_left[%d] %ld", r, i,
               block_left[i]);
        EXPECT(block_right[i] == value(right, r, i), "round %ld: block_right[%d] %ld", r, i,
               block_right[i]);
    }
    EXPECT(hits == 2 * r, "round %ld: hits %ld, want %ld", r, hits, 2 * r);

    /* Gets and fetching atomics: the neighbours' own words. */
    EXPECT(shmem_long_g(&mine[3], left) == value(left, r, 3), "round %ld: g from left", r);
    shmem_long_get(in, mine, WORDS, right);
    for (int i = 0; i < WORDS; i++)
        EXPECT(in[i] == value(right, r, i), "round %ld: get from right [%d] %ld", r, i, in[i]);
    EXPECT(shmem_long_atomic_fetch(&mine[5], right) == value(right, r, 5),
           "round %ld: fetch from right", r);
    shmem_barrier_all();
}

/* The context's put to and get from pe at the end of the block, beyond the first extent: pe's
 * only writer there until the next barrier. */
static void ctx_to(shmem_ctx_t ctx, long *big, int me, int pe, long tag)
{
    long *at = big + BIG / sizeof(long) - WORDS;
    long out[WORDS], in[WORDS];

    for (int i = 0; i < WORDS; i++)
        out[i] = value(me, tag, i);
    shmem_ctx_long_put(ctx, at, out, WORDS, pe);
    shmem_ctx_quiet(ctx);
    shmem_ctx_long_get(ctx, in, at, WORDS, pe);
    for (int i = 0; i < WORDS; i++)
        EXPECT(in[i] == out[i], "heap: pe %d [%d] %ld, want %ld", pe, i, in[i], out[i]);
}

static void heap(int me, int npes, int left, int right)
{
    shmem_ctx_t ctx;
    long *big;

    if (shmem_ctx_create(0, &ctx) != 0) {
        EXPECT(0, "shmem_ctx_create failed");
        return;
    }
    shmem_ctx_long_p(ctx, &from_left, -1, right);
    shmem_ctx_long_p(ctx, &from_right, -1, left);
    shmem_ctx_quiet(ctx);
    big = shmem_malloc(BIG);
    REQUIRE(big != NULL, "shmem_malloc(%zu) failed", BIG);
    ctx_to(ctx, big, me, right, 7);
    shmem_barrier_all();
    ctx_to(ctx, big, me, left, 8);
    shmem_barrier_all();
    ctx_to(ctx, big, me, (me + 2) % npes, 9);
    shmem_barrier_all();
    shmem_ctx_destroy(ctx);
    shmem_free(big);
}

int main(int argc, char **argv)
{
    int me, npes, left, right;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    left = (me + npes - 1) % npes;
    right = (me + 1) % npes;
    shmem_barrier_all();
    if (argc > 1 && strcmp(argv[1], "heap") == 0) {
        heap(me, npes, left, right);
    } else {
        /* Collective allocations agree across nodes without reaching every PE. */
        long *blk = shmem_malloc(64 * sizeof(long));

        REQUIRE(blk != NULL, "shmem_malloc(%zu) failed", 64 * sizeof(long));
        for (long r = 1; r <= ROUNDS; r++)
            round_trip(me, left, right, r);
        shmem_long_p(blk, me, right);
        shmem_barrier_all();
        EXPECT(blk[0] == left, "pe %d: the block holds %ld, want %d from its left", me, blk[0],
               left);
        shmem_barrier_all();
        shmem_free(blk);
    }
    printf("neighbours: pe %d: %ld checks, %ld failures\n", me, TEST_LOAD(test_checks),
           TEST_LOAD(test_failures));
    fflush(stdout);
    shmem_finalize();
    return TEST_LOAD(test_failures) ? 1 : 0;
}
