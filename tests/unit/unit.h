/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The checks of the unit tests (one process, no launcher): CHECK counts a failure and prints
 * where it happened and why, without stopping, so one run reports every broken case; main
 * returns unit_result() so the test fails when any check failed.
 */
#ifndef SYMM_TEST_UNIT_H
#define SYMM_TEST_UNIT_H

#include <stdio.h>

static int unit_failures;
static int unit_checks;

#define CHECK(cond, ...)                                                                         \
    do {                                                                                        \
        unit_checks++;                                                                          \
        if (!(cond)) {                                                                          \
            unit_failures++;                                                                    \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                     \
            fprintf(stderr, __VA_ARGS__);                                                       \
            fputc('\n', stderr);                                                                \
        }                                                                                       \
    } while (0)

static inline int unit_result(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, unit_checks, unit_failures);
    return unit_failures ? 1 : 0;
}

#endif
