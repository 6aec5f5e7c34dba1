/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Point-to-point synchronization: wait_until and test with their all/any/some and vector
 * forms, for every row of the type table with WAIT set, and the signal waits. One engine
 * serves all of them: a set of elements, each with its comparison value, an exclusion status
 * and a per-type "is it satisfied" function; waiting goes through symm_wait_for (spin, yield,
 * sleep on the doorbell that writers ring).
 */
#include <stdint.h>
#include <string.h>

#include "core/core.h"
#include "sync/sync.h"

typedef int (*sat_fn)(const void *elem, int cmp, const void *value);

typedef struct elem_set {
    const char *ivars;
    size_t n;
    size_t size;
    const int *status;
    int cmp;
    const char *values;   /* one value, or one per element */
    size_t vstride;       /* 0 for one value */
    sat_fn sat;
} elem_set_t;

static int sat_at(const elem_set_t *s, size_t i)
{
    return s->sat(s->ivars + i * s->size, s->cmp, s->values + i * s->vstride);
}

static int excluded(const elem_set_t *s, size_t i)
{
    return s->status && s->status[i];
}

/* Where the next search for a satisfied element starts, per thread: each answer moves it past
 * the element returned, so repeated calls over elements that stay satisfied return each in
 * turn and a program that serves whichever is ready reaches them all. */
static _Thread_local size_t turn;

/* The first satisfied element from the turn on, or SIZE_MAX; an answer (advance) moves the
 * turn past it, a readiness check does not. */
static size_t scan(const elem_set_t *s, int advance)
{
    size_t start = s->n ? turn % s->n : 0;

    for (size_t k = 0; k < s->n; k++) {
        size_t i = start + k < s->n ? start + k : start + k - s->n;
        if (!excluded(s, i) && sat_at(s, i)) {
            if (advance)
                turn = i + 1;
            return i;
        }
    }
    return SIZE_MAX;
}

static size_t first_sat(const elem_set_t *s)
{
    return scan(s, 1);
}

static int all_sat(const void *arg)
{
    const elem_set_t *s = arg;

    for (size_t i = 0; i < s->n; i++)
        if (!excluded(s, i) && !sat_at(s, i))
            return 0;
    return 1;
}

static int any_sat(const void *arg)
{
    return scan(arg, 0) != SIZE_MAX;
}

static int any_included(const elem_set_t *s)
{
    for (size_t i = 0; i < s->n; i++)
        if (!excluded(s, i))
            return 1;
    return 0;
}

static size_t collect(const elem_set_t *s, size_t *indices)
{
    size_t k = 0;

    for (size_t i = 0; i < s->n; i++)
        if (!excluded(s, i) && sat_at(s, i))
            indices[k++] = i;
    return k;
}

/* The engine entries; `mode` picks the family. */
enum { WAIT_ALL, WAIT_ANY, WAIT_SOME, TEST_ALL, TEST_ANY, TEST_SOME };

static size_t run(int mode, const elem_set_t *s, size_t *indices)
{
    switch (mode) {
    case WAIT_ALL:
        if (!all_sat(s))
            symm_wait_for(all_sat, s, s->ivars, s->n * s->size);
        return 0;
    case WAIT_ANY:
        if (!any_included(s))
            return SIZE_MAX;
        if (!any_sat(s))
            symm_wait_for(any_sat, s, s->ivars, s->n * s->size);
        return first_sat(s);
    case WAIT_SOME:
        if (!any_included(s))
            return 0;
        if (!any_sat(s))
            symm_wait_for(any_sat, s, s->ivars, s->n * s->size);
        return collect(s, indices);
    case TEST_ALL:
        return (size_t)all_sat(s);
    case TEST_ANY:
        return first_sat(s);
    default:
        return collect(s, indices);
    }
}

/* Checks the arguments shared by every form: a known comparison and symmetric objects. */
static void check(const char *call, const void *ivars, size_t n, size_t size, int cmp,
                  const void *values, const size_t *indices, int some)
{
    const char *what = strstr(call, "signal") ? "sig_addr" : "ivars";
    size_t len;

    symm_check_init(call);
    if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE)
        symm_fatal("%s(%s=%p, cmp=%d): unknown comparison (SHMEM_CMP_EQ .. SHMEM_CMP_LE, "
                   "0..5)", call, what, ivars, cmp);
    if (__builtin_mul_overflow(n, size, &len))
        symm_fatal("%s(%s=%p, nelems=%zu): %zu elements of %zu bytes overflow the address space",
                   call, what, ivars, n, n, size);
    if (n && !symm_xlate(ivars, len, symm_g.my_pe))
        symm_fatal("%s(%s=%p, nelems=%zu): not symmetric memory of this PE", call, what, ivars,
                   n);
    if (n && (!values || (some && !indices)))
        symm_fatal("%s(ivars=%p, nelems=%zu): %s is NULL", call, ivars, n,
                   values ? "indices" : "cmp_values");
}

/* Per row with WAIT: its comparison (TYPE_sat), the wait on one variable and the shells,
 * written by cmake/gen_api.c. */
#include "sync/gen/typed_wait.c"

SYMM_EXPORT void shmem_wait(long *ivar, long cmp_value)
{
    symm_long_wait_one("shmem_wait", ivar, SHMEM_CMP_NE, cmp_value);
}

SYMM_EXPORT void shmem_wait_until(long *ivar, int cmp, long cmp_value)
{
    symm_long_wait_one("shmem_wait_until", ivar, cmp, cmp_value);
}

/* ---- Signal waits ------------------------------------------------------------------------ */
SYMM_EXPORT uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
    elem_set_t s = {.ivars = (const char *)sig_addr, .n = 1, .size = 8, .cmp = cmp,
                    .values = (const char *)&cmp_value, .sat = uint64_sat};

    check("shmem_signal_wait_until", sig_addr, 1, 8, cmp, &cmp_value, NULL, 0);
    run(WAIT_ALL, &s, NULL);
    return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
}

SYMM_EXPORT uint64_t shmem_signal_fetch(const uint64_t *sig_addr)
{
    symm_check_init("shmem_signal_fetch");
    if (!symm_xlate(sig_addr, 8, symm_g.my_pe))
        symm_fatal("shmem_signal_fetch(sig_addr=%p): not symmetric memory of this PE",
                   (const void *)sig_addr);
    return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
}
