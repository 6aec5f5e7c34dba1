/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Bad calls to atomics, waits, signals, locks and contexts, one per run, chosen by name on
 * the command line: misaligned and non-symmetric addresses, a PE out of range, an element
 * count whose size overflows, unknown comparison, signal and option constants, and contexts
 * that were destroyed or cannot be. The last PE makes the call while the others wait in a
 * barrier: the call must end the whole job with one line naming the call, the PE and the bad
 * value (tests/sync/CMakeLists.txt holds the expected line of each case).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shmem.h>

static long *heap;        /* 4 longs */
static uint64_t *sigs;    /* 2 signal words */
static int npes;

static void amo_misaligned(void)
{
    shmem_long_atomic_add((long *)((char *)heap + 4), 1, 0);
}

static void amo_ctx_misaligned(void)
{
    (void)shmem_ctx_int_atomic_fetch_inc(SHMEM_CTX_DEFAULT, (int *)((char *)heap + 2), 0);
}

static void amo_stack(void)
{
    long x = 0;

    (void)shmem_long_atomic_fetch_add(&x, 1, 0);
}

static void amo_malloc(void)
{
    unsigned int *u = calloc(1, sizeof(*u));

    shmem_uint_atomic_or(u, 1u, 0);
}

static void amo_generic_stack(void)
{
    unsigned long long x = 0;

    (void)shmem_atomic_swap(&x, 3ULL, 0);
}

static void amo_old_stack(void)
{
    int x = 0;

    (void)shmem_int_fadd(&x, 1, 0);
}

static void amo_pe_high(void)
{
    shmem_long_atomic_inc(heap, npes);
}

static void wait_stack(void)
{
    long x = 0;

    shmem_long_wait_until(&x, SHMEM_CMP_EQ, 1);
}

static void wait_all_malloc(void)
{
    int *v = calloc(4, sizeof(*v));

    shmem_int_wait_until_all(v, 4, NULL, SHMEM_CMP_EQ, 1);
}

static void test_any_stack(void)
{
    unsigned long v[3] = {0, 0, 0};

    (void)shmem_ulong_test_any(v, 3, NULL, SHMEM_CMP_EQ, 1);
}

static void signal_wait_stack(void)
{
    uint64_t s = 0;

    (void)shmem_signal_wait_until(&s, SHMEM_CMP_EQ, 1);
}

static void old_wait_stack(void)
{
    long x = 0;

    shmem_wait(&x, 0);
}

static void old_wait_until_stack(void)
{
    long x = 0;

    (shmem_wait_until)(&x, SHMEM_CMP_EQ, 1);
}

static void old_typed_wait_stack(void)
{
    int x = 0;

    shmem_int_wait(&x, 0);
}

static void test_all_overflow(void)
{
    /* nelems * sizeof(long) wraps around to 8 */
    (void)shmem_long_test_all(heap, SIZE_MAX / 8 + 2, NULL, SHMEM_CMP_EQ, 0);
}

static void wait_cmp(void)
{
    shmem_int_wait_until((int *)heap, 42, 0);
}

static void test_cmp(void)
{
    (void)shmem_long_test(heap, -1, 0);
}

static void wait_vector_cmp(void)
{
    uint64_t values[2] = {0, 0};

    (void)shmem_uint64_wait_until_any_vector(sigs, 2, NULL, 6, values);
}

static void signal_wait_cmp(void)
{
    (void)shmem_signal_wait_until(sigs, 9, 0);
}

static void lock_stack(void)
{
    long l = 0;

    shmem_set_lock(&l);
}

static void lock_malloc(void)
{
    long *l = calloc(1, sizeof(*l));

    (void)shmem_test_lock(l);
}

static void lock_misaligned(void)
{
    shmem_clear_lock((long *)((char *)heap + 4));
}

static shmem_ctx_t destroyed(void)
{
    shmem_ctx_t c;

    if (shmem_ctx_create(0, &c) != 0)
        exit(3);
    shmem_ctx_destroy(c);
    return c;
}

static void ctx_destroyed_put(void)
{
    long v = 1;

    shmem_ctx_long_put(destroyed(), heap, &v, 1, 0);
}

static void ctx_destroyed_amo(void)
{
    shmem_ctx_long_atomic_add(destroyed(), heap, 1, 0);
}

static void ctx_destroyed_quiet(void)
{
    shmem_ctx_quiet(destroyed());
}

static void ctx_destroyed_twice(void)
{
    shmem_ctx_destroy(destroyed());
}

static void ctx_destroy_default(void)
{
    shmem_ctx_destroy(SHMEM_CTX_DEFAULT);
}

static void ctx_bad_option(void)
{
    shmem_ctx_t c;

    (void)shmem_ctx_create(1L << 8, &c);
}

static void signal_op(void)
{
    long v = 1;

    shmem_putmem_signal(heap, &v, sizeof(v), sigs, 1, 5, 0);
}

static void signal_misaligned(void)
{
    shmem_signal_add((uint64_t *)((char *)sigs + 4), 1, 0);
}

static void signal_stack(void)
{
    uint64_t s = 0;
    long v = 1;

    shmem_long_put_signal(heap, &v, 1, &s, 1, SHMEM_SIGNAL_SET, 0);
}

#define MODE(name) {#name, name}
static const struct mode {
    const char *name;
    void (*run)(void);
} modes[] = {
    MODE(amo_misaligned),    MODE(amo_ctx_misaligned),  MODE(amo_stack),
    MODE(amo_malloc),        MODE(amo_generic_stack),   MODE(amo_old_stack),
    MODE(amo_pe_high),       MODE(wait_stack),          MODE(wait_all_malloc),
    MODE(test_any_stack),    MODE(signal_wait_stack),   MODE(old_wait_stack),
    MODE(old_wait_until_stack), MODE(old_typed_wait_stack), MODE(test_all_overflow),
    MODE(wait_cmp),
    MODE(test_cmp),          MODE(wait_vector_cmp),     MODE(signal_wait_cmp),
    MODE(lock_stack),        MODE(lock_malloc),         MODE(lock_misaligned),
    MODE(ctx_destroyed_put), MODE(ctx_destroyed_amo),   MODE(ctx_destroyed_quiet),
    MODE(ctx_destroyed_twice), MODE(ctx_destroy_default), MODE(ctx_bad_option),
    MODE(signal_op),         MODE(signal_misaligned),   MODE(signal_stack),
};

int main(int argc, char **argv)
{
    const struct mode *m = NULL;
    int me;

    for (size_t i = 0; argc > 1 && i < sizeof(modes) / sizeof(modes[0]); i++)
        if (!strcmp(argv[1], modes[i].name))
            m = &modes[i];
    if (!m) {
        fprintf(stderr, "usage: sync_bad MODE (a name from the mode table)\n");
        return 2;
    }
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    heap = shmem_calloc(4, sizeof(long));
    sigs = shmem_calloc(2, sizeof(uint64_t));
    shmem_barrier_all();
    if (me == npes - 1) {
        m->run();
        fprintf(stderr, "sync_bad: %s went unnoticed on pe %d\n", m->name, me);
    }
    shmem_barrier_all();
    shmem_finalize();
    return 4;
}
