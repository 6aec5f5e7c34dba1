/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * What the collective tests run on, beside the harness (tests/harness.h): the teams in three
 * groups (world and shared; strided splits with strides 1, 2 and 3, odd sizes and a split of a
 * split; the x and y teams of a 2-d split whose xrange does not divide every job size), and the
 * values and guard bytes the type-table loops check.
 */
#ifndef SYMM_TEST_COLL_CASES_H
#define SYMM_TEST_COLL_CASES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../harness.h"

/* ---- The teams every test runs on ------------------------------------------------------------
 * Made by every PE in the same order; team is SHMEM_TEAM_INVALID where this PE is not a
 * member. `split` says the case owns the handle (coll_teams_free destroys it). */
typedef struct coll_team {
    const char *name;
    shmem_team_t team;
    int split;
} coll_team_t;

#define COLL_TEAMS_MAX 16

static inline int coll_split(coll_team_t *tc, int k, const char *name, shmem_team_t parent,
                             int start, int stride, int size)
{
    shmem_team_t t = SHMEM_TEAM_INVALID;
    int rc = shmem_team_split_strided(parent, start, stride, size, NULL, 0, &t);

    EXPECT(rc == 0, "split %s (start %d, stride %d, size %d) returned %d", name, start, stride,
           size, rc);
    tc[k] = (coll_team_t){name, t, 1};
    return k + 1;
}

/* Fills tc with the teams of a group, returns their number (the same on every PE). Groups:
 * "world" (SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED), "split" (evens and odds, stride 3 from 1,
 * all but PE 0, and the evens from their second: a split of a split), "2d" (the x and y teams
 * of a 2-d split with xrange 3), or NULL for all. A group is one test: a few hundred
 * collectives per team keep each test short even with more PEs than CPUs under load. */
static inline int coll_teams(coll_team_t *tc, const char *group)
{
    int n = shmem_n_pes(), k = 0, ne = (n + 1) / 2, rc;
    shmem_team_t evens, x = SHMEM_TEAM_INVALID, y = SHMEM_TEAM_INVALID;

    if (!group || !strcmp(group, "world")) {
        tc[k++] = (coll_team_t){"world", SHMEM_TEAM_WORLD, 0};
        tc[k++] = (coll_team_t){"shared", SHMEM_TEAM_SHARED, 0};
    }
    if (!group || !strcmp(group, "split")) {
        k = coll_split(tc, k, "evens (stride 2)", SHMEM_TEAM_WORLD, 0, 2, ne);
        evens = tc[k - 1].team;
        if (n >= 2) {
            k = coll_split(tc, k, "odds (start 1, stride 2)", SHMEM_TEAM_WORLD, 1, 2, n / 2);
            k = coll_split(tc, k, "start 1 stride 3", SHMEM_TEAM_WORLD, 1, 3, (n - 1 + 2) / 3);
            k = coll_split(tc, k, "all but pe 0 (stride 1)", SHMEM_TEAM_WORLD, 1, 1, n - 1);
        }
        /* A split of a split: members of evens only take part. */
        if (ne >= 2) {
            tc[k] = (coll_team_t){"evens from their second (split of a split)",
                                  SHMEM_TEAM_INVALID, 1};
            if (evens != SHMEM_TEAM_INVALID)
                coll_split(tc, k, tc[k].name, evens, 1, 1, ne - 1);
            k++;
        }
    }
    if (!group || !strcmp(group, "2d")) {
        rc = shmem_team_split_2d(SHMEM_TEAM_WORLD, 3, NULL, 0, &x, NULL, 0, &y);
        EXPECT(rc == 0, "shmem_team_split_2d(xrange=3) returned %d", rc);
        tc[k++] = (coll_team_t){"2d x axis (xrange 3)", x, 1};
        tc[k++] = (coll_team_t){"2d y axis (xrange 3)", y, 1};
    }
    return k;
}

/* Collective over the world, after every PE left the test bodies. */
static inline void coll_teams_free(coll_team_t *tc, int k)
{
    /* Destroy in reverse order of creation: the split of a split before its parent. */
    for (int i = k - 1; i >= 0; i--)
        if (tc[i].split && tc[i].team != SHMEM_TEAM_INVALID)
            shmem_team_destroy(tc[i].team);
    shmem_barrier_all();
}

/* World PE of team PE i. */
static inline int coll_wpe(shmem_team_t t, int i)
{
    return shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD);
}

/* ---- Values -------------------------------------------------------------------------------
 * Element i of world PE pe's data, repeating with period COLL_PERIOD (coprime to the slice
 * granularity of the library) so large results are checked against a table of COLL_PERIOD
 * entries. Small enough for every type of the table. */
#define COLL_PERIOD 61
#define COLL_VAL(T, pe, i, salt)                                                                 \
    ((T)(((pe) * 37 + (int)((i) % COLL_PERIOD) * 5 + (salt)) % 120))

/* Bytes after an expected extent that must not be written. */
#define COLL_CANARY 0xa5
#define COLL_GUARD 64

static inline int coll_untouched(const void *p, size_t len)
{
    const unsigned char *b = p;

    for (size_t i = 0; i < len; i++)
        if (b[i] != COLL_CANARY)
            return 0;
    return 1;
}

#endif
