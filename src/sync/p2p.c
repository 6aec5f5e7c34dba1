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

#include "core/state.h"

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

#define CMP_BODY(T)                                                                              \
    T a = __atomic_load_n((const T *)elem, __ATOMIC_ACQUIRE), b = *(const T *)value;            \
    switch (cmp) {                                                                              \
    case SHMEM_CMP_EQ: return a == b;                                                           \
    case SHMEM_CMP_NE: return a != b;                                                           \
    case SHMEM_CMP_GT: return a > b;                                                            \
    case SHMEM_CMP_GE: return a >= b;                                                           \
    case SHMEM_CMP_LT: return a < b;                                                            \
    default: return a <= b;                                                                     \
    }

#define SET(NAME, T, IV, N, ST, VALS, VSTRIDE)                                                   \
    (elem_set_t){.ivars = (const char *)(IV), .n = (N), .size = sizeof(T), .status = (ST),      \
                 .cmp = cmp, .values = (const char *)(VALS), .vstride = (VSTRIDE),              \
                 .sat = NAME##_sat}

#define ENTRY(RET, NAME, T, OP, MODE, PARAMS, IV, N, ST, IDX, VALS, VSTRIDE)                     \
    SYMM_EXPORT RET shmem_##NAME##_##OP PARAMS                                                  \
    {                                                                                           \
        elem_set_t s = SET(NAME, T, IV, N, ST, VALS, VSTRIDE);                                  \
        check("shmem_" #NAME "_" #OP, IV, N, sizeof(T), cmp, VALS, IDX, MODE == WAIT_SOME ||    \
              MODE == TEST_SOME);                                                               \
        return (RET)run(MODE, &s, IDX);                                                         \
    }

#define WAIT_FAMILY(NAME, T)                                                                     \
    static int NAME##_sat(const void *elem, int cmp, const void *value)                         \
    {                                                                                           \
        CMP_BODY(T)                                                                             \
    }                                                                                           \
    void symm_##NAME##_wait_one(const char *call, T *ivar, int cmp, T cmp_value);               \
    void symm_##NAME##_wait_one(const char *call, T *ivar, int cmp, T cmp_value)                \
    {                                                                                           \
        elem_set_t s = SET(NAME, T, ivar, 1, NULL, &cmp_value, 0);                              \
        check(call, ivar, 1, sizeof(T), cmp, &cmp_value, NULL, 0);                              \
        run(WAIT_ALL, &s, NULL);                                                                \
    }                                                                                           \
    SYMM_EXPORT void shmem_##NAME##_wait_until(T *ivar, int cmp, T cmp_value)                   \
    {                                                                                           \
        symm_##NAME##_wait_one("shmem_" #NAME "_wait_until", ivar, cmp, cmp_value);             \
    }                                                                                           \
    SYMM_EXPORT void shmem_##NAME##_wait(T *ivar, T cmp_value)                                  \
    {                                                                                           \
        symm_##NAME##_wait_one("shmem_" #NAME "_wait", ivar, SHMEM_CMP_NE, cmp_value);          \
    }                                                                                           \
    SYMM_EXPORT void shmem_##NAME##_wait_until_all(T *ivars, size_t nelems, const int *status,  \
                                                   int cmp, T cmp_value)                        \
    {                                                                                           \
        elem_set_t s = SET(NAME, T, ivars, nelems, status, &cmp_value, 0);                      \
        check("shmem_" #NAME "_wait_until_all", ivars, nelems, sizeof(T), cmp, &cmp_value,      \
              NULL, 0);                                                                         \
        run(WAIT_ALL, &s, NULL);                                                                \
    }                                                                                           \
    SYMM_EXPORT void shmem_##NAME##_wait_until_all_vector(T *ivars, size_t nelems,              \
                                                          const int *status, int cmp,           \
                                                          T *cmp_values)                        \
    {                                                                                           \
        elem_set_t s = SET(NAME, T, ivars, nelems, status, cmp_values, sizeof(T));              \
        check("shmem_" #NAME "_wait_until_all_vector", ivars, nelems, sizeof(T), cmp,           \
              cmp_values, NULL, 0);                                                             \
        run(WAIT_ALL, &s, NULL);                                                                \
    }                                                                                           \
    ENTRY(size_t, NAME, T, wait_until_any, WAIT_ANY,                                            \
          (T * ivars, size_t nelems, const int *status, int cmp, T cmp_value), ivars, nelems,   \
          status, NULL, &cmp_value, 0)                                                          \
    ENTRY(size_t, NAME, T, wait_until_some, WAIT_SOME,                                          \
          (T * ivars, size_t nelems, size_t *indices, const int *status, int cmp, T cmp_value), \
          ivars, nelems, status, indices, &cmp_value, 0)                                        \
    ENTRY(size_t, NAME, T, wait_until_any_vector, WAIT_ANY,                                     \
          (T * ivars, size_t nelems, const int *status, int cmp, T *cmp_values), ivars, nelems, \
          status, NULL, cmp_values, sizeof(T))                                                  \
    ENTRY(size_t, NAME, T, wait_until_some_vector, WAIT_SOME,                                   \
          (T * ivars, size_t nelems, size_t *indices, const int *status, int cmp,               \
           T *cmp_values),                                                                      \
          ivars, nelems, status, indices, cmp_values, sizeof(T))                                \
    ENTRY(int, NAME, T, test, TEST_ALL, (T * ivar, int cmp, T cmp_value), ivar, 1, NULL, NULL,  \
          &cmp_value, 0)                                                                        \
    ENTRY(int, NAME, T, test_all, TEST_ALL,                                                     \
          (T * ivars, size_t nelems, const int *status, int cmp, T cmp_value), ivars, nelems,   \
          status, NULL, &cmp_value, 0)                                                          \
    ENTRY(size_t, NAME, T, test_any, TEST_ANY,                                                  \
          (T * ivars, size_t nelems, const int *status, int cmp, T cmp_value), ivars, nelems,   \
          status, NULL, &cmp_value, 0)                                                          \
    ENTRY(size_t, NAME, T, test_some, TEST_SOME,                                                \
          (T * ivars, size_t nelems, size_t *indices, const int *status, int cmp, T cmp_value), \
          ivars, nelems, status, indices, &cmp_value, 0)                                        \
    ENTRY(int, NAME, T, test_all_vector, TEST_ALL,                                              \
          (T * ivars, size_t nelems, const int *status, int cmp, T *cmp_values), ivars, nelems, \
          status, NULL, cmp_values, sizeof(T))                                                  \
    ENTRY(size_t, NAME, T, test_any_vector, TEST_ANY,                                           \
          (T * ivars, size_t nelems, const int *status, int cmp, T *cmp_values), ivars, nelems, \
          status, NULL, cmp_values, sizeof(T))                                                  \
    ENTRY(size_t, NAME, T, test_some_vector, TEST_SOME,                                         \
          (T * ivars, size_t nelems, size_t *indices, const int *status, int cmp,               \
           T *cmp_values),                                                                      \
          ivars, nelems, status, indices, cmp_values, sizeof(T))

#define ROW(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)                  \
    SYMM_IF_##WAIT(WAIT_FAMILY(NAME, T))
SYMM_TYPES(ROW, _)

SYMM_EXPORT void shmem_wait(long *ivar, long cmp_value)
{
    symm_long_wait_one("shmem_wait", ivar, SHMEM_CMP_NE, cmp_value);
}

SYMM_EXPORT void shmem_wait_until(long *ivar, int cmp, long cmp_value)
{
    symm_long_wait_one("shmem_wait_until", ivar, cmp, cmp_value);
}

/* ---- Signal waits ------------------------------------------------------------------------ */
static int sig_sat(const void *elem, int cmp, const void *value)
{
    typedef uint64_t T;
    CMP_BODY(T)
}

SYMM_EXPORT uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
    elem_set_t s = {.ivars = (const char *)sig_addr, .n = 1, .size = 8, .cmp = cmp,
                    .values = (const char *)&cmp_value, .sat = sig_sat};

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
