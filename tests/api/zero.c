/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Zero-length calls with NULL addresses. A transfer of no data touches no memory, so any
 * address is valid with it, NULL included; the call does nothing else. A collective of no
 * data is still a collective: every PE of the team (or active set) calls it, and the calls
 * around it stay matched, which each check proves with a collective of real data right after
 * it (on the same team or pSync) whose result must be right.
 *
 * Without an argument: the team collectives (mem, typed and type-generic forms, reductions,
 * the 1.6 scans), on the world team and on a team of every other PE, and the active-set forms.
 * With the argument `rma`: puts and gets (blocking, _nbi, strided, typed, sized, on a
 * context) of no data to and from every PE.
 */
#include <string.h>

#include <shmemx.h>

#include "../harness.h"

static int me, npes;
static long psync[SHMEM_SYNC_SIZE];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long src[TEST_MAX_PES], dst[TEST_MAX_PES * TEST_MAX_PES], sum;

/* A broadcast of real data from the team's last PE: the call after the one under test. */
static void expect_matched(shmem_team_t team, const char *after)
{
    int n = shmem_team_n_pes(team), tme = shmem_team_my_pe(team);

    src[0] = 1000 + tme;
    dst[0] = -1;
    shmem_long_broadcast(team, dst, src, 1, n - 1);
    EXPECT(dst[0] == 1000 + n - 1, "after %s: a broadcast from team PE %d gave %ld", after, n - 1,
           dst[0]);
    shmem_team_sync(team);
}

static void zero_team(shmem_team_t team)
{
    int n = shmem_team_n_pes(team), tme = shmem_team_my_pe(team);

    /* The byte forms. */
    shmem_broadcastmem(team, NULL, NULL, 0, 0);
    expect_matched(team, "shmem_broadcastmem(0, root 0)");
    shmem_broadcastmem(team, NULL, NULL, 0, n - 1);
    expect_matched(team, "shmem_broadcastmem(0, last root)");
    shmem_fcollectmem(team, NULL, NULL, 0);
    expect_matched(team, "shmem_fcollectmem(0)");
    shmem_collectmem(team, NULL, NULL, 0);
    expect_matched(team, "shmem_collectmem(0)");
    shmem_alltoallmem(team, NULL, NULL, 0);
    expect_matched(team, "shmem_alltoallmem(0)");
    shmem_alltoallsmem(team, NULL, NULL, 1, 1, 0);
    expect_matched(team, "shmem_alltoallsmem(0)");

    /* Typed forms and reductions. */
    shmem_int_broadcast(team, NULL, NULL, 0, n - 1);
    expect_matched(team, "shmem_int_broadcast(0)");
    shmem_long_fcollect(team, NULL, NULL, 0);
    expect_matched(team, "shmem_long_fcollect(0)");
    shmem_double_collect(team, NULL, NULL, 0);
    expect_matched(team, "shmem_double_collect(0)");
    shmem_float_alltoall(team, NULL, NULL, 0);
    expect_matched(team, "shmem_float_alltoall(0)");
    shmem_short_alltoalls(team, NULL, NULL, 2, 3, 0);
    expect_matched(team, "shmem_short_alltoalls(0)");
    shmem_int_sum_reduce(team, NULL, NULL, 0);
    expect_matched(team, "shmem_int_sum_reduce(0)");
    shmem_long_max_reduce(team, NULL, NULL, 0);
    expect_matched(team, "shmem_long_max_reduce(0)");
    shmem_uint64_and_reduce(team, NULL, NULL, 0);
    expect_matched(team, "shmem_uint64_and_reduce(0)");
    shmem_double_prod_reduce(team, NULL, NULL, 0);
    expect_matched(team, "shmem_double_prod_reduce(0)");
    shmem_complexd_sum_reduce(team, NULL, NULL, 0);
    expect_matched(team, "shmem_complexd_sum_reduce(0)");
    shmem_size_sum_inscan(team, NULL, NULL, 0);
    expect_matched(team, "shmem_size_sum_inscan(0)");
    shmem_int_sum_exscan(team, NULL, NULL, 0);
    expect_matched(team, "shmem_int_sum_exscan(0)");

    /* Type-generic forms. */
    shmem_broadcast(team, (long *)NULL, (const long *)NULL, 0, 0);
    expect_matched(team, "shmem_broadcast(long, 0)");
    shmem_fcollect(team, (int *)NULL, (const int *)NULL, 0);
    expect_matched(team, "shmem_fcollect(int, 0)");
    shmem_sum_reduce(team, (long *)NULL, (const long *)NULL, 0);
    expect_matched(team, "shmem_sum_reduce(long, 0)");

    /* A collect where every other PE gives no data: the others' parts arrive. */
    src[0] = 100 + tme;
    memset(dst, 0, sizeof(dst));
    shmem_long_collect(team, dst, src, tme % 2 ? 0 : 1);
    for (int i = 0, k = 0; i < n; i += 2, k++)
        EXPECT(dst[k] == 100 + i, "shmem_long_collect with empty odd parts: [%d] = %ld, not %d", k,
               dst[k], 100 + i);
    expect_matched(team, "shmem_long_collect(odd PEs 0)");

    /* A reduction of real data still combines every PE's part. */
    src[0] = tme + 1;
    shmem_long_sum_reduce(team, &sum, src, 1);
    shmem_team_sync(team);
    EXPECT(sum == (long)n * (n + 1) / 2, "shmem_long_sum_reduce after the empty calls: %ld", sum);
}

/* The active-set forms on every PE; pSync is back to SHMEM_SYNC_VALUE after each call. */
static void zero_active(void)
{
    long want = 0;

    shmem_broadcast32(NULL, NULL, 0, 0, 0, 0, npes, psync);
    shmem_broadcast64(NULL, NULL, 0, npes - 1, 0, 0, npes, psync);
    shmem_fcollect32(NULL, NULL, 0, 0, 0, npes, psync);
    shmem_fcollect64(NULL, NULL, 0, 0, 0, npes, psync);
    shmem_collect32(NULL, NULL, 0, 0, 0, npes, psync);
    shmem_collect64(NULL, NULL, 0, 0, 0, npes, psync);
    shmem_alltoall32(NULL, NULL, 0, 0, 0, npes, psync);
    shmem_alltoall64(NULL, NULL, 0, 0, 0, npes, psync);
    shmem_alltoalls32(NULL, NULL, 1, 1, 0, 0, 0, npes, psync);
    shmem_alltoalls64(NULL, NULL, 1, 1, 0, 0, 0, npes, psync);
    shmem_int_sum_to_all(NULL, NULL, 0, 0, 0, npes, NULL, psync);
    shmem_long_max_to_all(NULL, NULL, 0, 0, 0, npes, pwrk, psync);
    shmem_double_prod_to_all(NULL, NULL, 0, 0, 0, npes, NULL, psync);
    shmem_complexf_sum_to_all(NULL, NULL, 0, 0, 0, npes, NULL, psync);
    for (int i = 0; i < SHMEM_SYNC_SIZE; i++)
        EXPECT(psync[i] == SHMEM_SYNC_VALUE, "after the empty active-set calls pSync[%d] = %ld", i,
               psync[i]);
    shmem_barrier_all();
    src[0] = me + 1;
    shmem_long_sum_to_all(dst, src, 1, 0, 0, npes, pwrk, psync);
    for (int pe = 0; pe < npes; pe++)
        want += pe + 1;
    EXPECT(dst[0] == want, "shmem_long_sum_to_all after the empty calls: %ld, not %ld", dst[0],
           want);
    shmem_barrier_all();
}

static void zero_collectives(void)
{
    shmem_team_t odd = SHMEM_TEAM_INVALID;

    zero_team(SHMEM_TEAM_WORLD);
    /* Every other PE, from PE 1 (the world team alone with one PE). */
    if (npes > 1)
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd);
    if (odd != SHMEM_TEAM_INVALID) {
        zero_team(odd);
        shmem_team_destroy(odd);
    }
    shmem_barrier_all();
    zero_active();
}

/* Puts and gets of no data from NULL to NULL, to and from every PE; then a put of real data
 * to the right neighbour arrives. */
static void zero_rma(void)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;

    for (int pe = 0; pe < npes; pe++) {
        shmem_putmem(NULL, NULL, 0, pe);
        shmem_getmem(NULL, NULL, 0, pe);
        shmem_putmem_nbi(NULL, NULL, 0, pe);
        shmem_getmem_nbi(NULL, NULL, 0, pe);
        shmem_ctx_putmem(SHMEM_CTX_DEFAULT, NULL, NULL, 0, pe);
        shmem_long_put(NULL, NULL, 0, pe);
        shmem_long_get(NULL, NULL, 0, pe);
        shmem_long_put_nbi(NULL, NULL, 0, pe);
        shmem_put64(NULL, NULL, 0, pe);
        shmem_long_iput(NULL, NULL, 1, 1, 0, pe);
        shmem_long_iget(NULL, NULL, 1, 1, 0, pe);
        shmem_put(SHMEM_CTX_DEFAULT, (long *)NULL, (const long *)NULL, 0, pe);
    }
    shmem_quiet();
    shmem_barrier_all();
    src[0] = 500 + me;
    shmem_long_put(dst, src, 1, right);
    shmem_barrier_all();
    EXPECT(dst[0] == 500 + left, "a put after the empty ones: %ld, not %d", dst[0], 500 + left);
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    int rma = argc > 1 && !strcmp(argv[1], "rma");

    if (argc > 1 && !rma) {
        fprintf(stderr, "usage: zero [rma]\n");
        return 2;
    }
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > TEST_MAX_PES)
        return 1;
    if (rma)
        zero_rma();
    else
        zero_collectives();
    return test_finish(rma ? "zero rma" : "zero");
}
