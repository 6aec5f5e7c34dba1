/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * NVSHMEM's teams are integers (nvshmem.h): on CPU PEs, through NVSHMEM's names, a
 * zero-initialised team is the world, NVSHMEM_TEAM_INVALID is -1 and answers -1, the node's
 * team is the shared one, splits return indices from NVSHMEM_TEAMS_MIN on (SHMEM_TEAM_INVALID
 * as -1 off the team), and queries, translation, syncs, barriers and collectives take them.
 * NVSHMEMX_TEAM_SAME_MYPE_NODE is the PEs at this PE's place in their nodes where the nodes
 * have equal PE counts. With --bad, a routine given an index that names no team ends the job
 * with its message; with --same-place, one given NVSHMEMX_TEAM_SAME_MYPE_NODE (in a job whose
 * nodes differ in PE counts).
 */
#include <string.h>

#include <nvshmem.h>

#include "../harness.h"

#define N 5

static void reduce_on(nvshmem_team_t team, int *dst, int *src, int salt)
{
    int n = nvshmem_team_n_pes(team), my = nvshmem_team_my_pe(team);

    for (int i = 0; i < N; i++)
        src[i] = (nvshmem_team_translate_pe(team, my, NVSHMEM_TEAM_WORLD) + 1) * (i + salt);
    memset(dst, 0, N * sizeof(int));
    EXPECT(nvshmem_int_sum_reduce(team, dst, src, N) == 0, "int_sum_reduce returned non-zero");
    for (int i = 0; i < N; i++) {
        int want = 0;
        for (int m = 0; m < n; m++)
            want += (nvshmem_team_translate_pe(team, m, NVSHMEM_TEAM_WORLD) + 1) * (i + salt);
        EXPECT(dst[i] == want, "team %d: sum [%d] is %d, want %d", (int)team, i, dst[i], want);
    }
}

int main(int argc, char **argv)
{
    shmem_init();
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    int *src = shmem_malloc(N * sizeof(int)), *dst = shmem_malloc(N * npes * sizeof(int));
    nvshmem_team_t zero, even = NVSHMEM_TEAM_INVALID, x = NVSHMEM_TEAM_INVALID,
                         y = NVSHMEM_TEAM_INVALID;

    REQUIRE(src && dst, "shmem_malloc failed");
    if (argc > 1 && strcmp(argv[1], "--bad") == 0)
        nvshmem_team_n_pes(NVSHMEM_TEAMS_MIN + 40); /* no such team: ends the job */
    if (argc > 1 && strcmp(argv[1], "--same-place") == 0)
        nvshmem_team_n_pes(NVSHMEMX_TEAM_SAME_MYPE_NODE);

    memset(&zero, 0, sizeof(zero));
    EXPECT(sizeof(nvshmem_team_t) == 4 && zero == NVSHMEM_TEAM_WORLD && NVSHMEM_TEAM_INVALID == -1,
           "team type and constants");
    EXPECT(nvshmem_team_n_pes(zero) == npes && nvshmem_team_my_pe(zero) == me,
           "zero-initialised team: %d of %d", nvshmem_team_my_pe(zero), nvshmem_team_n_pes(zero));
    EXPECT(nvshmem_team_my_pe(NVSHMEM_TEAM_INVALID) == -1 &&
               nvshmem_team_n_pes(NVSHMEM_TEAM_INVALID) == -1,
           "NVSHMEM_TEAM_INVALID answers -1");
    EXPECT(nvshmem_team_n_pes(NVSHMEMX_TEAM_NODE) == nvshmem_team_n_pes(NVSHMEM_TEAM_SHARED) &&
               nvshmem_team_my_pe(NVSHMEMX_TEAM_NODE) == shmem_team_my_pe(SHMEM_TEAM_SHARED),
           "the node's team is the shared team");

    /* The even PEs. */
    EXPECT(nvshmem_team_split_strided(NVSHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0,
                                      &even) == 0,
           "split_strided failed");
    if (me % 2) {
        EXPECT(even == NVSHMEM_TEAM_INVALID, "odd PE got team %d", (int)even);
    } else {
        EXPECT(even >= NVSHMEM_TEAMS_MIN && nvshmem_team_my_pe(even) == me / 2 &&
                   nvshmem_team_n_pes(even) == (npes + 1) / 2,
               "even team %d: %d of %d", (int)even, nvshmem_team_my_pe(even),
               nvshmem_team_n_pes(even));
        EXPECT(nvshmem_team_translate_pe(NVSHMEM_TEAM_WORLD, me, even) == me / 2,
               "translate into the even team");
        reduce_on(even, dst, src, 1);
        EXPECT(nvshmem_team_sync(even) == 0 && nvshmem_barrier(even) == 0, "even team sync");
    }
    reduce_on(zero, dst, src, 2);
    nvshmem_sync(NVSHMEM_TEAM_WORLD);

    /* The PEs at this PE's place in their nodes, where every node has as many PEs as this. */
    const int per = nvshmem_team_n_pes(NVSHMEMX_TEAM_NODE),
              place = nvshmem_team_my_pe(NVSHMEMX_TEAM_NODE);
    int equal = 1;
    src[0] = per;
    EXPECT(nvshmem_int_fcollect(NVSHMEM_TEAM_WORLD, dst, src, 1) == 0, "fcollect of node sizes");
    for (int pe = 0; pe < npes; pe++)
        equal &= dst[pe] == per;
    if (equal) {
        const nvshmem_team_t same = NVSHMEMX_TEAM_SAME_MYPE_NODE;
        EXPECT(same == 3 && nvshmem_team_n_pes(same) == npes / per &&
                   nvshmem_team_my_pe(same) == me / per,
               "same place: %d of %d (%d PEs a node)", nvshmem_team_my_pe(same),
               nvshmem_team_n_pes(same), per);
        for (int m = 0; m < npes / per; m++)
            EXPECT(nvshmem_team_translate_pe(same, m, NVSHMEM_TEAM_WORLD) == m * per + place,
                   "same place: member %d is pe %d", m,
                   nvshmem_team_translate_pe(same, m, NVSHMEM_TEAM_WORLD));
        reduce_on(same, dst, src, 4);
        EXPECT(nvshmem_team_sync(same) == 0 && nvshmem_barrier(same) == 0, "same place sync");
        EXPECT(nvshmem_team_split_strided(same, 0, 1, npes / per, NULL, 0, &x) == 0 &&
                   x >= NVSHMEM_TEAMS_MIN && nvshmem_team_n_pes(x) == npes / per,
               "split of the same-place team: %d", (int)x);
        reduce_on(x, dst, src, 5);
        nvshmem_team_destroy(x);
        x = NVSHMEM_TEAM_INVALID;
    }
    nvshmem_barrier_all();

    /* A 2-D split: rows of 2. */
    EXPECT(nvshmem_team_split_2d(NVSHMEM_TEAM_WORLD, 2, NULL, 0, &x, NULL, 0, &y) == 0,
           "split_2d failed");
    EXPECT(x >= NVSHMEM_TEAMS_MIN && y >= NVSHMEM_TEAMS_MIN && x != y &&
               nvshmem_team_my_pe(x) == me % 2 && nvshmem_team_my_pe(y) == me / 2,
           "split_2d: x %d (%d), y %d (%d)", (int)x, nvshmem_team_my_pe(x), (int)y,
           nvshmem_team_my_pe(y));
    for (int i = 0; i < N; i++)
        src[i] = me * 100 + i;
    EXPECT(nvshmem_int_fcollect(x, dst, src, N) == 0, "fcollect on x");
    for (int m = 0; m < nvshmem_team_n_pes(x); m++) {
        int pe = nvshmem_team_translate_pe(x, m, NVSHMEM_TEAM_WORLD);
        for (int i = 0; i < N; i++)
            EXPECT(dst[m * N + i] == pe * 100 + i, "fcollect on x: member %d [%d] is %d", m, i,
                   dst[m * N + i]);
    }
    nvshmem_team_sync(y);
    nvshmem_ctx_t ctx;
    nvshmem_team_t of = NVSHMEM_TEAM_INVALID;
    EXPECT(nvshmem_team_create_ctx(x, 0, &ctx) == 0 && nvshmem_ctx_get_team(ctx, &of) == 0 &&
               of == x,
           "ctx_get_team of a context made from team %d: %d", (int)x, (int)of);
    nvshmem_ctx_destroy(ctx);

    /* Destroyed, then split again: the new team answers under its own index. */
    nvshmem_team_destroy(x);
    nvshmem_team_destroy(y);
    if (even != NVSHMEM_TEAM_INVALID)
        nvshmem_team_destroy(even);
    nvshmem_barrier_all();
    EXPECT(nvshmem_team_split_strided(NVSHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &x) == 0 &&
               x >= NVSHMEM_TEAMS_MIN && nvshmem_team_n_pes(x) == npes,
           "split again: team %d", (int)x);
    reduce_on(x, dst, src, 3);
    nvshmem_team_destroy(x);

    shmem_free(dst);
    shmem_free(src);
    return test_finish("nvteams");
}
