/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Something for every level of the logger to say (tests/nodes/levels.sh runs it at each
 * SYMM_LOG_LEVEL): a block too large for the heap under SHMEM_DEBUG (warn), the start (info),
 * a block and a team (debug), and, across nodes, a put that opens an endpoint (trace).
 */
#include <stdio.h>

#include <shmem.h>

int main(void)
{
    shmem_team_t team;
    long *x;
    int me, n;

    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    x = shmem_malloc(sizeof(*x));
    if (!x || shmem_malloc((size_t)1 << 50) != NULL) {
        printf("levels: pe %d: FAIL: allocation\n", me);
        return 1;
    }
    *x = -1;
    if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &team) != 0) {
        printf("levels: pe %d: FAIL: team split\n", me);
        return 1;
    }
    shmem_barrier_all();
    shmem_long_p(x, me, (me + 1) % n);
    shmem_barrier_all();
    if (*x != (me + n - 1) % n) {
        printf("levels: pe %d: FAIL: got %ld\n", me, *x);
        return 1;
    }
    shmem_team_destroy(team);
    shmem_free(x);
    printf("levels: pe %d: done\n", me);
    shmem_finalize();
    return 0;
}
