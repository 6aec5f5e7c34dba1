/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The C side of bench/python/overhead.py: the same two loops, timed the same way, in C. PE 0
 * puts 8 bytes to PE 1 and quiets (shmem_putmem + shmem_quiet), ITERS times a trial; every PE
 * runs shmem_barrier_all ITERS / 4 times a trial. TRIALS trials each after one warm-up trial;
 * the median per iteration of the wall-clock time and of the process's CPU time (which a
 * machine shared with other work disturbs less) is printed as `case=NAME lang=c ns=V cpu=V`.
 *
 * Usage: overhead_c [ITERS]   (under symmrun -n 2)
 */
#define _POSIX_C_SOURCE 200809L

#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define TRIALS 7

static double now_ns(clockid_t c)
{
    struct timespec t;

    clock_gettime(c, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static double median(double *v)
{
    qsort(v, TRIALS, sizeof(*v), cmp);
    return v[TRIALS / 2];
}

int main(int argc, char **argv)
{
    long iters = argc > 1 ? atol(argv[1]) : 200000;
    double put[TRIALS], bar[TRIALS], put_cpu[TRIALS], bar_cpu[TRIALS];
    long *word, src = 0;
    int me;

    shmem_init();
    me = shmem_my_pe();
    word = shmem_malloc(sizeof(long));
    shmem_barrier_all();
    for (int t = -1; t < TRIALS; t++) {
        double t0 = now_ns(CLOCK_MONOTONIC), c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
        if (me == 0 && shmem_n_pes() > 1)
            for (long i = 0; i < iters; i++) {
                src = i;
                shmem_putmem(word, &src, sizeof(src), 1);
                shmem_quiet();
            }
        if (t >= 0) {
            put[t] = (now_ns(CLOCK_MONOTONIC) - t0) / iters;
            put_cpu[t] = (now_ns(CLOCK_PROCESS_CPUTIME_ID) - c0) / iters;
        }
        shmem_barrier_all();
    }
    for (int t = -1; t < TRIALS; t++) {
        double t0 = now_ns(CLOCK_MONOTONIC), c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
        for (long i = 0; i < iters / 4; i++)
            shmem_barrier_all();
        if (t >= 0) {
            bar[t] = (now_ns(CLOCK_MONOTONIC) - t0) / (iters / 4);
            bar_cpu[t] = (now_ns(CLOCK_PROCESS_CPUTIME_ID) - c0) / (iters / 4);
        }
    }
    if (me == 0) {
        printf("case=put8_quiet lang=c ns=%.1f cpu=%.1f\n", median(put), median(put_cpu));
        printf("case=barrier_all lang=c ns=%.1f cpu=%.1f\n", median(bar), median(bar_cpu));
    }
    shmem_free(word);
    shmem_finalize();
    return 0;
}
