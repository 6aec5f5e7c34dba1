/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Collectives on disjoint teams at the same time: the even and the odd PEs each run their own
 * loop of reductions, broadcasts, fcollects and collects on their own team, with different
 * counts and lengths; the rows and the columns of a 2-d split do the same one after the other;
 * a world reduction afterwards checks the totals. With the argument "slot-reuse": a team is
 * destroyed and its slot at once taken by a split of a team that leaves out one of its members,
 * many times over (a member still leaving the destroyed team's barrier must not be disturbed).
 */
#include <sched.h>

#include "cases.h"

static int me, npes;

/* One loop of mixed collectives on team t; `len` sets the counts, `iters` the length.
 * Returns the number of collectives run. */
static long loop(shmem_team_t t, int iters, int len, const char *what)
{
    static long src[4096], dst[4096 * 8], big_src[10000], big_dst[10000];
    int tme = shmem_team_my_pe(t), tn = shmem_team_n_pes(t);
    long calls = 0;

    for (int it = 0; it < iters; it++) {
        int nel = 1 + (it * 7 + len) % len, root = it % tn;
        long want;

        for (int i = 0; i < nel; i++)
            src[i] = (long)me * 1000 + it + i;
        shmem_long_sum_reduce(t, dst, src, nel);
        calls++;
        for (int i = 0; i < nel; i += 1 + nel / 4) {
            want = 0;
            for (int j = 0; j < tn; j++)
                want += (long)coll_wpe(t, j) * 1000 + it + i;
            EXPECT(dst[i] == want, "%s iteration %d: sum [%d] = %ld, want %ld", what, it, i,
                   dst[i], want);
        }
        shmem_long_broadcast(t, dst, src, nel, root);
        calls++;
        EXPECT(dst[nel - 1] == (long)coll_wpe(t, root) * 1000 + it + nel - 1,
               "%s iteration %d: broadcast from %d gave %ld", what, it, root, dst[nel - 1]);
        shmem_long_fcollect(t, dst, src, nel);
        calls++;
        for (int j = 0; j < tn; j++)
            EXPECT(dst[j * nel] == (long)coll_wpe(t, j) * 1000 + it,
                   "%s iteration %d: fcollect block %d starts with %ld", what, it, j,
                   dst[j * nel]);
        shmem_long_collect(t, dst, src, (size_t)(tme % 2 ? nel : 1));
        calls++;
        if (it % 16 == 0) {
            /* Now and then a large one (read from the users' buffers). */
            for (int i = 0; i < 10000; i++)
                big_src[i] = me + it + i;
            shmem_long_max_reduce(t, big_dst, big_src, 10000);
            calls++;
            EXPECT(big_dst[9999] == coll_wpe(t, tn - 1) + it + 9999,
                   "%s iteration %d: large max %ld", what, it, big_dst[9999]);
        }
    }
    return calls;
}

static void disjoint(void)
{
    shmem_team_t half = SHMEM_TEAM_INVALID, x = SHMEM_TEAM_INVALID, y = SHMEM_TEAM_INVALID;
    static long mine, total;
    long want = 0;
    int even = me % 2 == 0;

    /* Evens and odds: two splits, every PE in one. */
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &half);
    if (npes >= 2) {
        shmem_team_t odd = SHMEM_TEAM_INVALID;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd);
        if (!even)
            half = odd;
    }
    mine = loop(half, even ? 120 : 80, even ? 5 : 300, even ? "evens" : "odds");
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &total, &mine, 1);
    for (int pe = 0; pe < npes; pe++)
        want += pe % 2 ? 80 * 4 + 5 : 120 * 4 + 8;
    EXPECT(total == want, "collectives run in all %ld, want %ld", total, want);
    shmem_team_destroy(half);

    /* Rows and columns of a 2-d split (xrange 3): the rows at once, then the columns. */
    shmem_team_split_2d(SHMEM_TEAM_WORLD, 3, NULL, 0, &x, NULL, 0, &y);
    loop(x, 40, 40, "2-d rows");
    loop(y, 30 + 5 * shmem_team_my_pe(x), 9, "2-d columns");
    shmem_team_destroy(x);
    shmem_team_destroy(y);
    shmem_barrier_all();
}

/* A team of PEs 0 and 1 is destroyed; at once the evens split a team with PE 0 in it, which
 * takes the same slot (the lowest free on the evens). PE 0 arrives last at the destroy, so PE
 * 1 may still be on its way out of that barrier. */
static void slot_reuse(void)
{
    shmem_team_t evens = SHMEM_TEAM_INVALID;

    if (npes < 3)
        return;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens);
    for (int round = 0; round < 100; round++) {
        shmem_team_t pair = SHMEM_TEAM_INVALID, f = SHMEM_TEAM_INVALID;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 2, NULL, 0, &pair);
        if (pair != SHMEM_TEAM_INVALID) {
            static int v, out;
            v = me;
            shmem_int_sum_reduce(pair, &out, &v, 1);
            EXPECT(out == 1, "round %d: the pair sums to %d", round, out);
            /* A barrier before the destroy's, so that the release word of the destroy's holds
             * a value the next team's first barrier does not give. */
            shmem_team_sync(pair);
            if (me == 0)
                for (int i = 0; i < 4; i++)
                    sched_yield();
            shmem_team_destroy(pair);
        }
        if (evens != SHMEM_TEAM_INVALID) {
            shmem_team_split_strided(evens, 0, 1, 2, NULL, 0, &f);
            if (f != SHMEM_TEAM_INVALID) {
                static int v, out;
                v = me;
                shmem_int_sum_reduce(f, &out, &v, 1);
                EXPECT(out == 2, "round %d: PEs 0 and 2 sum to %d", round, out);
                shmem_team_destroy(f);
            }
        }
    }
    shmem_team_destroy(evens);
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    test_start();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (argc > 1 && !strcmp(argv[1], "slot-reuse")) {
        slot_reuse();
        return test_finish("coll_concurrent slot-reuse");
    }
    disjoint();
    return test_finish("coll_concurrent");
}
