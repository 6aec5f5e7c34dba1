/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * What a job started without symmrun must do once shmemx_init_attr returned: the PE numbers
 * the program gave, RMA around the ring, a reduction, a barrier, and load/store reach to the
 * PEs of its host. Each failed check names itself and exits non-zero.
 */
#ifndef SYMM_TEST_JOB_CHECK_H
#define SYMM_TEST_JOB_CHECK_H

#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>

#define JOB_CHECK(cond)                                                                            \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s: pe %d: %s:%d: check failed: %s\n", job_name, shmem_my_pe(),       \
                    __FILE__, __LINE__, #cond);                                                    \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static const char *job_name = "job";

/* rank and size: what the program passed to shmemx_init_attr. */
static void job_check(int rank, int size)
{
    static long ring[4], sum, one;
    int me = shmem_my_pe(), n = shmem_n_pes();

    JOB_CHECK(me == rank && n == size);
    for (int round = 0; round < 3; round++) {
        long v = 1000L * round + me;

        shmem_long_p(&ring[round], v, (me + 1) % n);
        shmem_barrier_all();
        JOB_CHECK(ring[round] == 1000L * round + (me + n - 1) % n);
        JOB_CHECK(shmem_long_g(&ring[round], (me + n - 1) % n) ==
                  1000L * round + (me + n - 2 + n) % n);
    }
    one = me + 1;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &sum, &one, 1);
    JOB_CHECK(sum == (long)n * (n + 1) / 2);
    for (int pe = 0; pe < n; pe++)
        if (shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_SHARED) >= 0)
            JOB_CHECK(shmem_ptr(&sum, pe) != NULL);
    shmem_barrier_all();
    if (me == 0)
        printf("%s: %d PEs ok\n", job_name, n);
}

#endif
