/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * What a job started without symmrun must do once shmemx_init_attr returned: the PE numbers
 * the program gave, RMA around the ring, a reduction, a barrier, and load/store reach to the
 * PEs of its host. job_check ends in the harness's report line on PE 0 and returns the exit
 * status.
 */
#ifndef SYMM_TEST_JOB_CHECK_H
#define SYMM_TEST_JOB_CHECK_H

#include <shmem.h>
#include <shmemx.h>

#include "../harness.h"

/* rank and size: what the program passed to shmemx_init_attr; name: the program's. */
static int job_check(const char *name, int rank, int size)
{
    static long ring[4], sum, one;
    int me = shmem_my_pe(), n = shmem_n_pes();

    REQUIRE(me == rank && n == size, "pe %d of %d, the program passed rank %d of %d", me, n, rank,
            size);
    for (int round = 0; round < 3; round++) {
        long v = 1000L * round + me;

        shmem_long_p(&ring[round], v, (me + 1) % n);
        shmem_barrier_all();
        EXPECT(ring[round] == 1000L * round + (me + n - 1) % n, "round %d: put from the left: %ld",
               round, ring[round]);
        EXPECT(shmem_long_g(&ring[round], (me + n - 1) % n) == 1000L * round + (me + n - 2 + n) % n,
               "round %d: get from the left", round);
    }
    one = me + 1;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &sum, &one, 1);
    EXPECT(sum == (long)n * (n + 1) / 2, "sum_reduce: %ld", sum);
    for (int pe = 0; pe < n; pe++)
        if (shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_SHARED) >= 0)
            EXPECT(shmem_ptr(&sum, pe) != NULL, "shmem_ptr to pe %d of this host is NULL", pe);
    return test_report(name);
}

#endif
