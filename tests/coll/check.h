/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * What the collective tests share: EXPECT (counts and prints a failure with the PE number),
 * coll_finish (one summary line for the job from PE 0, non-zero exit status when any PE
 * failed), the teams the tests run on in three groups (world and shared; strided splits with
 * strides 1, 2 and 3, odd sizes and a split of a split; the x and y teams of a 2-d split whose
 * xrange does not divide every job size), and the helpers the type-table loops use.
 */
#ifndef SYMM_TEST_COLL_CHECK_H
#define SYMM_TEST_COLL_CHECK_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shmem.h>

#define COLL_MAX_PES 64
#define COLL_PRINT_LIMIT 20

static long coll_errors;
static long coll_checks;
static long coll_counts[COLL_MAX_PES]; /* a global: symmetric */

static void coll_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void coll_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;

    if (++coll_errors > COLL_PRINT_LIMIT)
        return;
    fprintf(stderr, "FAIL [pe %d] %s:%d: ", shmem_my_pe(), file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
}

#define EXPECT(cond, ...)                                                                        \
    do {                                                                                        \
        coll_checks++;                                                                          \
        if (!(cond))                                                                            \
            coll_fail(__FILE__, __LINE__, __VA_ARGS__);                                         \
    } while (0)

/* Collective over the world. Prints the summary on PE 0 and finalizes; returns the status. */
static inline int coll_finish(const char *name)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    long total = 0;

    shmem_barrier_all();
    shmem_long_p(&coll_counts[me], coll_errors, 0);
    shmem_barrier_all();
    if (me == 0) {
        for (int pe = 0; pe < n; pe++)
            total += coll_counts[pe];
        printf("%s: %d PEs, %ld checks on pe 0, %ld failures in all\n", name, n, coll_checks,
               total);
        fflush(stdout);
    }
    shmem_finalize();
    return (coll_errors || total) ? 1 : 0;
}

static inline void coll_start(void)
{
    shmem_init();
    if (shmem_n_pes() > COLL_MAX_PES) {
        fprintf(stderr, "more than %d PEs\n", COLL_MAX_PES);
        exit(1);
    }
}

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
