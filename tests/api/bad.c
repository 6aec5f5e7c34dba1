/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Bad input, one mistake per run (the mode is the first argument). The last PE makes the
 * mistake while the others wait in a barrier, so the job must be brought down from the PE
 * that found the error; calls before shmem_init and collective calls are made by every PE,
 * and in the collective mismatches (run under SHMEM_DEBUG=1) PE 1 disagrees. The program never
 * returns normally from a mode: the run is judged by tests/run_expect_fail.sh (the message,
 * a non-zero exit status, nothing left behind).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <shmem.h>

static long sym_long[64];
static double sym_double[8];
static int sym_int[8];
static char sym_char[8];
static short sym_short[8];

typedef struct mode {
    const char *name;
    int before_init; /* every PE calls it before shmem_init */
    int collective;  /* every PE calls it after shmem_init (PE 1 differently, where it can) */
    void (*bad)(int n);
} bad_mode_t;

static void put_pe_high(int n)
{
    long src[4] = {0};

    shmem_long_put(sym_long, src, 4, n);
}

static void put_pe_neg(int n)
{
    long src[4] = {0};

    shmem_long_put(sym_long, src, 4, -1);
}

static void get_pe_high(int n)
{
    double dst[4];

    shmem_double_get(dst, sym_double, 4, n);
}

static void p_pe_neg(int n)
{
    shmem_int_p(sym_int, 1, -1);
}

static void g_pe_high(int n)
{
    (void)shmem_char_g(sym_char, n);
}

static void iput_pe_high(int n)
{
    short src[4] = {0};

    shmem_ctx_short_iput(SHMEM_CTX_DEFAULT, sym_short, src, 1, 1, 4, n);
}

static void putmem_pe_neg(int n)
{
    char src[8] = {0};

    shmem_putmem_nbi(sym_long, src, 8, -1);
}

static void put64_pe_high(int n)
{
    uint64_t src[2] = {0};

    shmem_put64(sym_long, src, 2, n);
}

static void ptr_pe_high(int n)
{
    (void)shmem_ptr(sym_long, n);
}

static void put_stack(int n)
{
    long local[4], src[4] = {0};

    shmem_long_put(local, src, 4, 0);
}

static void put_malloc(int n)
{
    long *m = malloc(4 * sizeof(long)), src[4] = {0};

    shmem_long_put(m, src, 4, 0);
}

/* An address known in advance, so the message can be matched exactly. */
static void put_fixed(int n)
{
    long src[4] = {0};
    void *at = (void *)(uintptr_t)0x5a5a00000000ull;
    void *p = mmap(at, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
                   -1, 0);

    if (p != at) {
        fprintf(stderr, "bad: cannot map a page at %p\n", at);
        exit(3);
    }
    shmem_long_put(p, src, 4, 0);
}

static void get_stack(int n)
{
    int local[4] = {0}, dst[4];

    shmem_int_get(dst, local, 4, 0);
}

static void p_malloc(int n)
{
    float *m = malloc(sizeof(float));

    shmem_float_p(m, 1.0f, 0);
}

/* Starts inside symmetric memory, ends far beyond it. */
static void put_overrun(int n)
{
    long src[1] = {0};

    shmem_long_put(sym_long, src, (size_t)1 << 37, 0);
}

static void malloc_before_init(int n)
{
    (void)shmem_malloc(100);
}

static void p_before_init(int n)
{
    shmem_long_p(sym_long, 1, 0);
}

static void barrier_before_init(int n)
{
    shmem_barrier_all();
}

static void p_after_finalize(int n)
{
    shmem_finalize();
    shmem_long_p(sym_long, 1, 0);
}

static void free_stack(int n)
{
    long local[4];

    shmem_free(local);
}

static void align_three(int n)
{
    (void)shmem_align(3, 64);
}

static void calloc_overflow(int n)
{
    (void)shmem_calloc(SIZE_MAX / 2, 4);
}

static void iput_stride(int n)
{
    long src[4] = {0};

    shmem_long_iput(sym_long, src, 0, 1, 4, (shmem_my_pe() + 1) % n);
}

/* PE 1 asks for another size. */
static void malloc_size(int n)
{
    (void)shmem_malloc(shmem_my_pe() == 1 ? 100 : 200);
}

/* PE 1 makes the same two calls in the other order. */
static void malloc_order(int n)
{
    int one = shmem_my_pe() == 1;

    (void)shmem_malloc(one ? 300 : 200);
    (void)shmem_malloc(one ? 200 : 300);
}

/* PE 1 asks for another alignment. */
static void align_differs(int n)
{
    (void)shmem_align(shmem_my_pe() == 1 ? 4096 : 128, 200);
}

static const bad_mode_t modes[] = {
    {"put_pe_high", 0, 0, put_pe_high},
    {"put_pe_neg", 0, 0, put_pe_neg},
    {"get_pe_high", 0, 0, get_pe_high},
    {"p_pe_neg", 0, 0, p_pe_neg},
    {"g_pe_high", 0, 0, g_pe_high},
    {"iput_pe_high", 0, 0, iput_pe_high},
    {"putmem_pe_neg", 0, 0, putmem_pe_neg},
    {"put64_pe_high", 0, 0, put64_pe_high},
    {"ptr_pe_high", 0, 0, ptr_pe_high},
    {"put_stack", 0, 0, put_stack},
    {"put_malloc", 0, 0, put_malloc},
    {"put_fixed", 0, 0, put_fixed},
    {"get_stack", 0, 0, get_stack},
    {"p_malloc", 0, 0, p_malloc},
    {"put_overrun", 0, 0, put_overrun},
    {"malloc_before_init", 1, 0, malloc_before_init},
    {"p_before_init", 1, 0, p_before_init},
    {"barrier_before_init", 1, 0, barrier_before_init},
    {"p_after_finalize", 0, 0, p_after_finalize},
    {"free_stack", 0, 1, free_stack},
    {"align_three", 0, 0, align_three},
    {"calloc_overflow", 0, 0, calloc_overflow},
    {"iput_stride", 0, 0, iput_stride},
    {"malloc_size", 0, 1, malloc_size},
    {"malloc_order", 0, 1, malloc_order},
    {"align_differs", 0, 1, align_differs},
};

int main(int argc, char **argv)
{
    const bad_mode_t *m = NULL;
    int me, n;

    for (size_t i = 0; argc > 1 && i < sizeof(modes) / sizeof(modes[0]); i++)
        if (!strcmp(argv[1], modes[i].name))
            m = &modes[i];
    if (!m) {
        fprintf(stderr, "usage: bad MODE (see tests/api/bad.c)\n");
        return 2;
    }
    if (m->before_init) {
        m->bad(1);
        fprintf(stderr, "bad: %s before shmem_init returned\n", m->name);
        return 0;
    }
    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    shmem_barrier_all();
    if (m->collective) {
        m->bad(n);
    } else if (me == n - 1) {
        m->bad(n);
    } else if (!strcmp(m->name, "p_after_finalize")) {
        shmem_finalize();
        return 0;
    }
    /* Only reached when the mistake went unnoticed. */
    shmem_barrier_all();
    fprintf(stderr, "bad: %s went unnoticed on pe %d\n", m->name, me);
    return 0;
}
