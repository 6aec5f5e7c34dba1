/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The heap across nodes as it grows (symmrun --nodes): blocks of 1 MiB, 64 MiB and 300 MiB on
 * a large, sparse heap take its registration with the network through several extents. The
 * registered part follows the heap: at start a small part of the reservation, after each block
 * one that holds the block and is at most about twice the heap's used part, alike on every
 * PE. Every PE then puts (blocking, _nbi, on a context opened before the heap grew), gets and
 * updates atomically (8- and 4-byte words) at the ends of every block and across every
 * boundary between extents, at every other PE, and checks every byte. With `unregistered`,
 * PE 0 puts beyond every allocation to the last PE, which must end the job with one line.
 *
 * The registered size is read inside the library (symm_net_heap_registered), so this program
 * links the static library.
 */
#include <stdint.h>
#include <string.h>

#include "../harness.h"
#include "../nodes.h"
#include "core/net.h"
#include "core/core.h"

#define MIB ((size_t)1 << 20)
#define NBLOCKS 3
#define CHUNK ((size_t)64 << 10) /* bytes put, got and updated at each spot */
#define MAXSPOTS 8

static const size_t sizes[NBLOCKS] = {1 * MIB, 64 * MIB, 300 * MIB};
static int me, npes, nodes;
static char *blk[NBLOCKS];
static size_t reg[NBLOCKS + 1]; /* registered user part at start and after each block */
static size_t spot[NBLOCKS][MAXSPOTS];
static int nspots[NBLOCKS];
static shmem_ctx_t ctx;
static char buf[CHUNK], want[CHUNK];
static char nbi_src[NBLOCKS][MAXSPOTS][CHUNK]; /* untouched until the quiet after each target */
static long reg_mine, reg_min, reg_max; /* globals: symmetric */

static size_t off_of(const void *p)
{
    return (size_t)((const char *)p - symm_g.heap_base);
}

static size_t registered_user(void)
{
    size_t r = symm_net_heap_registered();

    return r >= SYMM_INTERNAL_SIZE ? r - SYMM_INTERNAL_SIZE : 0;
}

/* The bytes pe s puts at pe r in block b, spot k: never all zero, different for each. */
static void pattern(char *p, int s, int r, int b, int k)
{
    for (size_t i = 0; i < CHUNK; i += 8) {
        uint64_t v = ((uint64_t)(s + 1) << 56) ^ ((uint64_t)(r + 1) << 48) ^
                     ((uint64_t)b << 40) ^ ((uint64_t)k << 32) ^ (i + 1);
        memcpy(p + i, &v, 8);
    }
}

static void check_registered(int b, size_t top)
{
    size_t r = registered_user(), lim = 2 * (top > reg[0] ? top : reg[0]) + 2 * MIB;

    reg[b + 1] = r;
    reg_mine = (long)r;
    shmem_long_min_reduce(SHMEM_TEAM_WORLD, &reg_min, &reg_mine, 1);
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, &reg_max, &reg_mine, 1);
    EXPECT(reg_min == reg_max, "after block %d the PEs have from %ld to %ld bytes registered", b,
           reg_min, reg_max);
    if (nodes < 2)
        return;
    EXPECT(r >= top, "block %d ends at heap offset %zu, and only %zu bytes are registered", b,
           top, r);
    EXPECT(r <= lim, "block %d ends at heap offset %zu, and %zu bytes are registered (more "
           "than %zu)", b, top, r, lim);
    EXPECT(r < symm_g.internal_off, "the whole user part (%zu bytes) is registered",
           symm_g.internal_off);
    if (b > 0)
        EXPECT(r > reg[b], "block %d (%zu bytes) left the registered part at %zu", b, sizes[b],
               r);
}

/* The spots of block b: both ends, and across every registered boundary inside it. */
static void place_spots(int b)
{
    size_t lo = off_of(blk[b]), hi = lo + sizes[b];

    nspots[b] = 0;
    spot[b][nspots[b]++] = lo;
    spot[b][nspots[b]++] = hi - CHUNK;
    for (int i = 0; i <= NBLOCKS; i++)
        if (reg[i] >= lo + CHUNK / 2 && reg[i] + CHUNK / 2 <= hi &&
            (i == 0 || reg[i] != reg[i - 1]))
            spot[b][nspots[b]++] = reg[i] - CHUNK / 2;
}

static char *at(int b, int k)
{
    return symm_g.heap_base + spot[b][k];
}

/* PE s puts at every spot of PE r, by three ways in turn. */
static void put_spots(int s, int r)
{
    for (int b = 0; b < NBLOCKS; b++)
        for (int k = 0; k < nspots[b]; k++) {
            char *src = k % 3 == 1 ? nbi_src[b][k] : buf;
            pattern(src, s, r, b, k);
            if (k % 3 == 0)
                shmem_putmem(at(b, k), src, CHUNK, r);
            else if (k % 3 == 1)
                shmem_putmem_nbi(at(b, k), src, CHUNK, r);
            else
                shmem_ctx_putmem(ctx, at(b, k), src, CHUNK, r);
        }
    /* A quiet completes the puts of its own context only. */
    shmem_quiet();
    shmem_ctx_quiet(ctx);
}

/* Each PE in turn puts at every spot of every other PE. */
static void test_puts(void)
{
    for (int s = 0; s < npes; s++) {
        for (int r = 0; me == s && r < npes; r++)
            if (r != s)
                put_spots(s, r);
        shmem_barrier_all();
        for (int b = 0; me != s && b < NBLOCKS; b++)
            for (int k = 0; k < nspots[b]; k++) {
                pattern(want, s, me, b, k);
                EXPECT(memcmp(at(b, k), want, CHUNK) == 0,
                       "put by pe %d at block %d offset %zu (spot %d) did not arrive", s, b,
                       spot[b][k], k);
            }
        shmem_barrier_all();
    }
}

/* Every PE gets every other PE's spots, blocking and _nbi. */
static void test_gets(void)
{
    for (int b = 0; b < NBLOCKS; b++)
        for (int k = 0; k < nspots[b]; k++)
            pattern(at(b, k), me, me, b, k);
    shmem_barrier_all();
    for (int r = 0; r < npes; r++)
        for (int b = 0; r != me && b < NBLOCKS; b++)
            for (int k = 0; k < nspots[b]; k++) {
                memset(buf, 0, CHUNK);
                if (k % 2 == 0) {
                    shmem_getmem(buf, at(b, k), CHUNK, r);
                } else {
                    shmem_getmem_nbi(buf, at(b, k), CHUNK, r);
                    shmem_quiet();
                }
                pattern(want, r, r, b, k);
                EXPECT(memcmp(buf, want, CHUNK) == 0,
                       "get from pe %d at block %d offset %zu read other bytes", r, b,
                       spot[b][k]);
            }
    shmem_barrier_all();
}

/* Words of a spot: its ends and both sides of its middle (a boundary, for those across one). */
static const size_t longs[] = {0, CHUNK / 2 - 16, CHUNK / 2, CHUNK - 8};
#define NLONGS (sizeof(longs) / sizeof(longs[0]))
#define INT_AT (CHUNK / 2 - 4)

static void test_atomics(void)
{
    long sum = 0;

    for (int s = 0; s < npes; s++)
        sum += s == me ? 0 : s + 1;
    for (int b = 0; b < NBLOCKS; b++)
        for (int k = 0; k < nspots[b]; k++)
            memset(at(b, k), 0, CHUNK);
    shmem_barrier_all();
    for (int r = 0; r < npes; r++)
        for (int b = 0; r != me && b < NBLOCKS; b++)
            for (int k = 0; k < nspots[b]; k++) {
                for (size_t w = 0; w < NLONGS; w++)
                    shmem_long_atomic_add((long *)(at(b, k) + longs[w]), me + 1, r);
                int old = shmem_int_atomic_fetch_inc((int *)(at(b, k) + INT_AT), r);
                EXPECT(old >= 0 && old < npes - 1, "fetch_inc at pe %d block %d offset %zu "
                       "returned %d", r, b, spot[b][k] + INT_AT, old);
            }
    shmem_barrier_all();
    for (int b = 0; b < NBLOCKS; b++)
        for (int k = 0; k < nspots[b]; k++) {
            for (size_t w = 0; w < NLONGS; w++)
                EXPECT(*(long *)(at(b, k) + longs[w]) == sum,
                       "block %d offset %zu holds %ld after the adds, not %ld", b,
                       spot[b][k] + longs[w], *(long *)(at(b, k) + longs[w]), sum);
            EXPECT(*(int *)(at(b, k) + INT_AT) == npes - 1,
                   "block %d offset %zu holds %d after the increments, not %d", b,
                   spot[b][k] + INT_AT, *(int *)(at(b, k) + INT_AT), npes - 1);
        }
    shmem_barrier_all();
    /* Each PE swaps its right neighbour's words from their sum to -1. */
    int right = (me + 1) % npes;
    long rsum = 0;
    for (int s = 0; s < npes; s++)
        rsum += s == right ? 0 : s + 1;
    for (int b = 0; right != me && b < NBLOCKS; b++)
        for (int k = 0; k < nspots[b]; k++) {
            long old = shmem_long_atomic_compare_swap((long *)(at(b, k) + longs[2]), rsum, -1,
                                                      right);
            EXPECT(old == rsum, "compare_swap at pe %d block %d found %ld, not %ld", right, b,
                   old, rsum);
        }
    shmem_barrier_all();
    for (int b = 0; npes > 1 && b < NBLOCKS; b++)
        for (int k = 0; k < nspots[b]; k++)
            EXPECT(*(long *)(at(b, k) + longs[2]) == -1, "compare_swap by pe %d did not land "
                   "at block %d offset %zu", (me + npes - 1) % npes, b, spot[b][k] + longs[2]);
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    int unregistered = argc > 1 && strcmp(argv[1], "unregistered") == 0;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    nodes = test_nodes();
    reg[0] = registered_user();
    if (nodes > 1)
        EXPECT(reg[0] > 0 && reg[0] <= 8 * MIB,
               "at start %zu bytes of the heap's user part (%zu) are registered", reg[0],
               symm_g.internal_off);
    EXPECT(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");
    for (int b = 0; b < NBLOCKS; b++) {
        blk[b] = shmem_malloc(sizes[b]);
        EXPECT(blk[b] != NULL, "shmem_malloc(%zu) returned NULL", sizes[b]);
        if (!blk[b])
            return test_finish("extents");
        if (b == 0) { /* the context's worker exists before the heap grows */
            shmem_ctx_putmem(ctx, blk[0], buf, 8, (me + 1) % npes);
            /* Contexts are not ordered with each other: without this quiet the word may land
             * after a later put of the default context to the same place. */
            shmem_ctx_quiet(ctx);
        }
        check_registered(b, off_of(blk[b]) + sizes[b]);
    }
    if (unregistered && me == 0)
        shmem_putmem(symm_g.heap_base + reg[NBLOCKS] + MIB, buf, 8, npes - 1);
    for (int b = 0; b < NBLOCKS; b++)
        place_spots(b);
    test_puts();
    test_gets();
    test_atomics();
    shmem_ctx_destroy(ctx);
    for (int b = NBLOCKS - 1; b >= 0; b--)
        shmem_free(blk[b]);
    return test_finish("extents");
}
