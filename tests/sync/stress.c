/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * A stress run meant for more PEs than CPUs (16 PEs on 2 cores): every PE takes one lock many
 * times, now and then yielding the CPU while it holds it, and increments a counter on PE 0 by
 * a get and a put under it; between turns it hammers an atomic counter on PE 0 and on every
 * PE; then a token passes round the ring with wait_until. The counts at the end are exact.
 * There is no timing assertion: waits that burn the CPUs the lock holder and the writers need
 * would make the run crawl into the launcher's timeout, which is the bound.
 */
#include <sched.h>

#include "../harness.h"

#define LOCK_TURNS 64
#define ATOMICS 128
#define RING_ROUNDS 16

static int me, npes;
static long lock, guarded, hot, spread, token;

int main(void)
{
    long expect = 0;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    for (int t = 0; t < LOCK_TURNS; t++) {
        long c;

        shmem_set_lock(&lock);
        c = shmem_long_g(&guarded, 0);
        if (t % 4 == 0)
            sched_yield(); /* a holder off the CPU, with the others queued behind it */
        shmem_long_p(&guarded, c + 1, 0);
        shmem_clear_lock(&lock);
        for (int i = 0; i < ATOMICS; i++) {
            shmem_long_atomic_inc(&hot, 0);
            shmem_long_atomic_add(&spread, 2, (me + i) % npes);
        }
    }
    /* The token: PE 0 starts each round, every other PE waits for its left neighbour. */
    for (long r = 1; r <= RING_ROUNDS; r++) {
        if (me != 0)
            shmem_long_wait_until(&token, SHMEM_CMP_GE, r);
        shmem_long_atomic_set(&token, r, (me + 1) % npes);
        if (me == 0)
            shmem_long_wait_until(&token, SHMEM_CMP_GE, r);
    }
    shmem_barrier_all();
    if (me == 0) {
        EXPECT(guarded == (long)npes * LOCK_TURNS, "guarded count %ld, expected %ld", guarded,
               (long)npes * LOCK_TURNS);
        EXPECT(hot == (long)npes * LOCK_TURNS * ATOMICS, "hot counter %ld, expected %ld", hot,
               (long)npes * LOCK_TURNS * ATOMICS);
    }
    for (int pe = 0; pe < npes; pe++)
        for (int i = 0; i < ATOMICS; i++)
            expect += (pe + i) % npes == me ? 2L * LOCK_TURNS : 0;
    EXPECT(spread == expect, "spread counter %ld, expected %ld", spread, expect);
    EXPECT(token == RING_ROUNDS, "token %ld", token);
    return test_finish("sync_stress");
}
