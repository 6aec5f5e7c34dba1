/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * shmem_barrier_all and shmem_sync_all, round after round, alternating: before each barrier
 * every PE stores the round number in its own slot on every PE and on PE 0, and puts a block
 * to its right neighbour; after it, every slot everywhere holds this round or the next (a PE
 * that left a barrier early would see an older round), and the block has arrived (barrier_all
 * completes puts). One PE per round arrives late, a different one each time.
 */
#include <sched.h>
#include <string.h>

#include "../harness.h"

#define ROUNDS 400
#define BLOCK 256

static volatile long slots[TEST_MAX_PES]; /* slots[pe]: written by pe, on every PE */
static long at0[TEST_MAX_PES];            /* the same, on PE 0 only */
static long block[BLOCK];                 /* written by the left neighbour */

int main(void)
{
    int me, npes, right, left, late_rounds = 0;
    long out[BLOCK];

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    if (npes > TEST_MAX_PES)
        return 1;
    shmem_barrier_all();

    for (long r = 1; r <= ROUNDS; r++) {
        int full = r % 2;
        if (me == r % npes) {
            for (int i = 0; i < 4; i++)
                sched_yield();
            late_rounds++;
        }
        for (int pe = 0; pe < npes; pe++)
            shmem_long_p((long *)&slots[me], r, pe);
        shmem_long_p(&at0[me], r, 0);
        if (full) {
            for (int i = 0; i < BLOCK; i++)
                out[i] = r * 1000 + me * 10 + i % 10;
            shmem_long_put(block, out, BLOCK, right);
            shmem_barrier_all();
        } else {
            shmem_quiet();
            shmem_sync_all();
        }
        for (int pe = 0; pe < npes; pe++) {
            long v = slots[pe];
            EXPECT(v == r || v == r + 1, "%s round %ld: slot of pe %d here is %ld",
                   full ? "shmem_barrier_all" : "shmem_sync_all", r, pe, v);
        }
        int k = (int)((me + r) % npes);
        long v0 = shmem_long_g(&at0[k], 0);
        EXPECT(v0 == r || v0 == r + 1, "%s round %ld: slot of pe %d on pe 0 is %ld",
               full ? "shmem_barrier_all" : "shmem_sync_all", r, k, v0);
        if (full)
            for (int i = 0; i < BLOCK; i++)
                if (block[i] != r * 1000 + left * 10 + i % 10) {
                    EXPECT(0, "shmem_barrier_all round %ld: block from pe %d, [%d] = %ld", r,
                           left, i, block[i]);
                    break;
                }
        /* The next round overwrites the block: nobody may still be reading it. */
        if (full)
            shmem_barrier_all();
    }
    shmem_barrier_all();
    for (int pe = 0; pe < npes; pe++)
        EXPECT(slots[pe] == ROUNDS, "after the last round the slot of pe %d is %ld", pe,
               slots[pe]);
    if (me == 0)
        for (int pe = 0; pe < npes; pe++)
            EXPECT(at0[pe] == ROUNDS, "after the last round pe 0 has %ld from pe %d", at0[pe], pe);
    EXPECT(late_rounds > 0 || npes > ROUNDS, "pe %d was never late", me);
    return test_finish("barrier");
}
