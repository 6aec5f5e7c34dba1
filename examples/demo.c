/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The symm demo: a few readable lines per step showing the symmetric heap at work on every PE
 * of a job: the same offset everywhere, shmem_ptr translation, a ring of puts and gets, a
 * barrier, and a small latency and bandwidth table measured between PE 0 and PE 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <shmem.h>
#include <shmemx.h>

static long ring_in;           /* a global: symmetric too */

static double now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Prints one line per PE, in PE order. */
static void in_order(const char *line)
{
    for (int pe = 0; pe < shmem_n_pes(); pe++) {
        if (pe == shmem_my_pe()) {
            printf("%s\n", line);
            fflush(stdout);
        }
        shmem_barrier_all();
    }
}

static void measure(char *buf)
{
    size_t big = 1 << 20;
    char *b = shmem_malloc(big);
    long *x = shmem_malloc(sizeof(long));
    int iters = 20000;
    double t, put_ns, g_ns, bw;

    if (shmem_my_pe() == 0 && shmem_n_pes() > 1) {
        t = now_us();
        for (int i = 0; i < iters; i++) {
            shmem_long_p(x, i, 1);
            shmem_quiet();
        }
        put_ns = (now_us() - t) * 1e3 / iters;
        t = now_us();
        for (int i = 0; i < iters; i++)
            (void)shmem_long_g(x, 1);
        g_ns = (now_us() - t) * 1e3 / iters;
        t = now_us();
        for (int i = 0; i < 200; i++)
            shmem_putmem(b, b, big, 1);
        shmem_quiet();
        bw = 200.0 * big / ((now_us() - t) * 1e3);
        sprintf(buf, "  8-byte put + quiet  %7.1f ns\n  8-byte get (g)      %7.1f ns\n"
                     "  1 MiB putmem        %7.1f GB/s\n", put_ns, g_ns, bw);
    }
    shmem_barrier_all();
    t = now_us();
    for (int i = 0; i < 1000; i++)
        shmem_barrier_all();
    if (shmem_my_pe() == 0)
        sprintf(buf + strlen(buf), "  barrier_all         %7.1f ns  (%d PEs)\n",
                (now_us() - t) * 1e3 / 1000, shmem_n_pes());
    shmem_free(x);
    shmem_free(b);
}

int main(void)
{
    char line[256], table[512] = "";
    int me, n, right, left;
    long *block, got;

    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    right = (me + 1) % n;
    left = (me + n - 1) % n;
    if (me == 0)
        printf("symm demo: %d PEs\n\n1. One collective allocation, one block per PE at the same "
               "offset:\n", n);
    block = shmem_malloc(4 * sizeof(long));
    snprintf(line, sizeof(line), "  pe %d: block at heap offset %#lx, address %p; pe %d's block "
             "is mapped here at %p", me, (unsigned long)((char *)block - (char *)shmemx_heap_base(me)),
             (void *)block, right, shmem_ptr(block, right));
    in_order(line);

    if (me == 0)
        printf("\n2. A ring of puts: every PE writes its number into its right neighbour's "
               "block and into a global:\n");
    block[0] = -1;
    shmem_barrier_all();
    shmem_long_p(&block[0], 100 + me, right);
    shmem_long_p(&ring_in, 1000 + me, right);
    shmem_barrier_all();
    snprintf(line, sizeof(line), "  pe %d received %ld from pe %d (global: %ld)", me, block[0],
             left, ring_in);
    in_order(line);

    if (me == 0)
        printf("\n3. A ring of gets: every PE reads its left neighbour's block:\n");
    got = shmem_long_g(&block[0], left);
    snprintf(line, sizeof(line), "  pe %d read %ld from pe %d", me, got, left);
    in_order(line);

    if (me == 0)
        printf("\n4. Timings between pe 0 and pe 1:\n");
    measure(table);
    if (me == 0)
        printf("%s\n%s\n", n > 1 ? table : "  (needs 2 PEs or more)\n", "done.");
    shmem_free(block);
    shmem_finalize();
    return 0;
}
