/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * A PE dies in the middle of a run of barriers: after some rounds the PE named by the first
 * argument kills itself with SIGKILL (no handler, no goodbye to the launcher) while the others
 * go on into shmem_barrier_all, where they can only wait. The launcher must notice, report
 * the PE and the signal, and bring the others down; tests/run_expect_fail.sh checks that the
 * job failed and that no process of it and no file in /dev/shm is left.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include <shmem.h>

#define ROUNDS 200
#define DEATH 50

static long counter[1];

int main(int argc, char **argv)
{
    int victim = argc > 1 ? atoi(argv[1]) : 0, me;

    shmem_init();
    me = shmem_my_pe();
    for (int r = 0; r < ROUNDS; r++) {
        if (r == DEATH && me == victim)
            raise(SIGKILL);
        shmem_long_p(counter, r, (me + 1) % shmem_n_pes());
        shmem_barrier_all();
    }
    fprintf(stderr, "fault: pe %d passed %d barriers although pe %d died\n", me, ROUNDS,
            victim);
    shmem_finalize();
    return 0;
}
