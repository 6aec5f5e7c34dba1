/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * A ring of puts: every PE puts its number and a word into the next PE's buffer, then checks
 * that its own buffer holds what its left neighbour put. Exits non-zero when it does not.
 */
#include <stdio.h>

#include <shmem.h>

#define WORDS 64

static long from_left = -1; /* a global: symmetric, so a peer can put into it */

int main(void)
{
    int me, n, left, bad = 0;
    long *ring, mine[WORDS];

    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    left = (me + n - 1) % n;
    ring = shmem_malloc(sizeof(mine));
    if (!ring) {
        fprintf(stderr, "ring: pe %d: shmem_malloc failed\n", me);
        shmem_global_exit(1);
    }
    for (int i = 0; i < WORDS; i++)
        mine[i] = (long)me * WORDS + i;
    shmem_long_put(ring, mine, WORDS, (me + 1) % n);
    shmem_long_p(&from_left, me, (me + 1) % n);
    shmem_barrier_all();

    for (int i = 0; i < WORDS; i++)
        bad += ring[i] != (long)left * WORDS + i;
    if (bad || from_left != left) {
        fprintf(stderr, "ring: pe %d: %d words wrong, from_left %ld, expected pe %d's\n", me, bad,
                from_left, left);
        shmem_global_exit(1);
    }
    shmem_barrier_all();
    if (me == 0)
        printf("ring: %d PEs ok\n", n);
    shmem_free(ring);
    shmem_finalize();
    return 0;
}
