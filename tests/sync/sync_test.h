/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The checks of the sync tests. CHECK counts a failure and prints it (the first few per PE)
 * with the PE number; its counters are atomic, so threads may use it. sync_finish adds every
 * PE's failures on PE 0, which prints one summary line; each PE returns non-zero when it
 * failed, PE 0 when any PE did, so the job fails. Also the type predicates the tests use to
 * pick values a type can hold.
 */
#ifndef SYMM_TEST_SYNC_H
#define SYMM_TEST_SYNC_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include <shmem.h>

#define SYNC_MAX_PES 64
#define SYNC_PRINT_LIMIT 20

/* The _Generic selectors expand SYMM_TYPES themselves, which the preprocessor refuses inside an
 * expansion of SYMM_TYPES. A row macro that uses them is deferred: SYNC_EXPAND(SYMM_TYPES(
 * SYNC_ROW, M)) expands M(row...) once the table itself is expanded. */
#define SYNC_EMPTY()
#define SYNC_DEFER(m) m SYNC_EMPTY()
#define SYNC_EXPAND(...) __VA_ARGS__
#define SYNC_ROW(M, ...) SYNC_DEFER(M)(M, __VA_ARGS__)

#define IS_FLOAT(T) ((T)0.5 != (T)0)
#define IS_SIGNED(T) ((T)-1 < (T)0)

static atomic_long sync_failures;
static atomic_long sync_checks;
static long sync_job_failures; /* a global: symmetric; the sum lands on PE 0 */

static void sync_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void sync_fail(const char *file, int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    if (atomic_fetch_add(&sync_failures, 1) >= SYNC_PRINT_LIMIT)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    fprintf(stderr, "FAIL [pe %d] %s:%d: %s\n", shmem_my_pe(), file, line, msg);
    fflush(stderr);
}

#define CHECK(cond, ...)                                                                         \
    do {                                                                                        \
        atomic_fetch_add_explicit(&sync_checks, 1, memory_order_relaxed);                       \
        if (!(cond))                                                                            \
            sync_fail(__FILE__, __LINE__, __VA_ARGS__);                                         \
    } while (0)

/* Collective: prints the summary on PE 0, finalizes, returns the exit status. */
static inline int sync_finish(const char *name)
{
    long mine = atomic_load(&sync_failures), total;

    shmem_barrier_all();
    shmem_long_atomic_add(&sync_job_failures, mine, 0);
    shmem_barrier_all();
    total = shmem_my_pe() == 0 ? shmem_long_atomic_fetch(&sync_job_failures, 0) : mine;
    if (shmem_my_pe() == 0) {
        printf("%s: %d PEs, %ld checks on pe 0, %ld failures in all\n", name, shmem_n_pes(),
               atomic_load(&sync_checks), total);
        fflush(stdout);
    }
    shmem_finalize();
    return (mine || total) ? 1 : 0;
}

#endif
