/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Bad collective calls, one per run (the mode is the first argument), judged by
 * tests/run_expect_fail.sh: the job must fail with a one-line message naming the call, the team
 * and the bad value. A collective on SHMEM_TEAM_INVALID (made by the last PE only, while the others
 * wait in a barrier, so the job must be brought down from that PE) and on a destroyed team;
 * a broadcast root out of range; dest overlapping source in fcollect, alltoall and a
 * reduction (partially), and in the scans; and, under SHMEM_DEBUG=1, a count or a root that
 * differs across PEs (PE 1 disagrees); a team from an id no PE made, and one whose members
 * are not in increasing order of PEs. A mode the library lets through ends the program with
 * status 0 and says so.
 */
#include <shmemx.h>

#include "cases.h"

static long buf[64];
static long out[64 * TEST_MAX_PES];
static int ibuf[16], iout[16];
static long psync[SHMEM_SYNC_SIZE];

typedef struct mode {
    const char *name;
    void (*bad)(int me, int n);
} bad_mode_t;

static void invalid_reduce(int me, int n)
{
    if (me == n - 1)
        shmem_int_sum_reduce(SHMEM_TEAM_INVALID, iout, ibuf, 4);
    shmem_barrier_all();
}

static void invalid_bcast(int me, int n)
{
    shmem_long_broadcast(SHMEM_TEAM_INVALID, out, buf, 4, 0);
}

static void invalid_sync(int me, int n)
{
    shmem_team_sync(SHMEM_TEAM_INVALID);
}

static void invalid_scan(int me, int n)
{
    shmem_int_sum_inscan(SHMEM_TEAM_INVALID, iout, ibuf, 4);
}

static shmem_team_t destroyed(void)
{
    shmem_team_t t = SHMEM_TEAM_INVALID;

    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &t);
    shmem_team_destroy(t);
    return t;
}

static void destroyed_bcast(int me, int n)
{
    shmem_long_broadcast(destroyed(), out, buf, 4, 0);
}

static void destroyed_fcollect(int me, int n)
{
    shmem_long_fcollect(destroyed(), out, buf, 4);
}

static void destroyed_sync(int me, int n)
{
    shmem_team_sync(destroyed());
}

static void root_high(int me, int n)
{
    shmem_long_broadcast(SHMEM_TEAM_WORLD, out, buf, 4, n);
}

static void root_neg(int me, int n)
{
    shmem_broadcastmem(SHMEM_TEAM_WORLD, out, buf, 8, -1);
}

static void root_high_split(int me, int n)
{
    shmem_team_t t = SHMEM_TEAM_INVALID;

    /* Every PE but 0: a team of n - 1, where root n - 1 is one too many. */
    if (n < 2)
        t = SHMEM_TEAM_WORLD;
    else
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, n - 1, NULL, 0, &t);
    if (t != SHMEM_TEAM_INVALID)
        shmem_long_broadcast(t, out, buf, 4, shmem_team_n_pes(t));
    shmem_barrier_all();
}

static void fcollect_overlap(int me, int n)
{
    /* dest is n blocks of 2 from out; source starts in the middle of the last. */
    shmem_long_fcollect(SHMEM_TEAM_WORLD, out, out + 2 * (n - 1) + 1, 2);
}

static void alltoall_overlap(int me, int n)
{
    shmem_long_alltoall(SHMEM_TEAM_WORLD, out, out, 2);
}

static void reduce_partial(int me, int n)
{
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, out + 1, out, 8);
}

static void scan_partial(int me, int n)
{
    shmem_long_sum_exscan(SHMEM_TEAM_WORLD, out, out + 3, 8);
}

static void debug_count(int me, int n)
{
    shmem_int_sum_reduce(SHMEM_TEAM_WORLD, iout, ibuf, me == 1 ? 5 : 4);
}

static void debug_count_bcast(int me, int n)
{
    shmem_long_broadcast(SHMEM_TEAM_WORLD, out, buf, me == 1 ? 5 : 4, 0);
}

static void debug_count_fcollect(int me, int n)
{
    shmem_long_fcollect(SHMEM_TEAM_WORLD, out, buf, me == 1 ? 5 : 4);
}

static void debug_root(int me, int n)
{
    shmem_long_broadcast(SHMEM_TEAM_WORLD, out, buf, 4, me == 1 ? 1 : 0);
}

static void debug_root_large(int me, int n)
{
    static long big[20000], bigout[20000];

    shmem_long_broadcast(SHMEM_TEAM_WORLD, bigout, big, 20000, me == 1 ? 1 : 0);
}

static void debug_op(int me, int n)
{
    if (me == 1)
        shmem_int_max_reduce(SHMEM_TEAM_WORLD, iout, ibuf, 4);
    else
        shmem_int_sum_reduce(SHMEM_TEAM_WORLD, iout, ibuf, 4);
}

static void aset_not_member(int me, int n)
{
    /* The last PE calls for a set of the PEs before it (or of no PE at all). */
    if (me == n - 1)
        shmem_barrier(0, 0, n > 1 ? n - 1 : 1, psync);
    shmem_barrier_all();
}

/* An id no PE made (the last PE; the others wait). */
static void uid_bad(int me, int n)
{
    shmem_team_t t;

    if (me == n - 1)
        shmemx_team_init(0x1234ull, n, me, NULL, 0, &t);
}

/* Members in reverse order: member 0 is the last PE. */
static void uid_reversed(int me, int n)
{
    static uint64_t id;
    shmem_team_t t;

    if (me == 0)
        shmemx_team_get_uniqueid(&id);
    shmem_barrier_all();
    shmem_uint64_get(&id, &id, 1, 0);
    shmemx_team_init(id, n, n - 1 - me, NULL, 0, &t);
}

static const bad_mode_t modes[] = {
    {"invalid_reduce", invalid_reduce},
    {"invalid_bcast", invalid_bcast},
    {"invalid_sync", invalid_sync},
    {"invalid_scan", invalid_scan},
    {"destroyed_bcast", destroyed_bcast},
    {"destroyed_fcollect", destroyed_fcollect},
    {"destroyed_sync", destroyed_sync},
    {"root_high", root_high},
    {"root_neg", root_neg},
    {"root_high_split", root_high_split},
    {"fcollect_overlap", fcollect_overlap},
    {"alltoall_overlap", alltoall_overlap},
    {"reduce_partial", reduce_partial},
    {"scan_partial", scan_partial},
    {"debug_count", debug_count},
    {"debug_count_bcast", debug_count_bcast},
    {"debug_count_fcollect", debug_count_fcollect},
    {"debug_root", debug_root},
    {"debug_root_large", debug_root_large},
    {"debug_op", debug_op},
    {"aset_not_member", aset_not_member},
    {"uid_bad", uid_bad},
    {"uid_reversed", uid_reversed},
};

int main(int argc, char **argv)
{
    const bad_mode_t *m = NULL;
    int me, n;

    for (size_t i = 0; argc > 1 && i < sizeof(modes) / sizeof(modes[0]); i++)
        if (!strcmp(argv[1], modes[i].name))
            m = &modes[i];
    if (!m) {
        fprintf(stderr, "usage: errors MODE (see tests/coll/errors.c)\n");
        return 2;
    }
    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    m->bad(me, n);
    shmem_barrier_all();
    if (me == 0)
        printf("errors: %s was not reported\n", m->name);
    shmem_finalize();
    return 0;
}
