/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The checks of the SPMD tests. EXPECT counts a failure on this PE and prints it (the first
 * few per PE) with the PE number; spmd_finish gathers the counts on PE 0, which prints one
 * summary line for the job, and every PE returns non-zero when any PE failed.
 */
#ifndef SYMM_TEST_SPMD_H
#define SYMM_TEST_SPMD_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <shmem.h>

#define SPMD_MAX_PES 64
#define SPMD_PRINT_LIMIT 20

static long spmd_errors;
static long spmd_checks;
static long spmd_counts[SPMD_MAX_PES]; /* a global: symmetric */

static void spmd_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void spmd_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;

    if (++spmd_errors > SPMD_PRINT_LIMIT)
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
        spmd_checks++;                                                                          \
        if (!(cond))                                                                            \
            spmd_fail(__FILE__, __LINE__, __VA_ARGS__);                                         \
    } while (0)

/* Collective. Prints the summary on PE 0 and finalizes; returns the exit status. */
static inline int spmd_finish(const char *name)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    long total = 0, checks = 0;

    if (n > SPMD_MAX_PES) {
        fprintf(stderr, "%s: more than %d PEs\n", name, SPMD_MAX_PES);
        return 1;
    }
    shmem_barrier_all();
    shmem_long_p(&spmd_counts[me], spmd_errors, 0);
    shmem_barrier_all();
    if (me == 0) {
        for (int pe = 0; pe < n; pe++)
            total += spmd_counts[pe];
        checks = spmd_checks;
        printf("%s: %d PEs, %ld checks on pe 0, %ld failures in all\n", name, n, checks, total);
        fflush(stdout);
    }
    shmem_finalize();
    return (spmd_errors || total) ? 1 : 0;
}

#endif
